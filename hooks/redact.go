package hooks

import "context"

// Redaction returns a PostToolUse hook named name that masks secrets in
// every tool's output with redact: it answers [MutateOutput] when redact
// changed the output, and nothing otherwise. It never blocks, so it runs
// inline ([NoTimeout]); redact must be safe for concurrent use, and a
// panic in it is the chain's to isolate, like any hook's.
//
// Give the same function to [AuditOptions.Redact], so that the audit log
// masks the call's input (and its output preview) as this hook masks the
// output:
//
//	redact := mySecrets.Mask
//	audit, err := hooks.NewAuditLog(db, hooks.AuditOptions{Redact: redact})
//	set := hooks.NewSet(hooks.Redaction("redaction", redact), audit.Hook())
func Redaction(name string, redact func(string) string) Hook {
	return Hook{
		Name:    name,
		Timeout: NoTimeout,
		PostToolUse: func(_ context.Context, e PostToolUseEvent) (PostToolUseResult, error) {
			if r := redact(e.Output); r != e.Output {
				return MutateOutput(r), nil
			}
			return PostToolUseResult{}, nil
		},
	}
}

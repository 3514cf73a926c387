// Package customhook shows how to write hooks of your own and test them
// with hookstest: a PostToolUse hook that masks secrets in tool output, and
// a PreToolUse hook that blocks calls whose input matches a pattern.
package customhook

import (
	"context"
	"regexp"

	"github.com/toolgate/toolgate/hooks"
)

// secretPatterns match credentials that must not reach the model or the
// logs. Each keeps a recognisable prefix and masks the rest.
var secretPatterns = []struct {
	re   *regexp.Regexp
	mask string
}{
	{regexp.MustCompile(`\b(AKIA|ASIA)[0-9A-Z]{16}\b`), "${1}****************"},                                              // AWS access key id
	{regexp.MustCompile(`(?i)(aws_secret_access_key\s*[=:]\s*)[A-Za-z0-9/+=]{40}`), "${1}****"},                              // AWS secret key
	{regexp.MustCompile(`\b(gh[pousr]_)[A-Za-z0-9]{36,}\b`), "${1}****"},                                                     // GitHub tokens
	{regexp.MustCompile(`\b(sk-)[A-Za-z0-9_-]{20,}\b`), "${1}****"},                                                          // API keys in the sk- style
	{regexp.MustCompile(`(?i)(bearer\s+)[A-Za-z0-9._~+/=-]{16,}`), "${1}****"},                                               // bearer tokens
	{regexp.MustCompile(`(?i)\b((?:password|passwd|secret|token|api_key)\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s"']+)`), "${1}****"}, // key=value secrets
}

// Redact returns s with the secrets it recognises masked.
func Redact(s string) string {
	for _, p := range secretPatterns {
		s = p.re.ReplaceAllString(s, p.mask)
	}
	return s
}

// Redaction returns a PostToolUse hook that masks secrets in every tool's
// output with [Redact] ([hooks.Redaction]). It answers MutateOutput only
// when something was masked. It never blocks, so it runs inline. Give
// [Redact] to the audit log too ([hooks.AuditOptions].Redact), so that the
// input each row keeps is masked by the same patterns.
func Redaction() hooks.Hook { return hooks.Redaction("redaction", Redact) }

// BlockPattern returns a PreToolUse hook that blocks a call of a tool
// matching tools (nil: every tool) when its raw JSON input matches
// pattern. The reason names the pattern.
func BlockPattern(name string, tools *regexp.Regexp, pattern *regexp.Regexp, reason string) hooks.Hook {
	return hooks.Hook{
		Name:    name,
		Timeout: hooks.NoTimeout,
		PreToolUse: func(_ context.Context, e hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
			if tools != nil && !tools.MatchString(e.ToolName) {
				return hooks.PreToolUseResult{}, nil
			}
			if pattern.Match(e.Input) {
				return hooks.Block(reason + " (input matches " + pattern.String() + ")"), nil
			}
			return hooks.PreToolUseResult{}, nil
		},
	}
}

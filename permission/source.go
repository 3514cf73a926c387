package permission

// Source is where an answer came from, in the original design's
// multi-source precedence: P0 (highest) to P8 (lowest). Lower values win.
//
// The zero value is SourceConfigDeny (P0), the strongest source, so an
// answer whose source was never set is never weaker than it claims.
type Source uint8

const (
	// SourceConfigDeny (P0) is a Deny rule from configuration: settings
	// files, environment variables or Go construction.
	SourceConfigDeny Source = iota
	// SourceToolDeny (P1) is a tool-level Deny: the tool's own rules, or a
	// content guard (sandbox, shell analysis) refusing the input.
	SourceToolDeny
	// SourceSessionDeny (P2) is a Deny rule added to a session at run time.
	SourceSessionDeny
	// SourceHookBlock (P3) is a PreToolUse hook's Block.
	SourceHookBlock
	// SourceHookAsk (P4) is a PreToolUse hook's PermissionRequired.
	SourceHookAsk
	// SourceRuleAsk (P5) is an Ask rule, from configuration or added to a
	// session.
	SourceRuleAsk
	// SourceToolAsk (P6) is a tool-level Ask: the tool's own rules, or a
	// content guard asking for confirmation.
	SourceToolAsk
	// SourceAllow (P7) is an explicit Allow rule, from configuration or a
	// session.
	SourceAllow
	// SourceDefault (P8) is the default for a call that no rule matched.
	SourceDefault
)

var sourceNames = [...]string{
	"P0 config deny", "P1 tool deny", "P2 session deny", "P3 hook block",
	"P4 hook permission-required", "P5 ask rule", "P6 tool ask", "P7 allow rule", "P8 default",
}

// String returns the source with its priority, such as "P0 config deny".
func (s Source) String() string {
	if int(s) < len(sourceNames) {
		return sourceNames[s]
	}
	return "P? unknown"
}

// Final reports whether a Deny from s can never be overridden (P0–P2).
func (s Source) Final() bool { return s <= SourceSessionDeny }

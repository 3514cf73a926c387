package permission

// RuleID names the rule or the check that gave an answer: a user's rule
// in Claude Code syntax, kept as it was written ("Bash(rm:*)", "Read"), or
// a built-in check, "family:name" ("sandbox:outside-roots",
// "dangerous:rm-critical", "runtime:step-limit"). The package that emits a
// built-in check declares its RuleID as a constant; the text is what audit
// rows and hook output carry, so it never changes meaning.
type RuleID string

// The rule IDs this package emits.
const (
	// RuleDefault is the per-kind default answer (P8): no rule matched.
	RuleDefault RuleID = "default"
	// RuleCheckerUnset is the answer of a nil or empty Checker: Deny.
	RuleCheckerUnset RuleID = "checker:unset"
	// RuleCombineNoAnswer is Combine's Deny when no source answered.
	RuleCombineNoAnswer RuleID = "combine:no-answer"
	// RuleCombineInvalid is Combine's Deny for an answer with an invalid
	// decision.
	RuleCombineInvalid RuleID = "combine:invalid"
	// RuleCombineNoBase is Combine's Deny when only Ask sources of no
	// weight answered: no rule or default.
	RuleCombineNoBase RuleID = "combine:no-base"
)

// ModeRule is the rule ID of an answer the permission mode m gave:
// "mode:" and the mode's name ("mode:plan", "mode:dontAsk").
func ModeRule(m Mode) RuleID { return "mode:" + RuleID(m.String()) }

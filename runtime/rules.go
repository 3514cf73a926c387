package runtime

import (
	"github.com/toolgate/toolgate/internal/content"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime/approval"
)

// The rule IDs of layer 7 (the session's limits) and of the Pipeline's
// own checks, as a [Verdict] names them.
const (
	RuleCancelled      permission.RuleID = "runtime:cancelled"       // the session is cancelled
	RuleStepLimit      permission.RuleID = "runtime:step-limit"      // the session's step limit is reached
	RuleRepeat         permission.RuleID = "runtime:repeat"          // the same call repeated too often
	RuleCycle          permission.RuleID = "runtime:cycle"           // a cycle of calls repeated too often
	RulePanic          permission.RuleID = "runtime:panic"           // the check panicked
	RuleUnknownSession permission.RuleID = "runtime:unknown-session" // no live session has the call's id
	RuleNotStarted     permission.RuleID = "runtime:not-started"     // admitted, but the batch ended first
	RuleStore          permission.RuleID = "runtime:store"           // the store could not be read
)

// The rule IDs of a call's input refused before any layer reads it.
const (
	RuleNoTool      permission.RuleID = "input:no-tool"      // the call names no tool
	RuleUnknownTool permission.RuleID = "input:unknown-tool" // not in the session's tool set
	RuleTooBig      permission.RuleID = "input:too-big"      // over the size limit
	RuleTooDeep     permission.RuleID = "input:too-deep"     // nested too deep
	RuleNotObject   permission.RuleID = "input:not-object"   // not a JSON object, or a duplicate key
)

// The rule IDs of the Executor's own answers.
const (
	RuleExecutorNoCheck    permission.RuleID = "executor:no-check"    // the Executor has no check
	RuleExecutorCheckPanic permission.RuleID = "executor:check-panic" // its check panicked
)

// The rule IDs of the content stage's checks of a call's declared fields,
// URLs and hosts.
const (
	RuleMissingField    = content.RuleMissingField    // a declared field is missing or empty
	RuleFieldCase       = content.RuleFieldCase       // a key differs from a declared field only in letter case
	RuleFieldType       = content.RuleFieldType       // a declared field of the wrong JSON type
	RulePathSpace       = content.RulePathSpace       // a path with white space at its start or end
	RulePathNFC         = content.RulePathNFC         // a path not in Unicode NFC
	RuleURL             = content.RuleURL             // not a URL, or one without a host
	RuleURLScheme       = content.RuleURLScheme       // a URL other than http or https
	RuleURLHost         = content.RuleURLHost         // a host name that cannot be one
	RuleDomain          = content.RuleDomain          // a domain entry that cannot be one
	RuleNetworkInternal = content.RuleNetworkInternal // a URL that reaches an internal address
	RuleShellNone       = content.RuleShellNone       // a shell command with no guard configured
)

// The rule IDs of the answers to an Ask, and of layer 6.
const (
	RuleAllowOnce   permission.RuleID = "person:allow-once"   // the person allowed the call once
	RuleAllowAlways permission.RuleID = "person:allow-always" // the person allowed it from now on
	RuleDenied      permission.RuleID = "person:deny"         // the person denied it
	RuleTimeout     permission.RuleID = "person:timeout"      // no answer in time
	RuleUnanswered  permission.RuleID = "person:unanswered"   // no one could be asked, or asking failed
	RuleSilent      permission.RuleID = "subagent:silent"     // an Ask in a session that cannot ask
)

// allowedRule is the rule ID of the person's Allow c.
func allowedRule(c approval.Choice) permission.RuleID {
	if c == approval.AllowAlways {
		return RuleAllowAlways
	}
	return RuleAllowOnce
}

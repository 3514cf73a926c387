package runtime

import "github.com/toolgate/toolgate/permission"

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

package runtime

import (
	"encoding/json"

	"github.com/toolgate/toolgate/permission"
)

// Verdict is the Pipeline's answer for one call, with everything the
// host needs to act on it and explain it.
//
// The zero Verdict is a Deny.
type Verdict struct {
	// Decision is the answer. Only Allow lets the call run.
	Decision permission.Decision
	// Layer is the layer that decided.
	Layer permission.Layer
	// Rule is the rule (Claude Code syntax) or the named check that
	// decided.
	Rule string
	// Reason explains the decision to a person.
	Reason string
	// Input is the call's input after the PreToolUse hooks: run the tool
	// with it.
	Input json.RawMessage
	// Context joins the hooks' additional contexts, for the model.
	Context string
	// Conflicts lists the answers this one overrode.
	Conflicts []permission.Conflict
	// Commands lists, for a shell call, each simple command with its own
	// verdict.
	Commands []CommandVerdict
	// Asked reports that a person was asked; Answer is what they chose.
	Asked  bool
	Answer Choice
	// Status is the session's layer-7 state after the check: its signals
	// tell the host to nudge, stop offering tools, or stop.
	Status Status
}

// CommandVerdict is the verdict on one simple command of a shell call.
type CommandVerdict struct {
	// Args is the argv as bash would see it.
	Args []string
	// Decision, Layer, Rule and Reason are this command's own verdict:
	// the shell guard's and the rules', combined.
	Decision permission.Decision
	Layer    permission.Layer
	Rule     string
	Reason   string
	// Pos is where the command stands in the script ("line:col").
	Pos string
}

func verdictOf(r permission.Result) Verdict {
	return Verdict{Decision: r.Decision, Layer: r.Layer, Rule: r.Rule, Reason: r.Reason, Conflicts: r.Conflicts.Slice()}
}

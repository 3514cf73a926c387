package runtime

import (
	"encoding/json"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime/approval"
)

// Verdict is the Pipeline's answer for one call, with everything the
// host needs to act on it and explain it.
//
// The zero Verdict is a Deny.
type Verdict struct {
	// Result is the decision with its explanation: the layer and rule
	// that decided, the reason, the answers it overrode and, where an
	// error decided, its cause (errors.As reaches a sandbox.PathError or
	// a shell syntax.ParseError). Only an Allow lets the call run.
	permission.Result
	// Input is the call's input after the PreToolUse hooks: run the tool
	// with it.
	Input json.RawMessage
	// Context joins the hooks' additional contexts, for the model.
	Context string
	// Commands lists, for a shell call, each simple command with its own
	// verdict.
	Commands []CommandVerdict
	// Asked reports that a person was asked; Answer is what they chose.
	Asked  bool
	Answer approval.Choice
	// Status is the session's layer-7 state after the check: its signals
	// tell the host to nudge, stop offering tools, or stop.
	Status Status
	// Ticket, on an Ask that no Asker answered, names the approval the
	// store keeps pending: park the call and pass the ticket to
	// [Pipeline.Resume], here or on another replica.
	Ticket string
}

// CommandVerdict is the verdict on one simple command of a shell call.
type CommandVerdict struct {
	// Args is the argv as bash would see it.
	Args []string
	// Result is this command's own verdict: the shell guard's and the
	// rules', combined.
	permission.Result
	// Pos is where the command stands in the script ("line:col").
	Pos string
}

func verdictOf(r permission.Result) Verdict {
	return Verdict{Result: r}
}

// overridden records that v's own answer is about to be overridden: it
// goes first in the conflict log, before the answers it overrode itself.
// It returns that answer.
func (v *Verdict) overridden() permission.Conflict {
	prev := permission.Conflict{Decision: v.Decision, Layer: v.Layer, Source: v.Source, Rule: v.Rule, Reason: v.Reason}
	var log permission.Conflicts
	log.Add(prev)
	for c := range v.Conflicts.All() {
		log.Add(c)
	}
	v.Conflicts = log
	return prev
}

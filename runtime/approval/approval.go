package approval

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime/store"
)

// Choice is a person's answer to a request for approval. The zero value is
// Deny.
type Choice uint8

const (
	// Deny refuses the call.
	Deny Choice = iota
	// AllowOnce lets this one call run.
	AllowOnce
	// AllowAlways lets this call run and records session rules allowing
	// exactly what was asked (see [permission.AllowAlwaysRules]).
	AllowAlways
)

// String returns "deny", "allow-once" or "allow-always"; an out-of-range
// value prints as "deny(N)".
func (c Choice) String() string {
	switch c {
	case Deny:
		return "deny"
	case AllowOnce:
		return "allow-once"
	case AllowAlways:
		return "allow-always"
	}
	return fmt.Sprintf("deny(%d)", uint8(c))
}

// Answer is the reply to a [Request]. The zero value is a Deny.
type Answer struct {
	// Choice is what the person chose.
	Choice Choice
	// Reason explains the choice; for a Deny it is shown to the model.
	Reason string
	// Scope is where an AllowAlways answer granted the rules, when the
	// asker records grants itself ([StoreAsker] does, in its store);
	// zero, [store.ScopeSession], means the session, whose rules the
	// pipeline adds.
	Scope store.Scope
	// Unanswered is set by [AskWithTimeout] when no person answered: no
	// asker, an error, a panic, an abandoned or expired wait, an unknown
	// choice. The answer is then a Deny whose Reason says what happened,
	// not what a person chose; it wraps [ErrTimeout] when the wait expired.
	Unanswered error
}

// Request asks a person to approve one call.
type Request struct {
	// ID identifies the request, unique among pending ones; [ChanAsker]
	// assigns one when empty. [StoreAsker] never keys an approval by it
	// (it is the model's call id, which two sessions may share).
	ID string
	// Session is the session's id.
	Session string
	// Tool is the tool's name.
	Tool string
	// Input is the call's input as the checks saw it.
	Input json.RawMessage
	// Layer, Rule and Reason say why the call needs approval.
	Layer  permission.Layer
	Rule   string
	Reason string
	// Commands lists, for a shell call, the argv of each simple command.
	Commands [][]string
	// Agent names the agent that made the call ("lead", or a
	// subagent's name).
	Agent string
	// Script is, for a shell call, the script the tool would run, and
	// ScriptCommands its simple commands with where each stands and
	// whether it is why the call asks: what an approval page marks.
	Script         string
	ScriptCommands []store.ApprovalCommand
	// AlwaysRules are the session rules an AllowAlways answer would record;
	// empty when AllowAlways is not offered (it then counts as AllowOnce).
	AlwaysRules []string
	// Explanation is the layer-by-layer account of the decision, one
	// line per layer that had a say.
	Explanation string
}

// Asker asks a person to approve a call. The host supplies it. Ask blocks
// until the person answers or ctx is done; it must be safe for concurrent
// use. An error is taken as a Deny.
type Asker interface {
	Ask(ctx context.Context, req Request) (Answer, error)
}

// AskerFunc adapts a function to [Asker].
type AskerFunc func(ctx context.Context, req Request) (Answer, error)

// Ask calls f.
func (f AskerFunc) Ask(ctx context.Context, req Request) (Answer, error) { return f(ctx, req) }

package subagent

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

// Task is what a parent gives a subagent to do.
type Task struct {
	// ID is the child's session id; empty means parent + "/" + the spec's
	// name, which is unique only while one such child runs at a time.
	ID string
	// CallID is the parent's tool call that starts the child, if any.
	CallID string
	// Prompt is the task itself: the child's first and only user message.
	Prompt string
}

// Child is a running subagent: a child session of a live parent session in
// a [runtime.Pipeline]. It is checked by the parent's checker and hooks, is
// silent (an Ask becomes a Deny, interaction tools are denied), has its own
// step count, repeated-call detector and token budget, and is cancelled
// with its parent.
//
// A Child is safe for concurrent use. End it with [Child.End], or run it to
// the end with [Child.Run].
type Child struct {
	p       *runtime.Pipeline
	spec    Spec
	task    Task
	id      string
	session *runtime.Session
	// stop stops the cancellation of the child with Spawn's context.
	stop    func() bool
	endOnce sync.Once
}

// Spawn starts a subagent described by spec as a child of the live session
// parent, for task. The spec is validated ([Spec.Validate]) against the
// pipeline's tools; the runtime then holds the child to its live parent's
// tool set, mode, nesting depth and running children as it starts it.
// Every refusal is an [*Error] with the reason, wrapping [ErrWiden] when
// the spec would widen the parent's rights.
//
// The child is cancelled when the parent session is cancelled or ends, and
// when ctx is cancelled. SubagentStart fires on the pipeline's hooks.
func Spawn(ctx context.Context, p *runtime.Pipeline, parent string, spec Spec, task Task) (*Child, error) {
	if p == nil {
		return nil, &Error{Spec: spec.Name, Reason: "no pipeline", Err: ErrInvalid}
	}
	// The parent's mode is compared by the runtime, against the live
	// parent: here every mode passes.
	if err := spec.Validate(p.Tools(), permission.ModeBypassPermissions); err != nil {
		return nil, err
	}
	if task.ID == "" {
		task.ID = parent + "/" + spec.Name
	}
	s, err := p.Session(ctx, runtime.SessionOptions{ID: task.ID, Child: spec.child(parent, task)})
	if err != nil {
		return nil, &Error{Spec: spec.Name, Reason: err.Error(), Err: err}
	}
	stop := context.AfterFunc(ctx, func() {
		s.Cancel(fmt.Sprintf("the context of the spawn ended: %v", context.Cause(ctx)))
	})
	return &Child{p: p, spec: spec, task: task, id: task.ID, session: s, stop: stop}, nil
}

// ID returns the child's session id.
func (c *Child) ID() string { return c.id }

// Name returns the subagent's name, as its events carry it.
func (c *Child) Name() string { return c.spec.Name }

// Task returns the task the child was given.
func (c *Child) Task() Task { return c.task }

// Session returns the child's layer-7 state: its context, steps and
// budget.
func (c *Child) Session() *runtime.Session { return c.session }

// Rules returns the child's session rules. They see the parent's rules,
// also those granted later; adding to them narrows the child only, and an
// Allow fails with [permission.ErrNarrowOnly].
func (c *Child) Rules() *permission.SessionRules { return c.session.Rules() }

// Check checks one call of the child through the pipeline: tool, its
// name, and input, its JSON input. The call is always the child's,
// whatever session a caller might name.
func (c *Child) Check(ctx context.Context, id, tool string, input json.RawMessage) runtime.Verdict {
	return c.p.Check(ctx, runtime.Call{Session: c.id, ID: id, Tool: tool, Input: input})
}

// End ends the child session with reason: it is cancelled, SessionStop and
// SubagentStop fire, and the parent's count of running children drops (if
// the child's cancellation has not dropped it already). It reports whether
// this call ended it.
func (c *Child) End(reason string) bool {
	return c.end(reason, "", nil)
}

// end ends the child, giving the parent's SubagentStop hooks its final
// output and error.
func (c *Child) end(reason, output string, err error) bool {
	ended := false
	c.endOnce.Do(func() {
		c.stop()
		ended = c.session.End(reason, output, err)
	})
	return ended
}

// String describes the child for logs: its name and session id.
func (c *Child) String() string { return fmt.Sprintf("subagent %q (session %s)", c.spec.Name, c.id) }

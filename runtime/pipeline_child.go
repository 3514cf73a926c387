package runtime

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
)

// ChildOptions describe a child (subagent) session. A child can only ever
// hold fewer rights than its parent: see [Pipeline.StartChild].
type ChildOptions struct {
	// ID identifies the child session.
	ID string
	// Name is the subagent's name: its events and audit rows carry it.
	Name string
	// Tools names the tools the child may call; each must be in the
	// parent's tool set. Empty means the parent's set.
	Tools []string
	// Deny and Ask are rules added to the child's session rules.
	Deny, Ask []string
	// Mode is the child's mode; it must not be more permissive than the
	// parent's (bypassPermissions only under a bypassing parent). The zero
	// value is the parent's mode.
	Mode *permission.Mode
	// MaxDepth bounds nesting: the child's depth (1 for a child of a
	// top-level session) must not exceed it. Zero means 1: a subagent does
	// not start subagents.
	MaxDepth int
	// MaxChildren bounds the running children of the parent. Zero means 4.
	MaxChildren int
	// MaxSteps is the child's own step limit, in place of the pipeline's
	// Limits.MaxSteps; zero means the pipeline's.
	MaxSteps int
	// CallID is the parent's tool call that starts the child, and Task the
	// prompt it is given, for the SubagentStart hooks.
	CallID, Task string
}

// ErrWiden is wrapped by every refusal of [Pipeline.StartChild] to give a
// child more than its parent has.
var ErrWiden = errors.New("runtime: a child session cannot hold more rights than its parent")

// StartChild starts a child session of the live session parentID. The child
// is silent (an Ask becomes a Deny, interaction tools are denied), has its
// own layer-7 state, is cancelled with its parent, sees its parent's
// session rules (also those granted later) while its own never reach the
// parent, and is checked by the parent's checker and hooks. The options may
// only narrow: a tool outside the parent's set, a more permissive mode, an
// Allow rule, a nesting depth or a number of running children past the
// bound are errors wrapping ErrWiden, with the reason.
//
// SubagentStart fires on the parent's hooks. End the child with
// [Pipeline.EndSession]; SubagentStop then fires too. A child counts among
// its parent's running children until it ends or is cancelled (through
// ctx or its parent), whichever comes first.
func (p *Pipeline) StartChild(ctx context.Context, parentID string, o ChildOptions) (*Session, error) {
	parent := p.agent(parentID)
	if parent == nil {
		return nil, errUnknownSession(parentID)
	}
	if o.Name == "" {
		return nil, errors.New("runtime: a child session needs a name")
	}
	maxDepth, maxChildren := o.MaxDepth, o.MaxChildren
	if maxDepth == 0 {
		maxDepth = 1
	}
	if maxChildren == 0 {
		maxChildren = 4
	}
	if maxDepth < 0 || maxChildren < 0 || o.MaxSteps < 0 {
		return nil, errors.New("runtime: negative MaxDepth, MaxChildren or MaxSteps")
	}
	if parent.maxDepth > 0 && maxDepth > parent.maxDepth {
		// A child cannot give its own children a looser bound than the
		// one it was started under.
		maxDepth = parent.maxDepth
	}
	if parent.depth+1 > maxDepth {
		return nil, fmt.Errorf("%w: nesting depth %d is past the bound of %d", ErrWiden, parent.depth+1, maxDepth)
	}
	mode := parent.mode
	if o.Mode != nil {
		if !o.Mode.Valid() {
			return nil, fmt.Errorf("runtime: invalid mode %d", *o.Mode)
		}
		if !o.Mode.AtMostAsPermissive(parent.mode) {
			return nil, fmt.Errorf("%w: mode %s is more permissive than the parent's %s", ErrWiden, *o.Mode, parent.mode)
		}
		mode = *o.Mode
	}
	tools := parent.tools
	if len(o.Tools) > 0 {
		for _, n := range o.Tools {
			if _, ok := parent.toolset().Lookup(n); !ok {
				return nil, fmt.Errorf("%w: tool %q is not in the parent's tool set", ErrWiden, n)
			}
		}
		var err error
		if tools, err = parent.toolset().Restrict(slices.Clone(o.Tools)...); err != nil {
			return nil, err
		}
	}
	p.mu.Lock()
	if n := parent.children; n >= maxChildren {
		p.mu.Unlock()
		return nil, fmt.Errorf("%w: the parent already runs %d children, the bound", ErrWiden, n)
	}
	parent.children++
	p.mu.Unlock()
	// The slot is given back once: when the child ends, or as soon as it
	// is cancelled (through ctx or its parent), since a cancelled child
	// makes no more calls whether or not its End comes.
	var once sync.Once
	release := func() {
		once.Do(func() {
			p.mu.Lock()
			parent.children--
			p.mu.Unlock()
		})
	}
	// The child is cancelled with its parent, and with ctx.
	cctx, cancel := context.WithCancelCause(parent.l7.Context())
	stop := context.AfterFunc(ctx, func() { cancel(context.Cause(ctx)) })
	context.AfterFunc(cctx, release)
	l7, err := p.startAgent(cctx, SessionOptions{ID: o.ID, Mode: mode, Cwd: parent.cwd}, parent, o.Name, tools, func(a *agent) error {
		a.maxDepth, a.callID = maxDepth, o.CallID
		if o.MaxSteps > 0 {
			a.l7.setMaxSteps(o.MaxSteps)
		}
		var err error
		if len(o.Deny) > 0 {
			err = a.rules.Add(permission.Deny, o.Deny...)
		}
		if err == nil && len(o.Ask) > 0 {
			err = a.rules.Add(permission.Ask, o.Ask...)
		}
		a.release = func() { stop(); cancel(nil); release() }
		return err
	})
	if err != nil {
		stop()
		cancel(nil)
		release()
		return nil, err
	}
	_ = p.cfg.Hooks.SubagentStart(parent.l7.Context(), hooks.SubagentStartEvent{
		SessionID: parentID, AgentName: parent.name, Step: parent.l7.currentStep(),
		CallID: o.CallID, Subagent: o.Name, ChildSessionID: o.ID, Task: o.Task,
	})
	return l7, nil
}

// setMaxSteps gives a child session its own step limit.
func (s *Session) setMaxSteps(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limits.MaxSteps = n
}

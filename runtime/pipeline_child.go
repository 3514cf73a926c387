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

// Child, set in [SessionOptions.Child], starts a session as a child
// (subagent) session of a live parent. Every field can only take rights
// away from the parent's: the child is silent (an Ask becomes a Deny,
// interaction tools are denied), sees its parent's session rules (also
// those granted later) while its own never reach the parent, adds rules
// that can only deny or ask, and is checked by the parent's checker and
// hooks. Package subagent builds these from a validated spec; a host that
// fills one in itself meets the same refusals.
type Child struct {
	// Parent is the id of the live parent session. Required.
	Parent string
	// Name is the subagent's name: its events and audit rows carry it.
	// Required.
	Name string
	// Tools names the tools the child may call; each must be in the
	// parent's tool set. Empty means the parent's set.
	Tools []string
	// Deny and Ask are rules added to the child's session rules.
	Deny, Ask []string
	// Mode is the child's mode; nil means the parent's. It must not be
	// more permissive than the parent's (bypassPermissions only under a
	// bypassing parent).
	Mode *permission.Mode
	// MaxDepth bounds nesting: the child's depth (1 for a child of a
	// top-level session) must not exceed it, nor the bound its parent was
	// started under. Zero means 1: a subagent does not start subagents.
	MaxDepth int
	// MaxChildren bounds the running children of the parent, this one
	// included. Zero means 4.
	MaxChildren int
	// MaxSteps is the child's own step limit, in place of the pipeline's
	// Limits.MaxSteps; zero means the pipeline's.
	MaxSteps int
	// CallID is the parent's tool call that starts the child, for the
	// SubagentStart and SubagentStop hooks; Task is the prompt it is
	// given, for SubagentStart.
	CallID, Task string
}

// ErrWiden is wrapped by every refusal to start a child session with more
// rights than its parent.
var ErrWiden = errors.New("runtime: a child session cannot hold more rights than its parent")

// startChild starts the child session o.Child describes. Whatever would
// widen the parent's rights is an error wrapping ErrWiden, with the
// reason; so is a nesting depth or a number of running children past the
// bound.
//
// SubagentStart fires on the parent's hooks, and SubagentStop when the
// child ends. A child counts among its parent's running children until it
// ends or is cancelled (with its parent or alone), whichever comes first.
func (p *Pipeline) startChild(o SessionOptions) (*Session, error) {
	c := o.Child
	parent := p.agent(c.Parent)
	if parent == nil {
		return nil, errUnknownSession(c.Parent)
	}
	if c.Name == "" {
		return nil, errors.New("runtime: a child session needs a name")
	}
	if o.Mode != nil {
		return nil, errors.New("runtime: a child session's mode is set by Child.Mode, not SessionOptions.Mode")
	}
	if o.Cwd != "" && o.Cwd != parent.cwd {
		return nil, fmt.Errorf("%w: working directory %q is not the parent's %q", ErrWiden, o.Cwd, parent.cwd)
	}
	maxDepth, maxChildren := c.MaxDepth, c.MaxChildren
	if maxDepth == 0 {
		maxDepth = 1
	}
	if maxChildren == 0 {
		maxChildren = 4
	}
	if maxDepth < 0 || maxChildren < 0 || c.MaxSteps < 0 {
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
	if c.Mode != nil {
		if !c.Mode.Valid() {
			return nil, fmt.Errorf("runtime: invalid mode %d", *c.Mode)
		}
		if !c.Mode.AtMostAsPermissive(parent.mode) {
			return nil, fmt.Errorf("%w: mode %s is more permissive than the parent's %s", ErrWiden, *c.Mode, parent.mode)
		}
		mode = *c.Mode
	}
	tools := parent.tools
	if len(c.Tools) > 0 {
		for _, n := range c.Tools {
			if _, ok := parent.toolset().Lookup(n); !ok {
				return nil, fmt.Errorf("%w: tool %q is not in the parent's tool set", ErrWiden, n)
			}
		}
		var err error
		if tools, err = parent.toolset().Restrict(slices.Clone(c.Tools)...); err != nil {
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
	// is cancelled (with its parent or alone), since a cancelled child
	// makes no more calls whether or not its End comes.
	var once sync.Once
	release := func() {
		once.Do(func() {
			p.mu.Lock()
			parent.children--
			p.mu.Unlock()
		})
	}
	// The child's context derives from its parent's: it is cancelled with
	// it.
	o.Mode, o.Cwd = &mode, parent.cwd
	l7, err := p.startAgent(parent.l7.Context(), o, parent, c.Name, tools, func(a *agent) error {
		a.maxDepth, a.callID = maxDepth, c.CallID
		if c.MaxSteps > 0 {
			a.l7.setMaxSteps(c.MaxSteps)
		}
		var err error
		if len(c.Deny) > 0 {
			err = a.rules.Add(permission.Deny, c.Deny...)
		}
		if err == nil && len(c.Ask) > 0 {
			err = a.rules.Add(permission.Ask, c.Ask...)
		}
		context.AfterFunc(a.l7.Context(), release)
		a.release = release
		return err
	})
	if err != nil {
		release()
		return nil, err
	}
	_ = p.cfg.Hooks.SubagentStart(parent.l7.Context(), hooks.SubagentStartEvent{
		SessionID: c.Parent, AgentName: parent.name, Step: parent.l7.currentStep(),
		CallID: c.CallID, Subagent: c.Name, ChildSessionID: o.ID, Task: c.Task,
	})
	return l7, nil
}

// setMaxSteps gives a child session its own step limit.
func (s *Session) setMaxSteps(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limits.MaxSteps = n
}

package subagent

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/tool"
)

// ErrWiden is wrapped by every refusal to give a subagent more than its
// parent holds: an Allow rule, a tool outside the parent's set, an
// interaction tool, a more permissive mode, a nesting depth or a number of
// running children past the bound. It is [runtime.ErrWiden].
var ErrWiden = runtime.ErrWiden

// ErrInvalid is wrapped by every refusal of a spec that is malformed rather
// than too wide: no name, a rule that does not parse, a negative limit.
var ErrInvalid = errors.New("subagent: invalid spec")

// Error is a refused spec or spawn: the subagent's name and why. It wraps
// [ErrWiden] or [ErrInvalid] (or the runtime's error), for [errors.Is].
type Error struct {
	// Spec is the subagent's name.
	Spec string
	// Reason says what was refused, for a person.
	Reason string
	// Err is the class of the refusal.
	Err error
}

// Error returns `subagent "name": reason`.
func (e *Error) Error() string { return fmt.Sprintf("subagent %q: %s", e.Spec, e.Reason) }

// Unwrap returns the class of the refusal.
func (e *Error) Unwrap() error { return e.Err }

// Spec describes a kind of subagent: what it is called, which of its
// parent's tools it may use, the rules it adds, its mode and its limits. A
// spec can only narrow: there is no way to write an Allow in it, and
// [Spec.Validate] refuses whatever would give the child a right its parent
// lacks.
//
// A Spec is a plain value; it may be shared by any number of spawns.
type Spec struct {
	// Name names the subagent: hook events and audit rows of its calls
	// carry it. Required.
	Name string
	// Tools names the tools the subagent may call, each of which must be in
	// its parent's tool set. Empty means the parent's whole set.
	Tools []string
	// Deny and Ask are rules in Claude Code syntax that apply to the
	// subagent only. A subagent cannot ask the person, so an Ask rule that
	// matches is a Deny saying so.
	Deny, Ask []string
	// Rules are further rules with their decisions, as read from a settings
	// file. Each must be a Deny or an Ask: an Allow is refused, since a
	// subagent's rights come from its parent. Origin is ignored and Dir
	// must be empty (the rules are relative to the session's working
	// directory).
	Rules []permission.RuleSpec
	// Mode is the subagent's permission mode; nil means its parent's. It
	// must not be more permissive than the parent's: bypassPermissions only
	// under a bypassing parent.
	Mode *permission.Mode
	// MaxSteps is the subagent's own step limit; zero means the pipeline's
	// Limits.MaxSteps.
	MaxSteps int
	// MaxDepth bounds nesting: the subagent's depth (1 under a top-level
	// session) must not exceed it. Zero means 1: a subagent does not start
	// subagents.
	MaxDepth int
	// MaxChildren bounds the subagents its parent runs at once, this one
	// included. Zero means 4.
	MaxChildren int
}

// Validate checks s against its parent: tools, the parent's tool set, and
// mode, the parent's mode. It reports every problem, joined, each an
// [*Error] wrapping [ErrWiden] (an Allow rule, a tool not in tools, an
// interaction tool, a mode more permissive than mode) or [ErrInvalid] (no
// name, a malformed rule, an invalid mode or decision, a negative limit).
//
// It is the one check of a spec: [Spawn] makes it too, and the runtime
// then holds the child to its live parent's tool set, mode and bounds.
func (s Spec) Validate(tools *tool.Registry, mode permission.Mode) error {
	var errs []error
	add := func(class error, format string, args ...any) {
		errs = append(errs, &Error{Spec: s.Name, Reason: fmt.Sprintf(format, args...), Err: class})
	}
	if s.Name == "" {
		add(ErrInvalid, "a subagent needs a name")
	}
	for _, n := range s.Tools {
		t, ok := tools.Lookup(n)
		if !ok {
			add(ErrWiden, "tool %q is not in the parent's tool set", n)
			continue
		}
		if t.Traits(json.RawMessage(`{}`)).Kind == permission.KindInteraction {
			add(ErrWiden, "tool %q is an interaction tool: a subagent cannot talk to the person", n)
		}
	}
	for _, l := range []struct {
		name  string
		rules []string
	}{{"deny", s.Deny}, {"ask", s.Ask}} {
		for i, r := range l.rules {
			if _, err := permission.ParseRule(r); err != nil {
				add(ErrInvalid, "%s rule %d %q: %v", l.name, i, r, err)
			}
		}
	}
	for i, r := range s.Rules {
		switch {
		case r.Decision == permission.Allow:
			add(ErrWiden, "rule %d %q is an Allow rule: a subagent may only add Deny and Ask rules", i, r.Rule)
			continue
		case r.Decision != permission.Deny && r.Decision != permission.Ask:
			add(ErrInvalid, "rule %d %q has an invalid decision %d", i, r.Rule, r.Decision)
			continue
		case r.Dir != "":
			add(ErrInvalid, "rule %d %q has a Dir: a subagent's rules are relative to the session's working directory", i, r.Rule)
			continue
		}
		if _, err := permission.ParseRule(r.Rule); err != nil {
			add(ErrInvalid, "rule %d %q: %v", i, r.Rule, err)
		}
	}
	if s.Mode != nil {
		switch {
		case !s.Mode.Valid():
			add(ErrInvalid, "invalid mode %d", uint8(*s.Mode))
		case !s.Mode.AtMostAsPermissive(mode):
			add(ErrWiden, "mode %s is more permissive than the parent's %s (bypassPermissions only under a bypassing parent)", *s.Mode, mode)
		}
	}
	for _, l := range []struct {
		name string
		v    int
	}{{"MaxSteps", s.MaxSteps}, {"MaxDepth", s.MaxDepth}, {"MaxChildren", s.MaxChildren}} {
		if l.v < 0 {
			add(ErrInvalid, "%s is negative (%d)", l.name, l.v)
		}
	}
	return errors.Join(errs...)
}

// child turns a valid spec into the runtime's start of a child session of
// parent, for task t. A spec's generic rules are all Deny or Ask once
// validated; the runtime adds them as such.
func (s Spec) child(parent string, t Task) *runtime.Child {
	c := &runtime.Child{
		Parent: parent, Name: s.Name, Tools: s.Tools, Mode: s.Mode,
		Deny: append([]string(nil), s.Deny...), Ask: append([]string(nil), s.Ask...),
		MaxSteps: s.MaxSteps, MaxDepth: s.MaxDepth, MaxChildren: s.MaxChildren,
		CallID: t.CallID, Task: t.Prompt,
	}
	for _, r := range s.Rules {
		if r.Decision == permission.Deny {
			c.Deny = append(c.Deny, r.Rule)
		} else {
			c.Ask = append(c.Ask, r.Rule)
		}
	}
	return c
}

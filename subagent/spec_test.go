package subagent_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime/tool"
	"github.com/toolgate/toolgate/subagent"
)

func mode(m permission.Mode) *permission.Mode { return &m }

// TestWidenRefused tries every way for a subagent to get more than its
// parent holds, and shows each refused with its reason.
func TestWidenRefused(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Allow})
	w.start(t, "lead", permission.ModeDefault)
	w.start(t, "planner", permission.ModePlan)
	ctx := context.Background()
	spawn := func(parent string, s subagent.Spec, id string) (*subagent.Child, error) {
		c, err := subagent.Spawn(ctx, w.p, parent, s, subagent.Task{ID: id, Prompt: "look around"})
		if err == nil {
			t.Cleanup(func() { c.End("test done") })
		}
		return c, err
	}
	// A restricted child that may start one level of subagents, and its own
	// child, to widen from below.
	reader, err := spawn("lead", subagent.Spec{Name: "reader", Tools: []string{"Read", "Grep"}, MaxDepth: 2}, "lead/reader")
	require.NoError(t, err)
	sub, err := spawn(reader.ID(), subagent.Spec{Name: "sub", Tools: []string{"Read"}, MaxDepth: 2}, "lead/reader/sub")
	require.NoError(t, err)
	solo, err := spawn("lead", subagent.Spec{Name: "solo"}, "lead/solo")
	require.NoError(t, err)

	for _, tc := range []struct {
		name   string
		try    func() error
		is     error
		reason string
	}{
		{"allow rule", func() error {
			_, err := spawn("lead", subagent.Spec{Name: "x", Rules: []permission.RuleSpec{{Rule: "Bash(make:*)", Decision: permission.Allow}}}, "x1")
			return err
		}, subagent.ErrWiden, `subagent "x": rule 0 "Bash(make:*)" is an Allow rule: a subagent may only add Deny and Ask rules`},
		{"tool outside the pipeline's set", func() error {
			_, err := spawn("lead", subagent.Spec{Name: "x", Tools: []string{"Read", "Launch"}}, "x2")
			return err
		}, subagent.ErrWiden, `subagent "x": tool "Launch" is not in the parent's tool set`},
		{"tool outside a restricted parent's set", func() error {
			_, err := spawn(reader.ID(), subagent.Spec{Name: "x", Tools: []string{"Read", "Bash"}, MaxDepth: 2}, "x3")
			return err
		}, subagent.ErrWiden, `subagent "x": runtime: a child session cannot hold more rights than its parent: tool "Bash" is not in the parent's tool set`},
		{"interaction tool", func() error {
			_, err := spawn("lead", subagent.Spec{Name: "x", Tools: []string{"AskUserQuestion"}}, "x4")
			return err
		}, subagent.ErrWiden, `subagent "x": tool "AskUserQuestion" is an interaction tool: a subagent cannot talk to the person`},
		{"bypass mode under a default parent", func() error {
			_, err := spawn("lead", subagent.Spec{Name: "x", Mode: mode(permission.ModeBypassPermissions)}, "x5")
			return err
		}, subagent.ErrWiden, `subagent "x": runtime: a child session cannot hold more rights than its parent: mode bypassPermissions is more permissive than the parent's default`},
		{"acceptEdits under a plan parent", func() error {
			_, err := spawn("planner", subagent.Spec{Name: "x", Mode: mode(permission.ModeAcceptEdits)}, "x6")
			return err
		}, subagent.ErrWiden, `subagent "x": runtime: a child session cannot hold more rights than its parent: mode acceptEdits is more permissive than the parent's plan`},
		{"session grant inside the child", func() error {
			return solo.Rules().Add(permission.Allow, "Bash(make:*)")
		}, permission.ErrNarrowOnly, "permission: these session rules may only narrow: an Allow rule cannot be added"},
		{"nested spawn past the default depth", func() error {
			_, err := spawn(solo.ID(), subagent.Spec{Name: "x"}, "x7")
			return err
		}, subagent.ErrWiden, `subagent "x": runtime: a child session cannot hold more rights than its parent: nesting depth 2 is past the bound of 1`},
		{"nested spawn past a configured depth", func() error {
			_, err := spawn(sub.ID(), subagent.Spec{Name: "x", MaxDepth: 2}, "x8")
			return err
		}, subagent.ErrWiden, `subagent "x": runtime: a child session cannot hold more rights than its parent: nesting depth 3 is past the bound of 2`},
		{"too many concurrent children", func() error {
			// lead runs reader and solo; a bound of 2 leaves no room.
			_, err := spawn("lead", subagent.Spec{Name: "x", MaxChildren: 2}, "x9")
			return err
		}, subagent.ErrWiden, `subagent "x": runtime: a child session cannot hold more rights than its parent: the parent already runs 2 children, the bound`},
	} {
		err := tc.try()
		require.ErrorIs(t, err, tc.is, tc.name)
		assert.EqualError(t, err, tc.reason, tc.name)
		var se *subagent.Error
		if tc.is == subagent.ErrWiden {
			require.ErrorAs(t, err, &se, tc.name)
			assert.Equal(t, "x", se.Spec, tc.name)
		}
	}

	// The child's rules stayed as they were: make still asks, and a
	// subagent cannot ask.
	v := solo.Check(ctx, "c1", "Bash", in("command", "make build"))
	assert.Equal(t, permission.Deny, v.Decision)
	assert.Equal(t, permission.LayerSubagent, v.Layer)
	assert.Equal(t, "subagent:silent", string(v.Rule))
	assert.Contains(t, v.Reason, `subagent "solo" cannot ask the person, and this call would ask: `)

	// The refusals took no slot: with the bound of 3, one more fits, and
	// then no other.
	_, err = spawn("lead", subagent.Spec{Name: "third", MaxChildren: 3}, "lead/third")
	require.NoError(t, err)
	_, err = spawn("lead", subagent.Spec{Name: "fourth", MaxChildren: 3}, "lead/fourth")
	require.ErrorIs(t, err, subagent.ErrWiden)
	assert.ErrorContains(t, err, "the parent already runs 3 children, the bound")
}

func TestSpecValidate(t *testing.T) {
	tools := tool.ClaudeCodeTools()

	ok := subagent.Spec{Name: "explorer", Tools: []string{"Read", "Grep", "Glob"}, Deny: []string{"Read(./.env)"},
		Ask: []string{"Grep"}, Rules: []permission.RuleSpec{{Rule: "Bash(git push:*)", Decision: permission.Deny}},
		Mode: mode(permission.ModePlan), MaxSteps: 5, MaxDepth: 1, MaxChildren: 2}
	require.NoError(t, ok.Validate(tools, permission.ModeDefault))
	require.NoError(t, subagent.Spec{Name: "b", Mode: mode(permission.ModeBypassPermissions)}.Validate(tools, permission.ModeBypassPermissions),
		"bypass under a bypassing parent")

	for _, tc := range []struct {
		name    string
		spec    subagent.Spec
		parent  permission.Mode
		is      error
		reasons []string
	}{
		{"no name", subagent.Spec{}, permission.ModeDefault, subagent.ErrInvalid,
			[]string{`subagent "": a subagent needs a name`}},
		{"unknown tool", subagent.Spec{Name: "x", Tools: []string{"Rread"}}, permission.ModeDefault, subagent.ErrWiden,
			[]string{`subagent "x": tool "Rread" is not in the parent's tool set`}},
		{"allow rule", subagent.Spec{Name: "x", Rules: []permission.RuleSpec{{Rule: "Read", Decision: permission.Ask}, {Rule: "Bash", Decision: permission.Allow}}},
			permission.ModeDefault, subagent.ErrWiden,
			[]string{`subagent "x": rule 1 "Bash" is an Allow rule: a subagent may only add Deny and Ask rules`}},
		{"bypass under default", subagent.Spec{Name: "x", Mode: mode(permission.ModeBypassPermissions)}, permission.ModeDefault, subagent.ErrWiden,
			[]string{`subagent "x": mode bypassPermissions is more permissive than the parent's default (bypassPermissions only under a bypassing parent)`}},
		{"dontAsk under plan", subagent.Spec{Name: "x", Mode: mode(permission.ModeDontAsk)}, permission.ModePlan, subagent.ErrWiden,
			[]string{`subagent "x": mode dontAsk is more permissive than the parent's plan (bypassPermissions only under a bypassing parent)`}},
		{"malformed deny rule", subagent.Spec{Name: "x", Deny: []string{"Bash(make"}}, permission.ModeDefault, subagent.ErrInvalid,
			[]string{`subagent "x": deny rule 0 "Bash(make": permission: "Bash(make" at offset 8: specifier not closed`}},
		{"malformed ask rule", subagent.Spec{Name: "x", Ask: []string{"Read", "Re ad"}}, permission.ModeDefault, subagent.ErrInvalid,
			[]string{`subagent "x": ask rule 1 "Re ad": permission: "Re ad" at offset 2: invalid character ' ' in tool name`}},
		{"malformed generic rule", subagent.Spec{Name: "x", Rules: []permission.RuleSpec{{Rule: "Bash(", Decision: permission.Deny}}}, permission.ModeDefault, subagent.ErrInvalid,
			[]string{`subagent "x": rule 0 "Bash(": permission: "Bash(" at offset`}},
		{"invalid decision", subagent.Spec{Name: "x", Rules: []permission.RuleSpec{{Rule: "Bash", Decision: 9}}}, permission.ModeDefault, subagent.ErrInvalid,
			[]string{`subagent "x": rule 0 "Bash" has an invalid decision 9`}},
		{"rule with a folder", subagent.Spec{Name: "x", Rules: []permission.RuleSpec{{Rule: "Read(/src/**)", Decision: permission.Deny, Dir: "/elsewhere"}}}, permission.ModeDefault, subagent.ErrInvalid,
			[]string{`subagent "x": rule 0 "Read(/src/**)" has a Dir: a subagent's rules are relative to the session's working directory`}},
		{"invalid mode", subagent.Spec{Name: "x", Mode: mode(77)}, permission.ModeDefault, subagent.ErrInvalid,
			[]string{`subagent "x": invalid mode 77`}},
		{"negative limits", subagent.Spec{Name: "x", MaxSteps: -1, MaxChildren: -2}, permission.ModeDefault, subagent.ErrInvalid,
			[]string{`subagent "x": MaxSteps is negative (-1)`, `subagent "x": MaxChildren is negative (-2)`}},
		{"several at once", subagent.Spec{Name: "x", Tools: []string{"Nope", "AskUserQuestion"}, Rules: []permission.RuleSpec{{Rule: "*", Decision: permission.Allow}}},
			permission.ModeDefault, subagent.ErrWiden, []string{
				`subagent "x": tool "Nope" is not in the parent's tool set`,
				`subagent "x": tool "AskUserQuestion" is an interaction tool: a subagent cannot talk to the person`,
				`subagent "x": rule 0 "*" is an Allow rule: a subagent may only add Deny and Ask rules`}},
	} {
		err := tc.spec.Validate(tools, tc.parent)
		require.ErrorIs(t, err, tc.is, tc.name)
		var joined interface{ Unwrap() []error }
		require.True(t, errors.As(err, &joined), tc.name)
		errs := joined.Unwrap()
		require.Len(t, errs, len(tc.reasons), "%s: %v", tc.name, err)
		for i, want := range tc.reasons {
			assert.Contains(t, errs[i].Error(), want, tc.name)
		}
	}
}

// TestSpawnedChildIsNarrowed: a child with a restricted tool set, a Deny
// rule of its own and plan mode is held to each, cannot ask, and may still
// do what its parent allows.
func TestSpawnedChildIsNarrowed(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Allow})
	w.start(t, "lead", permission.ModeDefault)
	c := spawn(t, w, "lead", subagent.Spec{Name: "reader", Tools: []string{"Read"}, Mode: mode(permission.ModePlan), Deny: []string{"Read(./src/**)"}})
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		tool  string
		input []string
		want  verdict
	}{
		{"restricted tool set", "Bash", []string{"command", "ls"},
			verdict{permission.Deny, permission.LayerTraits, "input:unknown-tool", `unknown tool "Bash": not in this session's tool set`}},
		{"child deny rule", "Read", []string{"file_path", "src/main.go"},
			verdict{permission.Deny, permission.LayerRules, "Read(./src/**)", "denied by deny rule Read(./src/**) (session)"}},
		{"silent: an ask is a deny", "Read", []string{"file_path", ".env"},
			verdict{permission.Deny, permission.LayerSubagent, "subagent:silent", `subagent "reader" cannot ask the person, and this call would ask: `}},
		{"read allowed", "Read", []string{"file_path", "README.md"},
			verdict{permission.Allow, permission.LayerRules, "default", "no rule matched; the default for read tools is allow"}},
	} {
		got := vOf(c.Check(ctx, "c", tc.tool, in(tc.input...)))
		assert.Equal(t, tc.want.Decision, got.Decision, "%s: %s", tc.name, got.Reason)
		assert.Equal(t, tc.want.Layer, got.Layer, tc.name)
		assert.Equal(t, tc.want.Rule, got.Rule, tc.name)
		assert.Contains(t, got.Reason, tc.want.Reason, tc.name)
	}
}

// TestSpawnDepthIsInherited: a child cannot give its own children a looser
// nesting bound than the one it was started under.
func TestSpawnDepthIsInherited(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Allow})
	w.start(t, "top", permission.ModeDefault)
	d1 := spawn(t, w, "top", subagent.Spec{Name: "one", MaxDepth: 2})
	d2 := spawn(t, w, d1.ID(), subagent.Spec{Name: "two", MaxDepth: 5})
	_, err := subagent.Spawn(context.Background(), w.p, d2.ID(), subagent.Spec{Name: "three", MaxDepth: 5}, subagent.Task{})
	require.ErrorIs(t, err, subagent.ErrWiden)
	assert.EqualError(t, err, `subagent "three": runtime: a child session cannot hold more rights than its parent: nesting depth 3 is past the bound of 2`)
}

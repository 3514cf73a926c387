package subagent_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/tool"
	"github.com/toolgate/toolgate/subagent"
)

func spawn(t *testing.T, w *world, parent string, s subagent.Spec) *subagent.Child {
	t.Helper()
	c, err := subagent.Spawn(context.Background(), w.p, parent, s, subagent.Task{Prompt: "look around"})
	require.NoError(t, err)
	t.Cleanup(func() { c.End("test done") })
	return c
}

const silent = `subagent "explorer" cannot ask the person, and this call would ask: `

// TestSilentAskIsDeny: every way a call could ask — a secret path, an
// unlisted command, a configured Ask rule, the spec's own Ask rule — is a
// Deny in the child saying it cannot ask, while the parent would ask; an
// interaction tool is denied in the child and allowed in the parent.
func TestSilentAskIsDeny(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Allow, Ask: []string{"WebFetch"}})
	w.start(t, "lead", permission.ModeDefault)
	c := spawn(t, w, "lead", subagent.Spec{Name: "explorer", Ask: []string{"Grep"}})
	env := w.dir + "/.env"
	for _, tc := range []struct {
		name   string
		tool   string
		input  []string
		parent verdict
		child  verdict
	}{
		{"secret path", "Read", []string{"file_path", ".env"},
			verdict{permission.Ask, permission.LayerSandbox, "sandbox:secret", "read " + env + `: secret path (matches ".env")`},
			verdict{permission.Deny, permission.LayerSubagent, "subagent:silent", silent + "read " + env + `: secret path (matches ".env")`}},
		{"unlisted command", "Bash", []string{"command", "make build"},
			verdict{permission.Ask, permission.LayerShell, "unlisted", "make: not on the safe list"},
			verdict{permission.Deny, permission.LayerSubagent, "subagent:silent", silent + "make: not on the safe list"}},
		{"configured ask rule", "WebFetch", []string{"url", "https://go.dev"},
			verdict{permission.Ask, permission.LayerRules, "WebFetch", "needs confirmation by ask rule WebFetch (config)"},
			verdict{permission.Deny, permission.LayerSubagent, "subagent:silent", silent + "needs confirmation by ask rule WebFetch (config)"}},
		{"the spec's ask rule", "Grep", []string{"pattern", "x"},
			verdict{permission.Allow, permission.LayerRules, "default", "no rule matched; the default for read tools is allow"},
			verdict{permission.Deny, permission.LayerSubagent, "subagent:silent", silent + "needs confirmation by ask rule Grep (session)"}},
		{"interaction tool", "AskUserQuestion", nil,
			verdict{permission.Allow, permission.LayerRules, "default", "no rule matched; the default for interaction tools is allow"},
			verdict{permission.Deny, permission.LayerSubagent, "subagent:silent", `subagent "explorer" cannot talk to the person: AskUserQuestion is an interaction tool`}},
		{"a plain read is allowed in both", "Read", []string{"file_path", "README.md"},
			verdict{permission.Allow, permission.LayerRules, "default", "no rule matched; the default for read tools is allow"},
			verdict{permission.Allow, permission.LayerRules, "default", "no rule matched; the default for read tools is allow"}},
	} {
		assert.Equal(t, tc.parent, vOf(w.check("lead", tc.tool, in(tc.input...))), tc.name+": parent")
		v := c.Check(context.Background(), "c", tc.tool, in(tc.input...))
		assert.Equal(t, tc.child, vOf(v), tc.name+": child")
		if tc.child.Layer == permission.LayerSubagent && tc.parent.Decision == permission.Ask {
			require.NotZero(t, v.Conflicts.Len(), tc.name)
			assert.Equal(t, permission.Ask, v.Conflicts.At(0).Decision, "%s: the overridden Ask is in the conflict log", tc.name)
			assert.Equal(t, tc.parent.Reason, v.Conflicts.At(0).Reason, tc.name)
		}
	}
}

// TestParentGrantReachesChild: a rule granted to the parent after the
// child started applies to the child at its next check.
func TestParentGrantReachesChild(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Allow})
	lead := w.start(t, "lead", permission.ModeDefault)
	c := spawn(t, w, "lead", subagent.Spec{Name: "explorer"})
	mk := in("command", "make build")

	assert.Equal(t, verdict{permission.Deny, permission.LayerSubagent, "subagent:silent", silent + "make: not on the safe list"},
		vOf(c.Check(context.Background(), "c1", "Bash", mk)))

	require.NoError(t, lead.Rules().Add(permission.Allow, "Bash(make build)"), "the person said: allow always")

	granted := verdict{permission.Allow, permission.LayerRules, "Bash(make build)", "allowed by allow rule Bash(make build) (session)"}
	assert.Equal(t, granted, vOf(w.check("lead", "Bash", mk)))
	assert.Equal(t, granted, vOf(c.Check(context.Background(), "c2", "Bash", mk)), "the later grant reaches the child")
	assert.Equal(t, verdict{permission.Deny, permission.LayerSubagent, "subagent:silent", silent + "make: not on the safe list"},
		vOf(c.Check(context.Background(), "c3", "Bash", in("command", "make install"))), "only what was granted")
}

// TestChildRulesStayInChild: the spec's rules and rules added to a child
// at run time narrow that child only: its parent and its sibling do not
// see them.
func TestChildRulesStayInChild(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Allow})
	leadSession := w.start(t, "lead", permission.ModeDefault)
	a := spawn(t, w, "lead", subagent.Spec{Name: "explorer", Deny: []string{"Read(./src/**)"}, Ask: []string{"Glob"},
		Rules: []permission.RuleSpec{{Rule: "Read(./README.md)", Decision: permission.Deny}, {Rule: "Read(./docs/**)", Decision: permission.Ask}}})
	b := spawn(t, w, "lead", subagent.Spec{Name: "sibling"})
	require.NoError(t, a.Rules().Add(permission.Deny, "Grep"))

	allowRead := verdict{permission.Allow, permission.LayerRules, "default", "no rule matched; the default for read tools is allow"}
	for _, tc := range []struct {
		name  string
		tool  string
		input []string
		a     verdict
	}{
		{"spec deny", "Read", []string{"file_path", "src/main.go"},
			verdict{permission.Deny, permission.LayerRules, "Read(./src/**)", "denied by deny rule Read(./src/**) (session)"}},
		{"spec ask", "Glob", []string{"pattern", "*.go"},
			verdict{permission.Deny, permission.LayerSubagent, "subagent:silent", silent + "needs confirmation by ask rule Glob (session)"}},
		{"spec generic deny", "Read", []string{"file_path", "README.md"},
			verdict{permission.Deny, permission.LayerRules, "Read(./README.md)", "denied by deny rule Read(./README.md) (session)"}},
		{"spec generic ask", "Read", []string{"file_path", "docs/a.md"},
			verdict{permission.Deny, permission.LayerSubagent, "subagent:silent", silent + "needs confirmation by ask rule Read(./docs/**) (session)"}},
		{"deny added at run time", "Grep", []string{"pattern", "x"},
			verdict{permission.Deny, permission.LayerRules, "Grep", "denied by deny rule Grep (session)"}},
	} {
		assert.Equal(t, tc.a, vOf(a.Check(context.Background(), "c", tc.tool, in(tc.input...))), tc.name+": child")
		assert.Equal(t, allowRead, vOf(w.check("lead", tc.tool, in(tc.input...))), tc.name+": parent")
		assert.Equal(t, allowRead, vOf(b.Check(context.Background(), "c", tc.tool, in(tc.input...))), tc.name+": sibling")
	}
	assert.Equal(t, []permission.RuleSpec(nil), b.Rules().Rules(), "the sibling holds none of them")
	assert.Empty(t, leadSession.Rules().Rules(), "the parent holds none of them")
}

// TestChildOwnLimits: the child has its own step limit and repeated-call
// detector; the parent's history does not count against it.
func TestChildOwnLimits(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Allow})
	w.start(t, "lead", permission.ModeDefault)
	readme := in("file_path", "README.md")
	w.step(t, "lead")
	for range 2 {
		require.Equal(t, permission.Allow, w.check("lead", "Read", readme).Decision)
	}

	c, err := subagent.Spawn(context.Background(), w.p, "lead", subagent.Spec{Name: "explorer", MaxSteps: 2}, subagent.Task{Prompt: "read it"})
	require.NoError(t, err)
	read := []runtime.Call{{ID: "r", Tool: "Read", Input: readme}}
	var turns []subagent.Turn
	model := func(ctx context.Context, turn subagent.Turn) ([]runtime.Call, string, error) {
		turns = append(turns, turn)
		return read, "", nil // never gives up on its own
	}
	res := c.Run(context.Background(), model, func(context.Context, runtime.Call) (string, error) { return "# hi", nil })

	assert.Equal(t, subagent.StopStepLimit, res.Stop)
	assert.Equal(t, "the model asked for 1 tool call(s) when tools were no longer offered: step 3 is past the limit of 2 steps: stop offering tools and ask for the final answer", res.Reason)
	assert.Equal(t, 3, res.Steps)
	require.Len(t, res.Calls, 2)
	for i, r := range res.Calls {
		assert.True(t, r.Ran, "call %d", i)
		assert.Equal(t, permission.Allow, r.Verdict.Decision, "call %d: own detector (%s)", i, r.Verdict.Reason)
		assert.Equal(t, "no rule matched; the default for read tools is allow", r.Verdict.Reason)
		assert.Equal(t, "# hi", r.Output)
	}
	require.Len(t, turns, 3)
	assert.True(t, turns[0].ToolsOffered)
	assert.Equal(t, "read it", turns[0].Task)
	assert.Equal(t, "explorer", turns[0].Agent)
	assert.Len(t, turns[1].Results, 1, "the next turn sees the results")
	assert.False(t, turns[2].ToolsOffered)
	assert.True(t, turns[2].Status.Signals.Has(runtime.SignalFinalAnswer))

	live := w.live(c.ID())
	assert.False(t, live, "Run ended the child")
	assert.Equal(t, verdict{permission.Deny, permission.LayerRuntime, "runtime:repeat",
		"the same Read call with the same input 3 times in a row: try something else"},
		vOf(w.check("lead", "Read", readme)), "the parent's own detector is unchanged by the child's calls")
}

func TestRunEnds(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Allow})
	w.start(t, "lead", permission.ModeDefault)
	noop := func(context.Context, runtime.Call) (string, error) { return "", nil }
	for _, tc := range []struct {
		name   string
		model  subagent.Model
		stop   subagent.Stop
		reason string
		final  string
	}{
		{"final answer", script("done", []runtime.Call{{ID: "1", Tool: "Read", Input: in("file_path", "README.md")}}),
			subagent.StopCompleted, "final answer", "done"},
		{"model error", func(context.Context, subagent.Turn) ([]runtime.Call, string, error) {
			return nil, "", assert.AnError
		}, subagent.StopFailed, "the model failed: " + assert.AnError.Error(), ""},
		{"model panic", func(context.Context, subagent.Turn) ([]runtime.Call, string, error) { panic("boom") },
			subagent.StopFailed, "the model panicked: boom", ""},
		{"no model", nil, subagent.StopFailed, "no model", ""},
	} {
		c := spawn(t, w, "lead", subagent.Spec{Name: "explorer"})
		res := c.Run(context.Background(), tc.model, noop)
		assert.Equal(t, tc.stop, res.Stop, tc.name)
		assert.Equal(t, tc.reason, res.Reason, tc.name)
		assert.Equal(t, tc.final, res.Final, tc.name)
		live := w.live(c.ID())
		assert.False(t, live, tc.name)
	}
}

// TestChildCallCannotNameAnotherSession: the model cannot make a call in
// its parent's name.
func TestChildCallCannotNameAnotherSession(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Allow})
	w.start(t, "lead", permission.ModeDefault)
	c := spawn(t, w, "lead", subagent.Spec{Name: "explorer"})
	res := c.Run(context.Background(), script("done", []runtime.Call{{Session: "lead", ID: "1", Tool: "Bash", Input: in("command", "make")}}),
		func(context.Context, runtime.Call) (string, error) { return "ran", nil })
	require.Len(t, res.Calls, 1)
	r := res.Calls[0]
	assert.Equal(t, c.ID(), r.Call.Session)
	assert.False(t, r.Ran)
	assert.Equal(t, permission.Deny, r.Verdict.Decision)
	assert.Equal(t, silent+"make: not on the safe list", r.Verdict.Reason)
}

func TestToolDescriptor(t *testing.T) {
	d := subagent.Tool("Task")
	assert.Equal(t, "Task", d.Name())
	tr := d.Traits(in("subagent_type", "explorer", "prompt", "x"))
	assert.Equal(t, permission.KindSubagent, tr.Kind)
	assert.Equal(t, tool.InterruptBlock, tr.Interrupt, "the parent waits for its subagent")
	assert.False(t, tr.ConcurrencySafe)

	tools, err := tool.NewRegistry(subagent.Tool("Task"), &tool.Descriptor{ToolName: "Read", Base: tool.Traits{Kind: permission.KindRead}})
	require.NoError(t, err)
	checker, err := permission.New(permission.Config{Default: permission.Ask, Allow: []string{"Read"}})
	require.NoError(t, err)
	p, err := runtime.New(runtime.Config{Tools: tools, Checker: checker})
	require.NoError(t, err)
	lead, err := p.Session(context.Background(), runtime.SessionOptions{ID: "lead"})
	require.NoError(t, err)
	defer lead.End("done", "", nil)
	c, err := subagent.Spawn(context.Background(), p, "lead", subagent.Spec{Name: "nested", MaxDepth: 2}, subagent.Task{ID: "lead/n", CallID: "t1", Prompt: "go"})
	require.NoError(t, err)
	defer c.End("done")
	assert.Equal(t, subagent.Task{ID: "lead/n", CallID: "t1", Prompt: "go"}, c.Task())
	assert.Equal(t, `subagent "nested" (session lead/n)`, c.String())
	assert.Equal(t, verdict{permission.Deny, permission.LayerSubagent, "subagent:silent",
		`subagent "nested" cannot ask the person, and this call would ask: no rule matched; the default for subagent tools is ask`},
		vOf(c.Check(context.Background(), "c", "Task", in("subagent_type", "nested", "prompt", "x"))),
		"starting a subagent that would ask is denied in a subagent")
}

// TestRunOfAnEndedChild: a child ended before its run is gone: the run
// fails at once, with the reason, and the model is never asked.
func TestRunOfAnEndedChild(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Allow})
	w.start(t, "lead", permission.ModeDefault)
	c := spawn(t, w, "lead", subagent.Spec{Name: "explorer"})
	require.True(t, c.Session().End("ended elsewhere", "", nil))
	asked := false
	res := c.Run(context.Background(), func(context.Context, subagent.Turn) ([]runtime.Call, string, error) {
		asked = true
		return nil, "done", nil
	}, func(context.Context, runtime.Call) (string, error) { return "", nil })
	assert.Equal(t, subagent.StopFailed, res.Stop)
	assert.Equal(t, "the child session ended before its run did", res.Reason)
	assert.Zero(t, res.Steps)
	assert.False(t, asked, "the model is not asked")
	assert.False(t, c.End("again"), "the child had already ended")
}

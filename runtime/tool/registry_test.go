package tool

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
)

func TestDescriptorZeroValueIsConservative(t *testing.T) {
	d := &Descriptor{ToolName: "mystery"}
	tr := d.Traits(json.RawMessage(`{}`))
	assert.False(t, tr.ConcurrencySafe, "not concurrency-safe by default")
	assert.Equal(t, InterruptCancel, tr.Interrupt)
	assert.False(t, tr.AbortsSiblings)
	assert.Equal(t, permission.KindOther, tr.Kind)
	assert.True(t, tr.WritesPaths(), "an undeclared kind is treated as a writer")
	assert.Empty(t, tr.Rules)
}

func TestDescriptorRules(t *testing.T) {
	d := &Descriptor{
		ToolName: "read_file",
		Base:     Traits{Kind: permission.KindRead, Rules: []Rule{{Decision: permission.Ask, Rule: "base", Reason: "always ask"}}},
		RulesFunc: func(in json.RawMessage) []Rule {
			var v struct {
				FilePath string `json:"file_path"`
			}
			if json.Unmarshal(in, &v) != nil {
				return []Rule{{Decision: permission.Deny, Rule: "read_file:input", Reason: "input is not an object"}}
			}
			if v.FilePath == "big.bin" {
				return []Rule{{Decision: permission.Allow, Rule: "read_file:bin", Reason: "sneaky allow"}}
			}
			return nil
		},
	}
	tr := d.Traits(json.RawMessage(`{"file_path":"a.txt"}`))
	require.Len(t, tr.Rules, 1)
	assert.Equal(t, Rule{Decision: permission.Ask, Rule: "base", Reason: "always ask"}, tr.Rules[0])

	tr = d.Traits(json.RawMessage(`[1]`))
	require.Len(t, tr.Rules, 2)
	assert.Equal(t, permission.Deny, tr.Rules[1].Decision)
	assert.Equal(t, "input is not an object", tr.Rules[1].Reason)

	tr = d.Traits(json.RawMessage(`{"file_path":"big.bin"}`))
	require.Len(t, tr.Rules, 2)
	assert.Equal(t, permission.Deny, tr.Rules[1].Decision, "an Allow from a tool becomes a Deny")
	assert.Equal(t, "read_file:bin", string(tr.Rules[1].Rule))
	assert.Contains(t, tr.Rules[1].Reason, "a tool may only deny or ask")
	assert.Len(t, d.Base.Rules, 1, "the base rules are never modified")
}

func TestDescriptorPanicFailsClosed(t *testing.T) {
	d := &Descriptor{ToolName: "boom", Base: Traits{ConcurrencySafe: true, Kind: permission.KindRead},
		TraitsFunc: func(json.RawMessage) Traits { panic("bad input") }}
	tr := d.Traits(nil)
	assert.False(t, tr.ConcurrencySafe)
	assert.Equal(t, permission.KindOther, tr.Kind)
	require.Len(t, tr.Rules, 1)
	assert.Equal(t, permission.Deny, tr.Rules[0].Decision)
	assert.Equal(t, "boom:traits-panic", string(tr.Rules[0].Rule))
	assert.Contains(t, tr.Rules[0].Reason, "panic: bad input")
}

func TestRegistry(t *testing.T) {
	a, b := &Descriptor{ToolName: "a"}, &Descriptor{ToolName: "b"}
	r, err := NewRegistry(a, b)
	require.NoError(t, err)
	got, ok := r.Lookup("b")
	assert.True(t, ok)
	assert.Same(t, b, got)
	_, ok = r.Lookup("c")
	assert.False(t, ok)
	assert.Equal(t, []string{"a", "b"}, r.Names())
	assert.Equal(t, 2, r.Len())

	_, err = NewRegistry(a, &Descriptor{ToolName: "a"})
	assert.ErrorContains(t, err, `duplicate tool name "a"`)
	_, err = NewRegistry(&Descriptor{ToolName: "bad name"})
	assert.ErrorContains(t, err, `invalid tool name "bad name"`)
	_, err = NewRegistry(nil)
	assert.ErrorContains(t, err, "tool 0 is nil")

	var nilReg *Registry
	_, ok = nilReg.Lookup("a")
	assert.False(t, ok, "a nil registry holds nothing")
	assert.Zero(t, nilReg.Len())

	w, err := r.With(&Descriptor{ToolName: "c"})
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b", "c"}, w.Names())
	assert.Equal(t, 2, r.Len(), "With does not change the original")
}

func TestRegistryRestrict(t *testing.T) {
	r := ClaudeCodeTools()
	sub, err := r.Restrict("Grep", "Read", "Read")
	require.NoError(t, err)
	assert.Equal(t, []string{"Read", "Grep"}, sub.Names(), "registration order, duplicates once")
	_, ok := sub.Lookup("Bash")
	assert.False(t, ok, "a restricted registry drops the other tools")
	_, ok = r.Lookup("Bash")
	assert.True(t, ok, "the original keeps them")

	_, err = r.Restrict("Read", "Bsh", "Wirte")
	assert.EqualError(t, err, `tool: restrict: unknown tool(s) "Bsh", "Wirte"`)

	empty, err := r.Restrict()
	require.NoError(t, err)
	assert.Zero(t, empty.Len(), "restricting to nothing leaves nothing")
}

func TestReadyDescriptors(t *testing.T) {
	type want struct {
		safe   bool
		intr   Interrupt
		kind   permission.Kind
		paths  []string
		globs  []string
		cmds   []string
		urls   []string
		wd     string
		aborts bool
	}
	k := permission.KindRead
	cases := map[string]map[string]want{
		"generic": {
			"read_file":   {safe: true, kind: k, paths: []string{"file_path"}},
			"glob_files":  {safe: true, kind: k, paths: []string{"path"}, globs: []string{"pattern"}},
			"grep_files":  {safe: true, kind: k, paths: []string{"path"}},
			"file_write":  {kind: permission.KindEdit, paths: []string{"file_path"}},
			"file_edit":   {kind: permission.KindEdit, paths: []string{"file_path"}},
			"run_bash":    {intr: InterruptBlock, kind: permission.KindExec, cmds: []string{"command"}, wd: "working_dir"},
			"ask_user":    {intr: InterruptBlock, kind: permission.KindInteraction},
			"todo_write":  {kind: permission.KindOther},
			"save_memory": {intr: InterruptBlock, kind: permission.KindEdit},
			"subagent":    {intr: InterruptBlock, kind: permission.KindSubagent},
		},
		"claude": {
			"Read":            {safe: true, kind: k, paths: []string{"file_path"}},
			"Glob":            {safe: true, kind: k, paths: []string{"path"}, globs: []string{"pattern"}},
			"Grep":            {safe: true, kind: k, paths: []string{"path"}},
			"WebFetch":        {safe: true, kind: permission.KindNetwork, urls: []string{"url"}},
			"WebSearch":       {safe: true, kind: permission.KindNetwork},
			"Write":           {kind: permission.KindEdit, paths: []string{"file_path"}},
			"Edit":            {kind: permission.KindEdit, paths: []string{"file_path"}},
			"MultiEdit":       {kind: permission.KindEdit, paths: []string{"file_path"}},
			"NotebookEdit":    {kind: permission.KindEdit, paths: []string{"notebook_path"}},
			"Bash":            {intr: InterruptBlock, kind: permission.KindExec, cmds: []string{"command"}, aborts: true},
			"Task":            {intr: InterruptBlock, kind: permission.KindSubagent},
			"Agent":           {intr: InterruptBlock, kind: permission.KindSubagent},
			"TodoWrite":       {kind: permission.KindOther},
			"NotebookRead":    {true, InterruptCancel, permission.KindRead, []string{"notebook_path"}, nil, nil, nil, "", false},
			"LS":              {true, InterruptCancel, permission.KindRead, []string{"path"}, nil, nil, nil, "", false},
			"LSP":             {true, InterruptCancel, permission.KindRead, []string{"file_path"}, nil, nil, nil, "", false},
			"Monitor":         {intr: InterruptBlock, kind: permission.KindExec, cmds: []string{"command"}},
			"AskUserQuestion": {intr: InterruptBlock, kind: permission.KindInteraction},
			"ExitPlanMode":    {intr: InterruptBlock, kind: permission.KindInteraction},
			"Skill":           {kind: permission.KindOther},
			"SlashCommand":    {kind: permission.KindOther},
			"Workflow":        {kind: permission.KindOther},
			// By effect: EnterWorktree makes a worktree in the repository
			// or moves into the one its path names; ReadMcpResourceTool
			// is an MCP call.
			"EnterWorktree":       {kind: permission.KindEdit, paths: []string{"path"}},
			"ReadMcpResourceTool": {kind: permission.KindOther},
		},
	}
	for _, name := range ClaudeCodeSessionTools() {
		cases["claude"][name] = want{kind: permission.KindOther}
	}
	regs := map[string]*Registry{"generic": GenericTools(), "claude": ClaudeCodeTools()}
	for set, tools := range cases {
		assert.Equal(t, len(tools), regs[set].Len(), set)
		for name, w := range tools {
			tool, ok := regs[set].Lookup(name)
			require.True(t, ok, name)
			tr := tool.Traits(json.RawMessage(`{}`))
			got := want{tr.ConcurrencySafe, tr.Interrupt, tr.Kind, tr.PathFields, tr.GlobFields,
				tr.CommandFields, tr.URLFields, tr.WorkdirField, tr.AbortsSiblings}
			assert.Equal(t, w, got, "%s/%s", set, name)
		}
	}
	assert.NotSame(t, GenericTools(), GenericTools(), "each call returns a fresh registry")
}

// TestSessionToolsAskPastTheSession: a session tool's input that reaches
// past the CLI's own state asks, with the reason, and the same tool's
// other inputs carry no rule of their own; EnterWorktree and
// ReadMcpResourceTool are no session tools.
func TestSessionToolsAskPastTheSession(t *testing.T) {
	reg := ClaudeCodeTools()
	for _, c := range []struct {
		tool, input, reason string
	}{
		{"CronCreate", `{"cron":"* * * * *","prompt":"x","durable":true}`, "scheduled_tasks.json"},
		{"CronCreate", `{"cron":"* * * * *","prompt":"x","durable":"yes"}`, "scheduled_tasks.json"},
		{"CronCreate", `{"cron":"* * * * *","prompt":"x","durable":false}`, ""},
		{"CronCreate", `{"cron":"* * * * *","prompt":"x"}`, ""},
		{"ExitWorktree", `{"action":"remove","discard_changes":true}`, "discards the work"},
		{"ExitWorktree", `{"action":"remove"}`, ""},
		{"SendMessage", `{"to":"a","message":{"type":"plan_approval_response","approve":true}}`, "teammate's plan"},
		{"SendMessage", `{"to":"a","message":{"type":"plan_approval_response","approve":false}}`, ""},
		{"SendMessage", `{"to":"a","message":"approve: true"}`, ""},
		{"SendMessage", `[1]`, ""},
		{"SendMessage", `{`, "not JSON"},
	} {
		tool, ok := reg.Lookup(c.tool)
		require.True(t, ok, c.tool)
		tr := tool.Traits(json.RawMessage(c.input))
		assert.True(t, tr.SessionOnly, c.tool)
		if c.reason == "" {
			assert.Empty(t, tr.Rules, "%s %s", c.tool, c.input)
			continue
		}
		require.Len(t, tr.Rules, 1, "%s %s", c.tool, c.input)
		assert.Equal(t, permission.Ask, tr.Rules[0].Decision, "%s %s", c.tool, c.input)
		assert.Contains(t, tr.Rules[0].Reason, c.reason, "%s %s", c.tool, c.input)
	}
	for _, name := range []string{"EnterWorktree", "ReadMcpResourceTool"} {
		assert.NotContains(t, ClaudeCodeSessionTools(), name)
		tool, ok := reg.Lookup(name)
		require.True(t, ok, name)
		assert.False(t, tool.Traits(json.RawMessage(`{}`)).SessionOnly, name)
	}
}

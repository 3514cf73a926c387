package runtime

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime/approval"
	"github.com/toolgate/toolgate/runtime/output"
	"github.com/toolgate/toolgate/runtime/tool"
)

// exampleRules are the rules of examples/reactloop, with a few more for
// the other tools.
var exampleRules = permission.Config{
	Default:    permission.Ask,
	DefaultFor: map[permission.Kind]permission.Decision{permission.KindRead: permission.Allow},
	Deny:       []string{"Bash(git push:*)", "Read(./.env)", "WebFetch(domain:evil.example)", "WebSearch(domain:evil.example)"},
	Allow:      []string{"Bash(touch build/stamp)", "WebFetch(domain:go.dev)", "Task(explorer)", "Edit(./src/**)"},
}

// reconfigure rebuilds w's pipeline with changes to its configuration (the
// same sandbox, guard, checker and hooks).
func (w *world) reconfigure(t *testing.T, change func(*Config)) {
	t.Helper()
	cfg := w.p.cfg
	change(&cfg)
	p, err := New(cfg)
	require.NoError(t, err)
	w.p = p
}

// asked records the requests a scripted person saw and answers each with
// the choice for its first command (or its tool), Deny when none is given.
type asked struct {
	mu      sync.Mutex
	reqs    []approval.Request
	answers map[string]approval.Choice
}

func (a *asked) Ask(_ context.Context, r approval.Request) (approval.Answer, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.reqs = append(a.reqs, r)
	key := r.Tool
	if len(r.Commands) > 0 {
		key = strings.Join(r.Commands[0], " ")
	}
	return approval.Answer{Choice: a.answers[key]}, nil
}

func (a *asked) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.reqs)
}

func (a *asked) last() approval.Request {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.reqs[len(a.reqs)-1]
}

// icase is one call of an integration walk: optionally a new step (model
// turn) or a host action before it, then the call and what must come of it.
type icase struct {
	name   string
	step   bool
	before func(t *testing.T, w *world)
	tool   string
	input  json.RawMessage
	want   permission.Decision
	layer  permission.Layer
	rule   string
	reason string // substring
}

func walk(t *testing.T, w *world, sess string, cases []icase) {
	t.Helper()
	for i, tc := range cases {
		if tc.step {
			s := liveSession(w.p, sess)
			require.NotNil(t, s, "session %s is live", sess)
			s.BeginStep()
		}
		if tc.before != nil {
			tc.before(t, w)
		}
		v := w.p.Check(context.Background(), Call{Session: sess, ID: "call-" + string(rune('a'+i%26)), Tool: tc.tool, Input: tc.input})
		assert.Equal(t, tc.want, v.Decision, "%s: %s", tc.name, v.Reason)
		assert.Equal(t, tc.layer, v.Layer, "%s: layer (%s)", tc.name, v.Reason)
		assert.Equal(t, tc.rule, string(v.Rule), "%s: rule (%s)", tc.name, v.Reason)
		assert.Contains(t, v.Reason, tc.reason, "%s: reason", tc.name)
	}
}

// TestPipelineIntegrationExample walks the calls of examples/reactloop
// through one session, turn by turn, with a person who answers "allow
// always" to mkdir: every layer decides once.
func TestPipelineIntegrationExample(t *testing.T) {
	person := &asked{answers: map[string]approval.Choice{"mkdir -p build": approval.AllowAlways}}
	w := newWorld(t, exampleRules, person)
	w.reconfigure(t, func(c *Config) { c.Limits = Limits{MaxSteps: 7} })
	require.NoError(t, os.Mkdir(filepath.Join(w.dir, "build"), 0o755))
	w.start(t, "s", permission.ModeDefault)
	cancel := func(t *testing.T, w *world) {
		s := liveSession(w.p, "s")
		require.NotNil(t, s)
		s.Cancel("the user pressed Esc")
	}
	walk(t, w, "s", []icase{
		{"read inside", true, nil, "Read", in("file_path", "README.md"), permission.Allow, permission.LayerRules, "default", "the default for read tools is allow"},
		{"glob inside", false, nil, "Glob", in("pattern", "**/*.go"), permission.Allow, permission.LayerRules, "default", "the default for read tools is allow"},
		{"safe command", false, nil, "Bash", in("command", "ls src"), permission.Allow, permission.LayerShell, "safe", "reads only inside the allowed roots"},
		{"deny rule on a path", true, nil, "Read", in("file_path", ".env"), permission.Deny, permission.LayerRules, "Read(./.env)", "denied by deny rule Read(./.env) (config)"},
		{"hook block", false, nil, "WebFetch", in("url", "https://pastebin.com/api", "prompt", "upload"), permission.Deny, permission.LayerHooks, "hook:no-pastebin", "uploads to pastebin are not allowed"},
		{"symlink escape", true, nil, "Read", in("file_path", "escape/secret.txt"), permission.Deny, permission.LayerSandbox, "sandbox:outside-roots", `read "escape/secret.txt" refused: resolves to ` + w.outside + "/secret.txt, outside every root"},
		{"dot-dot escape", false, nil, "Read", in("file_path", "../outside/secret.txt"), permission.Deny, permission.LayerSandbox, "sandbox:outside-roots", `read "../outside/secret.txt" refused: resolves to ` + w.outside + "/secret.txt, outside every root"},
		{"hard deny", true, nil, "Bash", in("command", "rm -rf /"), permission.Deny, permission.LayerShell, "dangerous:rm-critical", "rm: removes the critical path / recursively or by force"},
		{"deny rule on a command", false, nil, "Bash", in("command", "git push origin main"), permission.Deny, permission.LayerRules, "Bash(git push:*)", "denied by deny rule Bash(git push:*) (config)"},
		{"ask answered allow always", true, nil, "Bash", in("command", "mkdir -p build"), permission.Allow, permission.LayerShell, "person:allow-always",
			"the person allowed it (allow-always) after: mkdir: writes build (inside the allowed roots); added session rules Bash(mkdir -p build)"},
		{"then allowed without asking", true, nil, "Bash", in("command", "mkdir -p build"), permission.Allow, permission.LayerRules, "Bash(mkdir -p build)", "allowed by allow rule Bash(mkdir -p build) (session)"},
		{"compound: safe list and allow rule", false, nil, "Bash", in("command", "ls build && touch build/stamp"), permission.Allow, permission.LayerShell, "safe", "reads only inside the allowed roots"},
		{"repeat 1", true, nil, "Read", in("file_path", "src/main.go"), permission.Allow, permission.LayerRules, "default", "the default for read tools is allow"},
		{"repeat 2", false, nil, "Read", json.RawMessage(`{ "file_path" : "src/main.go" }`), permission.Allow, permission.LayerRules, "default", "the default for read tools is allow"},
		{"repeat 3", false, nil, "Read", in("file_path", "src/main.go"), permission.Deny, permission.LayerRuntime, "runtime:repeat", "the same Read call with the same input 3 times in a row: try something else"},
		{"step limit", true, nil, "Read", in("file_path", "README.md"), permission.Deny, permission.LayerRuntime, "runtime:step-limit", "step 8 is past the limit of 7 steps: no more tool calls, give the final answer"},
		{"cancelled", true, cancel, "Bash", in("command", "ls"), permission.Deny, permission.LayerRuntime, "runtime:cancelled", "session is cancelled: runtime: session cancelled: the user pressed Esc"},
	})
	assert.Equal(t, 1, person.count(), "asked once: the second mkdir matched the recorded rule")
	assert.Equal(t, []string{"Bash(mkdir -p build)"}, person.last().AlwaysRules)

	// The compound command was judged command by command.
	w2 := newWorld(t, exampleRules, nil)
	w2.start(t, "c", permission.ModeDefault)
	v := w2.p.Check(context.Background(), Call{Session: "c", Tool: "Bash", Input: in("command", "ls && touch build/stamp")})
	require.Len(t, v.Commands, 2)
	assert.Equal(t, CommandVerdict{Result: permission.Result{Decision: permission.Allow, Layer: permission.LayerShell, Rule: "safe", Reason: "reads only inside the allowed roots"}, Args: []string{"ls"}, Pos: v.Commands[0].Pos}, v.Commands[0])
	assert.Equal(t, permission.Allow, v.Commands[1].Decision)
	assert.Equal(t, "Bash(touch build/stamp)", string(v.Commands[1].Rule))
	assert.Equal(t, "allowed by allow rule Bash(touch build/stamp) (config)", v.Commands[1].Reason)
}

// TestPipelineClaudeCodeToolsWalk sends a call of every Claude Code tool
// descriptor through the pipeline, one allowed or asked and one refused
// where the tool has something to refuse.
func TestPipelineClaudeCodeToolsWalk(t *testing.T) {
	w := newWorld(t, exampleRules, nil)
	w.start(t, "s", permission.ModeDefault)
	cases := []icase{
		{"Read", false, nil, "Read", in("file_path", "README.md"), permission.Allow, permission.LayerRules, "default", "no rule matched; the default for read tools is allow"},
		{"Read secret", false, nil, "Read", in("file_path", "src/../.env"), permission.Deny, permission.LayerRules, "Read(./.env)", "denied by deny rule Read(./.env) (config)"},
		{"Write", false, nil, "Write", in("file_path", "notes.txt", "content", "x"), permission.Ask, permission.LayerRules, "default", "no rule matched; the default for edit tools is ask"},
		{"Write protected", false, nil, "Write", in("file_path", ".git/hooks/pre-commit", "content", "x"), permission.Ask, permission.LayerSandbox, "sandbox:protected", `protected path (matches ".git/")`},
		{"Write outside", false, nil, "Write", in("file_path", "../outside/x", "content", "x"), permission.Deny, permission.LayerSandbox, "sandbox:outside-roots", "outside every root"},
		{"Edit allowed by rule", false, nil, "Edit", in("file_path", "src/main.go", "old_string", "a", "new_string", "b"), permission.Allow, permission.LayerRules, "Edit(./src/**)", "allowed by allow rule Edit(./src/**) (config)"},
		{"Edit through a link out", false, nil, "Edit", in("file_path", "escape/secret.txt", "old_string", "a", "new_string", "b"), permission.Deny, permission.LayerSandbox, "sandbox:outside-roots", "outside every root"},
		{"MultiEdit", false, nil, "MultiEdit", json.RawMessage(`{"file_path":"README.md","edits":[{"old_string":"a","new_string":"/etc/passwd"}]}`), permission.Ask, permission.LayerRules, "default", "no rule matched; the default for edit tools is ask"},
		{"NotebookEdit", false, nil, "NotebookEdit", in("notebook_path", "nb.ipynb", "new_source", "x"), permission.Ask, permission.LayerRules, "default", "no rule matched; the default for edit tools is ask"},
		{"NotebookEdit outside", false, nil, "NotebookEdit", in("notebook_path", "/etc/nb.ipynb", "new_source", "x"), permission.Deny, permission.LayerSandbox, "sandbox:outside-roots", "outside every root"},
		{"Glob", false, nil, "Glob", in("pattern", "**/*.go"), permission.Allow, permission.LayerRules, "default", "no rule matched; the default for read tools is allow"},
		{"Glob climbing out", false, nil, "Glob", in("pattern", "../outside/*"), permission.Deny, permission.LayerSandbox, "sandbox:outside-roots", "base directory resolves to " + w.outside + ", outside every root"},
		{"Grep", false, nil, "Grep", in("pattern", "main", "path", "src"), permission.Allow, permission.LayerRules, "default", "no rule matched; the default for read tools is allow"},
		{"Grep through a link out", false, nil, "Grep", in("pattern", "main", "path", "escape"), permission.Deny, permission.LayerSandbox, "sandbox:outside-roots", `read "escape" refused`},
		{"WebFetch allowed domain", false, nil, "WebFetch", in("url", "https://go.dev/doc", "prompt", "x"), permission.Allow, permission.LayerRules, "WebFetch(domain:go.dev)", "allowed by allow rule WebFetch(domain:go.dev) (config)"},
		{"WebFetch denied domain", false, nil, "WebFetch", in("url", "https://EVIL.example/x", "prompt", "x"), permission.Deny, permission.LayerRules, "WebFetch(domain:evil.example)", "denied by deny rule WebFetch(domain:evil.example) (config)"},
		{"WebFetch other domain", false, nil, "WebFetch", in("url", "https://other.example/x", "prompt", "x"), permission.Ask, permission.LayerRules, "default", "no rule matched; the default for network tools is ask"},
		{"WebFetch not http", false, nil, "WebFetch", in("url", "ftp://go.dev/x", "prompt", "x"), permission.Deny, permission.LayerTraits, "input:url-scheme", "only http and https URLs are allowed"},
		{"WebSearch", false, nil, "WebSearch", in("query", "go"), permission.Ask, permission.LayerRules, "default", "no rule matched; the default for network tools is ask"},
		{"WebSearch denied domain", false, nil, "WebSearch", json.RawMessage(`{"query":"x","allowed_domains":["go.dev","evil.example"]}`), permission.Deny, permission.LayerRules, "WebSearch(domain:evil.example)", "denied by deny rule WebSearch(domain:evil.example) (config)"},
		{"Task allowed type", false, nil, "Task", in("subagent_type", "explorer", "prompt", "x"), permission.Allow, permission.LayerRules, "Task(explorer)", "allowed by allow rule Task(explorer) (config)"},
		{"Agent other type", false, nil, "Agent", in("subagent_type", "other", "prompt", "x"), permission.Ask, permission.LayerRules, "default", "no rule matched; the default for subagent tools is ask"},
		{"TodoWrite", false, nil, "TodoWrite", json.RawMessage(`{"todos":[]}`), permission.Ask, permission.LayerRules, "default", "no rule matched; the default for other tools is ask"},
		{"Bash", false, nil, "Bash", in("command", "cat README.md | wc -l"), permission.Allow, permission.LayerShell, "safe", "reads only inside the allowed roots"},
		{"Bash inline code", false, nil, "Bash", in("command", "python3 -c 'print(1)'"), permission.Ask, permission.LayerShell, "code:inline", "python3: runs inline program text, which is not analysed"},
		{"Bash redirect out", false, nil, "Bash", in("command", "echo x > ../outside/y"), permission.Deny, permission.LayerSandbox, "write:outside", "echo: writes ../outside/y outside the allowed roots"},
		{"LS", false, nil, "LS", in("path", "src"), permission.Allow, permission.LayerRules, "default", "no rule matched; the default for read tools is allow"},
		{"LS outside", false, nil, "LS", in("path", "/etc"), permission.Deny, permission.LayerSandbox, "sandbox:outside-roots", "outside every root"},
		{"NotebookRead", false, nil, "NotebookRead", in("notebook_path", "nb.ipynb"), permission.Allow, permission.LayerRules, "default", "no rule matched; the default for read tools is allow"},
		{"LSP outside", false, nil, "LSP", in("file_path", "/etc/shadow", "operation", "hover"), permission.Deny, permission.LayerSandbox, "sandbox:outside-roots", "outside every root"},
		{"Monitor safe command", false, nil, "Monitor", in("command", "cat README.md"), permission.Allow, permission.LayerShell, "safe", "reads only inside the allowed roots"},
		{"Monitor pushes", false, nil, "Monitor", in("command", "git push origin main"), permission.Deny, permission.LayerRules, "Bash(git push:*)", "denied by deny rule Bash(git push:*) (config)"},
		{"AskUserQuestion", false, nil, "AskUserQuestion", json.RawMessage(`{"questions":[]}`), permission.Ask, permission.LayerRules, "default", "no rule matched; the default for interaction tools is ask"},
		{"ExitPlanMode", false, nil, "ExitPlanMode", in("plan", "x"), permission.Ask, permission.LayerRules, "default", "no rule matched; the default for interaction tools is ask"},
		{"Skill", false, nil, "Skill", in("skill", "pdf"), permission.Ask, permission.LayerRules, "default", "no rule matched; the default for other tools is ask"},
		{"SlashCommand", false, nil, "SlashCommand", in("command", "/deploy"), permission.Ask, permission.LayerRules, "default", "no rule matched; the default for other tools is ask"},
		{"Workflow", false, nil, "Workflow", in("name", "release"), permission.Ask, permission.LayerRules, "default", "no rule matched; the default for other tools is ask"},
		{"EnterWorktree", false, nil, "EnterWorktree", in("name", "feat"), permission.Ask, permission.LayerRules, "default", "no rule matched; the default for edit tools is ask"},
		{"EnterWorktree outside", false, nil, "EnterWorktree", in("path", "/etc"), permission.Deny, permission.LayerSandbox, "sandbox:outside-roots", "outside every root"},
		{"ReadMcpResourceTool", false, nil, "ReadMcpResourceTool", in("server", "files", "uri", "file:///etc/passwd"), permission.Ask, permission.LayerRules, "default", "no rule matched; the default for other tools is ask"},
		{"CronCreate durable", false, nil, "CronCreate", json.RawMessage(`{"cron":"0 9 * * *","prompt":"x","durable":true}`), permission.Ask, permission.LayerTraits, "CronCreate:durable", "CronCreate: a durable schedule is saved in .claude/scheduled_tasks.json"},
	}
	// The session-state tools have no fields and the kind other: without an
	// allow rule for them (toolgate check has one), the default decides.
	for _, name := range tool.ClaudeCodeSessionTools() {
		if name == "TodoWrite" {
			continue
		}
		cases = append(cases, icase{name, false, nil, name, json.RawMessage(`{}`), permission.Ask, permission.LayerRules, "default", "no rule matched; the default for other tools is ask"})
	}
	var tools []string
	for _, c := range cases {
		if !slices.Contains(tools, c.tool) {
			tools = append(tools, c.tool)
		}
	}
	assert.ElementsMatch(t, tool.ClaudeCodeTools().Names(), tools, "every Claude Code descriptor has a case")
	walk(t, w, "s", cases)
}

// TestPipelineModesWalk runs the same calls in every permission mode: the
// mode changes what would ask, never a Deny, and bypass keeps the firm Ask
// of a protected path.
func TestPipelineModesWalk(t *testing.T) {
	w := newWorld(t, exampleRules, nil)
	type want struct {
		d      permission.Decision
		layer  permission.Layer
		rule   string
		reason string
	}
	calls := []struct {
		name  string
		tool  string
		input json.RawMessage
	}{
		{"write inside", "Write", in("file_path", "notes.txt", "content", "x")},
		{"write protected", "Write", in("file_path", ".git/hooks/pre-commit", "content", "x")},
		{"write outside", "Write", in("file_path", "../outside/x", "content", "x")},
		{"read", "Read", in("file_path", "README.md")},
		{"deny rule", "Bash", in("command", "git push origin main")},
		{"shell ask", "Bash", in("command", "mkdir -p build")},
		{"network ask", "WebFetch", in("url", "https://other.example/x", "prompt", "x")},
	}
	sandboxOut := want{permission.Deny, permission.LayerSandbox, "sandbox:outside-roots", `write "../outside/x" refused`}
	read := want{permission.Allow, permission.LayerRules, "default", "no rule matched; the default for read tools is allow"}
	denyRule := want{permission.Deny, permission.LayerRules, "Bash(git push:*)", "denied by deny rule Bash(git push:*) (config)"}
	protected := want{permission.Ask, permission.LayerSandbox, "sandbox:protected", `protected path (matches ".git/")`}
	modes := map[permission.Mode][]want{
		permission.ModeDefault: {
			{permission.Ask, permission.LayerRules, "default", "no rule matched; the default for edit tools is ask"},
			protected, sandboxOut, read, denyRule,
			{permission.Ask, permission.LayerShell, "write:mkdir", "mkdir: writes build (inside the allowed roots)"},
			{permission.Ask, permission.LayerRules, "default", "no rule matched; the default for network tools is ask"},
		},
		permission.ModeAcceptEdits: {
			{permission.Allow, permission.LayerRules, "mode:acceptEdits", "acceptEdits mode: allowed an edit inside the allowed roots that would ask"},
			protected, sandboxOut, read, denyRule,
			// A filesystem command's write inside the roots, as Claude Code runs it.
			{permission.Allow, permission.LayerRules, "mode:acceptEdits", "acceptEdits mode: allowed a write inside the allowed roots that would ask (mkdir: writes build (inside the allowed roots))"},
			{permission.Ask, permission.LayerRules, "default", "no rule matched; the default for network tools is ask"},
		},
		permission.ModePlan: {
			{permission.Deny, permission.LayerRules, "mode:plan", "plan mode: only read-only, web, interaction, subagent and session tools run, and Write is an edit tool"},
			{permission.Deny, permission.LayerRules, "mode:plan", "plan mode: only read-only, web, interaction, subagent and session tools run, and Write is an edit tool"},
			sandboxOut, read, denyRule,
			{permission.Deny, permission.LayerRules, "mode:plan", "plan mode: only read-only, web, interaction, subagent and session tools run, and Bash is an exec tool"},
			// Planning may read the web: the fetch keeps its own Ask.
			{permission.Ask, permission.LayerRules, "default", "no rule matched; the default for network tools is ask"},
		},
		permission.ModeAuto: {
			{permission.Allow, permission.LayerRules, "mode:auto", "auto mode: allowed an edit inside the allowed roots that would ask"},
			protected, sandboxOut, read, denyRule,
			// What acceptEdits would allow runs; every other Ask stays
			// an Ask for the host's classifier.
			{permission.Allow, permission.LayerRules, "mode:auto", "auto mode: allowed a write inside the allowed roots that would ask (mkdir: writes build (inside the allowed roots))"},
			{permission.Ask, permission.LayerRules, "default", "no rule matched; the default for network tools is ask"},
		},
		permission.ModeDontAsk: {
			{permission.Deny, permission.LayerRules, "mode:dontAsk", "dontAsk mode: would ask (no rule matched; the default for edit tools is ask), so denied"},
			{permission.Deny, permission.LayerRules, "mode:dontAsk", `dontAsk mode: would ask (write ` + w.dir + `/.git/hooks/pre-commit: protected path (matches ".git/")), so denied`},
			sandboxOut, read, denyRule,
			{permission.Deny, permission.LayerRules, "mode:dontAsk", "dontAsk mode: would ask (mkdir: writes build (inside the allowed roots)), so denied"},
			{permission.Deny, permission.LayerRules, "mode:dontAsk", "dontAsk mode: would ask (no rule matched; the default for network tools is ask), so denied"},
		},
		permission.ModeBypassPermissions: {
			{permission.Allow, permission.LayerRules, "mode:bypassPermissions", "bypassPermissions mode: allowed what would ask (no rule matched; the default for edit tools is ask)"},
			protected, sandboxOut, read, denyRule,
			{permission.Allow, permission.LayerRules, "mode:bypassPermissions", "bypassPermissions mode: allowed what would ask (mkdir: writes build (inside the allowed roots))"},
			{permission.Allow, permission.LayerRules, "mode:bypassPermissions", "bypassPermissions mode: allowed what would ask (no rule matched; the default for network tools is ask)"},
		},
	}
	for mode, wants := range modes {
		id := "s-" + mode.String()
		w.start(t, id, mode)
		for i, c := range calls {
			v := w.p.Check(context.Background(), Call{Session: id, Tool: c.tool, Input: c.input})
			want := wants[i]
			assert.Equal(t, want.d, v.Decision, "%s, %s: %s", mode, c.name, v.Reason)
			assert.Equal(t, want.layer, v.Layer, "%s, %s: layer", mode, c.name)
			assert.Equal(t, want.rule, string(v.Rule), "%s, %s: rule", mode, c.name)
			assert.Contains(t, v.Reason, want.reason, "%s, %s: reason", mode, c.name)
		}
	}
}

// rewrite is a hook that replaces the input of calls whose input contains
// from with to.
func rewrite(from string, to json.RawMessage) hooks.Hook {
	return hooks.Hook{
		Name: "rewrite",
		PreToolUse: func(_ context.Context, e hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
			if strings.Contains(string(e.Input), from) {
				return hooks.MutateInput(to, "rewrote "+from), nil
			}
			return hooks.PreToolUseResult{}, nil
		},
	}
}

// TestPipelineHooksMutateInputJudged: the rules, the sandbox and the guard
// judge the input as the hooks left it, and the verdict carries it.
func TestPipelineHooksMutateInputJudged(t *testing.T) {
	toOutside := in("file_path", "../outside/secret.txt")
	toInside := in("file_path", "README.md")
	toRm := in("command", "rm -rf /")
	w := newWorld(t, exampleRules, nil,
		rewrite("innocent.txt", toOutside), rewrite("escape/secret.txt", toInside), rewrite("harmless", toRm),
		hooks.Hook{Name: "review", PreToolUse: func(_ context.Context, e hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
			if strings.Contains(string(e.Input), "review-me") {
				return hooks.PermissionRequired("a person reviews every change to review-me"), nil
			}
			return hooks.PreToolUseResult{}, nil
		}})
	w.start(t, "s", permission.ModeDefault)
	walk(t, w, "s", []icase{
		{"rewritten out of the roots", false, nil, "Read", in("file_path", "innocent.txt"), permission.Deny, permission.LayerSandbox, "sandbox:outside-roots", `read "../outside/secret.txt" refused`},
		{"rewritten into the roots", false, nil, "Read", in("file_path", "escape/secret.txt"), permission.Allow, permission.LayerRules, "default", "the default for read tools is allow"},
		{"rewritten to a hard deny", false, nil, "Bash", in("command", "echo harmless"), permission.Deny, permission.LayerShell, "dangerous:rm-critical", "rm: removes the critical path /"},
		{"permission required raises an allow", false, nil, "Read", in("file_path", "review-me"), permission.Ask, permission.LayerHooks, "hook:review", "a person reviews every change to review-me"},
		{"permission required does not lower a deny", false, nil, "Bash", in("command", "git push review-me"), permission.Deny, permission.LayerRules, "Bash(git push:*)", "denied by deny rule Bash(git push:*) (config)"},
	})
	v := w.p.Check(context.Background(), Call{Session: "s", Tool: "Read", Input: in("file_path", "escape/secret.txt")})
	assert.JSONEq(t, string(toInside), string(v.Input), "the verdict carries the input to run")
	assert.Equal(t, "rewrote escape/secret.txt", v.Context)
}

// TestPipelineAllowAlwaysRecordsExactRules: "allow always" records one
// exact rule per simple command that needed it, never a broad prefix; for
// an inline program it records nothing, so the next call asks again.
func TestPipelineAllowAlwaysRecordsExactRules(t *testing.T) {
	person := &asked{answers: map[string]approval.Choice{
		"mkdir -p build": approval.AllowAlways, "python3 -c print(1)": approval.AllowAlways, "mkdir x": approval.AllowAlways, "env FOO=1 mkdir y": approval.AllowAlways,
	}}
	w := newWorld(t, exampleRules, person)
	w.start(t, "s", permission.ModeDefault)
	walk(t, w, "s", []icase{
		{"compound: two commands asked", false, nil, "Bash", in("command", "mkdir -p build && touch out.txt && ls"), permission.Allow, permission.LayerShell, "person:allow-always",
			"added session rules Bash(mkdir -p build), Bash(touch out.txt)"},
	})
	assert.Equal(t, []string{"Bash(mkdir -p build)", "Bash(touch out.txt)"}, person.last().AlwaysRules, "the safe ls needs no rule")
	walk(t, w, "s", []icase{
		{"the same commands: no question", false, nil, "Bash", in("command", "touch out.txt; mkdir -p build"), permission.Allow, permission.LayerRules, "Bash(touch out.txt)", "allowed by allow rule Bash(touch out.txt) (session)"},
		{"other arguments: asked again", false, nil, "Bash", in("command", "mkdir -p other"), permission.Deny, permission.LayerShell, "person:deny", "the person denied it"},
		{"inline program: allowed once", false, nil, "Bash", in("command", "python3 -c 'print(1)'"), permission.Allow, permission.LayerShell, "person:allow-always", "the person allowed it (allow-always) after: python3: runs inline program text"},
	})
	assert.Empty(t, person.last().AlwaysRules, "no rule is offered for an inline program")
	n := person.count()
	walk(t, w, "s", []icase{
		{"inline program: asked again", false, nil, "Bash", in("command", "python3 -c 'print(1)'"), permission.Allow, permission.LayerShell, "person:allow-always", "the person allowed it (allow-always)"},
	})
	assert.Equal(t, n+1, person.count())
	// A wrapper in the script (bash -c, env) gets no rule at all: the answer
	// counts once.
	for _, cmd := range []string{"bash -c 'mkdir x'", "env FOO=1 mkdir y"} {
		v := w.p.Check(context.Background(), Call{Session: "s", Tool: "Bash", Input: in("command", cmd)})
		assert.Equal(t, permission.Allow, v.Decision, "%s: %s", cmd, v.Reason)
		assert.Equal(t, "person:allow-always", string(v.Rule), cmd)
		assert.NotContains(t, v.Reason, "added session rules", cmd)
		assert.Empty(t, person.last().AlwaysRules, cmd)
		v = w.p.Check(context.Background(), Call{Session: "s", Tool: "Bash", Input: in("command", cmd+" ")})
		assert.True(t, v.Asked, "%s: asked again: %s", cmd, v.Reason)
	}
	for _, r := range person.reqs {
		for _, rule := range r.AlwaysRules {
			assert.NotContains(t, rule, ":*", "no prefix rule")
			for _, broad := range []string{"Bash(python", "Bash(bash", "Bash(sh ", "Bash(env", "Bash(sudo"} {
				assert.False(t, strings.HasPrefix(rule, broad), "no broad wrapper rule: %s", rule)
			}
		}
	}
}

// TestPipelineAskTimeoutDenies: a person who never answers is a Deny after
// the default 120 s, measured on the bubble's clock.
func TestPipelineAskTimeoutDenies(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		silent := approval.AskerFunc(func(ctx context.Context, _ approval.Request) (approval.Answer, error) {
			<-ctx.Done()
			return approval.Answer{}, ctx.Err()
		})
		w := newWorld(t, exampleRules, silent)
		w.start(t, "s", permission.ModeDefault)
		start := time.Now()
		walk(t, w, "s", []icase{
			{"no answer", false, nil, "Write", in("file_path", "notes.txt", "content", "x"), permission.Deny, permission.LayerRules, "person:timeout", "no answer within 2m0s: denied"},
		})
		assert.Equal(t, approval.DefaultAskTimeout, time.Since(start))
	})
}

// TestPipelineAfterShapesOutput: After runs the PostToolUse hooks, then
// truncates long outputs and persists very long ones inside the workspace
// under a sanitised call id, and replaces a refused call's output by the
// reason.
func TestPipelineAfterShapesOutput(t *testing.T) {
	redact := hooks.Hook{Name: "redact", PostToolUse: func(_ context.Context, e hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) {
		return hooks.MutateOutput(strings.ReplaceAll(e.Output, "TOKEN=x", "TOKEN=***")), nil
	}}
	w := newWorld(t, exampleRules, nil, redact)
	root, err := os.OpenRoot(w.dir)
	require.NoError(t, err)
	t.Cleanup(func() { root.Close() })
	w.reconfigure(t, func(c *Config) {
		c.Output = output.Shaper{MaxChars: 300, PerTool: map[string]int{"Grep": 100}, PersistOver: 2000, FS: root, Dir: ".toolgate"}
	})
	w.start(t, "s", permission.ModeDefault)
	check := func(tool string, input json.RawMessage) (Call, Verdict) {
		c := Call{Session: "s", ID: "id/../1", Tool: tool, Input: input}
		return c, w.p.Check(context.Background(), c)
	}

	c, v := check("Read", in("file_path", "README.md"))
	require.Equal(t, permission.Allow, v.Decision)
	o := w.p.After(context.Background(), c, v, Run{Output: "TOKEN=x\n" + strings.Repeat("a", 1000), Elapsed: time.Millisecond})
	assert.True(t, o.Truncated)
	assert.Empty(t, o.Path)
	assert.LessOrEqual(t, len([]rune(o.Output)), 300)
	assert.True(t, strings.HasPrefix(o.Output, "TOKEN=***"), "the hook ran before truncation: %q", o.Output[:20])
	assert.Contains(t, o.Output, "characters cut")
	assert.Positive(t, o.Status.Tokens, "the output is counted against the budget")

	c, v = check("Grep", in("pattern", "x", "path", "src"))
	o = w.p.After(context.Background(), c, v, Run{Output: strings.Repeat("g", 150)})
	assert.True(t, o.Truncated, "Grep has its own limit")
	assert.LessOrEqual(t, len([]rune(o.Output)), 100)

	c, v = check("Read", in("file_path", "src/main.go"))
	big := strings.Repeat("0123456789", 500)
	o = w.p.After(context.Background(), c, v, Run{Output: big})
	want := o.Path
	assert.Regexp(t, `^\.toolgate/tool-results/id____1-[0-9a-f]{12}\.txt$`, want, "the call id is made a safe file name")
	assert.True(t, strings.HasPrefix(o.Output, "[output of 5000 characters saved to "+want+"; read that file for the rest]"), o.Output[:80])
	saved, err := os.ReadFile(filepath.Join(w.dir, filepath.FromSlash(want)))
	require.NoError(t, err)
	assert.Equal(t, big, string(saved), "the whole output is kept inside the workspace")

	c, v = check("Read", in("file_path", "../outside/secret.txt"))
	require.Equal(t, permission.Deny, v.Decision)
	o = w.p.After(context.Background(), c, v, Run{Output: ""})
	assert.Equal(t, "denied (L4 sandbox): "+v.Reason, o.Output)
}

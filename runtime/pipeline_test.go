package runtime

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime/approval"
	"github.com/toolgate/toolgate/runtime/tool"
	"github.com/toolgate/toolgate/sandbox"
)

// world is a real workspace on disk with a pipeline over it.
type world struct {
	dir, outside string
	p            *Pipeline
	hooks        *hooks.Set
}

func newWorld(t testing.TB, cfg permission.Config, asker approval.Asker, extra ...hooks.Hook) *world {
	t.Helper()
	tmp := t.TempDir()
	tmp, err := filepath.EvalSymlinks(tmp)
	require.NoError(t, err)
	w := &world{dir: filepath.Join(tmp, "proj"), outside: filepath.Join(tmp, "outside")}
	for _, d := range []string{w.dir, w.outside, filepath.Join(w.dir, "src"), filepath.Join(w.dir, ".git", "hooks")} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	for name, body := range map[string]string{
		"src/main.go": "package main\n", ".env": "TOKEN=x\n", "README.md": "# hi\n",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(w.dir, name), []byte(body), 0o644))
	}
	require.NoError(t, os.WriteFile(filepath.Join(w.outside, "secret.txt"), []byte("outside"), 0o644))
	require.NoError(t, os.Symlink(w.outside, filepath.Join(w.dir, "escape")))

	sb, err := sandbox.New(sandbox.Config{Roots: []string{w.dir}, WorkDir: w.dir})
	require.NoError(t, err)
	pol := bashguard.DefaultPolicy()
	pol.Home = filepath.Join(tmp, "home")
	cfg.WorkDir = w.dir
	checker, err := permission.New(cfg)
	require.NoError(t, err)
	w.hooks = hooks.NewSet(append([]hooks.Hook{{
		Name: "no-pastebin",
		PreToolUse: func(_ context.Context, e hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
			if strings.Contains(string(e.Input), "pastebin") {
				return hooks.Block("uploads to pastebin are not allowed"), nil
			}
			return hooks.PreToolUseResult{}, nil
		},
	}}, extra...)...)
	t.Cleanup(w.hooks.Close)
	w.p, err = New(Config{Tools: tool.ClaudeCodeTools(), Checker: checker, Hooks: w.hooks, Sandbox: sb, Guard: bashguard.New(pol), Asker: asker})
	require.NoError(t, err)
	return w
}

func (w *world) start(t testing.TB, id string, mode permission.Mode) *Session {
	t.Helper()
	s, err := w.p.Session(context.Background(), SessionOptions{ID: id, Mode: &mode, Cwd: w.dir})
	require.NoError(t, err)
	t.Cleanup(func() { s.End("test done", "", nil) })
	return s
}

// liveSession returns the live session id of p, nil if there is none.
func liveSession(p *Pipeline, id string) *Session {
	if a := p.agent(id); a != nil {
		return a.l7
	}
	return nil
}

// endSession ends the live session id of p, as a host holding its
// *Session would.
func endSession(p *Pipeline, id, reason string) bool {
	if a := p.agent(id); a != nil {
		return a.l7.End(reason, "", nil)
	}
	return false
}

func in(kv ...string) json.RawMessage {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	b, _ := json.Marshal(m)
	return b
}

type pcase struct {
	name   string
	tool   string
	input  json.RawMessage
	want   permission.Decision
	layer  permission.Layer
	rule   string // exact, or "" to skip
	reason string // substring
}

func runCases(t *testing.T, w *world, sess string, cases []pcase) {
	t.Helper()
	for i, tc := range cases {
		v := w.p.Check(context.Background(), Call{Session: sess, ID: "c" + string(rune('a'+i%26)), Tool: tc.tool, Input: tc.input})
		assert.Equal(t, tc.want, v.Decision, "%s: %s", tc.name, v.Reason)
		assert.Equal(t, tc.layer, v.Layer, "%s: layer (%s)", tc.name, v.Reason)
		if tc.rule != "" {
			assert.Equal(t, tc.rule, string(v.Rule), "%s: rule", tc.name)
		}
		assert.Contains(t, v.Reason, tc.reason, "%s: reason", tc.name)
	}
}

func TestPipelineLayers(t *testing.T) {
	w := newWorld(t, permission.Config{
		Default: permission.Allow,
		Deny:    []string{"Bash(git push:*)", "Read(./src/secret/**)"},
		Allow:   []string{"Bash(go test:*)"},
		Ask:     []string{"WebFetch"},
	}, nil)
	w.start(t, "s1", permission.ModeDefault)
	cases := []pcase{
		{"read inside the roots", "Read", in("file_path", "src/main.go"), permission.Allow, permission.LayerRules, "default", "default for read tools is allow"},
		{"traversal out of the roots", "Read", in("file_path", "../outside/secret.txt"), permission.Deny, permission.LayerSandbox, "", "outside"},
		{"symlink out of the roots", "Read", in("file_path", "escape/secret.txt"), permission.Deny, permission.LayerSandbox, "", "outside"},
		{"absolute path outside", "Read", in("file_path", "/etc/shadow"), permission.Deny, permission.LayerSandbox, "", "outside"},
		{"secret file asks", "Read", in("file_path", ".env"), permission.Ask, permission.LayerSandbox, "sandbox:secret", ".env"},
		{"protected write asks", "Write", in("file_path", ".git/hooks/pre-commit", "content", "x"), permission.Ask, permission.LayerSandbox, "sandbox:protected", ".git"},
		{"deny rule on a path", "Read", in("file_path", "src/secret/k"), permission.Deny, permission.LayerRules, "Read(./src/secret/**)", "denied by deny rule Read(./src/secret/**)"},
		{"deny rule on a command", "Bash", in("command", "git push origin main"), permission.Deny, permission.LayerRules, "Bash(git push:*)", "denied by deny rule Bash(git push:*)"},
		{"deny rule inside a compound command", "Bash", in("command", "ls && git push -f"), permission.Deny, permission.LayerRules, "Bash(git push:*)", "denied by deny rule"},
		{"hard deny in the shell", "Bash", in("command", "rm -rf /"), permission.Deny, permission.LayerShell, "", "rm"},
		{"network command", "Bash", in("command", "curl https://example.com"), permission.Deny, permission.LayerShell, "", "network"},
		{"safe compound command", "Bash", in("command", "ls -la && pwd"), permission.Allow, permission.LayerShell, "", ""},
		{"allow rule per subcommand", "Bash", in("command", "git status && go test ./..."), permission.Allow, permission.LayerShell, "", ""},
		{"unknown command asks", "Bash", in("command", "make build"), permission.Ask, permission.LayerShell, "", ""},
		{"write through tee asks", "Bash", in("command", "go test ./... | tee out.txt"), permission.Ask, permission.LayerShell, "", ""},
		{"hook blocks", "WebFetch", in("url", "https://pastebin.com/x"), permission.Deny, permission.LayerHooks, "hook:no-pastebin", "uploads to pastebin are not allowed"},
		{"ask rule", "WebFetch", in("url", "https://go.dev/doc"), permission.Ask, permission.LayerRules, "WebFetch", "needs confirmation by ask rule WebFetch"},
		{"bad URL scheme", "WebFetch", in("url", "file:///etc/passwd"), permission.Deny, permission.LayerTraits, "input:url-scheme", "only http and https"},
		{"unknown tool", "Nope", in(), permission.Deny, permission.LayerTraits, "input:unknown-tool", `unknown tool "Nope"`},
		{"input not an object", "Read", json.RawMessage(`["x"]`), permission.Deny, permission.LayerTraits, "input:not-object", "not a JSON object"},
		{"path field not a string", "Read", json.RawMessage(`{"file_path": 3}`), permission.Deny, permission.LayerTraits, "input:field-type", `"file_path" must be a string`},
	}
	runCases(t, w, "s1", cases)

	v := w.p.Check(context.Background(), Call{Session: "s1", Tool: "Bash", Input: in("command", "git status && make")})
	require.Len(t, v.Commands, 2, "each simple command has its own verdict")
	assert.Equal(t, []string{"git", "status"}, v.Commands[0].Args)
	assert.Equal(t, permission.Allow, v.Commands[0].Decision)
	assert.Equal(t, []string{"make"}, v.Commands[1].Args)
	assert.Equal(t, permission.Ask, v.Commands[1].Decision)
	assert.Equal(t, v.Commands[1].Reason, v.Reason, "the call's reason is its strictest command's")

	v = w.p.Check(context.Background(), Call{Session: "nope", Tool: "Read", Input: in("file_path", "x")})
	assert.Equal(t, permission.Deny, v.Decision)
	assert.Equal(t, `no live session "nope"`, v.Reason)
}

func TestPipelineDuplicateKeysDenied(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Allow}, nil)
	w.start(t, "s", permission.ModeDefault)
	v := w.p.Check(context.Background(), Call{Session: "s", Tool: "Read", Input: json.RawMessage(`{"file_path":"README.md","file_path":"/etc/passwd"}`)})
	assert.Equal(t, permission.Deny, v.Decision)
	assert.Equal(t, "input:not-object", string(v.Rule))
	assert.Equal(t, `input is not a JSON object: duplicate object key "file_path"`, v.Reason)
}

func TestChildSessionRefusesToWiden(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Allow}, nil)
	w.start(t, "parent", permission.ModeDefault)
	bypass, plan := permission.ModeBypassPermissions, permission.ModePlan
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		o      SessionOptions
		reason string
	}{
		{"tool outside the parent's set", SessionOptions{ID: "c1", Child: &Child{Parent: "parent", Name: "x", Tools: []string{"Read", "Launch"}}}, `tool "Launch" is not in the parent's tool set`},
		{"more permissive mode", SessionOptions{ID: "c2", Child: &Child{Parent: "parent", Name: "x", Mode: &bypass}}, "mode bypassPermissions is more permissive than the parent's default"},
		{"another working directory", SessionOptions{ID: "c5", Cwd: "/", Child: &Child{Parent: "parent", Name: "x"}}, `working directory "/" is not the parent's`},
	} {
		_, err := w.p.Session(ctx, tc.o)
		require.ErrorIs(t, err, ErrWiden, tc.name)
		assert.ErrorContains(t, err, tc.reason, tc.name)
	}
	for _, tc := range []struct {
		name   string
		o      SessionOptions
		reason string
	}{
		{"no parent", SessionOptions{ID: "c6", Child: &Child{Parent: "gone", Name: "x"}}, `no live session "gone"`},
		{"no name", SessionOptions{ID: "c7", Child: &Child{Parent: "parent"}}, "a child session needs a name"},
		{"top-level mode", SessionOptions{ID: "c8", Mode: new(permission.ModeAcceptEdits), Child: &Child{Parent: "parent", Name: "x"}}, "a child session's mode is set by Child.Mode"},
		{"id in use: a child is never got", SessionOptions{ID: "parent", Child: &Child{Parent: "parent", Name: "x"}}, "session already exists"},
		{"a malformed rule", SessionOptions{ID: "c9", Child: &Child{Parent: "parent", Name: "x", Deny: []string{"Read("}}}, "Read("},
	} {
		_, err := w.p.Session(ctx, tc.o)
		assert.ErrorContains(t, err, tc.reason, tc.name)
		assert.NotErrorIs(t, err, ErrWiden, tc.name)
	}
	c3, err := w.p.Session(ctx, SessionOptions{ID: "c3", Child: &Child{Parent: "parent", Name: "reader", Tools: []string{"Read"}, Mode: &plan, Deny: []string{"Read(./src/**)"}}})
	require.NoError(t, err)
	defer c3.End("done", "", nil)
	_, err = w.p.Session(ctx, SessionOptions{ID: "c4", Child: &Child{Parent: "c3", Name: "grandchild"}})
	require.ErrorIs(t, err, ErrWiden)
	assert.ErrorContains(t, err, "nesting depth 2 is past the bound of 1")
	require.ErrorIs(t, c3.Rules().Add(permission.Allow, "Bash"), permission.ErrNarrowOnly)
	v := w.p.Check(ctx, Call{Session: "c3", ID: "1", Tool: "Bash", Input: in("command", "ls")})
	assert.Equal(t, "input:unknown-tool", string(v.Rule), "the restricted tool set holds: %s", v.Reason)
}

func TestPipelineMissingCommandDenied(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Allow}, nil)
	w.start(t, "s", permission.ModeDefault)
	runCases(t, w, "s", []pcase{
		{"no command", "Bash", in("description", "x"), permission.Deny, permission.LayerTraits, "input:missing-field", `input field "command" (a shell command) is missing`},
		{"null command", "Bash", json.RawMessage(`{"command": null}`), permission.Deny, permission.LayerTraits, "input:missing-field", `input field "command" (a shell command) is missing`},
	})
}

// TestPipelineProtectedLink: a protected name that is a link to an
// ordinary file is still protected, and a link to a protected file too.
func TestPipelineProtectedLink(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Allow}, nil)
	w.start(t, "s", permission.ModeDefault)
	require.NoError(t, os.WriteFile(filepath.Join(w.dir, "plain.txt"), []byte("x"), 0o644))
	require.NoError(t, os.Symlink("plain.txt", filepath.Join(w.dir, ".bashrc")))
	require.NoError(t, os.Symlink(".git/hooks/pre-commit", filepath.Join(w.dir, "innocent")))
	require.NoError(t, os.Symlink("loop", filepath.Join(w.dir, "loop")))
	runCases(t, w, "s", []pcase{
		{"protected link to a plain file", "Write", in("file_path", ".bashrc", "content", "x"), permission.Ask, permission.LayerSandbox, "sandbox:protected", "protected path"},
		{"plain link to a protected file", "Write", in("file_path", "innocent", "content", "x"), permission.Ask, permission.LayerSandbox, "sandbox:protected", "protected path"},
		{"loop", "Read", in("file_path", "loop/x"), permission.Deny, permission.LayerSandbox, "sandbox:symlink-loop", "refused"},
	})
}

// TestPipelineShellWorkdir: a generic run_bash call names its working
// directory; relative paths are judged from there, and a working directory
// outside the roots denies the call.
func TestPipelineShellWorkdir(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Allow}, nil)
	reg := tool.GenericTools()
	sb, err := sandbox.New(sandbox.Config{Roots: []string{w.dir}, WorkDir: w.dir})
	require.NoError(t, err)
	pol := bashguard.DefaultPolicy()
	checker, err := permission.New(permission.Config{Default: permission.Allow, WorkDir: w.dir})
	require.NoError(t, err)
	p, err := New(Config{Tools: reg, Checker: checker, Sandbox: sb, Guard: bashguard.New(pol)})
	require.NoError(t, err)
	g, err := p.Session(context.Background(), SessionOptions{ID: "g"})
	require.NoError(t, err)
	defer g.End("done", "", nil)
	w.p = p
	runCases(t, w, "g", []pcase{
		{"relative read from the named dir stays inside", "run_bash", in("command", "cat main.go", "working_dir", "src"), permission.Allow, permission.LayerShell, "", ""},
		{"relative read escaping from the named dir", "run_bash", in("command", "cat ../../outside/secret.txt", "working_dir", "src"), permission.Ask, permission.LayerSandbox, "", "outside"},
		{"working dir outside the roots", "run_bash", in("command", "ls", "working_dir", "../outside"), permission.Deny, permission.LayerSandbox, "sandbox:outside-roots", "outside"},
	})
}

// TestPipelineEveryObjectMustBeAllowed: an Allow rule for one path of a
// call does not allow another path that the default denies.
func TestPipelineEveryObjectMustBeAllowed(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Deny, Allow: []string{"Glob(./src/**)", "Grep(./src/**)"}}, nil)
	w.start(t, "s", permission.ModeDefault)
	runCases(t, w, "s", []pcase{
		{"both inside the allowed folder", "Glob", in("path", "src", "pattern", "*.go"), permission.Allow, permission.LayerRules, "Glob(./src/**)", "allowed by allow rule Glob(./src/**)"},
		{"pattern climbs out of the allowed folder", "Glob", in("path", "src", "pattern", "../*.md"), permission.Deny, permission.LayerRules, "default", "the default for read tools is deny"},
	})
}

// so PostToolUse hooks (metrics, audit) see every call with its verdict.
func TestPipelineExecutorAfterEveryCall(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	rec := hooks.Hook{Name: "rec", Timeout: hooks.NoTimeout,
		PostToolUse: func(_ context.Context, e hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) {
			mu.Lock()
			seen = append(seen, e.ToolName+" "+e.Decision.String()+": "+e.Reason)
			mu.Unlock()
			return hooks.PostToolUseResult{}, nil
		}}
	w := newWorld(t, permission.Config{Default: permission.Allow}, nil, rec)
	w.start(t, "s", permission.ModeDefault)
	exec := w.p.Executor(func(context.Context, Call) (string, error) { return "ok", nil })
	res := exec.Execute(context.Background(), []Call{
		{Session: "s", ID: "1", Tool: "Read", Input: in("file_path", "README.md")},
		{Session: "s", ID: "2", Tool: "Read", Input: in("file_path", "/etc/shadow")},
	})
	require.Len(t, res, 2)
	assert.True(t, res[0].Ran)
	assert.False(t, res[1].Ran)
	assert.Contains(t, res[1].Output, "denied (L4 sandbox): read \"/etc/shadow\" refused")
	assert.Equal(t, []string{
		"Read allow: no rule matched; the default for read tools is allow",
		`Read deny: read "/etc/shadow" refused: ` + res[1].Verdict.Reason[len(`read "/etc/shadow" refused: `):],
	}, seen)
}

// TestPipelineConfinementReachesHooks: what a tool reports with
// ReportConfinement reaches the PostToolUse hooks through the executor.
func TestPipelineConfinementReachesHooks(t *testing.T) {
	var got []string
	var mu sync.Mutex
	rec := hooks.Hook{Name: "rec", Timeout: hooks.NoTimeout,
		PostToolUse: func(_ context.Context, e hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) {
			mu.Lock()
			got = append(got, e.ToolName+": "+e.Confinement)
			mu.Unlock()
			return hooks.PostToolUseResult{}, nil
		}}
	w := newWorld(t, permission.Config{Default: permission.Allow}, nil, rec)
	w.start(t, "s", permission.ModeDefault)
	exec := w.p.Executor(func(ctx context.Context, c Call) (string, error) {
		if c.Tool == "Bash" {
			ReportConfinement(ctx, "landlock v7: fs, tcp")
		}
		return "ok", nil
	})
	res := exec.Execute(context.Background(), []Call{
		{Session: "s", ID: "1", Tool: "Bash", Input: in("command", "ls")},
		{Session: "s", ID: "2", Tool: "Read", Input: in("file_path", "README.md")},
	})
	require.True(t, res[0].Ran && res[1].Ran, "%s / %s", res[0].Verdict.Reason, res[1].Verdict.Reason)
	assert.Equal(t, "landlock v7: fs, tcp", res[0].Confinement)
	assert.Equal(t, []string{"Bash: landlock v7: fs, tcp", "Read: "}, got)
	ReportConfinement(context.Background(), "ignored") // outside an executor: nothing happens
}

// TestPipelineFieldCaseOnlyWhereItMatters: a generic tool whose input has
// a "Name" key (and no declared fields) is not refused for it.
func TestPipelineFieldCaseOnlyWhereItMatters(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Allow}, nil)
	mcp := &tool.Descriptor{ToolName: "mcp__db__query", Base: tool.Traits{Kind: permission.KindOther}}
	require.NoError(t, w.p.AddTools(mcp))
	w.start(t, "s", permission.ModeDefault)
	runCases(t, w, "s", []pcase{
		{"an MCP tool's own Name field", "mcp__db__query", in("Name", "users"), permission.Allow, permission.LayerRules, "default", "the default for other tools is allow"},
		{"a Task type in other letter case", "Task", in("Subagent_type", "danger", "prompt", "x"), permission.Deny, permission.LayerTraits, "input:field-case", `input field "Subagent_type" differs from the field "subagent_type" only in letter case`},
	})
}

// TestPipelineScriptVerdictKept: what the guard says of the script as a
// whole reaches the call, however it is split into commands.
func TestPipelineScriptVerdictKept(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Allow, Allow: []string{"Bash"}}, nil)
	w.start(t, "s", permission.ModeDefault)
	runCases(t, w, "s", []pcase{
		{"fork bomb under a bare Bash allow", "Bash", in("command", ":(){ :|:& };:"), permission.Deny, permission.LayerShell, "dangerous:fork-bomb", "fork bomb"},
		{"unparsable script", "Bash", in("command", "echo 'unterminated"), permission.Deny, permission.LayerShell, "parse", "cannot be analysed"},
		{"script over the size bound", "Bash", in("command", strings.Repeat("a", 70<<10)), permission.Deny, permission.LayerShell, "limit:size", "cannot be analysed"},
	})
}

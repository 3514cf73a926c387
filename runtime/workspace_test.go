package runtime_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/tool"
)

// workspaceDir is a real directory with a file and a secret in it.
func workspaceDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte("TOKEN=x\n"), 0o600))
	return dir
}

func TestOpenRefusesBadWorkspaces(t *testing.T) {
	dir := workspaceDir(t)
	for _, tc := range []struct {
		name string
		w    runtime.Workspace
		want string
	}{
		{"no dir", runtime.Workspace{}, `runtime: Workspace.Dir "" is not an absolute path`},
		{"relative dir", runtime.Workspace{Dir: "src"}, `runtime: Workspace.Dir "src" is not an absolute path`},
		{"bad rule", runtime.Workspace{Dir: dir, Rules: permission.Config{Deny: []string{"Bash(git"}}}, "runtime: rules: "},
		{"missing root", runtime.Workspace{Dir: dir, Roots: []string{filepath.Join(dir, "nope")}}, "runtime: roots: "},
		{"missing dir", runtime.Workspace{Dir: filepath.Join(dir, "nope")}, "runtime: roots: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := runtime.Open(tc.w)
			require.Error(t, err)
			assert.Nil(t, p)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// Everything Open wires takes its directory from Workspace.Dir: the rules'
// relative paths, the sandbox, the shell guard, the sessions' cwd.
func TestOpenNamesTheDirectoryOnce(t *testing.T) {
	dir := workspaceDir(t)
	var mu sync.Mutex
	var cwd string
	var posts []hooks.PostToolUseEvent
	set := hooks.NewSet(hooks.Hook{
		Name:    "recorder",
		Timeout: hooks.NoTimeout,
		SessionStart: func(_ context.Context, e hooks.SessionStartEvent) error {
			mu.Lock()
			defer mu.Unlock()
			cwd = e.Cwd
			return nil
		},
		PostToolUse: func(_ context.Context, e hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) {
			mu.Lock()
			defer mu.Unlock()
			posts = append(posts, e)
			return hooks.PostToolUseResult{}, nil
		},
	})
	defer set.Close()
	p, err := runtime.Open(runtime.Workspace{
		Dir:   dir,
		Rules: permission.Config{Deny: []string{"Read(./main.go)"}, Default: permission.Ask},
		Hooks: set,
	})
	require.NoError(t, err)
	ctx := context.Background()
	sess, err := p.Session(ctx, runtime.SessionOptions{ID: "s"})
	require.NoError(t, err)
	defer sess.End("done", "", nil)
	assert.Equal(t, dir, cwd, "a session that names no cwd works in the workspace")

	cases := []struct {
		tool, input string
		decision    permission.Decision
		layer       permission.Layer
		rule        string
		reason      string
	}{
		{"Read", `{"file_path":"main.go"}`, permission.Deny, permission.LayerRules, "Read(./main.go)", "denied by deny rule Read(./main.go) (config)"},
		{"Read", `{"file_path":"` + filepath.Join(dir, "main.go") + `"}`, permission.Deny, permission.LayerRules, "Read(./main.go)", "denied by deny rule Read(./main.go) (config)"},
		{"Read", `{"file_path":"/etc/shadow"}`, permission.Deny, permission.LayerSandbox, "", "outside every root"},
		{"Bash", `{"command":"ls -la"}`, permission.Allow, permission.LayerShell, "safe", "reads only inside the allowed roots"},
		{"Bash", `{"command":"touch /etc/x"}`, permission.Deny, permission.LayerSandbox, "write:outside", "outside every root"},
	}
	calls := make([]runtime.Call, len(cases))
	for i, c := range cases {
		calls[i] = runtime.Call{Session: "s", ID: c.tool + "-" + string(rune('a'+i)), Tool: c.tool, Input: json.RawMessage(c.input)}
	}
	res := p.Executor(func(context.Context, runtime.Call) (string, error) { return "ran", nil }).Execute(ctx, calls)
	require.Len(t, res, len(cases))
	require.Len(t, posts, len(cases))
	for i, c := range cases {
		v := res[i].Verdict
		assert.Equal(t, c.decision, v.Decision, "%s %s: %s", c.tool, c.input, v.Reason)
		assert.Equal(t, c.layer, v.Layer, "%s %s: %s", c.tool, c.input, v.Reason)
		if c.rule != "" {
			assert.Equal(t, c.rule, string(v.Rule))
		}
		assert.Contains(t, v.Reason, c.reason)
		// The executor keeps the Outcome of After, and the PostToolUse
		// hooks saw the layer and rule that decided.
		assert.Equal(t, res[i].Output, res[i].Outcome.Output)
		var e hooks.PostToolUseEvent
		for _, pe := range posts {
			if pe.CallID == calls[i].ID {
				e = pe
			}
		}
		assert.Equal(t, v.Decision, e.Decision, calls[i].ID)
		assert.Equal(t, v.Layer, e.Layer, calls[i].ID)
		assert.Equal(t, v.Rule, e.Rule, calls[i].ID)
		assert.Equal(t, v.Reason, e.Reason, calls[i].ID)
		if c.decision == permission.Allow {
			assert.Equal(t, "ran", res[i].Outcome.Output)
		} else {
			assert.Equal(t, "denied ("+c.layer.String()+"): "+v.Reason, res[i].Outcome.Output)
		}
	}
}

// A Bash deny rule is final for a shell command whichever tool runs it.
func TestBashRulesReachEveryShellTool(t *testing.T) {
	dir := workspaceDir(t)
	generic, _ := tool.GenericTools().Lookup("run_bash")
	tools, err := tool.ClaudeCodeTools().With(generic)
	require.NoError(t, err)
	p, err := runtime.Open(runtime.Workspace{
		Dir:   dir,
		Tools: tools,
		Rules: permission.Config{Deny: []string{"Bash(git push:*)"}, Allow: []string{"Bash(make test)"}, Default: permission.Ask},
	})
	require.NoError(t, err)
	ctx := context.Background()
	sess, err := p.Session(ctx, runtime.SessionOptions{ID: "s"})
	require.NoError(t, err)
	defer sess.End("done", "", nil)
	for _, tool := range []string{"Bash", "Monitor", "run_bash"} {
		v := p.Check(ctx, runtime.Call{Session: "s", Tool: tool, Input: json.RawMessage(`{"command":"cd . && git push origin main"}`)})
		assert.Equal(t, permission.Deny, v.Decision, tool)
		assert.Equal(t, "Bash(git push:*)", string(v.Rule), tool)
		assert.Contains(t, v.Reason, "denied by deny rule Bash(git push:*) (config)", tool)
		v = p.Check(ctx, runtime.Call{Session: "s", Tool: tool, Input: json.RawMessage(`{"command":"make test"}`)})
		assert.Equal(t, permission.Allow, v.Decision, "%s: %s", tool, v.Reason)
		assert.Equal(t, "Bash(make test)", string(v.Rule), tool)
	}
}

// TestOpenRefusesSystemRoots: a settings file's additionalDirectories
// never make a root of a system location, the home directory or a
// credential folder, through Open as through toolgate check; a missing
// one is left out rather than failing the workspace.
func TestOpenRefusesSystemRoots(t *testing.T) {
	dir := workspaceDir(t)
	home, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".ssh"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), []byte("key"), 0o600))
	s, err := permission.ParseSettings([]byte(`{"permissions": {"additionalDirectories": ["/etc", "~", "~/.ssh", "/nonexistent/dir"]}}`),
		filepath.Join(home, ".claude", "settings.json"), permission.ScopeUser)
	require.NoError(t, err)
	p, err := runtime.Open(runtime.Workspace{Dir: dir, Home: home, Settings: []*permission.Settings{s},
		Rules: permission.Config{Default: permission.Allow}})
	require.NoError(t, err)
	assert.Equal(t, []string{dir}, p.Sandbox().Roots(), "no settings root at /etc, ~ or ~/.ssh")
	ctx := context.Background()
	_, err = p.Session(ctx, runtime.SessionOptions{ID: "s1"})
	require.NoError(t, err)
	for _, path := range []string{filepath.Join(home, ".ssh", "id_ed25519")} {
		in, _ := json.Marshal(map[string]string{"file_path": path})
		v := p.Check(ctx, runtime.Call{Session: "s1", ID: path, Tool: "Read", Input: in})
		assert.Equal(t, permission.Deny, v.Decision, "%s: %s", path, v.Reason)
		assert.Contains(t, v.Reason, "outside every root", path)
	}
	// /etc is no root: a write there is refused; a world-readable file
	// there is read by the system-read rule, as outside the roots.
	in, _ := json.Marshal(map[string]string{"file_path": "/etc/hostname", "content": "x"})
	v := p.Check(ctx, runtime.Call{Session: "s1", ID: "w", Tool: "Write", Input: in})
	assert.Equal(t, permission.Deny, v.Decision, v.Reason)
	assert.Contains(t, v.Reason, "outside every root")
	if st, err := os.Stat("/etc/hostname"); err == nil && st.Mode().Perm()&0o004 != 0 {
		in, _ = json.Marshal(map[string]string{"file_path": "/etc/hostname"})
		v = p.Check(ctx, runtime.Call{Session: "s1", ID: "r", Tool: "Read", Input: in})
		assert.Equal(t, permission.Allow, v.Decision, v.Reason)
		assert.Contains(t, v.Reason, "outside the allowed roots, but a system file every user may read")
	}
}

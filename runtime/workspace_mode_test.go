package runtime_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

// The settings' defaultMode reaches every session that names no mode of
// its own; one that names a mode gets it, ModeDefault included.
func TestOpenSessionsTakeTheSettingsDefaultMode(t *testing.T) {
	dir := workspaceDir(t)
	write := json.RawMessage(`{"file_path":"` + filepath.Join(dir, "new.go") + `","content":"x"}`)
	read := json.RawMessage(`{"file_path":"` + filepath.Join(dir, "main.go") + `"}`)
	for _, tc := range []struct {
		name, settings string
		mode           *permission.Mode
		tool           string
		input          json.RawMessage
		want           permission.Decision
		rule, reason   string
		hookMode       string
	}{
		{"plan denies a write", `{"permissions":{"defaultMode":"plan"}}`, nil, "Write", write, permission.Deny, "mode:plan",
			"plan mode: only read-only, web, interaction, subagent and session tools run, and Write is an edit tool", "plan"},
		{"plan lets a read run", `{"permissions":{"defaultMode":"plan"}}`, nil, "Read", read, permission.Allow, "default",
			"no rule matched; the default for read tools is allow", "plan"},
		{"dontAsk denies what would ask", `{"permissions":{"defaultMode":"dontAsk"}}`, nil, "Write", write, permission.Deny, "mode:dontAsk",
			"dontAsk mode: would ask (no rule matched; the default for edit tools is ask), so denied", "dontAsk"},
		{"acceptEdits allows an edit inside", `{"permissions":{"defaultMode":"acceptEdits"}}`, nil, "Write", write, permission.Allow, "mode:acceptEdits",
			"acceptEdits mode: allowed an edit inside the allowed roots that would ask", "acceptEdits"},
		{"a session's own mode wins", `{"permissions":{"defaultMode":"plan"}}`, new(permission.ModeDefault), "Write", write, permission.Ask, "default",
			"no rule matched; the default for edit tools is ask", "default"},
		{"no defaultMode is the default mode", `{"permissions":{}}`, nil, "Write", write, permission.Ask, "default",
			"no rule matched; the default for edit tools is ask", "default"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := permission.ParseSettings([]byte(tc.settings), filepath.Join(t.TempDir(), "settings.json"), permission.ScopeUser)
			require.NoError(t, err)
			var started string
			set := hooks.NewSet(hooks.Hook{Name: "mode", SessionStart: func(_ context.Context, e hooks.SessionStartEvent) error {
				started = e.PermissionMode
				return nil
			}})
			defer set.Close()
			p, err := runtime.Open(runtime.Workspace{Dir: dir, Settings: []*permission.Settings{s}, Hooks: set,
				Rules: permission.Config{Default: permission.Ask, DefaultFor: map[permission.Kind]permission.Decision{permission.KindRead: permission.Allow}}})
			require.NoError(t, err)
			ctx := context.Background()
			sess, err := p.Session(ctx, runtime.SessionOptions{ID: "s", Mode: tc.mode})
			require.NoError(t, err)
			defer sess.End("done", "", nil)
			assert.Equal(t, tc.hookMode, started, "the mode SessionStart hooks see")
			v := p.Check(ctx, runtime.Call{Session: "s", ID: "c1", Tool: tc.tool, Input: tc.input})
			assert.Equal(t, tc.want, v.Decision, v.Reason)
			assert.Equal(t, tc.rule, string(v.Rule))
			assert.Contains(t, v.Reason, tc.reason)
		})
	}
}

// A mode the settings disable cannot be chosen for a session either.
func TestOpenRefusesADisabledMode(t *testing.T) {
	dir := workspaceDir(t)
	s, err := permission.ParseSettings([]byte(`{"permissions":{"disableBypassPermissionsMode":"disable","disableAutoMode":"disable"}}`),
		filepath.Join(t.TempDir(), "settings.json"), permission.ScopeUser)
	require.NoError(t, err)
	p, err := runtime.Open(runtime.Workspace{Dir: dir, Settings: []*permission.Settings{s}})
	require.NoError(t, err)
	_, err = p.Session(context.Background(), runtime.SessionOptions{ID: "b", Mode: new(permission.ModeBypassPermissions)})
	require.ErrorContains(t, err, "bypassPermissions mode is disabled by configuration")
	_, err = p.Session(context.Background(), runtime.SessionOptions{ID: "a", Mode: new(permission.ModeAuto)})
	require.ErrorContains(t, err, "auto mode is disabled by configuration")
}

// In auto mode the broad allow rules Claude Code sets aside on entering it
// (an interpreter with any arguments, a whole shell) do not allow: their
// calls ask, for the host's classifier. Whether auto came from the
// settings' defaultMode or the session's own options.
func TestOpenAutoModeSetsAsideBroadAllowRules(t *testing.T) {
	dir := workspaceDir(t)
	s, err := permission.ParseSettings([]byte(`{"permissions":{"defaultMode":"auto"}}`), filepath.Join(t.TempDir(), "settings.json"), permission.ScopeUser)
	require.NoError(t, err)
	rules := permission.Config{Default: permission.Ask, Allow: []string{"Bash(python3:*)", "Bash(ls:*)"}}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tool.py"), []byte("print(1)\n"), 0o644))
	script := json.RawMessage(`{"command":"python3 tool.py"}`)
	ls := json.RawMessage(`{"command":"ls"}`)
	for _, tc := range []struct {
		name     string
		settings []*permission.Settings
		mode     *permission.Mode
		want     permission.Decision
		rule     string
	}{
		{"auto from the settings", []*permission.Settings{s}, nil, permission.Ask, "unlisted"},
		{"auto chosen for the session", nil, new(permission.ModeAuto), permission.Ask, "unlisted"},
		{"default mode keeps the rule", nil, nil, permission.Allow, "Bash(python3:*)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := runtime.Open(runtime.Workspace{Dir: dir, Rules: rules, Settings: tc.settings})
			require.NoError(t, err)
			ctx := context.Background()
			sess, err := p.Session(ctx, runtime.SessionOptions{ID: "s", Mode: tc.mode})
			require.NoError(t, err)
			defer sess.End("done", "", nil)
			v := p.Check(ctx, runtime.Call{Session: "s", ID: "c1", Tool: "Bash", Input: script})
			assert.Equal(t, tc.want, v.Decision, v.Reason)
			assert.Equal(t, tc.rule, string(v.Rule), v.Reason)
			// A narrow allow rule stays in every mode.
			v = p.Check(ctx, runtime.Call{Session: "s", ID: "c2", Tool: "Bash", Input: ls})
			assert.Equal(t, permission.Allow, v.Decision, v.Reason)
			assert.Equal(t, "Bash(ls:*)", string(v.Rule))
		})
	}
}

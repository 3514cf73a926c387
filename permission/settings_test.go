package permission

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func writeSettings(t *testing.T, path, content string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
}

func TestSettingsMergePrecedence(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	user := filepath.Join(dir, "home", ".claude", "settings.json")
	project := filepath.Join(proj, ".claude", "settings.json")
	local := filepath.Join(proj, ".claude", "settings.local.json")
	managed := filepath.Join(dir, "etc", "managed-settings.json")
	writeSettings(t, user, `{"permissions": {"allow": ["Bash(git push:*)", "Read"], "defaultMode": "acceptEdits"}}`)
	writeSettings(t, project, `{"permissions": {"ask": ["Bash(git push:*)"], "deny": ["Edit(/secrets/**)"], "additionalDirectories": ["../lib"]}}`)
	writeSettings(t, local, `{"permissions": {"allow": ["Bash(make:*)"], "defaultMode": "plan"}, "model": "x"}`)
	writeSettings(t, managed, `{"permissions": {"deny": ["Bash(git push --force:*)"], "disableBypassPermissionsMode": "disable"}}`)

	var files []*Settings
	for _, f := range []struct {
		p string
		s Scope
	}{{user, ScopeUser}, {project, ScopeProject}, {local, ScopeLocal}, {managed, ScopeManaged}} {
		s, err := LoadSettings(f.p, f.s)
		require.NoError(t, err)
		files = append(files, s)
	}
	missing, err := LoadSettings(filepath.Join(dir, "nope.json"), ScopeUser)
	require.NoError(t, err)
	assert.Nil(t, missing, "a missing settings file is no error")

	cfg, warnings := Merge(Config{Default: Allow, WorkDir: proj, Home: filepath.Join(dir, "home")}, files...)
	assert.Empty(t, warnings)
	assert.Equal(t, ModePlan, cfg.Mode, "the local project file outranks the user file")
	assert.True(t, cfg.DisableBypass)
	assert.Equal(t, []string{"../lib"}, cfg.AdditionalDirectories)

	c, err := New(cfg)
	require.NoError(t, err)
	r := c.Check(sh("git", "push", "--force"), nil)
	assert.Equal(t, Deny, r.Decision)
	assert.Equal(t, "denied by deny rule Bash(git push --force:*) (managed settings "+managed+")", r.Reason)

	r = c.Check(sh("git", "push", "origin"), nil)
	assert.Equal(t, Ask, r.Decision, "a project ask beats a user allow")
	assert.Equal(t, "needs confirmation by ask rule Bash(git push:*) (project settings "+project+")", r.Reason)
	require.Equal(t, 1, r.Conflicts.Len())
	assert.Equal(t, "allowed by allow rule Bash(git push:*) (user settings "+user+")", r.Conflicts.At(0).Reason)

	r = c.Check(&Request{Tool: "Edit", Kind: KindEdit, Path: filepath.Join(proj, "secrets", "k")}, nil)
	assert.Equal(t, Deny, r.Decision, "/path in project settings is relative to the project")
	assert.Equal(t, "denied by deny rule Edit(/secrets/**) (project settings "+project+")", r.Reason)
}

func TestSettingsBypassDisabled(t *testing.T) {
	a, err := ParseSettings([]byte(`{"permissions": {"defaultMode": "bypassPermissions"}}`), "/u/settings.json", ScopeUser)
	require.NoError(t, err)
	b, err := ParseSettings([]byte(`{"permissions": {"disableBypassPermissionsMode": "disable"}}`), "/m.json", ScopeManaged)
	require.NoError(t, err)
	cfg, warnings := Merge(Config{}, a, b)
	assert.Equal(t, ModeDefault, cfg.Mode)
	assert.Equal(t, []string{"bypassPermissions mode is disabled by disableBypassPermissionsMode; using default mode"}, warnings)
	_, err = New(Config{Mode: ModeBypassPermissions, DisableBypass: true})
	require.ErrorContains(t, err, "bypassPermissions mode is disabled by configuration")
}

func TestSettingsErrors(t *testing.T) {
	tests := []struct {
		json   string
		offset int
		reason string
	}{
		{`{"permissions": {"allow": ["Bash(ls"]}}`, 6, "specifier not closed"},
		{`{"permissions": {"allow": "Bash"}}`, 26, "permissions.allow must be an array of strings"},
		{`{"permissions": {"defaultMode": "yolo"}}`, 32, `unknown permission mode "yolo"`},
		{`{"permissions": {"disableBypassPermissionsMode": "maybe"}}`, 49, `must be "disable"`},
		{`{"permissions": {`, 17, "invalid JSON"},
		{`[1,2]`, 1, "wrong JSON type"},
		{`{"permissions": []}`, 17, "permissions: wrong JSON type"},
	}
	for _, tt := range tests {
		_, err := ParseSettings([]byte(tt.json), "/p/.claude/settings.json", ScopeProject)
		var e *Error
		require.True(t, errors.As(err, &e), "%s: %v", tt.json, err)
		assert.Contains(t, e.Reason, tt.reason, tt.json)
		assert.Equal(t, tt.offset, e.Offset, tt.json)
		assert.Contains(t, e.Source, "/p/.claude/settings.json")
	}
	_, err := ParseSettings([]byte(`{"permissions": {"deny": ["Bash", "Read(x"]}}`), "/s.json", ScopeUser)
	require.ErrorContains(t, err, "permissions.deny: rule 1")
}

func TestSettingsWarnings(t *testing.T) {
	s, err := ParseSettings([]byte(`{"permisions": {}, "permissions": {"alow": ["Bash"]}, "hooks": {}, "toolgate": {"network": true}}`), "/s.json", ScopeUser)
	require.NoError(t, err)
	assert.Equal(t, []string{
		`user settings /s.json: unknown key "permisions"`,
		`user settings /s.json: unknown key "permissions.alow"`,
	}, s.Warnings)
	assert.JSONEq(t, `{"network": true}`, string(s.Toolgate))
}

func TestFromEnv(t *testing.T) {
	env := map[string]string{
		EnvAllow: "Bash(git status)\n\n  Read  \n",
		EnvDeny:  `["Bash(rm:*)", "WebFetch"]`,
		EnvMode:  "dontAsk",
	}
	s, err := FromEnv(func(k string) string { return env[k] })
	require.NoError(t, err)
	assert.Equal(t, []string{"Bash(git status)", "Read"}, s.Allow)
	assert.Equal(t, []string{"Bash(rm:*)", "WebFetch"}, s.Deny)
	assert.Equal(t, "dontAsk", s.DefaultMode)
	cfg, _ := Merge(Config{Default: Allow}, s)
	c, err := New(cfg)
	require.NoError(t, err)
	r := c.Check(sh("rm", "x"), nil)
	assert.Equal(t, Deny, r.Decision)
	assert.Equal(t, "denied by deny rule Bash(rm:*) (command-line settings environment)", r.Reason)
	assert.Equal(t, ModeDontAsk, cfg.Mode)

	none, err := FromEnv(func(string) string { return "" })
	require.NoError(t, err)
	assert.Nil(t, none)

	for _, bad := range []map[string]string{
		{EnvDeny: `["Bash(rm"]`},
		{EnvAsk: `[1, 2]`},
		{EnvMode: "auto"},
	} {
		_, err := FromEnv(func(k string) string { return bad[k] })
		var e *Error
		require.True(t, errors.As(err, &e), "%v", bad)
		assert.NotEmpty(t, e.Reason)
		assert.Contains(t, e.Source, "AGENT_PERMISSIONS_")
	}
}

package permission

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
		s.Trusted = true // the person trusted the workspace: its files may widen
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
		{`{"permissions": {"deny": ["Bash"], "deny": []}}`, 35, `duplicate key "permissions.deny"`},
		{`{"permissions": {"deny": ["Bash"]}, "permissions": {}}`, 36, `duplicate key "permissions"`},
		{`{"permissions": {"deny": ["Bash"], "Deny": []}}`, 35, `key in "permissions" repeats another key of its object in another letter case`},
		{`{"toolgate": {"network": false, "network": true}}`, 32, `duplicate key "toolgate.network"`},
		{`{"hooks": {"PreToolUse": [{"matcher": "a", "matcher": "b"}]}}`, 43, `duplicate key in "hooks.PreToolUse[]"`},
		{`{"a": ` + strings.Repeat("[", 70) + strings.Repeat("]", 70) + `}`, 69, "nested more than 64 levels deep"},
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
		{EnvMode: "yolo"},
	} {
		_, err := FromEnv(func(k string) string { return bad[k] })
		var e *Error
		require.True(t, errors.As(err, &e), "%v", bad)
		assert.NotEmpty(t, e.Reason)
		assert.Contains(t, e.Source, "AGENT_PERMISSIONS_")
	}
}

// TestSettingsEnvCaseVariants: names in "env" that differ only in case
// are two variables, not a repeated key.
func TestSettingsEnvCaseVariants(t *testing.T) {
	_, err := ParseSettings([]byte(`{"env": {"PATH": "/bin", "path": "x"}}`), "/s.json", ScopeUser)
	require.NoError(t, err)
	_, err = ParseSettings([]byte(`{"env": {"PATH": "/bin", "PATH": "x"}}`), "/s.json", ScopeUser)
	require.ErrorContains(t, err, "duplicate key")
}

// TestSettingsErrorsNeverQuoteContent: a settings file may be a link to a
// secret; whatever is wrong with it, the error names the file and an
// offset, never its bytes.
func TestSettingsErrorsNeverQuoteContent(t *testing.T) {
	const secret = "AKIAIOSFODNN7EXAMPLE"
	for _, content := range []string{
		"TOKEN=" + secret + "\n",
		"[default]\naws_access_key_id = " + secret + "\n",
		`{"key": "` + secret + `", "key": 1}`,
		`{"permissions": {"allow": "` + secret + `"}}`,
		`{"permissions": {"defaultMode": 7}, "x": "` + secret + `"}`,
		`{"` + secret + `": 1, "` + secret + `": 2}`,
		`{"toolgate": "` + secret + `"`,
		secret,
	} {
		s, err := ParseSettings([]byte(content), "/p/.claude/settings.local.json", ScopeLocal)
		var all []string
		if err != nil {
			all = append(all, err.Error())
		} else {
			all = append(all, s.Warnings...)
		}
		for _, m := range all {
			assert.NotContains(t, m, secret, content)
			assert.NotContains(t, m, "AKIA", content)
		}
		if err != nil {
			assert.Contains(t, err.Error(), "/p/.claude/settings.local.json", content)
		}
	}
}

// TestLoadSettingsRefusesSpecialFiles: a FIFO, a device or an oversized
// file is an error naming the file, at once.
func TestLoadSettingsRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	require.NoError(t, os.WriteFile(big, []byte(`{"x": "`+strings.Repeat("a", 1<<20)+`"}`), 0o600))
	zero := filepath.Join(dir, "zero.json")
	require.NoError(t, os.Symlink("/dev/zero", zero))
	for _, c := range []struct{ path, why string }{
		{big, "file too large"},
		{zero, "not a regular file (a device)"},
		{dir, "not a regular file (a directory)"},
	} {
		s, err := LoadSettings(c.path, ScopeLocal)
		assert.Nil(t, s)
		require.Error(t, err, c.path)
		assert.Contains(t, err.Error(), "local project settings "+c.path+": cannot read: "+c.why)
	}
}

// TestSettingsWorkspaceOnlyNarrows: what project and local settings may
// set, trusted or not; what every other scope may set.
func TestSettingsWorkspaceOnlyNarrows(t *testing.T) {
	const file = `{"permissions": {"allow": ["Bash(curl:*)", "Read"], "ask": ["Bash(git push:*)"], "deny": ["Bash(rm:*)"],
		"additionalDirectories": ["/srv/data"], "defaultMode": %q}}`
	type want struct {
		allow   bool
		dirs    int
		mode    Mode
		warning string
	}
	for _, c := range []struct {
		scope   Scope
		trusted bool
		mode    string
		want    want
	}{
		{ScopeProject, false, "bypassPermissions", want{false, 0, ModeDefault, `ignoring permissions.defaultMode "bypassPermissions" from project settings /p/.claude/x.json: the workspace may not choose`}},
		{ScopeProject, false, "acceptEdits", want{false, 0, ModeDefault, `ignoring permissions.defaultMode "acceptEdits" from project settings /p/.claude/x.json: this workspace has not been trusted`}},
		{ScopeLocal, false, "auto", want{false, 0, ModeDefault, "the workspace may not choose a mode more permissive than acceptEdits"}},
		{ScopeLocal, false, "plan", want{false, 0, ModePlan, "ignoring 2 permissions.allow entries from local project settings /p/.claude/x.json: this workspace has not been trusted"}},
		{ScopeProject, false, "dontAsk", want{false, 0, ModeDontAsk, "ignoring 1 permissions.additionalDirectories entry from project settings /p/.claude/x.json: this workspace has not been trusted"}},
		{ScopeProject, true, "acceptEdits", want{true, 1, ModeAcceptEdits, ""}},
		{ScopeLocal, true, "bypassPermissions", want{true, 1, ModeDefault, "the workspace may not choose a mode more permissive than acceptEdits"}},
		{ScopeUser, false, "bypassPermissions", want{true, 1, ModeBypassPermissions, ""}},
		{ScopeCommandLine, false, "auto", want{true, 1, ModeAuto, ""}},
		{ScopeManaged, false, "acceptEdits", want{true, 1, ModeAcceptEdits, ""}},
	} {
		name := c.scope.String() + " " + c.mode
		s, err := ParseSettings([]byte(fmt.Sprintf(file, c.mode)), "/p/.claude/x.json", c.scope)
		require.NoError(t, err, name)
		s.Trusted = c.trusted
		cfg, warnings := Merge(Config{Default: Ask, WorkDir: "/p"}, s)
		assert.Equal(t, c.want.mode, cfg.Mode, name)
		assert.Len(t, cfg.AdditionalDirectories, c.want.dirs, name)
		if c.want.warning != "" {
			assert.Contains(t, strings.Join(warnings, "\n"), c.want.warning, name)
		} else {
			assert.Empty(t, warnings, name)
		}
		chk, err := New(cfg)
		require.NoError(t, err, name)
		r := chk.Check(sh("curl", "x"), nil)
		if c.want.allow {
			assert.Equal(t, Allow, r.Decision, name)
			assert.Contains(t, r.Reason, "allowed by allow rule Bash(curl:*)", name)
		} else {
			assert.Equal(t, Ask, r.Decision, name)
			assert.Contains(t, r.Reason, "the default for exec tools is ask", name)
		}
		// Deny and ask rules hold from every scope, trusted or not.
		r = chk.Check(sh("rm", "x"), nil)
		assert.Equal(t, Deny, r.Decision, name)
		assert.Contains(t, r.Reason, "denied by deny rule Bash(rm:*)", name)
		r = chk.Check(sh("git", "push"), nil)
		assert.Equal(t, Ask, r.Decision, name)
		assert.Contains(t, r.Reason, "needs confirmation by ask rule Bash(git push:*)", name)
	}
}

// TestSettingsManagedOnly: allowManagedPermissionRulesOnly in managed
// settings leaves only the managed rules; elsewhere it is ignored with a
// warning.
func TestSettingsManagedOnly(t *testing.T) {
	managed, err := ParseSettings([]byte(`{"allowManagedPermissionRulesOnly": true, "permissions": {"deny": ["Bash(rm:*)"]}}`), "/etc/m.json", ScopeManaged)
	require.NoError(t, err)
	user, err := ParseSettings([]byte(`{"allowManagedPermissionRulesOnly": true, "permissions": {"allow": ["Bash(curl:*)"]}}`), "/u.json", ScopeUser)
	require.NoError(t, err)
	assert.False(t, user.AllowManagedPermissionRulesOnly)
	assert.Equal(t, []string{"user settings /u.json: allowManagedPermissionRulesOnly is read from managed settings only; ignored here"}, user.Warnings)
	cfg, warnings := Merge(Config{Default: Ask}, managed, user)
	assert.Contains(t, warnings, "ignoring the permission rules of user settings /u.json: managed settings set allowManagedPermissionRulesOnly")
	chk, err := New(cfg)
	require.NoError(t, err)
	r := chk.Check(sh("curl", "x"), nil)
	assert.Equal(t, Ask, r.Decision)
	assert.Contains(t, r.Reason, "no rule matched")
	cfg, _ = Merge(Config{Default: Ask}, user)
	chk, err = New(cfg)
	require.NoError(t, err)
	r = chk.Check(sh("curl", "x"), nil)
	assert.Equal(t, Allow, r.Decision, "without the managed key the user's rules apply")
	assert.Contains(t, r.Reason, "allowed by allow rule Bash(curl:*) (user settings /u.json)")
}

// TestMergeWorkspaceModeNotWiderThanPerson: a trusted workspace may
// choose acceptEdits only when the person's own files set no narrower
// mode; it may always narrow.
func TestMergeWorkspaceModeNotWiderThanPerson(t *testing.T) {
	user := &Settings{Scope: ScopeUser, Path: "/h/.claude/settings.json", DefaultMode: "default"}
	local := &Settings{Scope: ScopeLocal, Path: "/p/.claude/settings.local.json", DefaultMode: "acceptEdits", Trusted: true}
	cfg, warnings := Merge(Config{}, user, local)
	assert.Equal(t, ModeDefault, cfg.Mode, "the workspace widened the person's mode")
	assert.Contains(t, strings.Join(warnings, "\n"), `ignoring permissions.defaultMode "acceptEdits" from local project settings /p/.claude/settings.local.json: the workspace may not choose a mode more permissive than the person's (default)`)

	plan := &Settings{Scope: ScopeProject, Path: "/p/.claude/settings.json", DefaultMode: "plan"}
	cfg, _ = Merge(Config{}, user, plan)
	assert.Equal(t, ModePlan, cfg.Mode, "the workspace may narrow")

	cfg, _ = Merge(Config{}, local)
	assert.Equal(t, ModeAcceptEdits, cfg.Mode, "with no mode of the person's, a trusted workspace may choose acceptEdits")
}

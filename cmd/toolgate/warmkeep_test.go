package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/permission"
)

// TestWarmKeepsRulesAndGuard: a warm process reuses the compiled rules
// and the shell guard of a configuration it met, and answers every call
// byte for byte as a fresh "toolgate check" process does; a change of
// the project's rules, of the user's safe commands or of the environment
// between two calls is seen at the next call (the decision and the
// reason change, and nothing kept is reused for it).
func TestWarmKeepsRulesAndGuard(t *testing.T) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	proj, home := filepath.Join(tmp, "proj"), filepath.Join(tmp, "home")
	for _, d := range []string{filepath.Join(proj, ".git"), filepath.Join(proj, ".claude"), filepath.Join(home, ".claude")} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	write := func(path, text string) {
		require.NoError(t, os.WriteFile(path+".tmp", []byte(text), 0o644))
		require.NoError(t, os.Rename(path+".tmp", path))
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", filepath.Join(tmp, "state"))
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	// Not confined: the command goes back as it is, not wrapped in a
	// launcher whose path is this test's binary in process and toolgate
	// in the fresh one.
	userSettings := filepath.Join(home, ".claude", "settings.json")
	write(userSettings, `{"toolgate":{"confine":false}}`)
	srv, err := newWarmServer("keeptest", env{getenv: os.Getenv})
	require.NoError(t, err)
	t.Cleanup(srv.cache.drop)
	bash := func(command string) []byte {
		b, err := json.Marshal(map[string]any{"session_id": "keep", "hook_event_name": "PreToolUse", "tool_name": "Bash",
			"tool_input": map[string]string{"command": command}, "cwd": proj})
		require.NoError(t, err)
		return b
	}
	// ask answers ev as the warm process does (and asserts a fresh
	// process answers the same), and returns the decision, the reason
	// and what the call reused.
	ask := func(t *testing.T, ev []byte) (string, string, warmReuse) {
		t.Helper()
		before := srv.cache.reuse
		d, why := warmAnswer(t, srv, proj, ev)
		after := srv.cache.reuse
		return d, why, warmReuse{checkers: after.checkers - before.checkers, guards: after.guards - before.guards}
	}
	const safeLs = "[L5 shell: safe]"
	d, why, used := ask(t, bash("ls -la"))
	assert.Equal(t, "allow", d, why)
	assert.Contains(t, why, safeLs, why)
	assert.Equal(t, warmReuse{}, used, "the first call builds the rules and the guard")
	d, why, used = ask(t, bash("ls -la"))
	assert.Equal(t, "allow", d, why)
	assert.Contains(t, why, safeLs, why)
	assert.Equal(t, warmReuse{checkers: 1, guards: 1}, used, "the second call reuses both")

	// A deny rule added to the project's settings between two calls.
	write(filepath.Join(proj, ".claude", "settings.json"), `{"permissions":{"deny":["Bash(ls:*)"]}}`)
	d, why, used = ask(t, bash("ls -la"))
	assert.Equal(t, "deny", d, why)
	assert.Contains(t, why, "Bash(ls:*)", why)
	assert.Equal(t, 0, used.checkers, "new rules are compiled afresh")
	d, why, used = ask(t, bash("ls -la"))
	assert.Equal(t, "deny", d, why)
	assert.Contains(t, why, "Bash(ls:*)", why)
	assert.Equal(t, warmReuse{checkers: 1, guards: 1}, used, "the new rules, unchanged since, are reused")

	// The rule taken back: the first rules are met again.
	write(filepath.Join(proj, ".claude", "settings.json"), `{}`)
	d, why, _ = ask(t, bash("ls -la"))
	assert.Equal(t, "allow", d, why)
	assert.Contains(t, why, safeLs, why)

	// A safe command added in the user's settings changes the guard's
	// policy: the next call judges with a new guard.
	d, why, _ = ask(t, bash("mytool x"))
	assert.Equal(t, "ask", d, why)
	assert.NotContains(t, why, safeLs, why)
	write(userSettings, `{"toolgate":{"confine":false,"safeCommands":["mytool"]}}`)
	d, why, used = ask(t, bash("mytool x"))
	assert.Equal(t, "allow", d, why)
	assert.Contains(t, why, "on the policy's extra safe list [L5 shell: safe:extra]", why)
	assert.Equal(t, 0, used.guards, "a new shell policy builds a new guard")

	// A variable the guard takes its value from, changed in the
	// environment the calls come with.
	d, why, _ = ask(t, bash("cd sub"))
	assert.Equal(t, "ask", d, why)
	assert.Contains(t, why, "sub, which is not an existing directory", why)
	require.NoError(t, os.MkdirAll(filepath.Join(tmp, "elsewhere", "sub"), 0o755))
	t.Setenv("CDPATH", filepath.Join(tmp, "elsewhere"))
	d2, why2, used := ask(t, bash("cd sub"))

	assert.Equal(t, 0, used.guards, "a new CDPATH builds a new guard")
	assert.Equal(t, "ask", d2, why2)
	assert.Contains(t, why2, "enters sub ("+filepath.Join(tmp, "elsewhere", "sub")+" through CDPATH) outside the allowed roots", why2)
}

// TestWarmCheckerAndGuardKeys: a kept checker or guard is reused only for
// a configuration deeply equal to its own, which a caller's later change
// of its own slices and maps does not reach; a policy with a LookupHome
// function is never kept.
func TestWarmCheckerAndGuardKeys(t *testing.T) {
	var c warmCache
	t.Cleanup(c.drop)
	cfg := permission.Config{Default: permission.Ask, Deny: []string{"Bash(rm:*)"}, WorkDir: "/p",
		DefaultFor: map[permission.Kind]permission.Decision{permission.KindRead: permission.Allow}}
	a, err := c.newChecker(cfg)
	require.NoError(t, err)
	b, err := c.newChecker(cfg)
	require.NoError(t, err)
	assert.Same(t, a, b, "an equal configuration reuses the checker")
	cfg.Deny[0] = "Bash(ls:*)"
	other, err := c.newChecker(cfg)
	require.NoError(t, err)
	assert.NotSame(t, a, other, "a rule changed in the caller's own slice is another configuration")
	res := other.Check(&permission.Request{Tool: "Bash", Kind: permission.KindExec, Command: []string{"ls"}}, nil)
	assert.Equal(t, permission.Deny, res.Decision, res.Reason)
	assert.Equal(t, permission.RuleID("Bash(ls:*)"), res.Rule, res.Reason)
	cfg.DefaultFor[permission.KindRead] = permission.Ask
	again, err := c.newChecker(cfg)
	require.NoError(t, err)
	assert.NotSame(t, other, again, "a default changed in the caller's own map is another configuration")
	_, err = c.newChecker(permission.Config{WorkDir: "relative"})
	assert.Error(t, err, "a configuration New refuses is refused")
	assert.Equal(t, 1, c.reuse.checkers)

	pol := bashguard.DefaultPolicy()
	pol.Environ = map[string]string{"PATH": "/bin"}
	g := c.newGuard(pol)
	require.NotNil(t, g)
	assert.Same(t, g, c.newGuard(pol), "an equal policy reuses the guard")
	pol.Environ["PATH"] = "/usr/bin"
	assert.NotSame(t, g, c.newGuard(pol), "a value changed in the caller's own map is another policy")
	pol.LookupHome = func(string) (string, error) { return "", nil }
	assert.Nil(t, c.newGuard(pol), "a policy with a function is not kept: Open builds its guard")
	assert.Equal(t, 1, c.reuse.guards)
}

// TestWarmGoFacts: a warm process reads GOROOT's VERSION again only when
// its stat changed, and sees a new release written in its place.
func TestWarmGoFacts(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	goroot := filepath.Join(root, "go")
	require.NoError(t, os.MkdirAll(filepath.Join(goroot, "bin"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(goroot, "bin", "go"), []byte("#!/bin/sh\n"), 0o755))
	version := filepath.Join(goroot, "VERSION")
	require.NoError(t, os.WriteFile(version, []byte("go1.26.8\n"), 0o644))
	home := filepath.Join(root, "home")
	getenv := func(k string) string { return map[string]string{"PATH": filepath.Join(goroot, "bin")}[k] }
	var c warmCache
	// A file changed within warmRacy is read again: wait it out, so that
	// the first read is kept.
	time.Sleep(warmRacy + 100*time.Millisecond)
	v, mc := goFactsRead(getenv, home, c.readFile)
	assert.Equal(t, "go1.26.8", v)
	assert.Equal(t, filepath.Join(home, "go", "pkg", "mod"), mc)
	k, ok := c.files["read\x00"+version]
	require.True(t, ok, "VERSION is kept")
	v, _ = goFactsRead(getenv, home, c.readFile)
	assert.Equal(t, "go1.26.8", v, "from the kept read")
	assert.Equal(t, k.stamp, c.files["read\x00"+version].stamp)
	// The same size, another release.
	require.NoError(t, os.WriteFile(version, []byte("go1.26.9\n"), 0o644))
	v, _ = goFactsRead(getenv, home, c.readFile)
	assert.Equal(t, "go1.26.9", v, "a VERSION written since is read again")
	require.NoError(t, os.Remove(version))
	v, mc = goFactsRead(getenv, home, c.readFile)
	assert.Empty(t, v, "no VERSION: no release")
	assert.Empty(t, mc)
}

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseBashScriptOnTheRealClientsScripts reads the scripts Claude
// Code 2.1.332 passed to its CLAUDE_CODE_SHELL_PREFIX, recorded from the
// real client (e2e/claudecode): every Bash call's script has the eval and
// pwd structure and yields the model's command byte for byte; the hook's
// script is the hook command verbatim, which has not.
func TestParseBashScriptOnTheRealClientsScripts(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "shellprefix", "claude-code-2.1.332-scripts.json"))
	require.NoError(t, err)
	var cases []struct {
		Script  string `json:"script"`
		Bash    bool   `json:"bash"`
		Command string `json:"command"`
	}
	require.NoError(t, json.Unmarshal(b, &cases))
	require.NotEmpty(t, cases)
	for _, c := range cases {
		bs, ok := parseBashScript(c.Script)
		require.Equal(t, c.Bash, ok, c.Script)
		if ok {
			assert.Equal(t, c.Command, bs.Command)
			assert.Regexp(t, `^/tmp/claude-[0-9a-f]{4}-cwd$`, bs.CwdFile)
		}
	}
}

// TestParseBashScriptRefusesOtherShapes: what is not the client's shape
// exactly is no Bash call (and so never finds a record).
func TestParseBashScriptRefusesOtherShapes(t *testing.T) {
	const pre = `source /h/snap.sh 2>/dev/null || true && `
	for script, why := range map[string]string{
		pre + `eval 'ls' < /dev/null && pwd -P >| /tmp/claude-ab12-cwd`:            "",
		pre + `eval "echo \"it's\"" < /dev/null && pwd -P >| /tmp/claude-ab12-cwd`: "",
		pre + `eval "$(curl x)" < /dev/null && pwd -P >| /tmp/claude-ab12-cwd`:     "an expansion in the eval's word",
		pre + `eval "echo $HOME" < /dev/null && pwd -P >| /tmp/claude-ab12-cwd`:    "a parameter in double quotes",
		pre + `eval $'ls' < /dev/null && pwd -P >| /tmp/claude-ab12-cwd`:           "ANSI-C quotes",
		pre + `eval 'ls' 'x' < /dev/null && pwd -P >| /tmp/claude-ab12-cwd`:        "two words",
		pre + `eval 'ls' < /etc/passwd && pwd -P >| /tmp/claude-ab12-cwd`:          "another input",
		pre + `eval 'ls' < /dev/null && pwd -P >| /home/u/.bashrc`:                 "another file",
		pre + `eval 'ls' < /dev/null && pwd -P >| /tmp/claude-ab12-cwd; rm -rf ~`:  "a further statement",
		pre + `eval 'ls' < /dev/null && pwd -P >| /tmp/claude-ab12-cwd &`:          "background",
		pre + `eval 'ls' < /dev/null && pwd -P > /tmp/claude-ab12-cwd`:             "not >|",
		pre + `eval 'ls' < /dev/null && pwd -P >| /tmp/../etc/claude-ab12-cwd`:     "an unclean path",
		pre + `X=1 eval 'ls' < /dev/null && pwd -P >| /tmp/claude-ab12-cwd`:        "an assignment",
		`toolgate check`: "a hook command",
	} {
		bs, ok := parseBashScript(script)
		assert.Equal(t, why == "", ok, "%s: %s", why, script)
		if ok {
			assert.NotEmpty(t, bs.Command)
		}
	}
}

// TestParseBashScriptUnquotesAsBash: the command read from the eval's
// word is what bash's eval receives, checked against real bash, for every
// quoting the word may use.
func TestParseBashScriptUnquotesAsBash(t *testing.T) {
	for _, word := range []string{
		`'ls -la'`, `pwd`, `'echo "it'"'"'s"'`, `'a'\''b'`, `"x \$HOME \` + "`" + `y\" \\ \q"`, `a\ b\"c`, "'multi\nline'",
		`"line\` + "\n" + `joined"`, `'$(not run)'`, `"tab	inside"`, `''`, `""`,
	} {
		bs, ok := parseBashScript(`eval ` + word + ` < /dev/null && pwd -P >| /tmp/claude-ab12-cwd`)
		require.True(t, ok, word)
		out, err := exec.Command("bash", "-c", `printf %s `+word).Output()
		require.NoError(t, err, word)
		assert.Equal(t, string(out), bs.Command, word)
	}
	for _, word := range []string{`*`, `~/x`, `{a,b}`, `a[1]`, `@(x)`} {
		_, ok := parseBashScript(`eval ` + word + ` < /dev/null && pwd -P >| /tmp/claude-ab12-cwd`)
		assert.False(t, ok, "bash expands %s: refused", word)
	}
}

// TestPrefixRecordTakenOnce: a record is read by the run of its command,
// directory and session alone, once, and not after it expires.
func TestPrefixRecordTakenOnce(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	cwd := t.TempDir()
	now := time.Now()
	rec := prefixRecord{Session: "s1", Cwd: cwd, Command: "ls", Mode: prefixConfine, Policy: confinePolicy{Roots: []string{cwd}}}
	require.NoError(t, writePrefixRecord(state, rec, now))
	fi, err := os.Stat(filepath.Join(state, "prefix"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm())

	for _, other := range [][3]string{{"s2", cwd, "ls"}, {"s1", t.TempDir(), "ls"}, {"s1", cwd, "ls -a"}} {
		_, ok, err := takePrefixRecord(state, other[0], other[1], other[2], now)
		require.NoError(t, err)
		assert.False(t, ok, "another call took the record: %v", other)
	}
	got, ok, err := takePrefixRecord(state, "s1", cwd, "ls", now)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, prefixConfine, got.Mode)
	assert.Equal(t, []string{cwd}, got.Policy.Roots)
	_, ok, err = takePrefixRecord(state, "s1", cwd, "ls", now)
	require.NoError(t, err)
	assert.False(t, ok, "a record was taken twice")

	require.NoError(t, writePrefixRecord(state, rec, now))
	_, ok, err = takePrefixRecord(state, "s1", cwd, "ls", now.Add(prefixRecordMaxAge+time.Minute))
	require.NoError(t, err)
	assert.False(t, ok, "an expired record was taken")

	// A record no call took is swept by a later write once expired.
	stale := prefixRecord{Session: "s1", Cwd: cwd, Command: "never run", Mode: prefixFull}
	require.NoError(t, writePrefixRecord(state, stale, now))
	old := filepath.Join(state, "prefix", prefixKey("s1", cwd, "never run"))
	require.NoError(t, os.Chtimes(old, now.Add(-2*prefixRecordMaxAge), now.Add(-2*prefixRecordMaxAge)))
	require.NoError(t, writePrefixRecord(state, rec, now))
	assert.NoFileExists(t, old)
}

// TestPrefixDirMustBePrivate: a records directory others may read or
// write is refused, and so is the writing of a decision.
func TestPrefixDirMustBePrivate(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	require.NoError(t, os.MkdirAll(filepath.Join(state, "prefix"), 0o700))
	require.NoError(t, os.Chmod(filepath.Join(state, "prefix"), 0o755))
	err := writePrefixRecord(state, prefixRecord{Session: "s", Cwd: "/x", Command: "ls", Mode: prefixFull}, time.Now())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "it must be 0700")
}

// runPrefixBinary runs the built toolgate as toolgate-shell-prefix with script,
// in dir, and returns its exit status and output.
func runPrefixBinary(t *testing.T, dir, home string, extraEnv []string, script string) (int, string, string) {
	t.Helper()
	link := filepath.Join(t.TempDir(), shellPrefixName)
	require.NoError(t, os.Symlink(bin, link))
	cmd := exec.Command(link, script)
	cmd.Dir = dir
	cmd.Env = append([]string{"HOME=" + home, "PATH=/usr/local/bin:/usr/bin:/bin", "XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "CLAUDE_CODE_SESSION_ID=sess-1", "LANG=C.UTF-8"}, extraEnv...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return code, out.String(), errb.String()
}

// claudeScript is a Bash call's script as Claude Code 2.1.332 builds it.
func claudeScript(command, cwdFile string) string {
	return `source /nonexistent/snapshot-bash-1-x.sh 2>/dev/null || true && eval ` + shellQuote(command) + ` < /dev/null && pwd -P >| ` + cwdFile
}

// TestShellPrefixRunsTheRecordedConfinement runs the real binary as the
// prefix: a recorded decision confines the script (the roots writable,
// the home not), and the cwd file is written from inside; the same script
// again, with its record taken, runs confined to its directory.
func TestShellPrefixRunsTheRecordedConfinement(t *testing.T) {
	root := t.TempDir()
	home, ws := filepath.Join(root, "home"), filepath.Join(root, "ws")
	require.NoError(t, os.MkdirAll(filepath.Join(ws, "src"), 0o755))
	require.NoError(t, os.MkdirAll(home, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ws, ".env"), []byte("TOKEN=PREFIX-SECRET-7\n"), 0o644))
	requireConfinement(t)
	cwdFile := filepath.Join("/tmp", "claude-"+hexOf(time.Now().UnixNano(), 8)+"-cwd")
	t.Cleanup(func() { os.Remove(cwdFile) })
	command := "cd src && touch inside.txt && (echo x > " + home + "/escaped.txt || echo WRITE-REFUSED) && (cat ../.env || echo READ-REFUSED)"
	state := filepath.Join(home, ".local", "state", "toolgate")
	require.NoError(t, writePrefixRecord(state, prefixRecord{Session: "sess-1", Cwd: ws, Command: command, Mode: prefixConfine,
		Policy: confinePolicy{Roots: []string{ws}}}, time.Now()))

	code, out, stderr := runPrefixBinary(t, ws, home, nil, claudeScript(command, cwdFile))
	require.Equal(t, 0, code, "stdout %s stderr %s", out, stderr)
	assert.Contains(t, out, "WRITE-REFUSED")
	assert.Contains(t, out, "READ-REFUSED")
	assert.NotContains(t, out, "PREFIX-SECRET-7")
	assert.FileExists(t, filepath.Join(ws, "src", "inside.txt"))
	assert.NoFileExists(t, filepath.Join(home, "escaped.txt"))
	b, err := os.ReadFile(cwdFile)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(ws, "src")+"\n", string(b), "the final directory is written from inside the confinement")

	// Taken: the same script runs confined to its directory, and says so.
	sub := filepath.Join(ws, "src")
	code, out, stderr = runPrefixBinary(t, sub, home, nil, claudeScript("echo x > ../outside-root.txt || echo REFUSED", cwdFile))
	require.Equal(t, 0, code, "stdout %s stderr %s", out, stderr)
	assert.Contains(t, out, "REFUSED")
	assert.Contains(t, stderr, "no decision of toolgate check is recorded for this command; it runs confined to "+sub)
	assert.NoFileExists(t, filepath.Join(ws, "outside-root.txt"))
}

// TestShellPrefixRunsOnlyTheUsersHooksAsTheyAre: a script equal to a
// hook command of the user's settings runs with the user's rights; one
// of the workspace's settings does not.
func TestShellPrefixRunsOnlyTheUsersHooksAsTheyAre(t *testing.T) {
	root := t.TempDir()
	home, ws := filepath.Join(root, "home"), filepath.Join(root, "ws")
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".claude"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(ws, ".claude"), 0o755))
	requireConfinement(t)
	userHook := "echo USER-HOOK > " + home + "/user-hook.txt"
	projectHook := "echo PROJECT-HOOK > " + home + "/project-hook.txt"
	hooks := func(cmd string) string {
		return `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":` + strings.TrimSpace(mustJSON(t, cmd)) + `}]}]}}`
	}
	require.NoError(t, os.WriteFile(filepath.Join(home, ".claude", "settings.json"), []byte(hooks(userHook)), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(ws, ".claude", "settings.json"), []byte(hooks(projectHook)), 0o644))

	code, _, stderr := runPrefixBinary(t, ws, home, nil, userHook)
	require.Equal(t, 0, code, stderr)
	assert.FileExists(t, filepath.Join(home, "user-hook.txt"))

	code, _, stderr = runPrefixBinary(t, ws, home, nil, projectHook)
	assert.NotEqual(t, 0, code)
	assert.Contains(t, stderr, "neither a Bash call nor a hook of the user's settings runs confined to "+ws)
	assert.NoFileExists(t, filepath.Join(home, "project-hook.txt"))
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func hexOf(v int64, n int) string {
	const digits = "0123456789abcdef"
	out := make([]byte, n)
	for i := range out {
		out[i] = digits[v&15]
		v >>= 4
	}
	return string(out)
}

// TestCheckHandsTheConfinementToThePrefix: with CLAUDE_CODE_SHELL_PREFIX
// naming toolgate-shell-prefix, toolgate check leaves an allowed command
// as the user wrote it and records its confinement; the prefix then runs
// Claude Code's script of it confined (the write outside the roots fails).
// A command that asks is recorded to run with the user's rights once the
// person allows it, as the rewrite runs it; a denied one records nothing.
func TestCheckHandsTheConfinementToThePrefix(t *testing.T) {
	requireConfinement(t)
	w := newConfinedWorld(t)
	link := filepath.Join(t.TempDir(), shellPrefixName)
	require.NoError(t, os.Symlink(bin, link))
	state := filepath.Join(w.home, ".local", "state")
	checkTool := func(tool, command string) (string, string, map[string]any) {
		ev, err := json.Marshal(map[string]any{"session_id": "sess-1", "cwd": w.proj, "hook_event_name": "PreToolUse",
			"permission_mode": "default", "tool_name": tool, "tool_use_id": "toolu_1",
			"tool_input": map[string]any{"command": command, "description": "x"}})
		require.NoError(t, err)
		out, stderr, code := runBinary(t, w.tmp, nil, string(ev), "CLAUDE_PROJECT_DIR="+w.proj, "CLAUDE_CODE_SHELL_PREFIX="+link, "XDG_STATE_HOME="+state)
		require.Equal(t, 0, code, stderr)
		var ans struct {
			Specific struct {
				PermissionDecision       string         `json:"permissionDecision"`
				PermissionDecisionReason string         `json:"permissionDecisionReason"`
				UpdatedInput             map[string]any `json:"updatedInput"`
			} `json:"hookSpecificOutput"`
		}
		require.NoError(t, json.Unmarshal([]byte(out), &ans), out)
		return ans.Specific.PermissionDecision, ans.Specific.PermissionDecisionReason, ans.Specific.UpdatedInput
	}
	check := func(command string) (string, string, map[string]any) { return checkTool("Bash", command) }
	cwdFile := filepath.Join("/tmp", "claude-"+hexOf(time.Now().UnixNano(), 8)+"-cwd")
	t.Cleanup(func() { os.Remove(cwdFile) })

	allowed := "python3 probe.py write " + w.outside + "/pwned"
	d, reason, in := check(allowed)
	assert.Equal(t, "allow", d)
	assert.Contains(t, reason, "Bash(python3:*)")
	assert.Nil(t, in, "the command is not rewritten")
	code, out, stderr := runPrefixBinary(t, w.proj, w.home, nil, claudeScript(allowed, cwdFile))
	assert.Equal(t, 0, code, stderr)
	assert.Equal(t, "PermissionError 13\n", out)
	assert.NotContains(t, stderr, "no decision")
	assert.NoFileExists(t, filepath.Join(w.outside, "pwned"))

	asked := "echo hi > asked.txt"
	d, reason, in = check(asked)
	assert.Equal(t, "ask", d, reason)
	assert.Nil(t, in)
	code, _, stderr = runPrefixBinary(t, w.proj, w.home, nil, claudeScript(asked, cwdFile))
	assert.Equal(t, 0, code, stderr)
	assert.NotContains(t, stderr, "no decision")
	assert.FileExists(t, filepath.Join(w.proj, "asked.txt"), "a command the person allowed runs with their rights")

	// A failed command never reaches pwd -P: no empty cwd file is left.
	d, _, _ = check("python3 probe.py nothing")
	require.Equal(t, "allow", d)
	require.NoError(t, os.Remove(cwdFile)) // Claude Code removes it once read
	code, _, _ = runPrefixBinary(t, w.proj, w.home, nil, claudeScript("python3 probe.py nothing", cwdFile))
	assert.NotEqual(t, 0, code)
	assert.NoFileExists(t, cwdFile)

	denied := "rm -rf ~"
	d, reason, _ = check(denied)
	assert.Equal(t, "deny", d, reason)
	ents, err := os.ReadDir(filepath.Join(state, "toolgate", "prefix"))
	require.NoError(t, err)
	assert.Empty(t, ents, "every record was taken, and the Deny recorded none")

	// A Deny removes what an earlier check recorded for the command.
	dir := filepath.Join(state, "toolgate", "prefix")
	require.NoError(t, writePrefixRecord(filepath.Join(state, "toolgate"), prefixRecord{Session: "sess-1", Cwd: w.proj, Command: denied, Mode: prefixFull}, time.Now()))
	d, _, _ = check(denied)
	assert.Equal(t, "deny", d)
	assert.NoFileExists(t, filepath.Join(dir, prefixKey("sess-1", w.proj, denied)))

	// Monitor keeps the rewrite, and the prefix runs the rewritten
	// command as it is (it confines itself).
	d, reason, in = checkTool("Monitor", allowed)
	require.Equal(t, "allow", d, reason)
	wrapped, _ := in["command"].(string)
	require.Contains(t, wrapped, " exec --policy ")
	code, out, stderr = runPrefixBinary(t, w.proj, w.home, []string{"PATH=" + filepath.Dir(bin) + ":/usr/local/bin:/usr/bin:/bin"}, claudeScript(wrapped, cwdFile))
	assert.Equal(t, 0, code, stderr)
	assert.Equal(t, "PermissionError 13\n", out)
	assert.NotContains(t, stderr, "no decision")

	// Records that others could read or write: the call is denied, with
	// the reason, rather than run without its decision.
	require.NoError(t, os.Chmod(dir, 0o755))
	d, reason, _ = check(allowed)
	assert.Equal(t, "deny", d)
	assert.Contains(t, reason, "cannot hand the confinement of this command to toolgate-shell-prefix")
	assert.Contains(t, reason, "it must be 0700")
	assert.Contains(t, reason, ": confine:handover]")
}

// TestShellPrefixIgnoresRecordsAWorkspacePointsAt: a workspace whose
// settings set XDG_STATE_HOME in their env block (into the workspace,
// which a confined command may write) cannot hand the prefix a record of
// its own: the prefix looks where the hook does, and the script runs
// confined.
func TestShellPrefixIgnoresRecordsAWorkspacePointsAt(t *testing.T) {
	requireConfinement(t)
	root := t.TempDir()
	home, ws, outside := filepath.Join(root, "home"), filepath.Join(root, "ws"), filepath.Join(root, "outside")
	for _, d := range []string{filepath.Join(ws, ".claude"), home, outside} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	forged := filepath.Join(ws, "state")
	require.NoError(t, os.WriteFile(filepath.Join(ws, ".claude", "settings.json"), []byte(`{"env": {"XDG_STATE_HOME": `+mustJSON(t, forged)+`}}`), 0o644))
	command := "echo x > " + outside + "/escaped.txt || echo REFUSED"
	require.NoError(t, writePrefixRecord(filepath.Join(forged, "toolgate"), prefixRecord{Session: "sess-1", Cwd: ws, Command: command, Mode: prefixFull}, time.Now()))

	cwdFile := filepath.Join("/tmp", "claude-"+hexOf(time.Now().UnixNano(), 8)+"-cwd")
	t.Cleanup(func() { os.Remove(cwdFile) })
	code, out, stderr := runPrefixBinary(t, ws, home, []string{"XDG_STATE_HOME=" + forged, "CLAUDE_PROJECT_DIR=" + ws}, claudeScript(command, cwdFile))
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "REFUSED")
	assert.Contains(t, stderr, "no decision of toolgate check is recorded for this command")
	assert.NoFileExists(t, filepath.Join(outside, "escaped.txt"))
}

// TestRecordsInsideTheRootsAreRefused: a state directory inside the
// project (XDG_STATE_HOME set so by the user) would let a confined
// command forge records: the hook denies, the prefix takes none.
func TestRecordsInsideTheRootsAreRefused(t *testing.T) {
	ws := t.TempDir()
	state := filepath.Join(ws, "state", "toolgate")
	r, ok := holdsRecords(state, []string{"/elsewhere", ws})
	assert.True(t, ok)
	assert.Equal(t, ws, r)
	_, ok = holdsRecords(state, []string{filepath.Join(ws, "src")})
	assert.False(t, ok, "a root beside the records")
}

package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLintFindsEveryKindOfProblem(t *testing.T) {
	tmp := workspace(t)
	cwd := filepath.Join(tmp, "proj")
	project := filepath.Join(cwd, ".claude", "settings.json")
	writeSettings(t, project, `{
  "permissions": {
    "allow": ["Bash(git status)", "Bash(python:*)", "Bash(sh -c:*)", "Read(//**)", "bash(ls)", "Bash", "Bash(git push:*)"],
    "deny": ["Bash(git:*)", "Bash(rm -rf:*"]
  }
}`)
	user := filepath.Join(tmp, "home", ".claude", "settings.json")
	writeSettings(t, user, `{"permissions": {"allow": ["Bash(env:*)", "Bash(sudo:*)", "Bash(xargs:*)", "Bash(bash:*)", "Bash(*)", "mcp__github__create_issue"]}}`)

	out, _, code := runTool(t, tmp, "lint", "--managed", filepath.Join(tmp, "none.json"), "--cwd", cwd)
	assert.Equal(t, 1, code, out)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := []string{
		project + `:4:42: error: permissions.deny[1] "Bash(rm -rf:*" is malformed: specifier not closed: a rule with '(' must end with ')'`,
		user + `:1:28: warning: permissions.allow[0] "Bash(env:*)" is too broad to be safe: env runs whatever its arguments say, so this allows any command`,
		user + `:1:43: warning: permissions.allow[1] "Bash(sudo:*)" is too broad to be safe: sudo runs whatever its arguments say, so this allows any command`,
		user + `:1:59: warning: permissions.allow[2] "Bash(xargs:*)" is too broad to be safe: xargs runs whatever its arguments say, so this allows any command`,
		user + `:1:76: warning: permissions.allow[3] "Bash(bash:*)" is too broad to be safe: bash runs whatever its arguments say, so this allows any command`,
		user + `:1:92: warning: permissions.allow[4] "Bash(*)" is too broad to be safe: it allows every shell command`,
		project + `:3:15: warning: permissions.allow[0] "Bash(git status)" never takes effect: every call it matches is denied by deny rule "Bash(git:*)" (` + project + `:4:14)`,
		project + `:3:35: warning: permissions.allow[1] "Bash(python:*)" is too broad to be safe: python runs whatever its arguments say, so this allows any command`,
		project + `:3:53: warning: permissions.allow[2] "Bash(sh -c:*)" is too broad to be safe: sh runs whatever its arguments say, so this allows any command`,
		project + `:3:70: warning: permissions.allow[3] "Read(//**)" is too broad to be safe: it names the whole file system or the whole home directory (with its keys and credentials)`,
		project + `:3:84: error: permissions.allow[4] "bash(ls)" can never match: tool names are case-sensitive, and the tool is Bash`,
		project + `:3:96: warning: permissions.allow[5] "Bash" is too broad to be safe: it allows every shell command`,
		project + `:3:104: warning: permissions.allow[6] "Bash(git push:*)" never takes effect: every call it matches is denied by deny rule "Bash(git:*)" (` + project + `:4:14)`,
		"2 settings file(s) checked: 2 error(s), 11 warning(s)",
	}
	require.Equal(t, want, lines)
}

func TestLintCleanSettings(t *testing.T) {
	tmp := workspace(t)
	cwd := filepath.Join(tmp, "proj")
	writeSettings(t, filepath.Join(cwd, ".claude", "settings.json"),
		`{"permissions": {"allow": ["Bash(go test:*)", "Read(./src/**)", "WebFetch(domain:go.dev)", "mcp__github__*"], "deny": ["Bash(git push:*)", "Read(./.env)"]}}`)
	// The person trusted the workspace: its allow rules count.
	writeSettings(t, filepath.Join(tmp, "home", ".claude.json"), `{"projects": {"`+cwd+`": {"hasTrustDialogAccepted": true}}}`)
	out, _, code := runTool(t, tmp, "lint", "--managed", filepath.Join(tmp, "none.json"), "--cwd", cwd)
	assert.Equal(t, 0, code)
	assert.Equal(t, "1 settings file(s) checked: 0 error(s), 0 warning(s)\n", out)
}

func TestLintUnreadableAndInvalid(t *testing.T) {
	tmp := workspace(t)
	cwd := filepath.Join(tmp, "proj")
	bad := filepath.Join(tmp, "bad.json")
	writeSettings(t, bad, `{"permissions": {"allow": "Bash"}}`)
	out, _, code := runTool(t, tmp, "lint", "--managed", filepath.Join(tmp, "none.json"), "--cwd", cwd, "--settings", bad, "--settings", filepath.Join(tmp, "missing.json"))
	assert.Equal(t, 1, code)
	assert.Equal(t, bad+": error: permissions.allow is not an array\n"+
		filepath.Join(tmp, "missing.json")+": error: cannot read: open: no such file or directory\n"+
		"1 settings file(s) checked: 2 error(s), 0 warning(s)\n", out)
}

// TestLintWorkspaceTrust: lint says which workspace entries the check sets
// aside until the person trusts the workspace, and that rules that can
// never match are errors; once trusted, the entries count.
func TestLintWorkspaceTrust(t *testing.T) {
	tmp := workspace(t)
	cwd := filepath.Join(tmp, "proj")
	writeSettings(t, filepath.Join(cwd, ".claude", "settings.json"),
		`{"permissions": {"allow": ["Bash(make:*)"], "deny": ["webfetch(domain:evil.com)", "WebFetch(https://evil.com)"], "defaultMode": "bypassPermissions"}}`)
	out, _, code := runTool(t, tmp, "lint", "--managed", filepath.Join(tmp, "none.json"), "--cwd", cwd)
	assert.Equal(t, 1, code)
	settings := filepath.Join(cwd, ".claude", "settings.json")
	assert.Contains(t, out, settings+": warning: ignoring 1 permissions.allow entry from project settings "+settings+": this workspace has not been trusted")
	assert.Contains(t, out, `ignoring permissions.defaultMode "bypassPermissions" from project settings `+settings+": the workspace may not choose a mode more permissive than acceptEdits")
	assert.Contains(t, out, `error: permissions.deny[0] "webfetch(domain:evil.com)" can never match: tool names are case-sensitive, and the tool is WebFetch`)
	assert.Contains(t, out, `error: permissions.deny[1] "WebFetch(https://evil.com)" can never match: WebFetch rules name a host as WebFetch(domain:example.com)`)

	writeSettings(t, filepath.Join(tmp, "home", ".claude.json"), `{"projects": {"`+cwd+`": {"hasTrustDialogAccepted": true}}}`)
	out, _, _ = runTool(t, tmp, "lint", "--managed", filepath.Join(tmp, "none.json"), "--cwd", cwd)
	assert.NotContains(t, out, "permissions.allow entry", "trusted: the allow rule counts")
	assert.Contains(t, out, `ignoring permissions.defaultMode "bypassPermissions"`, "even trusted, no bypass from the workspace")
}

// What makes toolgate check deny every call is an error of lint too: an
// unknown key under "toolgate", with the key meant, and a value of the
// wrong type. The same file's check denies, saying the same.
func TestLintToolgateKeysAsCheckReadsThem(t *testing.T) {
	for _, tc := range []struct{ toolgate, want string }{
		{`{"netwrok": true}`, `"toolgate": json: unknown field "netwrok"; toolgate check denies every call until it is fixed (did you mean "network"?)`},
		{`{"safeCommand": ["make"]}`, `(did you mean "safeCommands"?)`},
		{`{"confine": "yes"}`, `"toolgate": json: cannot unmarshal string`},
		{`{"zzzz": 1}`, `unknown field "zzzz"; toolgate check denies every call until it is fixed`},
	} {
		tmp := workspace(t)
		cwd := filepath.Join(tmp, "proj")
		project := filepath.Join(cwd, ".claude", "settings.json")
		writeSettings(t, project, `{"toolgate": `+tc.toolgate+`}`)
		out, _, code := runTool(t, tmp, "lint", "--managed", filepath.Join(tmp, "none.json"), "--cwd", cwd)
		assert.Equal(t, 1, code, out)
		assert.Contains(t, out, project+": error: ", tc.toolgate)
		assert.Contains(t, out, tc.want, tc.toolgate)
		if tc.toolgate == `{"zzzz": 1}` {
			assert.NotContains(t, out, "did you mean", "no key is near zzzz")
		}
		// The check reads the same key, and refuses the same way.
		_, exErr, exCode := runTool(t, tmp, "explain", "--managed", filepath.Join(tmp, "none.json"), "--cwd", cwd, "Read", `{"file_path":"a.txt"}`)
		assert.Equal(t, 1, exCode, tc.toolgate)
		assert.Contains(t, exErr, `toolgate explain: deny: cannot use settings: project settings `+project+`: "toolgate": json: `, tc.toolgate)
	}
}

// An allow rule Write(path) is inert, in Claude Code and in toolgate:
// lint says so, naming the Edit rule that does what it seems to mean; the
// check asks for such a write, as Claude Code does.
func TestLintWritePathAllowIsInert(t *testing.T) {
	tmp := workspace(t)
	cwd := filepath.Join(tmp, "proj")
	user := filepath.Join(tmp, "home", ".claude", "settings.json")
	writeSettings(t, user, `{"permissions": {"allow": ["Write(./out/**)"], "deny": ["Write(./secret/**)"]}}`)
	out, _, _ := runTool(t, tmp, "lint", "--managed", filepath.Join(tmp, "none.json"), "--cwd", cwd)
	assert.Contains(t, out, `allows nothing: Claude Code reads no Write(path) rule, and neither does toolgate in allow (write Edit(./out/**) for the edit tools)`)
	assert.NotContains(t, out, `"Write(./secret/**)" allows nothing`, "a deny rule still narrows")
	exOut, _, code := runTool(t, tmp, "explain", "--managed", filepath.Join(tmp, "none.json"), "--cwd", cwd, "Write", `{"file_path":"`+filepath.Join(cwd, "out", "a.txt")+`","content":"x"}`)
	assert.Equal(t, 0, code, exOut)
	assert.Contains(t, exOut, "decision: ask", "the rule lets nothing through")
	assert.Contains(t, exOut, "reason:   no rule matched; the default for edit tools is ask")
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// codexEventJSON is a hook event as Codex CLI 0.171.0 writes it
// (codex-rs/hooks/src/schema.rs: PreToolUseCommandInput and its
// siblings): Claude Code's fields, turn_id and model, and always
// permission_mode "bypassPermissions".
func codexEventJSON(name, cwd, tool string, input any, response any) string {
	ev := map[string]any{
		"session_id":      "019a7b3c-5d2e-7f41-9b6a-0c8d2e4f6a1b",
		"turn_id":         "019a7b3c-6e10-7a22-8c3d-1f2e3d4c5b6a",
		"transcript_path": nil,
		"cwd":             cwd,
		"hook_event_name": name,
		"model":           "gpt-5.5",
		"permission_mode": "bypassPermissions",
		"tool_name":       tool,
		"tool_input":      input,
	}
	if name != codexPermissionRequest {
		ev["tool_use_id"] = "call_7Qm2xK9pL4vN8rT1"
	}
	if response != nil {
		ev["tool_response"] = response
	}
	b, _ := json.Marshal(ev)
	return string(b)
}

// TestCodexAnswers runs the binary on Codex events and checks each answer
// against what Codex 0.171.0 does with it: exit status 2 with the reason
// on stderr blocks (and is what the model reads), exit status 0 with
// nothing on stdout lets the call go on, and Codex's answer types reject
// every JSON field they do not name.
func TestCodexAnswers(t *testing.T) {
	bash := func(cmd string) map[string]string { return map[string]string{"command": cmd} }
	userSettings := `{"permissions": {"deny": ["Bash(curl:*)"]}, "toolgate": {"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
		"command": "cat >/dev/null; printf '%s' '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"updatedToolOutput\":\"TOKEN=[redacted]\"}}'"}]}]}}}`
	cases := []struct {
		about    string
		args     []string
		settings string // ~/.claude/settings.json
		event    func(cwd string) string
		code     int
		stdout   string
		stderr   []string // each must be in stderr
		never    []string // none may be
	}{
		{
			about: "a read-only command inside the project is allowed: the empty answer",
			event: func(cwd string) string { return codexEventJSON("PreToolUse", cwd, "Bash", bash("ls src"), nil) },
		},
		{
			about: "bypassPermissions is not believed: a write toolgate would ask about is blocked, with the rule that allows it",
			event: func(cwd string) string {
				return codexEventJSON("PreToolUse", cwd, "Bash", bash("touch new.txt"), nil)
			},
			code:   2,
			stderr: []string{"toolgate: ", `Codex CLI cannot ask from a hook, so toolgate blocks what it would ask about; to allow it, add ["Bash(touch new.txt)"] to permissions.allow in ~/.claude/settings.json`},
			never:  []string{"bypassPermissions mode"},
		},
		{
			about:  "a secret read is blocked with the secret's reason",
			event:  func(cwd string) string { return codexEventJSON("PreToolUse", cwd, "Bash", bash("cat .env"), nil) },
			code:   2,
			stderr: []string{"toolgate: ", ".env"},
			never:  []string{"Codex CLI cannot ask"},
		},
		{
			about:    "a deny rule of the user's settings blocks, naming the rule",
			settings: userSettings,
			event: func(cwd string) string {
				return codexEventJSON("PreToolUse", cwd, "Bash", bash("curl https://example.com"), nil)
			},
			code:   2,
			stderr: []string{"Bash(curl:*)"},
		},
		{
			about: "a write outside the roots is blocked",
			event: func(cwd string) string {
				return codexEventJSON("PreToolUse", cwd, "Bash", bash("echo x > ../outside/new.txt"), nil)
			},
			code:   2,
			stderr: []string{"toolgate: ", "outside every root", "Codex CLI's --add-dir"},
			never:  []string{"claude --add-dir"},
		},
		{
			about:    "apply_patch in acceptEdits: a file of the project is allowed",
			settings: `{"permissions": {"defaultMode": "acceptEdits"}}`,
			event: func(cwd string) string {
				return codexEventJSON("PreToolUse", cwd, "apply_patch", bash("*** Begin Patch\n*** Add File: src/new.go\n+package main\n*** End Patch\n"), nil)
			},
		},
		{
			about:    "apply_patch: one file outside the roots blocks the whole patch",
			settings: `{"permissions": {"defaultMode": "acceptEdits"}}`,
			event: func(cwd string) string {
				return codexEventJSON("PreToolUse", cwd, "apply_patch", bash("*** Begin Patch\n*** Update File: src/main.go\n@@\n-package main\n+package app\n*** Add File: ../outside/x.go\n+package x\n*** End Patch\n"), nil)
			},
			code:   2,
			stderr: []string{"toolgate: ", "outside"},
		},
		{
			about: "apply_patch that names no file is blocked",
			event: func(cwd string) string {
				return codexEventJSON("PreToolUse", cwd, "apply_patch", bash("*** Begin Patch\n*** End Patch\n"), nil)
			},
			code:   2,
			stderr: []string{"toolgate: the patch of apply_patch names no file"},
		},
		{
			about:  "a Codex tool toolgate does not know is blocked",
			event:  func(cwd string) string { return codexEventJSON("PreToolUse", cwd, "spawn_agent", bash("x"), nil) },
			code:   2,
			stderr: []string{`toolgate: Codex tool "spawn_agent" is not one toolgate judges`},
		},
		{
			about: "a toolgate PreToolUse hook's rewrite is blocked, not handed to Codex",
			settings: `{"toolgate": {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
				"command": "cat >/dev/null; printf '%s' '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"updatedInput\":{\"command\":\"ls src\"}}}'"}]}]}}}`,
			event:  func(cwd string) string { return codexEventJSON("PreToolUse", cwd, "Bash", bash("ls"), nil) },
			code:   2,
			stderr: []string{"toolgate: ", "a PreToolUse hook rewrote the input, and toolgate does not hand Codex CLI rewritten input"},
		},
		{
			about: "an MCP call toolgate would ask about is blocked with the rule that allows it",
			event: func(cwd string) string {
				return codexEventJSON("PreToolUse", cwd, "mcp__github__create_issue", map[string]string{"title": "x"}, nil)
			},
			code:   2,
			stderr: []string{"toolgate: ", `to allow it, add ["mcp__github__create_issue"] to permissions.allow`},
		},
		{
			about: "PermissionRequest for a call toolgate allows is left to the person: the empty answer",
			event: func(cwd string) string {
				return codexEventJSON(codexPermissionRequest, cwd, "Bash", bash("ls src"), nil)
			},
		},
		{
			about: "PermissionRequest for a call toolgate denies is denied",
			event: func(cwd string) string {
				return codexEventJSON(codexPermissionRequest, cwd, "Bash", bash("cat .env"), nil)
			},
			code:   2,
			stderr: []string{"toolgate: ", ".env"},
		},
		{
			about:    "PostToolUse: a post hook's rewrite replaces what the model sees",
			settings: userSettings,
			event: func(cwd string) string {
				return codexEventJSON("PostToolUse", cwd, "Bash", bash("cat notes.txt"), "TOKEN=x\n")
			},
			code:   2,
			stderr: []string{"TOKEN=[redacted]"},
			never:  []string{"TOKEN=x"},
		},
		{
			about: "PostToolUse without post hooks: the empty answer",
			event: func(cwd string) string {
				return codexEventJSON("PostToolUse", cwd, "Bash", bash("ls"), "main.go\n")
			},
		},
		{
			about:  "an event toolgate does not know is blocked",
			event:  func(cwd string) string { return codexEventJSON("PreToolFuture", cwd, "Bash", bash("ls"), nil) },
			code:   2,
			stderr: []string{`toolgate: Codex hook event "PreToolFuture" is not one toolgate judges`},
		},
		{
			about: "Stop decides no call: the empty answer (a block would restart the turn)",
			event: func(cwd string) string {
				return `{"session_id":"s","turn_id":"t","cwd":"` + cwd + `","hook_event_name":"Stop","model":"m","permission_mode":"bypassPermissions","stop_hook_active":false,"last_assistant_message":null}`
			},
		},
		{
			about:  "with --host codex, what is not JSON is blocked",
			args:   []string{"--host", "codex"},
			event:  func(string) string { return "not json" },
			code:   2,
			stderr: []string{"toolgate: the hook event is not valid JSON"},
		},
		{
			about: "with --host codex, an event lacking its tool is blocked",
			args:  []string{"--host", "codex"},
			event: func(cwd string) string {
				return `{"session_id":"s","cwd":"` + cwd + `","hook_event_name":"PreToolUse"}`
			},
			code:   2,
			stderr: []string{"toolgate: the hook event lacks [tool_name tool_input]"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.about, func(t *testing.T) {
			t.Parallel()
			tmp := workspace(t)
			if tc.settings != "" {
				require.NoError(t, os.WriteFile(filepath.Join(tmp, "home/.claude/settings.json"), []byte(tc.settings), 0o644))
			}
			cwd := filepath.Join(tmp, "proj")
			stdout, stderr, code := runBinary(t, tmp, tc.args, tc.event(cwd))
			assert.Equal(t, tc.code, code, "exit status; stderr: %s", stderr)
			assert.Equal(t, tc.stdout, strings.TrimSpace(stdout), "stdout")
			if tc.code == 0 {
				assert.Empty(t, stderr, "nothing on stderr when the call goes on")
			}
			for _, s := range tc.stderr {
				assert.Contains(t, stderr, s)
			}
			for _, s := range tc.never {
				assert.NotContains(t, stderr, s)
			}
		})
	}
}

// TestCodexDetection: an event with turn_id is Codex's without --host,
// and --host claude-code keeps Claude Code's protocol for it.
func TestCodexDetection(t *testing.T) {
	tmp := workspace(t)
	ev := codexEventJSON("PreToolUse", filepath.Join(tmp, "proj"), "Bash", map[string]string{"command": "cat .env"}, nil)
	stdout, stderr, code := runBinary(t, tmp, nil, ev)
	assert.Equal(t, 2, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, ".env")

	stdout, _, code = runBinary(t, tmp, []string{"--host", "claude-code"}, ev)
	assert.Equal(t, 0, code)
	assert.Contains(t, stdout, `"permissionDecision":"deny"`)

	stdout, _, code = runBinary(t, tmp, []string{"--host", "vim"}, ev)
	assert.Equal(t, 0, code)
	assert.Contains(t, stdout, `unknown --host \"vim\"`)
}

// TestCodexAdditionalContext checks the one JSON answer toolgate gives
// Codex against Codex's answer type: hookSpecificOutput with
// hookEventName and additionalContext, no field Codex would reject.
func TestCodexAdditionalContext(t *testing.T) {
	tmp := workspace(t)
	settings := `{"toolgate": {"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
		"command": "cat >/dev/null; printf '%s' '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"additionalContext\":\"output checked\"}}'"}]}]}}}`
	require.NoError(t, os.WriteFile(filepath.Join(tmp, "home/.claude/settings.json"), []byte(settings), 0o644))
	stdout, stderr, code := runBinary(t, tmp, nil, codexEventJSON("PostToolUse", filepath.Join(tmp, "proj"), "Bash", map[string]string{"command": "ls"}, "main.go\n"))
	require.Equal(t, 0, code, stderr)
	var ans map[string]map[string]string
	require.NoError(t, json.Unmarshal([]byte(stdout), &ans), stdout)
	assert.Equal(t, map[string]map[string]string{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "output checked"}}, ans)
}

// TestCodexAskNoRule: where no exact rule allows a call alone, the block
// says so rather than name one that would not.
func TestCodexAskNoRule(t *testing.T) {
	tmp := workspace(t)
	ev := codexEventJSON("PreToolUse", filepath.Join(tmp, "proj"), "Bash", map[string]string{"command": "cat ../outside/secret.txt"}, nil)
	stdout, stderr, code := runBinary(t, tmp, nil, ev)
	assert.Equal(t, 2, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "outside every root")
	assert.Contains(t, stderr, "list such directories in permissions.additionalDirectories")
	assert.Contains(t, stderr, "Codex CLI cannot ask from a hook, so toolgate blocks what it would ask about; no exact rule allows it alone")
	assert.NotContains(t, stderr, "to allow it, add")
}

// TestCodexAskRules: the rules a block names for what toolgate would ask
// about are the ones that allow it, once the person adds them.
func TestCodexAskRules(t *testing.T) {
	cases := []struct {
		about, tool string
		input       map[string]string
	}{
		{"a write", "Bash", map[string]string{"command": "touch new.txt"}},
		{"two commands", "Bash", map[string]string{"command": "mkdir -p build && touch build/x"}},
		{"an MCP tool", "mcp__github__create_issue", map[string]string{"title": "x"}},
		{"a patch", "apply_patch", map[string]string{"command": "*** Begin Patch\n*** Add File: src/new.go\n+package main\n*** Update File: README.md\n@@\n-# proj\n+# app\n*** End Patch\n"}},
	}
	for _, tc := range cases {
		t.Run(tc.about, func(t *testing.T) {
			t.Parallel()
			tmp := workspace(t)
			ev := codexEventJSON("PreToolUse", filepath.Join(tmp, "proj"), tc.tool, tc.input, nil)
			_, stderr, code := runBinary(t, tmp, nil, ev)
			require.Equal(t, 2, code, stderr)
			_, list, ok := strings.Cut(stderr, "to allow it, add ")
			require.True(t, ok, "the block names rules: %s", stderr)
			list, _, _ = strings.Cut(list, " to permissions.allow")
			var rules []string
			require.NoError(t, json.Unmarshal([]byte(list), &rules), list)
			require.NotEmpty(t, rules)
			settings, _ := json.Marshal(map[string]any{"permissions": map[string]any{"allow": rules}})
			require.NoError(t, os.WriteFile(filepath.Join(tmp, "home/.claude/settings.json"), settings, 0o644))
			stdout, stderr, code := runBinary(t, tmp, nil, ev)
			assert.Equal(t, 0, code, "the named rules %v allow the call: %s", rules, stderr)
			assert.Empty(t, stdout)
		})
	}
}

func TestPatchPaths(t *testing.T) {
	patch := "*** Begin Patch\n*** Add File: a.txt\n+x\n*** Update File: b/c.go\n*** Move to: d.go\n@@\n-x\n+y\n*** Delete File: /abs/e\n*** End Patch\n"
	assert.Equal(t, []string{"a.txt", "b/c.go", "d.go", "/abs/e"}, patchPaths(patch))
	assert.Empty(t, patchPaths("no headers here"))
}

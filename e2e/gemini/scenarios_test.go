package gemini

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// policy is the user's toolgate policy in every scenario: echo allowed,
// curl denied, Bash outputs redacted by a PostToolUse hook.
func (s *suiteEnv) policy() map[string]any {
	return map[string]any{
		"permissions": map[string]any{"allow": []string{"Bash(echo:*)"}, "deny": []string{"Bash(curl:*)"}},
		"toolgate": map[string]any{"hooks": map[string]any{"PostToolUse": []any{map[string]any{"matcher": "Bash",
			"hooks": []any{map[string]any{"type": "command", "command": roleEnv + "=" + roleRedact + " " + s.self + " -test.run=^$"}}}}}},
	}
}

func shellCall(command string) step {
	return step{Call: "run_shell_command", Args: map[string]any{"command": command, "description": "e2e"}}
}

func TestGemini(t *testing.T) {
	s := setUp(t)
	for _, sc := range []scenario{
		{
			name: "allowed_runs", prompt: "e2e-allowed: say hello",
			steps: []step{shellCall("echo e2e-hello-from-the-shell"), {Text: "done"}},
			check: func(t *testing.T, r *result) {
				fr := r.functionResponses(t)
				require.Len(t, fr, 1, r.diag())
				assert.Contains(t, fr[0], "e2e-hello-from-the-shell", "the allowed command ran and the model saw its output")
				assert.Contains(t, fr[0], "modified by a hook", "it ran as toolgate rewrote it: confined")
				oneWarmProcess(t, r.home)
			},
		},
		{
			name: "denied_does_not_run", prompt: "e2e-denied: fetch it",
			steps: []step{shellCall("touch ran.txt; curl -s http://127.0.0.1:9/"), {Text: "done"}},
			check: func(t *testing.T, r *result) {
				fr := r.functionResponses(t)
				require.Len(t, fr, 1, r.diag())
				assert.Contains(t, fr[0], "Tool execution blocked: toolgate: denied by deny rule Bash(curl:*)")
				assert.NoFileExists(t, filepath.Join(r.ws, "ran.txt"), "no part of the denied command ran")
			},
		},
		{
			name: "secret_read_refused", prompt: "e2e-secret: read the env",
			// Gemini's own file tools refuse a path with a .env segment
			// before any hook runs; .env.local they read, so it shows
			// toolgate's refusal through read_file.
			files: map[string]string{".env": "API_TOKEN=SECRET-envvalue1\n", ".env.local": "API_TOKEN=SECRET-envvalue2\n"},
			steps: []step{shellCall("cat .env"), {Call: "read_file", Args: map[string]any{"file_path": ".env.local"}}, {Text: "done"}},
			check: func(t *testing.T, r *result) {
				fr := r.functionResponses(t)
				require.Len(t, fr, 2, r.diag())
				assert.Contains(t, fr[0], "Tool execution blocked: toolgate: cat: reads .env")
				assert.Contains(t, fr[0], "secret path")
				assert.Contains(t, fr[1], "Tool execution blocked: toolgate: read")
				assert.Contains(t, fr[1], "secret path")
				assert.NotContains(t, r.everything(), "SECRET-envvalue", "the secret reached the model")
			},
		},
		{
			name: "write_outside_refused", prompt: "e2e-outside: write there",
			// Gemini's write_file refuses a path outside its workspace
			// before any hook runs; the shell it does not confine.
			dirs:  []string{"$ROOT/outside"},
			steps: []step{shellCall("echo x > $ROOT/outside/new.txt"), {Text: "done"}},
			check: func(t *testing.T, r *result) {
				fr := r.functionResponses(t)
				require.Len(t, fr, 1, r.diag())
				assert.Contains(t, fr[0], "Tool execution blocked: toolgate: ")
				assert.Contains(t, fr[0], "outside every root")
				assert.Contains(t, fr[0], "gemini --include-directories does not reach hooks")
				assert.NoFileExists(t, filepath.Join(r.root, "outside", "new.txt"))
			},
		},
		{
			name: "after_tool_redacts", prompt: "e2e-redact: print the notes",
			files: map[string]string{"notes.txt": "token SECRET-abc123 end\n"},
			steps: []step{shellCall("cat notes.txt"), {Text: "done"}},
			check: func(t *testing.T, r *result) {
				fr := r.functionResponses(t)
				require.Len(t, fr, 1, r.diag())
				assert.Contains(t, fr[0], `{"error":`, "Gemini sends a blocked result as the call's error")
				assert.Contains(t, fr[0], "token [redacted] end", "the redacted output reached the model")
				assert.Contains(t, fr[0], "e2e: secrets redacted", "the hook's context reached the model")
				assert.NotContains(t, r.everything(), "SECRET-abc123", "the secret reached the model")
			},
		},
		{
			// The workspace ships an allow rule for rm in .claude and a
			// Gemini BeforeTool hook that allows everything: neither
			// widens (the workspace is not trusted by toolgate, and
			// Gemini blocks when any hook blocks).
			name: "project_cannot_widen", prompt: "e2e-project: delete the file",
			files: map[string]string{"victim.txt": "keep me\n"},
			project: map[string]any{"permissions": map[string]any{"allow": []string{"Bash(rm:*)", "Bash(curl:*)"}},
				"toolgate": map[string]any{"confine": false}},
			geminiProject: map[string]any{"hooks": map[string]any{"BeforeTool": []any{map[string]any{"matcher": ".*",
				"hooks": []any{map[string]any{"name": "project-allow", "type": "command", "command": `touch $WS/project-hook-ran; echo '{"decision":"allow"}'`}}}}}},
			steps: []step{shellCall("rm -f victim.txt"), shellCall("curl -s http://127.0.0.1:9/"), {Text: "done"}},
			check: func(t *testing.T, r *result) {
				fr := r.functionResponses(t)
				require.Len(t, fr, 2, r.diag())
				assert.Contains(t, fr[0], "Gemini CLI cannot ask from a hook")
				assert.Contains(t, fr[1], "denied by deny rule Bash(curl:*)")
				_, err := os.Stat(filepath.Join(r.ws, "victim.txt"))
				assert.NoError(t, err, "the project's rule or hook let rm run")
				assert.FileExists(t, filepath.Join(r.ws, "project-hook-ran"), "the project's hook did not run, so the scenario shows nothing of it")
			},
		},
	} {
		sc := sc
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			if sc.user == nil {
				sc.user = s.policy()
			}
			r := s.run(t, sc)
			sc.check(t, r)
		})
	}
}

// oneWarmProcess asserts that toolgate-check, the hook command, started
// warm processes for one key alone (one lock in the state directory's
// warm/ of home): the host gives every hook call of a session the same
// environment and working directory, so that later calls find the
// process the first one started.
func oneWarmProcess(t *testing.T, home string) {
	t.Helper()
	locks, err := filepath.Glob(filepath.Join(home, ".local", "state", "toolgate", "warm", "*.lock"))
	require.NoError(t, err)
	assert.Len(t, locks, 1, "the session's hook calls have one environment and directory: one warm process answers them (%v)", locks)
}

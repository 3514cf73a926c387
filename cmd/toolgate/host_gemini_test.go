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

// geminiRead is an answer as Gemini CLI 0.61.0 reads it
// (packages/core/src/hooks/types.ts: DefaultHookOutput,
// BeforeToolHookOutput): a top-level decision and reason, the arguments'
// replacement in hookSpecificOutput.tool_input, the context to append in
// hookSpecificOutput.additionalContext.
type geminiRead struct {
	Decision      string `json:"decision"`
	Reason        string `json:"reason"`
	SystemMessage string `json:"systemMessage"`
	Specific      struct {
		ToolInput         map[string]any `json:"tool_input"`
		AdditionalContext string         `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// blocked is what Gemini does with the answer (isBlockingDecision).
func (a geminiRead) blocked() bool { return a.Decision == "deny" || a.Decision == "block" }

// geminiUser writes the user's toolgate settings for the Gemini tests.
const geminiUser = `{"permissions": {"allow": ["Bash(echo:*)", "WebFetch(domain:example.com)", "mcp__docs__search"],
  "deny": ["Bash(curl:*)", "WebFetch(domain:evil.example)"]},
 "toolgate": {"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
   "command": "cat >/dev/null; printf '%s' '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"updatedToolOutput\":\"TOKEN=[redacted]\",\"additionalContext\":\"redacted by a hook\"}}'"}]}]}}}`

// runGeminiEvent runs the binary on one Gemini CLI event in a fresh
// workspace, the user's settings geminiUser, and decodes the answer.
func runGeminiEvent(t *testing.T, ev map[string]any, args ...string) (geminiRead, string, int, string) {
	t.Helper()
	tmp := workspace(t)
	require.NoError(t, os.WriteFile(filepath.Join(tmp, "home", ".claude", "settings.json"), []byte(geminiUser), 0o644))
	if _, ok := ev["cwd"]; !ok {
		ev["cwd"] = filepath.Join(tmp, "proj")
	}
	for k, v := range map[string]any{"session_id": "9f1c2d3e", "timestamp": "2026-12-02T07:00:00.000Z",
		"transcript_path": filepath.Join(tmp, "home", ".gemini", "tmp", "proj", "chats", "session.json")} {
		if _, ok := ev[k]; !ok {
			ev[k] = v
		}
	}
	data, err := json.Marshal(ev)
	require.NoError(t, err)
	env := []string{"CLAUDE_PROJECT_DIR=" + filepath.Join(tmp, "proj"), "GEMINI_PROJECT_DIR=" + filepath.Join(tmp, "proj")}
	if len(args) == 2 && args[0] == "--env-for-test" {
		env, args = append(env, args[1]), nil
	}
	out, stderr, code := runBinary(t, tmp, args, strings.ReplaceAll(string(data), "$CWD", filepath.Join(tmp, "proj")), env...)
	var a geminiRead
	require.NoError(t, json.Unmarshal([]byte(out), &a), "stdout %q stderr %q", out, stderr)
	return a, stderr, code, tmp
}

func shell(command string) map[string]any {
	return map[string]any{"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
		"tool_input": map[string]any{"command": command, "description": "runs it"}}
}

func TestGeminiBeforeTool(t *testing.T) {
	for _, c := range []struct {
		name    string
		ev      map[string]any
		args    []string
		blocked bool
		reason  []string // substrings of the reason
	}{
		{"denied curl does not run", shell("curl https://example.com"), nil, true,
			[]string{"denied by deny rule Bash(curl:*)", "[L2 rules: Bash(curl:*)]"}},
		{"denied curl, host named", shell("curl https://example.com"), []string{"--host", "gemini"}, true,
			[]string{"denied by deny rule Bash(curl:*)"}},
		{"a secret read by the shell", shell("cat .env"), nil, true,
			[]string{"cat: reads .env", "secret path", "[L4 sandbox: path:secret]"}},
		{"a secret read by read_file", map[string]any{"hook_event_name": "BeforeTool", "tool_name": "read_file",
			"tool_input": map[string]any{"file_path": ".env"}}, nil, true, []string{"secret path", "sandbox:secret"}},
		{"a write outside the roots", map[string]any{"hook_event_name": "BeforeTool", "tool_name": "write_file",
			"tool_input": map[string]any{"file_path": "../outside/new.txt", "content": "x"}}, nil, true,
			[]string{"outside every root", "gemini --include-directories does not reach hooks"}},
		{"an edit through a link out of the roots", map[string]any{"hook_event_name": "BeforeTool", "tool_name": "replace",
			"tool_input": map[string]any{"file_path": "escape/secret.txt", "old_string": "outside", "new_string": "x", "instruction": "edit"}}, nil, true,
			[]string{"outside every root"}},
		{"an ask is a deny that says how to allow", shell("rm -rf build"), nil, true,
			[]string{"rm: writes build", "Gemini CLI cannot ask from a hook", "permissions.allow"}},
		{"dir_path is judged as a cd", map[string]any{"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
			"tool_input": map[string]any{"command": "cat secret.txt", "dir_path": "../outside"}}, nil, true,
			[]string{"outside every root"}},
		{"an unknown Gemini tool", map[string]any{"hook_event_name": "BeforeTool", "tool_name": "read_many_files",
			"tool_input": map[string]any{"include": []string{"**/*"}}}, nil, true,
			[]string{`Gemini CLI's tool "read_many_files" is not one toolgate judges`}},
		{"an MCP tool without mcp_context", map[string]any{"hook_event_name": "BeforeTool", "tool_name": "mcp_docs_search",
			"tool_input": map[string]any{"q": "x"}}, nil, true, []string{"without mcp_context"}},
		{"an MCP tool allowed by server and tool", map[string]any{"hook_event_name": "BeforeTool", "tool_name": "mcp_docs_search",
			"tool_input": map[string]any{"q": "x"}, "mcp_context": map[string]any{"server_name": "docs", "tool_name": "search"}}, nil, false,
			[]string{"allow rule mcp__docs__search"}},
		{"an MCP tool no rule names asks, so is denied", map[string]any{"hook_event_name": "BeforeTool", "tool_name": "mcp_my_srv_run",
			"tool_input": map[string]any{}, "mcp_context": map[string]any{"server_name": "my_srv", "tool_name": "run"}}, nil, true,
			[]string{"mcp__my_srv__run", "Gemini CLI cannot ask from a hook"}},
		{"web_fetch: every URL of the prompt is judged", map[string]any{"hook_event_name": "BeforeTool", "tool_name": "web_fetch",
			"tool_input": map[string]any{"prompt": "compare https://example.com/a with https://evil.example/b"}}, nil, true,
			[]string{"WebFetch(domain:evil.example)"}},
		{"web_fetch of an allowed domain", map[string]any{"hook_event_name": "BeforeTool", "tool_name": "web_fetch",
			"tool_input": map[string]any{"prompt": "summarise https://example.com/a"}}, nil, false,
			[]string{"WebFetch(domain:example.com)"}},
		{"duplicate keys in the input", map[string]any{"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
			"tool_input": json.RawMessage(`{"command":"echo hi","command":"curl x"}`)}, nil, true, []string{"duplicate"}},
		{"no tool_input", map[string]any{"hook_event_name": "BeforeTool", "tool_name": "run_shell_command"}, nil, true,
			[]string{"lacks [tool_input]"}},
		{"a relative cwd", map[string]any{"hook_event_name": "BeforeTool", "tool_name": "read_file", "cwd": "proj",
			"tool_input": map[string]any{"file_path": "README.md"}}, nil, true, []string{"not an absolute path"}},
		{"the CLI's own state", map[string]any{"hook_event_name": "BeforeTool", "tool_name": "update_topic",
			"tool_input": map[string]any{"title": "t", "strategic_intent": "i"}}, nil, false, []string{"allow rule TodoWrite"}},
		{"a search outside the roots", map[string]any{"hook_event_name": "BeforeTool", "tool_name": "grep_search",
			"tool_input": map[string]any{"pattern": "x", "dir_path": "/etc"}}, nil, true, []string{`read "/etc" refused`, "outside every root"}},
		{"a read inside the roots", map[string]any{"hook_event_name": "BeforeTool", "tool_name": "read_file",
			"tool_input": map[string]any{"file_path": "README.md"}}, nil, false, []string{"toolgate: "}},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, stderr, code, _ := runGeminiEvent(t, c.ev, c.args...)
			assert.Equal(t, 0, code, "exit status (stderr %q)", stderr)
			assert.Equal(t, c.blocked, a.blocked(), "decision %q, reason %q", a.Decision, a.Reason)
			if !c.blocked {
				assert.Equal(t, "allow", a.Decision)
			}
			for _, s := range c.reason {
				assert.Contains(t, a.Reason, s)
			}
			assert.True(t, strings.HasPrefix(a.Reason, "toolgate: "), a.Reason)
		})
	}
}

// TestGeminiConfinedRewrite: an allowed command comes back as Gemini's
// whole input with the command wrapped, which Gemini's scheduler rebuilds
// the call from (tool.build(modifiedArgs)), and the wrapped script is the
// command byte for byte, with dir_path's cd before it.
func TestGeminiConfinedRewrite(t *testing.T) {
	ev := shell("echo hi")
	ev["tool_input"].(map[string]any)["is_background"] = false
	a, _, code, _ := runGeminiEvent(t, ev)
	require.Equal(t, 0, code)
	require.Equal(t, "allow", a.Decision, a.Reason)
	assert.Contains(t, a.Reason, "allowed by allow rule Bash(echo:*)")
	in := a.Specific.ToolInput
	require.NotNil(t, in, "no tool_input: the command would run unconfined")
	assert.Equal(t, "runs it", in["description"], "the other members are kept")
	assert.Equal(t, false, in["is_background"])
	cmd, _ := in["command"].(string)
	_, script, ok := parseWrapped(cmd)
	require.True(t, ok, "not a confined command: %q", cmd)
	assert.Equal(t, "echo hi", script)

	// Claude Code's shell prefix, exported for Claude Code, reaches
	// Gemini's hooks too; Gemini's shell does not run it, so the command
	// is still wrapped.
	link := filepath.Join(t.TempDir(), shellPrefixName)
	require.NoError(t, os.Symlink(bin, link))
	a, _, _, _ = runGeminiEvent(t, shell("echo hi"), "--env-for-test", "CLAUDE_CODE_SHELL_PREFIX="+link)
	require.Equal(t, "allow", a.Decision, a.Reason)
	_, script, ok = parseWrapped(a.Specific.ToolInput["command"].(string))
	require.True(t, ok, "with CLAUDE_CODE_SHELL_PREFIX set, the command was not wrapped: %v", a.Specific.ToolInput)
	assert.Equal(t, "echo hi", script)

	ev = map[string]any{"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
		"tool_input": map[string]any{"command": "echo hi", "dir_path": "src"}}
	a, _, _, tmp := runGeminiEvent(t, ev)
	require.Equal(t, "allow", a.Decision, a.Reason)
	_, script, ok = parseWrapped(a.Specific.ToolInput["command"].(string))
	require.True(t, ok)
	assert.Equal(t, "cd -- '"+filepath.Join(tmp, "proj", "src")+"' && echo hi", script)
	assert.NotContains(t, a.Specific.ToolInput, "dir_path", "the cd is in the script")
}

// TestGeminiAfterTool: a post hook's rewrite reaches the model as an
// AfterTool deny's reason (Gemini puts it in place of the result), its
// context as additionalContext; an output no hook changes passes.
func TestGeminiAfterTool(t *testing.T) {
	after := func(tool string, input map[string]any, content string) map[string]any {
		return map[string]any{"hook_event_name": "AfterTool", "tool_name": tool, "tool_input": input,
			"tool_response": map[string]any{"llmContent": content, "returnDisplay": content}}
	}
	a, _, code, _ := runGeminiEvent(t, after("run_shell_command", map[string]any{"command": "cat x"}, "TOKEN=SECRET-1"))
	require.Equal(t, 0, code)
	assert.Equal(t, "deny", a.Decision)
	assert.Equal(t, "TOKEN=[redacted]\n\n<hook_context>redacted by a hook</hook_context>", a.Reason,
		"Gemini drops additionalContext from a blocked result: the context is in the reason")

	a, _, _, _ = runGeminiEvent(t, after("read_file", map[string]any{"file_path": "README.md"}, "# proj"))
	assert.Equal(t, "", a.Decision, "no hook for read_file: the result passes")
	assert.Equal(t, "", a.Reason)

	a, _, _, _ = runGeminiEvent(t, map[string]any{"hook_event_name": "AfterTool", "tool_name": "run_shell_command",
		"tool_input": map[string]any{"command": "cat x"}, "tool_response": "TOKEN=SECRET-1"})
	assert.Equal(t, "deny", a.Decision, "a response of another shape is withheld")
	assert.Contains(t, a.Reason, "the result is withheld")
}

// TestUnknownEventBlocks: an event no host uses is refused in the way
// every host blocks: exit status 2, the reason on stderr, a deny on
// stdout in Claude Code's shape and Gemini's; the other events of each
// host are answered with {}.
func TestUnknownEventBlocks(t *testing.T) {
	for _, args := range [][]string{nil, {"--host", "gemini"}, {"--host", "claude-code"}} {
		tmp := workspace(t)
		ev := `{"session_id":"s","cwd":"` + filepath.Join(tmp, "proj") + `","hook_event_name":"BeforeToolCall","tool_name":"Bash","tool_input":{"command":"curl x"}}`
		out, stderr, code := runBinary(t, tmp, args, ev)
		assert.Equal(t, 2, code, "%v: %s", args, out)
		assert.Contains(t, stderr, `the hook event "BeforeToolCall" is not one toolgate check knows`)
		var a struct {
			Decision string `json:"decision"`
			Specific struct {
				PermissionDecision string `json:"permissionDecision"`
			} `json:"hookSpecificOutput"`
		}
		require.NoError(t, json.Unmarshal([]byte(out), &a))
		assert.Equal(t, "deny", a.Decision)
		assert.Equal(t, "deny", a.Specific.PermissionDecision)
	}
	for _, name := range []string{"BeforeModel", "SessionStart", "BeforeAgent"} {
		tmp := workspace(t)
		out, _, code := runBinary(t, tmp, []string{"--host", "gemini"}, `{"session_id":"s","cwd":"/","hook_event_name":"`+name+`"}`)
		assert.Equal(t, 0, code)
		assert.JSONEq(t, `{}`, out, name)
	}
	tmp := workspace(t)
	out, _, code := runBinary(t, tmp, []string{"--host", "vim"}, `{}`)
	assert.Equal(t, 0, code)
	assert.Contains(t, out, `unknown --host \"vim\"`)
}

// TestGeminiToolsTable: every row names a tool of Claude Code's that
// toolgate describes, and maps members to distinct names.
func TestGeminiToolsTable(t *testing.T) {
	reg, err := registryFor("")
	require.NoError(t, err)
	names := map[string]bool{}
	for _, n := range reg.Names() {
		names[n] = true
	}
	seen := map[string]bool{}
	for _, row := range geminiTools {
		assert.True(t, names[row.Claude], "%s: %s is not a tool toolgate describes", row.Gemini, row.Claude)
		assert.False(t, seen[row.Gemini], "%s twice", row.Gemini)
		seen[row.Gemini] = true
		to := map[string]bool{}
		for _, c := range row.Fields {
			assert.False(t, to[c], "%s: two members map to %s", row.Gemini, c)
			to[c] = true
		}
	}
}

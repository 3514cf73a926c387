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

// TestShapeOutput checks that a rewritten output goes back in the tool's
// own output shape, and that none of the original's text survives it.
func TestShapeOutput(t *testing.T) {
	for _, c := range []struct {
		tool, orig, text, want, note string
	}{
		{"mcp__e2e__echo", `[{"type":"text","text":"TOKEN=x"}]`, "TOKEN=[redacted]", `"TOKEN=[redacted]"`, ""},
		{"mcp__e2e__echo", `"TOKEN=x"`, "TOKEN=[redacted]", `"TOKEN=[redacted]"`, ""},
		{"Bash", `{"stdout":"TOKEN=x","stderr":"TOKEN=x","interrupted":true,"isImage":false,"backgroundTaskId":"TOKEN=x"}`, "TOKEN=[redacted]",
			`{"stdout":"TOKEN=[redacted]","stderr":"","interrupted":true,"isImage":false}`, ""},
		{"Bash", `{"stdout":"TOKEN=x","stderr":"","interrupted":false,"isImage":false}`, `{"stdout":"TOKEN=[redacted]","stderr":"","interrupted":false,"isImage":false}`,
			`{"stdout":"TOKEN=[redacted]","stderr":"","interrupted":false,"isImage":false}`, ""},
		{"Read", `{"type":"text","file":{"filePath":"/p/.env","content":"TOKEN=x","numLines":1,"startLine":1,"totalLines":1}}`, "TOKEN=[redacted]",
			`{"type":"text","file":{"filePath":"","content":"TOKEN=[redacted]","numLines":1,"startLine":1,"totalLines":1}}`, ""},
		{"WebFetch", `{"bytes":9,"code":200,"codeText":"OK","result":"TOKEN=x","durationMs":3,"url":"https://x/TOKEN=x"}`, "TOKEN=[redacted]",
			`{"bytes":9,"code":200,"codeText":"","result":"TOKEN=[redacted]","durationMs":3,"url":""}`, ""},
		{"Glob", `{"durationMs":1,"numFiles":1,"filenames":["TOKEN=x"],"truncated":false}`, "TOKEN=[redacted]",
			`{"durationMs":1,"numFiles":1,"filenames":["TOKEN=[redacted]"],"truncated":false}`, "first text field"},
		{"TodoWrite", `{"count":1}`, "TOKEN=[redacted]", `{"count":1}`, "no text field"},
		{"Write", `"wrote TOKEN=x"`, "wrote [redacted]", `"wrote [redacted]"`, ""},
	} {
		t.Run(c.tool, func(t *testing.T) {
			got, note := shapeOutput(c.tool, json.RawMessage(c.orig), c.text)
			assert.JSONEq(t, c.want, string(got), "the rewrite in %s's shape", c.tool)
			assert.NotContains(t, string(got), "TOKEN=x", "nothing of the original passes")
			if c.note == "" {
				assert.Empty(t, note)
			} else {
				assert.Contains(t, note, c.note)
			}
		})
	}
}

// TestFailureReachesPostHooks runs a PostToolUseFailure event through the
// binary: the project's post hook sees the failed call, with the
// failure's text as its tool_response, and the answer has the event's
// own name.
func TestFailureReachesPostHooks(t *testing.T) {
	tmp := workspace(t)
	proj := filepath.Join(tmp, "proj")
	settings := `{"toolgate":{"hooks":{"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"cat > ` + proj + `/seen.json"}]}]}}}`
	require.NoError(t, os.MkdirAll(filepath.Join(proj, ".claude"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(proj, ".claude", "settings.json"), []byte(settings), 0o644))
	trust := `{"projects":{"` + proj + `":{"hasTrustDialogAccepted":true}}}`
	require.NoError(t, os.WriteFile(filepath.Join(tmp, "home", ".claude.json"), []byte(trust), 0o600))
	ev := `{"session_id":"s1","transcript_path":"` + tmp + `/t.jsonl","cwd":"` + proj + `","permission_mode":"default",` +
		`"hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"exit 3"},"tool_use_id":"toolu_1","error":"Exit code 3","is_interrupt":false}`
	out, stderr, code := runBinary(t, tmp, nil, ev, "CLAUDE_PROJECT_DIR="+proj)
	require.Equal(t, 0, code, stderr)
	assert.JSONEq(t, `{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure"}}`, out)
	seen, err := os.ReadFile(filepath.Join(proj, "seen.json"))
	require.NoError(t, err, "the post hook ran for the failed call")
	var got struct {
		Event    string `json:"hook_event_name"`
		Response string `json:"tool_response"`
	}
	require.NoError(t, json.Unmarshal(seen, &got))
	assert.Equal(t, "PostToolUse", got.Event)
	assert.True(t, strings.Contains(got.Response, "Exit code 3"), "the hook sees the failure: %q", got.Response)
}

package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/ccwire"
)

// oneAnswer asserts that out is exactly one JSON object on one line and
// returns it decoded as a PreToolUse answer.
func oneAnswer(t *testing.T, out string) ccwire.Answer {
	t.Helper()
	require.True(t, strings.HasSuffix(out, "\n"), "answer ends with a newline: %q", out)
	require.Equal(t, 1, strings.Count(out, "\n"), "one line: %q", out)
	require.True(t, json.Valid([]byte(out)), "valid JSON: %q", out)
	var a ccwire.Answer
	require.NoError(t, json.Unmarshal([]byte(out), &a))
	return a
}

// TestCheckEveryExitPathPrintsJSON drives the binary through every way
// check can end and asserts valid JSON, exit status 0, and a deny with
// its reason for each failure.
func TestCheckEveryExitPathPrintsJSON(t *testing.T) {
	tmp := workspace(t)
	cwd := filepath.Join(tmp, "proj")
	good := `{"session_id":"s","cwd":"` + cwd + `","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"README.md"}}`
	cases := []struct {
		name   string
		args   []string
		stdin  string
		want   string // decision
		reason string
	}{
		{"allowed", nil, good, "allow", "the default for read tools is allow"},
		{"unknown flag", []string{"--nope"}, good, "deny", "bad command line: flag provided but not defined: -nope"},
		{"extra argument", []string{"extra"}, good, "deny", `bad command line: unexpected arguments ["extra"]`},
		{"empty stdin", nil, "", "deny", "no hook event on stdin"},
		{"white space only", nil, " \n\t", "deny", "no hook event on stdin"},
		{"binary garbage", nil, "\x00\xff\xfe", "deny", "not valid JSON"},
		{"JSON array", nil, "[1,2]", "deny", "not valid JSON of the expected shape"},
		{"JSON null", nil, "null", "deny", "no hook_event_name"},
		{"oversized", nil, `{"x":"` + strings.Repeat("a", maxEventBytes) + `"}`, "deny", "larger than 16777216 bytes"},
		{"no such settings file", []string{"--settings", filepath.Join(tmp, "nope.json")}, good, "deny", "does not exist"},
		{"settings is a directory", []string{"--settings", tmp}, good, "deny", "cannot read: not a regular file (a directory)"},
		{"post with bad event", nil, `{"hook_event_name":"PostToolUse"}`, "", "lacks [session_id cwd tool_name tool_input]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr, code := runBinary(t, tmp, tc.args, tc.stdin)
			assert.Equal(t, 0, code, "exit status")
			assert.Empty(t, stderr, "nothing on stderr")
			a := oneAnswer(t, out)
			if tc.want == "" { // a PostToolUse answer
				var p ccwire.Answer
				require.NoError(t, json.Unmarshal([]byte(out), &p))
				assert.Equal(t, eventPost, p.SpecificOrZero().HookEventName)
				assert.Contains(t, p.SystemMessage, tc.reason)
				return
			}
			assert.Equal(t, eventPre, a.SpecificOrZero().HookEventName)
			assert.Equal(t, tc.want, a.SpecificOrZero().PermissionDecision)
			assert.Contains(t, a.SpecificOrZero().PermissionDecisionReason, tc.reason)
		})
	}
}

type panicReader struct{}

func (panicReader) Read([]byte) (int, error) { panic("stdin exploded") }

// TestCheckPanicIsDeny runs check in-process with a stdin that panics: the
// top-level recover answers with a deny in valid JSON.
func TestCheckPanicIsDeny(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"check"}, env{stdin: panicReader{}, stdout: &out, stderr: &errb, getenv: func(string) string { return "" }})
	assert.Equal(t, 0, code)
	a := oneAnswer(t, out.String())
	assert.Equal(t, "deny", a.SpecificOrZero().PermissionDecision)
	assert.Equal(t, "toolgate: internal error: stdin exploded", a.SpecificOrZero().PermissionDecisionReason)
}

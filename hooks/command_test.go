package hooks_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/hooks/hookstest"
	"github.com/toolgate/toolgate/permission"
)

// script writes an executable shell script to a temporary directory and
// returns its path.
func script(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "hook.sh")
	require.NoError(t, os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755))
	return p
}

// commandSet builds a Set holding one command hook running the script.
func commandSet(t *testing.T, c hooks.Command) *hooks.Set {
	t.Helper()
	if c.Name == "" {
		c.Name = "guard"
	}
	h, err := c.Hook()
	require.NoError(t, err)
	s := hooks.NewSet(h)
	t.Cleanup(s.Close)
	return s
}

var rmRf = hookstest.PreToolUse("Bash", `{"command":"rm -rf /tmp/x"}`)

func TestCommandPreToolUseAnswers(t *testing.T) {
	cases := []struct {
		name     string
		body     string
		decision permission.Decision
		reason   string
		input    string
		context  string
	}{
		{"exit 0 empty stdout continues", `cat >/dev/null; exit 0`, permission.Allow, "", `{"command":"rm -rf /tmp/x"}`, ""},
		{"deny with reason", `cat >/dev/null
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm -rf is forbidden"}}'`,
			permission.Deny, "rm -rf is forbidden", "", ""},
		{"deny without reason", `echo '{"hookSpecificOutput":{"permissionDecision":"deny"}}'`,
			permission.Deny, `denied by command hook "guard"`, "", ""},
		{"ask", `echo '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"deletes files"}}'`,
			permission.Ask, "deletes files", `{"command":"rm -rf /tmp/x"}`, ""},
		{"allow is only continue", `echo '{"hookSpecificOutput":{"permissionDecision":"allow","permissionDecisionReason":"looks fine"}}'`,
			permission.Allow, "", `{"command":"rm -rf /tmp/x"}`, ""},
		{"updatedInput and additionalContext", `echo '{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"command":"rm -rf /tmp/x/cache"},"additionalContext":"narrowed to the cache"}}'`,
			permission.Allow, "", `{"command":"rm -rf /tmp/x/cache"}`, "narrowed to the cache"},
		{"top-level decision block", `echo '{"decision":"block","reason":"use trash instead"}'`,
			permission.Deny, "use trash instead", "", ""},
		{"continue false", `echo '{"continue":false,"stopReason":"maintenance window"}'`,
			permission.Deny, "maintenance window", "", ""},
		{"exit 2 blocks with stderr", `cat >/dev/null; echo "rm is blocked by policy" >&2; exit 2`,
			permission.Deny, "rm is blocked by policy", "", ""},
		{"exit 2 without stderr", `exit 2`,
			permission.Deny, `command hook "guard" exited with status 2`, "", ""},
		{"exit 1 fails closed", `echo "jq: not found" >&2; exit 1`,
			permission.Deny, `hook "guard" failed: command exited with status 1: jq: not found; call blocked (hooks fail closed)`, "", ""},
		{"bad JSON fails closed", `echo '{"hookSpecificOutput":'`,
			permission.Deny, `hook "guard" failed: answer is not valid JSON: unexpected end of JSON input; call blocked (hooks fail closed)`, "", ""},
		{"plain text fails closed", `echo 'ok'`,
			permission.Deny, `hook "guard" failed: answer is not a JSON object: "ok"; call blocked (hooks fail closed)`, "", ""},
		{"unknown permissionDecision fails closed", `echo '{"hookSpecificOutput":{"permissionDecision":"maybe"}}'`,
			permission.Deny, `hook "guard" failed: unknown permissionDecision "maybe"; call blocked (hooks fail closed)`, "", ""},
		{"updatedInput not an object fails closed", `echo '{"hookSpecificOutput":{"updatedInput":"rm"}}'`,
			permission.Deny, `hook "guard" failed: updatedInput is not a JSON object; call blocked (hooks fail closed)`, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := commandSet(t, hooks.Command{Argv: []string{script(t, tc.body)}})
			o := s.PreToolUse(context.Background(), rmRf)
			assert.Equal(t, tc.decision, o.Decision)
			assert.Equal(t, tc.reason, o.Reason)
			if tc.decision != permission.Allow {
				assert.Equal(t, "guard", o.Hook)
			}
			if tc.input != "" {
				assert.JSONEq(t, tc.input, string(o.Input))
			}
			assert.Equal(t, tc.context, o.Context)
		})
	}
}

func TestCommandAllowDoesNotBeatDeny(t *testing.T) {
	s := commandSet(t, hooks.Command{Argv: []string{script(t, `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`)}})
	o := s.PreToolUse(context.Background(), rmRf)
	require.Equal(t, permission.Allow, o.Decision)
	assert.Equal(t, permission.Deny, o.Decision.Stricter(permission.Deny), "a rule's Deny stands")
	assert.Equal(t, permission.Ask, o.Decision.Stricter(permission.Ask), "a rule's Ask stands")
}

func TestCommandTimeoutKillsAndBlocks(t *testing.T) {
	s := commandSet(t, hooks.Command{Timeout: 200 * time.Millisecond, Argv: []string{script(t, `sleep 30; echo '{}'`)}})
	start := time.Now()
	o := s.PreToolUse(context.Background(), rmRf)
	assert.Less(t, time.Since(start), 5*time.Second, "the process group is killed")
	assert.Equal(t, permission.Deny, o.Decision)
	assert.Equal(t, `hook "guard" timed out after 200ms; call blocked (hooks fail closed)`, o.Reason)
	assert.ErrorIs(t, o.Err, hooks.ErrTimeout)
}

func TestCommandStdinIsClaudeCodeJSON(t *testing.T) {
	dir := t.TempDir()
	dump := filepath.Join(dir, "stdin.json")
	s := commandSet(t, hooks.Command{Argv: []string{script(t, `cat > "$1"`), dump}, TranscriptPath: "/tmp/t.jsonl"})
	ev := rmRf
	ev.CallID = "toolu_01"
	o := s.PreToolUse(context.Background(), ev)
	require.Equal(t, permission.Allow, o.Decision)
	got, err := os.ReadFile(dump)
	require.NoError(t, err)
	assert.JSONEq(t, `{"session_id":"test-session","transcript_path":"/tmp/t.jsonl","cwd":"/work/project","permission_mode":"default",
		"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /tmp/x"},"tool_use_id":"toolu_01",
		"agent_name":"lead","step":1}`, string(got))

	p := s.PostToolUse(context.Background(), hookstest.PostToolUse("Bash", `{"command":"ls"}`, "a.txt\n"))
	require.NoError(t, p.Err)
	got, err = os.ReadFile(dump)
	require.NoError(t, err)
	var in map[string]any
	require.NoError(t, json.Unmarshal(got, &in))
	assert.Equal(t, "PostToolUse", in["hook_event_name"])
	assert.Equal(t, "a.txt\n", in["tool_response"])
	assert.Equal(t, map[string]any{"command": "ls"}, in["tool_input"])
}

func TestCommandMatchers(t *testing.T) {
	deny := `echo '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"matched"}}'`
	cases := []struct {
		matcher string
		tool    string
		matched bool
	}{
		{"", "Read", true},
		{"*", "Read", true},
		{"Bash", "Bash", true},
		{"Bash", "BashOutput", false},
		{"Edit|Write", "Write", true},
		{"Edit|Write", "NotebookEdit", false},
		{"Notebook.*", "NotebookEdit", true},
		{"mcp__github__.*", "mcp__github__create_issue", true},
		{"mcp__github__.*", "mcp__gitlab__create_issue", false},
	}
	for _, tc := range cases {
		t.Run(tc.matcher+"/"+tc.tool, func(t *testing.T) {
			s := commandSet(t, hooks.Command{Matcher: tc.matcher, Shell: deny})
			o := s.PreToolUse(context.Background(), hookstest.PreToolUse(tc.tool, `{}`))
			if tc.matched {
				assert.Equal(t, permission.Deny, o.Decision)
				assert.Equal(t, "matched", o.Reason)
			} else {
				assert.Equal(t, permission.Allow, o.Decision)
				assert.Empty(t, o.Reason)
			}
		})
	}
}

func TestCommandPostToolUseAnswers(t *testing.T) {
	cases := []struct {
		name    string
		body    string
		output  string
		context string
		err     string
	}{
		{"exit 0 empty keeps output", `cat >/dev/null`, "token=abc123", "", ""},
		{"updatedToolOutput string", `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":"token=****"}}'`, "token=****", "", ""},
		{"updatedMCPToolOutput object", `echo '{"hookSpecificOutput":{"updatedMCPToolOutput":{"redacted":true}}}'`, `{"redacted":true}`, "", ""},
		{"additionalContext", `echo '{"hookSpecificOutput":{"additionalContext":"output contains a token"}}'`, "token=abc123", "output contains a token", ""},
		{"decision block is reported", `echo '{"decision":"block","reason":"secret in output"}'`, "token=abc123", "",
			`hooks: hook "guard" PostToolUse: decision block: secret in output`},
		{"exit 2 is reported", `echo "leaked" >&2; exit 2`, "token=abc123", "",
			`hooks: hook "guard" PostToolUse: blocked (exit status 2): leaked`},
		{"exit 3 is reported", `exit 3`, "token=abc123", "",
			`hooks: hook "guard" PostToolUse: command exited with status 3`},
		{"bad JSON is reported", `echo '{'`, "token=abc123", "",
			`hooks: hook "guard" PostToolUse: answer is not valid JSON: unexpected end of JSON input`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := commandSet(t, hooks.Command{Argv: []string{script(t, tc.body)}})
			o := s.PostToolUse(context.Background(), hookstest.PostToolUse("Bash", `{"command":"env"}`, "token=abc123"))
			assert.Equal(t, tc.output, o.Output)
			assert.Equal(t, tc.context, o.Context)
			if tc.err == "" {
				assert.NoError(t, o.Err)
			} else {
				assert.EqualError(t, o.Err, tc.err)
			}
		})
	}
}

func TestCommandOtherEvents(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "events.log")
	s := commandSet(t, hooks.Command{
		Events:  []hooks.Event{hooks.EventSessionStart, hooks.EventSessionStop, hooks.EventPreCompact},
		Matcher: "manual",
		Shell:   `cat >> "` + log + `"; echo >> "` + log + `"`,
	})
	ctx := context.Background()
	require.NoError(t, s.SessionStart(ctx, hookstest.SessionStart()))
	require.NoError(t, s.PreCompact(ctx, hookstest.PreCompact("auto")), "trigger does not match")
	require.NoError(t, s.PreCompact(ctx, hookstest.PreCompact("manual")))
	require.NoError(t, s.SessionStop(ctx, hookstest.SessionStop("completed")))
	o := s.PreToolUse(ctx, rmRf)
	assert.Equal(t, permission.Allow, o.Decision, "PreToolUse is not among the events")
	data, err := os.ReadFile(log)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	require.Len(t, lines, 3)
	assert.Contains(t, lines[0], `"hook_event_name":"SessionStart"`)
	assert.Contains(t, lines[1], `"hook_event_name":"PreCompact"`)
	assert.Contains(t, lines[1], `"trigger":"manual"`)
	assert.Contains(t, lines[2], `"hook_event_name":"SessionEnd"`)
	assert.Contains(t, lines[2], `"reason":"completed"`)

	failing := commandSet(t, hooks.Command{Name: "notifier", Events: []hooks.Event{hooks.EventSessionStop}, Shell: `echo "no webhook" >&2; exit 2`})
	err = failing.SessionStop(ctx, hookstest.SessionStop("completed"))
	assert.EqualError(t, err, `hooks: hook "notifier" SessionEnd: exit status 2: no webhook`)
}

func TestCommandConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		c   hooks.Command
		err string
	}{
		{hooks.Command{}, "hooks: command hook: neither Argv nor Shell is set"},
		{hooks.Command{Argv: []string{"x"}, Shell: "y"}, "hooks: command hook: both Argv and Shell are set"},
		{hooks.Command{Argv: []string{""}}, "hooks: command hook: empty program name"},
		{hooks.Command{Shell: "true", Matcher: "Bash("}, "hooks: command hook: matcher \"Bash(\": error parsing regexp: missing closing ): `^(?:Bash()$`"},
		{hooks.Command{Shell: "true", Events: []hooks.Event{42}}, "hooks: command hook: unknown event Event(42)"},
	} {
		_, err := tc.c.Hook()
		assert.EqualError(t, err, tc.err)
	}
}

func TestCommandMissingProgramFailsClosed(t *testing.T) {
	s := commandSet(t, hooks.Command{Argv: []string{filepath.Join(t.TempDir(), "missing")}})
	o := s.PreToolUse(context.Background(), rmRf)
	assert.Equal(t, permission.Deny, o.Decision)
	assert.Contains(t, o.Reason, `hook "guard" failed: fork/exec `)
	assert.Contains(t, o.Reason, "no such file or directory; call blocked (hooks fail closed)")
}

func TestCommandConformance(t *testing.T) {
	h, err := hooks.Command{Name: "conformant", Timeout: 5 * time.Second,
		Shell: `cat >/dev/null; echo '{"hookSpecificOutput":{"additionalContext":"seen"}}'`}.Hook()
	require.NoError(t, err)
	hookstest.Run(t, h)
}

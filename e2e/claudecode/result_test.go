package claudecode

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// toolResult is one tool_result the model received, with the call it
// answers.
type toolResult struct {
	ID, Tool string
	Input    json.RawMessage
	Text     string
	IsError  bool
}

type block struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
	Text      string          `json:"text"`
}

// results are the tool calls of every conversation, in the order the API
// saw them, each with the tool_result that came back to the model in the
// next request: what the model really received, not what Claude Code
// printed.
func (r *result) results() []toolResult {
	var order []string
	byID := map[string]*toolResult{}
	for _, raw := range r.requests {
		var rec struct {
			Body struct {
				Messages []struct {
					Role    string          `json:"role"`
					Content json.RawMessage `json:"content"`
				} `json:"messages"`
			} `json:"body"`
		}
		if json.Unmarshal(raw, &rec) != nil {
			continue
		}
		for _, m := range rec.Body.Messages {
			var blocks []block
			if json.Unmarshal(m.Content, &blocks) != nil {
				continue
			}
			for _, b := range blocks {
				switch b.Type {
				case "tool_use":
					if byID[b.ID] == nil {
						byID[b.ID] = &toolResult{ID: b.ID, Tool: b.Name, Input: b.Input}
						order = append(order, b.ID)
					}
				case "tool_result":
					if tr := byID[b.ToolUseID]; tr != nil {
						tr.Text, tr.IsError = contentText(b.Content), b.IsError
					}
				}
			}
		}
	}
	out := make([]toolResult, 0, len(order))
	for _, id := range order {
		out = append(out, *byID[id])
	}
	return out
}

// contentText is a tool_result's content as text.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []block
	if json.Unmarshal(raw, &blocks) == nil {
		var parts []string
		for _, b := range blocks {
			parts = append(parts, b.Text)
		}
		return strings.Join(parts, "\n")
	}
	return string(raw)
}

// call is the n-th tool_result (from 0) of tool the model received; the
// test fails if there is none.
func (r *result) call(t *testing.T, tool string, n int) toolResult {
	t.Helper()
	i := 0
	for _, tr := range r.results() {
		if tr.Tool == tool {
			if i == n {
				if tr.Text == "" && !tr.IsError {
					r.dump(t)
				}
				return tr
			}
			i++
		}
	}
	r.dump(t)
	t.Fatalf("the model received no result of %s call %d", tool, n)
	return toolResult{}
}

// ran asserts that tool's n-th call ran: its result is no error and
// contains want.
// oneWarmProcess asserts that toolgate-check, the hook command, started
// warm processes for one key alone: Claude Code gives every hook call of
// a session the same environment and working directory, so that later
// calls find the process the first one started.
func (r *result) oneWarmProcess(t *testing.T) {
	t.Helper()
	locks, err := filepath.Glob(filepath.Join(r.home, ".local", "state", "toolgate", "warm", "*.lock"))
	require.NoError(t, err)
	assert.Len(t, locks, 1, "the session's hook calls have one environment and directory: one warm process answers them (%v)", locks)
}

func (r *result) ran(t *testing.T, tool string, n int, want string) toolResult {
	t.Helper()
	tr := r.call(t, tool, n)
	if !assert.False(t, tr.IsError, "%s ran: the model got %q", tool, tr.Text) || !assert.Contains(t, tr.Text, want) {
		r.dump(t)
	}
	return tr
}

// refused asserts that tool's n-th call did not run and that the reason
// the model got contains each of want.
func (r *result) refused(t *testing.T, tool string, n int, want ...string) toolResult {
	t.Helper()
	tr := r.call(t, tool, n)
	ok := assert.True(t, tr.IsError, "%s was refused: the model got %q", tool, tr.Text)
	for _, w := range want {
		ok = assert.Contains(t, tr.Text, w) && ok
	}
	if !ok {
		r.dump(t)
	}
	return tr
}

// exists asserts whether a file under the workspace (or an absolute path
// inside the sandbox's own directories) is there.
func (r *result) exists(t *testing.T, name string, want bool) {
	t.Helper()
	p := r.path(name)
	_, err := os.Lstat(p)
	if want {
		assert.NoError(t, err, "%s was created", name)
	} else {
		assert.True(t, os.IsNotExist(err), "%s must not exist: a call ran that must not have", name)
	}
}

func (r *result) path(name string) string {
	name = strings.NewReplacer("$WS", r.ws, "$HOME", r.home, "$ROOT", filepath.Dir(r.ws)).Replace(name)
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(r.ws, name)
}

func (r *result) read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(r.path(name))
	require.NoError(t, err)
	return string(b)
}

// events are the stream-json lines of the run.
func (r *result) events() []map[string]any {
	var out []map[string]any
	for _, line := range strings.Split(r.stdout, "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

// hookOutputs are the outputs of the hooks run for event, as
// --include-hook-events reports them.
func (r *result) hookOutputs(event string) []string {
	var out []string
	for _, e := range r.events() {
		if e["type"] == "system" && e["subtype"] == "hook_response" && e["hook_event"] == event {
			s, _ := e["output"].(string)
			out = append(out, s)
		}
	}
	return out
}

// initTools are the tools the system/init event lists.
func (r *result) initTools() []string {
	for _, e := range r.events() {
		if e["type"] == "system" && e["subtype"] == "init" {
			var names []string
			tools, _ := e["tools"].([]any)
			for _, x := range tools {
				s, _ := x.(string)
				names = append(names, s)
			}
			return names
		}
	}
	return nil
}

// noHookErrors asserts that Claude Code reported no answer of toolgate's
// as malformed or of the wrong event.
func (r *result) noHookErrors(t *testing.T) {
	t.Helper()
	for _, bad := range []string{"incorrect event name", "does not match", "Hook JSON output validation failed", "hook error"} {
		if !assert.NotContains(t, r.debug, bad, "Claude Code's debug log") {
			for _, line := range strings.Split(r.debug, "\n") {
				if strings.Contains(line, bad) {
					t.Log(line)
				}
			}
		}
	}
}

func (r *result) dump(t *testing.T) {
	t.Helper()
	t.Logf("status: %s\nstderr: %s", r.status, r.stderr)
	for _, tr := range r.results() {
		t.Logf("call %s %s %s -> error=%v %q", tr.ID, tr.Tool, tr.Input, tr.IsError, tr.Text)
	}
	for _, e := range r.events() {
		if e["type"] == "system" && (e["subtype"] == "hook_response" || e["subtype"] == "permission_denied") {
			b, _ := json.Marshal(e)
			t.Logf("event: %s", b)
		}
	}
}

package claudecode

import (
	"encoding/json"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
)

// More roles of the test binary, as hook commands: redact is a
// toolgate PostToolUse hook that takes secrets out of the output it is
// given; record appends each event it gets, with the CLAUDE_* environment,
// to $TOOLGATE_E2E_RECORD.
const (
	roleRedact = "redact"
	roleRecord = "record"
	recordEnv  = "TOOLGATE_E2E_RECORD"
)

var secretRE = regexp.MustCompile(`(MCP-)?SECRET-[0-9a-z]+`)

func runRedact() int {
	data, _ := io.ReadAll(os.Stdin)
	var ev struct {
		ToolResponse string `json:"tool_response"`
	}
	_ = json.Unmarshal(data, &ev)
	out := secretRE.ReplaceAllString(ev.ToolResponse, "[redacted]")
	_ = json.NewEncoder(os.Stdout).Encode(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": "PostToolUse", "updatedToolOutput": out, "additionalContext": "e2e: secrets redacted"}})
	return 0
}

func runRecord() int {
	data, _ := io.ReadAll(os.Stdin)
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "CLAUDE") {
			env = append(env, kv)
		}
	}
	sort.Strings(env)
	rec, _ := json.Marshal(map[string]any{"event": json.RawMessage(orNull(data)), "env": env, "args": os.Args[1:]})
	f, err := os.OpenFile(os.Getenv(recordEnv), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return 1
	}
	defer f.Close()
	_, _ = f.Write(append(rec, '\n'))
	return 0
}

// roleCommand is a hook command that runs the test binary in role.
func (s *suiteEnv) roleCommand(role string, env ...string) string {
	cmd := roleEnv + "=" + role
	for _, e := range env {
		cmd += " " + e
	}
	return cmd + " " + s.self + " -test.run=^$"
}

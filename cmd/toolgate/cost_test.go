package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/costtest"
)

// BenchmarkCheckStdinCost: "toolgate check" run in process on adversarial
// hook events of 1 KiB, 64 KiB and 1 MiB read from stdin (a long command,
// many commands, deep nesting and a long string in the tool input); ns/KiB
// stays about the same as the event grows, past the fixed cost of loading
// the settings.
func BenchmarkCheckStdinCost(b *testing.B) {
	tmp := workspace(b)
	cwd := filepath.Join(tmp, "proj")
	head := `{"session_id":"s","cwd":"` + cwd + `","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":`
	shapes := []struct {
		name string
		make func(n int) string
	}{
		{"many-commands", func(n int) string {
			return costtest.Fill(head+`"Bash","tool_input":{"command":"`, "ls", "; ", `"}}`, n)
		}},
		{"long-word", func(n int) string {
			return costtest.Fill(head+`"Bash","tool_input":{"command":"echo `, "a", "", `"}}`, n)
		}},
		{"deep-nesting", func(n int) string {
			unit := strings.Repeat("[", 100) + strings.Repeat("]", 100)
			return costtest.Fill(head+`"Read","tool_input":{"file_path":"src/main.go","x":[`, unit, ",", `]}}`, n)
		}},
		{"long-string", func(n int) string {
			return costtest.Fill(head+`"Read","tool_input":{"file_path":"src/main.go","x":"`, "a", "", `"}}`, n)
		}},
	}
	getenv := func(k string) string {
		if k == "HOME" {
			return filepath.Join(tmp, "home")
		}
		return ""
	}
	for _, s := range shapes {
		costtest.Run(b, s.name, func(n int) (string, bool) { return s.make(n), true }, func(b *testing.B, event string) {
			for b.Loop() {
				var out, errb bytes.Buffer
				runCheck([]string{"--managed", filepath.Join(tmp, "none.json"), "--state-dir", filepath.Join(tmp, "state")},
					env{stdin: strings.NewReader(event), stdout: &out, stderr: &errb, getenv: getenv})
				if !strings.Contains(out.String(), "permissionDecision") {
					b.Fatalf("no decision: %s", out.String())
				}
			}
		})
	}
}

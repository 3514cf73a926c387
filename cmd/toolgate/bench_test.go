package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkProcessStart runs one "toolgate check" process and one bare Go
// hello-world process per iteration, alternately, and reports each one's
// time and their ratio side by side.
func BenchmarkProcessStart(b *testing.B) {
	tmp := workspace(b)
	cwd := filepath.Join(tmp, "proj")
	writeSettingsB(b, filepath.Join(cwd, ".claude", "settings.json"),
		`{"permissions": {"allow": ["Bash(go test:*)"], "deny": ["Bash(git push:*)", "Read(./.env)"]}}`)
	event := `{"session_id":"s","cwd":"` + cwd + `","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status && go test ./... && ls -la src"}}`
	run := func(path string, args ...string) time.Duration {
		cmd := exec.Command(path, args...)
		cmd.Stdin = strings.NewReader(event)
		start := time.Now()
		out, err := cmd.Output()
		d := time.Since(start)
		if err != nil || len(out) == 0 {
			b.Fatalf("%s: %v %q", path, err, out)
		}
		return d
	}
	if out, _ := exec.Command(bin, "check").Output(); len(out) == 0 {
		b.Fatal("no answer")
	}
	var helloT, checkT time.Duration
	b.ReportAllocs()
	for b.Loop() {
		helloT += run(hello)
		checkT += run(bin, "check", "--managed", filepath.Join(tmp, "none.json"))
	}
	n := float64(b.N)
	b.ReportMetric(float64(helloT.Nanoseconds())/n, "hello-ns/op")
	b.ReportMetric(float64(checkT.Nanoseconds())/n, "check-ns/op")
	b.ReportMetric(float64(checkT)/float64(helloT), "check/hello")
}

func writeSettingsB(b *testing.B, path, body string) {
	b.Helper()
	cmd := exec.Command("sh", "-c", `mkdir -p "$(dirname "$1")" && printf '%s' "$2" > "$1"`, "sh", path, body)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%v %s", err, out)
	}
}

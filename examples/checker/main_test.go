package main

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
)

// TestMain_output runs the program and checks each decision and reason it
// prints.
func TestMain_output(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	main()
	os.Stdout = stdout
	w.Close()
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, r); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"allow allowed by allow rule Bash(git status) (config)",
		"allow allowed by allow rule Bash(go test:*) (config)",
		"ask   needs confirmation by ask rule Bash(git push:*) (config)",
		"deny  denied by deny rule Bash(rm:*) (config)",
		"allow allowed by allow rule Read(./src/**) (config)",
		"deny  denied by deny rule Read(./.env) (config)",
		"deny  denied by deny rule WebFetch(domain:*.pastebin.com) (config)",
		"ask   no rule matched; the default for other tools is ask",
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(want), buf.String())
	}
	for i, l := range lines {
		if !strings.HasSuffix(l, want[i]) {
			t.Errorf("line %d = %q, want it to end with %q", i, l, want[i])
		}
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func runTool(t *testing.T, tmp string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = "/"
	cmd.Env = []string{"HOME=" + filepath.Join(tmp, "home"), "PATH=" + os.Getenv("PATH")}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return out.String(), errb.String(), code
}

func writeSettings(t *testing.T, path, body string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(body), 0o644))
}

func TestExplainShellCommand(t *testing.T) {
	tmp := workspace(t)
	cwd := filepath.Join(tmp, "proj")
	writeSettings(t, filepath.Join(cwd, ".claude", "settings.json"),
		`{"permissions": {"allow": ["Bash(git status)", "Bash(make test)"], "deny": ["Bash(git push:*)"]}}`)
	// The person trusted the workspace: its allow rules count.
	writeSettings(t, filepath.Join(tmp, "home", ".claude.json"), `{"projects": {"`+cwd+`": {"hasTrustDialogAccepted": true}}}`)
	out, stderr, code := runTool(t, tmp, "explain", "--managed", filepath.Join(tmp, "none.json"), "--cwd", cwd, "--json",
		"Bash", `{"command":"git status && make build && git push origin main"}`)
	require.Equal(t, 0, code, stderr)
	var ex explanation
	require.NoError(t, json.Unmarshal([]byte(out), &ex), out)
	assert.Equal(t, "deny", ex.Decision)
	assert.Equal(t, "L2 rules", ex.Layer)
	assert.Equal(t, "Bash(git push:*)", string(ex.Rule))
	assert.Equal(t, "denied by deny rule Bash(git push:*) (project settings "+cwd+"/.claude/settings.json)", ex.Reason)

	require.Len(t, ex.Commands, 3)
	assert.Equal(t, []string{"git", "status"}, ex.Commands[0].Args)
	assert.Equal(t, "allow", ex.Commands[0].Decision)
	assert.Equal(t, []string{"make", "build"}, ex.Commands[1].Args)
	assert.Equal(t, "ask", ex.Commands[1].Decision)
	assert.Equal(t, "make: not on the safe list", ex.Commands[1].Reason)
	assert.Equal(t, []string{"git", "push", "origin", "main"}, ex.Commands[2].Args)
	assert.Equal(t, "deny", ex.Commands[2].Decision)
	assert.Equal(t, "1:29", ex.Commands[2].Pos)

	// Every layer is reported, in the order it runs.
	var layers []string
	for _, l := range ex.Layers {
		layers = append(layers, l.Layer)
	}
	assert.Equal(t, []string{"L7 runtime", "L1 traits", "L3 hooks", "L2 rules", "L4 sandbox", "L5 shell", "L6 subagent"}, layers)
	assert.Equal(t, "tool Bash, kind exec; shell: command", ex.Layers[1].Saw)
	require.NotEmpty(t, ex.Layers[3].Answers)
	assert.True(t, ex.Layers[3].Answers[0].Decided)
	assert.Equal(t, "Bash(git push:*)", string(ex.Layers[3].Answers[0].Rule))

	// Why did "Bash(make test)" not match? It is held against each command.
	var makeTest *ruleReport
	for i := range ex.Rules {
		if ex.Rules[i].Rule == "Bash(make test)" {
			makeTest = &ex.Rules[i]
		}
	}
	require.NotNil(t, makeTest)
	assert.Equal(t, []matchReport{{"git status", false}, {"make build", false}, {"git push origin main", false}}, makeTest.Matches)

	// The text report says the same for a person.
	text, _, code := runTool(t, tmp, "explain", "--managed", filepath.Join(tmp, "none.json"), "--cwd", cwd,
		"Bash", `{"command":"git status && make build && git push origin main"}`)
	require.Equal(t, 0, code)
	assert.Contains(t, text, "  decision: deny\n  layer:    L2 rules\n  rule:     Bash(git push:*)\n")
	assert.Contains(t, text, `1:15   ask   ["make" "build"]`)
	assert.Contains(t, text, "  allow Bash(make test) (project settings "+cwd+"/.claude/settings.json)\n          does not match git status\n")
}

func TestExplainModeAndPath(t *testing.T) {
	tmp := workspace(t)
	cwd := filepath.Join(tmp, "proj")
	out, stderr, code := runTool(t, tmp, "explain", "--managed", filepath.Join(tmp, "none.json"), "--cwd", cwd, "--mode", "acceptEdits", "--json",
		"Write", `{"file_path":"src/new.go","content":"x"}`)
	require.Equal(t, 0, code, stderr)
	var ex explanation
	require.NoError(t, json.Unmarshal([]byte(out), &ex))
	assert.Equal(t, "allow", ex.Decision)
	assert.Equal(t, "mode:acceptEdits", string(ex.Rule))
	assert.Equal(t, "acceptEdits", ex.Policy.Mode)
	assert.Equal(t, "paths file_path=src/new.go against roots "+cwd, ex.Layers[4].Saw)

	// A mode of a later Claude Code is judged as the default mode, and
	// the explanation says so.
	out, stderr, code = runTool(t, tmp, "explain", "--managed", filepath.Join(tmp, "none.json"), "--cwd", cwd, "--mode", "yolo", "--json",
		"Read", `{"file_path":"README.md"}`)
	require.Equal(t, 0, code, stderr)
	ex = explanation{}
	require.NoError(t, json.Unmarshal([]byte(out), &ex))
	assert.Equal(t, "allow", ex.Decision)
	assert.Contains(t, ex.Policy.Warnings, `permission_mode "yolo" is unknown to toolgate; judged as in default mode`)
}

package claudecode

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Roles the test binary plays when it runs itself: inside the sandbox,
// the harness serves the scripted API and runs Claude Code; the MCP server
// is a stdio server Claude Code starts.
const (
	roleEnv     = "TOOLGATE_E2E_ROLE"
	roleHarness = "harness"
	roleMCP     = "mcp"
	specEnv     = "TOOLGATE_E2E_SPEC"
)

// spec is what the harness runs inside the sandbox.
type spec struct {
	Script  script   `json:"script"`
	Claude  string   `json:"claude"`
	Args    []string `json:"args"`
	Env     []string `json:"env"`
	Dir     string   `json:"dir"`
	Out     string   `json:"out"`
	Timeout int      `json:"timeout"` // seconds
}

// runHarness serves the API and runs Claude Code once; its files are
// api.jsonl (every request), stdout, stderr and status in spec.Out.
func runHarness() int {
	data, err := os.ReadFile(os.Getenv(specEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, "harness:", err)
		return 2
	}
	var sp spec
	if err := json.Unmarshal(data, &sp); err != nil {
		fmt.Fprintln(os.Stderr, "harness:", err)
		return 2
	}
	url, stop, err := serveAPI(sp.Script, filepath.Join(sp.Out, "api.jsonl"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "harness:", err)
		return 2
	}
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(sp.Timeout)*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, sp.Claude, sp.Args...)
	cmd.Dir = sp.Dir
	cmd.Env = append(append([]string{}, sp.Env...), "ANTHROPIC_BASE_URL="+url)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Stdin = strings.NewReader("")
	runErr := cmd.Run()
	status := "exit 0"
	if runErr != nil {
		status = runErr.Error()
	}
	_ = os.WriteFile(filepath.Join(sp.Out, "stdout"), out.Bytes(), 0o644)
	_ = os.WriteFile(filepath.Join(sp.Out, "stderr"), errb.Bytes(), 0o644)
	_ = os.WriteFile(filepath.Join(sp.Out, "status"), []byte(status), 0o644)
	return 0
}

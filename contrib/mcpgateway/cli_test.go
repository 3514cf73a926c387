package mcpgateway_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The command refuses what it cannot serve safely, before it starts a
// server: each case names its arguments, the configuration file and the
// message expected on stderr (exit status 1).
func TestGatewayCommandRefuses(t *testing.T) {
	good := `{"mcpServers": {"up": {"command": "` + upstreamBin + `"}}}`
	for _, tc := range []struct {
		name, config, want string
		args               []string
	}{
		{"no config", "", "--config is required", nil},
		{"listen on every address", good, "is not a loopback address: pass --allow-remote", []string{"--listen", "0.0.0.0:0"}},
		{"stray argument", good, `unexpected arguments ["extra"]`, []string{"extra"}},
		{"negative ask timeout", good, "cannot be negative", []string{"--ask-timeout", "-1s"}},
		{"hook event", `{"mcpServers": {"up": {"command": "x"}}, "hooks": {"Stop": []}}`, `event "Stop" is not PreToolUse or PostToolUse`, nil},
		{"hook without command", `{"mcpServers": {"up": {"command": "x"}}, "hooks": {"PostToolUse": [{"hooks": [{"type": "command"}]}]}}`,
			`hooks.PostToolUse[0].hooks[0]: each hook needs "type": "command", a command`, nil},
		{"hook matcher", `{"mcpServers": {"up": {"command": "x"}}, "hooks": {"PreToolUse": [{"matcher": "(", "hooks": [{"type": "command", "command": "true"}]}]}}`,
			`matcher "("`, nil},
		{"server name", `{"mcpServers": {"a__b": {"command": "x"}}}`, `server name "a__b" cannot make tool names`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			args := tc.args
			if tc.config != "" {
				cfg := filepath.Join(dir, "mcp.json")
				require.NoError(t, os.WriteFile(cfg, []byte(tc.config), 0o644))
				args = append([]string{"--config", cfg}, args...)
			}
			cmd := exec.Command(gatewayBin, args...)
			cmd.Dir = dir
			cmd.Env = []string{"HOME=" + dir, "PATH=" + os.Getenv("PATH")}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			require.Error(t, err)
			assert.Equal(t, 1, cmd.ProcessState.ExitCode())
			assert.Contains(t, stderr.String(), "toolgate mcp: ")
			assert.Contains(t, stderr.String(), tc.want)
		})
	}
}

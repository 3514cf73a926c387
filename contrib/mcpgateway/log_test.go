package mcpgateway_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The log level chooses what toolgate mcp writes to stderr (stdout is the
// MCP transport's): -v adds the files read and every call's decision,
// never its input; warn drops the informational lines.
func TestGatewayLogLevel(t *testing.T) {
	up := upstreams[0]
	for _, tc := range []struct {
		args     []string
		has, not []string
	}{
		{nil, []string{`level=INFO msg="serving on stdio"`}, []string{"level=DEBUG"}},
		{[]string{"-v"}, []string{
			`level=INFO msg="serving on stdio"`,
			`level=DEBUG msg="settings file" path=`,
			`level=DEBUG msg="tool call" session=`,
			`tool=mcp__go__read_file decision=allow layer="L2 rules" rule=mcp__go reason=`,
		}, []string{"notes.txt"}},
		{[]string{"--log-level=warn"}, nil, []string{"level=INFO", "level=DEBUG"}},
	} {
		t.Run(fmt.Sprint(tc.args), func(t *testing.T) {
			e := newE2E(t, up.name, up.server, up.tools)
			e.args = tc.args
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cs := e.connect(t, ctx, "stdio")
			r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "mcp__go__read_file",
				Arguments: map[string]any{"path": filepath.Join(e.dir, "notes.txt")}})
			require.NoError(t, err)
			assert.False(t, r.IsError, "allowed: %s", text(r))
			e.stop(t, cs, "stdio")
			out := e.stderr.String()
			for _, s := range tc.has {
				assert.Contains(t, out, s)
			}
			for _, s := range tc.not {
				assert.NotContains(t, out, s)
			}
		})
	}
}

// An unknown level is a usage error (exit status 2, the message on
// stderr); -h prints the usage, -v and --log-level in it, and exits 0.
func TestGatewayLogLevelUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--log-level=loud"}, 2, `invalid value "loud" for flag -log-level: unknown log level "loud": want debug, info, warn or error`},
		{[]string{"--log-level", "", "--config", "x"}, 2, `unknown log level ""`},
		{[]string{"-v=maybe"}, 2, `invalid boolean value "maybe" for -v`},
		{[]string{"-h"}, 0, "-log-level level"},
	} {
		cmd := exec.Command(gatewayBin, tc.args...)
		cmd.Dir = t.TempDir()
		cmd.Env = []string{"HOME=" + cmd.Dir, "PATH=" + os.Getenv("PATH")}
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		_ = cmd.Run()
		assert.Equal(t, tc.code, cmd.ProcessState.ExitCode(), "%v: %s", tc.args, stderr.String())
		assert.Contains(t, stderr.String(), tc.want, "%v", tc.args)
		assert.Contains(t, stderr.String(), "show debug messages (--log-level=debug)", "%v: the usage follows", tc.args)
		assert.Empty(t, stdout.String(), "%v: nothing on stdout, the transport's", tc.args)
	}
}

package mcpgateway_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/contrib/mcpgateway"
	"github.com/toolgate/toolgate/permission"
)

// The settings' defaultMode reaches the gateway's sessions: plan lets the
// reads run and denies the write, dontAsk denies what would ask; neither
// puts a question to the person.
func TestGatewayHonoursTheSettingsMode(t *testing.T) {
	self, err := os.Executable()
	require.NoError(t, err)
	for _, tc := range []struct {
		mode, reason string
	}{
		{"plan", "plan mode: only read-only, web, interaction, subagent and session tools run, and mcp__up__write_file is an edit tool"},
		{"dontAsk", "dontAsk mode: would ask (needs confirmation by ask rule mcp__up__write_file (config)), so denied"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			s, err := permission.ParseSettings([]byte(`{"permissions":{"defaultMode":"`+tc.mode+`"}}`),
				filepath.Join(t.TempDir(), "settings.json"), permission.ScopeUser)
			require.NoError(t, err)
			w := newWorldSettings(t, "up", strings.Replace(goUpstream, "SELF", self, 1), mcpgateway.Options{}, s)
			var asked atomic.Int32
			w.elicit = func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				asked.Add(1)
				return &mcp.ElicitResult{Action: "accept"}, nil
			}
			cs := w.connect(t, "stdio")
			r := call(t, cs, "mcp__up__read_file", map[string]any{"path": filepath.Join(w.dir, "notes.txt")})
			assert.False(t, r.IsError, text(r))
			assert.Contains(t, text(r), "hello TOKEN=***")

			target := filepath.Join(w.dir, "new.txt")
			r = call(t, cs, "mcp__up__write_file", map[string]any{"path": target, "content": "x"})
			assert.True(t, r.IsError)
			assert.Equal(t, "denied (L2 rules): "+tc.reason, text(r))
			assert.NoFileExists(t, target)
			assert.Zero(t, asked.Load(), "nobody was asked")
			assert.Equal(t, []string{"mcp__up__read_file allow", "mcp__up__write_file deny"}, w.auditRows(t))
		})
	}
}

package mcpgateway_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A session cancelled while its person is being asked ends the call with
// a Deny, though the person then accepts: under the multi round-trip
// protocol (the answer comes in a second request) and under older ones
// (an elicitation inside the call).
func TestGatewayCancelDuringAskDenies(t *testing.T) {
	for _, f := range []struct{ name, front, version string }{
		{"multi round-trip", "stdio", ""}, {"elicitation", "stdio", "2025-11-25"}, {"elicitation over http", "http", ""},
	} {
		t.Run(f.name, func(t *testing.T) {
			w := newWorld(t, "up", goUpstreamConfig(t))
			w.version = f.version
			w.elicit = func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				require.NoError(t, w.p.Cancel(context.Background(), w.session.Load().(string), "stopped from the approval page"))
				return &mcp.ElicitResult{Action: "accept"}, nil
			}
			cs := w.connect(t, f.front)
			target := filepath.Join(w.dir, "new.txt")
			r := call(t, cs, "mcp__up__write_file", map[string]any{"path": target, "content": "x"})
			assert.True(t, r.IsError, text(r))
			assert.Contains(t, text(r), "denied (")
			assert.Contains(t, text(r), "stopped from the approval page")
			assert.NoFileExists(t, target)
		})
	}
}

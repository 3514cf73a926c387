package gosdk_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/contrib/gosdk"
	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/tool"
)

type pathArg struct {
	Path string `json:"path"`
}

// setup returns a pipeline whose rules allow the MCP tool read_file (a
// read of its path argument) and a workspace with a file holding a token.
func setup(t *testing.T, prefix string) (*runtime.Pipeline, string) {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("TOKEN=abc123"), 0o644))
	set := hooks.NewSet(hooks.Hook{Name: "redact", PostToolUse: func(_ context.Context, e hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) {
		return hooks.MutateOutput(strings.ReplaceAll(e.Output, "abc123", "***")), nil
	}})
	t.Cleanup(func() { set.Close() })
	p, err := runtime.Open(runtime.Workspace{Dir: dir, Hooks: set,
		Rules: permission.Config{Allow: []string{prefix + "read_file"}}})
	require.NoError(t, err)
	require.NoError(t, p.AddTools(&tool.Descriptor{ToolName: prefix + "read_file",
		Base: tool.Traits{Kind: permission.KindRead, PathFields: []string{"path"}, RequiredFields: []string{"path"}}}))
	return p, dir
}

func server() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "files", Version: "v1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "read_file"}, func(_ context.Context, _ *mcp.CallToolRequest, in pathArg) (*mcp.CallToolResult, any, error) {
		b, err := os.ReadFile(in.Path)
		if err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil, nil
	})
	return s
}

func connect(t *testing.T, s *mcp.Server, c *mcp.Client) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	cs, err := c.Connect(context.Background(), ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

func text(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

func TestMiddleware(t *testing.T) {
	for _, side := range []string{"server", "client"} {
		t.Run(side, func(t *testing.T) {
			p, dir := setup(t, "mcp__files__")
			s, c := server(), mcp.NewClient(&mcp.Implementation{Name: "agent"}, nil)
			o := gosdk.Options{Prefix: "mcp__files__"}
			if side == "server" {
				s.AddReceivingMiddleware(gosdk.ServerMiddleware(p, o))
			} else {
				c.AddSendingMiddleware(gosdk.ClientMiddleware(p, o))
			}
			cs := connect(t, s, c)
			for _, tc := range []struct {
				path   string
				isErr  bool
				want   string
				absent string
			}{
				{filepath.Join(dir, "a.txt"), false, "TOKEN=***", "abc123"},
				{"/etc/shadow", true, "denied (", "root:"},
				{"/etc/shadow", true, "outside", "root:"},
			} {
				r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"path": tc.path}})
				require.NoError(t, err)
				assert.Equal(t, tc.isErr, r.IsError, text(r))
				assert.Contains(t, text(r), tc.want)
				assert.NotContains(t, text(r), tc.absent)
			}
			r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{}})
			require.NoError(t, err)
			assert.True(t, r.IsError)
			assert.Contains(t, text(r), "path", "a call without its path is refused, saying which field")
		})
	}
}

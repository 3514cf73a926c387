package mcpgo_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/contrib/mcpgo"
	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/tool"
)

func text(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if t, ok := c.(mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// An mcp-go client calls an mcp-go server in process: the middleware
// allows a read inside the roots (redacted by a hook), denies one outside
// with the reason in the result, and the handler never sees the denied
// call.
func TestMiddleware(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("TOKEN=abc123"), 0o644))
	set := hooks.NewSet(hooks.Hook{Name: "redact", PostToolUse: func(_ context.Context, e hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) {
		return hooks.MutateOutput(strings.ReplaceAll(e.Output, "abc123", "***")), nil
	}})
	defer set.Close()
	p, err := runtime.Open(runtime.Workspace{Dir: dir, Hooks: set, Rules: permission.Config{Allow: []string{"mcp__files__read_file"}}})
	require.NoError(t, err)
	require.NoError(t, p.AddTools(&tool.Descriptor{ToolName: "mcp__files__read_file",
		Base: tool.Traits{Kind: permission.KindRead, PathFields: []string{"path"}, RequiredFields: []string{"path"}}}))

	var ran []string
	s := server.NewMCPServer("files", "v1", server.WithToolHandlerMiddleware(mcpgo.Middleware(p, mcpgo.Options{Prefix: "mcp__files__"})))
	s.AddTool(mcp.NewTool("read_file", mcp.WithString("path", mcp.Required())), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		path := req.GetArguments()["path"].(string)
		ran = append(ran, path)
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		return mcp.NewToolResultText(string(b)), nil
	})
	c, err := client.NewInProcessClient(s)
	require.NoError(t, err)
	defer c.Close()
	ctx := context.Background()
	require.NoError(t, c.Start(ctx))
	_, err = c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{ProtocolVersion: mcp.LATEST_PROTOCOL_VERSION,
		ClientInfo: mcp.Implementation{Name: "agent", Version: "v1"}}})
	require.NoError(t, err)

	callRead := func(path string) *mcp.CallToolResult {
		r, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"path": path}}})
		require.NoError(t, err)
		return r
	}
	inside := filepath.Join(dir, "a.txt")
	r := callRead(inside)
	assert.False(t, r.IsError, text(r))
	assert.Equal(t, "TOKEN=***", text(r))

	r = callRead("/etc/shadow")
	assert.True(t, r.IsError)
	assert.Contains(t, text(r), "denied (")
	assert.Contains(t, text(r), "outside")
	assert.NotContains(t, text(r), "root:")
	assert.Equal(t, []string{inside}, ran, "the handler never ran the denied call")
}

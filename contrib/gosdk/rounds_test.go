package gosdk_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/contrib/gosdk"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/tool"
)

type writeArg struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

// confirmServer serves write_file, which asks the client to confirm
// through input requests (the multi round-trip protocol) before it writes.
func confirmServer(wrote *atomic.Int32) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "files", Version: "v1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "write_file"}, func(_ context.Context, req *mcp.CallToolRequest, in writeArg) (*mcp.CallToolResult, any, error) {
		resp, ok := req.Params.InputResponses["confirm"].(*mcp.ElicitResult)
		if !ok || req.Params.RequestState != "asked:"+in.Path {
			return &mcp.CallToolResult{RequestState: "asked:" + in.Path, InputRequests: mcp.InputRequestMap{"confirm": &mcp.ElicitParams{
				Message: "write " + in.Path + "?", RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{}}}}}, nil, nil
		}
		if resp.Action != "accept" {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "not confirmed"}}}, nil, nil
		}
		if err := os.WriteFile(in.Path, []byte(in.Content), 0o644); err != nil {
			return nil, nil, err
		}
		wrote.Add(1)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "wrote " + in.Path}}}, nil, nil
	})
	return s
}

// A tool that asks its own question through input requests keeps doing
// so behind the server middleware, and its rounds are one call: judged
// once, counted once for the repeat limit, recorded once.
func TestServerMiddlewareMultiRoundTrip(t *testing.T) {
	for _, version := range []string{"", "2025-11-25"} {
		t.Run("protocol "+version, func(t *testing.T) {
			dir, err := filepath.EvalSymlinks(t.TempDir())
			require.NoError(t, err)
			p, err := runtime.Open(runtime.Workspace{Dir: dir, Rules: permission.Config{Allow: []string{"mcp__files__write_file"}}})
			require.NoError(t, err)
			require.NoError(t, p.AddTools(&tool.Descriptor{ToolName: "mcp__files__write_file",
				Base: tool.Traits{Kind: permission.KindEdit, PathFields: []string{"path"}, RequiredFields: []string{"path"}}}))
			var wrote atomic.Int32
			s := confirmServer(&wrote)
			s.AddReceivingMiddleware(gosdk.ServerMiddleware(p, gosdk.Options{Prefix: "mcp__files__"}))
			c := mcp.NewClient(&mcp.Implementation{Name: "agent"}, &mcp.ClientOptions{
				ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					return &mcp.ElicitResult{Action: "accept"}, nil
				}})
			st, ct := mcp.NewInMemoryTransports()
			ss, err := s.Connect(context.Background(), st, nil)
			require.NoError(t, err)
			t.Cleanup(func() { ss.Close() })
			cs, err := c.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
			require.NoError(t, err)
			t.Cleanup(func() { cs.Close() })
			target := filepath.Join(dir, "w.txt")
			write := func() *mcp.CallToolResult {
				r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "write_file",
					Arguments: map[string]any{"path": target, "content": "x"}})
				require.NoError(t, err)
				return r
			}
			for i := range runtime.DefaultRepeatLimit - 1 {
				r := write()
				require.False(t, r.IsError, "write %d: %s", i+1, text(r))
				assert.Equal(t, "wrote "+target, text(r))
			}
			assert.EqualValues(t, runtime.DefaultRepeatLimit-1, wrote.Load())
			r := write()
			assert.True(t, r.IsError)
			assert.Contains(t, text(r), fmt.Sprintf("the same mcp__files__write_file call with the same input %d times in a row", runtime.DefaultRepeatLimit))
			assert.EqualValues(t, runtime.DefaultRepeatLimit-1, wrote.Load(), "the denied call never ran")
		})
	}
}

// A session cancelled while a call waits for its next round (the client
// is asking its person) ends the call with a Deny: the first round's Allow
// does not carry over.
func TestServerMiddlewareRoundAfterCancel(t *testing.T) {
	// Under the multi round-trip protocol (the SDK's latest) the client
	// answers the input requests and calls again; under older ones the SDK
	// asks on the tool's behalf inside one run, which the middleware sees
	// as one.
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	p, err := runtime.Open(runtime.Workspace{Dir: dir, Rules: permission.Config{Allow: []string{"mcp__files__write_file"}}})
	require.NoError(t, err)
	require.NoError(t, p.AddTools(&tool.Descriptor{ToolName: "mcp__files__write_file",
		Base: tool.Traits{Kind: permission.KindEdit, PathFields: []string{"path"}, RequiredFields: []string{"path"}}}))
	var wrote atomic.Int32
	s := confirmServer(&wrote)
	s.AddReceivingMiddleware(gosdk.ServerMiddleware(p, gosdk.Options{Prefix: "mcp__files__",
		Session: func(context.Context, string) string { return "s1" }}))
	c := mcp.NewClient(&mcp.Implementation{Name: "agent"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			require.NoError(t, p.Cancel(context.Background(), "s1", "the user stopped the agent"))
			return &mcp.ElicitResult{Action: "accept"}, nil
		}})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	cs, err := c.Connect(context.Background(), ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	target := filepath.Join(dir, "w.txt")
	r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "write_file",
		Arguments: map[string]any{"path": target, "content": "x"}})
	require.NoError(t, err)
	assert.True(t, r.IsError, text(r))
	assert.Contains(t, text(r), "denied (")
	assert.Contains(t, text(r), "the user stopped the agent")
	assert.Zero(t, wrote.Load(), "the cancelled call did not write")
	assert.NoFileExists(t, target)
}

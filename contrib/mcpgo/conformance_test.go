package mcpgo_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/toolgate/toolgate/contrib/mcpgo"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/adaptertest"
)

const kitPrefix = "mcp__kit__"

// handler is the kit's tool as an mcp-go tool handler.
func handler(t adaptertest.Tool) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		in, err := json.Marshal(req.GetArguments())
		if err != nil {
			return nil, err
		}
		out, err := t.Run(ctx, in)
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		return mcp.NewToolResultText(out), nil
	}
}

// newServer is an mcp-go server with tasks and the middleware over p.
func newServer(p *runtime.Pipeline) *server.MCPServer {
	return server.NewMCPServer("kit", "v1", server.WithTaskCapabilities(true, true, true),
		server.WithToolHandlerMiddleware(mcpgo.Middleware(p, mcpgo.Options{Prefix: kitPrefix})))
}

func contentText(content []mcp.Content) string {
	var b strings.Builder
	for _, c := range content {
		if t, ok := c.(mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// callTool calls the tool as a client does, through an in-process client.
func callTool(ctx context.Context, p *runtime.Pipeline, t adaptertest.Tool, input json.RawMessage) (string, error) {
	s := newServer(p)
	s.AddTool(mcp.NewTool(t.Name, mcp.WithString("path", mcp.Required())), handler(t))
	c, err := client.NewInProcessClient(s)
	if err != nil {
		return "", err
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		return "", err
	}
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{ProtocolVersion: mcp.LATEST_PROTOCOL_VERSION,
		ClientInfo: mcp.Implementation{Name: "kit", Version: "v1"}}}); err != nil {
		return "", err
	}
	var args map[string]any
	if err := json.Unmarshal(input, &args); err != nil {
		return "", err
	}
	r, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: t.Name, Arguments: args}})
	if err != nil {
		return "", err
	}
	return contentText(r.Content), nil
}

// callAsTask calls the tool task-augmented (tools/call with "task") and
// returns what tasks/result gives, as the server answers the messages.
func callAsTask(ctx context.Context, s *server.MCPServer, name string, input json.RawMessage) (string, error) {
	rpc := func(id int, method string, params any) (json.RawMessage, error) {
		msg, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		if err != nil {
			return nil, err
		}
		b, err := json.Marshal(s.HandleMessage(ctx, msg))
		if err != nil {
			return nil, err
		}
		var resp struct {
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(b, &resp); err != nil {
			return nil, err
		}
		if resp.Error != nil {
			return nil, fmt.Errorf("%s: %s", method, resp.Error.Message)
		}
		return resp.Result, nil
	}
	created, err := rpc(1, "tools/call", map[string]any{"name": name, "arguments": input, "task": map[string]any{}})
	if err != nil {
		return "", err
	}
	var task struct {
		Task struct {
			TaskID string `json:"taskId"`
		} `json:"task"`
	}
	if err := json.Unmarshal(created, &task); err != nil || task.Task.TaskID == "" {
		return "", errors.Join(errors.New("tools/call did not create a task"), err)
	}
	res, err := rpc(2, "tasks/result", map[string]any{"taskId": task.Task.TaskID})
	if err != nil {
		return "", err
	}
	var out struct {
		Content []struct {
			Type, Text string
		} `json:"content"`
	}
	if err := json.Unmarshal(res, &out); err != nil {
		return "", err
	}
	var b strings.Builder
	for _, c := range out.Content {
		b.WriteString(c.Text)
	}
	return b.String(), nil
}

// Every way an mcp-go server calls a tool: a tools/call, a task tool
// (AddTaskTool, run in the background without the middlewares: wrapped
// with TaskTool), and a plain tool called as a task.
func TestConformance(t *testing.T) {
	adaptertest.Run(t, adaptertest.Framework{Prefix: kitPrefix, Paths: []adaptertest.Path{
		{Name: "tools/call", Call: callTool},
		{Name: "task tool", Call: func(ctx context.Context, p *runtime.Pipeline, t adaptertest.Tool, input json.RawMessage) (string, error) {
			s := newServer(p)
			h := handler(t)
			s.AddTaskTool(mcp.NewTool(t.Name, mcp.WithString("path", mcp.Required()), mcp.WithTaskSupport(mcp.TaskSupportRequired)),
				mcpgo.TaskTool(p, mcpgo.Options{Prefix: kitPrefix}, func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CreateTaskResult, error) {
					r, err := h(ctx, req)
					if err != nil {
						return nil, err
					}
					return &mcp.CreateTaskResult{Content: r.Content, IsError: r.IsError}, nil
				}))
			return callAsTask(ctx, s, t.Name, input)
		}},
		{Name: "tool called as a task", Call: func(ctx context.Context, p *runtime.Pipeline, t adaptertest.Tool, input json.RawMessage) (string, error) {
			s := newServer(p)
			s.AddTool(mcp.NewTool(t.Name, mcp.WithString("path", mcp.Required()), mcp.WithTaskSupport(mcp.TaskSupportOptional)), handler(t))
			return callAsTask(ctx, s, t.Name, input)
		}},
	}})
}

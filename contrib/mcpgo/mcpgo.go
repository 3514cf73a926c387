// Package mcpgo puts a toolgate pipeline into github.com/mark3labs/mcp-go
// servers: [Middleware] judges every tool call before its handler runs.
//
//	s := server.NewMCPServer("files", "v1", server.WithToolHandlerMiddleware(mcpgo.Middleware(p, mcpgo.Options{})))
//
// A refused call is a tool error whose text is the reason, so the model
// sees why; an allowed call's result goes through [runtime.Pipeline.After]
// (PostToolUse hooks, redaction, truncation, audit) as content parts. The
// tools must be registered on the pipeline as Options.Prefix + the tool's
// name with their roles ([runtime.Pipeline.AddTools]); an unknown tool is
// denied. An Ask is a Deny with the reason: a middleware has nobody to
// ask. mcp-go runs task tools (AddTaskTool) outside the middlewares:
// register their handlers wrapped with [TaskTool]. The session is the one in the context ([runtime.SessionIDFrom]),
// else mcp-go's client session ([server.ClientSessionFromContext]), else
// "mcp", started on first use with an idle timeout.
//
// It is a module of its own, so mcp-go never enters the library's go.mod.
package mcpgo

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

// Options tune the middleware. The zero value is usable.
type Options struct {
	// Prefix is put before a tool's name to make its pipeline name.
	Prefix string
	// IdleTimeout ends an unused session; 0 means 30 minutes.
	IdleTimeout time.Duration
}

// Middleware returns a tool handler middleware for mcp-go's server. mcp-go
// runs a task tool ([server.MCPServer.AddTaskTool]) without the tool
// handler middlewares: wrap its handler with [TaskTool].
func Middleware(p *runtime.Pipeline, o Options) server.ToolHandlerMiddleware {
	g := newGate(p, o)
	return func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			call, v, req, refusal := g.check(ctx, req)
			if refusal != "" {
				return mcp.NewToolResultError(refusal), nil
			}
			start := time.Now()
			res, err := next(ctx, req)
			run := runtime.Run{Err: err, Elapsed: time.Since(start)}
			if err != nil || res == nil {
				run.Output = fmt.Sprint(err)
				p.After(ctx, call, v, run)
				return res, err
			}
			run.Content = toContent(res.Content, res.StructuredContent)
			out := fromContent(p.After(ctx, call, v, run).Content)
			out.IsError = res.IsError
			return out, nil
		}
	}
}

// TaskTool wraps the handler of a task tool, which mcp-go runs in the
// background without the tool handler middlewares, so that its calls are
// judged like any other: the handler runs only for a call the pipeline
// allows, with the admitted input, and its result (what tasks/result
// returns) goes through [runtime.Pipeline.After]. A refused call completes
// its task with a tool error whose text is the reason.
//
//	s.AddTaskTool(tool, mcpgo.TaskTool(p, mcpgo.Options{}, handler))
func TaskTool(p *runtime.Pipeline, o Options, h server.TaskToolHandlerFunc) server.TaskToolHandlerFunc {
	g := newGate(p, o)
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CreateTaskResult, error) {
		call, v, req, refusal := g.check(ctx, req)
		if refusal != "" {
			return &mcp.CreateTaskResult{Content: []mcp.Content{mcp.NewTextContent(refusal)}, IsError: true}, nil
		}
		start := time.Now()
		res, err := h(ctx, req)
		run := runtime.Run{Err: err, Elapsed: time.Since(start)}
		if err != nil || res == nil {
			run.Output = fmt.Sprint(err)
			p.After(ctx, call, v, run)
			return res, err
		}
		run.Content = toContent(res.Content, res.StructuredContent)
		shaped := fromContent(p.After(ctx, call, v, run).Content)
		out := *res
		out.Content, out.StructuredContent = shaped.Content, shaped.StructuredContent
		return &out, nil
	}
}

type gate struct {
	p   *runtime.Pipeline
	o   Options
	seq atomic.Uint64
}

func newGate(p *runtime.Pipeline, o Options) *gate {
	if o.IdleTimeout == 0 {
		o.IdleTimeout = 30 * time.Minute
	}
	return &gate{p: p, o: o}
}

// check judges one call. It returns the call, its verdict and the request
// to run with the admitted input, or the text of the refusal.
func (g *gate) check(ctx context.Context, req mcp.CallToolRequest) (runtime.Call, runtime.Verdict, mcp.CallToolRequest, string) {
	p := g.p
	sid, ok := runtime.SessionIDFrom(ctx)
	if !ok {
		sid = "mcp"
		if cs := server.ClientSessionFromContext(ctx); cs != nil && cs.SessionID() != "" {
			sid = "mcp-" + cs.SessionID()
		}
	}
	if _, err := p.Session(ctx, runtime.SessionOptions{ID: sid, IdleTimeout: g.o.IdleTimeout}); err != nil {
		return runtime.Call{}, runtime.Verdict{}, req, "denied: no session: " + err.Error()
	}
	args := req.Params.RawArguments
	if len(args) == 0 {
		b, err := json.Marshal(req.Params.Arguments)
		if err != nil || req.Params.Arguments == nil {
			b = []byte(`{}`)
		}
		args = b
	}
	call := runtime.Call{Session: sid, ID: fmt.Sprintf("mcp-%d", g.seq.Add(1)), Tool: g.o.Prefix + req.Params.Name, Input: args}
	v := p.Check(ctx, call)
	if v.Decision != permission.Allow {
		if v.Decision == permission.Ask {
			v.Decision, v.Reason = permission.Deny, "needs the person's approval, and nobody can be asked here: "+v.Reason
		}
		return call, v, req, p.After(ctx, call, v, runtime.Run{}).Output
	}
	// The handler gets the admitted input (a hook may have changed it).
	var admitted map[string]any
	if err := json.Unmarshal(v.Input, &admitted); err != nil {
		v.Decision, v.Reason = permission.Deny, "the admitted input is not an object"
		return call, v, req, p.After(ctx, call, v, runtime.Run{}).Output
	}
	req.Params.Arguments, req.Params.RawArguments = admitted, v.Input
	return call, v, req, ""
}

func toContent(content []mcp.Content, structured any) []runtime.Content {
	parts := make([]runtime.Content, 0, len(content)+1)
	for _, c := range content {
		switch c := c.(type) {
		case mcp.TextContent:
			parts = append(parts, runtime.Content{Type: "text", Text: c.Text})
		case *mcp.TextContent:
			parts = append(parts, runtime.Content{Type: "text", Text: c.Text})
		case mcp.ImageContent:
			parts = append(parts, runtime.Content{Type: "image", Data: []byte(c.Data), MIMEType: c.MIMEType})
		case mcp.AudioContent:
			parts = append(parts, runtime.Content{Type: "audio", Data: []byte(c.Data), MIMEType: c.MIMEType})
		default:
			// Other parts are passed to the hooks as their JSON text.
			b, _ := json.Marshal(c)
			parts = append(parts, runtime.Content{Type: "text", Text: string(b)})
		}
	}
	if structured != nil {
		if b, err := json.Marshal(structured); err == nil {
			parts = append(parts, runtime.Content{Type: "json", JSON: b})
		}
	}
	return parts
}

func fromContent(parts []runtime.Content) *mcp.CallToolResult {
	r := &mcp.CallToolResult{Content: []mcp.Content{}}
	for _, c := range parts {
		switch c.Type {
		case "image":
			r.Content = append(r.Content, mcp.ImageContent{Type: "image", Data: string(c.Data), MIMEType: c.MIMEType})
		case "audio":
			r.Content = append(r.Content, mcp.AudioContent{Type: "audio", Data: string(c.Data), MIMEType: c.MIMEType})
		case "json":
			r.StructuredContent = c.JSON
		default:
			r.Content = append(r.Content, mcp.NewTextContent(c.Text))
		}
	}
	return r
}

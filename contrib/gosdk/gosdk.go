// Package gosdk puts a toolgate pipeline into the official MCP Go SDK
// (github.com/modelcontextprotocol/go-sdk): [ServerMiddleware] judges every
// tools/call a server receives, [ClientMiddleware] every tools/call a
// client sends. A refused call comes back as a tool error whose text is
// the reason, so the model sees why; an allowed call's result goes through
// [runtime.Pipeline.After] (PostToolUse hooks, redaction, truncation,
// audit) as content parts.
//
// The tools must be registered on the pipeline under the names the
// middleware gives them (Options.Prefix + the MCP tool name), with their
// roles ([runtime.Pipeline.AddTools]); an unknown tool is denied. An Ask is
// a Deny with the reason: the middleware has nobody to ask. A tool that
// asks the client something mid-call (input requests, the multi
// round-trip protocol) keeps doing so, and its rounds are one call:
// judged, counted by the repeat limit and recorded once.
//
// It is a module of its own, so the SDK never enters the library's go.mod.
package gosdk

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

// Options tune the middleware. The zero value is usable.
type Options struct {
	// Prefix is put before an MCP tool's name to make its pipeline name,
	// such as "mcp__github__".
	Prefix string
	// Session names the pipeline session of a call; nil means the id in
	// the context ([runtime.SessionIDFrom]), else the MCP session's id,
	// else "mcp". The session is started on first use
	// ([runtime.Pipeline.Session]) with IdleTimeout.
	Session func(ctx context.Context, mcpSession string) string
	// IdleTimeout ends an unused session; 0 means 30 minutes.
	IdleTimeout time.Duration
}

// ServerMiddleware returns a receiving middleware for [mcp.Server]:
//
//	server.AddReceivingMiddleware(gosdk.ServerMiddleware(p, gosdk.Options{}))
func ServerMiddleware(p *runtime.Pipeline, o Options) mcp.Middleware {
	g := &gate{p: p, o: o}
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			r, ok := req.(*mcp.CallToolRequest)
			if method != "tools/call" || !ok || r.Params == nil {
				return next(ctx, method, req)
			}
			sid := ""
			if r.Session != nil {
				sid = r.Session.ID()
			}
			return g.call(ctx, sid, r.Params.Name, r.Params.Arguments, r.Params.RequestState, func(input json.RawMessage, state string) (*mcp.CallToolResult, error) {
				params := *r.Params
				params.Arguments, params.RequestState = input, state
				r2 := *r
				r2.Params = &params
				res, err := next(ctx, method, &r2)
				tr, _ := res.(*mcp.CallToolResult)
				if err == nil && tr == nil {
					err = fmt.Errorf("gosdk: tools/call returned %T", res)
				}
				return tr, err
			})
		}
	}
}

// ClientMiddleware returns a sending middleware for [mcp.Client]: a call
// the pipeline refuses never reaches the server.
//
//	client.AddSendingMiddleware(gosdk.ClientMiddleware(p, gosdk.Options{Prefix: "mcp__github__"}))
func ClientMiddleware(p *runtime.Pipeline, o Options) mcp.Middleware {
	g := &gate{p: p, o: o}
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			params, ok := req.GetParams().(*mcp.CallToolParams)
			if method != "tools/call" || !ok || params == nil {
				return next(ctx, method, req)
			}
			args, err := json.Marshal(params.Arguments)
			if err != nil || params.Arguments == nil {
				args = json.RawMessage(`{}`)
			}
			cs, _ := req.GetSession().(*mcp.ClientSession)
			sid := ""
			if cs != nil {
				sid = cs.ID()
			}
			return g.call(ctx, sid, params.Name, args, params.RequestState, func(input json.RawMessage, state string) (*mcp.CallToolResult, error) {
				p2 := *params
				p2.Arguments, p2.RequestState = input, state
				res, err := next(ctx, method, &mcp.ClientRequest[mcp.Params]{Session: cs, Params: &p2})
				tr, _ := res.(*mcp.CallToolResult)
				if err == nil && tr == nil {
					err = fmt.Errorf("gosdk: tools/call returned %T", res)
				}
				return tr, err
			})
		}
	}
}

type gate struct {
	p      *runtime.Pipeline
	o      Options
	seq    atomic.Uint64
	rounds rounds
}

func (g *gate) session(ctx context.Context, mcpSession string) string {
	if g.o.Session != nil {
		return g.o.Session(ctx, mcpSession)
	}
	if id, ok := runtime.SessionIDFrom(ctx); ok {
		return id
	}
	if mcpSession != "" {
		return "mcp-" + mcpSession
	}
	return "mcp"
}

// call judges one call and runs it with the admitted input. state is the
// request state the call carries: a later round of a call whose tool
// asked the client something is not judged again (see rounds.go), and run
// is given the tool's own state back.
func (g *gate) call(ctx context.Context, mcpSession, tool string, args json.RawMessage, state string,
	run func(input json.RawMessage, state string) (*mcp.CallToolResult, error)) (*mcp.CallToolResult, error) {
	sid := g.session(ctx, mcpSession)
	idle := g.o.IdleTimeout
	if idle == 0 {
		idle = 30 * time.Minute
	}
	sess, err := g.p.Session(ctx, runtime.SessionOptions{ID: sid, IdleTimeout: idle})
	if err != nil {
		return Refused("denied: no session: " + err.Error()), nil
	}
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	}
	var call runtime.Call
	var v runtime.Verdict
	inner := state
	if rd, ok := g.rounds.take(state, sid, g.o.Prefix+tool, args); ok {
		call, v, inner = rd.call, rd.v, rd.inner
		if err := sess.Context().Err(); err != nil {
			// The session was cancelled while the call waited for its
			// next round: cancellation wins over the first round's Allow.
			v.Decision, v.Layer, v.Rule = permission.Deny, permission.LayerRuntime, runtime.RuleCancelled
			v.Reason = "session is cancelled: " + context.Cause(sess.Context()).Error()
			return Refused(g.p.After(ctx, call, v, runtime.Run{}).Output), nil
		}
	} else {
		call = runtime.Call{Session: sid, ID: fmt.Sprintf("mcp-%d", g.seq.Add(1)), Tool: g.o.Prefix + tool, Input: args}
		v = g.p.Check(ctx, call)
		if v.Decision != permission.Allow {
			if v.Decision == permission.Ask {
				v.Decision, v.Reason = permission.Deny, "needs the person's approval, and nobody can be asked here: "+v.Reason
			}
			return Refused(g.p.After(ctx, call, v, runtime.Run{}).Output), nil
		}
	}
	start := time.Now()
	res, err := run(v.Input, inner)
	if err == nil && res.InputRequests != nil {
		// The tool asks the client something: the call goes on in its
		// next round.
		next, perr := g.rounds.put(&round{sid: sid, tool: call.Tool, call: call, v: v, inner: res.RequestState}, args)
		if perr == nil {
			out := *res
			out.RequestState = next
			return &out, nil
		}
		v.Decision, v.Rule, v.Reason = permission.Deny, "mcp:rounds", perr.Error()+": "+v.Reason
		return Refused(g.p.After(ctx, call, v, runtime.Run{}).Output), nil
	}
	r := runtime.Run{Err: err, Elapsed: time.Since(start)}
	if err != nil {
		r.Output = err.Error()
	} else {
		r.Content = ToContent(res)
	}
	o := g.p.After(ctx, call, v, r)
	if err != nil {
		return nil, err
	}
	out := FromContent(o.Content)
	out.IsError = res.IsError
	return out, nil
}

// Refused is a tool error result whose text says why.
func Refused(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// ToContent turns an MCP result into the pipeline's content parts.
func ToContent(r *mcp.CallToolResult) []runtime.Content {
	parts := make([]runtime.Content, 0, len(r.Content)+1)
	for _, c := range r.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			parts = append(parts, runtime.Content{Type: "text", Text: c.Text})
		case *mcp.ImageContent:
			parts = append(parts, runtime.Content{Type: "image", Data: c.Data, MIMEType: c.MIMEType})
		case *mcp.AudioContent:
			parts = append(parts, runtime.Content{Type: "audio", Data: c.Data, MIMEType: c.MIMEType})
		case *mcp.ResourceLink:
			parts = append(parts, runtime.Content{Type: "resource_link", URI: c.URI, MIMEType: c.MIMEType})
		case *mcp.EmbeddedResource:
			if c.Resource != nil {
				parts = append(parts, runtime.Content{Type: "resource", URI: c.Resource.URI, MIMEType: c.Resource.MIMEType,
					Text: c.Resource.Text, Data: c.Resource.Blob})
			}
		default:
			b, _ := json.Marshal(c)
			parts = append(parts, runtime.Content{Type: "text", Text: string(b)})
		}
	}
	if r.StructuredContent != nil {
		if b, err := json.Marshal(r.StructuredContent); err == nil {
			parts = append(parts, runtime.Content{Type: "json", JSON: b})
		}
	}
	return parts
}

// FromContent turns content parts back into an MCP result.
func FromContent(parts []runtime.Content) *mcp.CallToolResult {
	r := &mcp.CallToolResult{Content: []mcp.Content{}}
	for _, c := range parts {
		switch c.Type {
		case "image":
			r.Content = append(r.Content, &mcp.ImageContent{Data: c.Data, MIMEType: c.MIMEType})
		case "audio":
			r.Content = append(r.Content, &mcp.AudioContent{Data: c.Data, MIMEType: c.MIMEType})
		case "resource_link":
			r.Content = append(r.Content, &mcp.ResourceLink{URI: c.URI, Name: c.URI, MIMEType: c.MIMEType})
		case "resource":
			r.Content = append(r.Content, &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
				URI: c.URI, MIMEType: c.MIMEType, Text: c.Text, Blob: c.Data}})
		case "json":
			r.StructuredContent = c.JSON
		default:
			r.Content = append(r.Content, &mcp.TextContent{Text: c.Text})
		}
	}
	return r
}

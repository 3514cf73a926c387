// Package eino puts a toolgate pipeline into github.com/cloudwego/eino's
// tools node: [Middleware] returns a compose.ToolMiddleware for
// ToolsNodeConfig.ToolCallMiddlewares that judges every tool call with
// [runtime.Pipeline.Check] before the tool runs and shapes its result with
// [runtime.Pipeline.After] (PostToolUse hooks, redaction, truncation,
// audit). A refused call's result is "denied (LAYER): REASON", the tool
// message the model reads next; no error, so the graph goes on.
//
//	compose.NewToolNode(ctx, &compose.ToolsNodeConfig{Tools: tools,
//		ToolCallMiddlewares: []compose.ToolMiddleware{eino.Middleware(p, eino.Options{})}})
//
// The tools must be registered on the pipeline under their names with
// their roles ([runtime.Pipeline.AddTools]); an unknown tool is denied. A
// streaming tool's output is read whole before After sees it, so that no
// unredacted chunk reaches the model. An Ask is a Deny with the reason.
//
// It is a module of its own, so eino never enters the library's go.mod.
package eino

import (
	"context"
	"io"
	"strings"
	"time"

	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

// Options tune the middleware.
type Options struct {
	// Session is the session of calls whose context names none
	// ([runtime.WithSessionID]); empty means "eino". It is started on first
	// use with IdleTimeout.
	Session string
	// IdleTimeout ends an unused session; 0 means 30 minutes.
	IdleTimeout time.Duration
}

// Middleware returns the tool-call middleware.
func Middleware(p *runtime.Pipeline, o Options) compose.ToolMiddleware {
	if o.Session == "" {
		o.Session = "eino"
	}
	if o.IdleTimeout == 0 {
		o.IdleTimeout = 30 * time.Minute
	}
	g := &gate{p: p, o: o}
	return compose.ToolMiddleware{
		Invokable: func(next compose.InvokableToolEndpoint) compose.InvokableToolEndpoint {
			return func(ctx context.Context, in *compose.ToolInput) (*compose.ToolOutput, error) {
				return g.run(ctx, in, func(in *compose.ToolInput) (string, error) {
					out, err := next(ctx, in)
					if err != nil || out == nil {
						return "", err
					}
					return out.Result, nil
				})
			}
		},
		Streamable: func(next compose.StreamableToolEndpoint) compose.StreamableToolEndpoint {
			return func(ctx context.Context, in *compose.ToolInput) (*compose.StreamToolOutput, error) {
				out, err := g.run(ctx, in, func(in *compose.ToolInput) (string, error) {
					s, err := next(ctx, in)
					if err != nil || s == nil || s.Result == nil {
						return "", err
					}
					defer s.Result.Close()
					var b strings.Builder
					for {
						chunk, err := s.Result.Recv()
						if err == io.EOF {
							return b.String(), nil
						}
						if err != nil {
							return b.String(), err
						}
						b.WriteString(chunk)
					}
				})
				if err != nil {
					return nil, err
				}
				return &compose.StreamToolOutput{Result: schema.StreamReaderFromArray([]string{out.Result})}, nil
			}
		},
	}
}

type gate struct {
	p *runtime.Pipeline
	o Options
}

func (g *gate) run(ctx context.Context, in *compose.ToolInput, next func(*compose.ToolInput) (string, error)) (*compose.ToolOutput, error) {
	sid, ok := runtime.SessionIDFrom(ctx)
	if !ok {
		sid = g.o.Session
	}
	if _, err := g.p.Session(ctx, runtime.SessionOptions{ID: sid, IdleTimeout: g.o.IdleTimeout}); err != nil {
		return &compose.ToolOutput{Result: "denied: no session: " + err.Error()}, nil
	}
	args := in.Arguments
	if strings.TrimSpace(args) == "" {
		args = "{}"
	}
	call := runtime.Call{Session: sid, ID: in.CallID, Tool: in.Name, Input: []byte(args)}
	v := g.p.Check(ctx, call)
	if v.Decision != permission.Allow {
		if v.Decision == permission.Ask {
			v.Decision, v.Reason = permission.Deny, "needs the person's approval, and nobody can be asked here: "+v.Reason
		}
		return &compose.ToolOutput{Result: g.p.After(ctx, call, v, runtime.Run{}).Output}, nil
	}
	admitted := *in
	admitted.Arguments = string(v.Input)
	start := time.Now()
	out, err := next(&admitted)
	o := g.p.After(ctx, call, v, runtime.Run{Output: out, Err: err, Elapsed: time.Since(start)})
	if err != nil {
		return nil, err
	}
	return &compose.ToolOutput{Result: o.Output}, nil
}

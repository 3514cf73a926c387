// Package eino puts a toolgate pipeline into github.com/cloudwego/eino's
// tools node. Every tool call is judged with [runtime.Pipeline.Check]
// before the tool runs, and its result shaped with [runtime.Pipeline.After]
// (PostToolUse hooks, redaction, truncation, audit). A refused call's
// result is "denied (LAYER): REASON", the tool message the model reads
// next; no error, so the graph goes on.
//
// eino calls a tool along several paths, and [Configure] covers them all:
//
//	conf := &compose.ToolsNodeConfig{Tools: tools, UnknownToolsHandler: onUnknown}
//	eino.Configure(p, conf, eino.Options{})
//	node, err := compose.NewToolNode(ctx, conf)
//
// It adds [Middleware] to conf.ToolCallMiddlewares, last, so that what it
// judges is what the tool receives: the middleware covers invokable and
// streamable tools and, since eino 0.7, the enhanced (multimodal) ones,
// which eino runs through their own middlewares only (EnhancedInvokable,
// EnhancedStreamable). And it wraps conf.UnknownToolsHandler, which eino
// runs outside every middleware, with [UnknownToolsHandler]. A host that
// builds the node's configuration itself (an adk agent's ToolsConfig,
// react.AgentConfig's ToolsConfig) passes it to Configure the same way.
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
	"fmt"
	"io"
	"strings"
	"sync/atomic"
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

// Configure makes every tool call of a tools node built from conf pass
// through p: it appends [Middleware] to conf.ToolCallMiddlewares and wraps
// conf.UnknownToolsHandler, if set, with [UnknownToolsHandler]. Call it
// once per configuration, after adding your own middlewares and handler
// and before compose.NewToolNode: a middleware added after it runs
// between the judgement and the tool, and could change what runs.
func Configure(p *runtime.Pipeline, conf *compose.ToolsNodeConfig, o Options) {
	g := newGate(p, o)
	conf.ToolCallMiddlewares = append(conf.ToolCallMiddlewares, g.middleware())
	if conf.UnknownToolsHandler != nil {
		conf.UnknownToolsHandler = g.unknown(conf.UnknownToolsHandler)
	}
}

// Middleware returns the tool-call middleware, for every kind of tool:
// invokable, streamable, enhanced invokable and enhanced streamable. Put
// it last in ToolCallMiddlewares, nearest the tool. eino runs the
// UnknownToolsHandler outside every middleware: wrap it with
// [UnknownToolsHandler], or use [Configure], which does both.
func Middleware(p *runtime.Pipeline, o Options) compose.ToolMiddleware {
	return newGate(p, o).middleware()
}

// UnknownToolsHandler wraps h, a ToolsNodeConfig.UnknownToolsHandler,
// so that the calls eino gives it (those naming a tool the node does not
// hold) are judged like any other: h runs only for a call the pipeline
// allows, with the admitted input, and the model reads the reason of a
// refusal.
func UnknownToolsHandler(p *runtime.Pipeline, o Options, h func(ctx context.Context, name, input string) (string, error)) func(ctx context.Context, name, input string) (string, error) {
	return newGate(p, o).unknown(h)
}

type gate struct {
	p   *runtime.Pipeline
	o   Options
	seq atomic.Uint64
}

func newGate(p *runtime.Pipeline, o Options) *gate {
	if o.Session == "" {
		o.Session = "eino"
	}
	if o.IdleTimeout == 0 {
		o.IdleTimeout = 30 * time.Minute
	}
	return &gate{p: p, o: o}
}

func (g *gate) middleware() compose.ToolMiddleware {
	return compose.ToolMiddleware{
		Invokable: func(next compose.InvokableToolEndpoint) compose.InvokableToolEndpoint {
			return func(ctx context.Context, in *compose.ToolInput) (*compose.ToolOutput, error) {
				out, err := g.text(ctx, in, func(in *compose.ToolInput) (string, error) {
					o, err := next(ctx, in)
					if err != nil || o == nil {
						return "", err
					}
					return o.Result, nil
				})
				if err != nil {
					return nil, err
				}
				return &compose.ToolOutput{Result: out}, nil
			}
		},
		Streamable: func(next compose.StreamableToolEndpoint) compose.StreamableToolEndpoint {
			return func(ctx context.Context, in *compose.ToolInput) (*compose.StreamToolOutput, error) {
				out, err := g.text(ctx, in, func(in *compose.ToolInput) (string, error) {
					s, err := next(ctx, in)
					if err != nil || s == nil || s.Result == nil {
						return "", err
					}
					return readAll(s.Result, func(b *strings.Builder, chunk string) { b.WriteString(chunk) })
				})
				if err != nil {
					return nil, err
				}
				return &compose.StreamToolOutput{Result: schema.StreamReaderFromArray([]string{out})}, nil
			}
		},
		EnhancedInvokable: func(next compose.EnhancedInvokableToolEndpoint) compose.EnhancedInvokableToolEndpoint {
			return func(ctx context.Context, in *compose.ToolInput) (*compose.EnhancedInvokableToolOutput, error) {
				out, err := g.parts(ctx, in, func(in *compose.ToolInput) (*schema.ToolResult, error) {
					o, err := next(ctx, in)
					if err != nil || o == nil {
						return nil, err
					}
					return o.Result, nil
				})
				if err != nil {
					return nil, err
				}
				return &compose.EnhancedInvokableToolOutput{Result: out}, nil
			}
		},
		EnhancedStreamable: func(next compose.EnhancedStreamableToolEndpoint) compose.EnhancedStreamableToolEndpoint {
			return func(ctx context.Context, in *compose.ToolInput) (*compose.EnhancedStreamableToolOutput, error) {
				out, err := g.parts(ctx, in, func(in *compose.ToolInput) (*schema.ToolResult, error) {
					s, err := next(ctx, in)
					if err != nil || s == nil || s.Result == nil {
						return nil, err
					}
					r := &schema.ToolResult{}
					defer s.Result.Close()
					for {
						chunk, err := s.Result.Recv()
						if err == io.EOF {
							return r, nil
						}
						if err != nil {
							return r, err
						}
						if chunk != nil {
							r.Parts = append(r.Parts, chunk.Parts...)
						}
					}
				})
				if err != nil {
					return nil, err
				}
				return &compose.EnhancedStreamableToolOutput{Result: schema.StreamReaderFromArray([]*schema.ToolResult{out})}, nil
			}
		},
	}
}

func (g *gate) unknown(h func(ctx context.Context, name, input string) (string, error)) func(ctx context.Context, name, input string) (string, error) {
	return func(ctx context.Context, name, input string) (string, error) {
		in := &compose.ToolInput{Name: name, Arguments: input, CallID: compose.GetToolCallID(ctx)}
		return g.text(ctx, in, func(in *compose.ToolInput) (string, error) {
			return h(ctx, in.Name, in.Arguments)
		})
	}
}

// readAll reads a stream whole into a text.
func readAll[T any](s *schema.StreamReader[T], add func(*strings.Builder, T)) (string, error) {
	defer s.Close()
	var b strings.Builder
	for {
		chunk, err := s.Recv()
		if err == io.EOF {
			return b.String(), nil
		}
		if err != nil {
			return b.String(), err
		}
		add(&b, chunk)
	}
}

// check judges one call. It returns the call, its verdict and, when the
// call may not run, the text the model reads instead.
func (g *gate) check(ctx context.Context, in *compose.ToolInput) (runtime.Call, runtime.Verdict, string, bool) {
	sid, ok := runtime.SessionIDFrom(ctx)
	if !ok {
		sid = g.o.Session
	}
	id := in.CallID
	if id == "" {
		id = fmt.Sprintf("eino-%d", g.seq.Add(1))
	}
	args := in.Arguments
	if strings.TrimSpace(args) == "" {
		args = "{}"
	}
	call := runtime.Call{Session: sid, ID: id, Tool: in.Name, Input: []byte(args)}
	if _, err := g.p.Session(ctx, runtime.SessionOptions{ID: sid, IdleTimeout: g.o.IdleTimeout}); err != nil {
		return call, runtime.Verdict{}, "denied: no session: " + err.Error(), false
	}
	v := g.p.Check(ctx, call)
	if v.Decision != permission.Allow {
		if v.Decision == permission.Ask {
			v.Decision, v.Reason = permission.Deny, "needs the person's approval, and nobody can be asked here: "+v.Reason
		}
		return call, v, g.p.After(ctx, call, v, runtime.Run{}).Output, false
	}
	return call, v, "", true
}

// text runs a tool whose result is text.
func (g *gate) text(ctx context.Context, in *compose.ToolInput, next func(*compose.ToolInput) (string, error)) (string, error) {
	call, v, refusal, ok := g.check(ctx, in)
	if !ok {
		return refusal, nil
	}
	admitted := *in
	admitted.Arguments = string(v.Input)
	start := time.Now()
	out, err := next(&admitted)
	o := g.p.After(ctx, call, v, runtime.Run{Output: out, Err: err, Elapsed: time.Since(start)})
	if err != nil {
		return "", err
	}
	return o.Output, nil
}

// parts runs an enhanced tool, whose result is multimodal parts: the
// PostToolUse hooks see its text parts, and the other parts pass through.
func (g *gate) parts(ctx context.Context, in *compose.ToolInput, next func(*compose.ToolInput) (*schema.ToolResult, error)) (*schema.ToolResult, error) {
	call, v, refusal, ok := g.check(ctx, in)
	if !ok {
		return textResult(refusal), nil
	}
	admitted := *in
	admitted.Arguments = string(v.Input)
	start := time.Now()
	res, err := next(&admitted)
	run := runtime.Run{Err: err, Elapsed: time.Since(start), Content: toContent(res)}
	if err != nil {
		run.Output = err.Error()
	}
	o := g.p.After(ctx, call, v, run)
	if err != nil {
		return nil, err
	}
	return fromContent(o.Content, res), nil
}

func textResult(s string) *schema.ToolResult {
	return &schema.ToolResult{Parts: []schema.ToolOutputPart{{Type: schema.ToolPartTypeText, Text: s}}}
}

// toContent gives the pipeline a result's parts: text parts as text, the
// others as media the hooks do not read.
func toContent(r *schema.ToolResult) []runtime.Content {
	parts := []runtime.Content{}
	if r == nil {
		return parts
	}
	for _, p := range r.Parts {
		if p.Type == schema.ToolPartTypeText {
			parts = append(parts, runtime.Content{Type: "text", Text: p.Text})
			continue
		}
		parts = append(parts, runtime.Content{Type: string(p.Type)})
	}
	return parts
}

// fromContent builds the result the model reads from the parts After
// returned: text parts from their text, the others (which After passes
// through in order) from the tool's own parts.
func fromContent(parts []runtime.Content, orig *schema.ToolResult) *schema.ToolResult {
	var media []schema.ToolOutputPart
	if orig != nil {
		for _, p := range orig.Parts {
			if p.Type != schema.ToolPartTypeText {
				media = append(media, p)
			}
		}
	}
	out := &schema.ToolResult{}
	for _, c := range parts {
		if c.Type == "text" || c.Text != "" || c.JSON != nil {
			text := c.Text
			if c.JSON != nil {
				text = string(c.JSON)
			}
			out.Parts = append(out.Parts, schema.ToolOutputPart{Type: schema.ToolPartTypeText, Text: text})
			continue
		}
		if len(media) > 0 {
			out.Parts = append(out.Parts, media[0])
			media = media[1:]
		}
	}
	return out
}

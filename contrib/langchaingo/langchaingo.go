// Package langchaingo puts a toolgate pipeline around
// github.com/tmc/langchaingo tools. langchaingo's callbacks only observe,
// so [Wrap] wraps the tool itself: every Call is judged by
// [runtime.Pipeline.Check] before the tool runs, and its output goes
// through [runtime.Pipeline.After] (PostToolUse hooks, redaction,
// truncation, audit). A refused call returns "denied (LAYER): REASON" as
// the tool's observation, so the model sees why, and a nil error, so the
// agent loop goes on.
//
// A langchaingo tool takes one string; the pipeline sees it as the input
// {"input": "..."}, and the roles say what it is (Traits.CommandFields
// ["input"] for a shell tool, PathFields for a file reader). The session is
// the one in the context ([runtime.WithSessionID]), else Options.Session.
//
// It is a module of its own, so langchaingo never enters the library's
// go.mod.
package langchaingo

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/tmc/langchaingo/tools"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/tool"
)

// Options tune a wrapped tool.
type Options struct {
	// Traits say what the tool's input is; its field is "input".
	Traits tool.Traits
	// Session is the session of calls whose context names none; empty
	// means "langchaingo". It is started on first use with IdleTimeout.
	Session string
	// IdleTimeout ends an unused session; 0 means 30 minutes.
	IdleTimeout time.Duration
}

// Wrap registers t on p under its name with o.Traits and returns the tool
// that runs it through p.
func Wrap(p *runtime.Pipeline, t tools.Tool, o Options) (tools.Tool, error) {
	if err := p.AddTools(&tool.Descriptor{ToolName: t.Name(), Base: o.Traits}); err != nil {
		return nil, err
	}
	if o.Session == "" {
		o.Session = "langchaingo"
	}
	if o.IdleTimeout == 0 {
		o.IdleTimeout = 30 * time.Minute
	}
	return &gated{Tool: t, p: p, o: o}, nil
}

type gated struct {
	tools.Tool
	p   *runtime.Pipeline
	o   Options
	seq atomic.Uint64
}

// Call judges the call, runs the tool if it is allowed, and returns what
// the model should see.
func (g *gated) Call(ctx context.Context, input string) (string, error) {
	sid, ok := runtime.SessionIDFrom(ctx)
	if !ok {
		sid = g.o.Session
	}
	if _, err := g.p.Session(ctx, runtime.SessionOptions{ID: sid, IdleTimeout: g.o.IdleTimeout}); err != nil {
		return "denied: no session: " + err.Error(), nil
	}
	raw, _ := json.Marshal(map[string]string{"input": input})
	call := runtime.Call{Session: sid, ID: fmt.Sprintf("lc-%d", g.seq.Add(1)), Tool: g.Name(), Input: raw}
	v := g.p.Check(ctx, call)
	if v.Decision != permission.Allow {
		if v.Decision == permission.Ask {
			v.Decision, v.Reason = permission.Deny, "needs the person's approval, and nobody can be asked here: "+v.Reason
		}
		return g.p.After(ctx, call, v, runtime.Run{}).Output, nil
	}
	var admitted struct {
		Input string `json:"input"`
	}
	if err := json.Unmarshal(v.Input, &admitted); err != nil {
		return "denied: the admitted input has no string \"input\"", nil
	}
	start := time.Now()
	out, err := g.Tool.Call(ctx, admitted.Input)
	o := g.p.After(ctx, call, v, runtime.Run{Output: out, Err: err, Elapsed: time.Since(start)})
	return o.Output, err
}

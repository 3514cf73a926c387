package mcpgateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgate/toolgate/contrib/gosdk"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

// Options tune a [Gateway]. The zero value is usable.
//
// Each client session is a pipeline session ([runtime.Pipeline.Session]),
// which layer 7 bounds. An MCP server sees no model turns, so the gateway
// never begins a step: the step limit (Limits.MaxSteps) never denies its
// calls, and the token limits, which count what the model reads, do not
// apply. What bounds a session is the repeat and cycle limits
// (Limits.RepeatLimit identical calls in a row, a short cycle come round
// Limits.CycleRepeats times), counted per tools/call (the question and
// answer of an elicitation are one call, not two), and the idle timeout.
type Options struct {
	// IdleTimeout ends a client's session after that long without a call;
	// 0 means 30 minutes.
	IdleTimeout time.Duration
	// AskTimeout bounds an elicitation, from the question to the answer;
	// 0 means 2 minutes. No answer in time is a Deny with the reason
	// (rule "mcp:ask-timeout").
	AskTimeout time.Duration
}

// Gateway is an MCP server in front of the configured servers. It is safe
// for concurrent use by many client sessions.
type Gateway struct {
	p        *runtime.Pipeline
	opts     Options
	server   *mcp.Server
	deny     []permission.Rule // the Deny rules that cover a tool whole
	mu       sync.Mutex        // guards upstream, skipped and each upstream's maps
	upstream []*upstream
	seq      atomic.Uint64
	ids      sync.Map // *mcp.ServerSession → *client
	skipped  []error
	asks     questions
}

// New connects to every server of cfg, lists their tools, registers them
// on p ([runtime.Pipeline.AddTools]) as mcp__SERVER__TOOL with their roles,
// and builds the MCP server that fronts them. A server that cannot be
// reached is an error; what was connected is closed again. When a server
// says its tools changed, the gateway lists them again: new tools are
// registered and served, tools gone are no longer served (a tool keeps the
// roles it was first registered with).
func New(ctx context.Context, p *runtime.Pipeline, cfg *Config, opts Options) (*Gateway, error) {
	if opts.IdleTimeout < 0 || opts.AskTimeout < 0 {
		return nil, errors.New("mcpgateway: negative IdleTimeout or AskTimeout")
	}
	if opts.IdleTimeout == 0 {
		opts.IdleTimeout = 30 * time.Minute
	}
	if opts.AskTimeout == 0 {
		opts.AskTimeout = 2 * time.Minute
	}
	g := &Gateway{p: p, opts: opts, asks: questions{m: map[string]*pending{}},
		server: mcp.NewServer(&mcp.Implementation{Name: "toolgate", Version: "v1"}, nil),
		deny:   denyRules(p.Checker().Config())}
	for _, name := range slices.Sorted(mapKeys(cfg.Servers)) {
		u := &upstream{name: name, cfg: cfg.Servers[name], served: map[string]bool{}, known: map[string]bool{}}
		cs, err := g.connect(ctx, u)
		if err != nil {
			g.Close()
			return nil, fmt.Errorf("mcpgateway: server %q: %w", name, err)
		}
		g.mu.Lock()
		u.cs = cs
		g.upstream = append(g.upstream, u)
		g.mu.Unlock()
		if err := g.sync(ctx, u); err != nil {
			g.Close()
			return nil, err
		}
	}
	return g, nil
}

// upstream is one configured server and the tools of it the gateway
// serves.
type upstream struct {
	name   string
	cfg    Server
	cs     *mcp.ClientSession // set once connected, under Gateway.mu
	served map[string]bool    // its tools served now, by their own names
	known  map[string]bool    // its tools registered on the pipeline
}

// sync lists u's tools and serves what it lists: new tools are registered
// on the pipeline and served, tools no longer listed are removed.
func (g *Gateway) sync(ctx context.Context, u *upstream) error {
	g.mu.Lock()
	cs := u.cs
	g.mu.Unlock()
	if cs == nil {
		return nil // the first sync, after connecting, lists them
	}
	var tools []*mcp.Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return fmt.Errorf("mcpgateway: server %q: listing tools: %w", u.name, err)
		}
		tools = append(tools, t)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	listed := map[string]bool{}
	for _, t := range tools {
		listed[t.Name] = true
		if u.served[t.Name] {
			continue
		}
		full := "mcp__" + u.name + "__" + t.Name
		if !u.known[t.Name] {
			var override *Roles
			if r, ok := u.cfg.Roles[t.Name]; ok {
				override = &r
			}
			// A tool the pipeline cannot hold (a name it refuses, one
			// already taken) is not served: nothing could judge its calls.
			if err := g.p.AddTools(descriptor(full, t, override)); err != nil {
				g.skipped = append(g.skipped, err)
				continue
			}
			u.known[t.Name] = true
		}
		if covered(g.deny, full) {
			continue // a Deny rule covers every call: not listed
		}
		front := *t
		front.Name = full
		g.server.AddTool(&front, g.handler(cs, full, t.Name))
		u.served[t.Name] = true
	}
	var gone []string
	for _, name := range slices.Sorted(mapKeys(u.served)) {
		if !listed[name] {
			gone = append(gone, "mcp__"+u.name+"__"+name)
			delete(u.served, name)
		}
	}
	if len(gone) > 0 {
		g.server.RemoveTools(gone...)
	}
	return nil
}

// resync is sync on a server's notice that its tools changed, bounded in
// time; a failure is reported by [Gateway.Skipped].
func (g *Gateway) resync(u *upstream) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := g.sync(ctx, u); err != nil {
		g.mu.Lock()
		g.skipped = append(g.skipped, err)
		g.mu.Unlock()
	}
}

// Server returns the MCP server to run on a transport: [mcp.StdioTransport],
// or behind [mcp.NewStreamableHTTPHandler].
func (g *Gateway) Server() *mcp.Server { return g.server }

// Skipped says which upstream tools are not served, and why: tools whose
// names the pipeline refuses or already holds, and listings that failed
// after a server said its tools changed.
func (g *Gateway) Skipped() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return errors.Join(g.skipped...)
}

// Close closes the connections to the upstream servers. Questions still
// waiting for an answer are dropped.
func (g *Gateway) Close() error {
	g.asks.mu.Lock()
	for state, q := range g.asks.m {
		q.timer.Stop()
		delete(g.asks.m, state)
	}
	g.asks.mu.Unlock()
	g.mu.Lock()
	ups := slices.Clone(g.upstream)
	g.mu.Unlock()
	var errs []error
	for _, u := range ups {
		errs = append(errs, u.cs.Close())
	}
	return errors.Join(errs...)
}

func (g *Gateway) connect(ctx context.Context, u *upstream) (*mcp.ClientSession, error) {
	s := u.cfg
	var t mcp.Transport
	if s.Type == "http" {
		t = &mcp.StreamableClientTransport{Endpoint: s.URL}
	} else {
		cmd := exec.Command(s.Command, s.Args...)
		cmd.Env = os.Environ()
		for _, k := range slices.Sorted(mapKeys(s.Env)) {
			cmd.Env = append(cmd.Env, k+"="+s.Env[k])
		}
		cmd.Stderr = os.Stderr
		t = &mcp.CommandTransport{Command: cmd}
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "toolgate", Version: "v1"}, &mcp.ClientOptions{
		// Not in the notification's goroutine: listing is a request on
		// the same connection.
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { go g.resync(u) },
	})
	return c.Connect(ctx, t, nil)
}

// denyRules returns the Deny rules of cfg that cover a tool whole (no
// specifier): those given directly and those of the settings files.
func denyRules(cfg permission.Config) []permission.Rule {
	rules := slices.Clone(cfg.Deny)
	for _, r := range cfg.Rules {
		if r.Decision == permission.Deny {
			rules = append(rules, r.Rule)
		}
	}
	var out []permission.Rule
	for _, s := range rules {
		if r, err := permission.ParseRule(s); err == nil && r.Specifier == "" {
			out = append(out, r)
		}
	}
	return out
}

func covered(deny []permission.Rule, tool string) bool {
	return slices.ContainsFunc(deny, func(r permission.Rule) bool { return r.CoversTool(tool) })
}

// client is what the gateway knows of one client session: the id of its
// pipeline session, and that session once started.
type client struct {
	id   string
	sess atomic.Pointer[runtime.Session]
}

// clientOf returns the client of an MCP session, named by its MCP session
// id or, where it has none (stdio), by one the gateway assigns. When the
// MCP session ends, its pipeline session ends too and the gateway forgets
// it.
func (g *Gateway) clientOf(ss *mcp.ServerSession) *client {
	if c, ok := g.ids.Load(ss); ok {
		return c.(*client)
	}
	c := &client{id: fmt.Sprintf("mcp-local-%d", g.seq.Add(1))}
	if id := ss.ID(); id != "" {
		c.id = "mcp-" + id
	}
	got, loaded := g.ids.LoadOrStore(ss, c)
	if !loaded {
		go func() {
			_ = ss.Wait()
			g.ids.Delete(ss)
			if s := c.sess.Load(); s != nil {
				s.End("mcp-session-closed", "", nil)
			}
		}()
	}
	return got.(*client)
}

func (g *Gateway) handler(up *mcp.ClientSession, full, name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		c := g.clientOf(req.Session)
		sid := c.id
		sess, err := g.p.Session(ctx, runtime.SessionOptions{ID: sid, IdleTimeout: g.opts.IdleTimeout})
		if err != nil {
			return gosdk.Refused("denied: no session: " + err.Error()), nil
		}
		c.sess.Store(sess)
		var call runtime.Call
		var v runtime.Verdict
		if a, ok := g.answered(req, sid, full); ok {
			// The second round of a call whose Ask was put to the
			// person: judged once, in the first.
			if a.refusal != "" {
				return gosdk.Refused(a.refusal), nil
			}
			call, v = a.call, a.v
		} else {
			call = runtime.Call{Session: sid, ID: fmt.Sprintf("call-%d", g.seq.Add(1)), Tool: full, Input: args(req)}
			v = g.p.Check(ctx, call)
			if v.Decision == permission.Ask {
				a := g.ask(ctx, req, call, v)
				if a.result != nil {
					return a.result, nil
				}
				v = a.v
			}
		}
		if err := sess.Context().Err(); err != nil && v.Decision == permission.Allow {
			// The session was cancelled while the person was asked (in
			// this request or between two rounds): cancellation wins.
			v = denied(v, runtime.RuleCancelled, "session is cancelled: "+context.Cause(sess.Context()).Error())
			v.Layer = permission.LayerRuntime
		}
		if v.Decision != permission.Allow {
			o := g.p.After(ctx, call, v, runtime.Run{})
			return gosdk.Refused(o.Output), nil
		}
		start := time.Now()
		res, err := up.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(v.Input)})
		run := runtime.Run{Err: err, Elapsed: time.Since(start)}
		if err != nil {
			run.Output = "the server failed: " + err.Error()
		} else {
			run.Content = gosdk.ToContent(res)
		}
		o := g.p.After(ctx, call, v, run)
		out := gosdk.FromContent(o.Content)
		if o.Content == nil {
			out = &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: o.Output}}}
		}
		out.IsError = err != nil || (res != nil && res.IsError)
		return out, nil
	}
}

// args returns the call's arguments, {} when there are none.
func args(req *mcp.CallToolRequest) json.RawMessage {
	if len(req.Params.Arguments) == 0 {
		return json.RawMessage(`{}`)
	}
	return req.Params.Arguments
}

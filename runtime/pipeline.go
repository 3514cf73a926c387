package runtime

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/internal/jsonin"
	"github.com/toolgate/toolgate/internal/sysread"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime/approval"
	"github.com/toolgate/toolgate/runtime/output"
	"github.com/toolgate/toolgate/runtime/store"
	"github.com/toolgate/toolgate/runtime/tool"
	"github.com/toolgate/toolgate/sandbox"
)

// DefaultMaxInputBytes bounds a call's input.
const DefaultMaxInputBytes = 1 << 20

// Config configures a [Pipeline]. Tools and Checker are required; a nil
// Sandbox or Guard is not an error, but then every path or shell command
// a tool declares is denied (fail closed).
type Config struct {
	// Tools are the tools sessions may call.
	Tools *tool.Registry
	// Checker holds the permission rules (layer 2).
	Checker *permission.Checker
	// Hooks are the lifecycle hooks (layer 3); nil means none.
	Hooks *hooks.Set
	// Sandbox confines paths (layer 4).
	Sandbox *sandbox.Sandbox
	// Guard judges shell commands (layer 5).
	Guard *bashguard.Guard
	// Limits are layer 7's limits for every session.
	Limits Limits
	// Asker asks a person; nil means Check returns Ask to the caller.
	Asker approval.Asker
	// AskTimeout bounds a question; 0 means approval.DefaultAskTimeout.
	AskTimeout time.Duration
	// ParkTimeout is how long a parked approval (an Ask without an
	// Asker) waits for a person before it expires, a Deny; 0 means
	// AskTimeout when that is set, else [DefaultParkTimeout] (10
	// minutes).
	ParkTimeout time.Duration
	// MaxParked and MaxParkedPerSession bound the approvals this pipeline
	// keeps waiting for a person (an Ask without an Asker): at either
	// bound, the expired ones are forgotten first, then the oldest waiting
	// one is denied to make room ([RuleParkedFull], its reason naming the
	// bound and how many were pending) and the new call is parked. 0 means
	// DefaultMaxParked and DefaultMaxParkedPerSession.
	MaxParked, MaxParkedPerSession int
	// Output shapes tool outputs in After.
	Output output.Shaper
	// MaxInputBytes bounds a call's input; 0 means DefaultMaxInputBytes.
	MaxInputBytes int
	// AgentName names the top-level agent in hook events and audit rows;
	// empty means "lead".
	AgentName string
	// Store keeps grants, pending approvals, cancellations and layer-7
	// counters; nil means a [store.Memory] of the pipeline's own. Share a
	// store between replicas to share that state. Every call of it ends by
	// a deadline: [store.DefaultTimeout], or the bound of a [store.Bounded].
	Store store.Store
	// Project and User are the keys of project- and user-scoped grants;
	// empty offers no such scope.
	Project, User string
}

// Pipeline runs every layer, in the order of the design, around each tool
// call of each session: [Pipeline.Check] before the call, [Pipeline.After]
// after it. It is safe for concurrent use by many sessions and goroutines.
type Pipeline struct {
	cfg      Config
	sessions *sessions
	mu       sync.Mutex
	agents   map[string]*agent
	// dir is the workspace's directory when [Open] built the pipeline:
	// the cwd of sessions that name none.
	dir      string
	warnings []string // what Open found that can never match (see Warnings)
	// owned are what [Open] built for the pipeline and Close releases
	// (the sandbox's and the guard's inotify instances).
	owned []io.Closer
	// reads are where a file tool's read outside the roots needs no
	// person: the guard's system roots and Go module cache (readsOf).
	reads sysread.Places
	st    *stores
	// tools is the live tool set: cfg.Tools plus what [Pipeline.AddTools]
	// added since.
	tools atomic.Pointer[tool.Registry]
	// starting serialises the start step of Session.
	starting sync.Mutex
	// auto is the checker of auto-mode sessions: cfg.Checker without the
	// broad allow rules auto mode sets aside, built on first use.
	autoOnce sync.Once
	auto     *permission.Checker
	autoErr  error
}

// autoChecker returns the checker of sessions in auto mode: the
// configuration without the allow rules Claude Code sets aside on entering
// auto mode ([permission.AutoModeConfig]), whose calls then ask.
func (p *Pipeline) autoChecker() (*permission.Checker, error) {
	p.autoOnce.Do(func() {
		cfg, _ := permission.AutoModeConfig(p.cfg.Checker.Config())
		p.auto, p.autoErr = permission.New(cfg)
	})
	return p.auto, p.autoErr
}

// New checks cfg and builds a Pipeline. A bad configuration is an error
// here, never a panic later.
func New(cfg Config) (*Pipeline, error) {
	var errs []error
	if cfg.Tools == nil || cfg.Tools.Len() == 0 {
		errs = append(errs, errors.New("runtime: Config.Tools is empty"))
	}
	if cfg.Checker == nil {
		errs = append(errs, errors.New("runtime: Config.Checker is nil"))
	}
	if cfg.AskTimeout < 0 || cfg.ParkTimeout < 0 || cfg.MaxInputBytes < 0 || cfg.MaxParked < 0 || cfg.MaxParkedPerSession < 0 {
		errs = append(errs, errors.New("runtime: negative AskTimeout, ParkTimeout, MaxInputBytes, MaxParked or MaxParkedPerSession"))
	}
	if err := cfg.Limits.validate(); err != nil {
		errs = append(errs, err)
	}
	if err := cfg.Output.Validate(); err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	// The pipeline keeps its own copy of the per-tool limits, validated
	// once here: After shapes outputs without validating them again.
	cfg.Output.PerTool = maps.Clone(cfg.Output.PerTool)
	if cfg.ParkTimeout == 0 {
		cfg.ParkTimeout = cmp.Or(cfg.AskTimeout, DefaultParkTimeout)
	}
	if cfg.AskTimeout == 0 {
		cfg.AskTimeout = approval.DefaultAskTimeout
	}
	if cfg.MaxInputBytes == 0 {
		cfg.MaxInputBytes = DefaultMaxInputBytes
	}
	if cfg.MaxParked == 0 {
		cfg.MaxParked = DefaultMaxParked
	}
	if cfg.MaxParkedPerSession == 0 {
		cfg.MaxParkedPerSession = DefaultMaxParkedPerSession
	}
	if cfg.AgentName == "" {
		cfg.AgentName = "lead"
	}
	if cfg.Hooks == nil {
		cfg.Hooks = hooks.NewSet()
	}
	p := &Pipeline{cfg: cfg, agents: make(map[string]*agent), reads: readsOf(cfg.Guard)}
	p.tools.Store(cfg.Tools)
	p.sessions = newSessions(cfg.Limits)
	p.openStore()
	return p, nil
}

// SessionOptions describe a session at its start.
type SessionOptions struct {
	// ID identifies the session: 1 to 256 bytes, unique among live ones.
	ID string
	// Mode is the session's permission mode; nil means the
	// configuration's ([permission.Config.Mode]: for a pipeline [Open]
	// built, the settings' defaultMode, else ModeDefault). A mode the
	// configuration disables is an error.
	Mode *permission.Mode
	// Cwd is the session's working directory, passed to hooks; empty
	// means the workspace's directory for a pipeline [Open] built.
	Cwd string
	// IdleTimeout, if positive, ends the session (reason "idle") once it
	// has been that long since a Check, an After or a [Pipeline.Session]
	// last named it; a call that runs longer than that may find its
	// session ended.
	IdleTimeout time.Duration
	// Child, if not nil, starts the session as a child (subagent) session
	// of a live parent, which it can only narrow; Mode must then be left
	// zero and Cwd empty or the parent's.
	Child *Child
}

// agent is the pipeline's per-session state around layer 7's Session.
type agent struct {
	p     *Pipeline
	l7    *Session
	rules *permission.SessionRules
	mode  permission.Mode
	// checker holds the configuration's rules for this session: the
	// pipeline's, or in auto mode those without the broad allow rules.
	checker *permission.Checker
	name    string
	cwd     string
	silent  bool
	// tools is a child's restricted tool set; nil means the pipeline's
	// live one (see toolset).
	tools *tool.Registry
	// idle ends the session after IdleTimeout without use; nil for none.
	idle  *idleTimer
	start time.Time
	// record is the session's context without its cancellation: a call
	// that happened is recorded even if the session was cancelled since.
	record context.Context
	// children counts running subagents.
	children int
	depth    int
	// maxDepth is the nesting bound a child was started under; its own
	// children can be started under no looser bound. Zero for top-level
	// sessions.
	maxDepth int
	// callID is the parent's tool call that started a child.
	callID string
	parent *agent
	// release frees what a child holds of its parent; nil for others.
	release func()
	// granted are the store's grants already in rules.
	grantMu sync.Mutex
	granted map[string]bool
}

// startAgent starts a session; setup, if not nil, finishes the agent (its
// rules and limits) before it is published, so no check ever sees it half
// built. A setup error ends the session again.
func (p *Pipeline) startAgent(ctx context.Context, o SessionOptions, parent *agent, name string, tools *tool.Registry, setup func(*agent) error) (*Session, error) {
	conf := p.cfg.Checker.Config()
	mode := conf.Mode
	if o.Mode != nil {
		mode = *o.Mode
	}
	if !mode.Valid() {
		return nil, fmt.Errorf("runtime: invalid permission mode %d", mode)
	}
	if mode == permission.ModeBypassPermissions && conf.DisableBypass {
		return nil, errors.New("runtime: bypassPermissions mode is disabled by configuration")
	}
	if mode == permission.ModeAuto && conf.DisableAuto {
		return nil, errors.New("runtime: auto mode is disabled by configuration")
	}
	if o.Cwd == "" {
		o.Cwd = p.dir
	}
	l7, err := p.sessions.start(ctx, o.ID)
	if err != nil {
		return nil, err
	}
	checker := p.cfg.Checker
	switch {
	case parent != nil:
		checker = parent.checker // a child only narrows its parent
	case mode == permission.ModeAuto:
		if checker, err = p.autoChecker(); err != nil {
			p.sessions.end(o.ID)
			return nil, fmt.Errorf("runtime: auto mode's rules: %w", err)
		}
	}
	a := &agent{p: p, l7: l7, mode: mode, checker: checker, name: p.cfg.AgentName, cwd: o.Cwd, start: time.Now(),
		record: context.WithoutCancel(l7.Context())}
	l7.owner = a
	if parent != nil {
		a.parent, a.silent, a.name, a.depth = parent, true, name, parent.depth+1
		a.rules = parent.rules.Child()
	} else {
		a.rules = checker.NewSession()
	}
	if tools != nil {
		a.tools = tools
	}
	if setup != nil {
		if err := setup(a); err != nil {
			p.sessions.end(o.ID)
			return nil, err
		}
	}
	var epoch uint64
	if parent == nil {
		epoch = p.epoch()
		if err := p.restore(ctx, a, true); err != nil {
			p.sessions.end(o.ID)
			return nil, err
		}
	}
	p.mu.Lock()
	p.agents[o.ID] = a
	if o.IdleTimeout > 0 {
		p.watchIdle(o.ID, a, o.IdleTimeout)
	}
	p.mu.Unlock()
	if parent == nil && p.epoch() != epoch {
		// A change arrived while the session was not yet live: take it.
		_ = p.restore(ctx, a, false)
	}
	_ = p.cfg.Hooks.SessionStart(l7.Context(), hooks.SessionStartEvent{
		SessionID: o.ID, AgentName: a.name, Cwd: o.Cwd, PermissionMode: mode.String(),
	})
	return l7, nil
}

// end ends a's session if it is still live: it is cancelled, its
// SessionStop hooks run with reason (and a child's parent's SubagentStop
// hooks with output and runErr), and its state is freed. It reports
// whether this call ended it.
func (a *agent) end(reason, output string, runErr error) bool {
	p, id := a.p, a.l7.ID()
	p.mu.Lock()
	live := p.agents[id] == a
	if live {
		delete(p.agents, id)
	}
	p.mu.Unlock()
	if !live {
		return false
	}
	p.finish(id, a, reason, output, runErr)
	return true
}

// finish ends the session of a, already taken out of the agents map.
func (p *Pipeline) finish(id string, a *agent, reason, output string, runErr error) {
	if a.idle != nil {
		a.idle.t.Stop()
	}
	st := a.l7.Status()
	// SessionStop runs with a context that outlives the session's own.
	ctx := context.WithoutCancel(a.l7.Context())
	p.sessions.end(id)
	_ = p.cfg.Hooks.SessionStop(ctx, hooks.SessionStopEvent{
		SessionID: id, AgentName: a.name, Step: st.Step, Reason: reason, Elapsed: time.Since(a.start), Err: runErr,
	})
	if a.parent != nil {
		_ = p.cfg.Hooks.SubagentStop(context.WithoutCancel(a.parent.l7.Context()), hooks.SubagentStopEvent{
			SessionID: a.parent.l7.ID(), AgentName: a.parent.name, Step: a.parent.l7.currentStep(), CallID: a.callID,
			Subagent: a.name, ChildSessionID: id, Output: output, Elapsed: time.Since(a.start), Err: runErr,
		})
	}
	if a.release != nil {
		a.release()
	}
}

func (p *Pipeline) agent(id string) *agent {
	p.mu.Lock()
	defer p.mu.Unlock()
	a := p.agents[id]
	if a != nil && a.idle != nil {
		a.idle.touch()
	}
	return a
}

// Hooks returns the pipeline's hook set.
func (p *Pipeline) Hooks() *hooks.Set { return p.cfg.Hooks }

// Tools returns the pipeline's tool registry as it is now: the configured
// tools and those [Pipeline.AddTools] added since.
func (p *Pipeline) Tools() *tool.Registry { return p.tools.Load() }

// Checker returns the pipeline's permission checker.
func (p *Pipeline) Checker() *permission.Checker { return p.cfg.Checker }

// inputError says why an input was refused: not a JSON object, or an
// object with a duplicate key (parsers disagree on which value wins, so a
// guard and a tool could see different paths).
func inputError(err error) string {
	if errors.Is(err, jsonin.ErrTooDeep) {
		return fmt.Sprintf("input is nested deeper than %d levels of objects and arrays", jsonin.MaxDepth)
	}
	if errors.Is(err, jsonin.ErrDuplicateKey) {
		return "input is not a JSON object: " + strings.TrimPrefix(err.Error(), "jsonin: ")
	}
	return "input is not a JSON object"
}

// inputRule names the check that refused an input.
func inputRule(err error) permission.RuleID {
	if errors.Is(err, jsonin.ErrTooDeep) {
		return RuleTooDeep
	}
	return RuleNotObject
}

func errUnknownSession(id string) error { return fmt.Errorf("runtime: no live session %q", id) }

func joinErr(a, b error) error {
	if a == nil {
		return b
	}
	return errors.Join(a, b)
}

// Executor returns an Executor whose calls go through the Pipeline: Check
// before each call and After for each, whether it ran, was refused or was
// skipped. run runs an admitted call with its final input. Each
// [Result] keeps the whole Verdict and the Outcome of After; a call that
// was admitted but never started (the batch was cancelled) reaches the
// PostToolUse hooks and the audit log as a Deny, rule runtime:not-started.
func (p *Pipeline) Executor(run func(ctx context.Context, call Call) (string, error)) *Executor {
	return &Executor{
		Tools:  p.Tools(),
		lookup: func(name string) (tool.Tool, bool) { return p.tools.Load().Lookup(name) },
		Check:  p.Check,
		Run:    run,
		After: func(ctx context.Context, res Result) Result {
			v := res.Verdict
			if !res.Ran && v.Decision == permission.Allow {
				// Admitted but never started: the batch was cancelled.
				reason := "the call was not started"
				if res.Err != nil {
					reason = res.Err.Error()
				}
				v.Decision, v.Layer, v.Rule, v.Reason = permission.Deny, permission.LayerRuntime, RuleNotStarted, reason
			}
			res.Outcome = p.After(ctx, res.Call, v, Run{Output: res.Output, Err: res.Err, Confinement: res.Confinement})
			res.Output = res.Outcome.Output
			return res
		},
	}
}

// readsOf gives where a file tool's read outside the roots needs no
// person: the same system roots and Go module cache as the shell guard g
// reads (bashguard.Policy.SystemRoots and GoEnv.ModCache), so that Read
// and cat agree. Without a guard, the default system roots and no cache.
func readsOf(g *bashguard.Guard) sysread.Places {
	if g == nil {
		return sysread.Places{}
	}
	pol := g.Policy()
	return sysread.Places{System: pol.SystemRoots, ModCache: pol.GoEnv.ModCache}
}

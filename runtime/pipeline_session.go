package runtime

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
)

// Session returns the live session o.ID, starting it with o when there is
// none: the get-or-start of a host, whether it starts a conversation
// itself or serves requests that name their session (an MCP session, an
// HTTP client) with no separate start. Starting runs the SessionStart
// hooks. Only ctx's values reach a session Session starts, not its
// cancellation, since ctx is usually one request's: the session ends
// through [Session.End], is cancelled by [Session.Cancel] or
// [Pipeline.Cancel], and, when o.IdleTimeout is set, ends once it has been
// idle that long. The options of a session already live are not compared
// with o. Callers racing on one id get the same session (starts are
// serialised; a session being ended is an [ErrSessionExists] until it is
// gone).
//
// With o.Child set, Session always starts a new child session (an id in
// use is [ErrSessionExists]), and refuses, wrapping [ErrWiden], whatever
// would give the child more than its parent holds.
func (p *Pipeline) Session(ctx context.Context, o SessionOptions) (*Session, error) {
	if o.Child != nil {
		return p.startChild(o)
	}
	if a := p.agent(o.ID); a != nil {
		return a.l7, nil
	}
	// Starts are serialised, so callers racing on one id wait for the
	// first to publish the session rather than meet it half started.
	p.starting.Lock()
	defer p.starting.Unlock()
	if a := p.agent(o.ID); a != nil {
		return a.l7, nil
	}
	return p.startAgent(context.WithoutCancel(ctx), o, nil, "", nil, nil)
}

// End ends the session: it is cancelled, its SessionStop hooks run with
// reason and err, and the pipeline forgets it, so its state is freed once
// the caller drops its own references. For a child session its parent's
// SubagentStop hooks run too, with output, the child's final answer, and
// err; the parent's count of running children drops. End reports whether
// this call ended the session; later calls of it are denied.
func (s *Session) End(reason, output string, err error) bool {
	if s.owner == nil {
		return false
	}
	return s.owner.end(reason, output, err)
}

// Rules returns the session's rules, to add "allow always" answers or
// Deny rules at run time. A child's see its parent's, also those granted
// later; adding to them narrows the child only, and an Allow fails with
// [permission.ErrNarrowOnly].
func (s *Session) Rules() *permission.SessionRules {
	if s.owner == nil {
		return nil
	}
	return s.owner.rules
}

// BeginStep starts the next step (model turn): it fires the StepComplete
// hooks for the step that ended and returns layer 7's status, whose
// signals tell the host to nudge the model, stop offering tools (past the
// step limit) or stop. It closes the previous step's token gain for the
// diminishing-returns check. Hosts call it once per turn; without it there
// is no step limit. Once the session has ended, the status carries
// SignalCancelled.
func (s *Session) BeginStep() Status {
	a := s.owner
	if a == nil || !a.live() {
		return s.beginStep()
	}
	if prev := s.currentStep(); prev > 0 {
		_ = a.p.cfg.Hooks.StepComplete(s.Context(), hooks.StepCompleteEvent{SessionID: s.id, AgentName: a.name, Step: prev})
	}
	st := s.beginStep()
	a.p.saveCounters(a)
	return st
}

// live reports whether a's session is live in its pipeline, recording a
// use for its idle timer.
func (a *agent) live() bool {
	return a.p.agent(a.l7.ID()) == a
}

// idleTimer ends a session once it has not been used for d.
type idleTimer struct {
	d     time.Duration
	start time.Time    // with its monotonic reading
	last  atomic.Int64 // when it was last used, as nanoseconds since start
	t     *time.Timer  // set under the pipeline's lock, before it can fire
}

// touch records a use of the session now.
func (it *idleTimer) touch() { it.last.Store(int64(time.Since(it.start))) }

// watchIdle arms a's idle timer. The caller holds p.mu.
func (p *Pipeline) watchIdle(id string, a *agent, d time.Duration) {
	a.idle = &idleTimer{d: d, start: time.Now()}
	a.idle.t = time.AfterFunc(d, func() { p.expire(id, a) })
}

// expire ends a's session if it has been idle for its timeout, and
// otherwise waits for the rest of it. The check and the removal are made
// under p.mu, as every use is recorded, so a session handed out by
// Session or used by a Check is not ended in the same instant.
func (p *Pipeline) expire(id string, a *agent) {
	p.mu.Lock()
	if p.agents[id] != a {
		p.mu.Unlock()
		return
	}
	it := a.idle
	if rest := it.d - (time.Since(it.start) - time.Duration(it.last.Load())); rest > 0 {
		it.t.Reset(rest)
		p.mu.Unlock()
		return
	}
	delete(p.agents, id)
	p.mu.Unlock()
	p.finish(id, a, "idle", "", nil)
}

package runtime

import (
	"context"
	"sync/atomic"
	"time"
)

// Acquire returns the live session o.ID, starting it with o when there is
// none: the get-or-start of a server whose requests name their session
// (an MCP session, an HTTP client) with no separate start. Only ctx's
// values reach a session Acquire starts, not its cancellation, since ctx
// is usually one request's: the session ends through [Pipeline.EndSession]
// or, when o.IdleTimeout is set, once it has been idle that long. The
// options of a session already live are not compared with o. Acquire is
// safe for concurrent use: callers racing on one id get the same session
// (starts are serialised; a session being ended is an [ErrSessionExists]
// until it is gone).
func (p *Pipeline) Acquire(ctx context.Context, o SessionOptions) (*Session, error) {
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
	return p.StartSession(context.WithoutCancel(ctx), o)
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
// Acquire or used by a Check is not ended in the same instant.
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

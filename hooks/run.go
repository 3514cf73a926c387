package hooks

import (
	"context"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"github.com/toolgate/toolgate/permission"
)

// jobState is one chain run: the event as the next hook will see it, the
// outcome so far and the failures. It is held by value, so that a worker
// abandoned after a timeout keeps its own copy and never writes into the
// state the chain goes on with.
type jobState struct {
	event   Event
	from    int // index of the next hook to run
	stop    bool
	pre     PreToolUseEvent
	preOut  PreToolUseOutcome
	post    PostToolUseEvent
	postOut PostToolUseOutcome
	notify  func(context.Context, *Hook) (bool, error)
	errs    []*Error
}

// load copies src into st: the fields every chain uses and the half of
// the event payloads that src's event uses (a PreToolUse chain never
// reads the PostToolUse fields, and the copy is a good part of a timed
// chain's cost).
func (st *jobState) load(src *jobState) {
	st.event, st.from, st.stop, st.notify, st.errs = src.event, src.from, src.stop, src.notify, src.errs
	switch src.event {
	case EventPreToolUse:
		st.pre, st.preOut = src.pre, src.preOut
	case EventPostToolUse:
		st.post, st.postOut = src.post, src.postOut
	}
}

// reset drops what st holds, as load left it.
func (st *jobState) reset() {
	switch st.event {
	case EventPreToolUse:
		st.pre, st.preOut = PreToolUseEvent{}, PreToolUseOutcome{}
	case EventPostToolUse:
		st.post, st.postOut = PostToolUseEvent{}, PostToolUseOutcome{}
	}
	st.notify, st.errs = nil, nil
}

type result struct {
	pre  PreToolUseResult
	post PostToolUseResult
}

// has reports whether h has a callback for the event.
func (st *jobState) has(h *Hook) bool {
	switch st.event {
	case EventPreToolUse:
		return h.PreToolUse != nil
	case EventPostToolUse:
		return h.PostToolUse != nil
	}
	return true // notify decides
}

// invoke calls h's callback, turning a panic into a *PanicError.
func (st *jobState) invoke(ctx context.Context, h *Hook) (r result, called bool, err error) {
	defer func() {
		if v := recover(); v != nil {
			called = true
			err = &PanicError{Value: v, Stack: debug.Stack()}
		}
	}()
	switch st.event {
	case EventPreToolUse:
		r.pre, err = h.PreToolUse(ctx, st.pre)
		return r, true, err
	case EventPostToolUse:
		r.post, err = h.PostToolUse(ctx, st.post)
		return r, true, err
	}
	called, err = st.notify(ctx, h)
	return r, called, err
}

// apply commits the answer of hook e.
func (st *jobState) apply(e *entry, r result, err error) {
	if err != nil {
		st.fail(e, err)
		return
	}
	switch st.event {
	case EventPreToolUse:
		st.applyPre(e, r.pre)
	case EventPostToolUse:
		p := r.post
		switch p.Action {
		case PostContinue:
		case PostMutateOutput:
			st.post.Output = p.Output
			st.postOut.Output = p.Output
		default:
			st.fail(e, &invalidAction{"PostToolUse action " + strconv.Itoa(int(p.Action))})
			return
		}
		st.postOut.Context = joinContext(st.postOut.Context, p.Context)
	}
}

func (st *jobState) applyPre(e *entry, p PreToolUseResult) {
	o := &st.preOut
	switch p.Action {
	case PreContinue:
	case PreBlock:
		reason := p.Reason
		if reason == "" {
			reason = "blocked by hook " + strconv.Quote(e.name)
		}
		o.Decision, o.Reason, o.Hook = permission.Deny, reason, e.name
		st.stop = true
	case PreMutateInput:
		if p.Input != nil {
			st.pre.Input = p.Input
			o.Input = p.Input
		}
		o.Context = joinContext(o.Context, p.Context)
	case PrePermissionRequired:
		if p.Input != nil {
			st.pre.Input = p.Input
			o.Input = p.Input
		}
		o.Context = joinContext(o.Context, p.Context)
		if o.Decision == permission.Allow {
			reason := p.Reason
			if reason == "" {
				reason = "hook " + strconv.Quote(e.name) + " requires permission"
			}
			o.Decision, o.Reason, o.Hook = permission.Ask, reason, e.name
		}
	default:
		st.fail(e, &invalidAction{"PreToolUse action " + strconv.Itoa(int(p.Action))})
	}
}

// fail records a failed callback. In PreToolUse it blocks the call.
func (st *jobState) fail(e *entry, err error) {
	he := &Error{Hook: e.name, Event: st.event, Err: err}
	st.errs = append(st.errs, he)
	if st.event == EventPreToolUse {
		o := &st.preOut
		o.Decision, o.Reason, o.Hook, o.Err = permission.Deny, he.reason(), e.name, he
		st.stop = true
	}
}

type invalidAction struct{ what string }

func (e *invalidAction) Error() string { return "invalid " + e.what }

func joinContext(a, b string) string {
	switch {
	case b == "":
		return a
	case a == "":
		return b
	}
	return a + "\n" + b
}

// run runs the chain of st.event over the registered hooks. Hooks whose
// timeout is NoTimeout run inline; if any hook in the chain has a timeout,
// the chain runs on a worker goroutine while the caller waits, so that an
// overrunning callback is abandoned (its result is dropped) and never
// holds the caller past its deadline.
func (s *Set) run(ctx context.Context, st *jobState) {
	l := s.list.Load()
	if l == nil {
		return
	}
	timed := false
	for i := range l.entries {
		e := &l.entries[i]
		if st.has(&e.h) && s.timeout(e) > 0 {
			timed = true
			break
		}
	}
	if !timed {
		for i := range l.entries {
			e := &l.entries[i]
			if !st.has(&e.h) {
				continue
			}
			r, called, err := st.invoke(ctx, &e.h)
			if called {
				st.apply(e, r, err)
			}
			if st.stop {
				return
			}
		}
		return
	}
	for st.from < len(l.entries) && !st.stop {
		w := s.acquire()
		// An idle worker has idx -1 and is not abandoned, and tick
		// reads nothing else until the worker, having received start,
		// sets idx under w.mu. The token on done orders the last writes
		// of the worker (or of tick) before the reads below, and after
		// it nobody writes w's chain fields: a finished worker waits for
		// start, and an abandoned one drops the answer of the hook it is
		// stuck in.
		w.ctx, w.list = ctx, l
		w.st.load(st)
		w.start <- struct{}{}
		<-w.done
		st.load(&w.st)
		if !w.abandoned {
			w.st.reset()
			w.ctx, w.list = nil, nil
			s.release(w)
			return
		}
		e := &l.entries[w.idx]
		if w.exited {
			st.fail(e, ErrGoexit)
		} else {
			st.fail(e, timeoutError{after: s.timeout(e).String()})
		}
		st.from = w.idx + 1
	}
}

// A worker is a goroutine that runs chains handed to it by run. Idle
// workers are kept by the Set, so that a timed chain costs two goroutine
// switches and no allocation.
//
// Deadlines are kept without reading the clock on every hook: while a
// worker is in use its timer ticks every tickDiv-th of the shortest
// timeout it has run, and a tick that finds the same callback running
// that an earlier tick found, a full timeout ago, abandons it. A callback
// is thus abandoned after its timeout and at most two ticks (an eighth of
// the timeout) later. A worker that ran no chain since the last tick stops
// ticking until its next chain.
type worker struct {
	s     *Set
	start chan struct{}
	done  chan struct{} // one token per chain: finished or abandoned
	timer *time.Timer   // runs tick

	ctx  context.Context
	list *list
	st   jobState

	mu        sync.Mutex // guards the fields below while a chain runs
	idx       int        // hook running, or -1
	seq       uint64     // counts callbacks started, so that ticks tell them apart
	used      bool       // a chain ran since the last tick
	period    time.Duration
	ticking   bool
	seenSeq   uint64    // the callback the ticks are watching
	seenAt    time.Time // when a tick first saw it running
	abandoned bool
	exited    bool // abandoned because a callback called runtime.Goexit
}

// tickDiv divides a timeout into the period of a worker's ticks.
const tickDiv = 16

// minTick bounds how often a worker's timer fires.
const minTick = time.Millisecond

func (s *Set) acquire() *worker {
	if w := s.hot.Swap(nil); w != nil {
		return w
	}
	s.mu.Lock()
	if n := len(s.idle); n > 0 {
		w := s.idle[n-1]
		s.idle[n-1] = nil
		s.idle = s.idle[:n-1]
		s.mu.Unlock()
		return w
	}
	s.mu.Unlock()
	w := &worker{
		s:     s,
		start: make(chan struct{}),
		done:  make(chan struct{}, 1),
		idx:   -1,
	}
	w.timer = time.AfterFunc(time.Hour, w.tick)
	w.timer.Stop()
	go w.loop()
	return w
}

const maxIdle = 64

func (s *Set) release(w *worker) {
	if s.hot.CompareAndSwap(nil, w) {
		if s.isClosed.Load() && s.hot.CompareAndSwap(w, nil) {
			close(w.start)
		}
		return
	}
	s.mu.Lock()
	if !s.closed && len(s.idle) < maxIdle {
		s.idle = append(s.idle, w)
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	close(w.start)
}

func (w *worker) loop() {
	defer w.timer.Stop()
	// A callback that calls runtime.Goexit ends this goroutine: the
	// deferred calls still run, and this one hands the chain back at once
	// (as a tick would after the timeout) rather than leave run waiting.
	returned := false
	defer func() {
		if !returned {
			w.goexit()
		}
	}()
	for range w.start {
		if !w.runChain() {
			returned = true
			return // abandoned: the Set has forgotten this worker
		}
		w.done <- struct{}{}
	}
	returned = true
}

// goexit abandons w, whose goroutine is ending inside a callback, unless a
// tick abandoned it first.
func (w *worker) goexit() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.abandoned {
		return
	}
	w.abandoned, w.exited, w.ticking = true, true, false
	w.done <- struct{}{}
}

// runChain runs w.st's chain from w.st.from. It reports false if the
// worker was abandoned.
func (w *worker) runChain() bool {
	l, st := w.list, &w.st
	w.mu.Lock()
	w.used = true
	for i := st.from; i < len(l.entries) && !st.stop; i++ {
		e := &l.entries[i]
		if !st.has(&e.h) {
			continue
		}
		w.idx = i
		w.seq++
		if d := w.s.timeout(e); d > 0 {
			if p := max(d/tickDiv, minTick); !w.ticking || p < w.period {
				w.period, w.ticking = p, true
				w.timer.Reset(p)
			}
		}
		w.mu.Unlock()
		r, called, err := st.invoke(w.ctx, &e.h)
		w.mu.Lock()
		if w.abandoned {
			w.mu.Unlock()
			return false
		}
		w.idx = -1
		if called {
			st.apply(e, r, err)
		}
		st.from = i + 1
	}
	w.mu.Unlock()
	return true
}

// tick runs when w's timer fires. It abandons the callback running on w
// if ticks have seen it running for its whole timeout, and otherwise
// keeps ticking while w is in use.
func (w *worker) tick() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.abandoned {
		w.ticking = false
		return
	}
	if w.idx < 0 {
		if !w.used {
			w.ticking = false // idle since the last tick
			return
		}
		w.used = false
		w.timer.Reset(w.period)
		return
	}
	w.used = false
	now := time.Now()
	if w.seq != w.seenSeq {
		w.seenSeq, w.seenAt = w.seq, now
	} else if d := w.s.timeout(&w.list.entries[w.idx]); d > 0 && now.Sub(w.seenAt) >= d {
		w.abandoned, w.ticking = true, false
		w.done <- struct{}{}
		return
	}
	w.timer.Reset(w.period)
}

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
// the chain runs on a worker goroutine and the caller waits for it with a
// timer, so that an overrunning callback is abandoned (its result is
// dropped) and never holds the caller past its deadline.
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
		w.ctx, w.list, w.st = ctx, l, *st
		w.idx, w.began, w.abandoned, w.finished = -1, time.Time{}, false, false
		w.start <- struct{}{}
		if s.wait(w, l) {
			*st = w.st
			w.st, w.ctx, w.list = jobState{}, nil, nil
			s.release(w)
			return
		}
		// The worker was abandoned with its hook w.idx still running;
		// wait copied the state as it was before that hook.
		idx := w.idx
		*st = w.st
		e := &l.entries[idx]
		st.fail(e, timeoutError{after: s.timeout(e).String()})
		st.from = idx + 1
	}
}

// wait waits for w to finish its chain. It reports false if the hook
// running on w overran its timeout; w is then abandoned, and w.st and
// w.idx hold the state before that hook.
func (s *Set) wait(w *worker, l *list) bool {
	poll := time.Duration(0)
	for i := range l.entries {
		if d := s.timeout(&l.entries[i]); d > 0 && (poll == 0 || d < poll) {
			poll = d
		}
	}
	w.timer.Reset(poll)
	for {
		select {
		case <-w.done:
			w.timer.Stop()
			return true
		case now := <-w.timer.C:
			w.mu.Lock()
			if w.finished {
				w.mu.Unlock()
				<-w.done
				return true
			}
			next := poll
			if w.idx >= 0 {
				if d := s.timeout(&l.entries[w.idx]); d > 0 {
					left := d - now.Sub(w.began)
					if left <= 0 {
						w.abandoned = true
						w.mu.Unlock()
						return false
					}
					next = left
				}
			}
			w.mu.Unlock()
			w.timer.Reset(next)
		}
	}
}

// A worker is a goroutine that runs chains handed to it by run. Idle
// workers are kept by the Set so that a timed chain costs two goroutine
// switches and no allocation.
type worker struct {
	start chan struct{}
	done  chan struct{}
	timer *time.Timer

	ctx  context.Context
	list *list

	mu        sync.Mutex // guards the fields below while a chain runs
	st        jobState
	idx       int // hook running, or -1
	began     time.Time
	abandoned bool
	finished  bool
}

func (s *Set) acquire() *worker {
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
		start: make(chan struct{}),
		done:  make(chan struct{}, 1),
		timer: time.NewTimer(time.Hour),
	}
	w.timer.Stop()
	go w.loop()
	return w
}

const maxIdle = 64

func (s *Set) release(w *worker) {
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
	for range w.start {
		if !w.runChain() {
			return // abandoned: the Set has forgotten this worker
		}
		w.done <- struct{}{}
	}
}

// runChain runs w.st's chain from w.st.from. It reports false if the
// worker was abandoned.
func (w *worker) runChain() bool {
	l := w.list
	w.mu.Lock()
	st := &w.st
	for i := st.from; i < len(l.entries) && !st.stop; i++ {
		e := &l.entries[i]
		if !st.has(&e.h) {
			continue
		}
		w.idx, w.began = i, time.Now()
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
	w.finished = true
	w.mu.Unlock()
	return true
}

package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// DefaultTimeout bounds each call of a [Bounded] store made with a zero
// timeout: what the pipeline and the approval asker use unless the store
// they are given is already Bounded.
const DefaultTimeout = 5 * time.Second

// ErrTimeout is the error of a call that a [Bounded] store ended at its
// deadline.
var ErrTimeout = errors.New("store: no answer before the deadline")

// Bounded is a [Store] whose every call ends by a deadline: the call's
// context gets the deadline, and a store that does not honour it is left
// running on a goroutine of its own while the caller gets [ErrTimeout]
// (its late result is dropped). A stalled database thus costs the caller
// the timeout, never a hang. Create it with [Bound]; it is safe for
// concurrent use.
//
// A store that never waits ([Memory]: its calls hold a lock over memory
// and return) is called on the caller's goroutine: it has no deadline to
// miss, and a goroutine and a timer per call would cost it more than the
// call itself.
type Bounded struct {
	st     Store
	d      time.Duration
	direct bool // st never waits: call it on the caller's goroutine
}

var _ Store = (*Bounded)(nil)

// Bound returns st with every call bounded by timeout (DefaultTimeout when
// timeout <= 0). A st that is already Bounded gets the new timeout.
func Bound(st Store, timeout time.Duration) *Bounded {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	if b, ok := st.(*Bounded); ok {
		st = b.st
	}
	return &Bounded{st: st, d: timeout, direct: neverWaits(st)}
}

// immediate is implemented by a store whose every call returns at once,
// never waiting on I/O, another process or a lock held across one. The
// method returns the store that makes the promise: a type that embeds
// such a store inherits the method but not the promise (it may override a
// call with one that waits), and neverWaits tells them apart.
type immediate interface {
	immediateStore() Store
}

// neverWaits reports whether st itself promises that its calls never wait.
func neverWaits(st Store) bool {
	i, ok := st.(immediate)
	return ok && i.immediateStore() == st
}

// Timeout returns the bound of each call.
func (b *Bounded) Timeout() time.Duration { return b.d }

// Unwrap returns the bounded store.
func (b *Bounded) Unwrap() Store { return b.st }

// grace is how long a store has to return once its deadline passed.
const grace = 50 * time.Millisecond

// timeoutCause is the cause of a bounded call's deadline: ErrTimeout with
// the call and the bound, its text written only when read.
type timeoutCause struct {
	what string
	d    time.Duration
}

func (e *timeoutCause) Error() string {
	return ErrTimeout.Error() + " (" + e.what + ", " + e.d.String() + ")"
}

func (e *timeoutCause) Unwrap() error { return ErrTimeout }

// panicked is the error of a store call that panicked.
func panicked(what string, p any) error { return fmt.Errorf("store: %s panicked: %v", what, p) }

// recovered turns a panic of a direct call into its error.
func recovered(err *error, what string) {
	if p := recover(); p != nil {
		*err = panicked(what, p)
	}
}

// bounded runs fn under b's deadline and returns its result, or
// ErrTimeout (with what ctx says) once the deadline and grace passed.
// Each method calls a store that never waits directly instead, without
// the closure.
func bounded[T any](ctx context.Context, b *Bounded, what string, fn func(context.Context) (T, error)) (T, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, b.d, &timeoutCause{what, b.d})
	defer cancel()
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1) // a late result never blocks its goroutine
	go func() {
		var r result
		defer func() {
			if p := recover(); p != nil {
				r = result{err: panicked(what, p)}
			}
			done <- r
		}()
		r.v, r.err = fn(ctx)
	}()
	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		t := time.NewTimer(grace)
		select {
		case r = <-done:
		case <-t.C:
			r.err = ctx.Err()
		}
		t.Stop()
	}
	if r.err != nil && ctx.Err() != nil {
		var zero T
		if cause := context.Cause(ctx); errors.Is(cause, ErrTimeout) {
			return zero, fmt.Errorf("%w: %w", cause, r.err)
		}
		return zero, fmt.Errorf("store: %s: %w", what, r.err)
	}
	return r.v, r.err
}

func boundedErr(ctx context.Context, b *Bounded, what string, fn func(context.Context) error) error {
	_, err := bounded(ctx, b, what, func(ctx context.Context) (struct{}, error) { return struct{}{}, fn(ctx) })
	return err
}

// The calls' names, in the errors of a timeout or a panic.
const (
	whatAddGrant       = "adding a grant"
	whatGrants         = "reading grants"
	whatPutApproval    = "recording an approval"
	whatApproval       = "reading an approval"
	whatPending        = "listing approvals"
	whatAnswerApproval = "answering an approval"
	whatCancelSession  = "cancelling a session"
	whatCancelled      = "reading a cancellation"
	whatSaveCounters   = "saving counters"
	whatCounters       = "reading counters"
)

// AddGrant implements [Grants].
func (b *Bounded) AddGrant(ctx context.Context, g Grant) (err error) {
	if b.direct {
		defer recovered(&err, whatAddGrant)
		return b.st.AddGrant(ctx, g)
	}
	return boundedErr(ctx, b, whatAddGrant, func(ctx context.Context) error { return b.st.AddGrant(ctx, g) })
}

// Grants implements [Grants].
func (b *Bounded) Grants(ctx context.Context, scope Scope, key string) (rules []string, err error) {
	if b.direct {
		defer recovered(&err, whatGrants)
		return b.st.Grants(ctx, scope, key)
	}
	return bounded(ctx, b, whatGrants, func(ctx context.Context) ([]string, error) { return b.st.Grants(ctx, scope, key) })
}

// PutApproval implements [Approvals].
func (b *Bounded) PutApproval(ctx context.Context, a Approval) (err error) {
	if b.direct {
		defer recovered(&err, whatPutApproval)
		return b.st.PutApproval(ctx, a)
	}
	return b.putApproval(ctx, a)
}

// putApproval is PutApproval under the deadline: a func of its own, so
// that the closure's copy of a is not made on the direct path (an Ask
// parked in a Memory store: BenchmarkToolgateCommands in bench); kept out
// of line, where inlining would bring the copy back.
//
//go:noinline
func (b *Bounded) putApproval(ctx context.Context, a Approval) error {
	return boundedErr(ctx, b, whatPutApproval, func(ctx context.Context) error { return b.st.PutApproval(ctx, a) })
}

// Approval implements [Approvals].
func (b *Bounded) Approval(ctx context.Context, id string) (a Approval, err error) {
	if b.direct {
		defer recovered(&err, whatApproval)
		return b.st.Approval(ctx, id)
	}
	return bounded(ctx, b, whatApproval, func(ctx context.Context) (Approval, error) { return b.st.Approval(ctx, id) })
}

// Pending implements [Approvals].
func (b *Bounded) Pending(ctx context.Context) (as []Approval, err error) {
	if b.direct {
		defer recovered(&err, whatPending)
		return b.st.Pending(ctx)
	}
	return bounded(ctx, b, whatPending, b.st.Pending)
}

// AnswerApproval implements [Approvals].
func (b *Bounded) AnswerApproval(ctx context.Context, id string, ans Answer) (err error) {
	if b.direct {
		defer recovered(&err, whatAnswerApproval)
		return b.st.AnswerApproval(ctx, id, ans)
	}
	return b.answerApproval(ctx, id, ans)
}

// answerApproval is AnswerApproval under the deadline, as putApproval.
//
//go:noinline
func (b *Bounded) answerApproval(ctx context.Context, id string, ans Answer) error {
	return boundedErr(ctx, b, whatAnswerApproval, func(ctx context.Context) error { return b.st.AnswerApproval(ctx, id, ans) })
}

// CancelSession implements [Cancels].
func (b *Bounded) CancelSession(ctx context.Context, session, reason string) (err error) {
	if b.direct {
		defer recovered(&err, whatCancelSession)
		return b.st.CancelSession(ctx, session, reason)
	}
	return boundedErr(ctx, b, whatCancelSession, func(ctx context.Context) error { return b.st.CancelSession(ctx, session, reason) })
}

// Cancelled implements [Cancels].
func (b *Bounded) Cancelled(ctx context.Context, session string) (reason string, ok bool, err error) {
	if b.direct {
		defer recovered(&err, whatCancelled)
		return b.st.Cancelled(ctx, session)
	}
	type rc struct {
		reason string
		ok     bool
	}
	r, err := bounded(ctx, b, whatCancelled, func(ctx context.Context) (rc, error) {
		reason, ok, err := b.st.Cancelled(ctx, session)
		return rc{reason, ok}, err
	})
	return r.reason, r.ok, err
}

// SaveCounters implements [CounterStore].
func (b *Bounded) SaveCounters(ctx context.Context, session string, c Counters) (err error) {
	if b.direct {
		defer recovered(&err, whatSaveCounters)
		return b.st.SaveCounters(ctx, session, c)
	}
	return boundedErr(ctx, b, whatSaveCounters, func(ctx context.Context) error { return b.st.SaveCounters(ctx, session, c) })
}

// Counters implements [CounterStore].
func (b *Bounded) Counters(ctx context.Context, session string) (c Counters, ok bool, err error) {
	if b.direct {
		defer recovered(&err, whatCounters)
		return b.st.Counters(ctx, session)
	}
	type rc struct {
		c  Counters
		ok bool
	}
	r, err := bounded(ctx, b, whatCounters, func(ctx context.Context) (rc, error) {
		c, ok, err := b.st.Counters(ctx, session)
		return rc{c, ok}, err
	})
	return r.c, r.ok, err
}

// Watch implements [Store].
func (b *Bounded) Watch(fn func(Event)) (stop func()) { return b.st.Watch(fn) }

// WatchIf is Watch for the events want accepts, and every [Lost] and
// [Resync]. Over a [Memory] itself want is asked as [Hub.WatchIf] asks
// it, before the event is queued, so that an event the watcher has no
// use for costs no wake of its goroutine (a pipeline's parked approvals,
// which no Resume waits for); over any other store (one that embeds a
// Memory and watches its own way among them) fn gets what the store's
// own Watch hands it, less what want declines. want must be quick, must
// not block and must not call the store.
func (b *Bounded) WatchIf(want func(Event) bool, fn func(Event)) (stop func()) {
	if m, ok := b.st.(*Memory); ok {
		return m.watchIf(want, fn)
	}
	return b.st.Watch(func(e Event) {
		if e.Kind == Lost || e.Kind == Resync || want(e) {
			fn(e)
		}
	})
}

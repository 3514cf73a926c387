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
type Bounded struct {
	st Store
	d  time.Duration
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
	return &Bounded{st: st, d: timeout}
}

// Timeout returns the bound of each call.
func (b *Bounded) Timeout() time.Duration { return b.d }

// Unwrap returns the bounded store.
func (b *Bounded) Unwrap() Store { return b.st }

// grace is how long a store has to return once its deadline passed.
const grace = 50 * time.Millisecond

// bounded runs fn under b's deadline and returns its result, or
// ErrTimeout (with what ctx says) once the deadline and grace passed.
func bounded[T any](ctx context.Context, b *Bounded, what string, fn func(context.Context) (T, error)) (T, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, b.d, fmt.Errorf("%w (%s, %s)", ErrTimeout, what, b.d))
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
				r = result{err: fmt.Errorf("store: %s panicked: %v", what, p)}
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

// AddGrant implements [Grants].
func (b *Bounded) AddGrant(ctx context.Context, g Grant) error {
	return boundedErr(ctx, b, "adding a grant", func(ctx context.Context) error { return b.st.AddGrant(ctx, g) })
}

// Grants implements [Grants].
func (b *Bounded) Grants(ctx context.Context, scope Scope, key string) ([]string, error) {
	return bounded(ctx, b, "reading grants", func(ctx context.Context) ([]string, error) { return b.st.Grants(ctx, scope, key) })
}

// PutApproval implements [Approvals].
func (b *Bounded) PutApproval(ctx context.Context, a Approval) error {
	return boundedErr(ctx, b, "recording an approval", func(ctx context.Context) error { return b.st.PutApproval(ctx, a) })
}

// Approval implements [Approvals].
func (b *Bounded) Approval(ctx context.Context, id string) (Approval, error) {
	return bounded(ctx, b, "reading an approval", func(ctx context.Context) (Approval, error) { return b.st.Approval(ctx, id) })
}

// Pending implements [Approvals].
func (b *Bounded) Pending(ctx context.Context) ([]Approval, error) {
	return bounded(ctx, b, "listing approvals", b.st.Pending)
}

// AnswerApproval implements [Approvals].
func (b *Bounded) AnswerApproval(ctx context.Context, id string, ans Answer) error {
	return boundedErr(ctx, b, "answering an approval", func(ctx context.Context) error { return b.st.AnswerApproval(ctx, id, ans) })
}

// CancelSession implements [Cancels].
func (b *Bounded) CancelSession(ctx context.Context, session, reason string) error {
	return boundedErr(ctx, b, "cancelling a session", func(ctx context.Context) error { return b.st.CancelSession(ctx, session, reason) })
}

// Cancelled implements [Cancels].
func (b *Bounded) Cancelled(ctx context.Context, session string) (string, bool, error) {
	type rc struct {
		reason string
		ok     bool
	}
	r, err := bounded(ctx, b, "reading a cancellation", func(ctx context.Context) (rc, error) {
		reason, ok, err := b.st.Cancelled(ctx, session)
		return rc{reason, ok}, err
	})
	return r.reason, r.ok, err
}

// SaveCounters implements [CounterStore].
func (b *Bounded) SaveCounters(ctx context.Context, session string, c Counters) error {
	return boundedErr(ctx, b, "saving counters", func(ctx context.Context) error { return b.st.SaveCounters(ctx, session, c) })
}

// Counters implements [CounterStore].
func (b *Bounded) Counters(ctx context.Context, session string) (Counters, bool, error) {
	type rc struct {
		c  Counters
		ok bool
	}
	r, err := bounded(ctx, b, "reading counters", func(ctx context.Context) (rc, error) {
		c, ok, err := b.st.Counters(ctx, session)
		return rc{c, ok}, err
	})
	return r.c, r.ok, err
}

// Watch implements [Store].
func (b *Bounded) Watch(fn func(Event)) (stop func()) { return b.st.Watch(fn) }

package approval

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// DefaultAskTimeout is how long [AskWithTimeout] waits for a person.
const DefaultAskTimeout = 120 * time.Second

// AskWithTimeout asks a through a context that expires after timeout
// (DefaultAskTimeout when timeout <= 0) and fails closed: no asker, an
// error, a panic, an expired wait or an unknown choice is a Deny whose
// reason says so.
//
// The wait is bounded even for an Asker that ignores its context: it is
// asked on a goroutine of its own, and once the context is done it has
// askGrace (50 ms) to return (an Asker that honours its context, such as
// [ChanAsker], withdraws its request in that time, before AskWithTimeout
// returns); after that its answer no longer counts, and its goroutine ends
// when it returns.
func AskWithTimeout(ctx context.Context, a Asker, req Request, timeout time.Duration) Answer {
	if a == nil {
		return unanswered(errNoAsker, "approval needed but no one can be asked")
	}
	if timeout <= 0 {
		timeout = DefaultAskTimeout
	}
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, ErrTimeout)
	defer cancel()
	type reply struct {
		ans Answer
		err error
	}
	done := make(chan reply, 1) // the asker never blocks on a late reply
	go func() {
		var r reply
		defer func() {
			if p := recover(); p != nil {
				r = reply{err: fmt.Errorf("the asker panicked: %v", p)}
			}
			done <- r
		}()
		r.ans, r.err = a.Ask(ctx, req)
	}()
	var r reply
	select {
	case r = <-done:
	case <-ctx.Done():
		grace := time.NewTimer(askGrace)
		select {
		case r = <-done:
		case <-grace.C:
		}
		grace.Stop()
	}
	switch {
	case errors.Is(context.Cause(ctx), ErrTimeout) && (r.err != nil || ctx.Err() != nil):
		return unanswered(ErrTimeout, fmt.Sprintf("no answer within %s: denied", timeout))
	case r.err != nil:
		return unanswered(r.err, "approval failed: "+r.err.Error())
	case ctx.Err() != nil:
		return unanswered(context.Cause(ctx), "approval abandoned: "+context.Cause(ctx).Error())
	case r.ans.Choice > AllowAlways:
		return unanswered(errUnknownChoice, fmt.Sprintf("approval returned an unknown choice %s: denied", r.ans.Choice))
	case r.ans.Choice == Deny && r.ans.Reason == "":
		r.ans.Reason = "denied by the user"
	}
	return r.ans
}

// askGrace is how long an Asker has to return once its context is done.
const askGrace = 50 * time.Millisecond

// ErrTimeout is what an [Answer]'s Unanswered wraps when the wait for a
// person expired.
var ErrTimeout = errors.New("approval: timed out")

var (
	errNoAsker       = errors.New("approval: no asker")
	errUnknownChoice = errors.New("approval: unknown choice")
)

// unanswered is the fail-closed Deny of a question no person answered.
func unanswered(why error, reason string) Answer {
	return Answer{Reason: reason, Unanswered: why}
}

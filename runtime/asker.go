package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/toolgate/toolgate/permission"
)

// DefaultAskTimeout is how long [AskWithTimeout] waits for a person.
const DefaultAskTimeout = 120 * time.Second

// Choice is a person's answer to a request for approval. The zero value is
// Deny.
type Choice uint8

const (
	// Deny refuses the call.
	Deny Choice = iota
	// AllowOnce lets this one call run.
	AllowOnce
	// AllowAlways lets this call run and records session rules allowing
	// exactly what was asked (see [permission.AllowAlwaysRules]).
	AllowAlways
)

// String returns "deny", "allow-once" or "allow-always"; an out-of-range
// value prints as "deny(N)".
func (c Choice) String() string {
	switch c {
	case Deny:
		return "deny"
	case AllowOnce:
		return "allow-once"
	case AllowAlways:
		return "allow-always"
	}
	return fmt.Sprintf("deny(%d)", uint8(c))
}

// Answer is the reply to a [Request]. The zero value is a Deny.
type Answer struct {
	// Choice is what the person chose.
	Choice Choice
	// Reason explains the choice; for a Deny it is shown to the model.
	Reason string
}

// Request asks a person to approve one call.
type Request struct {
	// ID identifies the request, unique among pending ones; [ChanAsker]
	// assigns one when empty.
	ID string
	// Session is the session's id.
	Session string
	// Tool is the tool's name.
	Tool string
	// Input is the call's input as the checks saw it.
	Input json.RawMessage
	// Layer, Rule and Reason say why the call needs approval.
	Layer  permission.Layer
	Rule   string
	Reason string
	// Commands lists, for a shell call, the argv of each simple command.
	Commands [][]string
	// AlwaysRules are the session rules an AllowAlways answer would record;
	// empty when AllowAlways is not offered (it then counts as AllowOnce).
	AlwaysRules []string
	// Explanation is the layer-by-layer account of the decision (see
	// [Explain]).
	Explanation string
}

// Asker asks a person to approve a call. The host supplies it. Ask blocks
// until the person answers or ctx is done; it must be safe for concurrent
// use. An error is taken as a Deny.
type Asker interface {
	Ask(ctx context.Context, req Request) (Answer, error)
}

// AskerFunc adapts a function to [Asker].
type AskerFunc func(ctx context.Context, req Request) (Answer, error)

// Ask calls f.
func (f AskerFunc) Ask(ctx context.Context, req Request) (Answer, error) { return f(ctx, req) }

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
		return Answer{Reason: "approval needed but no one can be asked"}
	}
	if timeout <= 0 {
		timeout = DefaultAskTimeout
	}
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, errAskTimeout)
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
	case errors.Is(context.Cause(ctx), errAskTimeout) && (r.err != nil || ctx.Err() != nil):
		return Answer{Reason: fmt.Sprintf("no answer within %s: denied", timeout)}
	case r.err != nil:
		return Answer{Reason: "approval failed: " + r.err.Error()}
	case ctx.Err() != nil:
		return Answer{Reason: "approval abandoned: " + context.Cause(ctx).Error()}
	case r.ans.Choice > AllowAlways:
		return Answer{Reason: fmt.Sprintf("approval returned an unknown choice %s: denied", r.ans.Choice)}
	case r.ans.Choice == Deny && r.ans.Reason == "":
		r.ans.Reason = "denied by the user"
	}
	return r.ans
}

// askGrace is how long an Asker has to return once its context is done.
const askGrace = 50 * time.Millisecond

var errAskTimeout = errors.New("runtime: approval timed out")

// ErrUnknownRequest is returned by [ChanAsker.Resolve] for an id that is not
// pending.
var ErrUnknownRequest = errors.New("runtime: no pending request with that id")

// ChanAsker is an [Asker] that parks each request until something resolves
// it by id: the base for an HTTP or SSE front end, which lists
// [ChanAsker.Pending] and posts the person's answer to [ChanAsker.Resolve].
// It is safe for concurrent use; the zero value is ready.
type ChanAsker struct {
	// OnRequest, if set, is called (outside any lock, on the asking
	// goroutine) when a request becomes pending, e.g. to push it over SSE.
	OnRequest func(Request)

	mu      sync.Mutex
	seq     uint64
	pending map[string]*parked
	order   []string
}

type parked struct {
	req Request
	ch  chan Answer // buffered 1
}

// Ask parks req until [ChanAsker.Resolve] answers it or ctx is done (then
// it returns a Deny and the context's error). An empty ID is replaced by
// "ask-N"; an ID already pending is an error.
func (c *ChanAsker) Ask(ctx context.Context, req Request) (Answer, error) {
	c.mu.Lock()
	c.seq++
	if req.ID == "" {
		req.ID = fmt.Sprintf("ask-%d", c.seq)
	}
	if _, dup := c.pending[req.ID]; dup {
		c.mu.Unlock()
		return Answer{Reason: "duplicate approval request id"}, fmt.Errorf("runtime: request %q is already pending", req.ID)
	}
	if c.pending == nil {
		c.pending = make(map[string]*parked)
	}
	p := &parked{req: req, ch: make(chan Answer, 1)}
	c.pending[req.ID] = p
	c.order = append(c.order, req.ID)
	c.mu.Unlock()
	if c.OnRequest != nil {
		c.OnRequest(req)
	}
	select {
	case a := <-p.ch:
		return a, nil
	case <-ctx.Done():
		c.remove(req.ID)
		select { // an answer that raced the deadline still counts
		case a := <-p.ch:
			return a, nil
		default:
		}
		return Answer{Reason: "approval abandoned: " + context.Cause(ctx).Error()}, ctx.Err()
	}
}

// Pending returns the requests waiting for an answer, oldest first.
func (c *ChanAsker) Pending() []Request {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]Request, 0, len(c.order))
	for _, id := range c.order {
		out = append(out, c.pending[id].req)
	}
	return out
}

// Resolve answers the pending request id. An unknown or already answered
// id is [ErrUnknownRequest].
func (c *ChanAsker) Resolve(id string, a Answer) error {
	p := c.remove(id)
	if p == nil {
		return fmt.Errorf("%w: %q", ErrUnknownRequest, id)
	}
	p.ch <- a
	return nil
}

func (c *ChanAsker) remove(id string) *parked {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.pending[id]
	if !ok {
		return nil
	}
	delete(c.pending, id)
	for i, o := range c.order {
		if o == id {
			c.order = append(c.order[:i], c.order[i+1:]...)
			break
		}
	}
	return p
}

package approval

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// ErrUnknownRequest is returned by [ChanAsker.Resolve] for an id that is not
// pending.
var ErrUnknownRequest = errors.New("approval: no pending request with that id")

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
		return Answer{Reason: "duplicate approval request id"}, fmt.Errorf("approval: request %q is already pending", req.ID)
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

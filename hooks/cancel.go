package hooks

import (
	"context"
	"strconv"
	"sync"
)

// Cancellation is a built-in hook that blocks every tool call of a
// cancelled session. The host calls [Cancellation.Cancel] when the user
// interrupts a session; the session is forgotten at SessionStop. The zero
// value is ready to use; a Cancellation is safe for concurrent use.
type Cancellation struct {
	mu        sync.RWMutex
	cancelled map[string]string
}

// Cancel marks a session as cancelled, with an optional reason shown in
// the Block reason. Calls of the session are blocked until SessionStop.
func (c *Cancellation) Cancel(sessionID string, reason ...string) {
	r := "cancelled by the user"
	if len(reason) > 0 && reason[0] != "" {
		r = reason[0]
	}
	c.mu.Lock()
	if c.cancelled == nil {
		c.cancelled = make(map[string]string)
	}
	c.cancelled[sessionID] = r
	c.mu.Unlock()
}

// Cancelled reports whether the session is cancelled.
func (c *Cancellation) Cancelled(sessionID string) bool {
	c.mu.RLock()
	_, ok := c.cancelled[sessionID]
	c.mu.RUnlock()
	return ok
}

// Forget drops a session's cancellation; SessionStop calls it.
func (c *Cancellation) Forget(sessionID string) {
	c.mu.Lock()
	delete(c.cancelled, sessionID)
	c.mu.Unlock()
}

// Hook returns the hook, named "cancellation". Its callbacks never block,
// so it runs inline (NoTimeout).
func (c *Cancellation) Hook() Hook {
	return Hook{
		Name:    "cancellation",
		Timeout: NoTimeout,
		PreToolUse: func(_ context.Context, e PreToolUseEvent) (PreToolUseResult, error) {
			c.mu.RLock()
			r, ok := c.cancelled[e.SessionID]
			c.mu.RUnlock()
			if ok {
				return Block("session " + strconv.Quote(e.SessionID) + " is cancelled: " + r), nil
			}
			return PreToolUseResult{}, nil
		},
		SessionStop: func(_ context.Context, e SessionStopEvent) error {
			c.Forget(e.SessionID)
			return nil
		},
	}
}

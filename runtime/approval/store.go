package approval

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/toolgate/toolgate/runtime/store"
)

// StoreAsker is an [Asker] over an approval store: each request becomes
// a pending approval that a person answers wherever the store reaches (an
// approval page on any replica), and Ask returns that answer. Create it
// with [NewStoreAsker]; Close it when done.
//
// Each approval's id is a ticket StoreAsker makes (unguessable, unique
// across sessions and replicas), never the request's ID: the model names
// its calls, and two sessions may well name theirs alike.
type StoreAsker struct {
	st            store.Store
	project, user string
	stop          func()

	mu      sync.Mutex
	waiters map[string]chan struct{}
}

// NewStoreAsker returns an Asker recording its requests in st; project
// and user are the keys an allow-always answer may grant to (empty: that
// scope is not offered): give it the pipeline's own, so that a session
// grant reaches the session on every replica. Every call of st is
// bounded: st as it is if it is a [store.Bounded], else with
// [store.DefaultTimeout]; past the bound, Ask fails (a Deny).
func NewStoreAsker(st store.Store, project, user string) *StoreAsker {
	if _, ok := st.(*store.Bounded); !ok {
		st = store.Bound(st, store.DefaultTimeout)
	}
	a := &StoreAsker{st: st, project: project, user: user, waiters: make(map[string]chan struct{})}
	a.stop = st.Watch(func(e store.Event) {
		if e.Kind != store.ApprovalAnswered && e.Kind != store.Resync {
			return
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		for id, c := range a.waiters {
			if e.Kind == store.Resync || id == e.ID {
				close(c)
				delete(a.waiters, id)
			}
		}
	})
	return a
}

// Close stops following the store.
func (a *StoreAsker) Close() error { a.stop(); return nil }

// Ask records req as a new approval, under a ticket of its own making, and
// waits for its answer, ctx's end or the approval's expiry (ctx's
// deadline). req.Session must name the session.
func (a *StoreAsker) Ask(ctx context.Context, req Request) (Answer, error) {
	if req.Session == "" {
		return Answer{}, errors.New("approval: a request to the store names no session")
	}
	id := newTicket()
	now := time.Now()
	exp, ok := ctx.Deadline()
	if !ok {
		exp = now.Add(DefaultAskTimeout)
	}
	ap := store.Approval{ID: id, Session: req.Session, Project: a.project, User: a.user, Tool: req.Tool,
		Input: req.Input, Agent: req.Agent, Script: req.Script, Commands: req.ScriptCommands,
		Reason: req.Reason, Explanation: req.Explanation, AlwaysRules: req.AlwaysRules,
		Created: now, Expires: exp}
	wake := a.wait(id)
	if err := a.st.PutApproval(ctx, ap); err != nil {
		a.drop(id)
		return Answer{}, err
	}
	for {
		got, err := a.st.Approval(context.WithoutCancel(ctx), id)
		switch {
		case err != nil && !errors.Is(err, store.ErrNotFound):
			a.drop(id)
			return Answer{}, err
		case err == nil && got.Session != req.Session:
			a.drop(id)
			return Answer{}, fmt.Errorf("approval: %s belongs to session %q, not %q", id, got.Session, req.Session)
		case err == nil && got.Answered:
			a.drop(id)
			return Answer{Choice: Choice(got.Answer.Choice), Reason: got.Answer.Reason, Scope: got.Answer.Scope}, nil
		}
		select {
		case <-wake:
			wake = a.wait(id)
		case <-ctx.Done():
			a.drop(id)
			return Answer{Reason: "approval abandoned: " + context.Cause(ctx).Error()}, fmt.Errorf("approval: %s: %w", id, ctx.Err())
		}
	}
}

func (a *StoreAsker) wait(id string) chan struct{} {
	a.mu.Lock()
	defer a.mu.Unlock()
	c := make(chan struct{})
	a.waiters[id] = c
	return c
}

func (a *StoreAsker) drop(id string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.waiters, id)
}

// newTicket returns an unguessable approval id.
func newTicket() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return "ask-" + hex.EncodeToString(b[:])
}

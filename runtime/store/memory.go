package store

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Memory keeps every kind of state in this process's memory: what a
// pipeline without a configured store does. It is safe for concurrent
// use; the zero value is ready.
type Memory struct {
	hub Hub

	mu        sync.Mutex
	grants    map[scopeKey][]string
	granted   map[Grant]bool // the grants in grants, for a check in constant time
	approvals map[string]*Approval
	order     []string
	pruned    int // len(order) after the last prune
	cancels   map[string]string
	counters  map[string]Counters
}

type scopeKey struct {
	scope Scope
	key   string
}

// NewMemory returns an empty Memory.
func NewMemory() *Memory { return &Memory{} }

// AddGrant implements [Grants].
func (m *Memory) AddGrant(_ context.Context, g Grant) error {
	if err := checkGrant(g); err != nil {
		return err
	}
	m.mu.Lock()
	added := m.addGrantLocked(g)
	m.mu.Unlock()
	if added {
		m.hub.Publish(Event{Kind: GrantAdded, Scope: g.Scope, Key: g.Key})
	}
	return nil
}

func (m *Memory) addGrantLocked(g Grant) bool {
	if m.grants == nil {
		m.grants = make(map[scopeKey][]string)
		m.granted = make(map[Grant]bool)
	}
	if m.granted[g] {
		return false
	}
	m.granted[g] = true
	k := scopeKey{g.Scope, g.Key}
	m.grants[k] = append(m.grants[k], g.Rule)
	return true
}

func checkGrant(g Grant) error {
	if !g.Scope.Valid() {
		return fmt.Errorf("store: invalid grant scope %d", g.Scope)
	}
	if g.Key == "" || g.Rule == "" {
		return fmt.Errorf("store: a grant needs a key and a rule")
	}
	return nil
}

// Grants implements [Grants].
func (m *Memory) Grants(_ context.Context, scope Scope, key string) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.grants[scopeKey{scope, key}]), nil
}

// PutApproval implements [Approvals].
func (m *Memory) PutApproval(_ context.Context, a Approval) error {
	if a.ID == "" {
		return fmt.Errorf("store: an approval needs an id")
	}
	m.mu.Lock()
	if m.approvals == nil {
		m.approvals = make(map[string]*Approval)
	}
	if _, ok := m.approvals[a.ID]; ok {
		m.mu.Unlock()
		return fmt.Errorf("%w: %q", ErrExists, a.ID)
	}
	a.Answered, a.Answer = false, Answer{}
	cp := cloneApproval(a)
	m.approvals[a.ID] = &cp
	m.order = append(m.order, a.ID)
	if len(m.order) >= 2*m.pruned+64 {
		m.pruneLocked(time.Now()) // amortised: memory stays bounded without Pending
	}
	m.mu.Unlock()
	m.hub.Publish(Event{Kind: ApprovalAdded, ID: a.ID, Key: a.Session})
	return nil
}

func cloneApproval(a Approval) Approval {
	a.Input = slices.Clone(a.Input)
	a.AlwaysRules = slices.Clone(a.AlwaysRules)
	a.Answerers = slices.Clone(a.Answerers)
	if a.Commands != nil {
		a.Commands = slices.Clone(a.Commands)
		for i := range a.Commands {
			a.Commands[i].Args = slices.Clone(a.Commands[i].Args)
		}
	}
	return a
}

// Approval implements [Approvals].
func (m *Memory) Approval(_ context.Context, id string) (Approval, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	a, ok := m.approvals[id]
	if !ok {
		return Approval{}, fmt.Errorf("%w: approval %q", ErrNotFound, id)
	}
	return cloneApproval(*a), nil
}

// Pending implements [Approvals].
func (m *Memory) Pending(_ context.Context) ([]Approval, error) {
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.pruneLocked(now)
	var out []Approval
	for _, id := range m.order {
		if a := m.approvals[id]; !a.Answered && (a.Expires.IsZero() || now.Before(a.Expires)) {
			out = append(out, cloneApproval(*a))
		}
	}
	return out, nil
}

// memoryAnsweredKept bounds the answered approvals a Memory keeps for
// reading: a pipeline that denies the oldest of a full session's parked
// approvals to make room answers one for every new Ask, and an hour of
// those would grow the heap without bound.
const memoryAnsweredKept = 4096

// pruneLocked forgets the approvals answered or expired over an hour
// ago, and the oldest answered ones beyond memoryAnsweredKept.
func (m *Memory) pruneLocked(now time.Time) {
	answered := 0
	for _, id := range m.order {
		if m.approvals[id].Answered {
			answered++
		}
	}
	keep := m.order[:0]
	for _, id := range m.order {
		a := m.approvals[id]
		end := a.Expires
		if a.Answered {
			end = a.Answer.at
		}
		if !end.IsZero() && now.After(end.Add(time.Hour)) || a.Answered && answered > memoryAnsweredKept {
			if a.Answered {
				answered--
			}
			delete(m.approvals, id)
			continue
		}
		keep = append(keep, id)
	}
	m.order = keep
	m.pruned = len(keep)
}

// AnswerApproval implements [Approvals].
func (m *Memory) AnswerApproval(_ context.Context, id string, ans Answer) error {
	if err := checkAnswer(ans); err != nil {
		return err
	}
	m.mu.Lock()
	a, ok := m.approvals[id]
	switch {
	case !ok:
		m.mu.Unlock()
		return fmt.Errorf("%w: approval %q", ErrNotFound, id)
	case a.Answered:
		m.mu.Unlock()
		return fmt.Errorf("%w: %q", ErrAnswered, id)
	case !a.Expires.IsZero() && time.Now().After(a.Expires):
		m.mu.Unlock()
		return fmt.Errorf("%w: %q", ErrExpired, id)
	}
	ans.at = time.Now()
	a.Answered, a.Answer = true, ans
	var grants []Grant
	if ans.Choice == ChoiceAllowAlways {
		for _, g := range AlwaysGrants(*a, ans.Scope) {
			if m.addGrantLocked(g) {
				grants = append(grants, g)
			}
		}
	}
	m.mu.Unlock()
	for _, g := range grants {
		m.hub.Publish(Event{Kind: GrantAdded, Scope: g.Scope, Key: g.Key})
	}
	m.hub.Publish(Event{Kind: ApprovalAnswered, ID: id, Key: a.Session})
	return nil
}

func checkAnswer(ans Answer) error {
	if ans.Choice > ChoiceAllowAlways {
		return fmt.Errorf("store: unknown choice %d", ans.Choice)
	}
	if ans.Scope != 0 && !ans.Scope.Valid() {
		return fmt.Errorf("store: invalid scope %d", ans.Scope)
	}
	return nil
}

// AlwaysGrants returns the grants an AllowAlways answer in scope (zero:
// session) adds for a: one per rule of a.AlwaysRules, keyed by a's session
// ([SessionKey] of its project, user and session), project or user. A
// scope whose key a does not carry gives none.
func AlwaysGrants(a Approval, scope Scope) []Grant {
	var key string
	if a.Session != "" {
		key = SessionKey(a.Project, a.User, a.Session)
	}
	switch scope {
	case ScopeProject:
		key = a.Project
	case ScopeUser:
		key = a.User
	default:
		scope = ScopeSession
	}
	if key == "" {
		return nil
	}
	gs := make([]Grant, 0, len(a.AlwaysRules))
	for _, r := range a.AlwaysRules {
		gs = append(gs, Grant{Scope: scope, Key: key, Rule: r})
	}
	return gs
}

// CancelSession implements [Cancels].
func (m *Memory) CancelSession(_ context.Context, session, reason string) error {
	m.mu.Lock()
	if m.cancels == nil {
		m.cancels = make(map[string]string)
	}
	_, had := m.cancels[session]
	if !had {
		m.cancels[session] = reason
	}
	m.mu.Unlock()
	if !had {
		m.hub.Publish(Event{Kind: SessionCancelled, Key: session})
	}
	return nil
}

// Cancelled implements [Cancels].
func (m *Memory) Cancelled(_ context.Context, session string) (string, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.cancels[session]
	return r, ok, nil
}

// SaveCounters implements [CounterStore].
func (m *Memory) SaveCounters(_ context.Context, session string, c Counters) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.counters == nil {
		m.counters = make(map[string]Counters)
	}
	c.Recent = cloneRecent(c.Recent)
	m.counters[session] = c
	return nil
}

// Counters implements [CounterStore].
func (m *Memory) Counters(_ context.Context, session string) (Counters, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.counters[session]
	c.Recent = cloneRecent(c.Recent)
	return c, ok, nil
}

func cloneRecent(r [][]byte) [][]byte {
	if r == nil {
		return nil
	}
	out := make([][]byte, len(r))
	for i, b := range r {
		out[i] = slices.Clone(b)
	}
	return out
}

// Watch implements [Store].
func (m *Memory) Watch(fn func(Event)) (stop func()) { return m.hub.Watch(fn) }

// watchIf is Watch for the events want accepts (see Hub.WatchIf).
func (m *Memory) watchIf(want func(Event) bool, fn func(Event)) (stop func()) {
	return m.hub.WatchIf(want, fn)
}

// immediateStore promises [Bounded] that m's calls never wait: they hold
// m's lock over memory only, and hand events to watchers without waiting
// for them.
func (m *Memory) immediateStore() Store { return m }

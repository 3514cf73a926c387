package runtime

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolgate/toolgate/internal/jsonin"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime/approval"
	"github.com/toolgate/toolgate/runtime/store"
)

// stores is the pipeline's link to its [store.Store]: the watch that
// keeps the live sessions' caches current, and the waiters of
// [Pipeline.Resume].
type stores struct {
	// st is the configured store, every call of it bounded
	// ([store.Bound]): a stalled database costs a call its timeout.
	st   store.Store
	stop func()
	done chan struct{} // closed by Close: the resync loop ends

	mu      sync.Mutex
	epoch   uint64 // events seen; a session start that saw it move restores again
	waiters map[string][]chan struct{}
	// waiting is len(waiters), set under mu, read by wants without it.
	waiting atomic.Int64
	parked  parkedSet // the approvals this pipeline parked, still waiting

	// The resync state, under mu: lost says why changes made elsewhere may
	// be unheard ("" when none are); heard is set by a Resync after the
	// last Lost; gen counts both, so that a reload knows whether it is
	// still the latest; syncing is set while the resync loop runs.
	lost    string
	heard   bool
	gen     uint64
	syncing bool
	// blocked is lost as the gate reads it without the lock; nil when
	// the pipeline is in sync.
	blocked atomic.Pointer[string]
}

func (p *Pipeline) openStore() {
	if p.cfg.Store == nil {
		p.cfg.Store = store.NewMemory()
	}
	st, ok := p.cfg.Store.(*store.Bounded)
	if !ok {
		st = store.Bound(p.cfg.Store, store.DefaultTimeout)
	}
	p.st = &stores{st: st, waiters: make(map[string][]chan struct{}), done: make(chan struct{})}
	p.st.stop = st.WatchIf(p.wants, p.onEvent)
}

// Close stops following the store's changes. Sessions still live keep
// what they have; later changes made elsewhere no longer reach them. A
// pipeline [Open] built also releases its sandbox's and shell guard's
// inotify instances: checks made after Close stay correct and look the
// workspace up again each time. Close may be called more than once.
func (p *Pipeline) Close() error {
	p.st.stop()
	p.st.mu.Lock()
	select {
	case <-p.st.done:
	default:
		close(p.st.done)
	}
	p.st.mu.Unlock()
	var err error
	for _, c := range p.owned {
		err = errors.Join(err, c.Close())
	}
	return err
}

// Cancel cancels session id wherever it runs: on this replica at once, on
// the others sharing the store when they hear of it. A session that starts
// later with that id starts cancelled.
func (p *Pipeline) Cancel(ctx context.Context, id, reason string) error {
	if reason == "" {
		reason = "cancelled by the user"
	}
	if a := p.agent(id); a != nil {
		a.l7.Cancel(reason)
	}
	return p.st.st.CancelSession(ctx, id, reason)
}

// Grant records an "allow always" rule in scope: for the session id (of
// this pipeline's project and user: the same id elsewhere does not see
// it), for the project of this pipeline or for its user. Live sessions it
// applies to, on every replica sharing the store, see it once they hear of
// it.
func (p *Pipeline) Grant(ctx context.Context, scope store.Scope, id, rule string) error {
	var key string
	switch scope {
	case store.ScopeSession:
		if id != "" {
			key = store.SessionKey(p.cfg.Project, p.cfg.User, id)
		}
	case store.ScopeProject:
		key = p.cfg.Project
	case store.ScopeUser:
		key = p.cfg.User
	}
	if key == "" {
		return fmt.Errorf("runtime: no %s to grant to", scope)
	}
	// The rule must parse before it is shared.
	if err := p.cfg.Checker.NewSession().Add(permission.Allow, rule); err != nil {
		return err
	}
	return p.st.st.AddGrant(ctx, store.Grant{Scope: scope, Key: key, Rule: rule})
}

// wants says whether onEvent has a use for e, asked before the store
// queues it: an approval's addition is of none (a session's restore reads
// no approval), and its answer only while a Resume waits for one. That
// is sound because Resume adds its waiter before it reads the approval:
// an answer whose event wants drops (no waiter yet) is in the store by
// then, and the read finds it.
func (p *Pipeline) wants(e store.Event) bool {
	switch e.Kind {
	case store.ApprovalAdded:
		return false
	case store.ApprovalAnswered:
		return p.st.waiting.Load() > 0
	}
	return true
}

// onEvent brings the live sessions' caches up to date with one change.
// What it cannot read now is read again by the resync loop; a
// cancellation it hears of holds even if its reason cannot be read.
func (p *Pipeline) onEvent(e store.Event) {
	p.st.mu.Lock()
	p.st.epoch++
	var wake []chan struct{}
	switch e.Kind {
	case store.ApprovalAnswered:
		wake = p.st.waiters[e.ID]
		delete(p.st.waiters, e.ID)
	case store.Resync:
		for id, ws := range p.st.waiters {
			wake = append(wake, ws...)
			delete(p.st.waiters, id)
		}
	}
	p.st.waiting.Store(int64(len(p.st.waiters)))
	switch e.Kind {
	case store.Lost:
		p.st.gen++
		p.st.heard = false
		p.st.lost = "the store's change feed was lost at " + time.Now().UTC().Format(time.RFC3339) +
			": a cancellation made elsewhere may be unheard until it is back and read again"
		why := p.st.lost // a copy: the gate reads it without the lock
		p.st.blocked.Store(&why)
	}
	p.st.mu.Unlock()
	for _, c := range wake {
		close(c)
	}
	ctx := context.Background() // every call is bounded by the store
	switch e.Kind {
	case store.GrantAdded:
		var rules []string
		for _, a := range p.liveAgents() {
			if a.parent != nil || !a.grantedTo(p, e.Scope, e.Key) {
				continue
			}
			if rules == nil {
				var err error
				if rules, err = p.st.st.Grants(ctx, e.Scope, e.Key); err != nil {
					p.resync(false)
					return
				}
			}
			a.applyGrants(rules)
		}
	case store.SessionCancelled:
		if a := p.agent(e.Key); a != nil {
			reason, ok, err := p.st.st.Cancelled(ctx, e.Key)
			switch {
			case err != nil:
				a.l7.Cancel("cancelled elsewhere (the reason could not be read: " + err.Error() + ")")
			case ok:
				a.l7.Cancel(reason)
			}
		}
	case store.Resync:
		p.resync(true)
	}
}

// resync reloads every live top-level session from the store, on a
// goroutine of its own, until a reload succeeds with no Lost or Resync
// since it began; heard says a Resync asked for it. Once one succeeds
// after the Resync that followed a Lost, the gate opens again.
func (p *Pipeline) resync(heard bool) {
	p.st.mu.Lock()
	defer p.st.mu.Unlock()
	p.st.gen++
	if heard {
		p.st.heard = true
	}
	if p.st.syncing {
		return
	}
	p.st.syncing = true
	go p.resyncLoop()
}

func (p *Pipeline) resyncLoop() {
	backoff := 20 * time.Millisecond
	for {
		p.st.mu.Lock()
		gen := p.st.gen
		p.st.mu.Unlock()
		var err error
		for _, a := range p.liveAgents() {
			if a.parent == nil {
				err = errors.Join(err, p.restore(context.Background(), a, false))
			}
		}
		p.st.mu.Lock()
		if err == nil && gen == p.st.gen {
			if p.st.heard {
				p.st.lost = ""
				p.st.blocked.Store(nil)
			}
			p.st.syncing = false
			p.st.mu.Unlock()
			return
		}
		p.st.mu.Unlock()
		if err == nil {
			continue // something changed meanwhile: read again
		}
		t := time.NewTimer(backoff)
		select {
		case <-p.st.done:
			t.Stop()
			p.st.mu.Lock()
			p.st.syncing = false
			p.st.mu.Unlock()
			return
		case <-t.C:
		}
		backoff = min(2*backoff, time.Second)
	}
}

// syncGate turns v into a Deny while the pipeline may have missed
// changes made elsewhere (its store lost its change feed): a session
// cancelled on another replica must not go on here unheard.
func (p *Pipeline) syncGate(v Verdict) Verdict {
	why := p.st.blocked.Load()
	if why == nil || v.Decision == permission.Deny {
		return v
	}
	v.overridden()
	v.Decision, v.Layer, v.Source, v.Rule, v.Reason, v.Ticket = permission.Deny, permission.LayerRuntime, permission.SourceToolDeny, RuleStore, *why, ""
	return v
}

func (p *Pipeline) liveAgents() []*agent {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]*agent, 0, len(p.agents))
	for _, a := range p.agents {
		out = append(out, a)
	}
	return out
}

// grantedTo reports whether grants of scope and key apply to a.
func (a *agent) grantedTo(p *Pipeline, scope store.Scope, key string) bool {
	switch scope {
	case store.ScopeSession:
		return key == store.SessionKey(p.cfg.Project, p.cfg.User, a.l7.ID())
	case store.ScopeProject:
		return key != "" && key == p.cfg.Project
	case store.ScopeUser:
		return key != "" && key == p.cfg.User
	}
	return false
}

// applyGrants adds to a's session rules those of rules it does not have,
// in one step (linear in their number, however many there are). A rule
// that does not parse is skipped: a grant only ever adds an Allow.
func (a *agent) applyGrants(rules []string) {
	a.grantMu.Lock()
	defer a.grantMu.Unlock()
	if a.granted == nil {
		a.granted = make(map[string]bool)
	}
	var add []string
	for _, r := range rules {
		if !a.granted[r] {
			a.granted[r] = true
			add = append(add, r)
		}
	}
	if len(add) == 0 || a.rules.Add(permission.Allow, add...) == nil {
		return
	}
	// Some rule does not parse: leave out each one that fails alone.
	good := add[:0]
	check := a.p.cfg.Checker.NewSession()
	for _, r := range add {
		if check.Add(permission.Allow, r) == nil {
			good = append(good, r)
			check = a.p.cfg.Checker.NewSession()
		}
	}
	_ = a.rules.Add(permission.Allow, good...)
}

// noteGranted records rules the session's rules already hold, so that the
// store's copy of them is not added again.
func (a *agent) noteGranted(rules []string) {
	a.grantMu.Lock()
	defer a.grantMu.Unlock()
	if a.granted == nil {
		a.granted = make(map[string]bool)
	}
	for _, r := range rules {
		a.granted[r] = true
	}
}

// restore loads what the store keeps for a top-level session: its grants
// (all of them, then added in one step), its cancellation and, when
// counters is set, its layer-7 counters. Each read is bounded by the
// store's timeout.
func (p *Pipeline) restore(ctx context.Context, a *agent, counters bool) error {
	st := p.st.st
	var all []string
	for _, sk := range []struct {
		scope store.Scope
		key   string
	}{{store.ScopeSession, store.SessionKey(p.cfg.Project, p.cfg.User, a.l7.ID())}, {store.ScopeProject, p.cfg.Project}, {store.ScopeUser, p.cfg.User}} {
		if sk.key == "" {
			continue
		}
		rules, err := st.Grants(ctx, sk.scope, sk.key)
		if err != nil {
			return fmt.Errorf("runtime: loading %s grants: %w", sk.scope, err)
		}
		all = append(all, rules...)
	}
	a.applyGrants(all)
	reason, cancelled, err := st.Cancelled(ctx, a.l7.ID())
	if err != nil {
		return fmt.Errorf("runtime: loading the cancellation: %w", err)
	}
	if cancelled {
		a.l7.Cancel(reason)
	}
	if counters {
		c, ok, err := st.Counters(ctx, a.l7.ID())
		if err != nil {
			return fmt.Errorf("runtime: loading the counters: %w", err)
		}
		if ok {
			a.l7.restoreCounters(c)
		}
	}
	return nil
}

func (p *Pipeline) epoch() uint64 {
	p.st.mu.Lock()
	defer p.st.mu.Unlock()
	return p.st.epoch
}

// saveCounters keeps a session's counters in the store, for the worker that
// carries it on. An error leaves the store's copy as it was: the session
// here goes on with its own.
func (p *Pipeline) saveCounters(a *agent) {
	if a.parent != nil {
		return
	}
	_ = p.st.st.SaveCounters(a.record, a.l7.ID(), a.l7.counters())
}

// newTicket returns an unguessable approval id.
func newTicket() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	var t [4 + 2*len(b)]byte
	copy(t[:], "ask-")
	hex.Encode(t[4:], b[:])
	return string(t[:])
}

// park records an Ask in the store so that a person can answer it from
// any replica; the verdict stays an Ask and carries the ticket for
// [Pipeline.Resume]. If the store fails (or passes its deadline), the
// call is denied, saying so.
func (a *agent) park(ctx context.Context, call Call, v Verdict, q *question) Verdict {
	p := a.p
	now := time.Now()
	ap := store.Approval{
		ID: newTicket(), Session: a.l7.ID(), Project: p.cfg.Project, User: p.cfg.User,
		Tool: call.Tool, Input: v.Input, Agent: a.name, Script: q.script, Commands: q.commands,
		Reason: v.Reason, Explanation: explain(call.Tool, &v),
		AlwaysRules: q.always, Created: now, Expires: now.Add(p.cfg.ParkTimeout),
	}
	// The store's calls are bounded by its own deadline, not by ctx: an
	// approval denied to make room is answered, and the new one recorded,
	// even when ctx ends meanwhile.
	ctx = context.WithoutCancel(ctx)
	for _, old := range p.st.parkReserve(ap.Session, ap.ID, ap.Expires, now, p.cfg.MaxParked, p.cfg.MaxParkedPerSession) {
		// Its Resume, if any comes, is a Deny that says why.
		_ = p.st.st.AnswerApproval(ctx, old.ticket, store.Answer{Choice: store.ChoiceDeny, By: parkedEvictor,
			Reason: old.reason})
	}
	if err := p.st.st.PutApproval(ctx, ap); err != nil {
		p.st.parkedDone(ap.Session, ap.ID)
		// No ticket, no answer: the call cannot run.
		v.overridden()
		v.Decision, v.Layer, v.Source, v.Rule = permission.Deny, permission.LayerRuntime, permission.SourceToolDeny, RuleStore
		v.Reason = "the approval could not be recorded: " + err.Error()
		return v
	}
	if why, doomed := p.st.parkedPut(ap.Session, ap.ID); doomed {
		// Denied to make room while it was being put: its Resume says so.
		_ = p.st.st.AnswerApproval(ctx, ap.ID, store.Answer{Choice: store.ChoiceDeny, By: parkedEvictor, Reason: why})
	}
	v.Ticket = ap.ID
	return v
}

// ErrUnknownTicket is returned by [Pipeline.Resume] for a ticket the store
// does not know.
var ErrUnknownTicket = errors.New("runtime: unknown approval ticket")

// Resume waits for the person's answer to the Ask whose verdict carried
// ticket, on this replica or any other sharing the store, and returns the
// verdict: Allow (run the tool with the verdict's Input, the input the
// person saw) or Deny with the reason. An approval that expires
// unanswered, or whose session was cancelled, is a Deny. If ctx ends
// first, Resume returns ctx's error; the approval stays pending and can be
// resumed again.
func (p *Pipeline) Resume(ctx context.Context, ticket string) (Verdict, error) {
	for {
		wake := make(chan struct{})
		p.st.mu.Lock()
		p.st.waiters[ticket] = append(p.st.waiters[ticket], wake)
		p.st.waiting.Store(int64(len(p.st.waiters)))
		p.st.mu.Unlock()
		ap, err := p.st.st.Approval(ctx, ticket)
		if err != nil {
			p.dropWaiter(ticket, wake)
			if errors.Is(err, store.ErrNotFound) {
				return Verdict{}, fmt.Errorf("%w: %q", ErrUnknownTicket, ticket)
			}
			return Verdict{}, err
		}
		if v, done := p.resumed(ctx, ap); done {
			p.dropWaiter(ticket, wake)
			p.st.parkedDone(ap.Session, ticket)
			return v, nil
		}
		timer := time.NewTimer(time.Until(ap.Expires))
		select {
		case <-wake:
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			p.dropWaiter(ticket, wake)
			return Verdict{}, ctx.Err()
		}
		timer.Stop()
	}
}

func (p *Pipeline) dropWaiter(ticket string, c chan struct{}) {
	p.st.mu.Lock()
	defer p.st.mu.Unlock()
	ws := p.st.waiters[ticket]
	for i, w := range ws {
		if w == c {
			ws = append(ws[:i], ws[i+1:]...)
			break
		}
	}
	if len(ws) == 0 {
		delete(p.st.waiters, ticket)
	} else {
		p.st.waiters[ticket] = ws
	}
	p.st.waiting.Store(int64(len(p.st.waiters)))
}

// resumed returns the verdict of an approval that has its answer, expired
// or lost its session; done is false while it is pending.
func (p *Pipeline) resumed(ctx context.Context, ap store.Approval) (Verdict, bool) {
	v := Verdict{Input: ap.Input, Asked: true}
	v.Layer, v.Source = permission.LayerRuntime, permission.SourceToolDeny
	denied := func(rule permission.RuleID, reason string) (Verdict, bool) {
		v.Decision, v.Rule, v.Reason = permission.Deny, rule, reason
		return v, true
	}
	if reason, ok, err := p.st.st.Cancelled(ctx, ap.Session); err != nil {
		return denied(RuleStore, "the cancellation could not be read: "+err.Error())
	} else if ok {
		return denied(RuleCancelled, "session is cancelled: "+reason)
	}
	if a := p.agent(ap.Session); a != nil && a.l7.err() != nil {
		return denied(RuleCancelled, "session is cancelled: "+a.l7.err().Error())
	}
	if !ap.Answered {
		if !ap.Expires.IsZero() && !time.Now().Before(ap.Expires) {
			return denied(RuleTimeout, fmt.Sprintf("no answer by %s: denied", ap.Expires.UTC().Format(time.RFC3339)))
		}
		return Verdict{}, false
	}
	v.Answer = approval.Choice(ap.Answer.Choice)
	switch v.Answer {
	case approval.AllowOnce, approval.AllowAlways:
		v.Decision, v.Source, v.Rule = permission.Allow, permission.SourceAllow, allowedRule(v.Answer)
		v.Reason = "the person allowed it (" + v.Answer.String() + ") after: " + ap.Reason
		if v.Answer == approval.AllowAlways {
			if gs := store.AlwaysGrants(ap, ap.Answer.Scope); len(gs) > 0 {
				rules := make([]string, len(gs))
				for i, g := range gs {
					rules[i] = g.Rule
				}
				v.Reason += "; added " + gs[0].Scope.String() + " rules " + strings.Join(rules, ", ")
				if a := p.agent(ap.Session); a != nil && a.grantedTo(p, gs[0].Scope, gs[0].Key) {
					a.applyGrants(rules) // now, not when the event arrives
				}
			}
		}
		return v, true
	}
	if ap.Answer.By == parkedEvictor {
		v.Decision, v.Rule, v.Reason = permission.Deny, RuleParkedFull, ap.Answer.Reason
		return v, true
	}
	v.Decision, v.Rule, v.Reason = permission.Deny, RuleDenied, "the person denied it"
	if ap.Answer.Reason != "" {
		v.Reason += ": " + ap.Answer.Reason
	}
	return v, true
}

// shellOf returns, for a shell call, the script (the first non-empty of
// the command fields among the members of the verdict's input) and its
// simple commands as an approval shows them; nothing for other calls.
func shellOf(v *Verdict, fields []string, members []jsonin.Member) (string, []store.ApprovalCommand) {
	if len(v.Commands) == 0 {
		return "", nil
	}
	var script string
	for _, f := range fields {
		if m := jsonin.MemberOf(members, f); m != nil {
			if script = stringMember(m); script != "" {
				break
			}
		}
	}
	cmds := make([]store.ApprovalCommand, len(v.Commands))
	for i, c := range v.Commands {
		cmds[i] = store.ApprovalCommand{Args: c.Args, Pos: c.Pos, Asks: c.Decision == permission.Ask, Reason: c.Reason}
	}
	return script, cmds
}

// stringMember returns the text of a member whose value is a string, or
// "".
func stringMember(m *jsonin.Member) string {
	switch {
	case m.Decoded:
		return m.Str
	case len(m.Val) < 2 || m.Val[0] != '"':
		return ""
	case bytes.IndexByte(m.Val, '\\') < 0:
		return string(m.Val[1 : len(m.Val)-1]) // a canonical string without escapes is its own text
	}
	return jsonin.DecodeString(m.Val)
}

// explain returns the layer-by-layer account of verdict v on a call of
// tool: the decision with its layer, rule and reason, each answer it
// overrode, and each simple command's own verdict. It is what an approval
// page shows beside the call.
func explain(tool string, v *Verdict) string {
	var b strings.Builder
	n := len(tool) + len(v.Reason) + len(v.Rule) + 48
	for i := range v.Conflicts.Len() {
		c := v.Conflicts.At(i)
		n += len(c.Rule) + len(c.Reason) + 48
	}
	for _, c := range v.Commands {
		n += len(c.Pos) + len(c.Rule) + len(c.Reason) + 48
		for _, a := range c.Args {
			n += len(a) + 1
		}
	}
	b.Grow(n)
	line := func(d permission.Decision, l permission.Layer, rule permission.RuleID) {
		b.WriteString(d.String())
		b.WriteString(" by ")
		b.WriteString(l.String())
		if rule != "" {
			b.WriteString(" (rule ")
			b.WriteString(string(rule))
			b.WriteByte(')')
		}
	}
	b.WriteString(v.Decision.String())
	b.WriteByte(' ')
	b.WriteString(tool)
	b.WriteString(": ")
	b.WriteString(v.Reason)
	b.WriteString(" by ")
	b.WriteString(v.Layer.String())
	if v.Rule != "" {
		b.WriteString(" (rule ")
		b.WriteString(string(v.Rule))
		b.WriteByte(')')
	}
	b.WriteByte('\n')
	for i := range v.Conflicts.Len() {
		c := v.Conflicts.At(i)
		b.WriteString("  overrode ")
		line(c.Decision, c.Layer, c.Rule)
		if c.Reason != "" {
			b.WriteString(": ")
			b.WriteString(c.Reason)
		}
		b.WriteByte('\n')
	}
	for _, c := range v.Commands {
		b.WriteString("  command ")
		for i, a := range c.Args {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(a)
		}
		b.WriteString(" at ")
		b.WriteString(c.Pos)
		b.WriteString(": ")
		line(c.Decision, c.Layer, c.Rule)
		b.WriteString(": ")
		b.WriteString(c.Reason)
		b.WriteByte('\n')
	}
	return b.String()
}

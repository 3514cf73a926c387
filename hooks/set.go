package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolgate/toolgate/permission"
)

// A Set holds hooks in registration order and runs their callbacks for each
// event, isolating failures (see [Hook]). Its zero value is an empty Set
// ready to use; set the configuration fields before the first call. A Set
// is safe for concurrent use: hooks may be added while events run, and an
// event runs the hooks registered when it began.
//
// Call [Set.Close] when done with a Set to stop its idle goroutines.
type Set struct {
	// Timeout bounds each callback of a hook whose own Timeout is zero.
	// Zero means DefaultTimeout; NoTimeout runs such hooks inline
	// without a limit.
	Timeout time.Duration

	// OnFailure, if set, is called with every failed callback, after
	// the event's chain has finished. It must be safe for concurrent use.
	OnFailure func(*Error)

	// Logger, if set, receives a warning for every failed callback.
	Logger *slog.Logger

	mu       sync.Mutex
	list     atomic.Pointer[list]
	hot      atomic.Pointer[worker] // the idle worker taken first
	idle     []*worker              // more idle workers, guarded by mu
	closed   bool                   // guarded by mu
	isClosed atomic.Bool
}

// list is an immutable snapshot of the registered hooks.
type list struct {
	entries []entry
}

type entry struct {
	h    Hook
	name string
}

// NewSet returns a Set holding hooks, in order.
func NewSet(hooks ...Hook) *Set {
	s := new(Set)
	s.Add(hooks...)
	return s
}

// Add appends hooks to the Set. Events that begin after Add returns see
// them.
func (s *Set) Add(hooks ...Hook) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var n []entry
	if old := s.list.Load(); old != nil {
		n = append(n, old.entries...)
	}
	for _, h := range hooks {
		name := h.Name
		if name == "" {
			name = "hook #" + strconv.Itoa(len(n)+1)
		}
		n = append(n, entry{h: h, name: name})
	}
	s.list.Store(&list{entries: n})
}

// Len returns the number of hooks in the Set.
func (s *Set) Len() int {
	if l := s.list.Load(); l != nil {
		return len(l.entries)
	}
	return 0
}

// Close stops the Set's idle goroutines. Goroutines still running a
// callback that overran its timeout stop when the callback returns. The
// Set stays usable after Close, at the cost of a goroutine per timed chain.
func (s *Set) Close() {
	s.mu.Lock()
	idle := s.idle
	s.idle = nil
	s.closed = true
	s.isClosed.Store(true)
	s.mu.Unlock()
	if w := s.hot.Swap(nil); w != nil {
		idle = append(idle, w)
	}
	for _, w := range idle {
		close(w.start)
	}
}

// timeout returns the effective timeout of e.
func (s *Set) timeout(e *entry) time.Duration {
	if e.h.Timeout != 0 {
		return e.h.Timeout
	}
	if s.Timeout != 0 {
		return s.Timeout
	}
	return DefaultTimeout
}

// PreToolUseOutcome is the result of a PreToolUse chain. Its zero value is
// a Deny, so an outcome that was never filled in fails closed.
//
// Decision is the strictest answer of the hooks: Allow means no hook
// objected and the rules decide alone; Ask means a hook required a
// person's confirmation; Deny means a hook blocked the call or failed.
// Hooks can only tighten: the pipeline combines Decision with the rules'
// decision by [permission.Decision.Stricter], so no hook can turn a rule's
// Deny (or Ask) into Allow. A command hook answering
// permissionDecision "allow" counts as Continue for the same reason.
type PreToolUseOutcome struct {
	Decision permission.Decision
	// Reason says why, for Ask and Deny.
	Reason string
	// Hook names the hook that decided, for Ask and Deny; empty when the
	// Deny comes from the session being cancelled.
	Hook string
	// Input is the call's input after every MutateInput.
	Input json.RawMessage
	// Context joins the hooks' additional contexts in order, one per line.
	Context string
	// Err is the failure that blocked the call, if a hook failed.
	Err error
}

// PreToolUse runs the PreToolUse chain for a call. ctx is the session's
// context; if it is already done, the call is denied without running any
// hook.
func (s *Set) PreToolUse(ctx context.Context, e PreToolUseEvent) PreToolUseOutcome {
	if err := ctx.Err(); err != nil {
		return PreToolUseOutcome{Decision: permission.Deny, Reason: "session cancelled: " + err.Error(), Input: e.Input}
	}
	var st jobState
	st.event = EventPreToolUse
	st.pre = e
	st.preOut = PreToolUseOutcome{Decision: permission.Allow, Input: e.Input}
	s.run(ctx, &st)
	s.report(st.errs)
	return st.preOut
}

// PostToolUseOutcome is the result of a PostToolUse chain.
type PostToolUseOutcome struct {
	// Output is the output after every MutateOutput.
	Output string
	// Context joins the hooks' additional contexts in order, one per line.
	Context string
	// Err joins the failed callbacks' [*Error] values, or is nil.
	Err error
}

// PostToolUse runs the PostToolUse chain for a call. A failed callback
// leaves the output as it was before it and the chain goes on.
func (s *Set) PostToolUse(ctx context.Context, e PostToolUseEvent) PostToolUseOutcome {
	var st jobState
	st.event = EventPostToolUse
	st.post = e
	st.postOut.Output = e.Output
	s.run(ctx, &st)
	s.report(st.errs)
	st.postOut.Err = joinErrs(st.errs)
	return st.postOut
}

// SessionStart runs the SessionStart callbacks. It returns the failed
// callbacks' [*Error] values joined, or nil.
func (s *Set) SessionStart(ctx context.Context, e SessionStartEvent) error {
	return notify(s, ctx, EventSessionStart, e, func(h *Hook) func(context.Context, SessionStartEvent) error { return h.SessionStart })
}

// StepComplete runs the StepComplete callbacks; see [Set.SessionStart].
func (s *Set) StepComplete(ctx context.Context, e StepCompleteEvent) error {
	return notify(s, ctx, EventStepComplete, e, func(h *Hook) func(context.Context, StepCompleteEvent) error { return h.StepComplete })
}

// SessionStop runs the SessionStop callbacks; see [Set.SessionStart]. ctx
// may already be cancelled (a cancelled session still stops); callbacks
// run regardless.
func (s *Set) SessionStop(ctx context.Context, e SessionStopEvent) error {
	return notify(s, ctx, EventSessionStop, e, func(h *Hook) func(context.Context, SessionStopEvent) error { return h.SessionStop })
}

// SubagentStart runs the SubagentStart callbacks; see [Set.SessionStart].
func (s *Set) SubagentStart(ctx context.Context, e SubagentStartEvent) error {
	return notify(s, ctx, EventSubagentStart, e, func(h *Hook) func(context.Context, SubagentStartEvent) error { return h.SubagentStart })
}

// SubagentStop runs the SubagentStop callbacks; see [Set.SessionStart].
func (s *Set) SubagentStop(ctx context.Context, e SubagentStopEvent) error {
	return notify(s, ctx, EventSubagentStop, e, func(h *Hook) func(context.Context, SubagentStopEvent) error { return h.SubagentStop })
}

// PreCompact runs the PreCompact callbacks; see [Set.SessionStart].
func (s *Set) PreCompact(ctx context.Context, e PreCompactEvent) error {
	return notify(s, ctx, EventPreCompact, e, func(h *Hook) func(context.Context, PreCompactEvent) error { return h.PreCompact })
}

// PostCompact runs the PostCompact callbacks; see [Set.SessionStart].
func (s *Set) PostCompact(ctx context.Context, e PostCompactEvent) error {
	return notify(s, ctx, EventPostCompact, e, func(h *Hook) func(context.Context, PostCompactEvent) error { return h.PostCompact })
}

func notify[E any](s *Set, ctx context.Context, ev Event, e E, pick func(*Hook) func(context.Context, E) error) error {
	var st jobState
	st.event = ev
	st.notify = func(ctx context.Context, h *Hook) (bool, error) {
		f := pick(h)
		if f == nil {
			return false, nil
		}
		return true, f(ctx, e)
	}
	s.run(ctx, &st)
	s.report(st.errs)
	return joinErrs(st.errs)
}

func (s *Set) report(errs []*Error) {
	for _, e := range errs {
		if s.Logger != nil {
			s.Logger.Warn("hook failed", "hook", e.Hook, "event", e.Event.String(), "err", e.Err)
		}
		if s.OnFailure != nil {
			func() {
				defer func() { _ = recover() }()
				s.OnFailure(e)
			}()
		}
	}
}

func joinErrs(errs []*Error) error {
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	es := make([]error, len(errs))
	for i, e := range errs {
		es[i] = e
	}
	return errors.Join(es...)
}

package runtime

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime/tasks"
)

var (
	// ErrCancelled is the cause of a session context cancelled by
	// [Session.Cancel].
	ErrCancelled = errors.New("runtime: session cancelled")
	// ErrSessionEnded is the cause of a session context cancelled by
	// [Session.End].
	ErrSessionEnded = errors.New("runtime: session ended")
	// ErrSessionExists is returned by [Pipeline.Session] for an id in
	// use that it cannot hand out: a child's (a child is always new), or
	// that of a session being ended.
	ErrSessionExists = errors.New("runtime: session already exists")
)

// sessions reserves session ids and holds each live session's layer-7
// state. It is safe for concurrent use.
type sessions struct {
	limits Limits // with defaults applied
	mu     sync.Mutex
	m      map[string]*Session
}

func newSessions(limits Limits) *sessions {
	return &sessions{limits: limits.withDefaults(), m: make(map[string]*Session)}
}

// start creates the session id. Its context derives from ctx: cancelling ctx
// cancels the session too. The id must be 1 to 256 bytes and not in use
// ([ErrSessionExists]).
func (s *sessions) start(ctx context.Context, id string) (*Session, error) {
	if id == "" || len(id) > 256 {
		return nil, fmt.Errorf("runtime: session id must be 1 to 256 bytes, got %d", len(id))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.m[id]; ok {
		return nil, fmt.Errorf("%w: %q", ErrSessionExists, id)
	}
	sess := newSession(ctx, id, s.limits)
	s.m[id] = sess
	return sess, nil
}

// end cancels the session id with cause [ErrSessionEnded] and forgets it.
// It reports whether the session was live.
func (s *sessions) end(id string) bool {
	s.mu.Lock()
	sess, ok := s.m[id]
	delete(s.m, id)
	s.mu.Unlock()
	if ok {
		sess.cancel(ErrSessionEnded)
	}
	return ok
}

// len returns the number of live sessions.
func (s *sessions) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.m)
}

// Session is one conversation's layer-7 state: its cancellation context,
// step count, recent calls, token budget and compaction breaker. It is safe
// for concurrent use.
type Session struct {
	// owner is the pipeline's state of the session; set before the
	// session is published, never changed after.
	owner  *agent
	id     string
	limits Limits
	ctx    context.Context
	cancel context.CancelCauseFunc
	bg     *tasks.Queue

	mu           sync.Mutex
	step         int
	recent       []callKey    // oldest first, at most limits.history()
	seed         maphash.Seed // of the keys' quick hashes
	tokens       int
	stepTokens   int
	lowRun       int
	compactFails int
	compactErr   error
	// lastStatus caches the Status built for lastStatusKey.
	lastStatus    Status
	lastStatusKey statusKey
	lastStatusOK  bool
}

// callKey identifies a call for the repeat and cycle checks: its tool and
// its input (canonical, or raw when it is not valid JSON), kept whole when
// short and as a SHA-256 sum otherwise, so that the history stays small.
// The history reuses each key's buffer, so a call's key costs no
// allocation once the history is full.
type callKey struct {
	tool string
	raw  bool   // the input is not valid JSON: body holds its bytes
	long bool   // the input is longer than maxShortKey: sum holds its hash
	body []byte // the input when short
	sum  [sha256.Size]byte
	// quick hashes the tool and the input under the session's seed, so
	// that keys that differ mostly differ at once; keys with the same
	// quick hash are still compared whole.
	quick uint64
}

// maxShortKey is the longest input a callKey holds whole.
const maxShortKey = 256

// set makes k the key of a call of tool with input, whose canonical form
// is canon (nil if input is not valid JSON), reusing k's buffer.
func (k *callKey) set(seed maphash.Seed, tool string, input, canon []byte) {
	body := canon
	k.tool, k.raw = tool, canon == nil
	if k.raw {
		body = input
	}
	k.quick = maphash.Bytes(seed, body) ^ maphash.String(seed, tool)
	k.long = len(body) > maxShortKey
	if k.long {
		k.body, k.sum = k.body[:0], callSum(tool, k.raw, body)
		k.quick = maphash.Bytes(seed, k.sum[:]) ^ maphash.String(seed, tool)
		return
	}
	k.body = append(k.body[:0], body...)
}

// same reports whether k and o identify the same call.
func (k *callKey) same(o *callKey) bool {
	if k.quick != o.quick || k.tool != o.tool || k.raw != o.raw || k.long != o.long {
		return false
	}
	if k.long {
		return k.sum == o.sum
	}
	return bytes.Equal(k.body, o.body)
}

func newSession(ctx context.Context, id string, l Limits) *Session {
	sctx, cancel := context.WithCancelCause(ctx)
	return &Session{id: id, limits: l, ctx: sctx, cancel: cancel, bg: tasks.New(sctx),
		recent: make([]callKey, 0, l.history()), seed: maphash.MakeSeed()}
}

// ID returns the session's id.
func (s *Session) ID() string { return s.id }

// Context returns the session's context. It is cancelled, at once, by
// [Session.Cancel], [Pipeline.Cancel] or [Session.End], by idle expiry,
// or with a child's parent; [context.Cause] says which.
func (s *Session) Context() context.Context { return s.ctx }

// Background returns the session's background task queue. Its tasks run
// under the session's context.
func (s *Session) Background() *tasks.Queue { return s.bg }

// Cancel cancels the session's context with a cause wrapping [ErrCancelled]
// and reason. Running tools with [tool.InterruptCancel] see their context
// cancelled; later calls are denied. Cancelling twice keeps the first cause.
func (s *Session) Cancel(reason string) {
	if reason == "" {
		reason = "cancelled by the user"
	}
	s.cancel(fmt.Errorf("%w: %s", ErrCancelled, reason))
}

// err returns nil while the session is live, and the cause of its
// cancellation afterwards: what context.Cause of its context returns.
func (s *Session) err() error {
	if s.ctx.Err() == nil {
		return nil
	}
	return context.Cause(s.ctx)
}

// beginStep starts the next step (model turn) of layer 7's state and
// returns the status. It closes the previous step's token gain for the
// diminishing-returns check.
func (s *Session) beginStep() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.step > 0 {
		if s.stepTokens < s.limits.MinStepTokens {
			s.lowRun++
		} else {
			s.lowRun = 0
		}
	}
	s.stepTokens = 0
	s.step++
	return s.statusLocked()
}

// Status returns the current status without changing it.
func (s *Session) Status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.statusLocked()
}

// AddTokens records n tokens added to the context in the current step (a
// tool result, a model reply) and returns the status. Negative n is
// ignored.
func (s *Session) AddTokens(n int) Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n > 0 {
		s.tokens += n
		s.stepTokens += n
	}
	return s.statusLocked()
}

func (s *Session) statusLocked() Status {
	// The status is a function of these fields (the cancellation cause
	// does not change once set); reuse the last one while they hold.
	key := statusKey{step: s.step, tokenLevel: s.tokenLevel(), lowRun: s.lowRun, cancelled: s.err() != nil}
	if !s.lastStatusOK || s.lastStatusKey != key {
		s.lastStatus, s.lastStatusKey, s.lastStatusOK = s.buildStatus(), key, true
	}
	st := s.lastStatus
	st.Tokens = s.tokens
	return st
}

// statusKey is what a Status is built from, apart from its token count
// and the session's limits, which do not change.
type statusKey struct {
	step, tokenLevel, lowRun int
	cancelled                bool
}

// tokenLevel is 2 at or past the hard token limit, 1 at or past the soft
// one, 0 below both.
func (s *Session) tokenLevel() int {
	switch {
	case s.tokens >= s.limits.TokenHardLimit:
		return 2
	case s.tokens >= s.limits.TokenSoftLimit:
		return 1
	}
	return 0
}

func (s *Session) buildStatus() Status {
	st := Status{Step: s.step}
	// The reasons, joined by "; ", built in one buffer.
	var b []byte
	n := 0
	sep := func() {
		if n > 0 {
			b = append(b, "; "...)
		}
		n++
	}
	if err := s.err(); err != nil {
		st.Signals |= SignalCancelled
		sep()
		b = append(b, err.Error()...)
	}
	if s.step > s.limits.MaxSteps {
		st.Signals |= SignalFinalAnswer
		sep()
		b = append(b, "step "...)
		b = strconv.AppendInt(b, int64(s.step), 10)
		b = append(b, " is past the limit of "...)
		b = strconv.AppendInt(b, int64(s.limits.MaxSteps), 10)
		b = append(b, " steps: stop offering tools and ask for the final answer"...)
	}
	// The count itself is in Status.Tokens: the reason names the limit
	// only, so that it stays the same while the count grows.
	switch s.tokenLevel() {
	case 2:
		st.Signals |= SignalForceAction
		sep()
		b = append(b, "the token count reaches the hard limit of "...)
		b = strconv.AppendInt(b, int64(s.limits.TokenHardLimit), 10)
		b = append(b, ": compact the context or end the run"...)
	case 1:
		st.Signals |= SignalNudge
		sep()
		b = append(b, "the token count reaches the soft limit of "...)
		b = strconv.AppendInt(b, int64(s.limits.TokenSoftLimit), 10)
		b = append(b, ": summarise and answer soon"...)
	}
	if s.lowRun >= s.limits.DiminishingSteps {
		st.Signals |= SignalStop
		sep()
		b = strconv.AppendInt(b, int64(s.lowRun), 10)
		b = append(b, " steps in a row added fewer than "...)
		b = strconv.AppendInt(b, int64(s.limits.MinStepTokens), 10)
		b = append(b, " tokens each: answer from what was gathered"...)
	}
	st.Reason = string(b)
	return st
}

// RecordCompaction records the outcome of a context compaction: err nil for
// success, in which case tokensAfter (if not negative) becomes the token
// count. After [Limits.MaxCompactionFailures] failures in a row,
// [Session.CompactionAllowed] refuses automatic compaction.
func (s *Session) RecordCompaction(err error, tokensAfter int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		s.compactFails++
		s.compactErr = err
		return
	}
	s.compactFails, s.compactErr = 0, nil
	if tokensAfter >= 0 {
		s.tokens = tokensAfter
	}
}

// CompactionAllowed reports whether automatic compaction may run; if not,
// the reason says why (the circuit breaker is open).
func (s *Session) CompactionAllowed() (bool, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.compactFails >= s.limits.MaxCompactionFailures {
		return false, fmt.Sprintf("automatic compaction skipped: %d compactions in a row failed (last: %v)",
			s.compactFails, s.compactErr)
	}
	return true, ""
}

// gate is layer 7's check of one call, made before every other layer: a
// cancelled or ended session, a step past the limit, the RepeatLimit-th
// identical call in a row (same tool, same input as canonical JSON), or a
// short cycle of calls come round CycleRepeats times is a Deny with the
// reason; otherwise an Allow, which leaves the call to the other layers.
// Every call is remembered, including denied ones, so repeating a denied
// call stays denied. canon is the input's canonical form, nil when the
// input is not valid JSON: it is then compared by its bytes (input
// validation denies it later).
func (s *Session) gate(tool string, input, canon []byte) permission.Result {
	deny := func(rule permission.RuleID, reason string) permission.Result {
		return permission.Result{Decision: permission.Deny, Layer: permission.LayerRuntime, Rule: rule, Reason: reason}
	}
	if err := s.err(); err != nil {
		return deny(RuleCancelled, "session is cancelled: "+err.Error())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.step > s.limits.MaxSteps {
		return deny(RuleStepLimit, fmt.Sprintf(
			"step %d is past the limit of %d steps: no more tool calls, give the final answer", s.step, s.limits.MaxSteps))
	}
	if len(s.recent) == cap(s.recent) {
		// The oldest key's buffer becomes the newest key's.
		oldest := s.recent[0]
		copy(s.recent, s.recent[1:])
		s.recent[len(s.recent)-1] = oldest
	} else {
		s.recent = append(s.recent, callKey{})
	}
	s.recent[len(s.recent)-1].set(s.seed, tool, input, canon)
	h := s.recent
	if n := s.limits.RepeatLimit; len(h) >= n && allEqual(h[len(h)-n:]) {
		return deny(RuleRepeat, fmt.Sprintf(
			"the same %s call with the same input %d times in a row: try something else", tool, n))
	}
	for p := 2; p <= s.limits.MaxCyclePeriod; p++ {
		w := p * s.limits.CycleRepeats
		if len(h) < w {
			break
		}
		if win := h[len(h)-w:]; isCycle(win, p) {
			names := make([]string, p)
			for i := range p {
				names[i] = win[i].tool
			}
			return deny(RuleCycle, fmt.Sprintf(
				"the calls repeat a cycle of %d (%s) for the %d%s time: try something else",
				p, strings.Join(names, ", "), s.limits.CycleRepeats, ordinal(s.limits.CycleRepeats)))
		}
	}
	return permission.Result{Decision: permission.Allow, Layer: permission.LayerRuntime}
}

func callSum(tool string, raw bool, body []byte) [sha256.Size]byte {
	tag := byte('c')
	if raw {
		tag = 'r'
	}
	h := sha256.New()
	io.WriteString(h, tool)
	h.Write([]byte{0, tag})
	h.Write(body)
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

func allEqual(h []callKey) bool {
	for i := range h[1:] {
		if !h[i+1].same(&h[0]) {
			return false
		}
	}
	return true
}

// isCycle reports whether win repeats its first p entries throughout and
// those p entries have no shorter period (a shorter cycle is reported by a
// shorter p, a run of one call by the repeat check).
func isCycle(win []callKey, p int) bool {
	for i := p; i < len(win); i++ {
		if !win[i].same(&win[i-p]) {
			return false
		}
	}
	for d := 1; d < p; d++ {
		if p%d != 0 {
			continue
		}
		shorter := true
		for i := d; i < p; i++ {
			if !win[i].same(&win[i-d]) {
				shorter = false
				break
			}
		}
		if shorter {
			return false
		}
	}
	return true
}

func ordinal(n int) string {
	if n%100 >= 11 && n%100 <= 13 {
		return "th"
	}
	switch n % 10 {
	case 1:
		return "st"
	case 2:
		return "nd"
	case 3:
		return "rd"
	}
	return "th"
}

// currentStep returns the step count without building a Status.
func (s *Session) currentStep() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.step
}

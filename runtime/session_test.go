package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/jsonin"
	"github.com/toolgate/toolgate/permission"
)

func newTestSession(t *testing.T, l Limits) *Session {
	t.Helper()
	require.NoError(t, l.validate())
	ss := newSessions(l)
	s, err := ss.start(t.Context(), "s1")
	require.NoError(t, err)
	t.Cleanup(func() { ss.end("s1") })
	return s
}

// gateInput is layer 7's check on a raw input, canonicalised first as
// Check does (nil when it is not valid JSON).
func (s *Session) gateInput(tool string, input json.RawMessage) permission.Result {
	c, err := jsonin.Canonical(input)
	if err != nil {
		c = nil
	}
	return s.gate(tool, input, c)
}

// get returns the live session id.
func (s *sessions) get(id string) (*Session, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, ok := s.m[id]
	return sess, ok
}

// gateAllow is layer 7's answer when it has no objection.
var gateAllow = permission.Result{Decision: permission.Allow, Layer: permission.LayerRuntime}

func TestLimitsValidate(t *testing.T) {
	require.NoError(t, Limits{}.validate())
	err := Limits{MaxSteps: -1, TokenSoftLimit: 50000}.validate()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "MaxSteps is negative (-1)")
	assert.Contains(t, err.Error(), "TokenHardLimit 40000 is below TokenSoftLimit 50000")
	err = Limits{RepeatLimit: 1}.validate()
	assert.ErrorContains(t, err, "RepeatLimit 1 out of range 2..100")
	d := Limits{}.withDefaults()
	assert.Equal(t, Limits{8, 3, 3, 3, 32000, 40000, 500, 3, 3}, d)
}

func TestGateRepeat(t *testing.T) {
	s := newTestSession(t, Limits{})
	s.BeginStep()
	in1 := json.RawMessage(`{"file_path":"a.go","limit":10}`)
	in2 := json.RawMessage(` { "limit" : 10.0, "file_path" : "a.go" } `) // same value, other spelling
	assert.Equal(t, gateAllow, s.gateInput("Read", in1))
	assert.Equal(t, gateAllow, s.gateInput("Read", in2))
	g := s.gateInput("Read", in1)
	assert.Equal(t, permission.Deny, g.Decision)
	assert.Equal(t, "runtime:repeat", string(g.Rule))
	assert.Equal(t, "the same Read call with the same input 3 times in a row: try something else", g.Reason)
	g = s.gateInput("Read", in2)
	assert.Equal(t, "runtime:repeat", string(g.Rule), "repeating a denied call stays denied")

	assert.Equal(t, permission.Allow, s.gateInput("Read", json.RawMessage(`{"file_path":"b.go"}`)).Decision,
		"another input breaks the run")
	assert.Equal(t, permission.Allow, s.gateInput("Grep", in1).Decision, "another tool is another call")
}

func TestGateCycle(t *testing.T) {
	a, b, c := json.RawMessage(`{"p":"a"}`), json.RawMessage(`{"p":"b"}`), json.RawMessage(`{"p":"c"}`)
	t.Run("period 2", func(t *testing.T) {
		s := newTestSession(t, Limits{})
		for i := range 5 {
			in, tool := a, "Read"
			if i%2 == 1 {
				in, tool = b, "Grep"
			}
			require.Equal(t, permission.Allow, s.gateInput(tool, in).Decision, "call %d", i)
		}
		g := s.gateInput("Grep", b)
		assert.Equal(t, permission.Result{Decision: permission.Deny, Layer: permission.LayerRuntime, Rule: "runtime:cycle",
			Reason: "the calls repeat a cycle of 2 (Read, Grep) for the 3rd time: try something else"}, g)
	})
	t.Run("period 3 with a repeated call", func(t *testing.T) {
		s := newTestSession(t, Limits{})
		seq := []json.RawMessage{a, a, c, a, a, c, a, a}
		for i, in := range seq {
			require.Equal(t, permission.Allow, s.gateInput("Read", in).Decision, "call %d", i)
		}
		g := s.gateInput("Read", c)
		assert.Equal(t, "runtime:cycle", string(g.Rule))
		assert.Contains(t, g.Reason, "a cycle of 3 (Read, Read, Read) for the 3rd time")
	})
	t.Run("two rounds are fine", func(t *testing.T) {
		s := newTestSession(t, Limits{})
		for i, in := range []json.RawMessage{a, b, c, a, b, c, b} {
			g := s.gateInput("Read", in)
			assert.Equal(t, permission.Allow, g.Decision, "call %d: %s", i, g.Reason)
		}
	})
}

func TestStepLimit(t *testing.T) {
	s := newTestSession(t, Limits{MaxSteps: 2})
	assert.Equal(t, Status{Step: 1}, s.BeginStep())
	assert.Equal(t, permission.Allow, s.gateInput("Read", json.RawMessage(`{}`)).Decision)
	s.AddTokens(1000)
	assert.Equal(t, Status{Step: 2, Tokens: 1000}, s.BeginStep())
	s.AddTokens(1000)
	st := s.BeginStep()
	assert.Equal(t, SignalFinalAnswer, st.Signals)
	assert.Equal(t, "step 3 is past the limit of 2 steps: stop offering tools and ask for the final answer", st.Reason)
	g := s.gateInput("Read", json.RawMessage(`{"x":1}`))
	assert.Equal(t, permission.Result{Decision: permission.Deny, Layer: permission.LayerRuntime, Rule: "runtime:step-limit",
		Reason: "step 3 is past the limit of 2 steps: no more tool calls, give the final answer"}, g)
}

func TestTokenBudget(t *testing.T) {
	s := newTestSession(t, Limits{TokenSoftLimit: 100, TokenHardLimit: 200, MinStepTokens: 10, DiminishingSteps: 2})
	s.BeginStep()
	assert.Equal(t, Signal(0), s.AddTokens(99).Signals)
	st := s.AddTokens(1)
	assert.Equal(t, SignalNudge, st.Signals)
	assert.Equal(t, "the token count reaches the soft limit of 100: summarise and answer soon", st.Reason)
	st = s.AddTokens(100)
	assert.Equal(t, SignalForceAction, st.Signals, "the hard limit replaces the nudge")
	assert.Equal(t, "the token count reaches the hard limit of 200: compact the context or end the run", st.Reason)
	st = s.AddTokens(7)
	assert.Equal(t, Status{Step: 1, Tokens: 207, Signals: SignalForceAction,
		Reason: "the token count reaches the hard limit of 200: compact the context or end the run"}, st,
		"the count is current while the reason stays")

	s.RecordCompaction(nil, 50)
	assert.Equal(t, Status{Step: 1, Tokens: 50}, s.Status(), "a successful compaction resets the count")

	s.BeginStep() // step 1 added 200: not little
	s.AddTokens(5)
	st = s.BeginStep() // step 2 added 5: little (1)
	assert.Equal(t, Signal(0), st.Signals)
	st = s.BeginStep() // step 3 added 0: little (2)
	assert.Equal(t, SignalStop, st.Signals)
	assert.Equal(t, "2 steps in a row added fewer than 10 tokens each: answer from what was gathered", st.Reason)
	s.AddTokens(10)
	st = s.BeginStep()
	assert.Equal(t, Signal(0), st.Signals, "a step adding enough resets the run: %s", st.Reason)
}

func TestCompactionBreaker(t *testing.T) {
	s := newTestSession(t, Limits{})
	for i := range 2 {
		s.RecordCompaction(fmt.Errorf("summary too long %d", i), -1)
		ok, why := s.CompactionAllowed()
		assert.True(t, ok, why)
	}
	s.RecordCompaction(nil, -1)
	for i := range 3 {
		ok, _ := s.CompactionAllowed()
		assert.True(t, ok, "a success resets the count (%d)", i)
		s.RecordCompaction(fmt.Errorf("model error %d", i), -1)
	}
	ok, why := s.CompactionAllowed()
	assert.False(t, ok)
	assert.Equal(t, "automatic compaction skipped: 3 compactions in a row failed (last: model error 2)", why)
}

func TestCancelAndEnd(t *testing.T) {
	ss := newSessions(Limits{})
	s, err := ss.start(context.Background(), "a")
	require.NoError(t, err)
	_, err = ss.start(context.Background(), "a")
	assert.ErrorIs(t, err, ErrSessionExists)
	_, err = ss.start(context.Background(), "")
	assert.ErrorContains(t, err, "session id must be 1 to 256 bytes")

	assert.NoError(t, s.err())
	s.Cancel("user pressed stop")
	select {
	case <-s.Context().Done():
	default:
		t.Fatal("Cancel must cancel the context at once")
	}
	assert.ErrorIs(t, s.err(), ErrCancelled)
	g := s.gateInput("Read", json.RawMessage(`{}`))
	assert.Equal(t, permission.Result{Decision: permission.Deny, Layer: permission.LayerRuntime, Rule: "runtime:cancelled",
		Reason: "session is cancelled: runtime: session cancelled: user pressed stop"}, g)
	st := s.BeginStep()
	assert.True(t, st.Signals.Has(SignalCancelled))
	assert.Equal(t, "runtime: session cancelled: user pressed stop", st.Reason)

	b, err := ss.start(context.Background(), "b")
	require.NoError(t, err)
	assert.True(t, ss.end("b"))
	assert.False(t, ss.end("b"), "ending twice reports the session gone")
	assert.ErrorIs(t, b.err(), ErrSessionEnded)
	assert.Equal(t, RuleCancelled, b.gateInput("Read", json.RawMessage(`{}`)).Rule)

	parent, cancel := context.WithCancel(context.Background())
	c, err := ss.start(parent, "c")
	require.NoError(t, err)
	cancel()
	assert.ErrorIs(t, c.err(), context.Canceled, "the parent context reaches the session")
	assert.Equal(t, 2, ss.len())
	ss.end("a")
	ss.end("c")
	assert.Zero(t, ss.len())
	assert.Equal(t, DefaultMaxSteps, c.limits.MaxSteps, "defaults apply")
}

func TestSignalString(t *testing.T) {
	assert.Equal(t, "none", Signal(0).String())
	assert.Equal(t, "nudge|final-answer|cancelled", (SignalNudge | SignalFinalAnswer | SignalCancelled).String())
	assert.True(t, (SignalStop | SignalNudge).Has(SignalStop))
	assert.False(t, SignalStop.Has(SignalStop|SignalNudge))
}

// TestSessionsConcurrent runs many goroutines over a shared store: each
// session's state stays its own, and the race detector sees no race.
func TestSessionsConcurrent(t *testing.T) {
	ss := newSessions(Limits{MaxSteps: 1 << 20})
	const sessions, workers, calls = 16, 64, 500
	for i := range sessions {
		_, err := ss.start(t.Context(), fmt.Sprintf("s%d", i))
		require.NoError(t, err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failures []error
	for w := range workers {
		wg.Go(func() {
			id := fmt.Sprintf("s%d", w%sessions)
			for i := range calls {
				s, ok := ss.get(id)
				if !ok {
					mu.Lock()
					failures = append(failures, fmt.Errorf("session %s missing", id))
					mu.Unlock()
					return
				}
				// Distinct inputs per worker and call: never a repeat.
				in := json.RawMessage(fmt.Sprintf(`{"w":%d,"i":%d}`, w, i))
				if g := s.gateInput("Read", in); g.Decision != permission.Allow {
					mu.Lock()
					failures = append(failures, fmt.Errorf("worker %d call %d: %s", w, i, g.Reason))
					mu.Unlock()
				}
				s.AddTokens(1)
				if i%100 == 0 {
					s.BeginStep()
					tmp := fmt.Sprintf("tmp-%d-%d", w, i)
					if _, err := ss.start(t.Context(), tmp); err == nil {
						ss.end(tmp)
					}
				}
			}
		})
	}
	wg.Wait()
	require.Empty(t, failures)
	for i := range sessions {
		s, ok := ss.get(fmt.Sprintf("s%d", i))
		require.True(t, ok)
		st := s.Status()
		assert.Equal(t, workers/sessions*calls, st.Tokens, "tokens are counted per session")
		assert.Equal(t, workers/sessions*calls/100, st.Step)
		ss.end(s.ID())
	}
	assert.Zero(t, ss.len())
}

func TestGateUnparsableInput(t *testing.T) {
	s := newTestSession(t, Limits{})
	bad := json.RawMessage(`{not json`)
	assert.Equal(t, permission.Allow, s.gateInput("Read", bad).Decision)
	assert.Equal(t, permission.Allow, s.gateInput("Read", bad).Decision)
	g := s.gateInput("Read", bad)
	assert.Equal(t, "runtime:repeat", string(g.Rule), "unparsable inputs are compared by bytes")
	assert.True(t, errors.Is(s.err(), nil))
}

// BenchmarkGate measures layer 7's check of a typical Read call: the
// canonical form of its input, a hash, and the repeat and cycle scans.
func BenchmarkGate(b *testing.B) {
	ss := newSessions(Limits{})
	s, err := ss.start(context.Background(), "bench")
	require.NoError(b, err)
	defer ss.end("bench")
	ins := []json.RawMessage{
		json.RawMessage(`{"file_path":"/work/main/runtime/session.go","offset":10,"limit":200}`),
		json.RawMessage(`{"file_path":"/work/main/runtime/executor.go","offset":10,"limit":200}`),
		json.RawMessage(`{"file_path":"/work/main/runtime/output.go","offset":10,"limit":200}`),
		json.RawMessage(`{"file_path":"/work/main/runtime/asker.go","offset":10,"limit":200}`),
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if g := s.gateInput("Read", ins[i%len(ins)]); g.Decision != permission.Allow {
			b.Fatal(g.Reason)
		}
		i++
	}
}

// TestGateRepeatLongInput checks the repeat check on inputs too long to be
// kept whole in the history: they are compared by a hash of their
// canonical form, so another spelling still repeats and a change in the
// last byte does not.
func TestGateRepeatLongInput(t *testing.T) {
	s := newTestSession(t, Limits{})
	s.BeginStep()
	long := strings.Repeat("x", maxShortKey)
	in1 := json.RawMessage(`{"content":"` + long + `","file_path":"a.go"}`)
	in2 := json.RawMessage(` { "file_path" : "a.go", "content" : "` + long + `" } `)
	other := json.RawMessage(`{"content":"` + long + `","file_path":"a.gp"}`)
	assert.Equal(t, gateAllow, s.gateInput("Write", in1))
	assert.Equal(t, gateAllow, s.gateInput("Write", in2))
	assert.Equal(t, gateAllow, s.gateInput("Write", other), "the last byte differs")
	assert.Equal(t, gateAllow, s.gateInput("Write", in1))
	assert.Equal(t, gateAllow, s.gateInput("Write", in2))
	g := s.gateInput("Write", in1)
	assert.Equal(t, permission.Result{Decision: permission.Deny, Layer: permission.LayerRuntime, Rule: "runtime:repeat",
		Reason: "the same Write call with the same input 3 times in a row: try something else"}, g)
}

// TestGateKeyReusesBuffers: once the history is full, a call's key
// reuses the buffer of the key it pushes out: no allocation per call.
func TestGateKeyReusesBuffers(t *testing.T) {
	s := newTestSession(t, Limits{MaxSteps: 1 << 30})
	s.BeginStep()
	inputs := make([][]byte, 4)
	for i := range inputs {
		inputs[i] = []byte(fmt.Sprintf(`{"file_path":"src/f%d.go"}`, i))
	}
	for i := range 32 {
		require.Equal(t, gateAllow, s.gate("Read", inputs[i%4], inputs[i%4]))
	}
	i := 0
	allocs := testing.AllocsPerRun(100, func() {
		if g := s.gate("Read", inputs[i%4], inputs[i%4]); g.Decision != permission.Allow {
			t.Fatal(g.Reason)
		}
		i++
	})
	assert.Zero(t, allocs)
}

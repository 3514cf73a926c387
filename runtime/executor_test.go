package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime/tool"
)

func allowAll(_ context.Context, c Call) Verdict {
	return Verdict{Result: permission.Result{Decision: permission.Allow, Layer: permission.LayerRules, Rule: "allow-all", Reason: "test allows"}}
}

// testTools: "read" is concurrency-safe and cancellable, "write" serial and
// cancellable, "bash" serial and blocking, "fetch" parallel and aborts its
// siblings when it fails.
func testTools(t testing.TB) *tool.Registry {
	r, err := tool.NewRegistry(
		&tool.Descriptor{ToolName: "read", Base: tool.Traits{ConcurrencySafe: true, Kind: permission.KindRead}},
		&tool.Descriptor{ToolName: "write", Base: tool.Traits{Kind: permission.KindEdit}},
		&tool.Descriptor{ToolName: "bash", Base: tool.Traits{Kind: permission.KindExec, Interrupt: tool.InterruptBlock}},
		&tool.Descriptor{ToolName: "fetch", Base: tool.Traits{ConcurrencySafe: true, AbortsSiblings: true, Kind: permission.KindNetwork}},
	)
	require.NoError(t, err)
	return r
}

// input is {"ms":N,"fail":bool,"ignore":bool}: sleep N ms (honouring ctx
// unless ignore), then fail or return "done <id>".
type input struct {
	MS     int  `json:"ms"`
	Fail   bool `json:"fail"`
	Ignore bool `json:"ignore"`
}

func call(id, tool string, in input) Call {
	b, _ := json.Marshal(in)
	return Call{ID: id, Tool: tool, Input: b}
}

func sleeper(running, peak *atomic.Int32) func(ctx context.Context, c Call) (string, error) {
	return func(ctx context.Context, c Call) (string, error) {
		n := running.Add(1)
		defer running.Add(-1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		var in input
		if err := json.Unmarshal(c.Input, &in); err != nil {
			return "", err
		}
		d := time.Duration(in.MS) * time.Millisecond
		if in.Ignore {
			time.Sleep(d)
		} else {
			select {
			case <-time.After(d):
			case <-ctx.Done():
				return "", context.Cause(ctx)
			}
		}
		if in.Fail {
			return "", fmt.Errorf("%s failed", c.ID)
		}
		return "done " + c.ID, nil
	}
}

func TestExecutorPartitionsAndOrders(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var running, peak atomic.Int32
		var afterCalls atomic.Int32
		e := &Executor{Tools: testTools(t), Check: allowAll, Run: sleeper(&running, &peak),
			After: func(ctx context.Context, r Result) Result {
				afterCalls.Add(1)
				r.Output += " (after)"
				return r
			}}
		calls := []Call{
			call("r1", "read", input{MS: 1000}), call("r2", "read", input{MS: 1000}), call("r3", "read", input{MS: 1000}),
			call("w1", "write", input{MS: 1000}),
			call("r4", "read", input{MS: 1000}), call("r5", "read", input{MS: 500}),
		}
		start := time.Now()
		res := e.Execute(t.Context(), calls)
		assert.Equal(t, 3*time.Second, time.Since(start), "3 reads together, the write alone, 2 reads together")
		assert.Equal(t, int32(3), peak.Load(), "at most the 3 neighbouring reads at once")
		require.Len(t, res, 6)
		for i, r := range res {
			assert.Equal(t, calls[i].ID, r.Call.ID, "results in call order")
			assert.True(t, r.Ran)
			assert.NoError(t, r.Err)
			assert.Equal(t, "done "+calls[i].ID+" (after)", r.Output)
			assert.Equal(t, "test allows", r.Verdict.Reason)
		}
		assert.Equal(t, int32(6), afterCalls.Load())
	})
}

func TestExecutorCheckDecides(t *testing.T) {
	var ran []string
	var mu sync.Mutex
	e := &Executor{Tools: testTools(t),
		Check: func(_ context.Context, c Call) Verdict {
			switch c.ID {
			case "deny":
				return Verdict{Result: permission.Result{Decision: permission.Deny, Layer: permission.LayerRules, Rule: "Read(/etc/**)", Reason: "secrets"}}
			case "ask":
				return Verdict{Result: permission.Result{Decision: permission.Ask, Layer: permission.LayerShell, Rule: "not-safe", Reason: "needs a person"}}
			case "rewrite":
				return Verdict{Result: permission.Result{Decision: permission.Allow, Reason: "hook rewrote"}, Input: json.RawMessage(`{"ms":0,"fail":true}`)}
			case "panic":
				panic("check broke")
			}
			return Verdict{Result: permission.Result{Decision: permission.Allow, Reason: "ok"}}
		},
		Run: func(_ context.Context, c Call) (string, error) {
			mu.Lock()
			ran = append(ran, c.ID)
			mu.Unlock()
			if c.ID == "boom" {
				panic("tool broke")
			}
			var in input
			_ = json.Unmarshal(c.Input, &in)
			if in.Fail {
				return "", errors.New("rewritten input ran")
			}
			return "ok", nil
		}}
	res := e.Execute(context.Background(), []Call{
		call("deny", "read", input{}), call("ask", "bash", input{}), call("rewrite", "write", input{}),
		call("unknown", "nope", input{}), call("panic", "read", input{}), call("boom", "read", input{}),
	})
	assert.Equal(t, []string{"rewrite", "boom"}, ran, "only admitted calls of known tools run")

	assert.False(t, res[0].Ran)
	assert.Equal(t, Verdict{Result: permission.Result{Decision: permission.Deny, Layer: permission.LayerRules, Rule: "Read(/etc/**)", Reason: "secrets"}}, res[0].Verdict)
	assert.False(t, res[1].Ran, "Ask is not admission")
	assert.Equal(t, "needs a person", res[1].Verdict.Reason)
	assert.EqualError(t, res[2].Err, "rewritten input ran", "the admitted input is the one run")
	assert.JSONEq(t, `{"ms":0,"fail":true}`, string(res[2].Call.Input))
	assert.Equal(t, Verdict{Result: permission.Result{Layer: permission.LayerTraits, Rule: RuleUnknownTool, Reason: `unknown tool "nope"`}}, res[3].Verdict)
	assert.Equal(t, Verdict{Result: permission.Result{Rule: "executor:check-panic", Reason: "the check panicked: check broke"}}, res[4].Verdict)
	assert.True(t, res[5].Ran)
	assert.EqualError(t, res[5].Err, "runtime: tool read panicked: tool broke")

	var zero Executor
	res = zero.Execute(context.Background(), []Call{call("a", "read", input{})})
	assert.Equal(t, Verdict{Result: permission.Result{Rule: "executor:no-check", Reason: "the executor has no check: every call is denied"}}, res[0].Verdict)
	assert.False(t, res[0].Ran)
}

func TestExecutorCancelVersusBlock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var running, peak atomic.Int32
		var blockCtxErr error
		run := sleeper(&running, &peak)
		e := &Executor{Tools: testTools(t), Check: allowAll, Run: func(ctx context.Context, c Call) (string, error) {
			out, err := run(ctx, c)
			if c.Tool == "bash" {
				blockCtxErr = ctx.Err()
			}
			return out, err
		}}
		ctx, cancel := context.WithCancelCause(t.Context())
		go func() {
			time.Sleep(time.Second)
			cancel(errors.New("user pressed stop"))
		}()
		start := time.Now()
		res := e.Execute(ctx, []Call{
			call("b1", "bash", input{MS: 3000}),
			call("w1", "write", input{MS: 1000}),
		})
		assert.Equal(t, 3*time.Second, time.Since(start), "the Block tool runs to completion")
		assert.True(t, res[0].Ran)
		assert.NoError(t, res[0].Err)
		assert.Equal(t, "done b1", res[0].Output, "its result is kept")
		assert.NoError(t, blockCtxErr, "its context never saw the cancellation")
		assert.False(t, res[1].Ran, "later calls do not start")
		assert.EqualError(t, res[1].Err, "not started: user pressed stop")

		// Check after cancellation: every call is denied by layer 7.
		res = e.Execute(ctx, []Call{call("r", "read", input{})})
		assert.Equal(t, Verdict{Result: permission.Result{Layer: permission.LayerRuntime, Rule: "runtime:cancelled", Reason: "session is cancelled: user pressed stop"}}, res[0].Verdict)
	})
}

func TestExecutorCancelStopsCancelTools(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var running, peak atomic.Int32
		e := &Executor{Tools: testTools(t), Check: allowAll, Run: sleeper(&running, &peak)}
		ctx, cancel := context.WithCancelCause(t.Context())
		go func() {
			time.Sleep(time.Second)
			cancel(errors.New("user pressed stop"))
		}()
		start := time.Now()
		res := e.Execute(ctx, []Call{
			call("r1", "read", input{MS: 10000}),               // honours ctx
			call("r2", "read", input{MS: 10000, Ignore: true}), // ignores ctx
			call("w1", "write", input{MS: 10}),
		})
		assert.Equal(t, time.Second+DefaultGrace, time.Since(start),
			"the batch returns at most 50 ms after the cancel")
		assert.True(t, res[0].Interrupted)
		assert.EqualError(t, res[0].Err, "interrupted: user pressed stop (tool: user pressed stop)")
		assert.True(t, res[1].Interrupted)
		assert.EqualError(t, res[1].Err, "interrupted (the tool did not stop within 50ms): user pressed stop")
		assert.Empty(t, res[1].Output, "an abandoned call's result is dropped")
		assert.False(t, res[2].Ran)
		assert.EqualError(t, res[2].Err, "not started: user pressed stop")
		// The abandoned r2 still sleeps; let it finish so that nothing
		// outlives the test (goleak checks too).
		time.Sleep(10 * time.Second)
		synctest.Wait()
	})
}

func TestExecutorSiblingAbort(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var running, peak atomic.Int32
		e := &Executor{Tools: testTools(t), Check: allowAll, Run: sleeper(&running, &peak)}
		start := time.Now()
		res := e.Execute(t.Context(), []Call{
			call("r1", "read", input{MS: 2000}),
			call("f1", "fetch", input{MS: 1000, Fail: true}),
			call("r2", "read", input{MS: 500}),
			call("w1", "write", input{MS: 10}),
		})
		assert.Equal(t, time.Second, time.Since(start), "the failure ends the batch at once")
		assert.True(t, res[0].Interrupted)
		assert.ErrorIs(t, res[0].Err, ErrSiblingFailed)
		assert.EqualError(t, res[0].Err, "interrupted: runtime: a sibling call failed: call f1 (fetch): f1 failed (tool: runtime: a sibling call failed: call f1 (fetch): f1 failed)")
		assert.EqualError(t, res[1].Err, "f1 failed")
		assert.False(t, res[1].Interrupted)
		assert.NoError(t, res[2].Err, "a sibling that finished first keeps its result")
		assert.Equal(t, "done r2", res[2].Output)
		assert.False(t, res[3].Ran)
		assert.ErrorIs(t, res[3].Err, ErrSiblingFailed)

		// A failure of a tool without AbortsSiblings leaves the others alone.
		res = e.Execute(t.Context(), []Call{
			call("r1", "read", input{MS: 2000}), call("r2", "read", input{MS: 1000, Fail: true}),
		})
		assert.NoError(t, res[0].Err)
		assert.Equal(t, "done r1", res[0].Output)
		assert.EqualError(t, res[1].Err, "r2 failed")
	})
}

func TestExecutorAfterPanic(t *testing.T) {
	e := &Executor{Tools: testTools(t), Check: allowAll,
		Run:   func(context.Context, Call) (string, error) { return "raw", nil },
		After: func(context.Context, Result) Result { panic("after broke") }}
	res := e.Execute(context.Background(), []Call{call("a", "write", input{})})
	assert.Equal(t, "raw", res[0].Output)
	assert.EqualError(t, res[0].Err, "runtime: after step panicked: after broke")
}

func benchExecutor(b *testing.B, tool string) {
	reg := testTools(b)
	e := &Executor{Tools: reg, Check: allowAll,
		Run:   func(context.Context, Call) (string, error) { return "", nil },
		After: func(_ context.Context, r Result) Result { return r }}
	calls := make([]Call, 100)
	for i := range calls {
		calls[i] = Call{ID: fmt.Sprint(i), Tool: tool, Input: json.RawMessage(`{}`)}
	}
	ctx, cancel := context.WithCancel(context.Background()) // a session context can be cancelled
	defer cancel()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		e.Execute(ctx, calls)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100, "ns/call")
}

// BenchmarkExecutor measures the executor's own cost per no-op call in a
// batch of 100: parallel (concurrency-safe), serial cancellable, and serial
// blocking tools.
func BenchmarkExecutor(b *testing.B) {
	b.Run("parallel", func(b *testing.B) { benchExecutor(b, "read") })
	b.Run("serial-cancel", func(b *testing.B) { benchExecutor(b, "write") })
	b.Run("serial-block", func(b *testing.B) { benchExecutor(b, "bash") })
}

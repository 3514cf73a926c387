package hookstest

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate/hooks"
)

// InlineLimit is how long [Run] lets a callback of a hook declared
// hooks.NoTimeout run: such callbacks run on the agent's goroutine and
// must be fast.
const InlineLimit = time.Second

// CancelLimit bounds how long [Run] lets a callback run once its context
// is cancelled (or its own timeout, if shorter).
const CancelLimit = 2 * time.Second

// Run checks that h behaves as the hooks package expects of every hook,
// reporting each violation with t.Errorf in a subtest:
//
//   - Timeout: every callback answers within the hook's timeout
//     (h.Timeout, or hooks.DefaultTimeout when zero, or [InlineLimit] for
//     hooks.NoTimeout), does not panic, and returns a defined action;
//   - Concurrent: the callbacks can be called from many goroutines at
//     once (run the test with -race to catch data races);
//   - InputUnchanged: a callback does not write into the event's Input
//     unless it returns that same input with MutateInput;
//   - CancelledContext: with a cancelled context every callback returns
//     within [CancelLimit];
//   - Contract: what the answers mean, as [TestHook] checks it (a Block
//     carries a reason, MutateInput gives a JSON object, answers are
//     deterministic, no hook makes a denied call look as if it ran).
//
// Run calls the callbacks directly, with events from this package's
// builders, so a hook with side effects (files, processes) must tolerate
// being called for the test session [SessionID]. Run fails the test if h
// has no callback at all.
func Run(t *testing.T, h hooks.Hook) {
	t.Helper()
	calls := callsOf(h)
	if len(calls) == 0 {
		t.Errorf("hook %q has no callbacks", h.Name)
		return
	}
	limit := limitOf(h)
	t.Run("Timeout", func(t *testing.T) { checkTimeout(t, calls, limit) })
	t.Run("Concurrent", func(t *testing.T) { checkConcurrent(t, calls, limit) })
	t.Run("InputUnchanged", func(t *testing.T) { checkInputUnchanged(t, calls, limit) })
	t.Run("CancelledContext", func(t *testing.T) { checkCancelled(t, calls, limit) })
	t.Run("Contract", func(t *testing.T) { checkContract(t, h, limit) })
}

// limitOf is how long a callback of h may take.
func limitOf(h hooks.Hook) time.Duration {
	switch {
	case h.Timeout == hooks.NoTimeout || h.Timeout < 0:
		return InlineLimit
	case h.Timeout == 0:
		return hooks.DefaultTimeout
	}
	return h.Timeout
}

func checkTimeout(t reporter, calls []call, limit time.Duration) {
	for _, c := range calls {
		answered(t, c, context.Background(), limit)
	}
}

func checkConcurrent(t reporter, calls []call, limit time.Duration) {
	var wg sync.WaitGroup
	for range 8 {
		for _, c := range calls {
			wg.Go(func() {
				for range 4 {
					if !answered(t, c, context.Background(), limit) {
						return
					}
				}
			})
		}
	}
	wg.Wait()
}

func checkInputUnchanged(t reporter, calls []call, limit time.Duration) {
	for _, c := range calls {
		if c.input == "" {
			continue
		}
		r, in, ok := answer(t, c, context.Background(), limit)
		if !ok || string(in) == c.input {
			continue
		}
		if pr, isPre := r.(hooks.PreToolUseResult); isPre && pr.Action == hooks.PreMutateInput && bytes.Equal(pr.Input, in) {
			continue
		}
		t.Errorf("%s changed the event's input from %s to %s without returning it (return a new slice with hooks.MutateInput)", c.name, c.input, in)
	}
}

func checkCancelled(t reporter, calls []call, limit time.Duration) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	l := min(limit, CancelLimit)
	for _, c := range calls {
		answered(t, c, ctx, l)
	}
}

type call struct {
	name  string
	input string // the event's input, for tool events
	run   func(ctx context.Context, in []byte) (any, error)
}

// callsOf lists a call of every callback of h for each sample event. Each
// call builds a fresh event, so that concurrent calls share nothing.
func callsOf(h hooks.Hook) []call {
	var cs []call
	if f := h.SessionStart; f != nil {
		cs = append(cs, call{name: "SessionStart", run: func(ctx context.Context, _ []byte) (any, error) { return nil, f(ctx, SessionStart()) }})
	}
	samples := [][3]string{
		{"Bash", `{"command":"ls -la"}`, "total 0\n"},
		{"Read", `{"file_path":"/work/project/main.go"}`, "package main\n"},
		{"Write", `{"file_path":"/work/project/notes.txt","content":"AKIAIOSFODNN7EXAMPLE"}`, "written"},
		{"mcp__db__query", `{"sql":"select 1"}`, `[{"?column?":1}]`},
	}
	for _, s := range samples {
		if f := h.PreToolUse; f != nil {
			c := call{name: "PreToolUse " + s[0], input: s[1]}
			c.run = func(ctx context.Context, in []byte) (any, error) {
				e := PreToolUse(s[0], "")
				e.Input = in
				r, err := f(ctx, e)
				if err == nil && r.Action > hooks.PrePermissionRequired {
					return r, invalidAction(r.Action)
				}
				return r, err
			}
			cs = append(cs, c)
		}
		if f := h.PostToolUse; f != nil {
			c := call{name: "PostToolUse " + s[0], input: s[1]}
			c.run = func(ctx context.Context, in []byte) (any, error) {
				e := PostToolUse(s[0], "", s[2])
				e.Input = in
				r, err := f(ctx, e)
				if err == nil && r.Action > hooks.PostMutateOutput {
					return r, invalidAction(r.Action)
				}
				return r, err
			}
			cs = append(cs, c)
		}
	}
	if f := h.StepComplete; f != nil {
		cs = append(cs, call{name: "StepComplete", run: func(ctx context.Context, _ []byte) (any, error) { return nil, f(ctx, StepComplete(3)) }})
	}
	if f := h.SubagentStart; f != nil {
		cs = append(cs, call{name: "SubagentStart", run: func(ctx context.Context, _ []byte) (any, error) {
			return nil, f(ctx, SubagentStart("explorer", "find the tests"))
		}})
	}
	if f := h.SubagentStop; f != nil {
		cs = append(cs, call{name: "SubagentStop", run: func(ctx context.Context, _ []byte) (any, error) {
			return nil, f(ctx, SubagentStop("explorer", "found 3 tests"))
		}})
	}
	if f := h.PreCompact; f != nil {
		cs = append(cs, call{name: "PreCompact", run: func(ctx context.Context, _ []byte) (any, error) { return nil, f(ctx, PreCompact("auto")) }})
	}
	if f := h.PostCompact; f != nil {
		cs = append(cs, call{name: "PostCompact", run: func(ctx context.Context, _ []byte) (any, error) { return nil, f(ctx, PostCompact("auto")) }})
	}
	if f := h.SessionStop; f != nil {
		cs = append(cs, call{name: "SessionStop", run: func(ctx context.Context, _ []byte) (any, error) { return nil, f(ctx, SessionStop("completed")) }})
	}
	return cs
}

// answered runs c and reports whether it returned within limit without
// panicking. An error return is not a violation (hooks may fail; the Set
// isolates them) unless it reports an invalid action.
func answered(t reporter, c call, ctx context.Context, limit time.Duration) bool {
	_, _, ok := answer(t, c, ctx, limit)
	return ok
}

// answer is answered that also returns the callback's result and the
// input slice it was given (fresh for every call).
func answer(t reporter, c call, ctx context.Context, limit time.Duration) (any, []byte, bool) {
	type outcome struct {
		r        any
		err      error
		panicked any
	}
	in := []byte(c.input)
	done := make(chan outcome, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- outcome{panicked: v}
			}
		}()
		r, err := c.run(ctx, in)
		done <- outcome{r: r, err: err}
	}()
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case o := <-done:
		if o.panicked != nil {
			t.Errorf("%s panicked: %v", c.name, o.panicked)
			return nil, nil, false
		}
		if ia, bad := o.err.(invalidAction); bad {
			t.Errorf("%s returned an %v", c.name, ia)
			return nil, nil, false
		}
		return o.r, in, true
	case <-timer.C:
		t.Errorf("%s did not answer within %v (ctx done: %v)", c.name, limit, ctx.Err() != nil)
		return nil, nil, false
	}
}

// reporter is where a check reports a violation: a *testing.T in [Run],
// a collector in [TestHook].
type reporter interface {
	Errorf(format string, args ...any)
}

type invalidAction uint8

func (a invalidAction) Error() string { return fmt.Sprintf("invalid action %d", uint8(a)) }

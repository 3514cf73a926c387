package hooks_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
)

func preHook(name string, f func(e hooks.PreToolUseEvent) (hooks.PreToolUseResult, error)) hooks.Hook {
	return hooks.Hook{Name: name, PreToolUse: func(_ context.Context, e hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
		return f(e)
	}}
}

func answer(r hooks.PreToolUseResult) func(hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
	return func(hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) { return r, nil }
}

var bashLs = hooks.PreToolUseEvent{SessionID: "s1", AgentName: "lead", Step: 1, ToolName: "Bash", CallID: "c1", Input: json.RawMessage(`{"command":"ls"}`)}

// each runs f twice: with the hooks under a timeout (worker path) and with
// NoTimeout (inline path), so that both paths obey the same rules.
func bothPaths(t *testing.T, hs []hooks.Hook, f func(t *testing.T, s *hooks.Set)) {
	for _, mode := range []struct {
		name    string
		timeout time.Duration
	}{{"timed", 0}, {"inline", hooks.NoTimeout}} {
		t.Run(mode.name, func(t *testing.T) {
			s := &hooks.Set{Timeout: mode.timeout}
			s.Add(hs...)
			defer s.Close()
			f(t, s)
		})
	}
}

func TestPreToolUseNoHooksAllows(t *testing.T) {
	var s hooks.Set
	o := s.PreToolUse(context.Background(), bashLs)
	assert.Equal(t, permission.Allow, o.Decision)
	assert.Empty(t, o.Reason)
	assert.JSONEq(t, `{"command":"ls"}`, string(o.Input))
}

func TestZeroOutcomeDenies(t *testing.T) {
	var o hooks.PreToolUseOutcome
	assert.Equal(t, permission.Deny, o.Decision)
}

func TestFirstBlockWins(t *testing.T) {
	var ranAfter atomic.Bool
	hs := []hooks.Hook{
		preHook("ok", answer(hooks.PreToolUseResult{})),
		preHook("first", answer(hooks.Block("rm is not allowed here"))),
		preHook("second", func(hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
			ranAfter.Store(true)
			return hooks.Block("second reason"), nil
		}),
	}
	bothPaths(t, hs, func(t *testing.T, s *hooks.Set) {
		o := s.PreToolUse(context.Background(), bashLs)
		assert.Equal(t, permission.Deny, o.Decision)
		assert.Equal(t, "rm is not allowed here", o.Reason)
		assert.Equal(t, "first", o.Hook)
		assert.NoError(t, o.Err)
		assert.False(t, ranAfter.Load(), "the chain must stop at the first Block")
	})
}

func TestBlockWithoutReasonNamesHook(t *testing.T) {
	bothPaths(t, []hooks.Hook{preHook("guard", answer(hooks.Block("")))}, func(t *testing.T, s *hooks.Set) {
		o := s.PreToolUse(context.Background(), bashLs)
		assert.Equal(t, permission.Deny, o.Decision)
		assert.Equal(t, `blocked by hook "guard"`, o.Reason)
	})
}

func TestMutationSeenByLaterHooks(t *testing.T) {
	var seen atomic.Value
	hs := []hooks.Hook{
		preHook("rewrite", answer(hooks.MutateInput(json.RawMessage(`{"command":"ls -la"}`), "listing expanded"))),
		preHook("context-only", answer(hooks.MutateInput(nil, "second note"))),
		preHook("observer", func(e hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
			seen.Store(string(e.Input))
			return hooks.PreToolUseResult{}, nil
		}),
	}
	bothPaths(t, hs, func(t *testing.T, s *hooks.Set) {
		o := s.PreToolUse(context.Background(), bashLs)
		assert.Equal(t, permission.Allow, o.Decision)
		assert.Empty(t, o.Reason)
		assert.Equal(t, `{"command":"ls -la"}`, seen.Load())
		assert.Equal(t, `{"command":"ls -la"}`, string(o.Input), "nil Input keeps the earlier mutation")
		assert.Equal(t, "listing expanded\nsecond note", o.Context, "contexts are joined in order")
	})
}

func TestPermissionRequiredRaisesToAsk(t *testing.T) {
	hs := []hooks.Hook{
		preHook("cont", answer(hooks.PreToolUseResult{})),
		preHook("confirm", answer(hooks.PermissionRequired("production database touched"))),
		preHook("confirm-again", answer(hooks.PermissionRequired("other"))),
	}
	bothPaths(t, hs, func(t *testing.T, s *hooks.Set) {
		o := s.PreToolUse(context.Background(), bashLs)
		assert.Equal(t, permission.Ask, o.Decision)
		assert.Equal(t, "production database touched", o.Reason, "the first hook to require permission decides the reason")
		assert.Equal(t, "confirm", o.Hook)
	})
}

func TestPermissionRequiredNeverLowersBlock(t *testing.T) {
	hs := []hooks.Hook{
		preHook("confirm", answer(hooks.PermissionRequired("please confirm"))),
		preHook("block", answer(hooks.Block("secrets file"))),
	}
	bothPaths(t, hs, func(t *testing.T, s *hooks.Set) {
		o := s.PreToolUse(context.Background(), bashLs)
		assert.Equal(t, permission.Deny, o.Decision)
		assert.Equal(t, "secrets file", o.Reason)
		assert.Equal(t, "block", o.Hook)
	})
}

// TestHookCannotAllowOverDeny: a chain's best answer is Allow meaning "no
// objection", and the pipeline takes the stricter of it and the rules'
// decision. A rule's Deny stays Deny whatever the hooks answer.
func TestHookCannotAllowOverDeny(t *testing.T) {
	hs := []hooks.Hook{
		preHook("says-yes", answer(hooks.PreToolUseResult{})),
		preHook("mutates", answer(hooks.MutateInput(json.RawMessage(`{"command":"true"}`), ""))),
	}
	bothPaths(t, hs, func(t *testing.T, s *hooks.Set) {
		o := s.PreToolUse(context.Background(), bashLs)
		require.Equal(t, permission.Allow, o.Decision)
		for _, rule := range []permission.Decision{permission.Deny, permission.Ask} {
			assert.Equal(t, rule, o.Decision.Stricter(rule), "hooks must not loosen a rule's %v", rule)
		}
	})
}

func TestInvalidActionBlocks(t *testing.T) {
	bothPaths(t, []hooks.Hook{preHook("odd", answer(hooks.PreToolUseResult{Action: 99}))}, func(t *testing.T, s *hooks.Set) {
		o := s.PreToolUse(context.Background(), bashLs)
		assert.Equal(t, permission.Deny, o.Decision)
		assert.Equal(t, `hook "odd" failed: invalid PreToolUse action 99; call blocked (hooks fail closed)`, o.Reason)
	})
}

func TestPanicBlocksPreToolUse(t *testing.T) {
	var failures atomic.Int32
	hs := []hooks.Hook{preHook("boom", func(hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) { panic("nil map write") })}
	bothPaths(t, hs, func(t *testing.T, s *hooks.Set) {
		s.OnFailure = func(*hooks.Error) { failures.Add(1) }
		o := s.PreToolUse(context.Background(), bashLs)
		assert.Equal(t, permission.Deny, o.Decision)
		assert.Equal(t, `hook "boom" panicked: nil map write; call blocked (hooks fail closed)`, o.Reason)
		assert.Equal(t, "boom", o.Hook)
		var pe *hooks.PanicError
		require.ErrorAs(t, o.Err, &pe)
		assert.Equal(t, "nil map write", pe.Value)
		assert.Contains(t, string(pe.Stack), "goroutine")
	})
	assert.Equal(t, int32(2), failures.Load(), "OnFailure is called once per failure")
}

func TestErrorBlocksPreToolUse(t *testing.T) {
	hs := []hooks.Hook{preHook("db", func(hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
		return hooks.PreToolUseResult{}, errors.New("policy store unreachable")
	})}
	bothPaths(t, hs, func(t *testing.T, s *hooks.Set) {
		o := s.PreToolUse(context.Background(), bashLs)
		assert.Equal(t, permission.Deny, o.Decision)
		assert.Equal(t, `hook "db" failed: policy store unreachable; call blocked (hooks fail closed)`, o.Reason)
		var he *hooks.Error
		require.ErrorAs(t, o.Err, &he)
		assert.Equal(t, "db", he.Hook)
		assert.Equal(t, hooks.EventPreToolUse, he.Event)
	})
}

func TestTimeoutBlocksPreToolUse(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	s := hooks.NewSet(
		hooks.Hook{Name: "slow", Timeout: 50 * time.Millisecond, PreToolUse: func(ctx context.Context, e hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
			<-release // ignores ctx on purpose: the Set must not wait for it
			return hooks.PreToolUseResult{}, nil
		}},
	)
	defer s.Close()
	start := time.Now()
	o := s.PreToolUse(context.Background(), bashLs)
	assert.Less(t, time.Since(start), 5*time.Second)
	assert.Equal(t, permission.Deny, o.Decision)
	assert.Equal(t, `hook "slow" timed out after 50ms; call blocked (hooks fail closed)`, o.Reason)
	assert.ErrorIs(t, o.Err, hooks.ErrTimeout)
}

func TestSetTimeoutAppliesToHooksWithout(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	s := &hooks.Set{Timeout: 30 * time.Millisecond}
	s.Add(preHook("slow", func(hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
		<-release
		return hooks.PreToolUseResult{}, nil
	}))
	defer s.Close()
	o := s.PreToolUse(context.Background(), bashLs)
	assert.Equal(t, permission.Deny, o.Decision)
	assert.Equal(t, `hook "slow" timed out after 30ms; call blocked (hooks fail closed)`, o.Reason)
}

func TestCancelledSessionDenies(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var ran atomic.Bool
	s := hooks.NewSet(preHook("x", func(hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
		ran.Store(true)
		return hooks.PreToolUseResult{}, nil
	}))
	defer s.Close()
	o := s.PreToolUse(ctx, bashLs)
	assert.Equal(t, permission.Deny, o.Decision)
	assert.Equal(t, "session cancelled: context canceled", o.Reason)
	assert.False(t, ran.Load())
}

func TestCallbacksGetSessionContext(t *testing.T) {
	type key struct{}
	ctx := context.WithValue(context.Background(), key{}, "session-ctx")
	var got atomic.Value
	bothPaths(t, []hooks.Hook{{Name: "ctx", PreToolUse: func(ctx context.Context, e hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
		got.Store(ctx.Value(key{}))
		return hooks.PreToolUseResult{}, nil
	}}}, func(t *testing.T, s *hooks.Set) {
		o := s.PreToolUse(ctx, bashLs)
		assert.Equal(t, permission.Allow, o.Decision)
		assert.Equal(t, "session-ctx", got.Load())
	})
}

func postHook(name string, f func(e hooks.PostToolUseEvent) (hooks.PostToolUseResult, error)) hooks.Hook {
	return hooks.Hook{Name: name, PostToolUse: func(_ context.Context, e hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) {
		return f(e)
	}}
}

var lsDone = hooks.PostToolUseEvent{SessionID: "s1", AgentName: "lead", Step: 1, ToolName: "Bash", CallID: "c1",
	Input: json.RawMessage(`{"command":"ls"}`), Output: "a.txt secret=hunter2", Decision: permission.Allow, Reason: "allowed by rule Bash(ls)"}

func TestPostToolUseMutationsChain(t *testing.T) {
	hs := []hooks.Hook{
		postHook("redact", func(e hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) {
			return hooks.MutateOutput(strings.ReplaceAll(e.Output, "hunter2", "****")), nil
		}),
		postHook("upper", func(e hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) {
			return hooks.MutateOutput(strings.ToUpper(e.Output)), nil
		}),
		postHook("keep", func(e hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) {
			return hooks.PostToolUseResult{Context: "checked"}, nil
		}),
	}
	bothPaths(t, hs, func(t *testing.T, s *hooks.Set) {
		o := s.PostToolUse(context.Background(), lsDone)
		assert.Equal(t, "A.TXT SECRET=****", o.Output)
		assert.Equal(t, "checked", o.Context)
		assert.NoError(t, o.Err)
	})
}

func TestPostToolUseFailuresLeaveOutputAndContinue(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	hs := []hooks.Hook{
		postHook("redact", func(e hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) {
			return hooks.MutateOutput(strings.ReplaceAll(e.Output, "hunter2", "****")), nil
		}),
		postHook("panics", func(hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) { panic("oops") }),
		postHook("errs", func(hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) {
			return hooks.MutateOutput("must not be used"), errors.New("disk full")
		}),
		{Name: "hangs", Timeout: 40 * time.Millisecond, PostToolUse: func(ctx context.Context, e hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) {
			<-release
			return hooks.MutateOutput("too late"), nil
		}},
		postHook("suffix", func(e hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) {
			return hooks.MutateOutput(e.Output + " [checked]"), nil
		}),
	}
	var reported []string
	s := &hooks.Set{OnFailure: func(e *hooks.Error) { reported = append(reported, e.Error()) }}
	s.Add(hs...)
	defer s.Close()
	o := s.PostToolUse(context.Background(), lsDone)
	assert.Equal(t, "a.txt secret=**** [checked]", o.Output, "failed hooks leave the output unchanged; later hooks still run")
	require.Error(t, o.Err)
	assert.Equal(t, []string{
		`hooks: hook "panics" PostToolUse: panic: oops`,
		`hooks: hook "errs" PostToolUse: disk full`,
		`hooks: hook "hangs" PostToolUse: timed out after 40ms`,
	}, reported)
	assert.ErrorIs(t, o.Err, hooks.ErrTimeout)
}

func TestNotifyEventsReportFailures(t *testing.T) {
	var started, stopped atomic.Int32
	hs := []hooks.Hook{
		{Name: "good", SessionStart: func(context.Context, hooks.SessionStartEvent) error { started.Add(1); return nil },
			SessionStop: func(context.Context, hooks.SessionStopEvent) error { stopped.Add(1); return nil }},
		{Name: "bad", SessionStart: func(context.Context, hooks.SessionStartEvent) error { return errors.New("no db") },
			SessionStop: func(context.Context, hooks.SessionStopEvent) error { panic("stop") }},
		{Name: "after", SessionStop: func(context.Context, hooks.SessionStopEvent) error { stopped.Add(1); return nil }},
	}
	bothPaths(t, hs, func(t *testing.T, s *hooks.Set) {
		err := s.SessionStart(context.Background(), hooks.SessionStartEvent{SessionID: "s1"})
		assert.EqualError(t, err, `hooks: hook "bad" SessionStart: no db`)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err = s.SessionStop(ctx, hooks.SessionStopEvent{SessionID: "s1", Reason: "cancelled"})
		assert.EqualError(t, err, `hooks: hook "bad" SessionEnd: panic: stop`)
	})
	assert.Equal(t, int32(2), started.Load())
	assert.Equal(t, int32(4), stopped.Load(), "SessionStop runs every hook even with a cancelled ctx")
}

func TestUnnamedHookNamedByPosition(t *testing.T) {
	s := hooks.NewSet(hooks.Hook{}, hooks.Hook{PreToolUse: func(context.Context, hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
		return hooks.Block("no"), nil
	}})
	defer s.Close()
	o := s.PreToolUse(context.Background(), bashLs)
	assert.Equal(t, "hook #2", o.Hook)
	assert.Equal(t, "no", o.Reason)
}

func TestConcurrentUseAndAdd(t *testing.T) {
	s := hooks.NewSet(noopHook("a", 0))
	defer s.Close()
	done := make(chan struct{})
	for g := 0; g < 8; g++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := 0; i < 200; i++ {
				o := s.PreToolUse(context.Background(), bashLs)
				if o.Decision != permission.Allow && o.Decision != permission.Deny {
					t.Errorf("decision %v", o.Decision)
				}
			}
		}()
	}
	s.Add(preHook("late", answer(hooks.Block("late block"))))
	for g := 0; g < 8; g++ {
		<-done
	}
	o := s.PreToolUse(context.Background(), bashLs)
	assert.Equal(t, permission.Deny, o.Decision)
	assert.Equal(t, "late block", o.Reason)
	assert.Equal(t, 2, s.Len())
}

func TestNoAllocsNoopChain(t *testing.T) {
	for _, timeout := range []int{-1, 0} {
		s := hooks.NewSet(noopHook("a", timeout), noopHook("b", timeout), noopHook("c", timeout))
		ctx := context.Background()
		s.PreToolUse(ctx, bashLs) // warm the worker pool
		n := testing.AllocsPerRun(200, func() {
			if o := s.PreToolUse(ctx, bashLs); o.Decision != permission.Allow {
				t.Fatalf("decision %v", o.Decision)
			}
		})
		s.Close()
		assert.Zero(t, n, "timeout mode %d", timeout)
	}
}

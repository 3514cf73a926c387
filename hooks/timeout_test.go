package hooks_test

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
)

// sleeper is a PreToolUse hook that takes d to answer Continue.
func sleeper(name string, timeout, d time.Duration) hooks.Hook {
	return hooks.Hook{Name: name, Timeout: timeout, PreToolUse: func(context.Context, hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
		time.Sleep(d)
		return hooks.PreToolUseResult{}, nil
	}}
}

// hanger is a PreToolUse hook that answers only when release is closed,
// ignoring its context on purpose: the Set must not wait for it.
func hanger(name string, timeout time.Duration, release <-chan struct{}) hooks.Hook {
	return hooks.Hook{Name: name, Timeout: timeout, PreToolUse: func(context.Context, hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
		<-release
		return hooks.PreToolUseResult{}, nil
	}}
}

// The timeout bounds each callback from its own start: three hooks that
// each take 60% of their timeout all answer, although the chain takes
// 180% of it.
func TestTimeoutIsPerCallback(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const d = 100 * time.Millisecond
		s := hooks.NewSet(sleeper("a", d, 60*time.Millisecond), sleeper("b", d, 60*time.Millisecond), sleeper("c", d, 60*time.Millisecond))
		defer s.Close()
		start := time.Now()
		o := s.PreToolUse(context.Background(), bashLs)
		assert.Equal(t, permission.Allow, o.Decision, o.Reason)
		assert.Empty(t, o.Reason)
		assert.NoError(t, o.Err)
		assert.Equal(t, 180*time.Millisecond, time.Since(start))
	})
}

// A callback that overruns is abandoned no sooner than its timeout and
// at most an eighth of it later, whether it is the first hook of the chain
// or comes after others, and whether the worker was busy or idle before.
func TestTimeoutAbandonsWithinAnEighth(t *testing.T) {
	const d = 160 * time.Millisecond
	for _, tc := range []struct {
		name   string
		before []hooks.Hook
		idle   time.Duration // pause after a warm-up call
	}{
		{name: "first hook"},
		{name: "after a slow hook", before: []hooks.Hook{sleeper("slow", d, 70*time.Millisecond)}},
		{name: "after fast hooks", before: []hooks.Hook{sleeper("f1", d, 0), sleeper("f2", d, 0)}},
		{name: "after an hour-long timeout", before: []hooks.Hook{sleeper("patient", time.Hour, 0)}},
		{name: "worker idle for a while", idle: 10 * d},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				release := make(chan struct{})
				defer close(release)
				s := hooks.NewSet(tc.before...)
				defer s.Close()
				if tc.idle > 0 {
					s.PreToolUse(context.Background(), bashLs)
					time.Sleep(tc.idle)
				}
				s.Add(hanger("stuck", d, release))
				start := time.Now()
				o := s.PreToolUse(context.Background(), bashLs)
				took := time.Since(start)
				assert.Equal(t, permission.Deny, o.Decision)
				assert.Equal(t, `hook "stuck" timed out after 160ms; call blocked (hooks fail closed)`, o.Reason)
				assert.ErrorIs(t, o.Err, hooks.ErrTimeout)
				var before time.Duration
				if tc.name == "after a slow hook" {
					before = 70 * time.Millisecond
				}
				assert.GreaterOrEqual(t, took-before, d, "abandoned before its timeout")
				assert.LessOrEqual(t, took-before, d+d/8, "abandoned late")
			})
		})
	}
}

// A Set goes on working after a worker was abandoned: the next call gets
// a fresh worker and its own verdict.
func TestTimeoutThenNextCall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		defer close(release)
		var answered atomic.Bool
		s := hooks.NewSet(hooks.Hook{Name: "once", Timeout: 50 * time.Millisecond, PreToolUse: func(context.Context, hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
			if answered.CompareAndSwap(false, true) {
				<-release // the first call hangs
			}
			return hooks.PreToolUseResult{Action: hooks.PreBlock, Reason: "second answer"}, nil
		}})
		defer s.Close()
		o := s.PreToolUse(context.Background(), bashLs)
		assert.Equal(t, permission.Deny, o.Decision)
		assert.Equal(t, `hook "once" timed out after 50ms; call blocked (hooks fail closed)`, o.Reason)
		o = s.PreToolUse(context.Background(), bashLs)
		assert.Equal(t, permission.Deny, o.Decision)
		assert.Equal(t, "second answer", o.Reason)
		assert.NoError(t, o.Err)
	})
}

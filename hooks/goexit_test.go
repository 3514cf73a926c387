package hooks_test

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
)

// exiter is a hook whose callback ends its goroutine with runtime.Goexit,
// as t.Fatal does in a hook written inside a test.
func exiter(name string, timeout time.Duration) hooks.Hook {
	return hooks.Hook{Name: name, Timeout: timeout,
		PreToolUse: func(context.Context, hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
			runtime.Goexit()
			return hooks.PreToolUseResult{}, nil
		},
		PostToolUse: func(context.Context, hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) {
			runtime.Goexit()
			return hooks.PostToolUseResult{}, nil
		},
	}
}

// A callback that calls runtime.Goexit on a worker blocks the call at once
// with a reason that says so, whatever its timeout (a long one included),
// whichever place it has in the chain, and the Set goes on working.
func TestGoexitBlocksAtOnce(t *testing.T) {
	for _, tc := range []struct {
		name  string
		chain []hooks.Hook
		post  bool // the PostToolUse chain runs on a worker too
	}{
		{"alone, long timeout", []hooks.Hook{exiter("x", time.Hour)}, true},
		{"after another", []hooks.Hook{sleeper("a", time.Hour, 0), exiter("x", time.Hour)}, true},
		// sleeper has no PostToolUse: that chain would run inline.
		{"untimed hook in a timed chain", []hooks.Hook{sleeper("a", time.Hour, 0), exiter("x", hooks.NoTimeout)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := hooks.NewSet(tc.chain...)
			defer s.Close()
			for range 3 { // the Set stays usable: a fresh worker each time
				done := make(chan hooks.PreToolUseOutcome, 1)
				go func() { done <- s.PreToolUse(context.Background(), bashLs) }()
				var o hooks.PreToolUseOutcome
				select {
				case o = <-done:
				case <-time.After(30 * time.Second):
					t.Fatal("PreToolUse did not return after the hook called runtime.Goexit")
				}
				assert.Equal(t, permission.Deny, o.Decision)
				assert.Equal(t, "x", o.Hook)
				assert.Contains(t, o.Reason, `hook "x" called runtime.Goexit`)
				require.Error(t, o.Err)
				assert.True(t, errors.Is(o.Err, hooks.ErrGoexit), "%v", o.Err)
			}
			if !tc.post {
				return
			}
			post := s.PostToolUse(context.Background(), hooks.PostToolUseEvent{ToolName: "Bash"})
			require.Error(t, post.Err)
			assert.True(t, errors.Is(post.Err, hooks.ErrGoexit), "%v", post.Err)
		})
	}
}

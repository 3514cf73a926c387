package runtime

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime/approval"
)

// A session cancelled while the person is being asked ends the call with a
// Deny, whatever context the call carried and whatever the person (or an
// asker that does not watch its context) answers afterwards.
func TestPipelineCancelDuringAskDenies(t *testing.T) {
	for _, tc := range []struct {
		name string
		// watches says whether the asker returns when its context ends;
		// one that does not answers "allow" once the session is cancelled.
		watches bool
	}{
		{"asker watching its context", true},
		{"asker answering allow after the cancel", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			asking := make(chan struct{})
			cancelled := make(chan struct{})
			asker := approval.AskerFunc(func(ctx context.Context, _ approval.Request) (approval.Answer, error) {
				close(asking)
				if tc.watches {
					select {
					case <-ctx.Done():
						return approval.Answer{}, context.Cause(ctx)
					case <-time.After(10 * time.Second):
						return approval.Answer{Choice: approval.AllowOnce}, nil
					}
				}
				<-cancelled
				return approval.Answer{Choice: approval.AllowOnce}, nil
			})
			w := newWorld(t, permission.Config{Default: permission.Allow, Ask: []string{"WebFetch"}}, asker)
			sess := w.start(t, "s", permission.ModeDefault)
			go func() {
				<-asking
				sess.Cancel("the user pressed Esc")
				close(cancelled)
			}()
			// The call's context is not the session's: it is never cancelled.
			start := time.Now()
			v := w.p.Check(context.Background(), Call{Session: "s", ID: "c1", Tool: "WebFetch", Input: in("url", "https://example.com/")})
			assert.Less(t, time.Since(start), 5*time.Second, "the ask ended with the session")
			require.Equal(t, permission.Deny, v.Decision, v.Reason)
			assert.Equal(t, RuleCancelled, v.Rule)
			assert.Equal(t, permission.LayerRuntime, v.Layer)
			assert.Contains(t, v.Reason, "the user pressed Esc")
			assert.True(t, v.Asked, "the person was asked")
		})
	}
}

// So does a session cancelled during any other wait of a Check: here a
// PreToolUse hook that takes its time and lets the call through.
func TestPipelineCancelDuringHookDenies(t *testing.T) {
	hookRunning := make(chan struct{})
	cancelled := make(chan struct{})
	slow := hooks.Hook{Name: "slow", Timeout: hooks.NoTimeout, PreToolUse: func(context.Context, hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
		close(hookRunning)
		<-cancelled // does not watch its context
		return hooks.PreToolUseResult{}, nil
	}}
	w := newWorld(t, permission.Config{Default: permission.Allow}, nil, slow)
	sess := w.start(t, "s", permission.ModeDefault)
	go func() {
		<-hookRunning
		sess.Cancel("stopped from the approval page")
		close(cancelled)
	}()
	v := w.p.Check(context.Background(), Call{Session: "s", ID: "c1", Tool: "Read", Input: in("file_path", filepath.Join(w.dir, "README.md"))})
	require.Equal(t, permission.Deny, v.Decision, v.Reason)
	assert.Equal(t, RuleCancelled, v.Rule)
	assert.Contains(t, v.Reason, "stopped from the approval page")
	assert.False(t, v.Asked)
}

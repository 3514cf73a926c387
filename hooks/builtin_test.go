package hooks_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/hooks/hookstest"
	"github.com/toolgate/toolgate/permission"
)

func TestCancellationBlocksCancelledSessionOnly(t *testing.T) {
	var c hooks.Cancellation
	s := hooks.NewSet(c.Hook())
	defer s.Close()
	ctx := context.Background()
	other := hookstest.PreToolUse("Read", `{"file_path":"a"}`)
	other.SessionID = "other"

	o := s.PreToolUse(ctx, hookstest.PreToolUse("Bash", `{"command":"ls"}`))
	assert.Equal(t, permission.Allow, o.Decision)

	c.Cancel(hookstest.SessionID)
	assert.True(t, c.Cancelled(hookstest.SessionID))
	o = s.PreToolUse(ctx, hookstest.PreToolUse("Bash", `{"command":"ls"}`))
	assert.Equal(t, permission.Deny, o.Decision)
	assert.Equal(t, `session "test-session" is cancelled: cancelled by the user`, o.Reason)
	assert.Equal(t, "cancellation", o.Hook)

	o = s.PreToolUse(ctx, other)
	assert.Equal(t, permission.Allow, o.Decision, "other sessions go on")

	c.Cancel("other", "budget exhausted")
	o = s.PreToolUse(ctx, other)
	assert.Equal(t, `session "other" is cancelled: budget exhausted`, o.Reason)

	require.NoError(t, s.SessionStop(ctx, hookstest.SessionStop("cancelled")))
	assert.False(t, c.Cancelled(hookstest.SessionID), "forgotten at session stop")
	assert.True(t, c.Cancelled("other"))
}

func TestCancellationConformance(t *testing.T) {
	var c hooks.Cancellation
	hookstest.Run(t, c.Hook())
}

func TestMetricsCountsAndLogs(t *testing.T) {
	var buf bytes.Buffer
	m := &hooks.Metrics{Logger: slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		}}))}
	s := hooks.NewSet(m.Hook())
	defer s.Close()
	ctx := context.Background()
	require.NoError(t, s.SessionStart(ctx, hookstest.SessionStart()))

	ok := hookstest.PostToolUse("Bash", `{"command":"ls"}`, "a")
	failed := hookstest.PostToolUse("Bash", `{"command":"false"}`, "")
	failed.Err = errors.New("exit status 1")
	denied := hookstest.PostToolUse("Write", `{"file_path":"/etc/passwd"}`, "")
	denied.Decision, denied.Reason, denied.Elapsed = permission.Deny, "outside the sandbox", 0
	for _, e := range []hooks.PostToolUseEvent{ok, failed, denied} {
		s.PostToolUse(ctx, e)
	}
	for step := 1; step <= 3; step++ {
		require.NoError(t, s.StepComplete(ctx, hookstest.StepComplete(step)))
	}

	snap := m.Snapshot()
	assert.Equal(t, hooks.Stats{Calls: 3, Errors: 1, Denials: 1, Elapsed: 10 * time.Millisecond}, snap.Total)
	assert.Equal(t, hooks.Stats{Calls: 2, Errors: 1, Elapsed: 10 * time.Millisecond}, snap.Tools["Bash"])
	assert.Equal(t, hooks.Stats{Calls: 1, Denials: 1}, snap.Tools["Write"])
	ss := snap.Sessions[hookstest.SessionID]
	assert.Equal(t, 3, ss.Steps)
	assert.Equal(t, hooks.Stats{Calls: 3, Errors: 1, Denials: 1, Elapsed: 10 * time.Millisecond}, ss.Stats)
	assert.Equal(t, hooks.Stats{Calls: 1, Denials: 1}, ss.Tools["Write"])

	assert.Equal(t, "level=INFO msg=\"session metrics\" session=test-session agent=lead step=3 calls=3 errors=1 denials=1 elapsed=10ms\n", buf.String(),
		"one summary line every 3 steps")
	buf.Reset()
	require.NoError(t, s.SessionStop(ctx, hookstest.SessionStop("max steps reached")))
	assert.Equal(t, "level=INFO msg=\"session stopped\" session=test-session agent=lead reason=\"max steps reached\" steps=3 calls=3 errors=1 denials=1 elapsed=10ms\n", buf.String())
	snap = m.Snapshot()
	assert.NotContains(t, snap.Sessions, hookstest.SessionID, "session counters are freed at stop")
	assert.Equal(t, 3, snap.Total.Calls, "per-tool totals remain")
}

func TestMetricsConcurrent(t *testing.T) {
	m := &hooks.Metrics{Logger: slog.New(slog.DiscardHandler)}
	s := hooks.NewSet(m.Hook())
	defer s.Close()
	done := make(chan struct{})
	for g := 0; g < 8; g++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := 0; i < 100; i++ {
				s.PostToolUse(context.Background(), hookstest.PostToolUse("Read", `{}`, "x"))
				_ = m.Snapshot()
			}
		}()
	}
	for g := 0; g < 8; g++ {
		<-done
	}
	assert.Equal(t, 800, m.Snapshot().Tools["Read"].Calls)
}

func TestMetricsConformance(t *testing.T) {
	m := &hooks.Metrics{Logger: slog.New(slog.DiscardHandler)}
	hookstest.Run(t, m.Hook())
	assert.Positive(t, m.Snapshot().Total.Calls)
}

func TestMetricsDefaultLoggerIsNotRequired(t *testing.T) {
	var m hooks.Metrics
	h := m.Hook()
	_, err := h.PostToolUse(context.Background(), hookstest.PostToolUse("Read", `{}`, strings.Repeat("x", 3)))
	assert.NoError(t, err)
	assert.Equal(t, 1, m.Snapshot().Total.Calls)
}

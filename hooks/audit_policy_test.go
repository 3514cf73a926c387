package hooks_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
)

// stuckAudit returns an audit log whose writer is stuck on a locked
// database with its queue of 2 full, and the function that unlocks it.
func stuckAudit(t *testing.T, opts hooks.AuditOptions) (*hooks.AuditLog, func()) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.db")
	db := auditSQLitePath(t, path, "busy_timeout(600000)")
	lock := newAuditLock(t, path)
	opts.QueueSize, opts.BatchSize, opts.Logger = 2, 1, auditQuiet()
	opts.FallbackPath = filepath.Join(t.TempDir(), "fallback.jsonl")
	l, err := hooks.NewAuditLog(db, opts)
	require.NoError(t, err)
	require.NoError(t, l.EnsureTable(context.Background()))
	lock.down(t)
	l.Record(hooks.AuditRecord{SessionID: "s", ToolName: "Read", Status: hooks.AuditOK}) // the writer takes it and waits
	require.Eventually(t, func() bool { return db.Stats().InUse > 0 && l.Stats().Queued == 0 }, time.Minute, time.Millisecond)
	for range 2 {
		l.Record(hooks.AuditRecord{SessionID: "s", ToolName: "Read", Status: hooks.AuditOK})
	}
	require.Equal(t, 2, l.Stats().Queued)
	up := func() { lock.up(t) }
	t.Cleanup(func() { _ = l.Close(context.Background()) })
	return l, up
}

// TestAuditQueuePolicies: with the queue full, the default sends the row
// to the fallback at once; Wait waits (bounded) and queues the row when
// room comes in time, else falls back; Deny blocks the calls the log
// could not queue, with the reason, and lets them run again once there is
// room.
func TestAuditQueuePolicies(t *testing.T) {
	row := hooks.AuditRecord{SessionID: "s", ToolName: "Bash", Status: hooks.AuditOK}
	t.Run("fallback (default)", func(t *testing.T) {
		l, up := stuckAudit(t, hooks.AuditOptions{})
		l.Record(row)
		st := l.Stats()
		assert.Equal(t, int64(1), st.QueueFull)
		assert.Equal(t, int64(1), st.Fallback)
		up()
	})
	t.Run("wait, room in time", func(t *testing.T) {
		l, up := stuckAudit(t, hooks.AuditOptions{QueuePolicy: hooks.AuditQueueWait, QueueWait: time.Minute})
		go func() { time.Sleep(20 * time.Millisecond); up() }()
		l.Record(row)
		st := l.Stats()
		assert.Zero(t, st.QueueFull, "the row waited for room and was queued")
		assert.Zero(t, st.Fallback)
	})
	t.Run("wait, no room", func(t *testing.T) {
		l, up := stuckAudit(t, hooks.AuditOptions{QueuePolicy: hooks.AuditQueueWait, QueueWait: time.Millisecond})
		l.Record(row)
		st := l.Stats()
		assert.Equal(t, int64(1), st.QueueFull, "the bounded wait ended: to the fallback")
		assert.Equal(t, int64(1), st.Fallback)
		up()
	})
	t.Run("deny", func(t *testing.T) {
		l, up := stuckAudit(t, hooks.AuditOptions{QueuePolicy: hooks.AuditQueueDeny})
		h := l.Hook()
		require.NotNil(t, h.PreToolUse)
		res, err := h.PreToolUse(context.Background(), hooks.PreToolUseEvent{ToolName: "Bash"})
		require.NoError(t, err)
		assert.Equal(t, hooks.PreBlock, res.Action)
		assert.Contains(t, res.Reason, "the audit log's queue is full")
		assert.Equal(t, int64(1), l.Stats().Denied)
		// Through a Set, the call is denied with that reason.
		s := hooks.NewSet(h)
		defer s.Close()
		o := s.PreToolUse(context.Background(), hooks.PreToolUseEvent{ToolName: "Bash"})
		assert.Equal(t, permission.Deny, o.Decision)
		assert.Contains(t, o.Reason, "a call that cannot be audited")
		up()
		require.Eventually(t, func() bool { return l.Stats().Queued == 0 }, time.Minute, time.Millisecond)
		res, err = h.PreToolUse(context.Background(), hooks.PreToolUseEvent{ToolName: "Bash"})
		require.NoError(t, err)
		assert.Equal(t, hooks.PreContinue, res.Action, "with room again, calls run")
	})
	t.Run("default hook asks nothing before a call", func(t *testing.T) {
		l, up := stuckAudit(t, hooks.AuditOptions{})
		assert.Nil(t, l.Hook().PreToolUse)
		up()
	})
	_, err := hooks.NewAuditLog(auditSQLite(t, "x.db"), hooks.AuditOptions{QueuePolicy: 9})
	require.ErrorContains(t, err, "unknown QueuePolicy 9")
}

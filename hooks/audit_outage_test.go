package hooks_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/hooks"
)

// TestAuditOutageLogsOnce: an outage in which thousands of rows go to the
// fallback, and hundreds are lost once it is full, is told in a handful of
// lines (when rows start going to the fallback, the first loss, and the
// counts when the log closes), not one line per row.
func TestAuditOutageLogsOnce(t *testing.T) {
	db := auditSQLite(t, "audit.db")
	require.NoError(t, db.Close()) // every write fails
	var logBuf auditLogBuffer
	l, err := hooks.NewAuditLog(db, hooks.AuditOptions{
		Dialect: hooks.AuditSQLite, MaxAttempts: 1, BatchSize: 1, QueueSize: 4, MemoryFallbackSize: 2000,
		Logger: slog.New(slog.NewTextHandler(&logBuf, nil)),
	})
	require.NoError(t, err)
	const rows = 3000
	for i := range rows {
		l.Record(hooks.AuditRecord{SessionID: "outage", Step: i, ToolName: "Read", Status: hooks.AuditOK})
	}
	err = l.Close(context.Background())
	require.ErrorIs(t, err, hooks.ErrAuditLost)
	st := l.Stats()
	assert.Equal(t, int64(2000), st.Fallback)
	assert.Equal(t, int64(1000), st.Lost)
	out := logBuf.String()
	lines := strings.Count(out, "\n")
	t.Logf("%d rows, %d log lines:\n%s", rows, lines, out)
	assert.LessOrEqual(t, lines, 3, "one outage, a few lines")
	assert.Equal(t, 1, strings.Count(out, "audit rows written to the fallback"))
	assert.Equal(t, 1, strings.Count(out, "audit rows lost"))
	assert.Contains(t, out, "audit outage over: the audit log closed")
	assert.Contains(t, out, "fallback_rows=2000 lost_rows=1000")
}

package hooks_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/hooks"
)

// TestAuditSQLiteFileDeletedMidRun: the database file is deleted while the
// log runs (a cleanup job, an operator). No row vanishes: every row
// recorded is in the database file found at the path afterwards, in the
// fallback, or counted lost. Rows the database confirmed into the file
// that was deleted are gone with it, so they must not count as written:
// the log notices that the file it writes is no longer the one at the
// path and sends them to the fallback.
func TestAuditSQLiteFileDeletedMidRun(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.db")
	fb := filepath.Join(dir, "fallback.jsonl")
	db := auditSQLitePath(t, path)
	l, err := hooks.NewAuditLog(db, hooks.AuditOptions{BatchSize: 8, MaxAttempts: 2, RetryBackoff: time.Millisecond,
		FallbackPath: fb, Logger: auditQuiet()})
	require.NoError(t, err)
	h := l.Hook()
	const calls = 600
	for i := range calls {
		auditPost(t, h, auditEvent("s", i, "Bash", "x"))
		if i == calls/2 {
			require.Eventually(t, func() bool { return l.Stats().Written > 0 }, time.Minute, time.Millisecond)
			for _, p := range []string{path, path + "-journal", path + "-wal", path + "-shm"} {
				if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
					require.NoError(t, err)
				}
			}
		}
		if i%50 == 0 {
			time.Sleep(time.Millisecond) // let the writer take batches
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	closeErr := l.Close(ctx)
	st := l.Stats()

	keys := map[string]bool{}
	if _, err := os.Stat(path); err == nil {
		check := auditSQLitePath(t, path)
		if auditSQLiteTable(t, check, hooks.DefaultAuditTable) {
			for _, r := range auditRows(t, check, hooks.DefaultAuditTable) {
				keys[r.Key] = true
			}
		}
	}
	inDB := len(keys)
	fbRows := auditFallbackFile(t, fb)
	for _, r := range fbRows {
		keys[r.Key] = true
	}
	t.Logf("recorded %d: in the file at the path %d, fallback %d rows, %d distinct; stats %+v", calls, inDB, len(fbRows), len(keys), st)
	assert.Equal(t, int64(calls), st.Recorded)
	assert.Equal(t, calls, len(keys)+int(st.Lost), "every row is in the database, the fallback, or counted lost")
	if st.Lost > 0 {
		require.ErrorIs(t, closeErr, hooks.ErrAuditLost)
	}
	assert.LessOrEqual(t, st.Written, int64(inDB), "no row counts as written that is not in the database")
}

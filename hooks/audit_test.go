package hooks_test

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
	_ "modernc.org/sqlite"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
)

// auditSQLite opens a SQLite database file in a temporary directory. pragmas
// are added to the DSN, as in "busy_timeout(0)".
func auditSQLite(t testing.TB, name string, pragmas ...string) *sql.DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	return auditSQLitePath(t, path, pragmas...)
}

func auditSQLitePath(t testing.TB, path string, pragmas ...string) *sql.DB {
	t.Helper()
	dsn := "file:" + path
	for i, p := range pragmas {
		sep := "&"
		if i == 0 {
			sep = "?"
		}
		dsn += sep + "_pragma=" + p
	}
	db, err := sql.Open("sqlite", dsn)
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// auditQuiet is a logger for tests whose warnings are expected.
func auditQuiet() *slog.Logger { return slog.New(slog.DiscardHandler) }

// auditEvent is a PostToolUse event of an allowed call that succeeded.
func auditEvent(session string, step int, tool, output string) hooks.PostToolUseEvent {
	return hooks.PostToolUseEvent{
		SessionID: session,
		AgentName: "lead",
		Step:      step,
		ToolName:  tool,
		CallID:    fmt.Sprintf("call-%d", step),
		Output:    output,
		Elapsed:   time.Duration(step) * time.Millisecond,
		Decision:  permission.Allow,
		Reason:    "allowed by rule Read(*)",
	}
}

// auditPost runs the audit hook's PostToolUse callback and checks that it leaves
// the output alone.
func auditPost(t testing.TB, h hooks.Hook, e hooks.PostToolUseEvent) {
	res, err := h.PostToolUse(context.Background(), e)
	if err != nil || res.Action != hooks.PostContinue {
		t.Errorf("audit PostToolUse = %+v, %v; want Continue, nil", res, err)
	}
}

type auditRow struct {
	Key, SessionID, ToolName, Status, Preview, Agent, Decision, Reason string
	Step                                                               int
	ElapsedMS                                                          int64
	Created                                                            time.Time
}

func auditRows(t testing.TB, db *sql.DB, table string) []auditRow {
	t.Helper()
	rows, err := db.Query("SELECT row_key, session_id, step, tool_name, status, elapsed_ms, output_preview, agent_name, decision, reason, created_at FROM " + table + " ORDER BY id")
	require.NoError(t, err)
	defer rows.Close()
	var out []auditRow
	for rows.Next() {
		var r auditRow
		require.NoError(t, rows.Scan(&r.Key, &r.SessionID, &r.Step, &r.ToolName, &r.Status, &r.ElapsedMS,
			&r.Preview, &r.Agent, &r.Decision, &r.Reason, &r.Created))
		out = append(out, r)
	}
	require.NoError(t, rows.Err())
	return out
}

func auditCount(t testing.TB, db *sql.DB, table string) int {
	t.Helper()
	var n int
	require.NoError(t, db.QueryRow("SELECT COUNT(*) FROM "+table).Scan(&n))
	return n
}

func auditFallbackFile(t testing.TB, path string) []hooks.AuditFallbackRow {
	t.Helper()
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	require.NoError(t, err)
	defer f.Close()
	var out []hooks.AuditFallbackRow
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r hooks.AuditFallbackRow
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r), "fallback line %q", sc.Text())
		out = append(out, r)
	}
	require.NoError(t, sc.Err())
	return out
}

func auditSQLiteTable(t testing.TB, db *sql.DB, table string) bool {
	t.Helper()
	var n int
	require.NoError(t, db.QueryRow("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?", table).Scan(&n))
	return n == 1
}

func TestAuditSQLiteRowsFromHook(t *testing.T) {
	db := auditSQLite(t, "audit.db")
	clock := time.Date(2025, 3, 1, 12, 0, 0, 0, time.FixedZone("CET", 3600))
	l, err := hooks.NewAuditLog(db, hooks.AuditOptions{Now: func() time.Time { return clock }})
	require.NoError(t, err)
	require.False(t, auditSQLiteTable(t, db, "agent_audit_log"), "the constructor must not touch the database")
	h := l.Hook()
	assert.Equal(t, "audit", h.Name)
	assert.Equal(t, hooks.NoTimeout, h.Timeout)

	auditPost(t, h, auditEvent("s1", 1, "Read", "file contents"))
	failed := auditEvent("s1", 2, "Bash", "")
	failed.Err = errors.New("exit status 1")
	failed.Reason = "allowed by rule Bash(make test)"
	auditPost(t, h, failed)
	denied := auditEvent("s1", 3, "Bash", "")
	denied.AgentName = "researcher"
	denied.Decision = permission.Deny
	denied.Reason = "denied by rule Bash(rm -rf *)"
	denied.Elapsed = 0
	auditPost(t, h, denied)
	require.NoError(t, h.SessionStop(context.Background(), hooks.SessionStopEvent{
		SessionID: "s1", AgentName: "lead", Step: 3, Reason: "completed", Elapsed: 1500 * time.Millisecond,
	}))
	require.NoError(t, l.Close(context.Background()))

	require.True(t, auditSQLiteTable(t, db, "agent_audit_log"), "table created if missing")
	rows := auditRows(t, db, "agent_audit_log")
	require.Len(t, rows, 4)
	for _, r := range rows {
		assert.True(t, r.Created.Equal(clock), "created_at %v, want %v", r.Created, clock)
		assert.NotEmpty(t, r.Key)
		r.Key, r.Created = "", time.Time{}
	}
	want := []auditRow{
		{SessionID: "s1", Step: 1, ToolName: "Read", Status: "OK", ElapsedMS: 1, Preview: "file contents", Agent: "lead", Decision: "allow", Reason: "allowed by rule Read(*)"},
		{SessionID: "s1", Step: 2, ToolName: "Bash", Status: "FAIL", ElapsedMS: 2, Preview: "exit status 1", Agent: "lead", Decision: "allow", Reason: "allowed by rule Bash(make test)"},
		{SessionID: "s1", Step: 3, ToolName: "Bash", Status: "FAIL", ElapsedMS: 0, Preview: "", Agent: "researcher", Decision: "deny", Reason: "denied by rule Bash(rm -rf *)"},
		{SessionID: "s1", Step: 3, ToolName: "session", Status: "SESSION_STOP", ElapsedMS: 1500, Preview: "", Agent: "lead", Decision: "", Reason: "completed"},
	}
	for i := range rows {
		rows[i].Key, rows[i].Created = "", time.Time{}
	}
	assert.Equal(t, want, rows)
	assert.Equal(t, hooks.AuditStats{Recorded: 4, Written: 4}, l.Stats())
}

func TestAuditSessionStopRowCarriesError(t *testing.T) {
	db := auditSQLite(t, "audit.db")
	l, err := hooks.NewAuditLog(db, hooks.AuditOptions{})
	require.NoError(t, err)
	require.NoError(t, l.Hook().SessionStop(context.Background(), hooks.SessionStopEvent{
		SessionID: "s9", AgentName: "lead", Step: 7, Reason: "token budget exhausted",
		Err: errors.New("budget of 1000 tokens used up"),
	}))
	require.NoError(t, l.Close(context.Background()))
	rows := auditRows(t, db, "agent_audit_log")
	require.Len(t, rows, 1)
	assert.Equal(t, hooks.AuditSessionTool, rows[0].ToolName)
	assert.Equal(t, hooks.AuditSessionStop, rows[0].Status)
	assert.Equal(t, 7, rows[0].Step)
	assert.Equal(t, "token budget exhausted", rows[0].Reason)
	assert.Equal(t, "budget of 1000 tokens used up", rows[0].Preview)
}

func TestAuditTableCreatedIfMissingAndReused(t *testing.T) {
	db := auditSQLite(t, "audit.db")
	opts := hooks.AuditOptions{Table: "tenant_audit"}
	l1, err := hooks.NewAuditLog(db, opts)
	require.NoError(t, err)
	require.False(t, auditSQLiteTable(t, db, "tenant_audit"))
	require.NoError(t, l1.EnsureTable(context.Background()))
	require.True(t, auditSQLiteTable(t, db, "tenant_audit"))
	l1.Record(hooks.AuditRecord{SessionID: "a", ToolName: "Read", Status: hooks.AuditOK})
	require.NoError(t, l1.Close(context.Background()))

	// A second log finds the table and adds to it.
	l2, err := hooks.NewAuditLog(db, opts)
	require.NoError(t, err)
	l2.Record(hooks.AuditRecord{SessionID: "b", ToolName: "Read", Status: hooks.AuditOK})
	require.NoError(t, l2.Close(context.Background()))
	rows := auditRows(t, db, "tenant_audit")
	require.Len(t, rows, 2)
	assert.Equal(t, "a", rows[0].SessionID)
	assert.Equal(t, "b", rows[1].SessionID)
	assert.NotEqual(t, rows[0].Key, rows[1].Key)
}

func TestAuditOutputPreviewTruncatedByRune(t *testing.T) {
	db := auditSQLite(t, "audit.db")
	l, err := hooks.NewAuditLog(db, hooks.AuditOptions{})
	require.NoError(t, err)
	cases := []struct {
		name, output, want string
	}{
		{"ascii exact", strings.Repeat("a", 200), strings.Repeat("a", 200)},
		{"ascii long", strings.Repeat("a", 201), strings.Repeat("a", 200)},
		// 300 three-byte runes: a byte cut would split a rune.
		{"cjk", strings.Repeat("日", 300), strings.Repeat("日", 200)},
		{"mixed", "x" + strings.Repeat("é", 250), "x" + strings.Repeat("é", 199)},
		{"emoji", strings.Repeat("🙂", 201), strings.Repeat("🙂", 200)},
		{"short", "héllo", "héllo"},
		// PostgreSQL rejects NUL and invalid UTF-8: both become U+FFFD.
		{"nul and invalid", "a\x00b\xffc", "a\uFFFDb\uFFFDc"},
	}
	h := l.Hook()
	for i, c := range cases {
		auditPost(t, h, auditEvent("trunc", i+1, c.name, c.output))
	}
	require.NoError(t, l.Close(context.Background()))
	rows := auditRows(t, db, "agent_audit_log")
	require.Len(t, rows, len(cases))
	for i, c := range cases {
		assert.Equal(t, c.name, rows[i].ToolName)
		assert.Equal(t, c.want, rows[i].Preview, c.name)
		assert.LessOrEqual(t, utf8.RuneCountInString(rows[i].Preview), hooks.AuditPreviewRunes, c.name)
		assert.True(t, utf8.ValidString(rows[i].Preview), c.name)
	}
}

func TestAuditCloseFlushesQueue(t *testing.T) {
	leaks := goleak.IgnoreCurrent()
	db := auditSQLite(t, "audit.db")
	fb := filepath.Join(t.TempDir(), "fallback.jsonl")
	const n = 500
	l, err := hooks.NewAuditLog(db, hooks.AuditOptions{QueueSize: n, BatchSize: 32, FallbackPath: fb})
	require.NoError(t, err)
	h := l.Hook()
	for i := range n {
		auditPost(t, h, auditEvent("flush", i+1, "Read", "x"))
	}
	// Close right away: whatever is still queued must be written.
	require.NoError(t, l.Close(context.Background()))
	st := l.Stats()
	assert.Equal(t, hooks.AuditStats{Recorded: n, Written: n}, st)
	assert.Equal(t, n, auditCount(t, db, "agent_audit_log"))
	assert.Empty(t, auditFallbackFile(t, fb), "nothing goes to the fallback when the database works")

	// Close is idempotent, and rows recorded after it go to the fallback.
	require.NoError(t, l.Close(context.Background()))
	auditPost(t, h, auditEvent("flush", n+1, "Read", "late"))
	late := auditFallbackFile(t, fb)
	require.Len(t, late, 1)
	assert.Equal(t, "audit log closed", late[0].Cause)
	assert.Equal(t, "late", late[0].OutputPreview)
	assert.Equal(t, int64(1), l.Stats().Fallback)
	require.NoError(t, db.Close())
	goleak.VerifyNone(t, leaks)
}

// auditLock holds SQLite's exclusive lock from another connection, so that
// the audit log's writes find the database busy: the database is "down".
type auditLock struct {
	db   *sql.DB
	conn *sql.Conn
}

func newAuditLock(t testing.TB, path string) *auditLock {
	return &auditLock{db: auditSQLitePath(t, path, "busy_timeout(0)")}
}

func (s *auditLock) down(t testing.TB) {
	t.Helper()
	ctx := context.Background()
	conn, err := s.db.Conn(ctx)
	require.NoError(t, err)
	// The writer may hold the lock for a moment: try until we have it.
	require.Eventually(t, func() bool {
		_, err := conn.ExecContext(ctx, "BEGIN EXCLUSIVE")
		return err == nil
	}, 30*time.Second, time.Millisecond)
	s.conn = conn
}

// holding is always true: a write finds the lock held and waits on SQLite's
// busy handler until up.
func (s *auditLock) holding() bool { return true }

func (s *auditLock) up(t testing.TB) {
	t.Helper()
	_, err := s.conn.ExecContext(context.Background(), "COMMIT")
	require.NoError(t, err)
	require.NoError(t, s.conn.Close())
	s.conn = nil
}

func TestAuditQueueFullGoesToFallback(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.db")
	db := auditSQLitePath(t, path, "busy_timeout(0)")
	lock := newAuditLock(t, path)
	fb := filepath.Join(t.TempDir(), "fallback.jsonl")
	l, err := hooks.NewAuditLog(db, hooks.AuditOptions{
		QueueSize: 4, BatchSize: 1, MaxAttempts: 1 << 20, RetryBackoff: time.Millisecond,
		FallbackPath: fb, Logger: auditQuiet(),
	})
	require.NoError(t, err)
	require.NoError(t, l.EnsureTable(context.Background()))
	lock.down(t)
	h := l.Hook()
	// The writer takes the first row and retries it while the database is
	// locked; then four rows fill the queue and ten more find it full.
	auditPost(t, h, auditEvent("full", 1, "Read", "first"))
	require.Eventually(t, func() bool { return l.Stats().Retried > 0 }, 30*time.Second, time.Millisecond)
	for i := 2; i <= 15; i++ {
		auditPost(t, h, auditEvent("full", i, "Read", fmt.Sprint("row ", i)))
	}
	st := l.Stats()
	assert.Equal(t, int64(10), st.QueueFull)
	assert.Equal(t, int64(10), st.Fallback)
	assert.Equal(t, 4, st.Queued)
	assert.Zero(t, st.Written)
	got := auditFallbackFile(t, fb)
	require.Len(t, got, 10)
	for i, r := range got {
		assert.Equal(t, "queue full", r.Cause)
		assert.Equal(t, fmt.Sprint("row ", i+6), r.OutputPreview)
		assert.NotEmpty(t, r.Key)
		assert.Equal(t, "allow", r.Decision)
	}

	lock.up(t)
	require.NoError(t, l.Close(context.Background()))
	st = l.Stats()
	assert.Equal(t, int64(5), st.Written)
	assert.Equal(t, int64(15), st.Written+st.Fallback)
	assert.Zero(t, st.Lost)
	assert.Equal(t, 5, auditCount(t, db, "agent_audit_log"))
}

func TestAuditRetriesThenFallsBackThenRecovers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.db")
	db := auditSQLitePath(t, path, "busy_timeout(0)")
	lock := newAuditLock(t, path)
	fb := filepath.Join(t.TempDir(), "fallback.jsonl")
	var logBuf auditLogBuffer
	l, err := hooks.NewAuditLog(db, hooks.AuditOptions{
		BatchSize: 1, MaxAttempts: 3, RetryBackoff: time.Millisecond, FallbackPath: fb,
		Logger: slog.New(slog.NewTextHandler(&logBuf, nil)),
	})
	require.NoError(t, err)
	require.NoError(t, l.EnsureTable(context.Background()))
	h := l.Hook()
	lock.down(t)
	auditPost(t, h, auditEvent("retry", 1, "Read", "one"))
	require.Eventually(t, func() bool { return l.Stats().Fallback == 1 }, 30*time.Second, time.Millisecond)
	st := l.Stats()
	assert.Equal(t, int64(2), st.Retried, "three attempts: two retries")
	// The database now counts as down: the next row gets one attempt.
	auditPost(t, h, auditEvent("retry", 2, "Read", "two"))
	require.Eventually(t, func() bool { return l.Stats().Fallback == 2 }, 30*time.Second, time.Millisecond)
	assert.Equal(t, int64(2), l.Stats().Retried, "no retries while the database is known down")

	lock.up(t)
	auditPost(t, h, auditEvent("retry", 3, "Read", "three"))
	require.NoError(t, l.Close(context.Background()))
	st = l.Stats()
	assert.Equal(t, hooks.AuditStats{Recorded: 3, Written: 1, Retried: 2, Fallback: 2}, st)
	rows := auditRows(t, db, "agent_audit_log")
	require.Len(t, rows, 1)
	assert.Equal(t, "three", rows[0].Preview)
	got := auditFallbackFile(t, fb)
	require.Len(t, got, 2)
	for _, r := range got {
		assert.Contains(t, r.Cause, "database is locked")
	}
	assert.Contains(t, logBuf.String(), "audit rows written to the fallback")
}

func TestAuditLostRowsAreCountedAndReported(t *testing.T) {
	db := auditSQLite(t, "audit.db")
	require.NoError(t, db.Close()) // every write fails
	// The fallback file cannot be created: its directory does not exist.
	fb := filepath.Join(t.TempDir(), "missing", "fallback.jsonl")
	var logBuf auditLogBuffer
	l, err := hooks.NewAuditLog(db, hooks.AuditOptions{
		Dialect: hooks.AuditSQLite, MaxAttempts: 1, FallbackPath: fb,
		Logger: slog.New(slog.NewTextHandler(&logBuf, nil)),
	})
	require.NoError(t, err)
	for i := range 3 {
		l.Record(hooks.AuditRecord{SessionID: "lost", Step: i, ToolName: "Read", Status: hooks.AuditOK})
	}
	err = l.Close(context.Background())
	require.ErrorIs(t, err, hooks.ErrAuditLost)
	assert.Contains(t, err.Error(), "3 rows")
	assert.Contains(t, err.Error(), "fallback file")
	st := l.Stats()
	assert.Equal(t, int64(3), st.Recorded)
	assert.Equal(t, int64(3), st.Lost)
	assert.Zero(t, st.Written+st.Fallback)
	assert.Contains(t, logBuf.String(), "audit rows lost")
	assert.NoFileExists(t, fb)
}

func TestAuditMemoryFallback(t *testing.T) {
	db := auditSQLite(t, "audit.db")
	require.NoError(t, db.Close())
	l, err := hooks.NewAuditLog(db, hooks.AuditOptions{
		Dialect: hooks.AuditSQLite, MaxAttempts: 1, BatchSize: 5, MemoryFallbackSize: 3, Logger: auditQuiet(),
	})
	require.NoError(t, err)
	for i := range 5 {
		l.Record(hooks.AuditRecord{SessionID: "mem", Step: i, ToolName: "Read", Status: hooks.AuditOK})
	}
	err = l.Close(context.Background())
	require.ErrorIs(t, err, hooks.ErrAuditLost)
	assert.Contains(t, err.Error(), "in-memory fallback full (3 rows)")
	st := l.Stats()
	assert.Equal(t, int64(3), st.Fallback)
	assert.Equal(t, int64(2), st.Lost)
	rows := l.TakeFallback()
	require.Len(t, rows, 3)
	for i, r := range rows {
		assert.Equal(t, i, r.Step)
		assert.Contains(t, r.Cause, "sql: database is closed")
	}
	assert.Empty(t, l.TakeFallback(), "TakeFallback empties the fallback")
}

func TestAuditCloseDeadlineSendsPendingRowsToFallback(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.db")
	// The writer waits on the lock (busy timeout) far longer than Close's
	// deadline allows.
	db := auditSQLitePath(t, path, "busy_timeout(60000)")
	lock := newAuditLock(t, path)
	fb := filepath.Join(t.TempDir(), "fallback.jsonl")
	l, err := hooks.NewAuditLog(db, hooks.AuditOptions{FallbackPath: fb, WriteTimeout: time.Hour, Logger: auditQuiet()})
	require.NoError(t, err)
	require.NoError(t, l.EnsureTable(context.Background()))
	lock.down(t)
	for i := range 20 {
		l.Record(hooks.AuditRecord{SessionID: "deadline", Step: i, ToolName: "Read", Status: hooks.AuditOK})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the deadline has already passed
	require.NoError(t, l.Close(ctx))
	st := l.Stats()
	assert.Equal(t, hooks.AuditStats{Recorded: 20, Fallback: 20}, st)
	got := auditFallbackFile(t, fb)
	require.Len(t, got, 20)
	lock.up(t)
	assert.Zero(t, auditCount(t, db, "agent_audit_log"))
}

func TestAuditConcurrentRecords(t *testing.T) {
	db := auditSQLite(t, "audit.db")
	fb := filepath.Join(t.TempDir(), "fallback.jsonl")
	l, err := hooks.NewAuditLog(db, hooks.AuditOptions{QueueSize: 256, FallbackPath: fb, Logger: auditQuiet()})
	require.NoError(t, err)
	h := l.Hook()
	const workers, each = 16, 200
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				auditPost(t, h, auditEvent(fmt.Sprint("s", w), i+1, "Read", "out"))
			}
		})
	}
	wg.Wait()
	require.NoError(t, l.Close(context.Background()))
	st := l.Stats()
	assert.Equal(t, int64(workers*each), st.Recorded)
	assert.Zero(t, st.Lost)
	fbRows := auditFallbackFile(t, fb)
	dbRows := auditRows(t, db, "agent_audit_log")
	assert.Equal(t, int64(len(dbRows)), st.Written)
	assert.Equal(t, int64(len(fbRows)), st.Fallback)
	keys := map[string]bool{}
	perSession := map[string]int{}
	for _, r := range dbRows {
		keys[r.Key] = true
		perSession[r.SessionID]++
	}
	for _, r := range fbRows {
		keys[r.Key] = true
		perSession[r.SessionID]++
	}
	assert.Len(t, keys, workers*each, "every row once, with a distinct key")
	for w := range workers {
		assert.Equal(t, each, perSession[fmt.Sprint("s", w)])
	}
}

func TestAuditOptionsErrors(t *testing.T) {
	db := auditSQLite(t, "audit.db")
	cases := []struct {
		name string
		opts hooks.AuditOptions
		want string
	}{
		{"injection", hooks.AuditOptions{Table: "log; DROP TABLE x"}, `invalid table name "log; DROP TABLE x"`},
		{"quoted", hooks.AuditOptions{Table: `"log"`}, "invalid table name"},
		{"three parts", hooks.AuditOptions{Table: "a.b.c"}, "invalid table name"},
		{"leading digit", hooks.AuditOptions{Table: "1log"}, "invalid table name"},
		{"negative queue", hooks.AuditOptions{QueueSize: -1}, "negative QueueSize -1"},
		{"negative timeout", hooks.AuditOptions{WriteTimeout: -time.Second}, "negative WriteTimeout"},
		{"bad dialect", hooks.AuditOptions{Dialect: 9}, "invalid dialect invalid(9)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, err := hooks.NewAuditLog(db, c.opts)
			require.Error(t, err)
			assert.Nil(t, l)
			assert.Contains(t, err.Error(), c.want)
		})
	}
	_, err := hooks.NewAuditLog(nil, hooks.AuditOptions{})
	assert.EqualError(t, err, "hooks: audit log: nil *sql.DB")
}

// auditOtherDriver stands for a driver the log does not know; it is never used
// to run a statement.
type auditOtherDriver struct{}

func (auditOtherDriver) Open(string) (driver.Conn, error) { return nil, errors.New("not a database") }

type auditOtherConnector struct{}

func (auditOtherConnector) Connect(context.Context) (driver.Conn, error) {
	return nil, errors.New("not a database")
}
func (auditOtherConnector) Driver() driver.Driver { return auditOtherDriver{} }

func TestAuditDialectDetection(t *testing.T) {
	db := sql.OpenDB(auditOtherConnector{})
	defer db.Close()
	_, err := hooks.NewAuditLog(db, hooks.AuditOptions{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "cannot tell the SQL dialect")
	assert.Contains(t, err.Error(), "set AuditOptions.Dialect")

	// Naming the dialect is enough; writes then fail and go to the fallback.
	l, err := hooks.NewAuditLog(db, hooks.AuditOptions{Dialect: hooks.AuditPostgres, MaxAttempts: 1, Logger: auditQuiet()})
	require.NoError(t, err)
	l.Record(hooks.AuditRecord{SessionID: "x", ToolName: "Read", Status: hooks.AuditOK})
	require.NoError(t, l.Close(context.Background()))
	rows := l.TakeFallback()
	require.Len(t, rows, 1)
	assert.Contains(t, rows[0].Cause, "not a database")
}

func TestAuditZeroValueCountsLost(t *testing.T) {
	var l hooks.AuditLog
	l.Record(hooks.AuditRecord{SessionID: "zero"})
	err := l.Close(context.Background())
	require.ErrorIs(t, err, hooks.ErrAuditLost)
	assert.Contains(t, err.Error(), "not made by NewAuditLog")
	assert.Equal(t, int64(1), l.Stats().Lost)
	assert.Error(t, l.EnsureTable(context.Background()))
}

func TestAuditFaultSQLite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.db")
	logDB := auditSQLitePath(t, path, "busy_timeout(600000)")
	checkDB := auditSQLitePath(t, path)
	runAuditFault(t, logDB, checkDB, "agent_audit_log", newAuditLock(t, path))
}

// auditOutage makes the audit log's database unavailable and brings it back.
// holding reports whether the outage holds a call of the writer, which
// then waits until up (a first call may fail fast and be retried before
// one is held).
type auditOutage interface {
	down(t testing.TB)
	up(t testing.TB)
	holding() bool
}

// runAuditFault records tool calls before, during and after an outage of
// the database and checks that every call is in the table or in the
// fallback file, and that no call waited on the database. logDB is the
// log's own handle (its pool shows when the writer is inside a call);
// checkDB reads the table afterwards.
func runAuditFault(t *testing.T, logDB, checkDB *sql.DB, table string, o auditOutage) {
	fb := filepath.Join(t.TempDir(), "fallback.jsonl")
	l, err := hooks.NewAuditLog(logDB, hooks.AuditOptions{
		Table: table, QueueSize: 256, BatchSize: 8, MaxAttempts: 4, RetryBackoff: 20 * time.Millisecond,
		WriteTimeout: 5 * time.Minute, FallbackPath: fb, Logger: auditQuiet(),
	})
	require.NoError(t, err)
	h := l.Hook()
	calls := 0
	var slowest time.Duration
	// record makes n calls from 4 goroutines and waits for them; a guard
	// fails the test if they do not all return (a call waiting on the
	// database would hang as long as the outage lasts).
	record := func(phase string, n int) {
		t.Helper()
		var wg sync.WaitGroup
		var mu sync.Mutex
		for w := range 4 {
			wg.Go(func() {
				for i := range n / 4 {
					start := time.Now()
					auditPost(t, h, auditEvent(phase, w*1000+i, "Bash", phase))
					d := time.Since(start)
					mu.Lock()
					slowest = max(slowest, d)
					mu.Unlock()
				}
			})
		}
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(2 * time.Minute):
			t.Fatalf("%s: tool calls did not return: Record waited on the database", phase)
		}
		calls += n / 4 * 4
	}

	record("before", 200)
	require.Eventually(t, func() bool { return l.Stats().Written == 200 }, time.Minute, 5*time.Millisecond,
		"the 200 calls before the outage fit in the queue and are written")

	o.down(t)
	// One call sends the writer into the database, where it now waits.
	record("trigger", 4)
	require.Eventually(t, func() bool { return o.holding() && logDB.Stats().InUse > 0 }, time.Minute, time.Millisecond,
		"the writer should be waiting on the database")
	stuck := l.Stats()
	record("outage", 1000)
	during := l.Stats()
	// Every call of the outage returned while the writer was still inside
	// its database call: no call waited on the database.
	assert.Equal(t, stuck.Written, during.Written, "nothing was written during the outage")
	assert.Positive(t, logDB.Stats().InUse, "the writer was still waiting on the database")
	assert.Positive(t, during.QueueFull, "the queue filled up and calls went on")
	t.Logf("outage: 1000 calls returned while the writer waited on the database; %d went to the fallback because the queue was full; slowest call %v",
		during.QueueFull, slowest)

	o.up(t)
	// The database is back: the writer drains the queue into it.
	require.Eventually(t, func() bool {
		st := l.Stats()
		return st.Written+st.Fallback == st.Recorded && st.Written > during.Written
	}, time.Minute, 5*time.Millisecond, "the queue drains once the database is back")
	record("after", 200)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	require.NoError(t, l.Close(ctx))

	st := l.Stats()
	dbRows := auditRows(t, checkDB, table)
	fbRows := auditFallbackFile(t, fb)
	inDB := map[string]bool{}
	for _, r := range dbRows {
		inDB[r.Key] = true
	}
	all := map[string]bool{}
	overlap := 0
	for _, r := range fbRows {
		if inDB[r.Key] {
			overlap++ // committed, but the acknowledgement was lost
		}
		all[r.Key] = true
	}
	for k := range inDB {
		all[k] = true
	}
	t.Logf("calls %d: table %d rows, fallback file %d rows (queue full %d), in both %d; stats %+v",
		calls, len(dbRows), len(fbRows), st.QueueFull, overlap, st)
	assert.Equal(t, int64(calls), st.Recorded)
	assert.Zero(t, st.Lost)
	assert.Equal(t, int64(calls), st.Written+st.Fallback, "counters: written + fallback == calls")
	assert.Equal(t, calls, len(dbRows)+len(fbRows)-overlap, "table rows + fallback rows == calls")
	assert.Len(t, all, calls, "every call is in the table or the fallback file")
	assert.Equal(t, int64(len(fbRows)), st.Fallback)
	assert.Equal(t, int64(len(dbRows)-overlap), st.Written)
	// The database came back: the calls made after the outage are in it.
	after := 0
	for _, r := range dbRows {
		if r.SessionID == "after" {
			after++
		}
	}
	assert.Equal(t, 200, after, "calls after the outage are written")
	causes := map[string]int{}
	for _, r := range fbRows {
		causes[r.Cause]++
	}
	assert.Equal(t, int(st.QueueFull), causes["queue full"])
}

// auditLogBuffer is a bytes.Buffer safe for the log's concurrent writes.
type auditLogBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *auditLogBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *auditLogBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// BenchmarkAuditRecord measures what a tool call pays for the audit log,
// side by side: the hook's Record when the queue has room (the normal
// case), when the queue is full (the row is appended to the fallback file
// on the caller's goroutine), and a synchronous INSERT of the same row, on
// SQLite.
func BenchmarkAuditRecord(b *testing.B) {
	e := auditEvent("bench", 1, "Read", strings.Repeat("output ", 100))
	ctx := context.Background()
	b.Run("Queued", func(b *testing.B) {
		// Fast SQLite settings, so that the writer keeps up and Close is
		// quick; the queue holds every row, so none finds it full.
		db := auditSQLite(b, "audit.db", "synchronous(OFF)", "journal_mode(MEMORY)")
		l, err := hooks.NewAuditLog(db, hooks.AuditOptions{QueueSize: b.N + 1, BatchSize: 512, Logger: auditQuiet()})
		require.NoError(b, err)
		require.NoError(b, l.EnsureTable(ctx))
		h := l.Hook()
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			_, _ = h.PostToolUse(ctx, e)
		}
		b.StopTimer()
		require.NoError(b, l.Close(ctx))
		st := l.Stats()
		require.Zero(b, st.QueueFull)
		require.Equal(b, int64(b.N), st.Written)
	})
	b.Run("QueuedParallel", func(b *testing.B) {
		db := auditSQLite(b, "audit.db", "synchronous(OFF)", "journal_mode(MEMORY)")
		l, err := hooks.NewAuditLog(db, hooks.AuditOptions{QueueSize: b.N + 1, BatchSize: 512, Logger: auditQuiet()})
		require.NoError(b, err)
		require.NoError(b, l.EnsureTable(ctx))
		h := l.Hook()
		b.ReportAllocs()
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				_, _ = h.PostToolUse(ctx, e)
			}
		})
		b.StopTimer()
		require.NoError(b, l.Close(ctx))
		require.Zero(b, l.Stats().QueueFull)
	})
	b.Run("QueueFull", func(b *testing.B) {
		// The writer is held on a locked database and the queue holds one
		// row: every call goes to the fallback file.
		path := filepath.Join(b.TempDir(), "audit.db")
		db := auditSQLitePath(b, path, "busy_timeout(600000)")
		lock := newAuditLock(b, path)
		l, err := hooks.NewAuditLog(db, hooks.AuditOptions{
			QueueSize: 1, FallbackPath: filepath.Join(b.TempDir(), "fb.jsonl"), WriteTimeout: time.Hour, Logger: auditQuiet(),
		})
		require.NoError(b, err)
		require.NoError(b, l.EnsureTable(ctx))
		lock.down(b)
		h := l.Hook()
		_, _ = h.PostToolUse(ctx, e)
		require.Eventually(b, func() bool { return db.Stats().InUse > 0 && l.Stats().Queued == 0 }, time.Minute, time.Millisecond)
		_, _ = h.PostToolUse(ctx, e) // fills the queue
		before := l.Stats().QueueFull
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			_, _ = h.PostToolUse(ctx, e)
		}
		b.StopTimer()
		require.Equal(b, int64(b.N), l.Stats().QueueFull-before)
		lock.up(b)
		require.NoError(b, l.Close(ctx))
	})
	b.Run("SyncInsert", func(b *testing.B) {
		db := auditSQLite(b, "audit.db")
		l, err := hooks.NewAuditLog(db, hooks.AuditOptions{})
		require.NoError(b, err)
		require.NoError(b, l.EnsureTable(ctx))
		require.NoError(b, l.Close(ctx))
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			_, err := db.ExecContext(ctx, "INSERT INTO agent_audit_log (row_key, session_id, step, tool_name, status, elapsed_ms, output_preview, agent_name, decision, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
				fmt.Sprint("k", i), e.SessionID, e.Step, e.ToolName, "OK", e.Elapsed.Milliseconds(), e.Output[:200], e.AgentName, "allow", e.Reason, time.Now().UTC())
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}

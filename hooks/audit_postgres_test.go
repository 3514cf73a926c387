package hooks_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/internal/testenv"
	"github.com/toolgate/toolgate/permission"
)

// auditPGEnv names the DSN of the PostgreSQL server for the audit tests.
const auditPGEnv = "TOOLGATE_TEST_POSTGRES_DSN"

var auditPG struct {
	once      sync.Once
	dsn, skip string
}

// auditPostgresDSN returns the DSN of a real PostgreSQL server: the one in
// TOOLGATE_TEST_POSTGRES_DSN (CI sets it, and then a failure is a failure),
// or the one .ci/setup started and wrote to its file (internal/testenv).
// The tests start no server of their own: with neither, or with a server
// that does not answer, they skip, saying to run .ci/setup.
func auditPostgresDSN(t *testing.T) string {
	t.Helper()
	if dsn := os.Getenv(auditPGEnv); dsn != "" {
		return dsn
	}
	auditPG.once.Do(func() {
		dsn, from := testenv.Lookup(auditPGEnv)
		if dsn == "" {
			auditPG.skip = testenv.Missing("PostgreSQL", from)
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		db, err := sql.Open("pgx", dsn)
		if err == nil {
			err = db.PingContext(ctx)
			db.Close()
		}
		if err != nil {
			auditPG.skip = testenv.Missing("PostgreSQL", "the server "+from+" names does not answer: "+err.Error())
			return
		}
		auditPG.dsn = dsn
	})
	if auditPG.skip != "" {
		t.Skip(auditPG.skip)
	}
	return auditPG.dsn
}

// auditPostgres opens dsn with pgx and creates a fresh schema for the test,
// dropped at the end, so that runs and tests do not collide. It returns the
// handle and the schema's name.
func auditPostgres(t *testing.T, dsn string) (*sql.DB, string) {
	t.Helper()
	db, err := sql.Open("pgx", dsn)
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "audit_test_" + hex.EncodeToString(b[:])
	_, err = db.Exec("CREATE SCHEMA " + schema)
	require.NoError(t, err, "PostgreSQL at %s", auditRedact(dsn))
	t.Cleanup(func() {
		_, err := db.Exec("DROP SCHEMA " + schema + " CASCADE")
		assert.NoError(t, err)
	})
	return db, schema
}

func auditRedact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return "(unparsable DSN)"
	}
	return u.Redacted()
}

func auditPGTable(t *testing.T, db *sql.DB, schema, table string) bool {
	t.Helper()
	var n int
	require.NoError(t, db.QueryRow("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = $1 AND table_name = $2", schema, table).Scan(&n))
	return n == 1
}

func TestAuditPostgresRowsFromHook(t *testing.T) {
	db, schema := auditPostgres(t, auditPostgresDSN(t))
	table := schema + ".agent_audit_log"
	clock := time.Date(2025, 3, 1, 12, 0, 0, 123456000, time.UTC)
	l, err := hooks.NewAuditLog(db, hooks.AuditOptions{Table: table, Now: func() time.Time { return clock }})
	require.NoError(t, err)
	require.False(t, auditPGTable(t, db, schema, "agent_audit_log"))
	h := l.Hook()
	auditPost(t, h, auditEvent("p1", 1, "Read", strings.Repeat("日本", 150)))
	failed := auditEvent("p1", 2, "Bash", "")
	failed.Err = errors.New("exit status 2")
	auditPost(t, h, failed)
	asked := auditEvent("p1", 3, "WebFetch", "")
	asked.Decision = permission.Ask
	asked.Reason = "network access needs confirmation"
	asked.AgentName = "researcher"
	auditPost(t, h, asked)
	// NUL and invalid UTF-8 would make PostgreSQL refuse the whole batch.
	auditPost(t, h, auditEvent("p1", 4, "Read", "bin\x00ary\xfe"))
	require.NoError(t, h.SessionStop(context.Background(), hooks.SessionStopEvent{
		SessionID: "p1", AgentName: "lead", Step: 4, Reason: "max steps reached", Elapsed: 2 * time.Second,
	}))
	require.NoError(t, l.Close(context.Background()))
	require.True(t, auditPGTable(t, db, schema, "agent_audit_log"), "table created if missing")

	rows := auditRows(t, db, table)
	require.Len(t, rows, 5)
	for i := range rows {
		assert.True(t, rows[i].Created.Equal(clock), "created_at %v", rows[i].Created)
		assert.NotEmpty(t, rows[i].Key)
		rows[i].Key, rows[i].Created = "", time.Time{}
	}
	want := []auditRow{
		{SessionID: "p1", Step: 1, ToolName: "Read", Status: "OK", ElapsedMS: 1, Preview: strings.Repeat("日本", 100), Agent: "lead", Decision: "allow", Reason: "allowed by rule Read(*)"},
		{SessionID: "p1", Step: 2, ToolName: "Bash", Status: "FAIL", ElapsedMS: 2, Preview: "exit status 2", Agent: "lead", Decision: "allow", Reason: "allowed by rule Read(*)"},
		{SessionID: "p1", Step: 3, ToolName: "WebFetch", Status: "FAIL", ElapsedMS: 3, Preview: "", Agent: "researcher", Decision: "ask", Reason: "network access needs confirmation"},
		{SessionID: "p1", Step: 4, ToolName: "Read", Status: "OK", ElapsedMS: 4, Preview: "bin\uFFFDary\uFFFD", Agent: "lead", Decision: "allow", Reason: "allowed by rule Read(*)"},
		{SessionID: "p1", Step: 4, ToolName: "session", Status: "SESSION_STOP", ElapsedMS: 2000, Preview: "", Agent: "lead", Decision: "", Reason: "max steps reached"},
	}
	assert.Equal(t, want, rows)
	assert.Equal(t, hooks.AuditStats{Recorded: 5, Written: 5}, l.Stats())
}

func TestAuditPostgresConcurrentAndRetriedBatchIsIdempotent(t *testing.T) {
	db, schema := auditPostgres(t, auditPostgresDSN(t))
	table := schema + ".audit_log"
	l, err := hooks.NewAuditLog(db, hooks.AuditOptions{Table: table, QueueSize: 4096, Logger: auditQuiet()})
	require.NoError(t, err)
	h := l.Hook()
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 250 {
				auditPost(t, h, auditEvent(string(rune('a'+w)), i, "Read", "x"))
			}
		})
	}
	wg.Wait()
	require.NoError(t, l.Close(context.Background()))
	st := l.Stats()
	assert.Equal(t, int64(2000), st.Recorded)
	assert.Equal(t, st.Written, int64(auditCount(t, db, table)))
	assert.Equal(t, int64(2000), st.Written+st.Fallback)
	assert.Zero(t, st.Lost)

	// Replaying rows with keys already in the table (as after a lost
	// acknowledgement, or a host replaying its fallback file) adds nothing.
	rows := auditRows(t, db, table)
	l2, err := hooks.NewAuditLog(db, hooks.AuditOptions{Table: table})
	require.NoError(t, err)
	for _, r := range rows[:10] {
		l2.Record(hooks.AuditRecord{Key: r.Key, SessionID: r.SessionID, ToolName: r.ToolName, Status: r.Status})
	}
	require.NoError(t, l2.Close(context.Background()))
	assert.Equal(t, int64(10), l2.Stats().Written)
	assert.Equal(t, len(rows), auditCount(t, db, table), "rows with known keys are not written twice")
}

func TestAuditPostgresOutageExhaustsRetries(t *testing.T) {
	dsn := auditPostgresDSN(t)
	checkDB, schema := auditPostgres(t, dsn)
	table := schema + ".agent_audit_log"
	p := startAuditProxy(t, dsn)
	p.refuse = true
	logDB, err := sql.Open("pgx", p.dsn)
	require.NoError(t, err)
	t.Cleanup(func() { _ = logDB.Close() })
	fb := filepath.Join(t.TempDir(), "fallback.jsonl")
	l, err := hooks.NewAuditLog(logDB, hooks.AuditOptions{
		Table: table, BatchSize: 4, MaxAttempts: 3, RetryBackoff: time.Millisecond, FallbackPath: fb, Logger: auditQuiet(),
	})
	require.NoError(t, err)
	require.NoError(t, l.EnsureTable(context.Background()))
	h := l.Hook()

	// The server refuses every connection: each batch uses its attempts
	// (then one, while the database counts as down) and goes to the file.
	p.down(t)
	for i := range 8 {
		auditPost(t, h, auditEvent("refused", i, "Read", "x"))
	}
	require.Eventually(t, func() bool { return l.Stats().Fallback == 8 }, time.Minute, time.Millisecond)
	st := l.Stats()
	assert.GreaterOrEqual(t, st.Retried, int64(2), "the first batch was retried")
	assert.Zero(t, st.Written)
	got := auditFallbackFile(t, fb)
	require.Len(t, got, 8)
	for _, r := range got {
		assert.Equal(t, "refused", r.SessionID)
		assert.Contains(t, r.Cause, "rows to "+table+": failed to connect")
	}

	p.up(t)
	for i := range 5 {
		auditPost(t, h, auditEvent("back", i, "Read", "x"))
	}
	require.NoError(t, l.Close(context.Background()))
	st = l.Stats()
	assert.Equal(t, hooks.AuditStats{Recorded: 13, Written: 5, Retried: st.Retried, Fallback: 8}, st)
	rows := auditRows(t, checkDB, table)
	require.Len(t, rows, 5)
	for _, r := range rows {
		assert.Equal(t, "back", r.SessionID)
	}
}

func TestAuditFaultPostgres(t *testing.T) {
	dsn := auditPostgresDSN(t)
	checkDB, schema := auditPostgres(t, dsn)
	p := startAuditProxy(t, dsn)
	logDB, err := sql.Open("pgx", p.dsn)
	require.NoError(t, err)
	t.Cleanup(func() { _ = logDB.Close() })
	runAuditFault(t, logDB, checkDB, schema+".agent_audit_log", p)
	assert.Positive(t, p.cuts(), "the proxy cut connections")
}

// auditProxy forwards TCP connections to a PostgreSQL server and can cut
// them: down closes every open connection and holds new ones silent (as a
// dead network does), up closes the held ones and forwards again. Only the
// audit log's connections go through it, so other tests are undisturbed.
type auditProxy struct {
	ln     net.Listener
	target string
	dsn    string

	mu      sync.Mutex
	isDown  bool
	refuse  bool // while down, close new connections at once instead of holding them
	open    map[net.Conn]struct{}
	held    []net.Conn
	ncut    int
	wg      sync.WaitGroup
	closing bool
}

func startAuditProxy(t *testing.T, dsn string) *auditProxy {
	t.Helper()
	u, err := url.Parse(dsn)
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	p := &auditProxy{ln: ln, target: u.Host, open: map[net.Conn]struct{}{}}
	u.Host = ln.Addr().String()
	p.dsn = u.String()
	p.wg.Go(p.accept)
	t.Cleanup(p.close)
	return p
}

func (p *auditProxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.closing {
			p.mu.Unlock()
			c.Close()
			return
		}
		if p.isDown {
			if p.refuse {
				c.Close()
			} else {
				p.held = append(p.held, c)
			}
			p.mu.Unlock()
			continue
		}
		p.mu.Unlock()
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		if p.isDown || p.closing {
			p.mu.Unlock()
			c.Close()
			s.Close()
			continue
		}
		p.open[c], p.open[s] = struct{}{}, struct{}{}
		p.mu.Unlock()
		pipe := func(dst, src net.Conn) {
			_, _ = io.Copy(dst, src)
			dst.Close()
			src.Close()
			p.mu.Lock()
			delete(p.open, dst)
			delete(p.open, src)
			p.mu.Unlock()
		}
		p.wg.Go(func() { pipe(s, c) })
		p.wg.Go(func() { pipe(c, s) })
	}
}

func (p *auditProxy) down(t testing.TB) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.isDown = true
	p.ncut++
	for c := range p.open {
		c.Close()
	}
}

func (p *auditProxy) up(t testing.TB) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.isDown = false
	for _, c := range p.held {
		c.Close()
	}
	p.held = nil
}

// holding reports whether a connection made during the outage is held
// silent: the writer dialled again and waits on it.
func (p *auditProxy) holding() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.held) > 0
}

func (p *auditProxy) cuts() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ncut
}

func (p *auditProxy) close() {
	p.mu.Lock()
	p.closing = true
	for c := range p.open {
		c.Close()
	}
	for _, c := range p.held {
		c.Close()
	}
	p.held = nil
	p.mu.Unlock()
	p.ln.Close()
	p.wg.Wait()
}

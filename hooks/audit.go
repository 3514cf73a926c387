package hooks

import (
	"cmp"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/toolgate/toolgate/permission"
)

// Status values of the audit log's status column.
const (
	// AuditOK marks a call that ran and returned no error.
	AuditOK = "OK"
	// AuditFail marks a call that returned an error or did not run
	// because it was not allowed (the decision column says which).
	AuditFail = "FAIL"
	// AuditSessionStop marks the row written when a session ends; its
	// tool name is [AuditSessionTool].
	AuditSessionStop = "SESSION_STOP"
	// AuditSessionTool is the tool name of the session-stop row.
	AuditSessionTool = "session"
)

// AuditPreviewRunes is how many characters (runes, not bytes) of a call's
// output the audit log keeps in output_preview.
const AuditPreviewRunes = 200

// AuditInputBytes bounds the call's input the audit log keeps in the input
// column, in bytes, the truncation mark included: enough for a command, a
// path or an edit's first lines, small enough that a row stays a row. An
// input that was cut ends with "…[truncated: N bytes in all]", and
// input_bytes holds N, so that len(input) < input_bytes says it too.
const AuditInputBytes = 8 << 10

// AuditRedactionFailed replaces a text whose [AuditOptions.Redact] panicked.
const AuditRedactionFailed = "[not recorded: the redaction panicked]"

// ErrAuditLost is returned (wrapped) by [AuditLog.Close] when rows could be
// written neither to the database nor to the fallback.
var ErrAuditLost = errors.New("hooks: audit log: rows lost")

// AuditRecord is one row of the audit log. The JSON names are the table's
// column names.
type AuditRecord struct {
	// Key identifies the row; it is stored in the unique row_key column
	// so that a batch retried after a lost acknowledgement is not written
	// twice. Record sets it when empty; a host replaying rows from the
	// fallback file keeps the key, so rows already in the table are
	// skipped.
	Key       string `json:"row_key"`
	SessionID string `json:"session_id"`
	Step      int    `json:"step"`
	ToolName  string `json:"tool_name"`
	// Status is [AuditOK], [AuditFail] or [AuditSessionStop].
	Status    string `json:"status"`
	ElapsedMS int64  `json:"elapsed_ms"`
	// OutputPreview is the start of the call's output; Record cuts it to
	// [AuditPreviewRunes] characters.
	OutputPreview string `json:"output_preview"`
	AgentName     string `json:"agent_name"`
	// Decision is the pipeline's decision ("allow", "ask", "deny"); empty
	// on the session-stop row.
	Decision string `json:"decision"`
	// Reason is the decision's reason, or the session's stop reason.
	Reason string `json:"reason"`
	// Time is when the row was recorded; Record sets it when zero. It is
	// stored in UTC.
	Time time.Time `json:"created_at"`
	// Confinement is the kernel confinement a shell command ran under,
	// as bashguard's RunResult.Confined.String() describes it ("landlock
	// v7: fs, tcp, signal, abstract-unix", or "none: " and why); empty
	// for other calls and when the recorder does not know it.
	Confinement string `json:"confinement"`
	// Layer and Rule say which layer decided and by which rule or named
	// check ("L2 rules", "Bash(git push:*)"); empty on the session-stop
	// row.
	Layer string `json:"layer"`
	Rule  string `json:"rule"`
	// Input is the call's input (its JSON object, after the PreToolUse
	// hooks' mutations), as [AuditOptions.Redact] (by default
	// [RedactSecrets]) left it, cut to
	// [AuditInputBytes]; empty on the session-stop row. InputBytes is the
	// size of the redacted input before the cut; Record sets it.
	Input      string `json:"input"`
	InputBytes int64  `json:"input_bytes"`
}

// AuditOptions configures an [AuditLog]. The zero value is usable: SQLite
// or PostgreSQL detected from the driver, table agent_audit_log, and an
// in-memory fallback.
type AuditOptions struct {
	// Dialect is the database's SQL dialect; [AuditDetect] (zero)
	// detects it from the driver.
	Dialect AuditDialect
	// Table is the table to write, created if missing; empty means
	// [DefaultAuditTable]. It may be qualified by a schema
	// ("audit.agent_audit_log"), which must exist.
	Table string

	// QueueSize bounds the rows waiting for the writer (default 1024).
	// What happens to a row that finds the queue full is QueuePolicy's.
	QueueSize int
	// QueuePolicy is what the log does when the queue is full: send the
	// row to the fallback at once ([AuditQueueFallback], the default),
	// wait a bounded time for room ([AuditQueueWait]), or block the calls
	// that could not be audited ([AuditQueueDeny]).
	QueuePolicy AuditQueuePolicy
	// QueueWait bounds the wait of [AuditQueueWait] (default
	// [DefaultAuditQueueWait]).
	QueueWait time.Duration
	// BatchSize is the most rows written by one INSERT (default 64).
	BatchSize int
	// MaxAttempts bounds the attempts to write one batch (default 5).
	// After a batch used all its attempts the database counts as down,
	// and the following batches get one attempt each until one succeeds,
	// so that an outage drains the queue to the fallback instead of
	// holding rows.
	MaxAttempts int
	// RetryBackoff is the wait before the second attempt (default
	// 100ms); it doubles for each further attempt, up to 5 s.
	RetryBackoff time.Duration
	// WriteTimeout bounds one attempt, connecting included (default 5 s).
	WriteTimeout time.Duration

	// FallbackPath is the JSON-lines file (see [AuditFallbackRow]) that
	// receives the rows the database did not take. It is opened for
	// append, created with mode 0600 if missing, and is the only file
	// the log writes. When empty, such rows are kept in memory, up to
	// MemoryFallbackSize rows, for the host to take with
	// [AuditLog.TakeFallback]; rows beyond that are lost, counted and
	// reported.
	FallbackPath string
	// MemoryFallbackSize bounds the in-memory fallback (default 4096).
	MemoryFallbackSize int

	// Logger hears of an outage once, not once per row: a warning when
	// rows start going to the fallback, an error at the first row lost,
	// and, when the database takes rows again after a quiet second (or the
	// log closes), one line with the rows sent to the fallback and lost;
	// nil means [slog.Default].
	Logger *slog.Logger
	// Now is the clock for rows recorded without a time; nil means
	// [time.Now].
	Now func() time.Time

	// Redact masks the secrets in a text. Record applies it to every
	// row's input and output preview before anything else sees them (the
	// queue, the database, the fallback), so give it the function your
	// redacting PostToolUse hook uses (see [Redaction]): the output the
	// model reads and the row the log keeps are then masked by the same
	// code, and the preview is masked even when the audit hook runs before
	// the redacting one. nil means [RedactSecrets]: a log is never
	// unredacted by omission. [NoRedaction] is the explicit choice to
	// keep the texts as they are. Redact must be safe for concurrent use;
	// if it panics, the field it was given is replaced by a note saying
	// so, never stored unredacted.
	Redact func(string) string
}

// AuditStats counts what an [AuditLog] did with its rows. Once Close has
// returned, Recorded == Written + Fallback + Lost; before that, the
// difference is the rows queued or being written.
type AuditStats struct {
	// Recorded is the rows passed to Record (by the hook or the host).
	Recorded int64
	// Written is the rows the database confirmed and still holds. With
	// SQLite, rows confirmed into a database file that is then deleted or
	// replaced move from Written to Lost when the writer notices.
	Written int64
	// Retried is the attempts made again after a failed write (one per
	// batch and attempt, not per row).
	Retried int64
	// Fallback is the rows the fallback kept, QueueFull included.
	Fallback int64
	// QueueFull is the rows that found the queue full and went to the
	// fallback at once.
	QueueFull int64
	// Lost is the rows that even the fallback could not keep. They are
	// logged, and Close reports them with [ErrAuditLost].
	Lost int64
	// Denied is the calls the hook blocked because the queue was full
	// ([AuditQueueDeny]).
	Denied int64
	// Queued is the rows waiting in the queue now.
	Queued int
}

// AuditLog writes one row per tool call, and one per session stop, to a
// table of a database/sql database: the original design's agent_audit_log
// with the decision, its reason and a timestamp added. The library imports
// no driver: the host opens the *sql.DB (modernc.org/sqlite and
// github.com/jackc/pgx/v5/stdlib are tested).
//
// # Delivery
//
// [AuditLog.Record] never waits for the database: it puts the row on a
// bounded queue and returns. A single writer goroutine drains the queue in
// batches, one multi-row INSERT each, retrying a failed batch with backoff
// up to MaxAttempts times. A row that cannot be queued (the queue is full)
// or written (attempts used up, or Close's context ended) goes to the
// fallback: the JSON-lines file at [AuditOptions.FallbackPath], or memory.
// A row the fallback cannot keep either is lost: counted in
// [AuditStats.Lost], logged, and reported by Close. No row disappears
// without a count. A row may be in the table and in the fallback when the
// database committed a batch but the acknowledgement was lost; its Key
// tells them apart.
//
// # Lifecycle
//
// NewAuditLog starts the writer; [AuditLog.Close] stops it after flushing
// the queue. The table is created if missing before the first write (or by
// [AuditLog.EnsureTable], to find a misconfigured database at start-up).
// An AuditLog is safe for concurrent use. The zero value is not usable:
// rows recorded on it are counted as lost.
type AuditLog struct {
	db     *sql.DB
	q      *auditSQL
	logger *slog.Logger
	now    func() time.Time
	redact func(string) string

	batchSize    int
	maxAttempts  int
	retryBackoff time.Duration
	writeTimeout time.Duration

	fb  auditFallback
	mem *memoryFallback // nil when the fallback is a file

	mu     sync.RWMutex // guards closed and sending on queue
	closed bool
	queue  chan AuditRecord
	done   chan struct{} // closed when the writer has returned

	// base is the writer's context; abort cancels it when Close's
	// context ends, so that pending rows go to the fallback.
	base  context.Context
	abort context.CancelFunc

	tableMu    sync.Mutex
	tableReady atomic.Bool

	keyPrefix string
	seq       atomic.Uint64

	down bool      // writer only: the last batch used up its attempts
	file auditFile // writer only: the SQLite file written to

	recorded, written, retried, fallback, queueFull, lost, denied atomic.Int64

	policy    AuditQueuePolicy
	queueWait time.Duration

	errMu   sync.Mutex
	lostErr error // the first reason rows were lost

	outage auditOutage
}

// NewAuditLog returns an audit log writing to db and starts its writer,
// which [AuditLog.Close] stops. It does not touch the database; it fails
// on invalid options or a driver whose dialect it cannot tell.
func NewAuditLog(db *sql.DB, opts AuditOptions) (*AuditLog, error) {
	if db == nil {
		return nil, errors.New("hooks: audit log: nil *sql.DB")
	}
	for _, o := range []struct {
		name string
		v    int64
	}{
		{"QueueSize", int64(opts.QueueSize)}, {"BatchSize", int64(opts.BatchSize)},
		{"MaxAttempts", int64(opts.MaxAttempts)}, {"RetryBackoff", int64(opts.RetryBackoff)},
		{"WriteTimeout", int64(opts.WriteTimeout)}, {"MemoryFallbackSize", int64(opts.MemoryFallbackSize)},
		{"QueueWait", int64(opts.QueueWait)},
	} {
		if o.v < 0 {
			return nil, fmt.Errorf("hooks: audit log: negative %s %d", o.name, o.v)
		}
	}
	if opts.QueuePolicy > AuditQueueDeny {
		return nil, fmt.Errorf("hooks: audit log: unknown QueuePolicy %d", opts.QueuePolicy)
	}
	dialect := opts.Dialect
	if dialect == AuditDetect {
		var err error
		if dialect, err = detectDialect(db); err != nil {
			return nil, err
		}
	}
	table := opts.Table
	if table == "" {
		table = DefaultAuditTable
	}
	q, err := newAuditSQL(dialect, table)
	if err != nil {
		return nil, err
	}
	l := &AuditLog{
		db:           db,
		q:            q,
		logger:       opts.Logger,
		now:          opts.Now,
		redact:       opts.Redact,
		batchSize:    cmp.Or(opts.BatchSize, 64),
		maxAttempts:  cmp.Or(opts.MaxAttempts, 5),
		retryBackoff: cmp.Or(opts.RetryBackoff, 100*time.Millisecond),
		writeTimeout: cmp.Or(opts.WriteTimeout, 5*time.Second),
		queue:        make(chan AuditRecord, cmp.Or(opts.QueueSize, 1024)),
		done:         make(chan struct{}),
		policy:       opts.QueuePolicy,
		queueWait:    cmp.Or(opts.QueueWait, DefaultAuditQueueWait),
	}
	if l.logger == nil {
		l.logger = slog.Default()
	}
	if l.now == nil {
		l.now = time.Now
	}
	if l.redact == nil {
		l.redact = RedactSecrets // fail closed: unredacted only when asked
	}
	if opts.FallbackPath != "" {
		l.fb = &fileFallback{path: opts.FallbackPath}
	} else {
		l.mem = &memoryFallback{size: cmp.Or(opts.MemoryFallbackSize, 4096)}
		l.fb = l.mem
	}
	var prefix [8]byte
	_, _ = rand.Read(prefix[:]) // never fails (crypto/rand)
	l.keyPrefix = hex.EncodeToString(prefix[:]) + "-"
	l.base, l.abort = context.WithCancel(context.Background())
	go l.run()
	return l, nil
}

// Record queues one row and returns at once; it never touches the
// database. It fills in Time when zero, masks Input and OutputPreview with
// [AuditOptions.Redact], cuts Input to [AuditInputBytes] (marking the cut)
// and OutputPreview to [AuditPreviewRunes] characters, and makes every
// text valid UTF-8 without
// NUL bytes (invalid bytes and NULs become U+FFFD), which PostgreSQL
// requires. If the queue is full, or the log is closed, the row goes to
// the fallback on the caller's goroutine (a local append, never the
// database) and is counted; under [AuditQueueWait] it first waits, at most
// [AuditOptions.QueueWait], for room.
func (l *AuditLog) Record(r AuditRecord) {
	l.recorded.Add(1)
	if l.fb == nil {
		l.lose(1, errors.New("hooks: audit log: Record on an AuditLog not made by NewAuditLog"))
		return
	}
	l.normalise(&r)
	l.mu.RLock()
	if !l.closed {
		select {
		case l.queue <- r:
			l.mu.RUnlock()
			return
		default:
		}
		if l.policy == AuditQueueWait && l.waitForRoom(r) {
			l.mu.RUnlock()
			return
		}
	}
	closed := l.closed
	l.mu.RUnlock()
	cause := auditCauseQueueFull
	if closed {
		cause = auditCauseClosed
	} else {
		l.queueFull.Add(1)
	}
	l.toFallback([]AuditRecord{r}, cause, false)
}

// Hook returns a hook named "audit" that records a row for every
// PostToolUse event and a [AuditSessionStop] row for every SessionStop
// event. Its callbacks only queue a row, so it runs inline
// ([NoTimeout]). Under [AuditQueueDeny] it also has a PreToolUse callback
// that blocks every call while the queue is full.
//
// A PostToolUse row has status [AuditOK] when the call was allowed and
// returned no error, [AuditFail] otherwise; the agent name, step, elapsed
// time, input, output, decision and reason come from the event. The session-stop
// row has tool name [AuditSessionTool], the session's step count and
// duration, the stop reason in reason, and the stopping error, if any, in
// output_preview.
func (l *AuditLog) Hook() Hook {
	h := l.hook()
	if l.policy == AuditQueueDeny {
		h.PreToolUse = l.denyHook
	}
	return h
}

func (l *AuditLog) hook() Hook {
	return Hook{
		Name:    "audit",
		Timeout: NoTimeout,
		PostToolUse: func(_ context.Context, e PostToolUseEvent) (PostToolUseResult, error) {
			status := AuditOK
			if e.Err != nil || e.Decision != permission.Allow {
				status = AuditFail
			}
			preview := e.Output
			if e.Err != nil && preview == "" {
				preview = e.Err.Error()
			}
			l.Record(AuditRecord{
				SessionID:     e.SessionID,
				Step:          e.Step,
				ToolName:      e.ToolName,
				Status:        status,
				ElapsedMS:     e.Elapsed.Milliseconds(),
				OutputPreview: preview,
				AgentName:     e.AgentName,
				Decision:      e.Decision.String(),
				Reason:        e.Reason,
				Confinement:   e.Confinement,
				Layer:         layerName(e.Layer),
				Rule:          string(e.Rule),
				Input:         string(e.Input),
			})
			return PostToolUseResult{}, nil
		},
		SessionStop: func(_ context.Context, e SessionStopEvent) error {
			var errText string
			if e.Err != nil {
				errText = e.Err.Error()
			}
			l.Record(AuditRecord{
				SessionID:     e.SessionID,
				Step:          e.Step,
				ToolName:      AuditSessionTool,
				Status:        AuditSessionStop,
				ElapsedMS:     e.Elapsed.Milliseconds(),
				OutputPreview: errText,
				AgentName:     e.AgentName,
				Reason:        e.Reason,
			})
			return nil
		},
	}
}

// Close stops accepting rows into the queue, writes what is queued, and
// stops the writer. Writing goes on, retries included, until the queue is
// empty or ctx ends; the rows not written by then go to the fallback.
// While the database does not answer, each batch may take up to
// WriteTimeout, so give ctx a deadline.
// Close returns an error wrapping [ErrAuditLost] if any row was lost over
// the log's life, nil otherwise. Rows recorded after Close go straight to
// the fallback. Close may be called more than once.
func (l *AuditLog) Close(ctx context.Context) error {
	if l.fb == nil {
		return l.err()
	}
	l.mu.Lock()
	if !l.closed {
		l.closed = true
		close(l.queue)
	}
	l.mu.Unlock()
	stop := context.AfterFunc(ctx, l.abort)
	<-l.done
	stop()
	l.abort()
	l.outage.close(l)
	return l.err()
}

// Stats returns a snapshot of the log's counters.
func (l *AuditLog) Stats() AuditStats {
	return AuditStats{
		Recorded:  l.recorded.Load(),
		Written:   l.written.Load(),
		Retried:   l.retried.Load(),
		Fallback:  l.fallback.Load(),
		QueueFull: l.queueFull.Load(),
		Lost:      l.lost.Load(),
		Denied:    l.denied.Load(),
		Queued:    len(l.queue),
	}
}

// TakeFallback returns the rows kept by the in-memory fallback and empties
// it. It returns nil when the fallback is a file ([AuditOptions.FallbackPath]).
func (l *AuditLog) TakeFallback() []AuditFallbackRow {
	if l.mem == nil {
		return nil
	}
	return l.mem.take()
}

// EnsureTable brings the table to the schema this code writes: it creates
// the table, its session_id index and the version table
// ([AuditVersionTable]) if they are missing, and applies the migrations a
// table made by an earlier release lacks, each once, in one transaction
// (in PostgreSQL under an advisory lock, so replicas starting together
// migrate once). A table whose recorded version is newer than this code's
// is an error: the log does not write to a schema it does not know. The
// writer does this before its first write; calling it is only needed to
// find a misconfigured database early.
func (l *AuditLog) EnsureTable(ctx context.Context) error {
	if l.q == nil {
		return errors.New("hooks: audit log: AuditLog not made by NewAuditLog")
	}
	if l.tableReady.Load() {
		return nil
	}
	l.tableMu.Lock()
	defer l.tableMu.Unlock()
	if l.tableReady.Load() {
		return nil
	}
	if err := l.q.migrate(ctx, l.db); err != nil {
		return err
	}
	l.tableReady.Store(true)
	return nil
}

// normalise prepares a row on the caller's goroutine, without allocating
// for valid text.
func (l *AuditLog) normalise(r *AuditRecord) {
	if r.Time.IsZero() {
		r.Time = l.now()
	}
	// The preview is masked on a window wider than what is kept, so that a
	// secret across the cut is masked whole before the cut.
	preview := r.OutputPreview
	if len(preview) > AuditInputBytes {
		preview = truncateBytes(preview, AuditInputBytes)
	}
	r.OutputPreview = cleanText(truncateRunes(l.redactText(preview), AuditPreviewRunes))
	if r.Input != "" {
		in := cleanText(l.redactText(r.Input))
		r.InputBytes = max(r.InputBytes, int64(len(in)))
		if len(in) > AuditInputBytes {
			mark := "…[truncated: " + strconv.FormatInt(r.InputBytes, 10) + " bytes in all]"
			in = truncateBytes(in, AuditInputBytes-len(mark)) + mark
		}
		r.Input = in
	}
	r.Key = cleanText(r.Key)
	r.SessionID = cleanText(r.SessionID)
	r.ToolName = cleanText(r.ToolName)
	r.Status = cleanText(r.Status)
	r.AgentName = cleanText(r.AgentName)
	r.Decision = cleanText(r.Decision)
	r.Reason = cleanText(r.Reason)
	r.Confinement = cleanText(r.Confinement)
	r.Layer = cleanText(r.Layer)
	r.Rule = cleanText(r.Rule)
}

// redactText applies the configured redaction; a redaction that panics
// leaves a note, never the text it was given.
func (l *AuditLog) redactText(s string) (out string) {
	if l.redact == nil || s == "" {
		return s
	}
	defer func() {
		// The panic's value may quote the text: it is not kept either.
		if recover() != nil {
			out = AuditRedactionFailed
		}
	}()
	return l.redact(s)
}

// truncateBytes returns the longest prefix of s of at most n bytes that
// does not split a UTF-8 sequence.
func truncateBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// truncateRunes returns the first n runes of s (an invalid byte counts as
// one rune).
func truncateRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	count := 0
	for i := range s {
		if count == n {
			return s[:i]
		}
		count++
	}
	return s
}

// cleanText returns s as valid UTF-8 without NUL bytes.
func cleanText(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if strings.IndexByte(s, 0) >= 0 {
		s = strings.ReplaceAll(s, "\x00", "\uFFFD")
	}
	return s
}

// run is the writer: it drains the queue in batches until the queue is
// closed and empty.
func (l *AuditLog) run() {
	defer close(l.done)
	defer func() {
		// The file may have gone since the last write.
		if !l.file.check(l.base, l) {
			l.file.settle(l)
		}
	}()
	batch := make([]AuditRecord, 0, l.batchSize)
	for r := range l.queue {
		batch = append(batch[:0], r)
	fill:
		for len(batch) < l.batchSize {
			select {
			case r, ok := <-l.queue:
				if !ok {
					break fill
				}
				batch = append(batch, r)
			default:
				break fill
			}
		}
		l.flush(batch)
	}
}

// flush writes one batch, retrying with backoff, and hands it to the
// fallback if it cannot.
func (l *AuditLog) flush(batch []AuditRecord) {
	for i := range batch {
		l.assignKey(&batch[i])
	}
	attempts := l.maxAttempts
	if l.down {
		attempts = 1
	}
	var err error
	for a := range attempts {
		if l.base.Err() != nil {
			break
		}
		if a > 0 {
			if !l.sleep(l.backoff(a)) {
				break
			}
			l.retried.Add(1)
		}
		if err = l.write(batch); err == nil {
			if !l.file.check(l.base, l) {
				// Written to a file no longer at the database's path: gone.
				l.file.settle(l)
				l.down = true
				l.toFallback(batch, "written to a database file that was then deleted or replaced", true)
				return
			}
			l.written.Add(int64(len(batch)))
			l.file.rows += int64(len(batch))
			l.down = false
			l.outage.wrote(l)
			return
		}
	}
	cause := auditCauseClosed + " before the row was written"
	if err != nil {
		cause = err.Error()
		l.down = true
	}
	l.toFallback(batch, cause, true)
}

func (l *AuditLog) write(batch []AuditRecord) error {
	ctx, cancel := context.WithTimeout(l.base, l.writeTimeout)
	defer cancel()
	if !l.file.check(ctx, l) {
		l.file.settle(l) // the file went away between two writes
	}
	if err := l.EnsureTable(ctx); err != nil {
		return err
	}
	return l.q.insert(ctx, l.db, batch)
}

// backoff is the wait before attempt a (a >= 1).
func (l *AuditLog) backoff(a int) time.Duration {
	const limit = 5 * time.Second
	d := l.retryBackoff
	for i := 1; i < a && d < limit; i++ {
		d *= 2
	}
	return min(d, max(limit, l.retryBackoff))
}

// sleep waits d, or less if Close's context ends; it reports whether the
// whole wait passed.
func (l *AuditLog) sleep(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-l.base.Done():
		return false
	}
}

func (l *AuditLog) assignKey(r *AuditRecord) {
	if r.Key == "" {
		r.Key = l.keyPrefix + strconv.FormatUint(l.seq.Add(1), 10)
	}
}

// toFallback hands rows to the fallback and counts what it kept and lost.
func (l *AuditLog) toFallback(batch []AuditRecord, cause string, fromWriter bool) {
	rows := make([]AuditFallbackRow, len(batch))
	for i := range batch {
		l.assignKey(&batch[i])
		rows[i] = AuditFallbackRow{AuditRecord: batch[i], Cause: cause}
	}
	kept, err := l.fb.write(rows)
	l.fallback.Add(int64(kept))
	if kept > 0 && l.q != nil {
		l.outage.fellBack(l, kept, cause)
	}
	if n := len(rows) - kept; n > 0 {
		if err == nil {
			err = errors.New("hooks: audit log: fallback kept only part of the rows")
		}
		l.lose(n, err)
	}
}

// lose counts n lost rows and reports them.
func (l *AuditLog) lose(n int, err error) {
	l.lost.Add(int64(n))
	l.errMu.Lock()
	if l.lostErr == nil {
		l.lostErr = err
	}
	l.errMu.Unlock()
	if l.logger != nil && l.q != nil {
		l.outage.lostRows(l, n, err)
	}
}

func (l *AuditLog) err() error {
	n := l.lost.Load()
	if n == 0 {
		return nil
	}
	l.errMu.Lock()
	defer l.errMu.Unlock()
	return fmt.Errorf("%w: %d rows, first because: %w", ErrAuditLost, n, l.lostErr)
}

// layerName is the audit row's layer: empty when no layer decided.
func layerName(l permission.Layer) string {
	if l == permission.LayerNone {
		return ""
	}
	return l.String()
}

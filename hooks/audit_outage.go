package hooks

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// auditQuiet is how long no row may go to the fallback before an outage
// counts as over, so that a flood or a flapping database makes one
// episode, not one per batch.
const auditQuiet = time.Second

// auditOutage tells the log's logger about rows the database did not
// take once per episode, not once per row: a line when rows start going to
// the fallback (or are lost), and one with the counts when the database
// takes rows again after a quiet second, or when the log closes.
type auditOutage struct {
	mu       sync.Mutex
	active   bool
	lostSaid bool // the episode's first loss was logged
	since    time.Time
	last     time.Time // the last row that went to the fallback or was lost
	fallback int64
	lost     int64
}

// fellBack notes n rows kept by the fallback because of cause.
func (o *auditOutage) fellBack(l *AuditLog, n int, cause string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	now := time.Now()
	o.begin(now)
	o.fallback += int64(n)
	if o.fallback == int64(n) {
		l.logger.Warn("audit rows written to the fallback", "rows", n, "table", l.q.table, "cause", cause,
			"note", "further rows of this outage are counted, not logged one by one")
	}
}

// lostRows notes n rows lost because of err.
func (o *auditOutage) lostRows(l *AuditLog, n int, err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.begin(time.Now())
	o.lost += int64(n)
	if !o.lostSaid {
		o.lostSaid = true
		l.logger.Error("audit rows lost", "rows", n, "error", err,
			"note", "further losses of this outage are counted, not logged one by one")
	}
}

func (o *auditOutage) begin(now time.Time) {
	if !o.active {
		o.active, o.since = true, now
	}
	o.last = now
}

// wrote notes that the database took a batch; it ends the episode if no
// row went to the fallback for auditQuiet.
func (o *auditOutage) wrote(l *AuditLog) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.active && time.Since(o.last) >= auditQuiet {
		o.end(l, "the database takes rows again")
	}
}

// close ends the episode, if one is open, when the log closes.
func (o *auditOutage) close(l *AuditLog) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.active {
		o.end(l, "the audit log closed")
	}
}

func (o *auditOutage) end(l *AuditLog, why string) {
	level := slog.LevelWarn
	if o.lost > 0 {
		level = slog.LevelError
	}
	l.logger.Log(context.Background(), level, "audit outage over: "+why, "fallback_rows", o.fallback, "lost_rows", o.lost,
		"duration", o.last.Sub(o.since).Round(time.Millisecond), "table", l.q.table)
	o.active, o.lostSaid, o.fallback, o.lost = false, false, 0, 0
}

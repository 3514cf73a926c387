package hooks

import (
	"context"
	"time"
)

// AuditQueuePolicy says what the [AuditLog] does with a row that finds its
// queue full (the writer is behind: a flood of calls, or a slow or
// unreachable database).
type AuditQueuePolicy uint8

const (
	// AuditQueueFallback, the default, sends the row to the fallback at
	// once, on the caller's goroutine, and counts it in
	// [AuditStats.QueueFull]: no call ever waits on the audit log, and no
	// row is lost while the fallback keeps it. It is the default because
	// an audit backlog then costs neither time on the agent's calls nor
	// rows: the fallback file holds them for replay.
	AuditQueueFallback AuditQueuePolicy = iota
	// AuditQueueWait waits up to [AuditOptions.QueueWait] for room in the
	// queue, then sends the row to the fallback as AuditQueueFallback
	// does: it trades a bounded delay of the caller for fewer rows in the
	// fallback.
	AuditQueueWait
	// AuditQueueDeny blocks a call that could not be queued for the
	// writer: the log's [AuditLog.Hook] gains a PreToolUse callback that
	// blocks every call while the queue is full, with the reason. A row
	// recorded when the queue is full (a call that passed just before it
	// filled, a session stop) still goes to the fallback. For operators
	// for whom a call that cannot be audited in the database must not
	// run.
	AuditQueueDeny
)

// DefaultAuditQueueWait is the longest [AuditQueueWait] waits for room
// when [AuditOptions.QueueWait] is zero.
const DefaultAuditQueueWait = 50 * time.Millisecond

// queueIsFull reports whether the queue has no room now.
func (l *AuditLog) queueIsFull() bool { return len(l.queue) >= cap(l.queue) }

// waitForRoom tries, for up to l.queueWait, to queue r; it reports whether
// it did. The caller holds l.mu for reading and the log is open.
func (l *AuditLog) waitForRoom(r AuditRecord) bool {
	t := time.NewTimer(l.queueWait)
	defer t.Stop()
	select {
	case l.queue <- r:
		return true
	case <-t.C:
		return false
	}
}

// denyHook is the PreToolUse callback of [AuditQueueDeny].
func (l *AuditLog) denyHook(context.Context, PreToolUseEvent) (PreToolUseResult, error) {
	if l.queueIsFull() {
		l.denied.Add(1)
		return Block("the audit log's queue is full (the database is behind), and the audit policy is to deny a call that cannot be audited"), nil
	}
	return PreToolUseResult{}, nil
}

package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sync"
)

// AuditFallbackRow is a row the [AuditLog] could not write to its database,
// as handed to the fallback: the row and why it is not in the database.
// Each line of the JSON-lines fallback file is one AuditFallbackRow; its
// keys are the table's column names plus "cause".
type AuditFallbackRow struct {
	AuditRecord
	// Cause says why the row went to the fallback: "queue full", "closed",
	// or the database error of the last attempt.
	Cause string `json:"cause"`
}

// Causes recorded in [AuditFallbackRow.Cause] besides database errors.
const (
	auditCauseQueueFull = "queue full"
	auditCauseClosed    = "audit log closed"
)

// auditFallback keeps rows the database did not take. write reports how
// many of rows it kept; the rest are lost, and err says why.
type auditFallback interface {
	write(rows []AuditFallbackRow) (kept int, err error)
}

// fileFallback appends rows as JSON lines to a file. The file is opened for
// each write (append-only, created with mode 0600 if missing) and closed
// again, so the log holds no descriptor and a host may rotate the file.
type fileFallback struct {
	path string
	mu   sync.Mutex // serialises appends so lines never interleave
}

func (f *fileFallback) write(rows []AuditFallbackRow) (int, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for i := range rows {
		if err := enc.Encode(&rows[i]); err != nil {
			// Every field is a string, number or time: this cannot
			// happen, but a row that cannot be encoded is not kept.
			return 0, fmt.Errorf("hooks: audit log: encoding fallback row: %w", err)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	file, err := os.OpenFile(f.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return 0, fmt.Errorf("hooks: audit log: fallback file: %w", err)
	}
	n, werr := file.Write(buf.Bytes())
	cerr := file.Close()
	// Only whole lines count as kept.
	kept := bytes.Count(buf.Bytes()[:n], []byte{'\n'})
	if werr != nil {
		return kept, fmt.Errorf("hooks: audit log: fallback file: %w", werr)
	}
	if cerr != nil {
		return kept, fmt.Errorf("hooks: audit log: fallback file: %w", cerr)
	}
	return kept, nil
}

// memoryFallback keeps up to size rows in memory until the host takes them
// with [AuditLog.TakeFallback]. When it is full it refuses further rows
// (they are counted as lost and reported) rather than overwriting older
// ones, so that the counts always add up.
type memoryFallback struct {
	mu   sync.Mutex
	size int
	rows []AuditFallbackRow
}

func (m *memoryFallback) write(rows []AuditFallbackRow) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	room := max(m.size-len(m.rows), 0)
	kept := min(room, len(rows))
	m.rows = append(m.rows, rows[:kept]...)
	if kept < len(rows) {
		return kept, fmt.Errorf("hooks: audit log: in-memory fallback full (%d rows): set AuditOptions.FallbackPath or call TakeFallback", m.size)
	}
	return kept, nil
}

func (m *memoryFallback) take() []AuditFallbackRow {
	m.mu.Lock()
	defer m.mu.Unlock()
	rows := m.rows
	m.rows = nil
	return rows
}

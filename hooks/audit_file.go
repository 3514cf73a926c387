package hooks

import (
	"context"
	"errors"
	"fmt"
	"os"
)

// auditFile watches the file of a SQLite database (the writer's alone).
// A row SQLite confirmed is only in the database while the file it went
// to is the one at the database's path: when the file is deleted or
// replaced, what was written to it is gone with it, and a connection
// still open on it may even go on writing there. So after each write the
// writer checks that the file is still the one it has been writing; if it
// is not, the rows written to the old one are counted lost (not written),
// the batch just written goes to the fallback, and the table is made
// again in the new file.
type auditFile struct {
	path  string      // the main database file, "" until known or when there is none
	off   bool        // not a file database (in memory), or not SQLite
	info  os.FileInfo // the file written so far
	rows  int64       // rows confirmed into that file
	known bool
}

// check reports whether the file at the path is the one written so far
// (learning it on the first call). It is false when the file is gone or
// was replaced; the caller then settles the rows written to the old one.
func (f *auditFile) check(ctx context.Context, l *AuditLog) bool {
	if f.off {
		return true
	}
	if !f.known {
		if l.q.dialect != AuditSQLite {
			f.off = true
			return true
		}
		var seq int
		var name, file string
		err := l.db.QueryRowContext(ctx, "SELECT seq, name, file FROM pragma_database_list WHERE name = 'main'").Scan(&seq, &name, &file)
		if err != nil || file == "" {
			f.off = err == nil // an in-memory database has no file; an error is tried again
			return true
		}
		info, err := os.Stat(file)
		if err != nil {
			return true // not there yet: tried again on the next write
		}
		f.path, f.info, f.known = file, info, true
		return true
	}
	info, err := os.Stat(f.path)
	return err == nil && os.SameFile(info, f.info)
}

// settle counts the rows written to the file that is no longer at the path
// as lost, and forgets it.
func (f *auditFile) settle(l *AuditLog) {
	if f.rows > 0 {
		l.written.Add(-f.rows)
		l.lose(int(f.rows), fmt.Errorf("%w: the database file %s was deleted or replaced, and the %d rows written to it went with it", errAuditFileGone, f.path, f.rows))
	}
	f.rows, f.known, f.info = 0, false, nil
	l.tableReady.Store(false) // the new file, if any, has no table yet
}

var errAuditFileGone = errors.New("hooks: audit log: database file gone")

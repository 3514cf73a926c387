package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"

	_ "modernc.org/sqlite" // the "sqlite" driver, pure Go

	"github.com/toolgate/toolgate/internal/sqlschema"
)

// OpenSQLite opens (creating it if needed) the SQLite database at path.
// The state survives a restart; processes on one machine may share the
// file, but only changes made through a Store reach its watchers.
//
// Every call ends by the store's timeout ([WithTimeout]).
func OpenSQLite(ctx context.Context, path string, opts ...Option) (*Store, error) {
	o := buildOptions(opts)
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: %w", err)
	}
	// One connection: transactions of this process never contend.
	db.SetMaxOpenConns(1)
	s := &Store{db: db, timeout: o.timeout}
	octx, cancel := s.bound(ctx)
	defer cancel()
	if err := migrate(octx, db, sqlschema.SQLite); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

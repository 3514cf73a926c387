// Package sqlschema brings a table's schema to the version the code wants,
// in SQLite and PostgreSQL, from an ordered list of migrations that the
// code embeds.
//
// Each subject (a table and what hangs on it) has its own history in a
// version table beside it: one row per applied migration, with its number,
// its name and when it was applied. [Apply] reads the subject's version,
// runs the migrations after it in order and records each, all in one
// transaction, so that a failure leaves the schema as it was. In
// PostgreSQL the transaction first takes an advisory lock, so replicas
// starting together migrate one after the other; in SQLite the database's
// own write lock serialises them (a writer that loses the race fails with
// SQLITE_BUSY and succeeds when tried again, finding nothing left to do).
//
// Migration 1 of a subject is the schema as it was before versions were
// kept, written so that it also completes a table made by an older release
// (IF NOT EXISTS everywhere); from migration 2 on, each runs exactly once.
package sqlschema

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"time"
)

// Dialect is the SQL dialect of the database.
type Dialect uint8

const (
	// SQLite: ? placeholders; ALTER TABLE has no IF NOT EXISTS.
	SQLite Dialect = iota + 1
	// Postgres: $1 placeholders, transactional DDL, advisory locks.
	Postgres
)

// Migration is one step of a subject's schema.
type Migration struct {
	// Version numbers the step: the first is 1, each next one more.
	Version int
	// Name says what the step does; it is recorded with the version.
	Name string
	// Statements run in order, in the migration's transaction.
	Statements []string
	// Tolerate reports whether an error of a statement means that what it
	// does is already done (SQLite's "duplicate column name" for an ADD
	// COLUMN that an older release applied without a version); nil
	// tolerates nothing. In PostgreSQL an error aborts the transaction,
	// so there statements must say IF NOT EXISTS instead.
	Tolerate func(error) bool
}

// Set is the schema of one subject.
type Set struct {
	Dialect Dialect
	// Subject names whose history the version table holds, for example
	// the table's unqualified name.
	Subject string
	// VersionTable is the version table, schema-qualified if the subject's
	// table is; it is created if missing. Its name must be safe to write
	// into SQL unquoted (the caller validates it).
	VersionTable string
	// Migrations are the steps in order, numbered 1, 2, ...
	Migrations []Migration
	// Now is the clock for applied_at; nil means [time.Now].
	Now func() time.Time
}

// ErrNewer is returned (wrapped) by [Set.Apply] when the database holds a
// version this code does not know: a newer release migrated it. The code
// refuses to write to a schema it does not know rather than guess.
var ErrNewer = errors.New("sqlschema: the database's schema is newer than this code")

// Latest is the version the set brings a subject to.
func (s *Set) Latest() int { return len(s.Migrations) }

func (s *Set) validate() error {
	if s.Dialect != SQLite && s.Dialect != Postgres {
		return fmt.Errorf("sqlschema: invalid dialect %d", s.Dialect)
	}
	if s.Subject == "" || s.VersionTable == "" {
		return errors.New("sqlschema: empty subject or version table")
	}
	for i, m := range s.Migrations {
		if m.Version != i+1 {
			return fmt.Errorf("sqlschema: %s: migration %d is numbered %d", s.Subject, i+1, m.Version)
		}
	}
	return nil
}

// Version returns the subject's version in db: 0 when the version table or
// the subject's history is missing.
func (s *Set) Version(ctx context.Context, db *sql.DB) (int, error) {
	if err := s.validate(); err != nil {
		return 0, err
	}
	if _, err := db.ExecContext(ctx, s.createVersionTable()); err != nil {
		return 0, fmt.Errorf("sqlschema: creating %s: %w", s.VersionTable, err)
	}
	return s.version(ctx, db)
}

type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func (s *Set) version(ctx context.Context, q querier) (int, error) {
	var v sql.NullInt64
	err := q.QueryRowContext(ctx, "SELECT MAX(version) FROM "+s.VersionTable+" WHERE subject = "+s.ph(1), s.Subject).Scan(&v)
	if err != nil {
		return 0, fmt.Errorf("sqlschema: reading the version of %s: %w", s.Subject, err)
	}
	return int(v.Int64), nil
}

func (s *Set) ph(n int) string {
	if s.Dialect == Postgres {
		return fmt.Sprintf("$%d", n)
	}
	return "?"
}

func (s *Set) createVersionTable() string {
	ts := "TIMESTAMP"
	if s.Dialect == Postgres {
		ts = "TIMESTAMPTZ"
	}
	return "CREATE TABLE IF NOT EXISTS " + s.VersionTable + " (\n" +
		"\tsubject TEXT NOT NULL,\n" +
		"\tversion INTEGER NOT NULL,\n" +
		"\tname TEXT NOT NULL,\n" +
		"\tapplied_at " + ts + " NOT NULL,\n" +
		"\tPRIMARY KEY (subject, version)\n)"
}

// lockKey is the PostgreSQL advisory lock that serialises the migrations
// of one version table.
func (s *Set) lockKey() int64 {
	h := fnv.New64a()
	h.Write([]byte("toolgate sqlschema " + strings.ToLower(s.VersionTable)))
	return int64(h.Sum64())
}

// Apply brings the subject to [Set.Latest] and returns the versions before
// and after. Nothing is changed when it is already there. It fails with
// [ErrNewer] when the database is past Latest.
func (s *Set) Apply(ctx context.Context, db *sql.DB) (from, to int, err error) {
	if err := s.validate(); err != nil {
		return 0, 0, err
	}
	if s.Dialect == SQLite {
		// Outside the transaction: a no-op when it exists, and SQLite
		// serialises it.
		if _, err := db.ExecContext(ctx, s.createVersionTable()); err != nil {
			return 0, 0, fmt.Errorf("sqlschema: creating %s: %w", s.VersionTable, err)
		}
		// A cheap look first: most opens find the schema current and
		// need no write lock.
		v, err := s.version(ctx, db)
		if err != nil {
			return 0, 0, err
		}
		if v == s.Latest() {
			return v, v, nil
		}
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, 0, fmt.Errorf("sqlschema: %s: %w", s.Subject, err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	if s.Dialect == Postgres {
		if _, err = tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", s.lockKey()); err != nil {
			return 0, 0, fmt.Errorf("sqlschema: locking %s: %w", s.VersionTable, err)
		}
		if _, err = tx.ExecContext(ctx, s.createVersionTable()); err != nil {
			return 0, 0, fmt.Errorf("sqlschema: creating %s: %w", s.VersionTable, err)
		}
	}
	if from, err = s.version(ctx, tx); err != nil {
		return 0, 0, err
	}
	if from > s.Latest() {
		err = fmt.Errorf("%w: %s is at version %d, this code knows %d", ErrNewer, s.Subject, from, s.Latest())
		return from, from, err
	}
	if from == s.Latest() {
		err = tx.Commit()
		return from, from, err
	}
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	record := "INSERT INTO " + s.VersionTable + " (subject, version, name, applied_at) VALUES (" +
		s.ph(1) + ", " + s.ph(2) + ", " + s.ph(3) + ", " + s.ph(4) + ")"
	for _, m := range s.Migrations[from:] {
		for _, stmt := range m.Statements {
			if _, e := tx.ExecContext(ctx, stmt); e != nil && (m.Tolerate == nil || !m.Tolerate(e)) {
				err = fmt.Errorf("sqlschema: %s: migration %d (%s): %w", s.Subject, m.Version, m.Name, e)
				return from, from, err
			}
		}
		if _, err = tx.ExecContext(ctx, record, s.Subject, m.Version, m.Name, now().UTC()); err != nil {
			err = fmt.Errorf("sqlschema: %s: recording migration %d: %w", s.Subject, m.Version, err)
			return from, from, err
		}
	}
	if err = tx.Commit(); err != nil {
		err = fmt.Errorf("sqlschema: %s: committing migrations %d to %d: %w", s.Subject, from+1, s.Latest(), err)
		return from, from, err
	}
	return from, s.Latest(), nil
}

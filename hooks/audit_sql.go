package hooks

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/internal/sqlschema"
)

// AuditDialect is the SQL dialect the [AuditLog] speaks: it decides the
// placeholders (? or $1) and the type of the id column.
type AuditDialect uint8

const (
	// AuditDetect detects the dialect from the *sql.DB's driver: the
	// drivers of modernc.org/sqlite and github.com/mattn/go-sqlite3 mean
	// SQLite; those of github.com/jackc/pgx (stdlib) and github.com/lib/pq
	// mean PostgreSQL. Any other driver is an error: set the dialect.
	AuditDetect AuditDialect = iota
	// AuditSQLite uses ? placeholders and an INTEGER PRIMARY KEY
	// AUTOINCREMENT id.
	AuditSQLite
	// AuditPostgres uses $1 placeholders and an identity id column.
	AuditPostgres
)

// String returns "detect", "sqlite" or "postgres".
func (d AuditDialect) String() string {
	switch d {
	case AuditDetect:
		return "detect"
	case AuditSQLite:
		return "sqlite"
	case AuditPostgres:
		return "postgres"
	}
	return "invalid(" + strconv.Itoa(int(d)) + ")"
}

// DefaultAuditTable is the table the audit log writes when
// [AuditOptions.Table] is empty.
const DefaultAuditTable = "agent_audit_log"

// auditColumns are the columns the log inserts, in order; id is the
// database's own.
var auditColumns = [...]string{
	"row_key", "session_id", "step", "tool_name", "status", "elapsed_ms",
	"output_preview", "agent_name", "decision", "reason", "created_at",
	"confinement", "layer", "rule", "input", "input_bytes",
}

// detectDialect names the dialect of db's driver from the driver's Go
// package, so that the library imports no driver.
func detectDialect(db *sql.DB) (AuditDialect, error) {
	t := reflect.TypeOf(db.Driver())
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	pkg := ""
	if t != nil {
		pkg = t.PkgPath()
	}
	switch {
	case strings.Contains(pkg, "sqlite"):
		return AuditSQLite, nil
	case strings.HasPrefix(pkg, "github.com/jackc/pgx"), pkg == "github.com/lib/pq":
		return AuditPostgres, nil
	}
	return AuditDetect, fmt.Errorf("hooks: audit log: cannot tell the SQL dialect of driver %q: set AuditOptions.Dialect", pkg)
}

// splitTable validates a table name, plain ("audit") or qualified by a
// schema ("tenant.audit"), and returns its parts. Names are restricted to
// ASCII letters, digits and underscores so that they can be put into SQL
// unquoted and mean the same in SQLite and PostgreSQL.
func splitTable(name string) (schema, table string, err error) {
	schema, table, ok := strings.Cut(name, ".")
	if !ok {
		schema, table = "", name
	}
	if (ok && !validIdent(schema)) || !validIdent(table) {
		return "", "", fmt.Errorf("hooks: audit log: invalid table name %q: want letters, digits and underscores, optionally schema-qualified", name)
	}
	return schema, table, nil
}

func validIdent(s string) bool {
	if s == "" || len(s) > 63 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_', 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// auditSQL holds the statements for one table in one dialect.
type auditSQL struct {
	dialect AuditDialect
	table   string // as written in SQL, schema-qualified if configured
	// schema is the table's versioned schema: its migrations and the
	// version table beside it.
	schema sqlschema.Set
	// insertHead is "INSERT INTO t (cols) VALUES " and insertTail the
	// conflict clause that makes a retried batch idempotent.
	insertHead, insertTail string
}

// AuditVersionTable is the table, in the audit table's schema, that holds
// the versions of the audit table's schema: one row per migration applied,
// its subject the audit table's unqualified name.
const AuditVersionTable = "toolgate_schema_versions"

func newAuditSQL(d AuditDialect, name string) (*auditSQL, error) {
	schema, table, err := splitTable(name)
	if err != nil {
		return nil, err
	}
	q := &auditSQL{dialect: d, table: name}
	versions := AuditVersionTable
	if schema != "" {
		versions = schema + "." + AuditVersionTable
	}
	switch d {
	case AuditSQLite:
		q.schema = sqlschema.Set{Dialect: sqlschema.SQLite}
	case AuditPostgres:
		q.schema = sqlschema.Set{Dialect: sqlschema.Postgres}
	default:
		return nil, fmt.Errorf("hooks: audit log: invalid dialect %v", d)
	}
	q.schema.Subject, q.schema.VersionTable = table, versions
	q.schema.Migrations = auditMigrations(d, name, table)
	q.insertHead = "INSERT INTO " + name + " (" + strings.Join(auditColumns[:], ", ") + ") VALUES "
	q.insertTail = " ON CONFLICT (row_key) DO NOTHING"
	return q, nil
}

// auditMigrations are the audit table's schema, step by step. Never change
// a step that has shipped: add one.
//
// Migration 1 is the schema as releases before versions created it, word
// for word: CREATE TABLE IF NOT EXISTS, its index, and the ADD COLUMNs
// that completed a table made before confinement, layer and rule existed
// (SQLite has no ADD COLUMN IF NOT EXISTS: its "duplicate column name" is
// tolerated). It is the only step that may find its work done.
func auditMigrations(d AuditDialect, name, table string) []sqlschema.Migration {
	idCol, tsType := "id INTEGER PRIMARY KEY AUTOINCREMENT", "TIMESTAMP"
	index := "CREATE INDEX IF NOT EXISTS " + name + "_session_id ON " + table + " (session_id)"
	if d == AuditPostgres {
		idCol, tsType = "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", "TIMESTAMPTZ"
		index = "CREATE INDEX IF NOT EXISTS " + table + "_session_id ON " + name + " (session_id)"
	}
	v1 := []string{
		"CREATE TABLE IF NOT EXISTS " + name + " (\n" +
			"\t" + idCol + ",\n" +
			"\trow_key TEXT NOT NULL UNIQUE,\n" +
			"\tsession_id TEXT NOT NULL,\n" +
			"\tstep INTEGER NOT NULL,\n" +
			"\ttool_name TEXT NOT NULL,\n" +
			"\tstatus TEXT NOT NULL,\n" +
			"\telapsed_ms BIGINT NOT NULL,\n" +
			"\toutput_preview TEXT NOT NULL,\n" +
			"\tagent_name TEXT NOT NULL,\n" +
			"\tdecision TEXT NOT NULL,\n" +
			"\treason TEXT NOT NULL,\n" +
			"\tcreated_at " + tsType + " NOT NULL,\n" +
			"\tconfinement TEXT NOT NULL DEFAULT '',\n" +
			"\tlayer TEXT NOT NULL DEFAULT '',\n" +
			"\trule TEXT NOT NULL DEFAULT ''\n)",
		index,
	}
	addColumn := "ALTER TABLE " + name + " ADD COLUMN "
	if d == AuditPostgres {
		addColumn = "ALTER TABLE " + name + " ADD COLUMN IF NOT EXISTS "
	}
	for _, col := range []string{"confinement", "layer", "rule"} {
		v1 = append(v1, addColumn+col+" TEXT NOT NULL DEFAULT ''")
	}
	add := "ALTER TABLE " + name + " ADD COLUMN "
	return []sqlschema.Migration{
		{Version: 1, Name: "the table as releases before versions made it", Statements: v1,
			Tolerate: func(err error) bool { return strings.Contains(err.Error(), "duplicate column name") }},
		{Version: 2, Name: "the call's input, redacted and capped, and its size", Statements: []string{
			add + "input TEXT NOT NULL DEFAULT ''",
			add + "input_bytes BIGINT NOT NULL DEFAULT 0",
		}},
	}
}

// migrate brings the table to the schema this code writes.
func (q *auditSQL) migrate(ctx context.Context, db *sql.DB) error {
	if _, _, err := q.schema.Apply(ctx, db); err != nil {
		return fmt.Errorf("hooks: audit log: table %s: %w", q.table, err)
	}
	return nil
}

// insert writes rows with one multi-row INSERT, which is atomic. Rows whose
// key is already in the table are skipped, so a batch retried after an
// acknowledgement was lost is not written twice.
func (q *auditSQL) insert(ctx context.Context, db *sql.DB, rows []AuditRecord) error {
	if len(rows) == 0 {
		return nil
	}
	var b strings.Builder
	b.Grow(len(q.insertHead) + len(q.insertTail) + len(rows)*len(auditColumns)*5)
	b.WriteString(q.insertHead)
	args := make([]any, 0, len(rows)*len(auditColumns))
	n := 0
	for i, r := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for j := range auditColumns {
			if j > 0 {
				b.WriteString(", ")
			}
			n++
			if q.dialect == AuditPostgres {
				b.WriteByte('$')
				b.WriteString(strconv.Itoa(n))
			} else {
				b.WriteByte('?')
			}
		}
		b.WriteByte(')')
		args = append(args, r.Key, r.SessionID, int64(r.Step), r.ToolName, r.Status, r.ElapsedMS,
			r.OutputPreview, r.AgentName, r.Decision, r.Reason, r.Time.UTC(), r.Confinement, r.Layer, r.Rule, r.Input, r.InputBytes)
	}
	b.WriteString(q.insertTail)
	_, err := db.ExecContext(ctx, b.String(), args...)
	if err == nil {
		return nil
	}
	if ctxErr := ctx.Err(); ctxErr != nil && !errors.Is(err, ctxErr) {
		err = fmt.Errorf("%w (%w)", err, ctxErr)
	}
	return fmt.Errorf("hooks: audit log: writing %d rows to %s: %w", len(rows), q.table, err)
}

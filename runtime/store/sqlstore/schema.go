package sqlstore

import (
	"context"
	"database/sql"

	"github.com/toolgate/toolgate/internal/sqlschema"
)

// VersionTable is the table that holds the versions of the store's
// schema, one row per migration applied, under the subject
// [SchemaSubject]. The audit log of package hooks keeps its versions in a
// table of the same name, under its table's name.
const VersionTable = "toolgate_schema_versions"

// SchemaSubject names the store's tables in [VersionTable].
const SchemaSubject = "toolgate_store"

// storeSchema is the store's schema, step by step. Never change a step
// that has shipped: add one.
//
// Migration 1 is the schema as releases before versions created it, word
// for word (CREATE ... IF NOT EXISTS), so that it completes or adopts the
// tables such a release made. In PostgreSQL it first takes the advisory
// lock those releases took, so that one of them starting beside this code
// does not race it on CREATE TABLE.
func storeSchema(d sqlschema.Dialect) sqlschema.Set {
	id := "INTEGER PRIMARY KEY AUTOINCREMENT"
	var v1 []string
	if d == sqlschema.Postgres {
		id = "BIGSERIAL PRIMARY KEY"
		v1 = append(v1, `SELECT pg_advisory_xact_lock(7165431)`)
	}
	v1 = append(v1,
		`CREATE TABLE IF NOT EXISTS toolgate_grants (id `+id+`, scope INTEGER NOT NULL, gkey TEXT NOT NULL,
			rule TEXT NOT NULL, created BIGINT NOT NULL, UNIQUE (scope, gkey, rule))`,
		`CREATE TABLE IF NOT EXISTS toolgate_approvals (id TEXT PRIMARY KEY, session TEXT NOT NULL, body TEXT NOT NULL,
			created BIGINT NOT NULL, expires BIGINT NOT NULL, answered INTEGER NOT NULL DEFAULT 0,
			choice INTEGER NOT NULL DEFAULT 0, areason TEXT NOT NULL DEFAULT '', aby TEXT NOT NULL DEFAULT '',
			ascope INTEGER NOT NULL DEFAULT 0, answered_at BIGINT NOT NULL DEFAULT 0)`,
		`CREATE INDEX IF NOT EXISTS toolgate_approvals_pending ON toolgate_approvals (answered, created)`,
		`CREATE TABLE IF NOT EXISTS toolgate_cancels (session TEXT PRIMARY KEY, reason TEXT NOT NULL, created BIGINT NOT NULL)`,
		`CREATE TABLE IF NOT EXISTS toolgate_counters (session TEXT PRIMARY KEY, body TEXT NOT NULL, updated BIGINT NOT NULL)`,
	)
	return sqlschema.Set{
		Dialect:      d,
		Subject:      SchemaSubject,
		VersionTable: VersionTable,
		Migrations: []sqlschema.Migration{
			{Version: 1, Name: "grants, approvals, cancels and counters as releases before versions made them", Statements: v1},
		},
	}
}

// migrate brings the store's tables to the schema this code reads and
// writes, in one transaction: a failure leaves them as they were, and a
// database a newer release migrated is refused.
func migrate(ctx context.Context, db *sql.DB, d sqlschema.Dialect) error {
	set := storeSchema(d)
	if _, _, err := set.Apply(ctx, db); err != nil {
		return failed(ctx, "schema", err)
	}
	return nil
}

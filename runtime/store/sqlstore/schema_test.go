package sqlstore_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/runtime/store"
	"github.com/toolgate/toolgate/runtime/store/sqlstore"
)

// unversionedStore is the schema releases before versions made, word for
// word (%s is the dialect's auto-increment key).
const unversionedStore = `CREATE TABLE IF NOT EXISTS toolgate_grants (id %s, scope INTEGER NOT NULL, gkey TEXT NOT NULL,
	rule TEXT NOT NULL, created BIGINT NOT NULL, UNIQUE (scope, gkey, rule));
CREATE TABLE IF NOT EXISTS toolgate_approvals (id TEXT PRIMARY KEY, session TEXT NOT NULL, body TEXT NOT NULL,
	created BIGINT NOT NULL, expires BIGINT NOT NULL, answered INTEGER NOT NULL DEFAULT 0,
	choice INTEGER NOT NULL DEFAULT 0, areason TEXT NOT NULL DEFAULT '', aby TEXT NOT NULL DEFAULT '',
	ascope INTEGER NOT NULL DEFAULT 0, answered_at BIGINT NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS toolgate_approvals_pending ON toolgate_approvals (answered, created);
CREATE TABLE IF NOT EXISTS toolgate_cancels (session TEXT PRIMARY KEY, reason TEXT NOT NULL, created BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS toolgate_counters (session TEXT PRIMARY KEY, body TEXT NOT NULL, updated BIGINT NOT NULL)`

// storeUpgrade checks, on a database that an unversioned release wrote
// (one grant in it), that opening the store adopts the tables as version 1
// and keeps the grant, that a second open migrates nothing, and that a
// database a newer release migrated is refused.
func storeUpgrade(t *testing.T, db *sql.DB, id string, open func() (*sqlstore.Store, error), ph func(int) string) {
	t.Helper()
	for _, q := range strings.Split(fmt.Sprintf(unversionedStore, id), ";\n") {
		_, err := db.Exec(q)
		require.NoError(t, err, q)
	}
	_, err := db.Exec("INSERT INTO toolgate_grants (scope, gkey, rule, created) VALUES ("+ph(1)+", "+ph(2)+", "+ph(3)+", 1)",
		int(store.ScopeProject), "/w", "Bash(make build)")
	require.NoError(t, err)
	versions := func() []string {
		rows, err := db.Query("SELECT version, name FROM " + sqlstore.VersionTable + " WHERE subject = '" + sqlstore.SchemaSubject + "' ORDER BY version")
		require.NoError(t, err)
		defer rows.Close()
		var out []string
		for rows.Next() {
			var v int
			var name string
			require.NoError(t, rows.Scan(&v, &name))
			out = append(out, fmt.Sprint(v, " ", name))
		}
		require.NoError(t, rows.Err())
		return out
	}
	want := []string{"1 grants, approvals, cancels and counters as releases before versions made them"}
	for range 2 {
		st, err := open()
		require.NoError(t, err)
		gs, err := st.Grants(context.Background(), store.ScopeProject, "/w")
		require.NoError(t, err)
		assert.Equal(t, []string{"Bash(make build)"}, gs, "the grant an older release wrote survives the upgrade")
		require.NoError(t, st.Close())
		assert.Equal(t, want, versions(), "adopted once as version 1, not migrated again")
	}
	_, err = db.Exec("INSERT INTO "+sqlstore.VersionTable+" (subject, version, name, applied_at) VALUES ("+ph(1)+", 2, 'from the future', "+ph(2)+")",
		sqlstore.SchemaSubject, time.Unix(0, 0).UTC())
	require.NoError(t, err)
	_, err = open()
	require.Error(t, err, "a schema newer than this code is refused")
	assert.Contains(t, err.Error(), "schema is newer than this code: toolgate_store is at version 2, this code knows 1")
}

func TestSQLiteSchemaUpgradeFromUnversioned(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	defer db.Close()
	storeUpgrade(t, db, "INTEGER PRIMARY KEY AUTOINCREMENT", func() (*sqlstore.Store, error) {
		return sqlstore.OpenSQLite(context.Background(), path)
	}, func(int) string { return "?" })
}

func TestPostgresSchemaUpgradeFromUnversioned(t *testing.T) {
	dsn := postgresDSN(t)
	db, err := sql.Open("pgx", dsn)
	require.NoError(t, err)
	defer db.Close()
	schema := fmt.Sprintf("upgrade_%d", time.Now().UnixNano())
	_, err = db.Exec("CREATE SCHEMA " + schema)
	require.NoError(t, err)
	t.Cleanup(func() { _, _ = db.Exec("DROP SCHEMA " + schema + " CASCADE") })
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	sdsn := dsn + sep + "search_path=" + schema // pgx sends unknown parameters as run-time settings
	sdb, err := sql.Open("pgx", sdsn)
	require.NoError(t, err)
	defer sdb.Close()
	sdb.SetMaxOpenConns(1)
	storeUpgrade(t, sdb, "BIGSERIAL PRIMARY KEY", func() (*sqlstore.Store, error) {
		return sqlstore.OpenPostgres(context.Background(), sdsn)
	}, func(i int) string { return fmt.Sprintf("$%d", i) })
}

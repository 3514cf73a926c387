package sqlschema_test

import (
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	_ "modernc.org/sqlite"

	"github.com/toolgate/toolgate/internal/sqlschema"
)

func open(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "s.db"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	return db
}

func set(ms ...sqlschema.Migration) *sqlschema.Set {
	return &sqlschema.Set{Dialect: sqlschema.SQLite, Subject: "t", VersionTable: "versions", Migrations: ms}
}

var (
	m1 = sqlschema.Migration{Version: 1, Name: "t", Statements: []string{"CREATE TABLE t (a TEXT)"}}
	m2 = sqlschema.Migration{Version: 2, Name: "t.b", Statements: []string{"ALTER TABLE t ADD COLUMN b TEXT"}}
)

func TestApplyInOrderOnce(t *testing.T) {
	db := open(t)
	from, to, err := set(m1).Apply(t.Context(), db)
	require.NoError(t, err)
	assert.Equal(t, [2]int{0, 1}, [2]int{from, to})
	from, to, err = set(m1, m2).Apply(t.Context(), db)
	require.NoError(t, err)
	assert.Equal(t, [2]int{1, 2}, [2]int{from, to}, "only the new step runs")
	from, to, err = set(m1, m2).Apply(t.Context(), db)
	require.NoError(t, err)
	assert.Equal(t, [2]int{2, 2}, [2]int{from, to}, "a current schema is left alone")
	_, err = db.Exec("INSERT INTO t (a, b) VALUES ('x', 'y')")
	assert.NoError(t, err)
}

// A step that fails leaves the schema and the version as they were: the
// steps before it in the same Apply are rolled back with it.
func TestApplyFailureRollsBackEverything(t *testing.T) {
	db := open(t)
	bad := sqlschema.Migration{Version: 2, Name: "bad", Statements: []string{"ALTER TABLE t ADD COLUMN b TEXT", "ALTER TABLE nope ADD COLUMN c TEXT"}}
	_, _, err := set(m1, bad).Apply(t.Context(), db)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "sqlschema: t: migration 2 (bad): ")
	v, err := set(m1).Version(t.Context(), db)
	require.NoError(t, err)
	assert.Zero(t, v, "migration 1 was rolled back with 2")
	var n int
	require.NoError(t, db.QueryRow("SELECT COUNT(*) FROM sqlite_master WHERE name = 't'").Scan(&n))
	assert.Zero(t, n, "the table migration 1 made is gone too")
}

func TestApplyRefusesNewerAndMisnumbered(t *testing.T) {
	db := open(t)
	_, _, err := set(m1, m2).Apply(t.Context(), db)
	require.NoError(t, err)
	_, _, err = set(m1).Apply(t.Context(), db)
	assert.True(t, errors.Is(err, sqlschema.ErrNewer), "%v", err)
	assert.ErrorContains(t, err, "t is at version 2, this code knows 1")
	_, _, err = set(m2).Apply(t.Context(), db)
	assert.ErrorContains(t, err, "migration 1 is numbered 2")
}

// Tolerate accepts the errors that mean the step's work is done, and only
// those.
func TestApplyTolerates(t *testing.T) {
	db := open(t)
	_, err := db.Exec("CREATE TABLE t (a TEXT, b TEXT)")
	require.NoError(t, err)
	dup := func(err error) bool { return strings.Contains(err.Error(), "duplicate column name") }
	v1 := sqlschema.Migration{Version: 1, Name: "old", Tolerate: dup, Statements: []string{
		"CREATE TABLE IF NOT EXISTS t (a TEXT)", "ALTER TABLE t ADD COLUMN b TEXT"}}
	_, to, err := set(v1).Apply(t.Context(), db)
	require.NoError(t, err, "b exists: tolerated")
	assert.Equal(t, 1, to)
	v2 := sqlschema.Migration{Version: 2, Name: "c", Tolerate: dup, Statements: []string{"ALTER TABLE nope ADD COLUMN c TEXT"}}
	_, _, err = set(v1, v2).Apply(t.Context(), db)
	assert.ErrorContains(t, err, "no such table: nope", "another error is not tolerated")
}

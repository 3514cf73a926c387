package hooks_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/hooks"
)

func TestAuditConfinementColumn(t *testing.T) {
	db := auditSQLite(t, "confine.db")
	l, err := hooks.NewAuditLog(db, hooks.AuditOptions{})
	require.NoError(t, err)
	l.Record(hooks.AuditRecord{SessionID: "s", Step: 1, ToolName: "Bash", Status: hooks.AuditOK,
		Decision: "allow", Reason: "approved", Confinement: "landlock v7: fs, tcp, signal, abstract-unix"})
	l.Record(hooks.AuditRecord{SessionID: "s", Step: 2, ToolName: "Read", Status: hooks.AuditOK,
		Decision: "allow", Reason: "inside the roots"})
	require.NoError(t, l.Close(context.Background()))
	require.Equal(t, int64(2), l.Stats().Written)

	got := map[string]string{}
	rows, err := db.Query("SELECT tool_name, confinement FROM " + hooks.DefaultAuditTable)
	require.NoError(t, err)
	defer rows.Close()
	for rows.Next() {
		var tool, c string
		require.NoError(t, rows.Scan(&tool, &c))
		got[tool] = c
	}
	require.NoError(t, rows.Err())
	assert.Equal(t, map[string]string{"Bash": "landlock v7: fs, tcp, signal, abstract-unix", "Read": ""}, got)
}

func TestAuditConfinementColumnAddedToOlderTable(t *testing.T) {
	db := auditSQLite(t, "older.db")
	olderAuditTable(t, db)

	for range 2 { // a second log finds the column in place
		l, err := hooks.NewAuditLog(db, hooks.AuditOptions{Logger: auditQuiet()})
		require.NoError(t, err)
		require.NoError(t, l.EnsureTable(context.Background()))
		l.Record(hooks.AuditRecord{SessionID: "s", Step: 2, ToolName: "Bash", Status: hooks.AuditOK,
			Decision: "allow", Reason: "r", Confinement: "none: no Landlock; the command ran unconfined"})
		require.NoError(t, l.Close(context.Background()))
		assert.Equal(t, int64(1), l.Stats().Written)
		assert.Zero(t, l.Stats().Fallback)
	}
	var old, added string
	require.NoError(t, db.QueryRow("SELECT confinement FROM agent_audit_log WHERE row_key = 'old'").Scan(&old))
	require.NoError(t, db.QueryRow("SELECT confinement FROM agent_audit_log WHERE row_key <> 'old' LIMIT 1").Scan(&added))
	assert.Equal(t, "", old, "rows from before the column read as empty")
	assert.Equal(t, "none: no Landlock; the command ran unconfined", added)
	assert.Equal(t, 3, auditCount(t, db, hooks.DefaultAuditTable))
}

// olderAuditTable creates the audit table as it was before the
// confinement, layer and rule columns, with one row keyed "old".
func olderAuditTable(t *testing.T, db *sql.DB) {
	t.Helper()
	_, err := db.Exec(`CREATE TABLE agent_audit_log (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	row_key TEXT NOT NULL UNIQUE, session_id TEXT NOT NULL, step INTEGER NOT NULL,
	tool_name TEXT NOT NULL, status TEXT NOT NULL, elapsed_ms BIGINT NOT NULL,
	output_preview TEXT NOT NULL, agent_name TEXT NOT NULL, decision TEXT NOT NULL,
	reason TEXT NOT NULL, created_at TIMESTAMP NOT NULL)`)
	require.NoError(t, err)
	_, err = db.Exec(`INSERT INTO agent_audit_log (row_key, session_id, step, tool_name, status, elapsed_ms,
	output_preview, agent_name, decision, reason, created_at) VALUES ('old', 's', 1, 'Bash', 'OK', 1, '', '', 'allow', 'r', ?)`, time.Now().UTC())
	require.NoError(t, err)
}

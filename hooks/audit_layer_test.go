package hooks_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
)

// A PostToolUse event's layer and rule reach the audit row; a table from
// before those columns gains them, its old rows reading as empty.
func TestAuditLayerAndRuleColumns(t *testing.T) {
	db := auditSQLite(t, "layer.db")
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

	l, err := hooks.NewAuditLog(db, hooks.AuditOptions{Logger: auditQuiet()})
	require.NoError(t, err)
	h := l.Hook()
	denied := auditEvent("s", 2, "Read", "")
	denied.Decision, denied.Layer, denied.Rule, denied.Reason = permission.Deny, permission.LayerRules, "Read(./.env)", "denied by deny rule Read(./.env) (config)"
	_, err = h.PostToolUse(context.Background(), denied)
	require.NoError(t, err)
	unset := auditEvent("s", 3, "Read", "x") // no layer: an event a host built by hand
	_, err = h.PostToolUse(context.Background(), unset)
	require.NoError(t, err)
	require.NoError(t, l.Close(context.Background()))

	got := map[string][2]string{}
	rows, err := db.Query("SELECT row_key, step, layer, rule, reason FROM " + hooks.DefaultAuditTable + " ORDER BY step")
	require.NoError(t, err)
	defer rows.Close()
	var reasons []string
	for rows.Next() {
		var key, layer, rule, reason string
		var step int
		require.NoError(t, rows.Scan(&key, &step, &layer, &rule, &reason))
		got[map[int]string{1: "old", 2: "denied", 3: "unset"}[step]] = [2]string{layer, rule}
		reasons = append(reasons, reason)
	}
	require.NoError(t, rows.Err())
	assert.Equal(t, map[string][2]string{
		"old":    {"", ""},
		"denied": {"L2 rules", "Read(./.env)"},
		"unset":  {"", ""},
	}, got)
	assert.Equal(t, "denied by deny rule Read(./.env) (config)", reasons[1])
}

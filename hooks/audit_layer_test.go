package hooks_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
)

// A PostToolUse event's layer and rule reach the audit row; a table from
// before those columns gains them, its old rows reading as empty.
func TestAuditLayerAndRuleColumns(t *testing.T) {
	db := auditSQLite(t, "layer.db")
	olderAuditTable(t, db)

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

package mcpgateway_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/hooks"
)

// toolgate-mcp --audit keeps each call's input, with what looks secret
// masked by hooks.RedactSecrets, the audit log's default.
func TestGatewayAuditInputMasked(t *testing.T) {
	up := upstreams[0]
	e := newE2E(t, up.name, up.server, up.tools)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs := e.connect(t, ctx, "stdio")
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "mcp__go__write_file", Arguments: map[string]any{
		"path": filepath.Join(e.dir, "app.env"), "content": "DB_PASSWORD=hunter2\nAPI_TOKEN=\"abc def\"\n"}})
	require.NoError(t, err)
	assert.True(t, r.IsError, "the write asks and the person declines: %s", text(r))
	e.stop(t, cs, "stdio")

	db, err := sql.Open("sqlite", "file:"+e.audit+"?mode=ro")
	require.NoError(t, err)
	defer db.Close()
	var tool, decision, input string
	require.NoError(t, db.QueryRow("SELECT tool_name, decision, input FROM "+hooks.DefaultAuditTable+" ORDER BY id LIMIT 1").Scan(&tool, &decision, &input))
	assert.Equal(t, "mcp__go__write_file", tool)
	assert.Equal(t, "deny", decision)
	assert.Contains(t, input, `DB_PASSWORD=****\nAPI_TOKEN=\"****\"\n`, "the row keeps the input, masked")
	assert.Contains(t, input, `app.env`, "and says which file")
	assert.NotContains(t, input, "hunter2")
	assert.NotContains(t, input, "abc def")
}

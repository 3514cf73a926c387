package hooks_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
)

// auditMask is the redaction the tests give both the redacting PostToolUse
// hook and the audit log: it masks "tok-" tokens, keeping the prefix.
var auditMaskRE = regexp.MustCompile(`\btok-[A-Za-z0-9]{8,}`)

func auditMask(s string) string { return auditMaskRE.ReplaceAllString(s, "tok-****") }

// auditInputs reads the input columns of a table, by id.
func auditInputs(t testing.TB, db *sql.DB, table string) (inputs []string, sizes []int64) {
	t.Helper()
	rows, err := db.Query("SELECT input, input_bytes FROM " + table + " ORDER BY id")
	require.NoError(t, err)
	defer rows.Close()
	for rows.Next() {
		var in string
		var n int64
		require.NoError(t, rows.Scan(&in, &n))
		inputs, sizes = append(inputs, in), append(sizes, n)
	}
	require.NoError(t, rows.Err())
	return inputs, sizes
}

func TestAuditInputRedactedBySameFunctionAsTheOutput(t *testing.T) {
	db := auditSQLite(t, "audit.db")
	l, err := hooks.NewAuditLog(db, hooks.AuditOptions{Redact: auditMask})
	require.NoError(t, err)
	// The audit hook runs first: the preview is masked all the same.
	set := hooks.NewSet(l.Hook(), hooks.Redaction("redaction", auditMask))
	e := auditEvent("s1", 1, "Bash", "logged in with tok-abcdef123456\n")
	e.Input = json.RawMessage(`{"command":"curl -H 'Authorization: tok-abcdef123456' https://example.test"}`)
	out := set.PostToolUse(context.Background(), e)
	require.NoError(t, l.Close(context.Background()))

	assert.Equal(t, "logged in with tok-****\n", out.Output, "the model reads the output masked by the redaction hook")
	inputs, sizes := auditInputs(t, db, "agent_audit_log")
	want := `{"command":"curl -H 'Authorization: tok-****' https://example.test"}`
	assert.Equal(t, []string{want}, inputs, "the row keeps the input masked by the same function")
	assert.Equal(t, []int64{int64(len(want))}, sizes, "input_bytes is the redacted input's size: not cut")
	rows := auditRows(t, db, "agent_audit_log")
	require.Len(t, rows, 1)
	assert.Equal(t, "logged in with tok-****\n", rows[0].Preview, "the preview is masked even though the audit hook ran before the redaction hook")
}

func TestAuditInputCappedWithMark(t *testing.T) {
	db := auditSQLite(t, "audit.db")
	l, err := hooks.NewAuditLog(db, hooks.AuditOptions{Redact: auditMask})
	require.NoError(t, err)
	h := l.Hook()
	// A secret across the cut is masked before the cut: cut first, its
	// first characters ("tok-SEC", too short for the pattern) would stay.
	markLen := len("…[truncated: 12345 bytes in all]")
	k := (hooks.AuditInputBytes - markLen - len(`{"content":" tok-SEC`)) / 2
	long := `{"content":"` + strings.Repeat("é", k) + ` tok-SECRETSECRETSECRET ` + strings.Repeat("x", 3*hooks.AuditInputBytes) + `"}`
	require.Equal(t, hooks.AuditInputBytes-markLen, strings.Index(long, "tok-SEC")+len("tok-SEC"), "the secret straddles the cut")
	e := auditEvent("s1", 1, "Write", "")
	e.Input = json.RawMessage(long)
	auditPost(t, h, e)
	short := auditEvent("s1", 2, "Read", "")
	short.Input = json.RawMessage(`{"file_path":"/w/a.go"}`)
	auditPost(t, h, short)
	// The session-stop row has no input.
	require.NoError(t, h.SessionStop(context.Background(), hooks.SessionStopEvent{SessionID: "s1", Reason: "completed"}))
	require.NoError(t, l.Close(context.Background()))

	inputs, sizes := auditInputs(t, db, "agent_audit_log")
	require.Len(t, inputs, 3)
	redacted := auditMask(long)
	mark := fmt.Sprintf("…[truncated: %d bytes in all]", len(redacted))
	assert.LessOrEqual(t, len(inputs[0]), hooks.AuditInputBytes, "the cap holds, the mark included")
	assert.True(t, strings.HasSuffix(inputs[0], mark), "a cut input says so and how big it was: %q", inputs[0][len(inputs[0])-60:])
	assert.True(t, strings.HasPrefix(redacted, strings.TrimSuffix(inputs[0], mark)), "what is kept is the start of the redacted input")
	assert.NotContains(t, inputs[0], "SEC", "the secret is masked before the cut")
	assert.Contains(t, inputs[0], " tok-***…[truncated", "the masked token is what the cut falls in")
	assert.Equal(t, int64(len(redacted)), sizes[0], "input_bytes > len(input) marks the cut")
	assert.Equal(t, `{"file_path":"/w/a.go"}`, inputs[1])
	assert.Equal(t, int64(len(inputs[1])), sizes[1], "an input under the cap is kept whole")
	assert.Equal(t, "", inputs[2])
	assert.Zero(t, sizes[2])
}

func TestAuditRedactionThatPanicsKeepsNoText(t *testing.T) {
	l, err := hooks.NewAuditLog(auditSQLite(t, "audit.db"), hooks.AuditOptions{
		QueueSize: 1, Logger: auditQuiet(),
		Redact: func(s string) string { panic("cannot mask " + s) },
	})
	require.NoError(t, err)
	require.NoError(t, l.Close(context.Background()))
	// Closed: the row goes straight to the (memory) fallback, which is
	// where a row a host reads back shows what Record kept.
	l.Record(hooks.AuditRecord{SessionID: "s1", ToolName: "Bash", Input: `{"command":"echo tok-abcdef123456"}`, OutputPreview: "tok-abcdef123456"})
	rows := l.TakeFallback()
	require.Len(t, rows, 1)
	assert.Equal(t, hooks.AuditRedactionFailed, rows[0].Input, "a redaction that fails keeps a note, never the unmasked text")
	assert.Equal(t, hooks.AuditRedactionFailed, rows[0].OutputPreview)
}

func TestAuditFallbackRowsAreRedacted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fallback.jsonl")
	l, err := hooks.NewAuditLog(auditSQLite(t, "audit.db"), hooks.AuditOptions{FallbackPath: path, Redact: auditMask, Logger: auditQuiet()})
	require.NoError(t, err)
	require.NoError(t, l.Close(context.Background()))
	e := auditEvent("s1", 1, "Bash", "")
	e.Input = json.RawMessage(`{"command":"echo tok-abcdef123456"}`)
	auditPost(t, l.Hook(), e)
	rows := auditFallbackFile(t, path)
	require.Len(t, rows, 1)
	assert.Equal(t, `{"command":"echo tok-****"}`, rows[0].Input, "the fallback file never sees the secret either")
}

// auditV1 is the schema as the audit log created it before versions were
// kept (migration 1), copied word for word from that release so that the
// upgrade test starts from what users' databases hold, whatever the code
// says now. %s is the table, %s the index's name and %s its table.
const auditV1SQLite = `CREATE TABLE IF NOT EXISTS %[1]s (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	row_key TEXT NOT NULL UNIQUE,
	session_id TEXT NOT NULL,
	step INTEGER NOT NULL,
	tool_name TEXT NOT NULL,
	status TEXT NOT NULL,
	elapsed_ms BIGINT NOT NULL,
	output_preview TEXT NOT NULL,
	agent_name TEXT NOT NULL,
	decision TEXT NOT NULL,
	reason TEXT NOT NULL,
	created_at TIMESTAMP NOT NULL,
	confinement TEXT NOT NULL DEFAULT '',
	layer TEXT NOT NULL DEFAULT '',
	rule TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS %[1]s_session_id ON %[1]s (session_id)`

const auditV1Postgres = `CREATE TABLE IF NOT EXISTS %[1]s.%[2]s (
	id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
	row_key TEXT NOT NULL UNIQUE,
	session_id TEXT NOT NULL,
	step INTEGER NOT NULL,
	tool_name TEXT NOT NULL,
	status TEXT NOT NULL,
	elapsed_ms BIGINT NOT NULL,
	output_preview TEXT NOT NULL,
	agent_name TEXT NOT NULL,
	decision TEXT NOT NULL,
	reason TEXT NOT NULL,
	created_at TIMESTAMPTZ NOT NULL,
	confinement TEXT NOT NULL DEFAULT '',
	layer TEXT NOT NULL DEFAULT '',
	rule TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS %[2]s_session_id ON %[1]s.%[2]s (session_id)`

// auditUpgrade creates the unversioned schema with rows in it, opens the
// table with the current code, and checks that the rows survived, the new
// columns work and the version is recorded once.
func auditUpgrade(t *testing.T, db *sql.DB, table, versions string, ddl []string, ph func(int) string) {
	for _, stmt := range ddl {
		_, err := db.Exec(stmt)
		require.NoError(t, err, "the old schema: %s", stmt)
	}
	created := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	insert := "INSERT INTO " + table + " (row_key, session_id, step, tool_name, status, elapsed_ms, output_preview, agent_name, decision, reason, created_at, confinement, layer, rule) VALUES ("
	for i := 1; i <= 14; i++ {
		if i > 1 {
			insert += ", "
		}
		insert += ph(i)
	}
	insert += ")"
	for i, tool := range []string{"Read", "Bash"} {
		_, err := db.Exec(insert, fmt.Sprintf("old-%d", i), "s-old", i+1, tool, "OK", int64(10*i), "old output", "lead", "allow",
			"allowed by rule "+tool+"(*)", created, "", "L2 rules", tool+"(*)")
		require.NoError(t, err)
	}

	l, err := hooks.NewAuditLog(db, hooks.AuditOptions{Table: table, Redact: auditMask})
	require.NoError(t, err)
	require.NoError(t, l.EnsureTable(context.Background()), "the old table is migrated")
	e := auditEvent("s-new", 1, "Bash", "ok")
	e.Input = json.RawMessage(`{"command":"make test TOKEN=tok-abcdef123456"}`)
	auditPost(t, l.Hook(), e)
	require.NoError(t, l.Close(context.Background()))
	assert.Equal(t, hooks.AuditStats{Recorded: 1, Written: 1}, l.Stats())

	rows := auditRows(t, db, table)
	require.Len(t, rows, 3)
	for i, r := range rows[:2] {
		assert.Equal(t, fmt.Sprintf("old-%d", i), r.Key, "the old rows survive, in order")
		assert.Equal(t, "s-old", r.SessionID)
		assert.Equal(t, i+1, r.Step)
		assert.Equal(t, "old output", r.Preview)
		assert.True(t, r.Created.Equal(created), "created_at %v", r.Created)
	}
	assert.Equal(t, "s-new", rows[2].SessionID)
	inputs, sizes := auditInputs(t, db, table)
	assert.Equal(t, []string{"", "", `{"command":"make test TOKEN=tok-****"}`}, inputs, "old rows get an empty input; the new row its redacted input")
	assert.Equal(t, []int64{0, 0, int64(len(inputs[2]))}, sizes)

	versionRows := func() []string {
		r, err := db.Query("SELECT version, name FROM "+versions+" WHERE subject = "+ph(1)+" ORDER BY version", "agent_audit_log")
		require.NoError(t, err)
		defer r.Close()
		var out []string
		for r.Next() {
			var v int
			var name string
			require.NoError(t, r.Scan(&v, &name))
			out = append(out, fmt.Sprintf("%d %s", v, name))
		}
		require.NoError(t, r.Err())
		return out
	}
	want := []string{"1 the table as releases before versions made it", "2 the call's input, redacted and capped, and its size"}
	assert.Equal(t, want, versionRows(), "each migration recorded once")

	// Opening again changes nothing.
	l2, err := hooks.NewAuditLog(db, hooks.AuditOptions{Table: table})
	require.NoError(t, err)
	require.NoError(t, l2.EnsureTable(context.Background()))
	require.NoError(t, l2.Close(context.Background()))
	assert.Equal(t, want, versionRows(), "a current schema is not migrated again")

	// A schema newer than this code is refused, not written to.
	_, err = db.Exec("INSERT INTO "+versions+" (subject, version, name, applied_at) VALUES ("+ph(1)+", 3, 'from the future', "+ph(2)+")", "agent_audit_log", created)
	require.NoError(t, err)
	l3, err := hooks.NewAuditLog(db, hooks.AuditOptions{Table: table, Logger: auditQuiet(), MaxAttempts: 1})
	require.NoError(t, err)
	err = l3.EnsureTable(context.Background())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "schema is newer than this code: agent_audit_log is at version 3, this code knows 2")
	l3.Record(hooks.AuditRecord{SessionID: "s-future", ToolName: "Read", Status: hooks.AuditOK})
	require.NoError(t, l3.Close(context.Background()))
	assert.Equal(t, int64(1), l3.Stats().Fallback, "the row goes to the fallback")
	assert.Len(t, auditRows(t, db, table), 3)
}

func TestAuditUpgradeFromUnversionedSQLite(t *testing.T) {
	db := auditSQLite(t, "audit.db")
	ddl := strings.Split(fmt.Sprintf(auditV1SQLite, "agent_audit_log"), ";\n")
	auditUpgrade(t, db, "agent_audit_log", "toolgate_schema_versions", ddl, func(int) string { return "?" })
}

func TestAuditUpgradeFromUnversionedPostgres(t *testing.T) {
	db, schema := auditPostgres(t, auditPostgresDSN(t))
	ddl := strings.Split(fmt.Sprintf(auditV1Postgres, schema, "agent_audit_log"), ";\n")
	auditUpgrade(t, db, schema+".agent_audit_log", schema+".toolgate_schema_versions", ddl, func(i int) string { return fmt.Sprintf("$%d", i) })
}

// A table from before confinement, layer and rule: migration 1 completes
// it, as the releases before versions did.
func TestAuditUpgradeFromTableWithoutLayerSQLite(t *testing.T) {
	db := auditSQLite(t, "audit.db")
	_, err := db.Exec(`CREATE TABLE agent_audit_log (id INTEGER PRIMARY KEY AUTOINCREMENT, row_key TEXT NOT NULL UNIQUE,
		session_id TEXT NOT NULL, step INTEGER NOT NULL, tool_name TEXT NOT NULL, status TEXT NOT NULL, elapsed_ms BIGINT NOT NULL,
		output_preview TEXT NOT NULL, agent_name TEXT NOT NULL, decision TEXT NOT NULL, reason TEXT NOT NULL, created_at TIMESTAMP NOT NULL)`)
	require.NoError(t, err)
	l, err := hooks.NewAuditLog(db, hooks.AuditOptions{})
	require.NoError(t, err)
	e := auditEvent("s1", 1, "Read", "")
	e.Layer, e.Rule, e.Input = permission.LayerRules, "Read(*)", json.RawMessage(`{"file_path":"a"}`)
	auditPost(t, l.Hook(), e)
	require.NoError(t, l.Close(context.Background()))
	assert.Equal(t, hooks.AuditStats{Recorded: 1, Written: 1}, l.Stats())
	var layer, rule, input string
	require.NoError(t, db.QueryRow("SELECT layer, rule, input FROM agent_audit_log").Scan(&layer, &rule, &input))
	assert.Equal(t, []string{"L2 rules", "Read(*)", `{"file_path":"a"}`}, []string{layer, rule, input})
}

// Replicas opening a fresh schema together migrate it once.
func TestAuditPostgresConcurrentMigration(t *testing.T) {
	db, schema := auditPostgres(t, auditPostgresDSN(t))
	var wg sync.WaitGroup
	errs := make([]error, 6)
	for i := range errs {
		wg.Go(func() {
			l, err := hooks.NewAuditLog(db, hooks.AuditOptions{Table: schema + ".agent_audit_log"})
			if err == nil {
				err = l.EnsureTable(context.Background())
				_ = l.Close(context.Background())
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for _, err := range errs {
		assert.NoError(t, err)
	}
	var n, latest int
	require.NoError(t, db.QueryRow("SELECT COUNT(*), MAX(version) FROM "+schema+".toolgate_schema_versions").Scan(&n, &latest))
	assert.Equal(t, 2, n, "each migration applied and recorded once")
	assert.Equal(t, 2, latest)
}

// With the default options a row's input and preview are masked by
// RedactSecrets: a log is never unredacted by omission. NoRedaction is the
// explicit way to keep them as they are.
func TestAuditInputRedactedByDefault(t *testing.T) {
	in := `{"command":"curl -u admin:hunter2 -H 'Authorization: Bearer abcdefgh12345678' https://x.test","env":{"DB_PASSWORD":"s3cr3t"}}`
	for _, tc := range []struct {
		name           string
		opts           hooks.AuditOptions
		input, preview string
	}{
		{"default", hooks.AuditOptions{},
			`{"command":"curl -u admin:**** -H 'Authorization: Bearer ****' https://x.test","env":{"DB_PASSWORD":"****"}}`,
			"GITHUB_TOKEN=****\n"},
		{"opted out", hooks.AuditOptions{Redact: hooks.NoRedaction}, in, "GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := auditSQLite(t, "audit.db")
			l, err := hooks.NewAuditLog(db, tc.opts)
			require.NoError(t, err)
			e := auditEvent("s1", 1, "Bash", "GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789\n")
			e.Input = json.RawMessage(in)
			auditPost(t, l.Hook(), e)
			require.NoError(t, l.Close(context.Background()))
			inputs, _ := auditInputs(t, db, "agent_audit_log")
			assert.Equal(t, []string{tc.input}, inputs)
			if tc.name == "default" {
				assert.True(t, json.Valid([]byte(inputs[0])), "the masked input is still JSON")
			}
			rows := auditRows(t, db, "agent_audit_log")
			require.Len(t, rows, 1)
			assert.Equal(t, tc.preview, rows[0].Preview)
		})
	}
}

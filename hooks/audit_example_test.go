package hooks_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"time"

	_ "modernc.org/sqlite"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
)

// The audit log on an embedded SQLite database: every tool call and the
// session's end become rows of agent_audit_log. Rows the database cannot
// take go to the JSON-lines fallback file.
func ExampleAuditLog() {
	dir, err := os.MkdirTemp("", "audit")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)

	db, err := sql.Open("sqlite", filepath.Join(dir, "audit.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()

	audit, err := hooks.NewAuditLog(db, hooks.AuditOptions{
		FallbackPath: filepath.Join(dir, "audit-fallback.jsonl"),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	h := audit.Hook() // register it with the other hooks of the session

	ctx := context.Background()
	h.PostToolUse(ctx, hooks.PostToolUseEvent{
		SessionID: "s1", AgentName: "lead", Step: 1, ToolName: "Read",
		Output: "package main", Elapsed: 3 * time.Millisecond,
		Decision: permission.Allow, Reason: "allowed by rule Read(*)",
	})
	h.PostToolUse(ctx, hooks.PostToolUseEvent{
		SessionID: "s1", AgentName: "lead", Step: 2, ToolName: "Bash",
		Decision: permission.Deny, Reason: "denied by rule Bash(rm:*)",
	})
	h.SessionStop(ctx, hooks.SessionStopEvent{SessionID: "s1", AgentName: "lead", Step: 2, Reason: "completed"})

	// Close writes what is still queued.
	if err := audit.Close(ctx); err != nil {
		fmt.Println(err)
		return
	}
	st := audit.Stats()
	fmt.Printf("written %d, fallback %d, lost %d\n", st.Written, st.Fallback, st.Lost)

	rows, err := db.Query("SELECT step, tool_name, status, decision, reason FROM agent_audit_log ORDER BY id")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rows.Close()
	for rows.Next() {
		var step int
		var tool, status, decision, reason string
		if err := rows.Scan(&step, &tool, &status, &decision, &reason); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(step, tool, status, decision, reason)
	}
	// Output:
	// written 3, fallback 0, lost 0
	// 1 Read OK allow allowed by rule Read(*)
	// 2 Bash FAIL deny denied by rule Bash(rm:*)
	// 2 session SESSION_STOP  completed
}

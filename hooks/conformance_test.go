package hooks_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/hooks/hookstest"
)

// Every built-in hook keeps the whole contract, checked framework-free
// by hookstest.TestHook: what its answers mean as well as their timing.
func TestBuiltinHooksKeepTheContract(t *testing.T) {
	var c hooks.Cancellation
	m := &hooks.Metrics{Logger: slog.New(slog.DiscardHandler)}
	cmd, err := hooks.Command{Name: "command", Timeout: 5 * time.Second,
		Shell: `cat >/dev/null; echo '{"hookSpecificOutput":{"additionalContext":"seen"}}'`}.Hook()
	require.NoError(t, err)
	blocker, err := hooks.Command{Name: "command-blocks", Timeout: 5 * time.Second,
		Shell: `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"not here"}}'`}.Hook()
	require.NoError(t, err)
	db := auditSQLite(t, "contract.db")
	audit, err := hooks.NewAuditLog(db, hooks.AuditOptions{Logger: auditQuiet()})
	require.NoError(t, err)

	for name, h := range map[string]hooks.Hook{
		"cancellation":   c.Hook(),
		"metrics":        m.Hook(),
		"command":        cmd,
		"command-blocks": blocker,
		"audit":          audit.Hook(),
	} {
		t.Run(name, func(t *testing.T) {
			assert.NoError(t, hookstest.TestHook(h))
		})
	}
	require.NoError(t, audit.Close(context.Background()))
	assert.Positive(t, audit.Stats().Written, "the audit log wrote the suite's rows")
	assert.Zero(t, audit.Stats().Lost)
	assert.Positive(t, m.Snapshot().Total.Calls)
}

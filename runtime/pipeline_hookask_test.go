package runtime

import (
	"context"
	"testing"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
)

// TestPipelineHookAskSurvivesModes: a PreToolUse hook that asks for
// confirmation is the user's own check; no mode that lifts Asks lifts it
// (dontAsk, which never asks, denies it). The rules' Asks still yield.
func TestPipelineHookAskSurvivesModes(t *testing.T) {
	confirm := hooks.Hook{Name: "confirm-writes", Timeout: hooks.NoTimeout,
		PreToolUse: func(_ context.Context, e hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
			if e.ToolName == "Write" {
				return hooks.PermissionRequired("writes need a second look"), nil
			}
			return hooks.PreToolUseResult{}, nil
		}}
	w := newWorld(t, permission.Config{Default: permission.Allow, Ask: []string{"Read(./README.md)"}}, nil, confirm)
	write := in("file_path", "src/new.go", "content", "x")
	for _, tc := range []struct {
		mode   permission.Mode
		want   permission.Decision
		layer  permission.Layer
		rule   string
		reason string
	}{
		{permission.ModeDefault, permission.Ask, permission.LayerHooks, "hook:confirm-writes", "writes need a second look"},
		{permission.ModeBypassPermissions, permission.Ask, permission.LayerHooks, "hook:confirm-writes", "writes need a second look"},
		{permission.ModeAcceptEdits, permission.Ask, permission.LayerHooks, "hook:confirm-writes", "writes need a second look"},
		{permission.ModeAuto, permission.Ask, permission.LayerHooks, "hook:confirm-writes", "writes need a second look"},
		{permission.ModeDontAsk, permission.Deny, permission.LayerRules, "mode:dontAsk", "writes need a second look"},
	} {
		id := "s-" + tc.mode.String()
		w.start(t, id, tc.mode)
		runCases(t, w, id, []pcase{{tc.mode.String() + ": hook's ask", "Write", write, tc.want, tc.layer, tc.rule, tc.reason}})
	}
	w.start(t, "bypass-rule", permission.ModeBypassPermissions)
	runCases(t, w, "bypass-rule", []pcase{{"bypass lifts a rule's ask", "Read", in("file_path", "README.md"), permission.Allow, permission.LayerRules,
		"mode:bypassPermissions", "needs confirmation by ask rule Read(./README.md)"}})
}

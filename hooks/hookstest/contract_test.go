package hookstest_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/hooks/hookstest"
)

// Hooks that answer in time but break what an answer means: TestHook
// names each violation.
func TestHookReportsContractViolations(t *testing.T) {
	var n atomic.Int64
	for _, tc := range []struct {
		name string
		hook hooks.Hook
		want []string
	}{
		{"block without a reason", hooks.Hook{PreToolUse: func(_ context.Context, e hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
			if strings.Contains(string(e.Input), "rm -rf") {
				return hooks.Block("  "), nil
			}
			return hooks.PreToolUseResult{}, nil
		}}, []string{`PreToolUse Bash {"command":"rm -rf / --no-preserve-root"}: block without a reason`}},
		{"ask without a reason", hooks.Hook{PreToolUse: func(context.Context, hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
			return hooks.PermissionRequired(""), nil
		}}, []string{`PreToolUse Read {"file_path":"/work/project/.env"}: permission-required without a reason`}},
		{"input not an object", hooks.Hook{PreToolUse: func(context.Context, hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
			return hooks.MutateInput(json.RawMessage(`["ls"]`), ""), nil
		}}, []string{`PreToolUse Bash {"command":"ls -la"}: MutateInput gave "[\"ls\"]", not a JSON object`}},
		{"input with trailing data", hooks.Hook{PreToolUse: func(context.Context, hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
			return hooks.MutateInput(json.RawMessage(`{"command":"ls"} {"command":"rm -rf ~"}`), ""), nil
		}}, []string{`MutateInput gave "{\"command\":\"ls\"} {\"command\":\"rm -rf ~\"}", not a JSON object`}},
		{"block only once", hooks.Hook{PreToolUse: func(context.Context, hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
			if n.Add(1)%2 == 1 {
				return hooks.Block("no force pushes"), nil
			}
			return hooks.PreToolUseResult{}, nil
		}}, []string{`"no force pushes"`, "a Block that goes away on a retry lowers the hook's own Deny"}},
		{"output varies", hooks.Hook{PostToolUse: func(_ context.Context, e hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) {
			return hooks.MutateOutput(e.Output + time.Now().Format(time.RFC3339Nano)), nil
		}}, []string{"(MutateOutput must be deterministic)"}},
		{"output for a denied call", hooks.Hook{PostToolUse: func(_ context.Context, e hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) {
			return hooks.MutateOutput("[redacted] " + e.Output), nil
		}}, []string{`PostToolUse Bash {"command":"ls -la"} (denied): MutateOutput gave "[redacted] " for a call that was denied and did not run`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.hook.Name, tc.hook.Timeout = tc.name, time.Second
			err := hookstest.TestHook(tc.hook)
			require.Error(t, err)
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

// A hook that keeps the contract passes TestHook: it blocks with a
// reason, rewrites into an object, redacts deterministically and leaves
// denied calls alone.
func TestHookPassesAGoodHook(t *testing.T) {
	h := hooks.Hook{Name: "good", Timeout: time.Second,
		PreToolUse: func(_ context.Context, e hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
			switch {
			case strings.Contains(string(e.Input), "--force"):
				return hooks.Block("force pushes rewrite shared history"), nil
			case e.ToolName == "Bash":
				return hooks.MutateInput(json.RawMessage(`{"command":"ls"}`), "narrowed"), nil
			}
			return hooks.PreToolUseResult{}, nil
		},
		PostToolUse: func(_ context.Context, e hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) {
			if strings.Contains(e.Output, "AKIA") || strings.Contains(e.Output, "SECRET") {
				return hooks.MutateOutput("[redacted]"), nil
			}
			return hooks.PostToolUseResult{}, nil
		}}
	assert.NoError(t, hookstest.TestHook(h))
	assert.EqualError(t, hookstest.TestHook(hooks.Hook{Name: "none"}), `hook "none" has no callbacks`)
}

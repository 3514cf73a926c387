package hooks_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
)

func noopHook(name string, timeout int) hooks.Hook {
	h := hooks.Hook{
		Name: name,
		PreToolUse: func(context.Context, hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
			return hooks.PreToolUseResult{}, nil
		},
	}
	if timeout < 0 {
		h.Timeout = hooks.NoTimeout
	}
	return h
}

func benchChain(b *testing.B, s *hooks.Set) {
	defer s.Close()
	ctx := context.Background()
	ev := hooks.PreToolUseEvent{SessionID: "s1", AgentName: "lead", Step: 1, ToolName: "Bash", CallID: "c1", Input: json.RawMessage(`{"command":"ls"}`)}
	b.ReportAllocs()
	for b.Loop() {
		o := s.PreToolUse(ctx, ev)
		if o.Decision != permission.Allow {
			b.Fatalf("decision %v", o.Decision)
		}
	}
}

// BenchmarkPreToolUseNoop3Inline: three no-op hooks declared NoTimeout,
// run inline on the caller's goroutine.
func BenchmarkPreToolUseNoop3Inline(b *testing.B) {
	benchChain(b, hooks.NewSet(noopHook("a", -1), noopHook("b", -1), noopHook("c", -1)))
}

// BenchmarkPreToolUseNoop3Timed: three no-op hooks under the default 60 s
// timeout, run on a pooled worker goroutine.
func BenchmarkPreToolUseNoop3Timed(b *testing.B) {
	benchChain(b, hooks.NewSet(noopHook("a", 0), noopHook("b", 0), noopHook("c", 0)))
}

func BenchmarkPreToolUseEmpty(b *testing.B) {
	benchChain(b, hooks.NewSet())
}

// BenchmarkPreToolUseNoop1Timed: one no-op hook under the default timeout;
// the difference to Noop3Timed is the cost of a hook on the worker.
func BenchmarkPreToolUseNoop1Timed(b *testing.B) {
	benchChain(b, hooks.NewSet(noopHook("a", 0)))
}

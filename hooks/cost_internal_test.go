package hooks

import (
	"strconv"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/costtest"
)

// BenchmarkCommandOutputCost: reading a command hook's answer from its
// output (capped at Command.MaxOutput before it is read) over adversarial
// outputs of 1 KiB, 64 KiB and 1 MiB (a long reason, many unknown keys,
// deep nesting, a long run of white space); ns/KiB stays about the same as
// the output grows.
func BenchmarkCommandOutputCost(b *testing.B) {
	var r commandRunner
	shapes := []struct {
		name string
		make func(n int) string
	}{
		{"long-reason", func(n int) string {
			return costtest.Fill(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"`, "a", "", `"}}`, n)
		}},
		{"many-keys", func(n int) string {
			return costtest.FillN(`{`, func(i int) string { return `"k` + strconv.Itoa(i) + `":1` }, ",", `}`, n)
		}},
		{"deep-nesting", func(n int) string {
			unit := strings.Repeat("[", 100) + strings.Repeat("]", 100)
			return costtest.Fill(`{"x":[`, unit, ",", `]}`, n)
		}},
		{"white-space", func(n int) string { return costtest.Fill(`{"decision":"block",`, " ", "", `"reason":"r"}`, n) }},
	}
	for _, s := range shapes {
		costtest.Run(b, s.name, func(n int) (string, bool) { return s.make(n), true }, func(b *testing.B, out string) {
			res := commandResult{stdout: []byte(out)}
			for b.Loop() {
				if _, ok, err := r.answer(res); !ok && err == nil {
					b.Fatal("no answer read")
				}
			}
		})
	}
}

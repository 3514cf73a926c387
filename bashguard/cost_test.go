package bashguard

import (
	"context"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/costtest"
)

// BenchmarkJudgeCost: Judge over adversarial scripts of 1 KiB, 64 KiB and
// 1 MiB (many commands, a long word, many path arguments, a long pipeline, long
// && chains (with and without cd), a long loop body,
// nested subshells and command substitutions, many assignments); ns/KiB
// stays about the same as the script grows.
func BenchmarkJudgeCost(b *testing.B) {
	pol, paths := casePolicy("")
	g := New(pol)
	shapes := []struct {
		name string
		make func(n int) string
	}{
		{"many-commands", func(n int) string { return costtest.Fill("", "ls -la", "; ", "", n) }},
		{"long-word", func(n int) string { return costtest.Fill("echo ", "a", "", "", n) }},
		{"many-paths", func(n int) string { return costtest.Fill("cat", " src/a.go", "", "", n) }},
		{"pipeline", func(n int) string { return costtest.Fill("", "grep x", " | ", "", n) }},
		{"and-chain", func(n int) string { return costtest.Fill("", "ls src", " && ", "", n) }},
		{"cd-chain", func(n int) string { return costtest.Fill("", "cd src && ls", " && cd .. && ", "", n) }},
		{"loop", func(n int) string { return costtest.Fill("for f in a b c; do ", "wc -l \"$f\"", "; ", "; done", n) }},
		{"subshells", func(n int) string {
			unit := strings.Repeat("(", 50) + "ls" + strings.Repeat(")", 50)
			return costtest.Fill("", unit, "; ", "", n)
		}},
		{"substitutions", func(n int) string {
			unit := "echo " + strings.Repeat("$(echo ", 20) + "x" + strings.Repeat(")", 20)
			return costtest.Fill("", unit, "; ", "", n)
		}},
		{"assignments", func(n int) string { return costtest.Fill("", "A=1", " ", " ls", n) }},
		{"quotes", func(n int) string { return costtest.Fill("echo ", `"a'b"`, "", "", n) }},
	}
	for _, s := range shapes {
		costtest.Run(b, s.name, func(n int) (string, bool) { return s.make(n), true }, func(b *testing.B, script string) {
			for b.Loop() {
				if v := g.Judge(context.Background(), testWork, paths, script); v.Reason == "" {
					b.Fatal("no reason")
				}
			}
		})
	}
}

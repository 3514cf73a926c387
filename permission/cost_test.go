package permission

import (
	"strconv"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/costtest"
)

// BenchmarkSettingsCost: ParseSettings over adversarial settings files of
// 1 KiB, 64 KiB and 1 MiB (many rules, one long rule, deep nesting in an
// unknown key, many unknown keys, a long run of white space); ns/KiB stays
// about the same as the file grows.
func BenchmarkSettingsCost(b *testing.B) {
	shapes := []struct {
		name string
		make func(n int) string
	}{
		{"many-rules", func(n int) string {
			return costtest.FillN(`{"permissions":{"allow":[`, func(i int) string { return `"Bash(git sub` + strconv.Itoa(i) + `:*)"` }, ",", `]}}`, n)
		}},
		{"long-rule", func(n int) string { return costtest.Fill(`{"permissions":{"deny":["Bash(echo `, "a", "", `)"]}}`, n) }},
		{"deep-nesting", func(n int) string {
			unit := strings.Repeat("[", 60) + strings.Repeat("]", 60)
			return costtest.Fill(`{"x":[`, unit, ",", `]}`, n)
		}},
		{"many-keys", func(n int) string {
			return costtest.FillN(`{`, func(i int) string { return `"k` + strconv.Itoa(i) + `":1` }, ",", `}`, n)
		}},
		{"white-space", func(n int) string { return costtest.Fill(`{"permissions":{"allow":["Read"]`, " ", "", `}}`, n) }},
	}
	for _, s := range shapes {
		costtest.Run(b, s.name, func(n int) (string, bool) { return s.make(n), true }, func(b *testing.B, in string) {
			for b.Loop() {
				// A file refused (a rule too long, nesting too deep) is
				// measured as well: the refusal is the decision.
				_, _ = ParseSettings([]byte(in), "/p/.claude/settings.json", ScopeProject)
			}
		})
	}
}

// BenchmarkRulesCost: compiling rule strings (New) over adversarial sets
// of 1 KiB, 64 KiB and 1 MiB of rule text (many rules, one long rule, a
// rule of many stars, many path rules), and one Check against them.
func BenchmarkRulesCost(b *testing.B) {
	shapes := []struct {
		name  string
		rules func(n int) []string
		req   Request
	}{
		{"many-rules", func(n int) []string {
			return fill(n, func(i int) string { return "Bash(git sub" + strconv.Itoa(i) + ":*)" })
		},
			Request{Tool: "Bash", Kind: KindExec, Command: []string{"git", "sub7", "x"}}},
		{"long-rule", func(n int) []string { return []string{"Bash(echo " + strings.Repeat("a", n-12) + ")"} },
			Request{Tool: "Bash", Kind: KindExec, Command: []string{"echo", strings.Repeat("a", 1000)}}},
		{"stars", func(n int) []string { return []string{"Bash(echo " + strings.Repeat("a*", (n-12)/2) + ")"} },
			Request{Tool: "Bash", Kind: KindExec, Command: []string{"echo", strings.Repeat("ab", 1000)}}},
		{"path-rules", func(n int) []string {
			return fill(n, func(i int) string { return "Read(./d" + strconv.Itoa(i) + "/**)" })
		},
			Request{Tool: "Read", Kind: KindRead, Path: "/p/d7/x/y.go"}},
	}
	for _, s := range shapes {
		costtest.Run(b, s.name, func(n int) (string, bool) { return strings.Join(s.rules(n), "\n"), true }, func(b *testing.B, in string) {
			rules := strings.Split(in, "\n")
			for b.Loop() {
				c, err := New(Config{Allow: rules, Default: Ask, WorkDir: "/p"})
				if err != nil {
					continue // refused (a rule too long): the refusal is measured
				}
				if r := c.Check(&s.req, nil); r.Reason == "" {
					b.Fatal("no reason")
				}
			}
		})
	}
}

func fill(n int, rule func(i int) string) []string {
	var out []string
	for i, size := 0, 0; ; i++ {
		r := rule(i)
		if size+len(r)+1 > n {
			return out
		}
		out, size = append(out, r), size+len(r)+1
	}
}

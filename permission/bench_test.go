package permission

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mixedRules returns n rules over many tools: shell rules of every form,
// path rules, domain rules and tool-name globs, a third of each decision.
func mixedRules(n int) Config {
	cfg := Config{Default: Allow, WorkDir: "/home/u/proj", Home: "/home/u"}
	forms := []func(i int) string{
		func(i int) string { return fmt.Sprintf("Bash(cmd%d run test:*)", i) },
		func(i int) string { return fmt.Sprintf("Bash(tool%d * main)", i) },
		func(i int) string { return fmt.Sprintf("Read(./dir%d/**)", i) },
		func(i int) string { return fmt.Sprintf("Edit(//srv/app%d/**/*.go)", i) },
		func(i int) string { return fmt.Sprintf("WebFetch(domain:*.site%d.example)", i) },
		func(i int) string { return fmt.Sprintf("mcp__server%d__*", i) },
		func(i int) string { return fmt.Sprintf("Bash(git%d status)", i) },
	}
	// The rules the requests below are about come first.
	cfg.Deny = []string{"Bash(rm:*)", "Read(~/.ssh/**)", "WebFetch(domain:evil.example)"}
	cfg.Ask = []string{"Bash(git push:*)", "Edit(./.github/**)"}
	cfg.Allow = []string{"Bash(git:*)", "Bash(npm run test:*)", "Read(./src/**)", "WebFetch(domain:*.golang.org)", "mcp__github__*"}
	for i := 0; len(cfg.Deny)+len(cfg.Ask)+len(cfg.Allow) < n; i++ {
		r := forms[i%len(forms)](i)
		switch i % 3 {
		case 0:
			cfg.Deny = append(cfg.Deny, r)
		case 1:
			cfg.Ask = append(cfg.Ask, r)
		default:
			cfg.Allow = append(cfg.Allow, r)
		}
	}
	return cfg
}

func mixedRequests() []Request {
	return []Request{
		{Tool: "Bash", Kind: KindExec, Command: []string{"git", "status"}},
		{Tool: "Bash", Kind: KindExec, Command: []string{"git", "push", "origin", "main"}},
		{Tool: "Bash", Kind: KindExec, Command: []string{"/bin/rm", "-rf", "x"}},
		{Tool: "Bash", Kind: KindExec, Command: []string{"npm", "run", "test", "--", "-v"}},
		{Tool: "Bash", Kind: KindExec, Command: []string{"make", "build"}},
		{Tool: "Read", Group: "Read", Kind: KindRead, Path: "/home/u/proj/src/pkg/a.go"},
		{Tool: "Read", Group: "Read", Kind: KindRead, Path: "/home/u/.ssh/id_rsa"},
		{Tool: "Write", Group: "Edit", Kind: KindEdit, Path: "/home/u/proj/.github/workflows/ci.yml"},
		{Tool: "WebFetch", Kind: KindNetwork, Domain: "pkg.go.golang.org"},
		{Tool: "WebFetch", Kind: KindNetwork, Domain: "evil.example"},
		{Tool: "mcp__github__create_issue", Kind: KindOther},
		{Tool: "TodoWrite", Kind: KindOther},
	}
}

var wantMixed = []Decision{Allow, Ask, Deny, Allow, Allow, Allow, Deny, Ask, Allow, Deny, Allow, Allow}

func TestMixedDecisions(t *testing.T) {
	for _, n := range []int{50, 10000} {
		c, err := New(mixedRules(n))
		require.NoError(t, err)
		for i, req := range mixedRequests() {
			r := c.Check(&req, nil)
			assert.Equal(t, wantMixed[i], r.Decision, "%d rules, request %d: %s", n, i, r.Reason)
			assert.NotEmpty(t, r.Reason)
		}
	}
}

// TestCheckDoesNotAllocate guards the hot path: a decision allocates
// nothing, with 50 rules or 10,000, with or without session rules.
func TestCheckDoesNotAllocate(t *testing.T) {
	for _, n := range []int{50, 10000} {
		c, err := New(mixedRules(n))
		require.NoError(t, err)
		s := c.NewSession()
		require.NoError(t, s.Add(Allow, "Bash(make build)"))
		reqs := mixedRequests()
		allocs := testing.AllocsPerRun(100, func() {
			for i := range reqs {
				r := c.Check(&reqs[i], s)
				if r.Reason == "" {
					panic("no reason")
				}
			}
		})
		assert.Zero(t, allocs, "%d rules", n)
	}
}

func benchmarkCheck(b *testing.B, n int) {
	c, err := New(mixedRules(n))
	if err != nil {
		b.Fatal(err)
	}
	reqs := mixedRequests()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		req := &reqs[i%len(reqs)]
		if r := c.Check(req, nil); r.Reason == "" {
			b.Fatal("no reason")
		}
	}
}

// BenchmarkCheck measures one decision over mixed tools with 50 rules and
// with 10,000 rules, side by side: the second should cost at most twice the
// first.
func BenchmarkCheck(b *testing.B) {
	for _, n := range []int{50, 1000, 10000} {
		b.Run(fmt.Sprintf("rules=%d", n), func(b *testing.B) { benchmarkCheck(b, n) })
	}
}

func BenchmarkCombine(b *testing.B) {
	c, err := New(mixedRules(50))
	if err != nil {
		b.Fatal(err)
	}
	req := &Request{Tool: "Bash", Kind: KindExec, Command: []string{"git", "push"}}
	tool := Result{Decision: Ask, Layer: LayerShell, Source: SourceToolAsk, Rule: "shell:unknown", Reason: "not on the safe list"}
	b.ReportAllocs()
	for b.Loop() {
		r := Combine(ModeDefault, Call{Tool: "Bash", Kind: KindExec}, c.Check(req, nil), tool)
		if r.Decision != Ask {
			b.Fatal(r.Reason)
		}
	}
}

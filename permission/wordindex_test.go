package permission

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestWordIndexFindsWhatAScanFinds: the rules filed by their literal
// leading words are found exactly as trying every rule in order would
// find them: the first match of each decision, by the command and, for
// deny and ask rules, by its base name.
func TestWordIndexFindsWhatAScanFinds(t *testing.T) {
	vocab := []string{"git", "/usr/bin/git", "commit", "push", "-m", "x", "*", "a*", "git*", "rm", "/bin/rm"}
	rng := rand.New(rand.NewPCG(1, 2))
	word := func() string { return vocab[rng.IntN(len(vocab))] }
	for round := range 200 {
		var cfg Config
		for range 30 {
			n := 1 + rng.IntN(4)
			ws := make([]string, n)
			for i := range ws {
				ws[i] = word()
			}
			if ws[0] == "*" && n == 1 {
				ws[0] = "git"
			}
			spec := strings.Join(ws, " ")
			if strings.Contains(ws[0], "/") {
				spec = strings.TrimPrefix(spec, "/usr/bin/")
				spec = strings.TrimPrefix(spec, "/bin/")
			}
			if rng.IntN(3) == 0 && !strings.HasSuffix(spec, "*") {
				spec += ":*"
			}
			rule := "Bash(" + spec + ")"
			switch rng.IntN(3) {
			case 0:
				cfg.Deny = append(cfg.Deny, rule)
			case 1:
				cfg.Ask = append(cfg.Ask, rule)
			default:
				cfg.Allow = append(cfg.Allow, rule)
			}
		}
		c, err := New(cfg)
		if err != nil {
			continue // a generated rule the parser refuses
		}
		for range 50 {
			cmd := make([]string, 1+rng.IntN(4))
			for i := range cmd {
				cmd[i] = word()
			}
			req := &Request{Tool: "Bash", Kind: KindExec, Command: cmd}
			var got, want firstMatches
			c.rules.scan(req, &got)
			for _, r := range c.rules.rules {
				if r.matches(req, cmd[0]) || r.matchesBase(req) {
					want.consider(r)
				}
			}
			for d := range got {
				if got[d] != want[d] {
					t.Fatalf("round %d, rules %v, command %q, %s: index found %v, a scan %v", round, cfg, cmd, Decision(d), text(got[d]), text(want[d]))
				}
			}
		}
	}
}

func text(r *compiledRule) string {
	if r == nil {
		return "none"
	}
	return r.text
}

// BenchmarkSharedFirstWord: rules that share their first word (10,000
// "Bash(git sub-i:*)" rules) cost at most twice what 50 do, the literal
// words below the first being indexed too.
func BenchmarkSharedFirstWord(b *testing.B) {
	for _, n := range []int{50, 1000, 10000} {
		b.Run(fmt.Sprintf("rules=%d", n), func(b *testing.B) {
			var cfg Config
			for i := range n {
				cfg.Allow = append(cfg.Allow, fmt.Sprintf("Bash(git sub%d:*)", i))
			}
			cfg.Deny = []string{"Bash(rm:*)"}
			c, err := New(cfg)
			if err != nil {
				b.Fatal(err)
			}
			req := &Request{Tool: "Bash", Kind: KindExec, Command: []string{"git", fmt.Sprintf("sub%d", n/2), "--all"}}
			b.ReportAllocs()
			for b.Loop() {
				if r := c.Check(req, nil); r.Decision != Allow {
					b.Fatal(r.Reason)
				}
			}
		})
	}
}

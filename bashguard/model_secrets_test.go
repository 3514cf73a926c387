package bashguard

import (
	"context"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// secretLine is a command line generated from a row of secretPrints,
// with the words a rule must name to lift its Ask (none: the line must
// not meet the row).
type secretLine struct {
	line  string
	named []string
}

// secretLines generates, from the row r of the program name, the lines
// that meet it in every spelling the row's conditions take (the flag
// exact, abbreviated, in a cluster; the resource as a kind, a name, a
// group, a list; the format attached, "="-joined and as the next word; a
// value-taking option between the path's words), and the lines that miss
// one condition each, which must not be refused for the row.
func secretLines(name string, r *secretPrint) (meet, miss []secretLine) {
	path := strings.Fields(r.path)
	s, whole := secretSpec(name)
	opt := "--some-option"
	if whole {
		opt = "--namespace" // kubectl and oc: one of the spec's, which lists them all
	}
	between := func(ws []string) []string {
		// An option and its value inside the path (kubectl -n ns get).
		if len(ws) == 0 {
			return ws
		}
		return append([]string{ws[0], opt, "v"}, ws[1:]...)
	}
	base := [][]string{append([]string{name}, path...), append([]string{name}, between(path)...)}
	if len(s.subs) > 0 {
		// gh: each subcommand's spec reads its own options, after its
		// name (cobra reads them before it too, which asks here).
		base = base[:1]
	}
	if r.path == "" {
		base = [][]string{{name, "work/db"}}
		for _, w := range strings.Fields(r.except) {
			miss = append(miss, secretLine{line: name + " " + w})
		}
	}
	flags, res, formats := flagParts(s, r), resParts(r), formatParts(s, r)
	for _, b := range base {
		for _, fl := range flags {
			for _, rs := range res {
				for _, fm := range formats {
					ws := slices.Concat(b, rs.words, fl.words, fm.words)
					meet = append(meet, secretLine{strings.Join(ws, " "), namedBy(r, b, fl, rs)})
				}
			}
		}
	}
	// Each condition missed in turn.
	if r.path != "" {
		short := append([]string{name}, path[:len(path)-1]...)
		miss = append(miss, secretLine{line: strings.Join(append(short, "help"), " ")})
	}
	w := append([]string{name}, path...)
	if r.flags != "" {
		miss = append(miss, secretLine{line: strings.Join(slices.Concat(w, res[0].words, formats[0].words), " ")})
	}
	if r.res != "" {
		miss = append(miss, secretLine{line: strings.Join(slices.Concat(w, []string{"pods"}, flags[0].words, formats[0].words), " ")})
	}
	if r.format != "" {
		for _, p := range strings.Fields(r.plain) {
			miss = append(miss, secretLine{line: strings.Join(slices.Concat(w, res[0].words, flags[0].words, []string{"-o", p}), " ")})
		}
		miss = append(miss, secretLine{line: strings.Join(slices.Concat(w, res[0].words, flags[0].words), " ")})
	}
	return meet, miss
}

// namedBy are the words a rule must name to lift the Ask of the line
// base (with the row's path), fl and rs: the option and the resource,
// or else the path (or, without one, the operand).
func namedBy(r *secretPrint, base []string, fl, rs linePart) []string {
	var named []string
	for _, n := range []string{fl.named, rs.named} {
		if n != "" {
			named = append(named, n)
		}
	}
	switch {
	case len(named) > 0:
		return named
	case r.path != "":
		return strings.Fields(r.path)
	}
	return base[1:]
}

// linePart is an option or operand that meets a row, with the word a
// rule names for it.
type linePart struct {
	words []string
	named string
}

// flagParts are the spellings of the row's options by the spec s: each
// exact (a value after one that takes it), abbreviated where s takes
// abbreviations, a letter after another in a cluster, a one-dash name
// with two dashes where s reads it so. A row without options has one
// empty part.
func flagParts(s *spec, r *secretPrint) []linePart {
	if r.flags == "" {
		return []linePart{{}}
	}
	var flags []linePart
	for _, f := range strings.Fields(r.flags) {
		val := []string{}
		if sp := specSpelling(s, f); sp != nil && sp.arg == argRequired {
			val = []string{"v"}
		}
		flags = append(flags, linePart{append([]string{f}, val...), f})
		switch {
		case strings.HasPrefix(f, "--"):
			if len(f) > 5 && s.grammar.abbrev {
				flags = append(flags, linePart{append([]string{f[:len(f)-1]}, val...), f[:len(f)-1]})
			}
		case len(f) == 2:
			c := clusterMate(s, f[1])
			flags = append(flags, linePart{append([]string{"-" + c + f[1:]}, val...), "-" + c + f[1:]})
		case s.grammar.twoDashes:
			flags = append(flags, linePart{[]string{"-" + f}, "-" + f})
		}
	}
	return flags
}

// resParts are the row's resources as a kind, a name, a group, a list.
func resParts(r *secretPrint) []linePart {
	if r.res == "" {
		return []linePart{{}}
	}
	var res []linePart
	for _, n := range strings.Fields(r.res) {
		up := strings.ToUpper(n[:1]) + n[1:]
		for _, w := range []string{n, up + "/db", n + ".v1", "pods," + n, "default." + n} {
			res = append(res, linePart{[]string{w}, w})
		}
	}
	return res
}

// formatParts are the row's formats attached, "="-joined, as the next
// word and in a cluster.
func formatParts(s *spec, r *secretPrint) []linePart {
	if r.format == "" {
		return []linePart{{}}
	}
	var formats []linePart
	for _, f := range strings.Fields(r.format) {
		if strings.HasPrefix(f, "--") {
			formats = append(formats, linePart{words: []string{f + "=yaml"}}, linePart{words: []string{f, "json"}})
			continue
		}
		formats = append(formats, linePart{words: []string{f + "yaml"}}, linePart{words: []string{f + "=json"}},
			linePart{words: []string{f, "jsonpath={.data}"}}, linePart{words: []string{"-" + clusterMate(s, f[1]) + f[1:] + "yaml"}})
	}
	return formats
}

// clusterMate is a letter a cluster may begin with before l: one the
// spec s reads as a flag without a value, or, where it knows none, one
// it does not know (the row is then met for the cluster it cannot read).
func clusterMate(s *spec, l byte) string {
	for c := byte('A'); c <= 'z'; c++ {
		if sp := s.tables().short[c]; c != l && sp != nil && sp.arg == argNone {
			return string(c)
		}
	}
	for c := byte('a'); c <= 'z'; c++ {
		if c != l && s.tables().short[c] == nil && strings.IndexByte("hv", c) < 0 {
			return string(c)
		}
	}
	panic("no letter")
}

// Every row of secretPrints, in every spelling its conditions take, is
// an Ask for the row, which only a rule naming the row's words lifts,
// and the same lines with a condition missed are not refused for it.
func TestSecretPrintsRefused(t *testing.T) {
	dir, paths := specRepo(t)
	pol := DefaultPolicy()
	pol.Home = t.TempDir()
	g := New(pol)
	meets, misses := 0, 0
	for _, name := range slices.Sorted(maps.Keys(secretPrints())) {
		rows := secretPrints()[name]
		for i := range rows {
			r := &rows[i]
			meet, miss := secretLines(name, r)
			for _, l := range meet {
				meets++
				v := g.Judge(context.Background(), dir, paths, l.line)
				assert.Equal(t, "ask", v.Decision.String(), "%q (%s)", l.line, v.Reason)
				assert.Equal(t, RuleSecretCredential, v.Rule, "%q: refused as a print of a credential (%s)", l.line, v.Reason)
				assert.Regexp(t, ` (prints|may print) `+regexp.QuoteMeta(r.why), v.Reason, "%q", l.line)
				if assert.Len(t, v.Commands, 1, l.line) {
					assert.False(t, v.Commands[0].Overridable, "%q: a rule for the command alone lifts it", l.line)
					assert.Equal(t, l.named, v.Commands[0].LiftedBy, "%q: the words a rule must name (%s)", l.line, v.Reason)
				}
			}
			for _, l := range miss {
				misses++
				v := g.Judge(context.Background(), dir, paths, l.line)
				assert.NotContains(t, v.Reason, " prints "+r.why, "%q: refused for the row it misses", l.line)
				for _, c := range v.Commands {
					for _, f := range c.Asks {
						assert.NotEqual(t, RuleSecretCredential, f.Rule, "%q: refused as a print of a credential (%s)", l.line, v.Reason)
					}
				}
			}
		}
	}
	t.Logf("%d lines that print a credential, %d that do not", meets, misses)
	require.Greater(t, meets, 200)
	require.Greater(t, misses, 60)
}

// A program that xargs runs with arguments from its input may be given
// the words of a row: asked, whatever the command's own words.
func TestSecretPrintsAppendedByXargs(t *testing.T) {
	dir, paths := specRepo(t)
	g := New(DefaultPolicy())
	for _, line := range []string{"echo secrets | xargs kubectl get -o yaml", "echo token | xargs gh auth", "xargs -n1 aws configure get < keys.txt"} {
		v := g.Judge(context.Background(), dir, paths, line)
		assert.Equal(t, "ask", v.Decision.String(), "%q (%s)", line, v.Reason)
		assert.Equal(t, RuleSecretCredential, v.Rule, "%q (%s)", line, v.Reason)
		assert.Contains(t, v.Reason, "may print a credential with the arguments xargs reads", line)
	}
}

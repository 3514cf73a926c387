package bashguard

import (
	"context"
	"maps"
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
	between := func(ws []string) []string {
		// An option and its value inside the path (kubectl -n ns get).
		if len(ws) == 0 {
			return ws
		}
		return append([]string{ws[0], "--some-option", "v"}, ws[1:]...)
	}
	base := [][]string{append([]string{name}, path...), append([]string{name}, between(path)...)}
	if r.path == "" {
		base = [][]string{{name, "work/db"}}
		for _, w := range strings.Fields(r.except) {
			miss = append(miss, secretLine{line: name + " " + w})
		}
	}
	// The options and operands that meet the row, each with the word a
	// rule names.
	type part struct {
		words []string
		named string
	}
	var flags, res, formats []part
	if r.flags != "" {
		for _, f := range strings.Fields(r.flags) {
			flags = append(flags, part{[]string{f}, f})
			switch {
			case strings.HasPrefix(f, "--"):
				if len(f) > 5 {
					flags = append(flags, part{[]string{f[:len(f)-1]}, f[:len(f)-1]})
				}
			case len(f) == 2:
				c := clusterMate(name, f[1])
				flags = append(flags, part{[]string{"-" + c + f[1:]}, "-" + c + f[1:]})
			default:
				flags = append(flags, part{[]string{"-" + f}, "-" + f})
			}
		}
	} else {
		flags = []part{{}}
	}
	if r.res != "" {
		for _, n := range strings.Fields(r.res) {
			up := strings.ToUpper(n[:1]) + n[1:]
			for _, w := range []string{n, up + "/db", n + ".v1", "pods," + n, "default." + n} {
				res = append(res, part{[]string{w}, w})
			}
		}
	} else {
		res = []part{{}}
	}
	if r.format != "" {
		for _, f := range strings.Fields(r.format) {
			if strings.HasPrefix(f, "--") {
				formats = append(formats, part{words: []string{f + "=yaml"}}, part{words: []string{f, "json"}})
				continue
			}
			formats = append(formats, part{words: []string{f + "yaml"}}, part{words: []string{f + "=json"}},
				part{words: []string{f, "jsonpath={.data}"}}, part{words: []string{"-" + clusterMate(name, f[1]) + f[1:] + "yaml"}})
		}
	} else {
		formats = []part{{}}
	}
	for _, b := range base {
		for _, fl := range flags {
			for _, rs := range res {
				for _, fm := range formats {
					ws := slices.Concat(b, rs.words, fl.words, fm.words)
					var named []string
					for _, n := range []string{fl.named, rs.named} {
						if n != "" {
							named = append(named, n)
						}
					}
					if len(named) == 0 {
						named = append(named, b[1:]...)
						if r.path != "" {
							named = path
						}
					}
					meet = append(meet, secretLine{strings.Join(ws, " "), named})
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

// clusterMate is a letter that does not take a value for the program
// name (by its netTools row), nor is l: one a cluster may begin with.
func clusterMate(name string, l byte) string {
	valued := ""
	if t := netTools()[name]; t != nil {
		valued = t.valShort
	}
	for c := byte('a'); c <= 'z'; c++ {
		if c != l && strings.IndexByte(valued, c) < 0 && strings.IndexByte("hv", c) < 0 {
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
				assert.Contains(t, v.Reason, " prints "+r.why, "%q", l.line)
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

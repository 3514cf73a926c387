package bashguard

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// secretCases are the lines of testdata/secrets.json, by command: what
// the guard says of each (always an Ask), by which rule and why, and the
// words an allow rule must name to lift it; a line without lifted_by is
// lifted by an allow rule for the command ("Bash(kubectl get:*)").
type secretCases struct {
	Command string `json:"command"`
	Lines   []struct {
		Line     string   `json:"line"`
		Rule     string   `json:"rule"`
		Reason   string   `json:"reason"`
		LiftedBy []string `json:"lifted_by"`
	} `json:"lines"`
}

// TestSecretCases judges the lines of testdata/secrets.json.
func TestSecretCases(t *testing.T) {
	b, err := os.ReadFile("testdata/secrets.json")
	require.NoError(t, err)
	var groups []secretCases
	require.NoError(t, json.Unmarshal(b, &groups))
	dir, paths := specRepo(t)
	g := New(DefaultPolicy())
	n := 0
	for _, grp := range groups {
		for _, c := range grp.Lines {
			n++
			require.True(t, strings.HasPrefix(c.Line, grp.Command+" "), "%q is in the group of %s", c.Line, grp.Command)
			v := g.Judge(context.Background(), dir, paths, c.Line)
			assert.Equal(t, "ask", v.Decision.String(), "%q (%s)", c.Line, v.Reason)
			assert.Equal(t, c.Rule, string(v.Rule), "%q (%s)", c.Line, v.Reason)
			assert.Contains(t, v.Reason, c.Reason, "%q", c.Line)
			if assert.Len(t, v.Commands, 1, c.Line) {
				assert.Equal(t, c.LiftedBy == nil, v.Commands[0].Overridable, "%q: lifted by a rule for the command (%s)", c.Line, v.Reason)
				assert.Equal(t, c.LiftedBy, v.Commands[0].LiftedBy, "%q: the words a rule must name (%s)", c.Line, v.Reason)
			}
		}
	}
	require.Greater(t, n, 40)
}

// optionSpellings are the words that give the option o of the spec s
// the value val, in every spelling the scanner reads by s's tables: each
// long name attached with "=" and, where it takes a value, as the next
// word, or alone where it takes none; each letter attached, with "=", as
// the next word, and each of these after mate, a letter of no value, in
// one cluster. A flag whose value is optional is given "=true" too.
func optionSpellings(s *spec, o *option, mate byte, val string) [][]string {
	var out [][]string
	for i := range s.tables().long {
		sp := &s.tables().long[i]
		if sp.opt != o {
			continue
		}
		switch sp.arg {
		case argRequired:
			out = append(out, []string{sp.text + "=" + val}, []string{sp.text, val})
		case argOptional:
			out = append(out, []string{sp.text}, []string{sp.text + "=true"})
		default:
			out = append(out, []string{sp.text})
		}
	}
	for _, l := range slices.Sorted(maps.Keys(s.tables().short)) {
		sp := s.tables().short[l]
		if sp.opt != o {
			continue
		}
		for _, pre := range []string{"-", "-" + string(mate)} {
			if sp.arg == argNone {
				out = append(out, []string{pre + string(l)})
				continue
			}
			out = append(out, []string{pre + string(l) + val}, []string{pre + string(l) + "=" + val},
				[]string{pre + string(l), val})
		}
	}
	return out
}

// Every option a row of kubectl's or oc's names, in every spelling the
// scanner reads by the program's spec, meets the row: an Ask only a rule
// naming the row's words lifts, whose reason names the option as
// written.
func TestSecretOptionSpellings(t *testing.T) {
	dir, paths := specRepo(t)
	g := New(DefaultPolicy())
	n := 0
	for _, name := range []string{"kubectl", "oc"} {
		s, _ := secretSpec(name)
		mate := clusterMate(s, 0)[0]
		for _, r := range secretPrints()[name] {
			base := append([]string{name}, strings.Fields(r.path)...)
			if r.res != "" {
				base = append(base, strings.Fields(r.res)[0])
			}
			l := &secretRead{s: s}
			for _, spells := range []string{r.flags, r.format} {
				for _, o := range optionsOf(l, spells) {
					for _, ws := range optionSpellings(s, o, mate, "yaml") {
						n++
						line := spellingLine(&r, base, spells, ws)
						assertSpellingPrints(t, line, g.Judge(context.Background(), dir, paths, line), &r, ws)
					}
				}
			}
		}
	}
	t.Logf("%d spellings of kubectl's and oc's options that print a credential", n)
	require.Greater(t, n, 60)
}

// optionsOf are the options of the spellings spells, each once.
func optionsOf(l *secretRead, spells string) []*option {
	var out []*option
	for w := range strings.FieldsSeq(spells) {
		if o := optionOf(l.s, w); o != nil && !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out
}

// optionOf is the option the spelling w names in s, or nil.
func optionOf(s *spec, w string) *option {
	if sp := specSpelling(s, w); sp != nil {
		return sp.opt
	}
	return nil
}

// spellingLine is the line of base and the words ws, which spell an
// option of the row r's spells: a row of both options is given the other
// one plainly (get -f FILE -o yaml).
func spellingLine(r *secretPrint, base []string, spells string, ws []string) string {
	switch {
	case r.format != "" && spells == r.flags:
		return strings.Join(slices.Concat(base, ws, []string{"-o", "yaml"}), " ")
	case r.flags != "" && spells == r.format:
		return strings.Join(slices.Concat(base, strings.Fields(r.flags)[:1], []string{"f.yaml"}, ws), " ")
	}
	return strings.Join(slices.Concat(base, ws), " ")
}

// assertSpellingPrints holds the verdict v of line, which spells an
// option of the row r as ws, to an Ask for the row that names the option
// as written and that no rule for the command alone lifts.
func assertSpellingPrints(t *testing.T, line string, v Verdict, r *secretPrint, ws []string) {
	t.Helper()
	assert.Equal(t, "ask", v.Decision.String(), "%q (%s)", line, v.Reason)
	assert.Equal(t, RuleSecretCredential, v.Rule, "%q (%s)", line, v.Reason)
	written, _, _ := strings.Cut(ws[0], "=")
	assert.Contains(t, v.Reason, written, "%q: the option named", line)
	assert.Contains(t, v.Reason, " prints "+r.why, "%q", line)
	if assert.Len(t, v.Commands, 1, line) {
		assert.False(t, v.Commands[0].Overridable, "%q: a rule for the command alone lifts it", line)
	}
}

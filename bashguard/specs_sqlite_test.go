package bashguard

import (
	"strings"
	"testing"
)

// A script of sqlite3 that is a dot command passes only when the command
// is one of sqliteDotHarmless, whatever follows it; SQL with a word of
// sqliteSQLWords standing alone never passes.
func FuzzSQLiteScriptRuns(f *testing.F) {
	f.Add(" ", "shell", " id")
	f.Add("", "tables", "")
	f.Fuzz(func(t *testing.T, lead, name, rest string) {
		lead = strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' || r == '\n' {
				return r
			}
			return -1
		}, lead)
		if strings.ContainsAny(name, " \t\n") || rest != "" && !strings.ContainsAny(rest[:1], " \t\n") {
			return
		}
		got := sqliteScriptRuns(lead+"."+name+rest, 0)
		if sqliteDotHarmless[name] != (got == "") {
			t.Fatalf("%q: %q", lead+"."+name+rest, got)
		}
		for _, w := range sqliteSQLWords {
			s := "select 1; " + strings.ToUpper(w) + " " + rest
			if sqliteScriptRuns(s, 0) == "" {
				t.Fatalf("%q: the word %q is not seen", s, w)
			}
		}
	})
}

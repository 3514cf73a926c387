package bashguard

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"mvdan.cc/sh/v3/syntax"
)

// find's primaries and the filters a listing passes through, held to
// what they do by the decision and the reason of a command that uses
// each row.

// TestFindPrimsTable holds every kind of find's primaries to a command
// that uses one, by its decision and reason.
func TestFindPrimsTable(t *testing.T) {
	const safe = "every command is read-only and on the safe list"
	examples := map[findDoes]struct{ line, d, rule, reason string }{
		findTest:     {"find . -size +1k -mtime -2 -prune", "allow", "safe", safe},
		findOperator: {"find . -name a -o -name b", "allow", "safe", safe},
		findName:     {"find . -name '*.go'", "allow", "safe", safe},
		findIName:    {"find . -iname '*.GO'", "allow", "safe", safe},
		findType:     {"find . -type f", "allow", "safe", safe},
		findMaxDepth: {"find . -maxdepth 1", "allow", "safe", safe},
		findPrint:    {"find . -print", "allow", "safe", safe},
		findPrint0:   {"find . -print0", "allow", "safe", safe},
		findOutput:   {"find . -printf '%p' -ls -quit", "allow", "safe", safe},
		findRead:     {"find . -newer /etc/shadow", "ask", "path:read", "find: reads /etc/shadow outside the allowed roots"},
		findList0:    {"find -files0-from /etc/list", "ask", "path:read", "find: reads /etc/list outside the allowed roots"},
		findWrite:    {"find . -fprintf out.txt '%p'", "ask", "write:find", "find: writes out.txt (inside the allowed roots)"},
		findDelete:   {"find build -delete", "ask", "write:find", "find: writes build (inside the allowed roots)"},
		findExec:     {"find . -execdir cat {} ';'", "ask", "wrapper:find", "find: find -execdir runs cat for every file found"},
		findAsk:      {"find . -ok cat {} ';'", "ask", "args:find", "find: -ok asks on the terminal for every file and would hang"},
		findFollow:   {"find / -follow -name x", "ask", "path:read", "find: reads / outside the allowed roots"},
	}
	for _, p := range findPrims {
		c, ok := examples[p.does]
		require.True(t, ok, "find primaries %q: no example of their kind", p.names)
		d, rule, reason := codeVerdict(t, c.line)
		assert.Equal(t, c.d, d, "%s: %s", c.line, reason)
		assert.Equal(t, c.rule, rule, "%s: %s", c.line, reason)
		assert.Contains(t, reason, c.reason, c.line)
	}
	// -newerXY reads its reference file unless Y is t, a time.
	assert.Equal(t, findRead, findPrimary("-newermc").does)
	assert.Equal(t, findTest, findPrimary("-newermt").does)
	assert.Nil(t, findPrimary("-nosuch"))
	// The value of a test is looked at as a primary too.
	d, rule, reason := codeVerdict(t, "find . -name -delete")
	assert.Equal(t, "ask", d)
	assert.Equal(t, "write:find", rule)
	assert.Equal(t, "find: writes . (inside the allowed roots)", reason)
}

// TestFindPrimsAgreeWithHelp holds findPrims to the installed find's
// --help: every primary it lists has a row, so that a new action of find
// is not taken for a value.
func TestFindPrimsAgreeWithHelp(t *testing.T) {
	out, err := exec.Command("find", "--help").Output()
	if err != nil || !strings.Contains(string(out), "-files0-from") {
		t.Skip("SKIP: no GNU find here to hold the table to")
	}
	n := 0
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "Valid arguments") {
			break
		}
		for _, w := range regexp.MustCompile(`(^|\s)(--?[a-z][a-z0-9_-]*)`).FindAllStringSubmatch(line, -1) {
			n++
			assert.NotNil(t, findPrimary(w[2]), "find --help lists %s, which no row of findPrims holds", w[2])
		}
	}
	assert.Greater(t, n, 60)
}

// TestLineFiltersTable holds every row of lineFilters to the command
// lines that keep it a filter and to those that do not, and through a
// pipeline from find into xargs, which reads the paths find printed only
// through a filter.
func TestLineFiltersTable(t *testing.T) {
	cases := map[string]struct{ pass, fail []string }{
		"grep": {[]string{"grep x", "grep -vi x", "grep -e x", "grep -E -w -e x"}, []string{"grep", "grep x y", "grep -e x -e y", "grep -ve x", "grep -c x", "grep -", "grep -- x"}},
		"head": {[]string{"head", "head -5", "head -n 5", "head -n5", "head -n +5"}, []string{"head -n x", "head -n", "head f", "head -c 5", "head -"}},
		"tail": {[]string{"tail -5", "tail -n +2"}, []string{"tail -f", "tail f"}},
		"sort": {[]string{"sort", "sort -urfVnbd", "sort -u -r"}, []string{"sort -k1", "sort f", "sort -", "sort -o x"}},
		"uniq": {[]string{"uniq", "uniq -u -d -i"}, []string{"uniq -c", "uniq f"}},
	}
	for _, r := range lineFilters {
		c, ok := cases[r.name]
		require.True(t, ok, "line filter %s has no cases", r.name)
		for _, line := range c.pass {
			assert.True(t, lineFilter(parseStmt(t, line)), "%q is a line filter", line)
		}
		for _, line := range c.fail {
			assert.False(t, lineFilter(parseStmt(t, line)), "%q is no line filter", line)
		}
	}
	assert.False(t, lineFilter(parseStmt(t, "/bin/grep x")), "a filter is known by its name alone")
	assert.False(t, lineFilter(parseStmt(t, "grep x >out")), "a filter writes nothing")

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n"), 0o644))
	pol, _ := casePolicy("")
	paths := caseJudge{CheckerJudge(rootChecker{dir: dir, roots: []string{dir}})}
	g := New(pol)
	for _, c := range []struct{ script, d, reason string }{
		{"find . -name '*.go' | grep a | xargs cat", "allow", "every command is read-only and on the safe list"},
		{"find . -name '*.go' | sort -u | head -n 3 | xargs cat", "allow", "every command is read-only and on the safe list"},
		{"find . -name '*.go' | cut -c1- | xargs cat", "ask", "xargs"},
	} {
		v := g.Judge(context.Background(), dir, paths, c.script)
		assert.Equal(t, c.d, v.Decision.String(), "%s: %s", c.script, v.Reason)
		assert.Contains(t, v.Reason, c.reason, c.script)
	}
}

// parseStmt parses the one command line.
func parseStmt(t *testing.T, line string) *syntax.Stmt {
	t.Helper()
	f, err := syntax.NewParser().Parse(strings.NewReader(line), "")
	require.NoError(t, err, line)
	require.Len(t, f.Stmts, 1, line)
	return f.Stmts[0]
}

package bashguard

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// scriptEnd agrees with bash: words appended to a script, quoted as each
// package manager quotes them, are the argv of the command that
// scriptEnd names, and of no other command bash runs; where scriptEnd
// does not know (a loop, an expansion, a comment that swallows them), it
// says so. Each script runs under real bash with PATH holding only
// logging wrappers (the differential test's).
func TestScriptEndAgreesWithBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	require.NoError(t, err, "the test needs bash")
	work, bin := t.TempDir(), t.TempDir()
	for _, name := range []string{"jest", "tsc", "false", "mocha", "cat", "env", "--mark"} {
		writeLogger(t, bin, name)
	}
	g := New(Policy{Home: work})
	a := &analyzer{g: g, sc: g.scratch.Get().(*scratch)}
	scripts := []string{
		"jest", "tsc && jest --ci", "false || mocha", "tsc; jest", "jest &", "cat x | jest", "FOO=1 jest -x",
		"jest 'a b'", `jest "q r"`, "jest # note", `jest \`, "for f in a; do jest; done", "(jest)", "{ jest; }",
		"jest $X", "jest *.js", "jest ~/x", "jest {a,b}", "! jest", "jest\n", "jest;", "jest &&\ntsc", "env A=1 jest",
		"jest 2>/dev/null", "tsc && false || mocha", "jest |", "jest '",
	}
	words := [][]string{
		{"x"}, {"--a=b", "c d"}, {"it's"}, {"$HOME"}, {"{a,b}"}, {"*"}, {"a;b"}, {"`tsc`"}, {"[ab]"}, {"~"}, {""},
		{"-"}, {"--"}, {"a\nb"}, {`\`}, {"!x"}, {"%s"},
	}
	known, unknown := 0, 0
	for _, script := range scripts {
		for _, ws := range words {
			if strings.ContainsAny(script, "|&") && strings.Contains(ws[0], "\n") {
				// The loggers of a pipeline write at once, and a record
				// with a newline may be written in two parts.
				continue
			}
			ws = append([]string{"--mark"}, ws...)
			for _, ps := range []pkgScript{{bare: true}, {}} {
				quoted := make([]string, len(ws))
				for i, w := range ws {
					quoted[i] = ps.quote(w)
				}
				text := script + " " + strings.Join(quoted, " ")
				line, ok := a.scriptEnd(text)
				if !ok || len(line) < len(ws) || !equalTail(line, ws) {
					unknown++
					continue
				}
				known++
				ran := runLogged(t, bash, work, bin, text)
				marked := 0
				for _, argv := range ran {
					if slices.Contains(argv, "--mark") {
						marked++
						assert.Equal(t, line, argv, "script %q: bash ran %q, scriptEnd said %q", text, argv, line)
					}
				}
				assert.Equal(t, 1, marked, "script %q: one command takes the words (bash ran %q)", text, ran)
			}
		}
	}
	t.Logf("%d scripts read, %d left unknown", known, unknown)
	assert.Greater(t, known, 150, "scripts whose last command is read")
	assert.Greater(t, unknown, 100, "scripts left unknown")
}

package bashguard

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tables of the tools whose input is a program (sed's commands,
// awk's dangerous constructs) and their command lines: every row is held
// to what it does, by the decision and the reason of a command that uses
// it.

// codeVerdict judges script as the case table does.
func codeVerdict(t *testing.T, script string) (string, string, string) {
	t.Helper()
	pol, paths := casePolicy("")
	v := New(pol).Judge(context.Background(), testWork, paths, script)
	return v.Decision.String(), string(v.Rule), v.Reason
}

// TestSedCommandsTable holds every row of sedCommands and sedSFlags to a
// script that uses it: the read-only ones allowed, the others asked for
// their row's reason.
func TestSedCommandsTable(t *testing.T) {
	uses := map[byte]string{
		'{': "1{p}", '}': "1{p}", '=': "=", 'p': "p", 'P': "P", 'd': "d", 'D': "D", 'n': "n", 'N': "N",
		'g': "g", 'G': "G", 'h': "h", 'H': "H", 'x': "x", 'z': "z", 'F': "F",
		'l': "l 5", 'q': "q5", 'Q': "Q", 'L': "L",
		'#': "#w x\np", ':': ":a;p", 'b': "b end;:end", 't': "t;p", 'T': "T a;:a",
		'a': `a\w x`, 'i': "i w x", 'c': "c r x",
		'y': "y/abc/xyz/", 's': "s/a[/]/b/g2",
		'e': "e", 'w': "w out", 'W': "W out", 'r': "r /etc/passwd", 'R': "R f",
	}
	for _, row := range sedCommands {
		for k := 0; k < len(row.letters); k++ {
			script, ok := uses[row.letters[k]]
			require.True(t, ok, "sed command %c has no example", row.letters[k])
			assert.Equal(t, row.why, sedUnsafe(script), "sed script %q", script)
			d, rule, reason := codeVerdict(t, "sed '"+script+"' f.txt")
			if row.why == "" {
				assert.Equal(t, "allow", d, "sed %q: %s", script, reason)
				assert.Equal(t, "every command is read-only and on the safe list", reason)
				continue
			}
			assert.Equal(t, "ask", d, "sed %q", script)
			assert.Equal(t, "args:sed", rule, "sed %q", script)
			assert.Equal(t, "sed: sed script "+row.why, reason, "sed %q", script)
		}
	}
	for _, f := range sedSFlags {
		script := "s/a/b/g " + string(f.flag) + " out"
		assert.Equal(t, f.why, sedUnsafe(script), "sed script %q", script)
		_, _, reason := codeVerdict(t, "sed -n -e '"+script+"' f.txt")
		assert.Equal(t, "sed: sed script "+f.why, reason)
	}
	for _, f := range sedSPlainFlags {
		assert.Empty(t, sedUnsafe("s/a/b/"+string(f)), "s flag %q", f)
	}
	assert.Equal(t, "uses the command k, which is not known to be read-only", sedUnsafe("1k"))
	assert.Equal(t, "ends without a command", sedUnsafe("1,$!"))
	assert.Equal(t, "has an address that cannot be parsed", sedUnsafe(`/a[/p`))
}

// TestSedCommandLine holds the options of sedSpec to what they do.
func TestSedCommandLine(t *testing.T) {
	for _, c := range []struct{ line, d, rule, reason string }{
		{"sed -n -s -E -u -z --posix --debug --sandbox -l 5 p f.txt", "allow", "safe", "every command is read-only and on the safe list"},
		{"sed --quiet --silent --separate --unbuffered --null-data --regexp-extended -r --line-length=9 p f.txt", "allow", "safe", "every command is read-only and on the safe list"},
		{"sed --expression=p --exp p f.txt", "allow", "safe", "every command is read-only and on the safe list"},
		{"sed -f x.sed f.txt", "ask", "code:sed", "sed: runs a sed script from a file, which is not analysed"},
		{"sed --fi=x.sed f.txt", "ask", "code:sed", "sed: runs a sed script from a file, which is not analysed"},
		{"sed -i.bak s/a/b/ f.txt", "ask", "write:sed", "sed: writes f.txt (inside the allowed roots)"},
		{"sed --in-place s/a/b/ f.txt", "ask", "write:sed", "sed: writes f.txt (inside the allowed roots)"},
		{"sed -ne 'w x' f.txt", "ask", "args:sed", "sed: sed script writes a file (w)"},
		{"sed -e'w x' f.txt", "ask", "args:sed", "sed: sed script writes a file (w)"},
		{`sed -e "$s" f.txt`, "ask", "args:sed", "sed: sed script is only known at run time"},
		{"sed --f x f.txt", "ask", "args:sed", "sed: uses the sed option --f, which is an abbreviation of more than one option"},
		{"sed -k p f.txt", "ask", "args:sed", "sed: uses the sed option -k, which is not known to be harmless"},
		{"sed -n", "ask", "args:sed", "sed: no sed script given"},
	} {
		d, rule, reason := codeVerdict(t, c.line)
		assert.Equal(t, c.d, d, "%s: %s", c.line, reason)
		assert.Equal(t, c.rule, rule, c.line)
		assert.Equal(t, c.reason, reason, c.line)
	}
}

// TestSedSpecAgreesWithHelp holds sedSpec to the installed sed's --help.
func TestSedSpecAgreesWithHelp(t *testing.T) {
	if _, err := exec.LookPath("sed"); err != nil {
		t.Skip("SKIP: no sed here: " + err.Error())
	}
	if out, _ := exec.Command("sed", "--version").Output(); !strings.Contains(string(out), "GNU") {
		t.Skip("SKIP: the sed here is not GNU sed, which the spec describes")
	}
	require.Equal(t, 1, specsAgreeWithHelp(t, map[string]*spec{"sed": sedSpec()}, "sed"))
}

// TestAwkTables holds every row of awkNames and awkDangers to a program
// that uses it, and to one where the same bytes are harmless.
func TestAwkTables(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range []struct{ prog, harmless, why string }{
		{`BEGIN{system ("id")}`, `BEGIN{mysystem("id"); system = 1}`, "calls system()"},
		{`BEGIN{print ARGV[1]}`, `BEGIN{print ARGVX}`, "uses ARGV or ARGC, which can make it read other files"},
		{`BEGIN{ARGC=3}`, `BEGIN{print ARGCX, xARGC}`, "uses ARGV or ARGC, which can make it read other files"},
		{`{print | "sh"}`, `NR==1 || /a|b/ {print "|"}`, "uses a pipe to or from a command"},
		{`{print > "out"}`, `$1 > 2 {print ($1 > 2), $2 >= 3}`, "redirects output to a file or command"},
		{`{getline l < "/etc/shadow"}`, `{print a < b}`, "reads a file with getline"},
		{`@load "x"`, `{print "@load"}`, "loads an extension or include file"},
	} {
		seen[c.why] = true
		assert.Equal(t, c.why, awkUnsafe(c.prog), c.prog)
		assert.Empty(t, awkUnsafe(c.harmless), c.harmless)
		d, rule, reason := codeVerdict(t, "awk '"+c.prog+"' f.txt")
		assert.Equal(t, "ask", d, c.prog)
		assert.Equal(t, "code:awk", rule, c.prog)
		assert.Equal(t, "awk: awk program "+c.why, reason, c.prog)
		d, _, reason = codeVerdict(t, "awk '"+c.harmless+"' f.txt")
		assert.Equal(t, "allow", d, "%s: %s", c.harmless, reason)
	}
	for _, n := range awkNames {
		assert.True(t, seen[n.why], "awkNames row %s has no case", n.name)
	}
	for _, d := range awkDangers {
		assert.True(t, seen[d.why], "awkDangers row %c has no case", d.tok)
	}
	// Text inside a regular expression cannot hide a danger, read as
	// either division or a regular expression.
	assert.Equal(t, "uses a pipe to or from a command", awkUnsafe(`/"/{print | "sh"}  # "`))
	assert.Empty(t, awkUnsafe(`{print 1 /"/; print | "sh" # "/ 2}`), "after an operand, / is division: the | is in a string")
	assert.Equal(t, "redirects output to a file or command", awkUnsafe(`/[/]/ {print > "o"}`))
}

// TestAwkCommandLine holds the options of awkSpec to what they do.
func TestAwkCommandLine(t *testing.T) {
	const safe = "every command is read-only and on the safe list"
	for _, c := range []struct{ line, d, rule, reason string }{
		{"awk -F: -v n=1 --posix -c -P -r -S -N -b '{print $n}' f.txt", "allow", "safe", safe},
		{"awk --field-separator=: --assign n=1 --sandbox --traditional '{print}' f.txt", "allow", "safe", safe},
		{"awk '{print}' x=1 f.txt", "allow", "safe", safe},
		{"awk -f prog.awk f.txt", "ask", "code:awk", "awk: runs an awk program from a file or extension, which is not analysed"},
		{"awk -i inc.awk '{print}' f.txt", "ask", "code:awk", "awk: runs an awk program from a file or extension, which is not analysed"},
		{"awk -W exec prog.awk", "ask", "code:awk", "awk: uses -W exec, which can run a program from a file or write files"},
		{"gawk -d '{print}' f.txt", "ask", "args:awk", "gawk: uses the awk option -d, which can write files"},
		{"gawk --prof=x '{print}' f.txt", "ask", "args:awk", "gawk: uses the awk option --prof, which can write files"},
		{"awk '{print}' -v /etc/shadow", "ask", "path:read", "awk: reads /etc/shadow outside the allowed roots"},
		{"awk -f /etc/shadow f.txt", "ask", "code:awk", "awk: runs an awk program from a file or extension"},
		{"awk -v", "ask", "args:awk", "awk: uses the awk option -v, which lacks its value"},
	} {
		d, rule, reason := codeVerdict(t, c.line)
		assert.Equal(t, c.d, d, "%s: %s", c.line, reason)
		assert.Equal(t, c.rule, rule, "%s: %s", c.line, reason)
		assert.Contains(t, reason, c.reason, c.line)
	}
}

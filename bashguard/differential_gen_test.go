package bashguard_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"mvdan.cc/sh/v3/syntax"

	. "github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/bashguard/runner"
	"github.com/toolgate/toolgate/permission"
)

// TestMain lets this test binary serve as the launcher of confined
// commands: the runner starts it again, and ConfineMain then confines
// itself and executes bash instead of running the tests.
func TestMain(m *testing.M) {
	runner.ConfineMain()
	os.Exit(m.Run())
}

// The generated differential: scripts that mix the constructs bash and
// the parser may read differently are judged, and every script the guard
// allows is run under real bash, confined by the project's Runner
// (Landlock, no network), with PATH holding only recording shims: every
// external command, and the builtins turned off with enable -n, logs its
// argv and exits 0. The property: every command bash ran was judged, with
// the same argv (a glob word may stand for the files it matches), and in
// a script without branches or loops exactly the judged commands ran.

// genScripts is how many scripts one run generates and judges.
const genScripts = 20000

// genBatch is how many allowed scripts one bash process runs, each in a
// subshell of its own, so that the run stays short.
const genBatch = 2000

// genWorkspace are the files of the throwaway workspace.
var genWorkspace = []string{"README.md", "a.go", "b.go", "notes.txt", "src/m.go", "src/n.txt", "data.json", "é.txt",
	"input.txt", "win.txt", "config.txt", "file.txt", "main.go", "go.mod", "package.json", "data.bin", "build.log", "list.txt"}

func TestDifferentialGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: the generated differential runs thousands of scripts under bash; not in -short")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("SKIP: the generated differential needs bash, which is not installed: " + err.Error())
	}
	sh, err := exec.LookPath("dash")
	if err != nil {
		sh = "/bin/sh"
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	ws := filepath.Join(root, "ws")
	bin := filepath.Join(root, "bin")
	scripts := filepath.Join(root, "scripts")
	for _, d := range []string{ws, bin, scripts, filepath.Join(ws, "src")} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	for _, f := range genWorkspace {
		require.NoError(t, os.WriteFile(filepath.Join(ws, f), []byte("x\n"), 0o644))
	}

	g := New(Policy{Home: ws})
	paths := CheckerJudge(RootChecker(ws, ws))

	// The scripts: the generated ones and the allowed cases of the tables.
	// A new day, new scripts; TOOLGATE_DIFF_SEED repeats a day's run.
	seed := uint64(time.Now().UnixNano() / int64(24*time.Hour))
	if s := os.Getenv("TOOLGATE_DIFF_SEED"); s != "" {
		seed, err = strconv.ParseUint(s, 10, 64)
		require.NoError(t, err, "TOOLGATE_DIFF_SEED")
	}
	t.Logf("seed %d (TOOLGATE_DIFF_SEED=%d repeats this run)", seed, seed)
	rng := rand.New(rand.NewPCG(16, seed))
	var all []string
	for range genScripts {
		all = append(all, genScript(rng))
	}
	for _, s := range AllowedCaseScripts(t) {
		if !strings.Contains(s, "while") && !strings.Contains(s, "until") {
			all = append(all, s)
		}
	}
	run, names := genAllowed(t, g, ws, paths, all)
	for _, n := range strings.Fields(DisabledBuiltins) {
		names[n] = true
	}
	for n := range names {
		if n != "" && !strings.ContainsAny(n, "/\x00") && n != "." && n != ".." {
			writeShim(t, sh, bin, n)
		}
		require.NoError(t, os.WriteFile(filepath.Join(bin, ".bash_env"), []byte("enable -n "+DisabledBuiltins+"\nunset BASH_ENV\n"), 0o644))
	}

	r := &runner.Shell{Dir: root, Checker: RootChecker(root, root), Bash: bash,
		Timeout: 5 * time.Minute, Home: ws, Env: []string{"PATH=" + bin, "LOG=" + filepath.Join(root, "log"),
			"DIFF_BASH=" + bash, "DIFF_BASH_ENV=" + filepath.Join(bin, ".bash_env")}}
	bad := 0
	for start := 0; start < len(run); start += genBatch {
		bad += genRunBatch(t, r, root, scripts, ws, run[start:min(start+genBatch, len(run))], bad)
	}
	t.Logf("generated %d scripts and took %d case-table scripts; the guard allowed %d, all run under confined bash; %d differed",
		genScripts, len(all)-genScripts, len(run), bad)
	require.Zero(t, bad, "allowed scripts whose executed commands differ from the judged ones")
	require.GreaterOrEqual(t, len(run), genScripts/10, "too few generated scripts were allowed to test the property")
}

// genJudged is an allowed script, the processes the guard judged it to
// run, and whether bash must run exactly those (no branch, no exec).
type genJudged struct {
	script string
	want   [][]string
	exact  bool
}

// genAllowed judges the scripts and returns the allowed ones whose
// processes can be compared, with the names of the programs they run.
func genAllowed(t *testing.T, g *Guard, ws string, paths PathJudge, all []string) ([]genJudged, map[string]bool) {
	var run []genJudged
	names := map[string]bool{}
	for _, s := range all {
		v := g.Judge(context.Background(), ws, paths, s)
		if v.Decision != permission.Allow {
			continue
		}
		want, ok := processes(v.Commands)
		if !ok || strings.Contains(s, "<(") || background(s) {
			// A process substitution and a background job run in the
			// background: their shims may log after the next script
			// has started, where the comparison cannot tell whose
			// command it was (TestDifferentialBash runs the table's
			// background jobs one script at a time).
			continue
		}
		for _, w := range want {
			names[w[0]] = true
		}
		run = append(run, genJudged{script: s, want: want, exact: !Branches(t, s) && !strings.Contains(s, "exec")})
	}
	return run, names
}

// genRunBatch runs one batch of allowed scripts under confined bash and
// returns how many ran other processes than were judged, reporting the
// first of them (bad is the count before this batch). It skips the test
// where the runner cannot confine.
func genRunBatch(t *testing.T, r *runner.Shell, root, scripts, ws string, batch []genJudged, bad int) int {
	for k, j := range batch {
		require.NoError(t, os.WriteFile(filepath.Join(scripts, strconv.Itoa(k)), []byte(j.script), 0o644))
	}
	require.NoError(t, os.WriteFile(filepath.Join(root, "log"), nil, 0o644))
	res, err := r.Run(context.Background(), driver(scripts, ws, len(batch)))
	if err != nil || !res.Confined.Enforced {
		why := res.Confined.Reason
		if err != nil {
			why = err.Error()
		}
		if os.Getenv("TOOLGATE_REQUIRE_LANDLOCK") != "" {
			t.Fatal("TOOLGATE_REQUIRE_LANDLOCK is set, but the generated differential cannot run confined: " + why)
		}
		t.Skip("SKIP: the generated differential needs the Runner's Landlock confinement, which is not available here: " + why)
	}
	require.False(t, res.TimedOut, "a batch of scripts timed out: %s", res.Output)
	logs := readShimLog(t, filepath.Join(root, "log"), len(batch))
	n := 0
	for k, j := range batch {
		if why := compareRun(ws, j.want, logs[k], j.exact); why != "" {
			n++
			if bad+n <= 20 {
				t.Errorf("allowed script %q: %s\njudged: %q\nbash ran: %q", j.script, why, j.want, logs[k])
			}
		}
	}
	return n
}

// processes returns the argvs of the judged commands that bash runs as
// processes through PATH, with command, builtin and exec taken off the
// front. ok is false when a command cannot be compared (a path as its
// name, or one that runs code the shims cannot follow).
func processes(cmds []Command) (out [][]string, ok bool) {
	for _, c := range cmds {
		a := c.Args
		if len(a) > 0 && a[0] == "builtin" {
			return nil, false // the builtins it runs are turned off for the shims
		}
		for len(a) > 0 && (a[0] == "command" || a[0] == "exec") {
			a = a[1:]
			for len(a) > 0 && a[0] == "--" {
				a = a[1:]
			}
			if len(a) > 0 && strings.HasPrefix(a[0], "-") {
				return nil, false // command -v and the like run nothing
			}
		}
		switch {
		case len(a) == 0 || a[0] == "[[" || DeclBuiltins[a[0]] || a[0] == "eval":
			continue // they start no process (eval's code is judged as commands of its own)
		case a[0] == "source" || a[0] == "." || strings.Contains(a[0], "/"):
			return nil, false
		}
		out = append(out, a)
	}
	return out, true
}

// writeShim writes bin/name: a sh script that appends its name and
// arguments to $LOG in one write, as one record, and exits 0 (1 for
// false).
func writeShim(t *testing.T, sh, bin, name string) {
	end := ShimEnd(name, "BASH_ENV=\"$DIFF_BASH_ENV\" exec \"$DIFF_BASH\"")
	text := "#!" + sh + "\nprintf '%s\\037' \"${0##*/}\" \"$@\" '\036' >>\"$LOG\"\n" + end
	require.NoError(t, os.WriteFile(filepath.Join(bin, name), []byte(text), 0o755))
}

// driver is the script of one batch: each script file runs in a subshell
// of its own, after a marker record, with the builtins that the shims
// stand for turned off.
func driver(dir, ws string, n int) string {
	return fmt.Sprintf(`cd %q || exit 1
k=0
while [ "$k" -lt %d ]; do
	printf '\035%%d\037\036\037' "$k" >>"$LOG"
	( enable -n %s; . %q/"$k" ) </dev/null >/dev/null 2>&1
	k=$((k+1))
done
`, ws, n, DisabledBuiltins, dir)
}

// readShimLog splits the log of a batch into the argvs each script ran.
func readShimLog(t *testing.T, log string, n int) [][][]string {
	data, err := os.ReadFile(log)
	require.NoError(t, err)
	out := make([][][]string, n)
	cur := -1
	for _, rec := range strings.Split(string(data), "\036\037") {
		if rec == "" {
			continue
		}
		words := strings.Split(strings.TrimSuffix(rec, "\037"), "\037")
		if strings.HasPrefix(words[0], "\035") {
			k, err := strconv.Atoi(words[0][1:])
			require.NoError(t, err, "marker %q", words[0])
			cur = k
			continue
		}
		require.GreaterOrEqual(t, cur, 0, "a record before the first marker: %q", rec)
		out[cur] = append(out[cur], words)
	}
	return out
}

// compareRun explains how what bash ran differs from what was judged, or
// returns "". Every command that ran must match a judged one; with exact,
// the two must match one to one.
func compareRun(ws string, want, got [][]string, exact bool) string {
	used := make([]bool, len(want))
	for _, g := range got {
		found := -1
		for i, w := range want {
			if argvMatches(ws, w, g) && (!exact || !used[i]) {
				found = i
				break
			}
		}
		if found < 0 {
			return fmt.Sprintf("bash ran %q, which the guard did not judge", g)
		}
		used[found] = true
	}
	if exact && slices.Contains(used, false) {
		return "a judged command did not run"
	}
	return ""
}

// argvMatches reports whether got is the judged argv want once bash has
// expanded the glob words of want in ws or in the directory a generated
// cd enters (a glob that matches nothing stays as it is): after a cd the
// guard judges a command in each directory it may run in.
func argvMatches(ws string, want, got []string) bool {
	return argvMatchesIn(ws, want, got) || argvMatchesIn(filepath.Join(ws, "src"), want, got)
}

// argvMatchesIn is argvMatches with the globs expanded in dir.
func argvMatchesIn(ws string, want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	w := want[0]
	if len(got) > 0 && (got[0] == w || DataWord(w)) && argvMatchesIn(ws, want[1:], got[1:]) {
		return true
	}
	if !strings.ContainsAny(w, "*?[") {
		return false
	}
	m, err := ExpandGlob(ws, w)
	if err != nil || len(m) == 0 || len(got) < len(m) {
		return false
	}
	return slices.Equal(m, got[:len(m)]) && argvMatchesIn(ws, want[1:], got[len(m):])
}

// genScript makes one script from the constructs that bash and the
// parser may read differently, mixed with everyday commands.
func genScript(r *rand.Rand) string {
	var b strings.Builder
	n := 1 + r.IntN(3)
	for i := range n {
		if i > 0 {
			b.WriteString(pick(r, genSeps))
		}
		genStmt(r, &b)
	}
	if r.IntN(8) == 0 {
		b.WriteString(pick(r, genTails))
	}
	return b.String()
}

func genStmt(r *rand.Rand, b *strings.Builder) {
	switch r.IntN(22) {
	case 18:
		// A variable assigned the output of a command, or a value, and
		// used after.
		v := pick(r, genAssignVars)
		fmt.Fprintf(b, "%s=%s%s%s %s", v, genValue(r), pick(r, genSeps), genCmd(r), pick(r, genUses(v)))
	case 19:
		// An assignment in a scope of its own, or one that may not run,
		// then a use.
		v := pick(r, genAssignVars)
		fmt.Fprintf(b, pick(r, genScopes), v, genValue(r))
		fmt.Fprintf(b, "%s%s %s", pick(r, genSeps), genCmd(r), pick(r, genUses(v)))
	case 20:
		v := pick(r, genAssignVars)
		fmt.Fprintf(b, "%s=%s %s=%s", v, genValue(r), pick(r, genAssignVars), pick(r, genUses(v)))
	case 21:
		v := pick(r, genAssignVars)
		fmt.Fprintf(b, "%s=%s; %s+=%s; %s %s", v, genValue(r), v, genValue(r), genCmd(r), pick(r, genUses(v)))
	case 8:
		fmt.Fprintf(b, "%s <<A <<'B'\n%s\nA\n%s\nB\n%s", genCmd(r), pick(r, genBodies), pick(r, genBodies), pick(r, genAfterDoc))
	case 9:
		fmt.Fprintf(b, "%s%s%s", pick(r, genPrefixes), pick(r, genBlanks), genCmd(r))
	case 10:
		fmt.Fprintf(b, "( (%s) )", genCmd(r))
	case 11:
		fmt.Fprintf(b, "%s <<<%s%s", genCmd(r), pick(r, genBlanks), genWord(r))
	case 0:
		fmt.Fprintf(b, "for %s in %s %s; do %s; done", pick(r, genVars), genWord(r), genWord(r), genCmd(r))
	case 1:
		fmt.Fprintf(b, "if %s; then %s; else %s; fi", genCmd(r), genCmd(r), genCmd(r))
	case 2:
		fmt.Fprintf(b, "{ %s; %s; }", genCmd(r), genCmd(r))
	case 3:
		fmt.Fprintf(b, "( %s )", genCmd(r))
	case 4:
		d := pick(r, genDelims)
		q := d
		switch r.IntN(3) {
		case 1:
			q = "'" + d + "'"
		case 2:
			q = `"` + d + `"`
		}
		op := "<<"
		if r.IntN(4) == 0 {
			op = "<<-"
		}
		fmt.Fprintf(b, "%s %s%s\n%s\n%s\n%s", genCmd(r), op, q, pick(r, genBodies), pick(r, genBodyEnds(d)), pick(r, genAfterDoc))
	case 5:
		fmt.Fprintf(b, "case %s in %s) %s;; *) %s;; esac", genWord(r), genWord(r), genCmd(r), genCmd(r))
	case 6:
		fmt.Fprintf(b, "%s=%s %s", pick(r, genVars), genWord(r), genCmd(r))
	case 7:
		fmt.Fprintf(b, "%s=%s", pick(r, genVars), genWord(r))
	default:
		b.WriteString(genCmd(r))
	}
}

func genCmd(r *rand.Rand) string {
	var b strings.Builder
	b.WriteString(pick(r, genNames))
	for range r.IntN(4) {
		b.WriteString(pick(r, genBlanks))
		b.WriteString(genWord(r))
	}
	if r.IntN(10) == 0 {
		b.WriteString(pick(r, genRedirs))
	}
	return b.String()
}

func genWord(r *rand.Rand) string {
	if r.IntN(3) > 0 {
		return pick(r, genPlain)
	}
	w := pick(r, genPlain)
	for range 1 + r.IntN(2) {
		w += pick(r, genOdd)
	}
	return w
}

func pick(r *rand.Rand, l []string) string { return l[r.IntN(len(l))] }

// genValue is the value of an assignment: a word, or the output of a
// command.
func genValue(r *rand.Rand) string {
	switch r.IntN(4) {
	case 0:
		return "$(" + genCmd(r) + ")"
	case 1:
		return `"$(` + genCmd(r) + `)"`
	case 2:
		return pick(r, []string{"$(pwd)", "$PWD/src", `"$HOME"`, "`pwd`", "$x", `"$x"`, "~", "~/x", "a:~"})
	}
	return genWord(r)
}

// genUses are the words that use variable v.
func genUses(v string) []string {
	return []string{`"$` + v + `"`, "$" + v, `"${` + v + `}"`, `"$` + v + `"/m.go`, "src/$" + v, `"a $` + v + `"`, "$" + v + "$" + v}
}

// The parts the generator mixes.
var (
	genNames = []string{"echo", "ls", "cat", "wc -l", "grep x", "head -n 1", "tail -n 2", "true", "pwd", "sort",
		"uniq", "tr a b", "cut -d: -f1", "test -n", "[ -n x ] &&", "nl", "tac", "rev", "basename", "dirname",
		"seq 2", "date +%s", "git status", "git log --oneline", "git diff", "find . -name", "sed -n 1p",
		"awk '{print $1}'", "jq .", "rg -n", "file", "stat", "du -s", "diff", "nice ls", "timeout 5 cat",
		"xargs echo", "command ls", "false ||", "uname", "id", "echo -n", "ls -la", "grep -rn foo", "cat README.md"}
	genPlain = []string{"a", "b", "README.md", "notes.txt", "src", "src/m.go", "-n", "--", "x=y", "'a b'", `"a b"`,
		`"$x"`, "$x", "*.go", "*.zz", "?", "[ab].go", "src/*", "./*", "~", "~/x", "{a,b}", "a{b,c}", "$'a\\tb'",
		`$"x"`, "@(a|b)", "é", "日本", "a\u00a0b", "a\u2028b", "'#'", "a#b", `\#x`, "\\\n", "a\\\nb", "a\\ b",
		"'it''s'", `"q\"q"`, `"\$x"`, "''", `""`, "0", "-", "%s", ".", "..", ":", "=", "a=", "-e", "'\\'", `\\`,
		"}", "{", "done", "do", "!", "in", "then", "fi", "esac", "]]", "a$", "$", "a+=b", "a[1]=x", "x=~", "x=a:~",
		"#", "\\#", "$\\\n#c", "$\\\n(echo)", "a$\\\nb", "a\\", "'a\nb'", "\"a\nb\"", "\"a\\\nb\"", "'\r'", "2>", ">", "\\>", "\\;", "\\|", "\\&"}
	genOdd = []string{"\r", "\\\r", "\v", "\f", "\u00a0", "\u2028", "\\\n", "#c", "'", `"`, `\`, "*", "?", "[",
		"]", "{", "}", ",", "=", "~", "$", "!", "\t", "\u3000", "\ufeff", "\\\"", "é"}
	genBlanks = []string{" ", " ", " ", "\t", "  ", " \\\n", "\\\n ", " \\\r\n", "\u00a0", " \v", "\f "}
	genSeps   = []string{"; ", " && ", " || ", " | ", "\n", ";\n", " |& ", "\n\n", " # c\n", " # c \\\n",
		" #c\\\n", "\r\n", "; #\\\n", " &\n", "\n#!\n",
		" &\\\n& ", " |\\\n| ", ";\\\n", " \\\n&& ", " |\\\n ", "\n\\\n", " ;; ", " ;& ", " & ", " ! "}
	genTails = []string{" # done", " # \\", "\n# \\\n", "\n", ";", " &", " #", "\r"}
	genVars  = []string{"x", "f", "i", "line", "PATH", "LANG", "IFS", "GIT_DIR", "path", "LC_ALL", "_", "x1", "é"}
	// genAssignVars are the variables the assignment forms assign.
	genAssignVars = []string{"x", "x", "x", "f", "y", "IFS", "HOME", "PWD", "_", "path"}
	// genScopes assign %[1]s the value %[2]s where it may not reach what
	// follows.
	genScopes = []string{"(%[1]s=%[2]s)", "%[1]s=%[2]s | cat", "echo | %[1]s=%[2]s", "%[1]s=%[2]s &", "echo \"$(%[1]s=%[2]s)\"",
		"f() { %[1]s=%[2]s; }; f", "f() { %[1]s=%[2]s; }", "if test -f a.go; then %[1]s=%[2]s; fi", "test -f zz && %[1]s=%[2]s",
		"test -f a.go || %[1]s=%[2]s", "case a in a) %[1]s=%[2]s;; esac", "for i in 1 2; do %[1]s=%[2]s; done",
		"while false; do %[1]s=%[2]s; done", "unset %[1]s; %[1]s=%[2]s; unset %[1]s", "export %[1]s=%[2]s", "local %[1]s=%[2]s",
		"declare %[1]s=%[2]s", "read %[1]s <<< %[2]s", "%[1]s=%[2]s cat", "%[1]s=%[2]s >/dev/null", "time %[1]s=%[2]s",
		"! %[1]s=%[2]s", "{ %[1]s=%[2]s; }", "cd src && %[1]s=%[2]s", "%[1]s=%[2]s; cd src"}
	genRedirs = []string{" > /dev/null", " 2>&1", " < README.md", " <<< a", " >&2", " 2>/dev/null", " </dev/null",
		" {fd}>/dev/null", " < /dev/zero", " >\\\n> /dev/null", " 2\\\n>/dev/null", " <\\\n< a", " <\\\n<< a",
		" >\\\n&2", " 2>\\\n&1", " &\\\n> /dev/null"}
	genPrefixes = []string{"!", "time", "time -p", "! !", "LANG=C", "x=1 LC_ALL=C", "command", "nice", "{", "exec"}
	genDelims   = []string{"EOF", "E_1", "E\rF", "E F", "E\\F", "E'F", "$E", "E;F", "-", "é", "E\tF", "END"}
	genBodies   = []string{"x", "$x", "a\\\nb", "'q'", "EOF ", " EOF", "\tEOF", "$(echo)", "a\rb", "#", "\\"}
	genAfterDoc = []string{"", "echo after", "cat README.md", "ls"}
)

// genBodyEnds are the lines that may end a here-document with delimiter
// d, and some that only look as if they did.
func genBodyEnds(d string) []string {
	return []string{d, d, "\t" + d, d + " ", d + "\r", strings.ToLower(d), d + "\\", "\\" + d}
}

// background reports a script that puts a job in the background.
func background(script string) bool {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script), "")
	if err != nil {
		return true // judged as a parse error, never allowed
	}
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		if st, ok := n.(*syntax.Stmt); ok && st.Background {
			found = true
		}
		return !found
	})
	return found
}

package bashguard

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"mvdan.cc/sh/v3/syntax"

	"github.com/toolgate/toolgate/permission"
)

// notProcesses are reported commands that bash runs without a process of
// their own and that cannot be routed through PATH.
var notProcesses = map[string]bool{
	"command": true, "builtin": true, "exec": true, "eval": true, "source": true, ".": true,
}

// declBuiltins are parsed as declarations; they start no process.
var declBuiltins = map[string]bool{
	"export": true, "declare": true, "local": true, "readonly": true, "typeset": true, "nameref": true,
}

// disabled are the builtins the differential run turns off with enable -n,
// so that bash looks them up in PATH and the logging wrappers see them.
const disabled = "echo pwd true false test [ printf kill : type hash"

// TestDifferentialBash runs every benign case that the guard allows under
// real bash, with PATH holding only logging wrappers, and checks that the
// commands bash ran are exactly the ones the guard reported, with the argv
// it reported.
func TestDifferentialBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	require.NoError(t, err, "the differential test needs bash")
	work := t.TempDir()
	bin := t.TempDir()
	for _, f := range []string{"README.md", "input.txt", "win.txt"} {
		require.NoError(t, os.WriteFile(filepath.Join(work, f), []byte("x\n"), 0o644))
	}
	g := New(Policy{Home: work})
	paths := CheckerJudge(rootChecker{dir: work, roots: []string{work}})

	ran, exact := 0, 0
	for _, c := range loadCases(t) {
		if c.Decision != "allow" || c.Opts != "" || len(c.Files) > 0 || len(c.Home) > 0 {
			continue
		}
		v := g.Judge(context.Background(), work, paths, c.Script)
		if v.Decision != permission.Allow {
			continue // a case about paths of the case policy, not of this workspace
		}
		var want [][]string
		skip := false
		for _, cmd := range v.Commands {
			if len(cmd.Args) == 0 || cmd.Args[0] == "[[" || declBuiltins[cmd.Args[0]] {
				continue // assignments, declarations, redirections and [[ ]] start no process
			}
			if notProcesses[cmd.Args[0]] || strings.Contains(cmd.Args[0], "/") {
				skip = true
			}
			want = append(want, cmd.Args)
		}
		if skip {
			continue
		}
		for _, w := range want {
			writeLogger(t, bin, w[0])
		}
		got := runLogged(t, bash, work, bin, c.Script)
		ran++
		if branches(t, c.Script) {
			// Only one branch of an if, ||, case or loop runs, perhaps
			// several times: every command that ran must have been
			// reported.
			for _, argv := range got {
				assert.True(t, slices.ContainsFunc(want, func(w []string) bool { return sameArgv(w, argv) }),
					"script %q ran %q, which the guard did not report (reported %q)", c.Script, argv, want)
			}
			continue
		}
		exact++
		assert.True(t, sameArgvs(want, got), "script %q: reported commands %q differ from what bash ran: %q", c.Script, want, got)
	}
	t.Logf("ran %d allowed cases under bash, %d compared exactly", ran, exact)
	assert.GreaterOrEqual(t, ran, 120, "too few allowed cases reached bash")
}

// writeLogger creates bin/name: it appends its argv to $LOG as one record
// (unit separators between words, a record separator at the end) in a
// single write, then exits 0 (1 for false).
func writeLogger(t *testing.T, bin, name string) {
	p := filepath.Join(bin, name)
	if _, err := os.Stat(p); err == nil {
		return
	}
	end := shimEnd(name, "BASH_ENV=\"$DIFF_BASH_ENV\" exec "+mustLook(t, "bash"))
	script := "#!" + mustLook(t, "bash") + "\n" +
		"rec=\"${0##*/}\"; for a in \"$@\"; do rec+=$'\\037'\"$a\"; done\n" +
		"printf '%s\\036' \"$rec\" >> \"$LOG\"\n" + end
	require.NoError(t, os.WriteFile(p, []byte(script), 0o755))
}

// shimEnd is what a logging stand-in for name does once it has logged
// its argv: a shell runs its arguments for real through runShell (so that
// the commands in a -c script reach the loggers too; BASH_ENV turns their
// builtins off as well and no profile is read; zsh runs as bash, since the
// guard allows only zsh code that zsh reads as bash does, TestZshPlain),
// pwd and echo print what the guard judges $(pwd) and $(echo WORDS) of
// literal words to be, and every other name exits 0 (false 1).
func shimEnd(name, runShell string) string {
	code := "0"
	if name == "false" {
		code = "1"
	}
	end := "exit " + code + "\n"
	switch name {
	case "bash", "sh", "dash", "zsh":
		return runShell + " --noprofile --norc \"$@\"\n"
	case "pwd":
		return "printf '%s\\n' \"$PWD\"\n" + end
	case "echo":
		return "printf '%s\\n' \"$*\"\n" + end
	}
	return end
}

func mustLook(t *testing.T, name string) string {
	p, err := exec.LookPath(name)
	require.NoError(t, err)
	return p
}

func runLogged(t *testing.T, bash, work, bin, script string) [][]string {
	log := filepath.Join(t.TempDir(), "log")
	require.NoError(t, os.WriteFile(log, nil, 0o644))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, "--noprofile", "--norc", "-c",
		"enable -n "+disabled+"\n"+script+"\nwait")
	cmd.Dir = work
	benv := filepath.Join(t.TempDir(), "bash_env")
	// Read by a shell that a logger starts for real (its builtins off
	// too); it unsets itself so that the loggers it runs do not read it.
	require.NoError(t, os.WriteFile(benv, []byte("enable -n "+disabled+"\nunset BASH_ENV\n"), 0o644))
	cmd.Env = []string{"PATH=" + bin, "LOG=" + log, "HOME=" + work, "LANG=C", "DIFF_BASH_ENV=" + benv}
	out, _ := cmd.CombinedOutput() // commands may fail; the log is what counts
	require.NoError(t, ctx.Err(), "script %q timed out: %s", script, out)
	data, err := os.ReadFile(log)
	require.NoError(t, err)
	var got [][]string
	for _, rec := range strings.Split(string(data), "\036") {
		if rec != "" {
			got = append(got, strings.Split(rec, "\037"))
		}
	}
	return got
}

// branches reports scripts where not every reported command runs exactly
// once, or not in the order reported: conditionals, || lists, case and
// loops, a cd, after which the commands are judged in every directory it
// may leave, and a background job. It walks the
// syntax tree itself.
func branches(t *testing.T, script string) bool {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script), "")
	require.NoError(t, err)
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.IfClause, *syntax.WhileClause, *syntax.ForClause, *syntax.CaseClause:
			found = true
		case *syntax.FuncDecl:
			// The guard judges a function's body where it is defined;
			// bash runs it once per call, or never.
			found = true
		case *syntax.Stmt:
			// A background job runs beside the commands after it: the
			// order of the two is not fixed.
			found = found || n.Background
		case *syntax.CallExpr:
			found = found || len(n.Args) > 0 && n.Args[0].Lit() == "cd"
		case *syntax.BinaryCmd:
			if n.Op == syntax.OrStmt || n.Op == syntax.AndStmt {
				found = found || slices.ContainsFunc([]*syntax.Stmt{n.X}, isTest)
			}
			found = found || n.Op == syntax.OrStmt
		}
		return !found
	})
	return found
}

// isTest reports a statement whose status depends on the workspace, or
// is negated.
func isTest(s *syntax.Stmt) bool {
	if s.Negated {
		return true
	}
	switch c := s.Cmd.(type) {
	case *syntax.TestClause:
		return true
	case *syntax.CallExpr:
		return len(c.Args) > 0 && (c.Args[0].Lit() == "test" || c.Args[0].Lit() == "[" || c.Args[0].Lit() == "false")
	}
	return false
}

// sameArgv reports whether bash's argv got is the judged argv want: word
// for word, a judged data word (see dataWord) standing for any one word.
func sameArgv(want, got []string) bool {
	if len(want) != len(got) {
		return false
	}
	for i := range want {
		if want[i] != got[i] && !(i > 0 && dataWord(want[i])) {
			return false
		}
	}
	return true
}

// sameArgvs reports whether the judged argvs and bash's are the same
// multiset under sameArgv.
func sameArgvs(want, got [][]string) bool {
	if len(want) != len(got) {
		return false
	}
	used := make([]bool, len(got))
	for _, w := range want {
		k := slices.IndexFunc(got, func(g []string) bool { return sameArgv(w, g) })
		for k >= 0 && used[k] {
			next := slices.IndexFunc(got[k+1:], func(g []string) bool { return sameArgv(w, g) })
			if next < 0 {
				k = -1
				break
			}
			k += 1 + next
		}
		if k < 0 {
			return false
		}
		used[k] = true
	}
	return true
}

// dataWord reports a judged word that stands for one word whose value the
// guard does not know and accepts whatever it is: quoted output of a
// command substitution, a variable such as $? or $USER, or a pipe from a
// process substitution.
func dataWord(w string) bool {
	return strings.HasPrefix(w, "<(") && strings.HasSuffix(w, ")") || strings.Contains(w, "$") || strings.Contains(w, "`")
}

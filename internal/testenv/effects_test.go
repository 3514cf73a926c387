package testenv

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// forbidden are the programs test code must never run: each installs
// something or starts a server that outlives the test, which is
// .ci/setup's job, done before the tests. when, if set, are the arguments
// that make the program do it (pip --help installs nothing). A new one is
// a row.
var forbidden = map[string]struct {
	why  string
	when []string
}{
	"npm":           {"installs packages from the npm registry", []string{"install", "i", "ci", "add", "exec", "x", "update"}},
	"npx":           {"installs packages from the npm registry", nil},
	"pnpm":          {"installs packages from the npm registry", []string{"install", "i", "add", "dlx", "update"}},
	"yarn":          {"installs packages from the npm registry", []string{"install", "add", "dlx"}},
	"apt-get":       {"installs Debian packages", nil},
	"apt":           {"installs Debian packages", []string{"install", "update", "upgrade", "full-upgrade", "reinstall"}},
	"dpkg":          {"installs Debian packages", []string{"-i", "--install", "--unpack", "--configure"}},
	"pip":           {"installs Python packages", []string{"install", "download", "wheel"}},
	"pip3":          {"installs Python packages", []string{"install", "download", "wheel"}},
	"sudo":          {"runs as root what a test may not", nil},
	"systemctl":     {"starts system services", nil},
	"service":       {"starts system services", nil},
	"initdb":        {"creates a PostgreSQL cluster", nil},
	"pg_ctl":        {"starts a PostgreSQL server", nil},
	"pg_ctlcluster": {"starts a PostgreSQL server", nil},
	"postgres":      {"starts a PostgreSQL server", nil},
	".ci/postgres":  {"installs and starts PostgreSQL", nil},
	".ci/setup":     {"installs what the tests use", nil},
}

// launchers are the calls that run their first argument (after a context
// or a *testing.T): os/exec's and the tests' own wrappers of it.
var launchers = map[string]bool{
	"exec.Command": true, "exec.CommandContext": true, "os.StartProcess": true, "syscall.Exec": true,
	"syscall.ForkExec": true, "command": true, "start": true, "run": true, "runCmd": true,
}

// allowed are the runs of a forbidden program that stay: one row each,
// with the file, the program and why it leaves nothing behind (.ci/run's
// leftover check proves it). A row no run matches any more is an error.
var allowed = []struct{ file, program, why string }{
	{"bashguard/runner/confine_escape_test.go", "initdb",
		"the escape test's own throw-away cluster in t.TempDir, as the target outside the sandbox"},
	{"bashguard/runner/confine_escape_test.go", "pg_ctl",
		"starts that cluster on a UNIX socket in t.TempDir and stops it (-m immediate) in t.Cleanup"},
}

// scriptRE finds a forbidden program as a command word of a shell script
// passed to sh -c or bash -c.
var scriptRE = regexp.MustCompile(`(?:^|[;&|(\n]|\$\()\s*((?:\.ci/)?[A-Za-z][A-Za-z0-9_.-]*)`)

type finding struct{ at, program, why string }

// runs finds the forbidden programs src runs: a call whose program (its
// first argument, or second after a context) is a literal, a
// filepath.Join ending in one, or a variable set from either or from
// exec.LookPath of one; and the command words of a literal sh -c script.
func runs(t *testing.T, fset *token.FileSet, name string, src []byte) []finding {
	t.Helper()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	require.NoError(t, err)
	consts := map[string]string{} // variable → the program it names
	var resolve func(e ast.Expr) string
	resolve = func(e ast.Expr) string {
		switch e := e.(type) {
		case *ast.BasicLit:
			if s, err := strconv.Unquote(e.Value); err == nil && e.Kind == token.STRING {
				return s
			}
		case *ast.Ident:
			return consts[e.Name]
		case *ast.ParenExpr:
			return resolve(e.X)
		case *ast.CallExpr:
			switch callName(e) {
			case "filepath.Join", "path.Join":
				var parts []string
				for _, a := range e.Args {
					if s := resolve(a); s != "" {
						parts = append(parts, s)
					}
				}
				return path.Join(parts...)
			case "exec.LookPath", "findUp", "auditFindUp":
				if len(e.Args) == 1 {
					return resolve(e.Args[0])
				}
			}
		}
		return ""
	}
	// program is the row s names: its base name, or .ci/NAME.
	program := func(s string) string {
		b := path.Base(s)
		if path.Base(path.Dir(s)) == ".ci" {
			b = ".ci/" + b
		}
		if _, ok := forbidden[b]; ok {
			return b
		}
		return ""
	}
	// does says whether args make the row p do what it may not.
	does := func(p string, args []string) bool {
		for _, a := range args {
			if a == "--help" || a == "-h" || a == "--version" {
				return false
			}
		}
		when := forbidden[p].when
		return when == nil || slices.ContainsFunc(args, func(a string) bool { return slices.Contains(when, a) })
	}
	var out []finding
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Rhs) == 1 {
				if s := resolve(n.Rhs[0]); s != "" {
					if id, ok := n.Lhs[0].(*ast.Ident); ok {
						consts[id.Name] = s
					}
				}
			}
		case *ast.ValueSpec:
			for i, v := range n.Values {
				if s := resolve(v); s != "" && i < len(n.Names) {
					consts[n.Names[i].Name] = s
				}
			}
		case *ast.CallExpr:
			name := callName(n)
			if _, sel, ok := strings.Cut(name, "."); ok && !strings.HasPrefix(name, "exec.") && !strings.HasPrefix(name, "os.") && !strings.HasPrefix(name, "syscall.") {
				name = sel // a method: u.command
			}
			if !launchers[name] {
				return true
			}
			args := n.Args
			if len(args) > 1 && isCtx(args[0]) {
				args = args[1:]
			}
			if len(args) == 0 {
				return true
			}
			at := fset.Position(n.Pos()).String()
			var words []string
			for _, a := range args[1:] {
				words = append(words, resolve(a))
			}
			prog := resolve(args[0])
			if p := program(prog); p != "" && does(p, words) {
				out = append(out, finding{at, p, forbidden[p].why})
			}
			if b := path.Base(prog); (b == "sh" || b == "bash") && len(words) >= 2 && words[0] == "-c" {
				for _, line := range scriptRE.FindAllStringSubmatchIndex(words[1], -1) {
					cmd := strings.Fields(words[1][line[2]:])
					if p := program(cmd[0]); p != "" && does(p, cmd[1:]) {
						out = append(out, finding{at, p, forbidden[p].why})
					}
				}
			}
		}
		return true
	})
	return out
}

func callName(c *ast.CallExpr) string {
	switch f := c.Fun.(type) {
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok {
			return x.Name + "." + f.Sel.Name
		}
		return f.Sel.Name
	case *ast.Ident:
		return f.Name
	}
	return ""
}

// isCtx says whether e is a context or a *testing.T, which a launcher
// takes before the program.
func isCtx(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name == "ctx" || e.Name == "t"
	case *ast.CallExpr:
		n := callName(e)
		return n == "context.Background" || n == "context.TODO" || strings.HasSuffix(n, ".Context")
	}
	return false
}

// The checker finds each way test code has run an installer or a server,
// and says which program and why it may not.
func TestRunsFindsInstallsAndServers(t *testing.T) {
	cases := []struct{ name, src, program, why string }{
		{"npm from LookPath", `npm, _ := exec.LookPath("npm"); exec.Command(npm, "install", "x")`, "npm", "installs packages from the npm registry"},
		{"apt-get literal", `exec.Command("apt-get", "install", "-y", "zsh")`, "apt-get", "installs Debian packages"},
		{"the setup script found up", `script, _ := findUp(filepath.Join(".ci", "postgres")); exec.CommandContext(ctx, script).Output()`, ".ci/postgres", "installs and starts PostgreSQL"},
		{"pg_ctl by path", `exec.Command(filepath.Join(bin, "pg_ctl"), "start")`, "pg_ctl", "starts a PostgreSQL server"},
		{"a wrapper with a context", `u.command(t.Context(), "/usr/lib/postgresql/15/bin/initdb", "-D", d)`, "initdb", "creates a PostgreSQL cluster"},
		{"inside sh -c", `exec.Command("bash", "-c", "cd x && npm ci")`, "npm", "installs packages from the npm registry"},
		{"sudo in a script", `exec.Command("sh", "-c", "sudo apt-get install -y tree")`, "sudo", "runs as root what a test may not"},
		{"a const", `const setup = ".ci/setup"; exec.Command(setup)`, ".ci/setup", "installs what the tests use"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := "package p\nfunc f() {\n" + strings.ReplaceAll(c.src, "; ", "\n") + "\n}\n"
			if strings.HasPrefix(c.src, "const") {
				src = "package p\n" + strings.Replace(c.src, "; ", "\nfunc f() {\n", 1) + "\n}\n"
			}
			got := runs(t, token.NewFileSet(), "x_test.go", []byte(src))
			require.NotEmpty(t, got, "found nothing in %s", c.src)
			assert.Equal(t, c.program, got[0].program)
			assert.Equal(t, c.why, got[0].why)
		})
	}
	// What tests do that is not an install: words in messages and in
	// commands a guard judges, and looking a tool up to run it.
	for _, src := range []string{
		`t.Skip("npm is not installed: run .ci/setup")`,
		`check(t, "npm install lodash", "ask")`,
		`exec.Command("go", "build", "./...")`,
		`exec.Command("bash", "-c", "echo npm install")`,
		`exec.LookPath("npm")`,
	} {
		got := runs(t, token.NewFileSet(), "x_test.go", []byte("package p\nfunc f() {\n"+src+"\n}\n"))
		assert.Empty(t, got, "%s", src)
	}
}

// No test code in any module of the repository installs anything or
// starts a server of its own beyond the rows of allowed: that is
// .ci/setup's job, and go test only uses what it prepared. Test code is
// every _test.go file and every file of a test-helper package (a
// directory whose name ends in "test", like hookstest).
func TestNoTestInstallsOrStartsServers(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	_, err = os.Stat(filepath.Join(root, ".ci", "setup"))
	require.NoError(t, err, "the repository's root is two levels up")
	fset := token.NewFileSet()
	var found []finding
	files := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "node_modules" || n == "testdata" || n == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if !strings.HasSuffix(p, ".go") || !(strings.HasSuffix(p, "_test.go") || strings.HasSuffix(filepath.Dir(p), "test")) {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		for _, f := range runs(t, fset, filepath.ToSlash(rel), src) {
			found = append(found, f)
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, files, 100, "the walk reached the test files")
	used := make([]bool, len(allowed))
	for _, f := range found {
		file, _, _ := strings.Cut(f.at, ":")
		i := slices.IndexFunc(allowed, func(a struct{ file, program, why string }) bool {
			return a.file == file && a.program == f.program
		})
		if i >= 0 {
			used[i] = true
			continue
		}
		t.Errorf("%s: test code runs %s, which %s: that is .ci/setup's job; use what it prepared (internal/testenv) or skip saying to run it", f.at, f.program, f.why)
	}
	for i, a := range allowed {
		assert.True(t, used[i], "allowed row %s runs %s matches no run any more: remove it", a.file, a.program)
	}
}

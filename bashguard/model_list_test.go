package bashguard_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/sandbox"
)

// recordingJudge remembers what the path judge it wraps said of every
// path read.
type recordingJudge struct {
	mu    sync.Mutex
	j     bashguard.PathJudge
	reads map[string]permission.Decision
}

func (r *recordingJudge) JudgePath(p string, access bashguard.Access) permission.Result {
	res := r.j.JudgePath(p, access)
	if access == bashguard.Read {
		r.mu.Lock()
		if d, seen := r.reads[filepath.Clean(p)]; !seen || res.Decision < d {
			r.reads[filepath.Clean(p)] = res.Decision
		}
		r.mu.Unlock()
	}
	return res
}

// listingScripts feed cat the names a listing command prints. clean says
// that the guard allows the script in the clean tree.
var listingScripts = []struct {
	script string
	clean  bool
	needs  string // a program that must be installed
}{
	{"git ls-files | xargs cat", true, ""},
	{"git ls-files -z | xargs -0 cat", true, ""},
	{"git ls-files -co --exclude-standard | xargs cat", true, ""},
	{"git grep -l x | xargs cat", true, ""},
	{"git diff --name-only --cached 4b825dc642cb6eb9a060e54bf8d69288fbee4904 | xargs cat", true, ""},
	{"git diff -z --name-only --cached 4b825dc642cb6eb9a060e54bf8d69288fbee4904 | xargs -0 cat", true, ""},
	{"grep -rl x . | xargs cat", true, ""},
	{"grep -rlZ x | xargs -0 cat", true, ""},
	{"ls | xargs cat", true, ""},
	{"ls -A | xargs cat", true, ""},
	{"find . -name '*.go' | xargs cat", true, ""},
	{"find . -print0 | xargs -0 cat", true, ""},
	{"rg -l x | xargs cat", true, "rg"},
	{"rg --files --hidden | xargs cat", true, "rg"},
	{"fd | xargs cat", true, "fd"},
	{"fd -H -0 | xargs -0 cat", true, "fd"},
	{"for f in $(git ls-files); do cat \"$f\"; done", true, ""},
	{"for f in $(git ls-files); do cat $f; done", true, ""},
	{"for f in $(ls); do cat $f; done", true, ""},
	{"for f in `ls -A`; do cat \"$f\"; done", true, ""},
	{"for f in $(find . -name '*.go'); do cat \"$f\"; done", true, ""},
	{"for f in $(grep -rl x src); do cat \"$f\"; done", true, ""},
	{"git ls-files | while read -r f; do cat \"$f\"; done", true, ""},
	{"git ls-files | while read f; do cat \"$f\"; done", true, ""},
	{"git ls-files | while IFS= read -r f; do cat \"$f\"; done", true, ""},
	{"while read -r f; do cat \"$f\"; done < <(git ls-files)", true, ""},
	{"while read -r f; do cat $f; done < <(find . -name '*.go')", true, ""},
	{"git ls-files -z | while IFS= read -r -d '' f; do cat \"$f\"; done", true, ""},
	{"find . -type f -print0 | while IFS= read -r -d '' f; do cat \"$f\"; done", false, ""}, // .git holds more than 32
	{"ls -A | while read -r f; do cat \"$f\"; done", true, ""},
	{"for f in $(git ls-files | grep -v zzz | sort); do cat \"$f\"; done", true, ""},
	{"while read -r f; do cat \"$f\"; done < <(find . -name '*.go' | sort -r)", true, ""},
	{"git ls-files | grep -v zzz | xargs cat", true, ""},
	{"git ls-files | xargs -d '\\n' cat", true, ""},
	{"find . -name '*.go' | xargs --delimiter='\\n' cat", true, ""},
}

// listingTrees are the trees the scripts run in, each a repository with
// every file committed: a clean one, one with a secret, and one for each
// kind of name that splitting, globbing, quoting or options change, with
// what such a name may turn into beside it.
var listingTrees = map[string][]string{
	"clean":     {"a.go", "src/b.go", "docs/c.md", ".hidden/h.txt"},
	"secret":    {"a.go", "config/.env", "src/b.go"},
	"dotenv":    {"a.go", ".env"},
	"star":      {"a.go", "*"},
	"substar":   {"a.go", "sub/*", "sub/d.go"},
	"bracket":   {"a.go", "[ab]", "b", "?", "x"},
	"blank":     {"a.go", "b c.go", "b", "c.go"},
	"pre":       {"a.go", "x --pre=sh"},
	"dash":      {"a.go", "-n"},
	"utf":       {"a.go", "caf\u00e9.go"},
	"backslash": {"a.go", "back\\slash", "backslash"},
	"lead":      {"a.go", " lead", "lead", "trail ", "trail"},
	"newline":   {"a.go", "new\nline", "new", "line"},
	"quote":     {"a.go", "q'uote", "quote", "dq\"uote"},
	"link":      {"a.go", "link->out"},
}

// TestListingsAgainstBash runs every listing script under real bash, with
// real git, find, ls, grep, xargs (and rg and fd when installed) and a
// cat that logs its arguments, in real trees: whenever the guard allows
// a script, every file bash handed cat went through the path judge as a
// read, and was allowed there (and every option, a name that starts with
// "-", was judged as part of cat's command line).
func TestListingsAgainstBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("SKIP: the listing test needs bash: " + err.Error())
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP: the listing test needs git: " + err.Error())
	}
	bin, have := listingBin(t, bash)
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	out := filepath.Join(base, "outside")
	require.NoError(t, os.MkdirAll(out, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(out, "secret.txt"), []byte("x\n"), 0o644))
	pol := bashguard.DefaultPolicy()
	pol.Home = filepath.Join(base, "home")
	g := bashguard.New(pol)

	for tree, files := range listingTrees {
		dir := listingTree(t, filepath.Join(base, tree), files, filepath.Join(out, "secret.txt"))
		sb, err := sandbox.New(sandbox.Config{Roots: []string{dir}, WorkDir: dir})
		require.NoError(t, err)
		for _, sc := range listingScripts {
			t.Run(tree+"/"+sc.script, func(t *testing.T) {
				if sc.needs != "" && !have[sc.needs] {
					t.Skip("SKIP: " + sc.needs + " is not installed")
				}
				judge := &recordingJudge{j: bashguard.CheckerJudge(sb), reads: map[string]permission.Decision{}}
				v := g.Judge(context.Background(), dir, judge, sc.script)
				got := runCat(t, bash, dir, bin, sc.script)
				switch {
				case tree == "clean" && sc.clean:
					assert.Equal(t, permission.Allow, v.Decision, "%s in the clean tree: %s", sc.script, v.Reason)
					assert.NotEmpty(t, got, "%s gave cat no file", sc.script)
				case (tree == "secret" || tree == "dotenv") && strings.Contains(sc.script, "git"):
					assert.NotEqual(t, permission.Allow, v.Decision, "%s lists config/.env", sc.script)
					assert.Contains(t, v.Reason, ".env", "%s", sc.script)
				}
				if v.Decision == permission.Allow {
					catGotJudged(t, sc.script, dir, v, judge, got)
				}
			})
		}
	}
}

// listingBin makes a directory of the real tools the listing scripts
// run (those installed; fdfind as fd) and a cat that logs its arguments
// to $LOG, and returns it with the names it holds.
func listingBin(t *testing.T, bash string) (string, map[string]bool) {
	bin := t.TempDir()
	have := map[string]bool{}
	for _, name := range []string{"git", "find", "ls", "grep", "sort", "xargs", "rg", "fd", "fdfind"} {
		p, err := exec.LookPath(name)
		if err != nil {
			continue
		}
		if name == "fdfind" {
			name = "fd"
		}
		if !have[name] {
			require.NoError(t, os.Symlink(p, filepath.Join(bin, name)))
			have[name] = true
		}
	}
	logger := "#!" + bash + "\nfor a in \"$@\"; do printf '%s\\0' \"$a\" >> \"$LOG\"; done\n"
	require.NoError(t, os.WriteFile(filepath.Join(bin, "cat"), []byte(logger), 0o755))
	return bin, have
}

// listingTree makes the tree of files at dir ("name->" a link to
// secret), commits it in a new git repository, and returns dir.
func listingTree(t *testing.T, dir string, files []string, secret string) string {
	for _, f := range files {
		p, target, isLink := strings.Cut(f, "->")
		full := filepath.Join(dir, p)
		require.NoError(t, os.MkdirAll(filepath.Dir(full), 0o755))
		if isLink {
			require.NoError(t, os.Symlink(secret, full), target)
			continue
		}
		require.NoError(t, os.WriteFile(full, []byte("x\n"), 0o644))
	}
	gitEnv := []string{"HOME=" + dir, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1"}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-f", "."},
		{"-c", "user.name=dev", "-c", "user.email=dev@example.com", "commit", "-qm", "first"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, gitEnv
		b, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, b)
	}
	return dir
}

// catGotJudged asserts, of the allowed script, that every argument bash
// gave cat was judged: an option as part of cat's command line, a file
// as a read the path judge allowed.
func catGotJudged(t *testing.T, script, dir string, v bashguard.Verdict, judge *recordingJudge, got []string) {
	for _, arg := range got {
		if strings.HasPrefix(arg, "-") {
			// cat takes it as an option, not a file: the guard must have
			// judged that very command line.
			assert.True(t, slices.ContainsFunc(v.Commands, func(c bashguard.Command) bool {
				return len(c.Args) > 1 && c.Args[0] == "cat" && slices.Contains(c.Args[1:], arg)
			}), "%s: bash gave cat the option %q, which the guard never judged", script, arg)
			continue
		}
		p := arg
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		d, judged := judge.reads[filepath.Clean(p)]
		assert.True(t, judged, "%s: bash gave cat %q, which the guard never judged (allowed: %s)", script, arg, v.Reason)
		assert.Equal(t, permission.Allow, d, "%s: bash gave cat %q, which the path judge refused, yet the guard allowed it", script, arg)
	}
}

// runCat runs script under bash in dir with only the programs of bin and
// returns the arguments cat got.
func runCat(t *testing.T, bash, dir, bin, script string) []string {
	t.Helper()
	log := filepath.Join(t.TempDir(), "log")
	require.NoError(t, os.WriteFile(log, nil, 0o644))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, "--noprofile", "--norc", "-c", script)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + bin, "LOG=" + log, "HOME=" + dir, "LANG=C.UTF-8", "GIT_CONFIG_NOSYSTEM=1"}
	b, _ := cmd.CombinedOutput() // commands may fail; the log is what counts
	require.NoError(t, ctx.Err(), "script %q timed out: %s", script, b)
	data, err := os.ReadFile(log)
	require.NoError(t, err)
	var args []string
	for _, a := range strings.Split(string(data), "\x00") {
		if a != "" {
			args = append(args, a)
		}
	}
	return args
}

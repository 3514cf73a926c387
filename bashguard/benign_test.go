package bashguard

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
)

var updateBenign = flag.Bool("update-benign", false, "rewrite testdata/benign.jsonl with the guard's answers (review the diff)")

// benignFloor is the share of the benign table the guard must allow: the
// goal of 97%, which holds; it only rises.
const benignFloor = 0.97

// benignRepo makes an ordinary repository: sources, docs, a manifest, a
// commit; no secrets.
func benignRepo(t *testing.T) string {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"README.md": "# project\nhello\n", "go.mod": "module example.com/p\n\ngo 1.26\n",
		"main.go":  "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hi\") }\n",
		"src/a.go": "package src\n\n// TODO: more\nfunc A() {}\n", "src/b_test.go": "package src\n",
		"docs/guide.md": "# guide\n", "package.json": `{"name": "p", "scripts": {"test": "go test"}}` + "\n",
		".gitignore": "bin/\n# build\n", "Makefile": "all:\n\tgo build\n",
	} {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "."}, {"-c", "user.name=dev", "-c", "user.email=dev@example.com", "commit", "-qm", "first"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = []string{"HOME=" + dir, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1"}
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
	}
	return dir
}

// benignGoEnv makes a Go module cache under home, as go leaves it (the
// module's files and directories read-only), and a build cache beside
// it.
func benignGoEnv(t *testing.T, home string) GoEnv {
	e := GoEnv{Path: filepath.Join(home, "go"), Cache: filepath.Join(home, ".cache", "go-build")}
	e.ModCache = filepath.Join(e.Path, "pkg", "mod")
	mod := filepath.Join(e.ModCache, "github.com", "go-git", "go-git", "v6@v6.0.0")
	for name, body := range map[string]string{
		"repository.go":    "package git\n\n// PlainOpen opens a repository.\nfunc PlainOpen(path string) {}\n",
		"go.mod":           "module github.com/go-git/go-git/v6\n",
		"plumbing/hash.go": "package plumbing\n",
	} {
		p := filepath.Join(mod, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o444))
	}
	require.NoError(t, os.MkdirAll(filepath.Join(e.ModCache, "cache", "download"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(e.Cache, "00"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(e.Cache, "00", "x-d"), []byte("cached test output\n"), 0o644))
	// As go leaves them: unwritable (t.TempDir's cleanup makes them
	// writable again to remove them).
	require.NoError(t, filepath.WalkDir(mod, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			err = os.Chmod(p, 0o555)
		}
		return err
	}))
	return e
}

// TestBenignCommands judges a table of read-only commands coding agents
// run every day, in an ordinary repository: each keeps its recorded
// decision and reason, every asked one says why, and the share allowed
// does not fall below benignFloor.
func TestBenignCommands(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP: the benign table needs git for its repository: " + err.Error())
	}
	dir := benignRepo(t)
	pol := DefaultPolicy()
	pol.Home = t.TempDir()
	pol.GoEnv = benignGoEnv(t, pol.Home)
	// The user's git config, as a developer's holds it: no credential in
	// it, so git config --list prints nothing secret (model_git_secrets.go).
	require.NoError(t, os.WriteFile(filepath.Join(pol.Home, ".gitconfig"), []byte("[user]\n\tname = dev\n\temail = dev@example.com\n"+
		"[url \"git@github.com:\"]\n\tinsteadOf = https://github.com/\n[credential]\n\thelper = cache --timeout=3600\n"), 0o644))
	// The host's values of the variables that hold no secret, as
	// toolgate check gives them from Claude Code's environment.
	pol.Environ = map[string]string{"PATH": "/usr/local/bin:/usr/bin:/bin", "SHELL": "/bin/bash", "USER": "dev"}
	open := New(pol)
	pol.Confined = true
	confined := New(pol)
	paths := CheckerJudge(rootChecker{dir: dir, roots: []string{dir}})

	f, err := os.Open("testdata/benign.jsonl")
	require.NoError(t, err)
	defer f.Close()
	var cases []testCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c testCase
		require.NoError(t, json.Unmarshal(sc.Bytes(), &c))
		cases = append(cases, c)
	}
	require.NoError(t, sc.Err())
	require.GreaterOrEqual(t, len(cases), 200, "the benign table has at least 200 commands")

	work := func(s string) string { return strings.ReplaceAll(s, dir, "$WORK") }
	allowed := map[bool]int{}
	var out []byte
	for _, c := range cases {
		var got [2]Verdict
		for k, g := range []*Guard{open, confined} {
			v := g.Judge(context.Background(), dir, paths, c.Script)
			got[k] = v
			if v.Decision == permission.Allow {
				allowed[k == 1]++
			} else {
				assert.NotEmpty(t, strings.TrimSpace(v.Reason), "%q is %s without a reason", c.Script, v.Decision)
			}
			if *updateBenign {
				continue
			}
			w := c.want(k == 1)
			assert.Equal(t, w.Decision, v.Decision.String(), "decision for %q, confined %v (%s)", c.Script, k == 1, v.Reason)
			assert.Equal(t, w.Rule, string(v.Rule), "rule for %q, confined %v", c.Script, k == 1)
			assert.Contains(t, work(v.Reason), w.Reason, "reason for %q, confined %v", c.Script, k == 1)
		}
		if *updateBenign {
			c := testCase{Script: c.Script, Comment: c.Comment}
			c.record(got[0], got[1], work)
			b, err := json.Marshal(c)
			require.NoError(t, err)
			out = append(append(out, b...), '\n')
		}
	}
	if *updateBenign {
		require.NoError(t, os.WriteFile("testdata/benign.jsonl", out, 0o644))
	}
	for _, confined := range confinedToo {
		rate := float64(allowed[confined]) / float64(len(cases))
		t.Logf("benign table, confined %v: %d of %d allowed (%.1f%%)", confined, allowed[confined], len(cases), 100*rate)
		assert.GreaterOrEqual(t, rate, benignFloor, "the share of everyday commands allowed fell (confined %v)", confined)
	}
}

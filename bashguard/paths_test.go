package bashguard_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/internal/sysread"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/sandbox"
)

// pathCase is one line of testdata/paths.jsonl: a script judged in a real
// workspace ($WS, with $OUT outside it) through a path judge that adds
// path rules to the sandbox.
type pathCase struct {
	Script   string `json:"script"`
	Decision string `json:"decision"`
	Rule     string `json:"rule"`
	Layer    string `json:"layer,omitempty"` // of the deciding command, when set
	Reason   string `json:"reason"`          // a substring of the verdict's reason
}

// pathsWorkspace lays out the workspace of testdata/paths.jsonl.
func pathsWorkspace(t *testing.T) (ws, out string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	ws, out = filepath.Join(base, "ws"), filepath.Join(base, "outside")
	for _, d := range []string{"src", "clean", "tree/sub", "keys", "linked", "lists", "big", "hidden/.cache"} {
		require.NoError(t, os.MkdirAll(filepath.Join(ws, d), 0o755))
	}
	require.NoError(t, os.MkdirAll(out, 0o755))
	files := map[string]string{
		"notes.txt": "n\n", "locked.txt": "l\n", "a.txt": "a\n", ".env": "TOKEN=x\n", "src/main.go": "package main\n",
		"clean/x.go": "x\n", "clean/y.go": "y\n", "tree/a.go": "a\n", "tree/sub/.env": "T=1\n", "keys/server.pem": "k\n",
		"hidden/.cache/id_rsa": "k\n", "hidden/ok.txt": "ok\n",
		"lists/ok.lst": "a.txt\x00src/main.go\x00", "lists/secret.lst": "a.txt\x00.env\x00",
		"lists/denied.lst": "notes.txt\x00", "lists/out.lst": out + "/secret.txt\x00",
		"lists/names.txt": "a.txt\nsrc/main.go\n", "lists/names-secret.txt": "a.txt\n.env\n",
	}
	for name, body := range files {
		require.NoError(t, os.WriteFile(filepath.Join(ws, name), []byte(body), 0o644))
	}
	for i := range 2001 {
		require.NoError(t, os.WriteFile(filepath.Join(ws, "big", fmt.Sprintf("f%04d", i)), nil, 0o644))
	}
	require.NoError(t, os.WriteFile(filepath.Join(out, "secret.txt"), []byte("s\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(out, "shared.txt"), []byte("s\n"), 0o644))
	require.NoError(t, os.Symlink(out, filepath.Join(ws, "linked", "out")))
	require.NoError(t, os.Symlink(filepath.Join(ws, "notes.txt"), filepath.Join(ws, "alias.txt")))
	listerRepos(t, ws, out)
	return ws, out
}

// pathsSystemRoot makes, beside ws and out, a directory the policy takes
// for a system root ($SYS): world-readable files, and the near misses of
// the system-read rule (internal/sysread): a file not every user may
// read, a credential's name, a directory every user may write, a link
// out to $OUT (which stands for the home).
func pathsSystemRoot(t *testing.T, ws, out string) string {
	t.Helper()
	base := filepath.Dir(ws)
	sys := filepath.Join(base, "sys")
	for name, mode := range map[string]os.FileMode{
		"include/stdio.h": 0o644, "include/stdlib.h": 0o644, "shadow": 0o640, "app/db.password": 0o644, "ssl/private/site.key": 0o644,
		"drop/notes.txt": 0o644,
	} {
		p := filepath.Join(sys, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte("x\n"), mode))
		require.NoError(t, os.Chmod(p, mode))
	}
	require.NoError(t, os.Chmod(filepath.Join(sys, "drop"), 0o777))
	require.NoError(t, os.Symlink(filepath.Join(out, "secret.txt"), filepath.Join(sys, "home-link")))
	// t.TempDir makes them 0700: not every user may pass.
	require.NoError(t, os.Chmod(base, 0o755))
	require.NoError(t, os.Chmod(filepath.Dir(base), 0o755))
	return sys
}

// listerRepos makes the repositories below $WS/repos whose listings
// (git ls-files, rg -l, fd, ls) feed xargs and loops: a clean one, and one
// for each kind of entry that must not reach a command unjudged.
func listerRepos(t *testing.T, ws, out string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Log("SKIP part: the repositories of testdata/paths.jsonl need git: " + err.Error())
		return
	}
	link := func(to string) string { return "\x00link:" + to }
	repos := map[string]map[string]string{
		"clean":   {"main.go": "package main\n", "src/a.go": "package src\n", "README.md": "# r\n"},
		"env":     {"main.go": "package main\n", "config/.env": "TOKEN=x\n"},
		"outlink": {"main.go": "package main\n", "data": link(out)},
		"denied":  {"main.go": "package main\n", "notes.md": link(filepath.Join(ws, "notes.txt"))},
		"blank":   {"main.go": "package main\n", "x --pre=sh": "x\n"},
		"dash":    {"main.go": "package main\n", "--pre=sh": "x\n"},
		"star":    {"main.go": "package main\n", "*": "x\n"},
		"quoted":  {"main.go": "package main\n", "caf\u00e9.go": "x\n"},
	}
	for name, files := range repos {
		dir := filepath.Join(ws, "repos", name)
		for p, body := range files {
			full := filepath.Join(dir, p)
			require.NoError(t, os.MkdirAll(filepath.Dir(full), 0o755))
			if to, ok := strings.CutPrefix(body, "\x00link:"); ok {
				require.NoError(t, os.Symlink(to, full))
				continue
			}
			require.NoError(t, os.WriteFile(full, []byte(body), 0o644))
		}
		for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-f", "."},
			{"-c", "user.name=dev", "-c", "user.email=dev@example.com", "commit", "-qm", "first"}} {
			cmd := exec.Command("git", args...)
			cmd.Dir = dir
			cmd.Env = []string{"HOME=" + dir, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1"}
			b, err := cmd.CombinedOutput()
			require.NoError(t, err, "git %v: %s", args, b)
		}
	}
}

// rulesJudge puts path rules in front of a sandbox judge, as a host's path
// pipeline does, matching them on the real path and on the path as
// written: a Read deny rule for notes.txt, an Edit deny rule for
// locked.txt, and a Read allow rule for shared.txt outside the roots.
type rulesJudge struct {
	ws, out string
	sb      bashguard.PathJudge
}

func (j rulesJudge) JudgePath(p string, access bashguard.Access) permission.Result {
	names := []string{filepath.Clean(p)}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		names = append(names, real)
	}
	rule := func(d permission.Decision, r string) permission.Result {
		return permission.Result{Decision: d, Layer: permission.LayerRules, Source: permission.SourceConfigDeny, Rule: permission.RuleID(r),
			Reason: "denied by deny rule " + r}
	}
	for _, n := range names {
		switch {
		case access != bashguard.Write && n == j.ws+"/notes.txt":
			return rule(permission.Deny, "Read(./notes.txt)")
		case access == bashguard.Write && n == j.ws+"/locked.txt":
			return rule(permission.Deny, "Edit(./locked.txt)")
		case access == bashguard.Read && n == j.out+"/shared.txt":
			r := rule(permission.Allow, "Read(//"+strings.TrimPrefix(j.out, "/")+"/shared.txt)")
			r.Reason = "allowed by allow rule " + string(r.Rule)
			return r
		}
	}
	return j.sb.JudgePath(p, access)
}

// TestPathsReachTheJudge runs testdata/paths.jsonl: every path a command
// reaches (operands, targets, redirects, list files and their entries,
// the trees of recursive reads, git pathspecs) goes through the path
// judge, and a path rule decides as it decides for a file tool.
func TestPathsReachTheJudge(t *testing.T) {
	ws, out := pathsWorkspace(t)
	sb, err := sandbox.New(sandbox.Config{Roots: []string{ws}, WorkDir: ws})
	require.NoError(t, err)
	judge := rulesJudge{ws: ws, out: out, sb: bashguard.CheckerJudge(sb)}
	pol := bashguard.DefaultPolicy()
	pol.Home = filepath.Join(filepath.Dir(ws), "home")
	sys := pathsSystemRoot(t, ws, out)
	pol.SystemRoots = append(slices.Clone(sysread.Prefixes), sys)
	g := bashguard.New(pol)
	f, err := os.Open("testdata/paths.jsonl")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c pathCase
		require.NoError(t, json.Unmarshal(sc.Bytes(), &c), sc.Text())
		require.NotEmpty(t, c.Reason, "case %q must name a reason", c.Script)
		n++
		script := strings.NewReplacer("$WS", ws, "$OUT", out, "$SYS", sys).Replace(c.Script)
		v := g.Judge(context.Background(), ws, judge, script)
		reason := strings.NewReplacer(ws, "$WS", out, "$OUT", sys, "$SYS").Replace(v.Reason)
		assert.Equal(t, c.Decision, v.Decision.String(), "decision for %q (%s)", c.Script, reason)
		assert.Equal(t, c.Rule, string(v.Rule), "rule for %q (%s)", c.Script, reason)
		assert.Contains(t, reason, c.Reason, "reason for %q", c.Script)
		if c.Layer != "" {
			layer := ""
			for _, cmd := range v.Commands {
				if cmd.Decision == v.Decision && cmd.Rule == v.Rule {
					layer = cmd.Layer.String()
					break
				}
			}
			assert.Equal(t, c.Layer, layer, "layer for %q", c.Script)
		}
	}
	require.NoError(t, sc.Err())
	require.GreaterOrEqual(t, n, 50)
}

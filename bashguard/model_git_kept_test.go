package bashguard

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/sandbox"
)

// unkeptJudge hides a judge's ReadState: its answers are not kept.
type unkeptJudge struct{ j PathJudge }

func (u unkeptJudge) JudgePath(p string, a Access) permission.Result { return u.j.JudgePath(p, a) }

// countJudge counts the paths a kept judge is asked about.
type countJudge struct {
	j PathJudge
	n *atomic.Int64
}

func (c countJudge) JudgePath(p string, a Access) permission.Result {
	c.n.Add(1)
	return c.j.JudgePath(p, a)
}

func (c countJudge) ReadState() any { return c.j.(KeptJudge).ReadState() }

// ruleJudge denies the reads of the files named name, as a Deny rule
// would, and asks the judge j about every other path.
type ruleJudge struct {
	j    PathJudge
	name string
}

func (r ruleJudge) JudgePath(p string, a Access) permission.Result {
	if filepath.Base(p) == r.name && a != Write {
		return permission.Result{Decision: permission.Deny, Layer: permission.LayerRules, Rule: permission.RuleID("Read(**/" + r.name + ")"), Reason: "a Deny rule names it"}
	}
	return r.j.JudgePath(p, a)
}

func (r ruleJudge) ReadState() any {
	s := r.j.(KeptJudge).ReadState()
	if s == nil {
		return nil
	}
	return struct {
		inner any
		name  string
	}{s, r.name}
}

// sandboxJudge is the judge of a sandbox whose one root is ws.
func sandboxJudge(t testing.TB, ws string) PathJudge {
	t.Helper()
	sb, err := sandbox.New(sandbox.Config{Roots: []string{ws}, WorkDir: ws})
	require.NoError(t, err)
	return CheckerJudge(sb)
}

// viewJudges returns, for each call, the judge of a view of one sandbox
// whose one root is ws, as a host takes one for each tool call.
func viewJudges(t testing.TB, ws string) func() PathJudge {
	t.Helper()
	sb, err := sandbox.New(sandbox.Config{Roots: []string{ws}, WorkDir: ws})
	require.NoError(t, err)
	return func() PathJudge { return CheckerJudge(sb.Pin()) }
}

// A judge whose answers are kept judges the same as one whose answers are
// not, in a repository small enough for both: the content printers, over
// a tracked secret, one committed and no longer tracked, a path a Deny
// rule names, a tracked file of two names, one replaced by a hard link
// to a secret file or by a link out of the roots, and a tracked
// directory replaced by a link out.
func TestKeptJudgementAgrees(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP: no git for the repositories: " + err.Error())
	}
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "id_rsa"), []byte("KEY\n"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(outside, "a.go"), []byte("TODO\n"), 0o644))
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir string)
		deny  bool   // the kept judge must not allow
		not   string // a command that prints none of it
	}{
		{"nothing refused", nil, false, ""},
		{"a tracked secret", func(t *testing.T, dir string) { gitIn(t, dir, "add", "-f", ".env") }, true, ""},
		{"a committed secret, no longer tracked", func(t *testing.T, dir string) {
			gitIn(t, dir, "add", "-f", ".env")
			gitIn(t, dir, "commit", "-qm", "secret")
			gitIn(t, dir, "rm", "-q", "--cached", ".env")
		}, true, "git diff"},
		{"a path a Deny rule names", func(t *testing.T, dir string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "src", "notes.txt"), []byte("x\n"), 0o644))
			gitIn(t, dir, "add", "src/notes.txt")
		}, true, ""},
		{"a tracked file replaced by a hard link to a secret", func(t *testing.T, dir string) {
			p := filepath.Join(dir, "src", "b.go")
			require.NoError(t, os.Remove(p))
			require.NoError(t, os.Link(filepath.Join(dir, ".env"), p))
		}, true, ""},
		{"a tracked file of two names", func(t *testing.T, dir string) {
			require.NoError(t, os.Mkdir(filepath.Join(dir, "other"), 0o755))
			require.NoError(t, os.Link(filepath.Join(dir, "src", "b.go"), filepath.Join(dir, "other", "b.txt")))
		}, true, ""},
		{"a tracked file replaced by a link out", func(t *testing.T, dir string) {
			p := filepath.Join(dir, "src", "b.go")
			require.NoError(t, os.Remove(p))
			require.NoError(t, os.Symlink(filepath.Join(outside, "id_rsa"), p))
		}, true, ""},
		{"a tracked directory replaced by a link out", func(t *testing.T, dir string) {
			require.NoError(t, os.RemoveAll(filepath.Join(dir, "src")))
			require.NoError(t, os.Symlink(outside, filepath.Join(dir, "src")))
		}, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := todoRepo(t)
			if tc.setup != nil {
				tc.setup(t, dir)
			}
			kept := ruleJudge{sandboxJudge(t, dir), "notes.txt"}
			_, ok := judgeState(kept)
			require.True(t, ok, "the sandbox's answers are kept")
			for _, script := range []string{"git diff", "git log -p", "git show HEAD", "git diff HEAD", "git archive HEAD", "git grep --cached TODO -- src"} {
				want := New(DefaultPolicy()).Judge(context.Background(), dir, unkeptJudge{kept}, script)
				g := New(DefaultPolicy())
				for range 2 { // judged, then kept
					v := g.Judge(context.Background(), dir, kept, script)
					assert.Equal(t, want.Decision, v.Decision, "%s: %s", script, v.Reason)
					assert.Equal(t, want.Rule, v.Rule, "%s", script)
					assert.Equal(t, want.Reason, v.Reason, "%s", script)
				}
				if tc.deny && script != tc.not && !strings.HasPrefix(script, "git grep") {
					assert.NotEqual(t, permission.Allow, want.Decision, "%s: %s", script, want.Reason)
				}
			}
		})
	}
}

// todoRepo makes a repository of README.md, src/a.go and src/b.go,
// committed, each "TODO", and an untracked secret beside them (.env).
func todoRepo(t *testing.T) string {
	t.Helper()
	dir := committedRepo(t, "TODO\n", "README.md", "src/a.go", "src/b.go")
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte("TODO=secret\n"), 0o600))
	return dir
}

// committedRepo makes a repository of the files, each holding body, in
// a first commit.
func committedRepo(t *testing.T, body string, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		p := filepath.Join(dir, f)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-qm", "first")
	return dir
}

// keptRepo makes a repository of n tracked files (bigIndexName) and a
// first commit: with files, each is in the work tree; without, the index
// alone holds them (git diff shows each as deleted).
func keptRepo(t testing.TB, n int, files bool) string {
	t.Helper()
	if !files {
		ws := bigIndexRepo(t, n)
		gitIn(t, ws, "commit", "-qm", "first")
		return ws
	}
	ws := filepath.Join(t.TempDir(), "ws")
	for i := range n {
		p := filepath.Join(ws, bigIndexName(i))
		if i%100 == 0 {
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		}
		require.NoError(t, os.WriteFile(p, []byte("package x\n"), 0o644))
	}
	gitIn(t, ws, "init", "-q")
	gitIn(t, ws, "add", ".")
	gitIn(t, ws, "commit", "-qm", "first")
	return ws
}

// In repositories of 20,000 and 200,000 tracked files, far over what the
// guard judges for one command, the content printers are judged on every
// tracked path and every path of history, once: allowed, with their
// reason; a secret added to the index (a new stamp of it) is seen by the
// next command, which names it as in a small repository, and (in the
// work tree of 20,000) a path a Deny rule names too; a second command asks the judge about no tracked
// path again. With a judge whose answers are not kept, git diff still
// asks, saying why. In the work tree of 20,000, a tracked file replaced
// by a hard link or a link is seen (keptLinks).
func TestKeptJudgementLarge(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP: git is not installed, so no large repository can be made to judge: " + err.Error())
	}
	for _, tc := range []struct {
		name   string
		n      int
		files  bool
		unkept string // why git diff asks with a judge whose answers are not kept
	}{
		{"20,000 files in the work tree", 20_000, true, "the index tracks more than 2000 files, more than the guard judges for one command"},
		{"200,000 files in the index", 200_000, false, "the repository's index, which says which files those are, cannot be read here"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.n > 20_000 {
				t.Skip("SKIP: -short: the 200,000-file repository takes seconds to make and judge")
			}
			ws := keptRepo(t, tc.n, tc.files)
			var asked atomic.Int64
			views := viewJudges(t, ws)
			judge := func() PathJudge { return countJudge{ruleJudge{views(), "notes.txt"}, &asked} }
			g := New(DefaultPolicy())
			g.ws.noTTL = true // the files were just made: trust their stamps
			check := func(script string, d permission.Decision, rule permission.RuleID, reason string) {
				t.Helper()
				v := g.Judge(context.Background(), ws, judge(), script)
				assert.Equal(t, d, v.Decision, "%s: %s", script, v.Reason)
				assert.Equal(t, rule, v.Rule, "%s: %s", script, v.Reason)
				assert.Equal(t, reason, v.Reason, script)
			}
			const safe = "every command is read-only and on the safe list"
			for _, script := range []string{"git diff", "git log -p", "git show HEAD"} {
				check(script, permission.Allow, RuleSafe, safe)
			}
			asked.Store(0)
			check("git diff", permission.Allow, RuleSafe, safe)
			check("git log -p", permission.Allow, RuleSafe, safe)
			assert.Less(t, asked.Load(), int64(10), "kept: the tracked paths are not judged again")

			v := New(DefaultPolicy()).Judge(context.Background(), ws, unkeptJudge{judge()}, "git diff")
			assert.Equal(t, permission.Ask, v.Decision, v.Reason)
			assert.Equal(t, "git: git diff prints the content of the tracked files, and "+tc.unkept, v.Reason)

			blob := strings.TrimSpace(gitInput(t, ws, "TOKEN=1\n", "hash-object", "-w", "--stdin"))
			gitIn(t, ws, "update-index", "--add", "--cacheinfo", "100644,"+blob+",src/module-000/.env")
			check("git diff", permission.Deny, RulePathSecret, "git: git diff prints the content of the tracked files, among them src/module-000/.env: read "+
				ws+"/src/module-000/.env: secret path (matches \".env\")")
			v = g.Judge(context.Background(), ws, judge(), "git show HEAD")
			assert.Equal(t, permission.Deny, v.Decision, v.Reason)
			assert.Contains(t, v.Reason, "git show prints the content of the tracked files, among them src/module-000/.env", v.Reason)

			gitIn(t, ws, "rm", "-q", "--cached", "src/module-000/.env")
			check("git diff", permission.Allow, RuleSafe, safe)
			if !tc.files {
				return // each judgement of 200,000 paths takes seconds: the rest is the same
			}
			gitIn(t, ws, "update-index", "--add", "--cacheinfo", "100644,"+blob+",src/module-001/package-100/notes.txt")
			check("git diff", permission.Deny, "Read(**/notes.txt)", "git: git diff prints the content of the tracked files, among them src/module-001/package-100/notes.txt: a Deny rule names it")
			gitIn(t, ws, "rm", "-q", "--cached", "src/module-001/package-100/notes.txt")
			check("git diff", permission.Allow, RuleSafe, safe)
			keptLinks(t, g, ws, judge)
		})
	}
}

// keptLinks checks, in the repository ws of files in the work tree whose
// judgement g keeps, a tracked file replaced by a hard link to a secret
// file, then by a link out of the roots, then restored: each is seen by
// the next command (the directory that holds it changed), as in a small
// repository.
func keptLinks(t *testing.T, g *Guard, ws string, judge func() PathJudge) {
	t.Helper()
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "id_rsa"), []byte("KEY\n"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(ws, ".env"), []byte("TOKEN=1\n"), 0o600))
	victim := bigIndexName(12_345)
	p := filepath.Join(ws, victim)
	require.NoError(t, os.Remove(p))
	require.NoError(t, os.Link(filepath.Join(ws, ".env"), p))
	v := g.Judge(context.Background(), ws, judge(), "git diff")
	assert.Equal(t, permission.Deny, v.Decision, v.Reason)
	assert.Equal(t, RulePathSecret, v.Rule, v.Reason)
	assert.True(t, strings.HasPrefix(v.Reason, "git: git diff prints the content of the tracked files, among them "+victim+": "), v.Reason)

	require.NoError(t, os.Remove(p))
	require.NoError(t, os.Symlink(filepath.Join(outside, "id_rsa"), p))
	v = g.Judge(context.Background(), ws, judge(), "git diff")
	assert.Equal(t, permission.Ask, v.Decision, v.Reason)
	assert.True(t, strings.HasPrefix(v.Reason, "git: git diff prints the content of the tracked files, among them "+victim+" outside the allowed roots"), v.Reason)

	require.NoError(t, os.Remove(p))
	require.NoError(t, os.WriteFile(p, []byte("package x\n"), 0o644))
	v = g.Judge(context.Background(), ws, judge(), "git diff")
	assert.Equal(t, permission.Allow, v.Decision, v.Reason)
	assert.Equal(t, "every command is read-only and on the safe list", v.Reason)
}

// BenchmarkKeptTrackedContent is git diff's Check in a repository of
// 200,000 tracked files: first (a Guard of its own, every tracked path
// and every path of history judged) and kept (a later command of the
// same Guard: the stamps checked).
func BenchmarkKeptTrackedContent(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("SKIP: git is not installed, so no large repository can be made to judge: " + err.Error())
	}
	ws := keptRepo(b, 200_000, false)
	judge := viewJudges(b, ws)
	run := func(b *testing.B, g *Guard) {
		if v := g.Judge(context.Background(), ws, judge(), "git diff"); v.Decision != permission.Allow {
			b.Fatalf("git diff: %s", v.Reason)
		}
	}
	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			g := New(DefaultPolicy())
			g.ws.noTTL = true
			run(b, g)
		}
	})
	b.Run("kept", func(b *testing.B) {
		g := New(DefaultPolicy())
		g.ws.noTTL = true
		run(b, g)
		for b.Loop() {
			run(b, g)
		}
	})
}

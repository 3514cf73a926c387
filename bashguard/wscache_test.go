package bashguard

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/sandbox"
)

// wsRepo makes a repository with one tracked file and returns its top,
// with its links resolved.
func wsRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP: no git for the repositories: " + err.Error())
	}
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n"), 0o644))
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-qm", "first")
	return dir
}

func wsJudge(t *testing.T, g *Guard, dir, script string) Verdict {
	t.Helper()
	return wsJudgeIn(t, g, dir, dir, script)
}

func wsJudgeIn(t *testing.T, g *Guard, root, dir, script string) Verdict {
	sb, err := sandbox.New(sandbox.Config{Roots: []string{root}, WorkDir: dir})
	require.NoError(t, err)
	return g.Judge(context.Background(), dir, CheckerJudge(sb), script)
}

func wsGuard(t *testing.T, trustAll bool) *Guard {
	pol := DefaultPolicy()
	pol.Home = t.TempDir()
	g := New(pol)
	g.ws.noTTL = trustAll
	return g
}

// A fact kept on the Guard is read again when a file it came from
// changes: the config (a pager set after the first call), the index (a
// file added), and .git itself (removed: no repository any more). Every
// stamp is trusted here however young, the hardest case for the check.
func TestWorkspaceFactsRevalidated(t *testing.T) {
	dir := wsRepo(t)
	g := wsGuard(t, true)

	v := wsJudge(t, g, dir, "git log -1")
	require.Equal(t, permission.Allow, v.Decision, v.Reason)
	assert.NotEmpty(t, g.ws.facts, "the repository's facts are kept")
	v = wsJudge(t, g, dir, "git log -1")
	require.Equal(t, permission.Allow, v.Decision, v.Reason)

	f, err := os.OpenFile(filepath.Join(dir, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("[core]\n\tpager = touch /tmp/pwned\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	v = wsJudge(t, g, dir, "git log -1")
	assert.Equal(t, permission.Ask, v.Decision, v.Reason)
	assert.Contains(t, v.Reason, "core.pager")

	// The index: git grep reads a .env once it is tracked.
	dir = wsRepo(t)
	g = wsGuard(t, true)
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte("TOKEN=x\n"), 0o600))
	v = wsJudge(t, g, dir, "git grep TOKEN")
	require.Equal(t, permission.Allow, v.Decision, v.Reason)
	gitIn(t, dir, "add", "-f", ".env")
	v = wsJudge(t, g, dir, "git grep TOKEN")
	assert.Equal(t, permission.Ask, v.Decision, v.Reason)
	assert.Contains(t, v.Reason, ".env")

	// Without .git, git finds no repository: the fact of the top goes.
	g = wsGuard(t, true)
	top := g.ws.top(dir)
	require.Equal(t, dir, top.top)
	require.NoError(t, os.Rename(filepath.Join(dir, ".git"), filepath.Join(dir, "git.old")))
	top = g.ws.top(dir)
	assert.Equal(t, "", top.top, "git finds no repository once .git is gone")
	// A bare repository in its place: git would use it.
	for _, d := range []string{"objects", "refs"} {
		require.NoError(t, os.Mkdir(filepath.Join(dir, d), 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644))
	v = wsJudge(t, g, dir, "git log -1")
	assert.Equal(t, permission.Ask, v.Decision, v.Reason)
	assert.Contains(t, v.Reason, "bare repository")
}

// A stamp younger than the timestamp granularity is not trusted: a fact
// read from a file just written is not kept, and its answer is the same.
func TestWorkspaceFactsRacy(t *testing.T) {
	dir := wsRepo(t)
	g := wsGuard(t, false)
	g.ws.racy = 1 << 40 // every stamp is young
	v := wsJudge(t, g, dir, "git log -1")
	require.Equal(t, permission.Allow, v.Decision, v.Reason)
	assert.Empty(t, g.ws.facts, "facts read from young files are not kept")
}

// A followed cd finds the repository of the directory it leads to, not
// the working directory's: into a bare repository, git would run its
// config.
func TestWorkspaceFactsFollowCd(t *testing.T) {
	dir := wsRepo(t)
	bare := filepath.Join(dir, "bare")
	gitIn(t, dir, "init", "-q", "--bare", bare)
	g := wsGuard(t, false)
	v := wsJudge(t, g, dir, "cd "+bare+" && git log -1")
	assert.Equal(t, permission.Ask, v.Decision, v.Reason)
	assert.Contains(t, v.Reason, "bare repository")
}

// The cache is bounded, and many Judge calls at once share it.
func TestWorkspaceFactsBoundedConcurrent(t *testing.T) {
	dir := wsRepo(t)
	g := wsGuard(t, true)
	for i := range maxWSFacts + 40 {
		d := filepath.Join(dir, fmt.Sprintf("d%d", i))
		require.NoError(t, os.Mkdir(d, 0o755))
		assert.Equal(t, dir, g.ws.top(d).top)
	}
	assert.LessOrEqual(t, len(g.ws.facts), maxWSFacts)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for range 20 {
				v := wsJudgeIn(t, g, dir, filepath.Join(dir, fmt.Sprintf("d%d", i)), "git status && git log -1 && git ls-files")
				assert.Equal(t, permission.Allow, v.Decision, v.Reason)
			}
		})
	}
	wg.Wait()
}

// Directories older than the timestamp granularity are stamped whole: a
// repository made inside one after its facts were kept is found at once,
// and a young (busy) directory's entries are stamped instead, so that
// its other changes keep the facts.
func TestWorkspaceFactsAgedDirs(t *testing.T) {
	dir := wsRepo(t)
	sub := filepath.Join(dir, "sub")
	require.NoError(t, os.Mkdir(sub, 0o755))
	time.Sleep(2100 * time.Millisecond)
	g := wsGuard(t, false)
	require.Equal(t, dir, g.ws.top(sub).top)
	require.Len(t, g.ws.facts, 1, "aged stamps are trusted")
	f := g.ws.facts[factKey{kind: "top", a: sub}]
	assert.Equal(t, f, g.ws.facts[factKey{kind: "top", a: sub}])
	assert.True(t, f.valid())

	gitIn(t, sub, "init", "-q")
	assert.False(t, f.valid(), "the new .git changes sub")
	assert.Equal(t, sub, g.ws.top(sub).top, "git now finds the repository in sub")
	v := wsJudgeIn(t, g, dir, sub, "git log -1")
	assert.NotEqual(t, permission.Deny, v.Decision, v.Reason)

	// sub is young now: its entries are stamped, and a file written
	// beside them keeps the fact.
	require.NoError(t, os.RemoveAll(filepath.Join(sub, ".git")))
	assert.Equal(t, dir, g.ws.top(sub).top, "without sub/.git git finds the outer repository")
	g.ws.noTTL = true
	assert.Equal(t, dir, g.ws.top(sub).top)
	f = g.ws.facts[factKey{kind: "top", a: sub}]
	require.NotNil(t, f)
	require.NoError(t, os.WriteFile(filepath.Join(sub, "x.go"), []byte("package x\n"), 0o644))
	assert.True(t, f.valid(), "another entry of a busy directory keeps the fact")
	require.NoError(t, os.WriteFile(filepath.Join(sub, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644))
	assert.False(t, f.valid(), "a HEAD in it does not")
}

// In a directory too young to trust, above a working directory in no
// repository, a missing HEAD is what rules a bare repository out: once
// HEAD, objects and refs appear there, the kept fact goes, and git would
// use that bare repository.
func TestWorkspaceFactsBareRepositoryAppearsAbove(t *testing.T) {
	parent := t.TempDir() // young: just made
	dir := filepath.Join(parent, "work")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	g := wsGuard(t, true)
	v := wsJudge(t, g, dir, "git status")
	require.Equal(t, permission.Allow, v.Decision, v.Reason)
	v = wsJudge(t, g, dir, "git status")
	require.Equal(t, permission.Allow, v.Decision, v.Reason)
	require.NoError(t, os.WriteFile(filepath.Join(parent, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(parent, "objects"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(parent, "refs"), 0o755))
	v = wsJudge(t, g, dir, "git status")
	assert.Equal(t, permission.Ask, v.Decision, v.Reason)
	assert.Contains(t, v.Reason, "bare repository "+parent)
}

// A fact read while a directory was young keeps its entries' stamps only
// until the directory has aged: the next check that finds it aged keeps
// its one whole stamp instead, as a reading made then would, and a bare
// repository made in it afterwards is seen at once.
func TestWorkspaceFactsYoungLevelAges(t *testing.T) {
	parent := t.TempDir() // young: just made
	dir := filepath.Join(parent, "work")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	g := wsGuard(t, false)
	v := wsJudge(t, g, dir, "git status")
	require.Equal(t, permission.Allow, v.Decision, v.Reason)
	key := factKey{kind: "top", a: dir}
	f := g.ws.facts[key]
	require.NotNil(t, f, "the fact is kept: its young directories are stamped by their entries")
	levels := func(f *wsFact) map[string]int {
		n := map[string]int{}
		for _, s := range f.stamps {
			if s.level != "" {
				n[s.level]++
			}
		}
		return n
	}
	require.GreaterOrEqual(t, levels(f)[dir], 3, "work: its identity, .git and HEAD")
	require.GreaterOrEqual(t, levels(f)[parent], 3, "its parent: the same")

	time.Sleep(2100 * time.Millisecond)
	v = wsJudge(t, g, dir, "git status")
	require.Equal(t, permission.Allow, v.Decision, v.Reason)
	aged := g.ws.facts[key]
	require.NotNil(t, aged)
	assert.NotSame(t, f, aged, "the aged levels' stamps are replaced")
	assert.Zero(t, levels(aged)[dir], "work is stamped whole")
	assert.Zero(t, levels(aged)[parent], "its parent is stamped whole")
	assert.Less(t, len(aged.stamps), len(f.stamps))
	assert.True(t, aged.valid())
	assert.Equal(t, f.val, aged.val, "the fact itself is the same")
	v = wsJudge(t, g, dir, "git status")
	require.Equal(t, permission.Allow, v.Decision, v.Reason)
	assert.Same(t, aged, g.ws.facts[key], "once replaced, the fact is kept as it is")

	require.NoError(t, os.WriteFile(filepath.Join(parent, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(parent, "objects"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(parent, "refs"), 0o755))
	assert.False(t, aged.valid(), "the parent's whole stamp shows the new entries")
	v = wsJudge(t, g, dir, "git status")
	assert.Equal(t, permission.Ask, v.Decision, v.Reason)
	assert.Contains(t, v.Reason, "bare repository "+parent)
}

// Where go finds its module is kept on the Guard: each directory on the
// way is stamped by the go.work and go.mod looked up in it, then, aged,
// by its own stamp; a link's target stays stamped, so a dangling go.mod
// link that comes to lead somewhere is seen, as is a go.work made below.
func TestWorkspaceFactsGoModule(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	a := filepath.Join(base, "a")
	dir := filepath.Join(a, "b")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.Symlink(filepath.Join(base, "target.mod"), filepath.Join(a, "go.mod")))
	time.Sleep(2100 * time.Millisecond)
	g := wsGuard(t, false)
	require.Equal(t, modFact{}, g.ws.goModule(dir), "a dangling go.mod is none, as os.Stat finds it")
	key := factKey{kind: "gomod", a: dir}
	f := g.ws.facts[key]
	require.NotNil(t, f)
	levels := func(f *wsFact) map[string]int {
		n := map[string]int{}
		for _, s := range f.stamps {
			if s.level != "" {
				n[s.level]++
			}
		}
		return n
	}
	assert.Equal(t, 2, levels(f)[dir], "go.work and go.mod")
	assert.Equal(t, 2, levels(f)[a])

	require.Equal(t, modFact{}, g.ws.goModule(dir))
	aged := g.ws.facts[key]
	require.NotSame(t, f, aged, "the aged directories' stamps replace their entries'")
	assert.Zero(t, levels(aged)[dir])
	assert.Zero(t, levels(aged)[a])
	assert.Less(t, len(aged.stamps), len(f.stamps))

	require.NoError(t, os.WriteFile(filepath.Join(base, "target.mod"), []byte("module x\n"), 0o644))
	assert.False(t, aged.valid(), "the link's target is stamped still")
	assert.Equal(t, modFact{dir: a, mod: true}, g.ws.goModule(dir))

	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.work"), []byte("go 1.22\n"), 0o644))
	assert.Equal(t, modFact{dir: dir, work: true}, g.ws.goModule(dir), "a go.work made below")
	// The kept fact decides as a fresh Guard does.
	for _, cmd := range []string{"go version", "go list -m", "go test ./..."} {
		v, fresh := wsJudgeIn(t, g, base, dir, cmd), wsJudgeIn(t, wsGuard(t, false), base, dir, cmd)
		assert.Equal(t, fresh.Decision, v.Decision, "%s: %s", cmd, v.Reason)
		assert.Equal(t, fresh.Reason, v.Reason, cmd)
	}
}

package bashguard

import (
	"bytes"
	"context"
	"crypto/sha1"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
)

// A submodule's own config is read by the git that git status runs in
// it: a key that runs a program there asks, naming the submodule, for
// a submodule git absorbed (.git/modules), one embedded without
// .gitmodules, and one nested in another; an absorbed submodule's own
// core.worktree, which every one has, asks nothing. A linked work tree's
// config.worktree is read as the repository's config is.
func TestGitSubmoduleConfigPrograms(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP: git is not installed, so no submodule can be made to judge: " + err.Error())
	}
	judge := func(dir string) Verdict {
		t.Helper()
		root := filepath.Dir(dir)
		return New(DefaultPolicy()).Judge(context.Background(), dir, CheckerJudge(rootChecker{dir: root, roots: []string{root}}), "git status")
	}
	base := t.TempDir()
	upstream := filepath.Join(base, "up")
	require.NoError(t, os.Mkdir(upstream, 0o755))
	gitIn(t, upstream, "init", "-q")
	gitIn(t, upstream, "commit", "-q", "--allow-empty", "-m", "up")

	t.Run("absorbed", func(t *testing.T) {
		ws := filepath.Join(t.TempDir(), "ws")
		require.NoError(t, os.Mkdir(ws, 0o755))
		gitIn(t, ws, "init", "-q")
		gitIn(t, ws, "-c", "protocol.file.allow=always", "submodule", "add", "-q", upstream, "lib/up")
		gitIn(t, ws, "commit", "-q", "-m", "sub")
		v := judge(ws)
		assert.Equal(t, permission.Allow, v.Decision, "a submodule whose config sets only its own work tree: %s", v.Reason)
		assert.Equal(t, RuleSafe, v.Rule, v.Reason)
		assert.Equal(t, "every command is read-only and on the safe list", v.Reason, "a submodule whose config sets only its own work tree")

		gitIn(t, ws, "config", "-f", ".git/modules/lib/up/config", "core.fsmonitor", "/tmp/x")
		v = judge(ws)
		assert.Equal(t, permission.Ask, v.Decision, v.Reason)
		assert.Equal(t, RuleGitConfig, v.Rule, v.Reason)
		assert.Contains(t, v.Reason, "the config of the submodule lib/up sets core.fsmonitor, which makes git status run a program")

		gitIn(t, ws, "config", "-f", ".git/modules/lib/up/config", "core.worktree", "/tmp/elsewhere")
		gitIn(t, ws, "config", "-f", ".git/modules/lib/up/config", "--unset", "core.fsmonitor")
		v = judge(ws)
		assert.Equal(t, permission.Ask, v.Decision, "a submodule's work tree moved out of it: %s", v.Reason)
		assert.Contains(t, v.Reason, "the config of the submodule lib/up sets core.worktree")
	})

	t.Run("embedded and nested", func(t *testing.T) {
		ws := filepath.Join(t.TempDir(), "ws")
		require.NoError(t, os.Mkdir(ws, 0o755))
		gitIn(t, ws, "init", "-q")
		inner := filepath.Join(ws, "a")
		require.NoError(t, os.Mkdir(inner, 0o755))
		gitIn(t, inner, "init", "-q")
		deep := filepath.Join(inner, "b")
		require.NoError(t, os.Mkdir(deep, 0o755))
		gitIn(t, deep, "init", "-q")
		gitIn(t, deep, "commit", "-q", "--allow-empty", "-m", "b")
		gitIn(t, inner, "add", "b") // an embedded repository: a gitlink, no .gitmodules
		gitIn(t, inner, "commit", "-q", "-m", "a")
		gitIn(t, ws, "add", "a")
		gitIn(t, ws, "commit", "-q", "-m", "ws")
		v := judge(ws)
		assert.Equal(t, permission.Allow, v.Decision, v.Reason)
		assert.Equal(t, "every command is read-only and on the safe list", v.Reason, "submodules whose configs set no program")

		gitIn(t, deep, "config", "diff.x.textconv", "/tmp/x")
		v = judge(ws)
		assert.Equal(t, permission.Ask, v.Decision, v.Reason)
		assert.Equal(t, RuleGitConfig, v.Rule, v.Reason)
		assert.Contains(t, v.Reason, "the config of the submodule a/b sets diff.x.textconv")

		// Not populated: git does not run there.
		require.NoError(t, os.RemoveAll(filepath.Join(deep, ".git")))
		v = judge(ws)
		assert.Equal(t, permission.Allow, v.Decision, "a gitlink whose directory holds no .git: %s", v.Reason)
		assert.Equal(t, "every command is read-only and on the safe list", v.Reason, "a gitlink whose directory holds no .git")
	})

	t.Run("linked work tree", func(t *testing.T) {
		root := t.TempDir()
		ws := filepath.Join(root, "ws")
		require.NoError(t, os.Mkdir(ws, 0o755))
		gitIn(t, ws, "init", "-q")
		gitIn(t, ws, "commit", "-q", "--allow-empty", "-m", "ws")
		wt := filepath.Join(root, "wt")
		gitIn(t, ws, "worktree", "add", "-q", wt)
		gitIn(t, ws, "config", "extensions.worktreeConfig", "true")
		v := judge(wt)
		assert.Equal(t, permission.Allow, v.Decision, v.Reason)
		assert.Equal(t, "every command is read-only and on the safe list", v.Reason, "a linked work tree whose config.worktree is empty")
		gitIn(t, wt, "config", "--worktree", "core.fsmonitor", "/tmp/x")
		v = judge(wt)
		assert.Equal(t, permission.Ask, v.Decision, v.Reason)
		assert.Contains(t, v.Reason, "the repository's config sets core.fsmonitor", "the linked work tree's config.worktree")
	})
}

// The gitlink entries are read from any index, however many entries it
// has, split or not, and a truncated one is refused.
func TestIndexGitlinks(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP: git is not installed, so no index can be made to read: " + err.Error())
	}
	ws := t.TempDir()
	gitIn(t, ws, "init", "-q")
	for i := range maxWalkEntries + 10 {
		require.NoError(t, os.WriteFile(filepath.Join(ws, "f"+strconv.Itoa(i)), nil, 0o644))
	}
	sub := filepath.Join(ws, "m")
	require.NoError(t, os.Mkdir(sub, 0o755))
	gitIn(t, sub, "init", "-q")
	gitIn(t, sub, "commit", "-q", "--allow-empty", "-m", "m")
	gitIn(t, ws, "add", ".")
	b, err := os.ReadFile(filepath.Join(ws, ".git", "index"))
	require.NoError(t, err)
	links, shared, err := indexGitlinks(b, 20)
	require.NoError(t, err)
	assert.Equal(t, []string{"m"}, links, "the one gitlink among more entries than the walk's bound")
	assert.Empty(t, shared, "an index that is not split")
	_, _, err = indexGitlinks(b[:len(b)/2], 20)
	assert.Error(t, err, "half an index")

	// A split index: the gitlink is in the shared index it names.
	gitIn(t, ws, "update-index", "--split-index")
	links, err = workTreeGitlinks(ws, newStampRec())
	require.NoError(t, err)
	assert.Equal(t, []string{"m"}, links, "the gitlink of a split index's shared entries")

	// A split index whose link names the null object has no shared
	// index for git: its entries are the split index's own.
	index := filepath.Join(ws, ".git", "index")
	b, err = os.ReadFile(index)
	require.NoError(t, err)
	at := bytes.LastIndex(b, []byte("link"))
	require.Positive(t, at, "the link extension")
	clear(b[at+8 : at+8+20])
	sum := sha1.Sum(b[:len(b)-20])
	copy(b[len(b)-20:], sum[:])
	require.NoError(t, os.WriteFile(index, b, 0o644))
	assert.Empty(t, gitIn(t, ws, "ls-files", "m"), "git reads no shared index")
	links, err = workTreeGitlinks(ws, newStampRec())
	require.NoError(t, err)
	assert.Empty(t, links, "a split index that names the null shared index")
}

// A SHA-256 repository's linked work tree has its index read with the
// repository's hash length, which the common directory's config sets:
// git status there is allowed as in the main work tree, and a submodule
// of its own index is found and its config read.
func TestGitLinkedWorkTreeSHA256Index(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP: git is not installed, so no SHA-256 work tree can be made to judge: " + err.Error())
	}
	base := t.TempDir()
	ws, wt := filepath.Join(base, "ws"), filepath.Join(base, "wt")
	require.NoError(t, os.Mkdir(ws, 0o755))
	gitIn(t, ws, "init", "-q", "--object-format=sha256")
	require.NoError(t, os.WriteFile(filepath.Join(ws, "a.go"), []byte("package a\n"), 0o644))
	gitIn(t, ws, "add", "a.go")
	gitIn(t, ws, "commit", "-q", "-m", "a")
	gitIn(t, ws, "worktree", "add", "-q", wt)
	judge := func(dir string) Verdict {
		t.Helper()
		return New(DefaultPolicy()).Judge(context.Background(), dir, CheckerJudge(rootChecker{dir: base, roots: []string{base}}), "git status")
	}
	for _, dir := range []string{ws, wt} {
		v := judge(dir)
		assert.Equal(t, permission.Allow, v.Decision, "%s: %s", dir, v.Reason)
		assert.Equal(t, "every command is read-only and on the safe list", v.Reason, dir)
	}

	inner := filepath.Join(wt, "e")
	require.NoError(t, os.Mkdir(inner, 0o755))
	gitIn(t, inner, "init", "-q", "--object-format=sha256")
	gitIn(t, inner, "commit", "-q", "--allow-empty", "-m", "e")
	gitIn(t, wt, "add", "e") // an embedded repository: a gitlink in the work tree's own index
	gitIn(t, inner, "config", "core.fsmonitor", "/tmp/x")
	v := judge(wt)
	assert.Equal(t, permission.Ask, v.Decision, v.Reason)
	assert.Equal(t, RuleGitConfig, v.Rule, v.Reason)
	assert.Contains(t, v.Reason, "the config of the submodule e sets core.fsmonitor, which makes git status run a program")
}

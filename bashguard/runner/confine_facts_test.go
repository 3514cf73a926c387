//go:build linux

package runner

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgate/toolgate/sandbox"
)

// confineTestProject makes a project judged by the sandbox: a .env at the
// top, documents, and a source directory; it returns a Shell on it whose
// facts are kept between runs, after a first run that built them.
func confineTestProject(t *testing.T) (*Shell, string) {
	t.Helper()
	confineTestNeedNS(t, true)
	root := runTestDir(t)
	for name, body := range map[string]string{
		".env":          "TOKEN=top-secret\n",
		"README.md":     "readme\n",
		"docs/guide.md": "guide\n",
		"docs/notes.md": "notes\n",
		"src/main.go":   "package main\n",
		"src/site.crt":  "-----BEGIN CERTIFICATE-----\n",
	} {
		p := filepath.Join(root, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	sb, err := sandbox.New(sandbox.Config{Roots: []string{root}, WorkDir: root})
	require.NoError(t, err)
	r := &Shell{Dir: root, Checker: sb}
	res, err := r.Run(context.Background(), "cat .env README.md docs/guide.md src/site.crt 2>&1")
	require.NoError(t, err)
	require.Equal(t, "cat: .env: Permission denied\nreadme\nguide\n-----BEGIN CERTIFICATE-----\n", res.Output)
	require.Equal(t, 1, res.Confined.Secrets)
	require.NotNil(t, r.facts, "the facts are kept")
	return r, root
}

// confineTestHidden runs cat on each path and asserts that the kernel
// refused every one, and that the result counts secrets hidden paths.
func confineTestHidden(t *testing.T, r *Shell, secrets int, paths ...string) {
	t.Helper()
	res, err := r.Run(context.Background(), "cat "+strings.Join(paths, " ")+" 2>&1; echo \"cat=$?\"")
	require.NoError(t, err)
	var want strings.Builder
	for _, p := range paths {
		want.WriteString("cat: " + p + ": Permission denied\n")
	}
	want.WriteString("cat=1\n")
	assert.Equal(t, want.String(), res.Output)
	assert.True(t, res.Confined.Enforced)
	assert.Equal(t, []string{"seccomp", "pidns", "mountns", "netns"}, res.Confined.Layers)
	assert.Equal(t, secrets, res.Confined.Secrets)
	assert.Contains(t, res.Confined.String(), "; "+strconv.Itoa(secrets)+" secret paths hidden")
}

func TestConfinedSecretAddedBetweenRunsIsHidden(t *testing.T) {
	r, root := confineTestProject(t)
	// Outside any run: a secret in a directory granted whole, and one in
	// directories that did not exist.
	require.NoError(t, os.WriteFile(filepath.Join(root, "docs", ".env"), []byte("TOKEN=docs\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "new", "deep"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "new", "deep", "server.pem"), []byte("-----BEGIN PRIVATE KEY-----\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "new", "deep", "ok.txt"), []byte("ok\n"), 0o644))
	confineTestHidden(t, r, 3, "docs/.env", "new/deep/server.pem")
	res, err := r.Run(context.Background(), "cat docs/guide.md new/deep/ok.txt")
	require.NoError(t, err)
	assert.Equal(t, "guide\nok\n", res.Output)

	// By a run, for the next one (in the run itself the directory is
	// granted whole, as it was before).
	res, err = r.Run(context.Background(), "echo TOKEN=src > src/.env && cat src/.env")
	require.NoError(t, err)
	assert.Equal(t, "TOKEN=src\n", res.Output)
	confineTestHidden(t, r, 4, "src/.env")

	// A file whose contents become a credential.
	require.NoError(t, os.WriteFile(filepath.Join(root, "src", "site.crt"), []byte("-----BEGIN PRIVATE KEY-----\n"), 0o644))
	confineTestHidden(t, r, 5, "src/site.crt")
}

func TestConfinedSecretRenamedBetweenRunsIsHidden(t *testing.T) {
	r, root := confineTestProject(t)
	// A plain file renamed to a secret name, and a directory moved
	// within the roots with a secret in it.
	require.NoError(t, os.Rename(filepath.Join(root, "docs", "notes.md"), filepath.Join(root, "docs", ".env")))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "a", "b"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "a", "b", ".env"), []byte("TOKEN=b\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "a", "b", "ok.txt"), []byte("ok\n"), 0o644))
	res, err := r.Run(context.Background(), "cat a/b/ok.txt")
	require.NoError(t, err)
	require.Equal(t, "ok\n", res.Output)
	require.NoError(t, os.Rename(filepath.Join(root, "a"), filepath.Join(root, "docs", "moved")))
	confineTestHidden(t, r, 3, "docs/.env", "docs/moved/b/.env")
	res, err = r.Run(context.Background(), "cat docs/moved/b/ok.txt docs/guide.md; ls a 2>&1 | sed 's/.*: //'")
	require.NoError(t, err)
	assert.Equal(t, "ok\nguide\nNo such file or directory\n", res.Output)

	// With the identities recorded, a secret renamed to a plain name.
	r2 := &Shell{Dir: root, Checker: r.Checker, Confinement: Confinement{IdentityFile: filepath.Join(runTestDir(t), "ids.json")}}
	confineTestHidden(t, r2, 3, ".env")
	require.NoError(t, os.Rename(filepath.Join(root, ".env"), filepath.Join(root, "src", "notes.txt")))
	confineTestHidden(t, r2, 3, "src/notes.txt")
}

func TestConfinedSecretLinkedBetweenRunsIsHidden(t *testing.T) {
	r, root := confineTestProject(t)
	require.NoError(t, os.Link(filepath.Join(root, ".env"), filepath.Join(root, "docs", "copy.txt")))
	require.NoError(t, os.Symlink("../.env", filepath.Join(root, "docs", "link.txt")))
	// The hard link is a secret of its own (the sandbox judges a file of
	// several links as one); the symbolic link leads to the secret,
	// which the kernel refuses.
	confineTestHidden(t, r, 2, "docs/copy.txt", "docs/link.txt")
	require.NoError(t, os.Remove(filepath.Join(root, "docs", "copy.txt")))
	res, err := r.Run(context.Background(), "cat docs/guide.md")
	require.NoError(t, err)
	assert.Equal(t, "guide\n", res.Output)
	assert.Equal(t, 1, res.Confined.Secrets)
}

func TestConfinedFactsSharedByConcurrentRuns(t *testing.T) {
	r, root := confineTestProject(t)
	var wg sync.WaitGroup
	outs := make([]string, 4)
	for i := range outs {
		wg.Go(func() {
			res, err := r.Run(context.Background(), "cat README.md .env 2>&1; echo x > \"$TMPDIR/f\" && cat \"$TMPDIR/f\"")
			assert.NoError(t, err)
			outs[i] = res.Output
		})
	}
	require.NoError(t, os.WriteFile(filepath.Join(root, "docs", "id_rsa"), []byte("KEY\n"), 0o600))
	wg.Wait()
	for _, out := range outs {
		assert.Equal(t, "readme\ncat: .env: Permission denied\nx\n", out)
	}
	confineTestHidden(t, r, 2, "docs/id_rsa")
}

// TestConfineFactsMatchAWalk changes a project at random between updates
// of the kept walk and compares it, each time, with a walk from scratch.
func TestConfineFactsMatchAWalk(t *testing.T) {
	confineTestABI(t)
	root := runTestDir(t)
	sb, err := sandbox.New(sandbox.Config{Roots: []string{root}, WorkDir: root})
	require.NoError(t, err)
	c := runConfig{bash: DefaultBash, dir: root, roots: []string{root}, checker: sb, maxProcs: DefaultMaxProcs,
		confine: Confinement{Protect: []string{"CLAUDE.md"}}}
	tree, err := confineBuildTree(c)
	require.NoError(t, err)
	defer tree.close()
	rng := rand.New(rand.NewPCG(1, 2))
	names := []string{"a", "b", "c", ".env", "id_rsa", "CLAUDE.md", ".git", "config", "hooks", "x.go", ".github", "workflows"}
	var dirs []string
	for step := range 300 {
		dirs = dirs[:0]
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				dirs = append(dirs, p)
			}
			return nil
		})
		dir := dirs[rng.IntN(len(dirs))]
		p := filepath.Join(dir, names[rng.IntN(len(names))])
		switch rng.IntN(6) {
		case 0, 1:
			_ = os.Mkdir(p, 0o755)
		case 2:
			_ = os.WriteFile(p, []byte("x\n"), 0o644)
		case 3:
			if p != root {
				_ = os.RemoveAll(p)
			}
		case 4:
			q := filepath.Join(dirs[rng.IntN(len(dirs))], names[rng.IntN(len(names))])
			if !strings.HasPrefix(q+"/", p+"/") {
				_ = os.Rename(p, q)
			}
		case 5:
			_ = os.Symlink("../.env", p)
		}
		require.NoError(t, tree.update(), "step %d", step)
		want, lvl, err := confinePrepare(c, 7, "/nonexistent-tmp")
		require.NoError(t, err)
		base, _ := confinePlanBase(c, 7, "/nonexistent-tmp")
		wantRules := slices.Clone(want.Rules[len(base.Rules)+1:])
		gotRules := slices.Clone(tree.rules)
		cmp := func(a, b confineRule) int { return strings.Compare(a.Path, b.Path) }
		slices.SortFunc(wantRules, cmp)
		slices.SortFunc(gotRules, cmp)
		require.Equal(t, wantRules, gotRules, "step %d", step)
		require.ElementsMatch(t, want.Binds, tree.binds, "step %d", step)
		require.Equal(t, lvl.Secrets, tree.secrets, "step %d", step)
	}
}

// A Shell that nothing holds any more may be collected during its own run;
// the facts the run uses (the ruleset, the temporary directory's slot)
// stay until it ends.
func TestConfinedRunOutlivesItsShell(t *testing.T) {
	confineTestNeedNS(t, true)
	root := runTestDir(t)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
				runtime.GC()
				time.Sleep(time.Millisecond)
			}
		}
	})
	defer wg.Wait()
	defer close(stop)
	for range 5 {
		res, err := (&Shell{Dir: root, Checker: runTestRoot{root: root}}).Run(context.Background(), `sleep 0.05; echo x > "$TMPDIR/f" && cat "$TMPDIR/f"`)
		require.NoError(t, err)
		assert.Equal(t, "x\n", res.Output)
	}
}

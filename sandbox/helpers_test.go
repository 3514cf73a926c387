package sandbox_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/toolgate/toolgate/sandbox"
)

// tree is a real temporary file system with a root, a look-alike sibling
// and an outside directory, linked together by real symbolic links.
type tree struct {
	base    string // resolved temporary directory
	root    string // base/root, the sandbox's only root
	evil    string // base/root_evil, a sibling sharing the root's prefix
	outside string // base/outside
	sb      *sandbox.Sandbox
}

func newTree(t testing.TB) *tree {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	tr := &tree{
		base:    base,
		root:    filepath.Join(base, "root"),
		evil:    filepath.Join(base, "root_evil"),
		outside: filepath.Join(base, "outside"),
	}
	dirs := []string{
		"root/sub/deep/d4/d5/d6", "root/.git/hooks", "root/.ssh", "root/.claude", "root/.aws",
		"root_evil", "outside/inner", "outside/dir",
	}
	for _, d := range dirs {
		require.NoError(t, os.MkdirAll(filepath.Join(base, d), 0o755))
	}
	files := map[string]string{
		"root/a.txt":                   "inside a",
		"root/sub/b.txt":               "inside b",
		"root/sub/deep/d4/d5/d6/f.txt": "deep",
		"root/.git/config":             "[core]",
		"root/.git/hooks/pre-commit":   "#!/bin/sh",
		"root/.env":                    "TOKEN=1",
		"root/.env.local":              "TOKEN=2",
		"root/server.pem":              "pem",
		"root/id_rsa":                  "key",
		"root/.ssh/config":             "Host *",
		"root/.aws/credentials":        "[default]",
		"root/.bashrc":                 "alias",
		"root/.claude/settings.json":   "{}",
		"root/notes~":                  "backup",
		"root/a..b":                    "dots",
		"root/...":                     "three dots",
		"root/dotfiles_bashrc":         "real bashrc",
		"root_evil/x":                  "evil",
		"outside/secret.txt":           "OUTSIDE-SECRET",
		"outside/dir/file":             "OUTSIDE-SECRET",
	}
	for f, c := range files {
		require.NoError(t, os.WriteFile(filepath.Join(base, f), []byte(c), 0o644))
	}
	links := map[string]string{
		"root/link_in":         "sub",
		"root/link_abs_in":     filepath.Join(base, "root/sub"),
		"root/link_out":        "../outside",
		"root/link_out_abs":    filepath.Join(base, "outside"),
		"root/to_evil":         "../root_evil",
		"root/dangling_in":     "newfile.txt",
		"root/dangling_out":    "../outside/newfile",
		"root/chain1":          "chain2",
		"root/chain2":          "chain3",
		"root/chain3":          "sub",
		"root/loop1":           "loop2",
		"root/loop2":           "loop1",
		"root/self":            "self",
		"root/toout":           "../outside/inner",
		"root/jump":            "sub/deep",
		"root/innocent":        ".git/config",
		"root/vars":            ".env",
		"root/dotlink":         "dotfiles_bashrc",
		"root/sub/up":          "..",
		"root/sub/upout":       "../..",
		"root/rootlink":        "/",
		"root/sub/deep/escape": "../../../outside/secret.txt",
	}
	for l, target := range links {
		require.NoError(t, os.Symlink(target, filepath.Join(base, l)))
	}
	// A protected name that is itself a link to an ordinary file.
	require.NoError(t, os.Rename(filepath.Join(tr.root, ".bashrc"), filepath.Join(tr.root, "plain_bashrc")))
	require.NoError(t, os.Symlink("plain_bashrc", filepath.Join(tr.root, ".bashrc")))

	tr.sb, err = sandbox.New(sandbox.Config{Roots: []string{tr.root}, WorkDir: tr.root})
	require.NoError(t, err)
	return tr
}

func (tr *tree) r(p string) string { return filepath.Join(tr.root, p) }
func (tr *tree) o(p string) string { return filepath.Join(tr.outside, p) }

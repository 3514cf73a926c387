package bashguard

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The config files of a repository are found by name: config and
// config.worktree below a directory named .git or NAME.git.
func TestGitConfigFile(t *testing.T) {
	for p, want := range map[string]bool{
		"/w/.git/config": true, "/w/.git/config.worktree": true, "/w/.git/worktrees/x/config.worktree": true,
		"/w/.git/modules/lib/config": true, "/srv/repo.git/config": true,
		"/w/config": false, "/w/src/config": false, "/w/.git/HEAD": false, "/w/.github/config": false,
		"/w/.git/configs": false, "config": false, "/": false,
	} {
		assert.Equal(t, want, gitConfigFile(p), p)
	}
}

// ConfigCredential names the key that holds a credential, finds none in
// a clean config, a missing one or a file that is not a config, counts a
// config it cannot read (a FIFO, which must not block it, or a line git
// would read otherwise) as holding one, and reads a config again when it
// changes.
func TestConfigCredential(t *testing.T) {
	dir := t.TempDir()
	gitDir := filepath.Join(dir, ".git")
	require.NoError(t, os.MkdirAll(filepath.Join(gitDir, "modules", "m"), 0o755))
	cfg := filepath.Join(gitDir, "config")
	g := New(DefaultPolicy())

	why, found := g.ConfigCredential(cfg)
	assert.False(t, found, "a missing config holds nothing: %s", why)

	require.NoError(t, os.WriteFile(cfg, []byte("[remote \"origin\"]\n\turl = https://github.com/o/r\n"), 0o644))
	why, found = g.ConfigCredential(cfg)
	assert.False(t, found, "a clean config: %s", why)

	require.NoError(t, os.WriteFile(cfg, []byte("[remote \"origin\"]\n\turl = https://dev:tok@github.com/o/r\n"), 0o644))
	why, found = g.ConfigCredential(cfg)
	assert.True(t, found, "the config changed")
	assert.Equal(t, "a git config file whose key remote.origin.url holds a URL with a password", why)

	require.NoError(t, os.WriteFile(cfg, []byte("[core\n"), 0o644))
	why, found = g.ConfigCredential(cfg)
	assert.True(t, found)
	assert.Equal(t, "a git config file that holds a section header that is not read here", why)

	fifo := filepath.Join(gitDir, "modules", "m", "config")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	why, found = g.ConfigCredential(fifo)
	assert.True(t, found, "a FIFO is not read, and not waited on")
	assert.Equal(t, "a git config file that cannot be read here (it is not a regular file)", why)

	other := filepath.Join(dir, "config")
	require.NoError(t, os.WriteFile(other, []byte("[remote \"origin\"]\n\turl = https://dev:tok@github.com/o/r\n"), 0o644))
	why, found = g.ConfigCredential(other)
	assert.False(t, found, "not a repository's config: the path judge's name rules decide (%s)", why)
	why, found = (*Guard)(nil).ConfigCredential(cfg)
	assert.False(t, found, "a nil Guard: %s", why)
}

// A FIFO planted as the repository's config is not opened for reading,
// which would block the Judge until a writer came: git commands that read
// the config ask, saying why.
func TestRepoConfigFIFODoesNotBlock(t *testing.T) {
	dir, paths := specRepo(t)
	cfg := filepath.Join(dir, ".git", "config")
	require.NoError(t, os.Remove(cfg))
	require.NoError(t, syscall.Mkfifo(cfg, 0o644))
	g := New(DefaultPolicy())
	for _, script := range []string{"git status", "git config -l", "git log -1"} {
		v := g.Judge(context.Background(), dir, paths, script)
		assert.Equal(t, "ask", v.Decision.String(), "%q (%s)", script, v.Reason)
		assert.Contains(t, v.Reason, "the repository's config cannot be read: it is not a regular file", script)
	}
}

//go:build linux

package fswatch

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

func newWatcher(t *testing.T) *Watcher {
	t.Helper()
	w, err := New()
	if err != nil {
		t.Skip("SKIP: NOT TESTED: no inotify here: " + err.Error())
	}
	t.Cleanup(func() { _ = w.Close() })
	return w
}

func tempDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	var sf unix.Statfs_t
	require.NoError(t, unix.Statfs(d, &sf))
	if !localFS(int64(sf.Type)) {
		t.Skipf("SKIP: NOT TESTED: the temporary directory is on a file system (0x%x) the watcher does not cover", sf.Type)
	}
	return d
}

func set(t *testing.T, w *Watcher, inode, follow bool, paths ...string) *Set {
	t.Helper()
	s := w.NewSet()
	for _, p := range paths {
		w.Path(s, p, inode, follow)
	}
	require.True(t, s.OK(), s.Why())
	return s
}

// Each change a fact depends on is seen at the next Sync, and only
// those: another name in the same directory leaves the Set valid.
func TestWatcherChanges(t *testing.T) {
	d := tempDir(t)
	w := newWatcher(t)
	write := func(name, text string) {
		require.NoError(t, os.WriteFile(filepath.Join(d, name), []byte(text), 0o644))
	}
	write("config", "a")
	require.NoError(t, os.Mkdir(filepath.Join(d, "refs"), 0o755))
	cases := []struct {
		name   string
		inode  bool
		path   string
		change func()
		stale  bool
	}{
		{"another name written", true, "config", func() { write("other", "x") }, false},
		{"the file written", true, "config", func() { write("config", "b") }, true},
		{"a missing file made", false, "missing", func() { write("missing", "x") }, true},
		{"the file's mode", false, "config", func() { require.NoError(t, os.Chmod(filepath.Join(d, "config"), 0o600)) }, true},
		{"an entry of a listed directory", true, "refs", func() { write("refs/main", "x") }, true},
		{"a write in a directory only looked up", false, "refs", func() { write("refs/main", "y") }, false},
		{"the directory renamed", false, "refs/main", func() {
			require.NoError(t, os.Rename(filepath.Join(d, "refs"), filepath.Join(d, "refs.old")))
		}, true},
	}
	for _, c := range cases {
		s := set(t, w, c.inode, false, filepath.Join(d, c.path))
		require.True(t, w.Sync())
		require.True(t, w.Valid(s), "%s: valid before the change", c.name)
		c.change()
		require.True(t, w.Sync())
		assert.Equal(t, !c.stale, w.Valid(s), c.name)
	}
}

// A write through a hard link in a directory nobody watches is seen by
// the watch of the file itself.
func TestWatcherHardLink(t *testing.T) {
	d := tempDir(t)
	other := filepath.Join(d, "elsewhere")
	require.NoError(t, os.Mkdir(filepath.Join(d, "watched"), 0o755))
	require.NoError(t, os.Mkdir(other, 0o755))
	p := filepath.Join(d, "watched", "config")
	require.NoError(t, os.WriteFile(p, []byte("a"), 0o644))
	require.NoError(t, os.Link(p, filepath.Join(other, "link")))
	w := newWatcher(t)
	s := set(t, w, true, true, p)
	require.True(t, w.Sync())
	require.True(t, w.Valid(s))
	f, err := os.OpenFile(filepath.Join(other, "link"), os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	_, err = f.WriteString("[core]\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	require.True(t, w.Sync())
	assert.False(t, w.Valid(s), "the write through the other name is seen")
}

// What inotify cannot stand for is not covered: a link on the way, a
// link followed; a lost event drops every Set; a closed Watcher
// validates nothing.
func TestWatcherNotCovered(t *testing.T) {
	d := tempDir(t)
	require.NoError(t, os.Mkdir(filepath.Join(d, "real"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(d, "real", "f"), []byte("a"), 0o644))
	require.NoError(t, os.Symlink("real", filepath.Join(d, "link")))
	w := newWatcher(t)

	s := w.NewSet()
	w.Path(s, filepath.Join(d, "link", "f"), false, false)
	assert.False(t, s.OK(), "a path through a link")
	assert.Contains(t, s.Why(), "link")
	s = w.NewSet()
	w.Path(s, filepath.Join(d, "link"), true, true)
	assert.False(t, s.OK(), "a link followed")
	s = w.NewSet()
	w.Path(s, "relative/path", false, false)
	assert.False(t, s.OK(), "a relative path")

	s = set(t, w, true, false, filepath.Join(d, "real", "f"))
	require.True(t, w.Sync())
	require.True(t, w.Valid(s))
	w.mu.Lock()
	w.event(-1, unix.IN_Q_OVERFLOW, "")
	w.mu.Unlock()
	assert.False(t, w.Valid(s), "a lost event drops every Set")

	s = set(t, w, true, false, filepath.Join(d, "real", "f"))
	require.NoError(t, w.Close())
	assert.False(t, w.Sync())
	assert.False(t, w.Valid(s), "a closed Watcher validates nothing")
	s = w.NewSet()
	w.Path(s, filepath.Join(d, "real", "f"), false, false)
	assert.False(t, s.OK())
	assert.NoError(t, w.Close(), "Close twice")
}

// The allow-list of file systems: local ones whose changes all go
// through the kernel, never a network or FUSE one.
func TestLocalFS(t *testing.T) {
	for _, c := range []struct {
		name  string
		magic int64
		local bool
	}{
		{"ext4", unix.EXT4_SUPER_MAGIC, true},
		{"xfs", unix.XFS_SUPER_MAGIC, true},
		{"btrfs", unix.BTRFS_SUPER_MAGIC, true},
		{"tmpfs", unix.TMPFS_MAGIC, true},
		{"overlayfs", unix.OVERLAYFS_SUPER_MAGIC, true},
		{"fuse (virtiofs, sshfs)", unix.FUSE_SUPER_MAGIC, false},
		{"nfs", unix.NFS_SUPER_MAGIC, false},
		{"9p", unix.V9FS_MAGIC, false},
		{"smb2", unix.SMB2_SUPER_MAGIC, false},
		{"cifs", unix.CIFS_SUPER_MAGIC, false},
		{"proc", unix.PROC_SUPER_MAGIC, false},
	} {
		assert.Equal(t, c.local, localFS(c.magic), c.name)
	}
}

// SyncSince reads the queue unless a Sync begun after the mark has ended:
// a change made before the mark is seen either way, and one Sync serves
// every use marked before it began.
func TestWatcherSyncSince(t *testing.T) {
	d := tempDir(t)
	w := newWatcher(t)
	p := filepath.Join(d, "config")
	require.NoError(t, os.WriteFile(p, []byte("a"), 0o644))
	s := set(t, w, true, false, p)
	require.True(t, w.Sync())
	require.True(t, w.Valid(s))

	// A change, then a mark: SyncSince must read the queue.
	require.NoError(t, os.WriteFile(p, []byte("b"), 0o644))
	mark := w.Mark()
	assert.True(t, w.Valid(s), "no Sync yet: the change is still queued")
	require.True(t, w.SyncSince(mark))
	assert.False(t, w.Valid(s), "the change made before the mark is seen")

	// A Sync begun after the mark serves it: no second read.
	s = set(t, w, true, false, p)
	mark = w.Mark()
	require.True(t, w.Sync())
	n := w.Mark()
	require.True(t, w.SyncSince(mark))
	assert.Equal(t, n, w.Mark(), "a Sync begun after the mark had ended: SyncSince made none")
	assert.True(t, w.Valid(s))

	// A Sync begun before the mark does not serve it.
	mark = w.Mark()
	require.True(t, w.SyncSince(mark))
	assert.Equal(t, mark+1, w.Mark(), "no Sync began after the mark: SyncSince made one")

	// A closed Watcher works for nobody.
	mark = w.Mark()
	require.True(t, w.Sync())
	require.NoError(t, w.Close())
	assert.False(t, w.SyncSince(mark))
}

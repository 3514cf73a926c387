package sysread_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/sysread"
)

// A file below the system prefixes is read unasked only when every user
// may read it by its mode bits, every directory above it lets every user
// pass, it stays below them with its links followed, and its name is not
// a credential's.
func TestWorldReadable(t *testing.T) {
	sys := t.TempDir()
	require.NoError(t, os.Chmod(sys, 0o755))
	require.NoError(t, os.Chmod(filepath.Dir(sys), 0o755)) // t.TempDir makes it 0700
	outside := t.TempDir()
	for name, mode := range map[string]os.FileMode{
		"os-release": 0o644, "nginx/nginx.conf": 0o644, "shadow": 0o640, "gshadow": 0o600, "conf/locked": 0o600,
		"ssl/private/server.key": 0o644, "app/server.key": 0o644, "app/db.password": 0o644, "closed/inner.conf": 0o644,
	} {
		p := filepath.Join(sys, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte("x\n"), mode))
		require.NoError(t, os.Chmod(p, mode))
	}
	require.NoError(t, os.Chmod(filepath.Join(sys, "closed"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(outside, "notes"), []byte("x\n"), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(outside, "notes"), filepath.Join(sys, "link-out")))
	require.NoError(t, os.Symlink("os-release", filepath.Join(sys, "link-in")))
	// A directory every user may write, below the root: another user
	// could put a link to the reader's own files in place of what was
	// checked.
	require.NoError(t, os.MkdirAll(filepath.Join(sys, "drop"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(sys, "drop", "notes.txt"), []byte("x\n"), 0o644))
	require.NoError(t, os.Chmod(filepath.Join(sys, "drop"), 0o777))
	require.NoError(t, os.MkdirAll(filepath.Join(sys, "sticky", "inner"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(sys, "sticky", "inner", "a.conf"), []byte("x\n"), 0o644))
	require.NoError(t, os.Chmod(filepath.Join(sys, "sticky"), 0o1777))
	pre := []string{sys}
	for name, want := range map[string]bool{
		"os-release": true, "nginx": true, "nginx/nginx.conf": true, "link-in": true, "nginx/*.conf": true,
		"shadow": false, "gshadow": false, "conf/locked": false, // not readable by every user (0640, 0600)
		"ssl/private/server.key": false, "app/server.key": false, "app/db.password": false, // a credential's name, though 0644
		"closed/inner.conf": false,                                                        // below a directory not every user may pass
		"link-out":          false,                                                        // leads out of the prefixes
		"drop":              false, "drop/notes.txt": false, "sticky/inner/a.conf": false, // in a directory every user may write
		"missing": false, "nginx/../shadow": false, "nginx/*/../../shadow": false,
	} {
		assert.Equal(t, want, sysread.WorldReadable(filepath.Join(sys, name), pre), name)
	}
	assert.False(t, sysread.WorldReadable(filepath.Join(outside, "notes"), pre), "outside the prefixes")
	assert.False(t, sysread.WorldReadable("os-release", pre), "a relative path")

	// Places gives the reason the callers report; the default roots
	// come with the /proc files that describe the machine.
	assert.Equal(t, "a system file every user may read (its mode bits say so), below "+sys, sysread.Places{System: pre}.Why(filepath.Join(sys, "os-release")))
	assert.Empty(t, sysread.Places{System: pre}.Why(filepath.Join(sys, "shadow")))
	assert.Empty(t, sysread.Places{System: []string{}}.Why(filepath.Join(sys, "os-release")), "no system roots")
	assert.Contains(t, sysread.Places{}.Why("/proc/cpuinfo"), "below /usr, /opt, /etc, /lib, /lib64")
	assert.Empty(t, sysread.Places{}.Why("/proc/1/environ"))
}

// The module cache: a path under it, links followed both ends, is read
// unasked; one that a link inside leads out of it is not, nor a pattern
// whose ".." climbs out, nor anything when no cache is known.
func TestInModCache(t *testing.T) {
	mc := filepath.Join(t.TempDir(), "mod")
	mod := filepath.Join(mc, "example.com", "m@v1.0.0")
	require.NoError(t, os.MkdirAll(mod, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(mod, "m.go"), []byte("package m\n"), 0o444))
	home := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(home, ".netrc"), []byte("machine x\n"), 0o600))
	require.NoError(t, os.Symlink(filepath.Join(home, ".netrc"), filepath.Join(mc, "out")))
	for p, want := range map[string]bool{
		filepath.Join(mod, "m.go"): true, mod: true, filepath.Join(mod, "*.go"): true,
		filepath.Join(mc, "out"): false, filepath.Join(mod, "*", "..", "..", "..", "x"): false, filepath.Join(home, ".netrc"): false,
		filepath.Join(mod, "missing.go"): false,
	} {
		assert.Equal(t, want, sysread.InModCache(p, mc), p)
	}
	assert.False(t, sysread.InModCache(filepath.Join(mod, "m.go"), ""), "no cache known")
	assert.False(t, sysread.InModCache(filepath.Join(mod, "m.go"), "mod"), "a relative cache")
	assert.Equal(t, sysread.ModCacheReason, sysread.Places{System: []string{}, ModCache: mc}.Why(filepath.Join(mod, "m.go")))
}

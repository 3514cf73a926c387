package sysread_test

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/sysread"
)

// liftTree is a system root and a module cache with world-readable files.
func liftTree(t *testing.T) (sys, mc string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.Chmod(base, 0o755))
	require.NoError(t, os.Chmod(filepath.Dir(base), 0o755))
	sys, mc = filepath.Join(base, "sys"), filepath.Join(base, "mod")
	for _, p := range []string{"sys/nginx/nginx.conf", "sys/nginx/other.conf", "sys/home/notes", "mod/m@v1/m.go"} {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(base, p)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(base, p), []byte("x\n"), 0o644))
	}
	return sys, mc
}

func noSecret(string) bool { return false }

// Lift gives the reason, the rule and where the file is; a name the
// caller's secret list holds, a directory's files (not listed) and what
// the rule refuses are not lifted.
func TestLift(t *testing.T) {
	sys, mc := liftTree(t)
	pl := sysread.Places{System: []string{sys}, ModCache: mc}
	conf := filepath.Join(sys, "nginx/nginx.conf")
	l, ok := pl.Lift(conf, conf, false, noSecret)
	require.True(t, ok)
	assert.Equal(t, sysread.Lift{Why: sysread.SystemReason([]string{sys}), Rule: sysread.RuleSystem, Top: sys, Real: conf}, stripSystem(l))
	l, ok = pl.Lift(filepath.Join(mc, "m@v1"), filepath.Join(mc, "m@v1"), false, noSecret)
	require.True(t, ok, "a directory of the module cache, even to read its files")
	assert.Equal(t, sysread.Lift{Why: sysread.ModCacheReason, Rule: sysread.RuleModCache, Top: mc, Real: filepath.Join(mc, "m@v1")}, l)
	_, ok = pl.Lift(filepath.Join(sys, "nginx"), filepath.Join(sys, "nginx"), false, noSecret)
	assert.False(t, ok, "a system directory's files")
	_, ok = pl.Lift(filepath.Join(sys, "nginx"), filepath.Join(sys, "nginx"), true, noSecret)
	assert.True(t, ok, "a system directory's names")
	_, ok = pl.Lift("/work/link", conf, false, func(p string) bool { return p == "/work/link" })
	assert.False(t, ok, "the name as written is secret")
	_, ok = pl.Lift(conf, conf, false, func(p string) bool { return p == conf })
	assert.False(t, ok, "where it leads is secret")
	_, ok = pl.Lift("nginx.conf", "nginx.conf", false, noSecret)
	assert.False(t, ok, "a relative path")
}

// stripSystem is l as a caller outside the package can build it.
func stripSystem(l sysread.Lift) sysread.Lift {
	return sysread.Lift{Why: l.Why, Rule: l.Rule, Top: l.Top, Real: l.Real, Lists: l.Lists}
}

// Lift.Open opens the file judged, and fails with ErrChanged when what
// it meets is no longer what was judged: a link swapped in for a
// directory or the file, mode bits taken away, a directory made
// writable by every user, a FIFO in the file's place.
func TestLiftOpenRefusesWhatChanged(t *testing.T) {
	for name, change := range map[string]func(t *testing.T, sys string){
		"directory swapped for a link": func(t *testing.T, sys string) {
			require.NoError(t, os.Rename(filepath.Join(sys, "nginx"), filepath.Join(sys, "nginx.old")))
			require.NoError(t, os.Symlink(filepath.Join(sys, "home"), filepath.Join(sys, "nginx")))
			require.NoError(t, os.Rename(filepath.Join(sys, "home/notes"), filepath.Join(sys, "home/nginx.conf")))
		},
		"file swapped for a link": func(t *testing.T, sys string) {
			require.NoError(t, os.Remove(filepath.Join(sys, "nginx/nginx.conf")))
			require.NoError(t, os.Symlink("other.conf", filepath.Join(sys, "nginx/nginx.conf")))
		},
		"file no longer world-readable": func(t *testing.T, sys string) {
			require.NoError(t, os.Chmod(filepath.Join(sys, "nginx/nginx.conf"), 0o640))
		},
		"directory made world-writable": func(t *testing.T, sys string) {
			require.NoError(t, os.Chmod(filepath.Join(sys, "nginx"), 0o777))
		},
		"directory no longer passable": func(t *testing.T, sys string) {
			require.NoError(t, os.Chmod(filepath.Join(sys, "nginx"), 0o750))
		},
		"FIFO in the file's place": func(t *testing.T, sys string) {
			require.NoError(t, os.Remove(filepath.Join(sys, "nginx/nginx.conf")))
			require.NoError(t, syscall.Mkfifo(filepath.Join(sys, "nginx/nginx.conf"), 0o644))
		},
	} {
		t.Run(name, func(t *testing.T) {
			sys, mc := liftTree(t)
			conf := filepath.Join(sys, "nginx/nginx.conf")
			l, ok := sysread.Places{System: []string{sys}, ModCache: mc}.Lift(conf, conf, false, noSecret)
			require.True(t, ok)
			f, err := l.Open("/the/name")
			require.NoError(t, err, "before the change")
			assert.Equal(t, "/the/name", f.Name())
			b, err := io.ReadAll(f)
			require.NoError(t, err)
			assert.Equal(t, "x\n", string(b))
			require.NoError(t, f.Close())

			change(t, sys)
			t.Cleanup(func() { _ = os.Chmod(filepath.Join(sys, "nginx"), 0o755) })
			_, err = l.Open("/the/name")
			var pe *fs.PathError
			require.True(t, errors.As(err, &pe), "a *fs.PathError, not %v", err)
			assert.Equal(t, "/the/name", pe.Path)
			assert.ErrorIs(t, err, sysread.ErrChanged)
		})
	}
}

// A lift that lists opens a system directory; one that reads does not
// (a Lift built for one kind is not used for the other); the module
// cache opens without mode checks, but never through a link.
func TestLiftOpenDirectories(t *testing.T) {
	sys, mc := liftTree(t)
	pl := sysread.Places{System: []string{sys}, ModCache: mc}
	dir := filepath.Join(sys, "nginx")
	l, ok := pl.Lift(dir, dir, true, noSecret)
	require.True(t, ok)
	f, err := l.Open(dir)
	require.NoError(t, err)
	names, err := f.Readdirnames(-1)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"nginx.conf", "other.conf"}, names)
	require.NoError(t, f.Close())
	l.Lists = false
	_, err = l.Open(dir)
	assert.ErrorIs(t, err, sysread.ErrChanged, "a system directory, to read its files")

	m := filepath.Join(mc, "m@v1/m.go")
	l, ok = pl.Lift(m, m, false, noSecret)
	require.True(t, ok)
	require.NoError(t, os.Chmod(m, 0o600))
	f, err = l.Open(m)
	require.NoError(t, err, "the module cache is the user's own: no mode bits checked")
	require.NoError(t, f.Close())
	require.NoError(t, os.Rename(filepath.Join(mc, "m@v1"), filepath.Join(mc, "m@v0")))
	require.NoError(t, os.Symlink("m@v0", filepath.Join(mc, "m@v1")))
	_, err = l.Open(m)
	assert.ErrorIs(t, err, sysread.ErrChanged, "a link swapped in")

	_, err = sysread.Lift{Top: sys, Real: "/etc/passwd"}.Open("x")
	assert.ErrorIs(t, err, sysread.ErrChanged, "a Real outside Top")
	_, err = sysread.Lift{}.Open("x")
	assert.ErrorIs(t, err, sysread.ErrChanged, "the zero Lift opens nothing")
}

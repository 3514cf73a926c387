package sandbox_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/sandbox"
)

// sysTree is a workspace, a directory named as the only system root and a
// Go module cache, with the modes the read rule looks at.
type sysTree struct {
	base, work, sys, mod string
	sb                   *sandbox.Sandbox
}

func newSysTree(t *testing.T) *sysTree {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.Chmod(base, 0o755)) // t.TempDir makes it 0700
	require.NoError(t, os.Chmod(filepath.Dir(base), 0o755))
	st := &sysTree{base: base, work: filepath.Join(base, "work"), sys: filepath.Join(base, "sys"), mod: filepath.Join(base, "mod")}
	for name, mode := range map[string]os.FileMode{
		"work/main.go": 0o644, "sys/include/stdio.h": 0o644, "sys/shadow": 0o640, "sys/app/db.password": 0o644,
		"sys/app/site.conf": 0o644, "sys/app/app.conf": 0o644, "sys/drop/notes.txt": 0o644, "home/.bashrc": 0o644,
		"mod/example.com/m@v1.0.0/m.go": 0o444,
	} {
		p := filepath.Join(base, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte("int x;\n"), mode))
		require.NoError(t, os.Chmod(p, mode))
	}
	require.NoError(t, os.Chmod(filepath.Join(st.sys, "drop"), 0o777))
	require.NoError(t, os.Symlink(filepath.Join(base, "home/.bashrc"), filepath.Join(st.sys, "home-link")))
	require.NoError(t, os.Symlink("include/stdio.h", filepath.Join(st.sys, "stdio-link")))
	require.NoError(t, syscall.Mkfifo(filepath.Join(st.sys, "include/fifo.h"), 0o644))
	st.sb, err = sandbox.New(sandbox.Config{Roots: []string{st.work}, WorkDir: st.work,
		Secret: append(sandbox.DefaultSecret(), "**/site.conf")})
	require.NoError(t, err)
	return st
}

func (st *sysTree) s(p string) string { return filepath.Join(st.sys, p) }

func (st *sysTree) open(t *testing.T, opts ...sandbox.FSOption) *sandbox.FS {
	t.Helper()
	fsys, err := st.sb.OpenFS(opts...)
	require.NoError(t, err)
	t.Cleanup(func() { _ = fsys.Close() })
	return fsys
}

// requireOutside asserts the sandbox's refusal of a path outside the roots.
func requireOutside(t *testing.T, err error, name string) {
	t.Helper()
	var pe *sandbox.PathError
	require.ErrorAs(t, err, &pe, name)
	assert.ErrorIs(t, err, sandbox.ErrOutsideRoots, name)
	assert.Equal(t, name, pe.Path)
	assert.Contains(t, pe.Reason, "outside every root (", name)
}

// With ReadOutside, the FS's read-only operations read outside the roots
// what the pipeline's read rule lifts, and nothing else; without it,
// nothing outside the roots.
func TestFSReadOutside(t *testing.T) {
	st := newSysTree(t)
	plain := st.open(t)
	_, err := plain.ReadFile(st.s("include/stdio.h"))
	requireOutside(t, err, st.s("include/stdio.h"))

	fsys := st.open(t, sandbox.ReadOutside([]string{st.sys}, st.mod))
	b, err := fsys.ReadFile(st.s("include/stdio.h"))
	require.NoError(t, err)
	assert.Equal(t, "int x;\n", string(b))
	b, err = fsys.ReadFile(st.s("stdio-link"))
	require.NoError(t, err, "a link that stays in the place")
	assert.Equal(t, "int x;\n", string(b))
	b, err = fsys.ReadFile(filepath.Join(st.mod, "example.com/m@v1.0.0/m.go"))
	require.NoError(t, err)
	assert.Equal(t, "int x;\n", string(b))
	require.NoError(t, os.Symlink(st.s("include/stdio.h"), filepath.Join(st.work, "stdio.h")))
	require.NoError(t, os.Symlink(filepath.Join(st.base, "home/.bashrc"), filepath.Join(st.work, "bashrc")))
	b, err = fsys.ReadFile("stdio.h")
	require.NoError(t, err, "a link of the workspace that leads to a system file")
	assert.Equal(t, "int x;\n", string(b))
	_, err = fsys.ReadFile("bashrc")
	requireOutside(t, err, "bashrc")
	b, err = fsys.ReadFile("../sys/include/stdio.h")
	require.NoError(t, err, "relative to the working directory")
	assert.Equal(t, "int x;\n", string(b))
	f, err := fsys.Open(filepath.Join(st.mod, "example.com"))
	require.NoError(t, err, "any directory of the module cache")
	names, err := f.Readdirnames(-1)
	require.NoError(t, err)
	assert.Equal(t, []string{"m@v1.0.0"}, names)
	require.NoError(t, f.Close())

	// Refused as the pipeline refuses them, with the sandbox's error.
	for _, p := range []string{
		st.s("shadow"),          // not every user may read it
		st.s("app/db.password"), // a credential's name
		st.s("app/site.conf"),   // on the sandbox's secret list
		st.s("drop/notes.txt"),  // in a directory every user may write
		st.s("home-link"),       // leads out of the place
		st.s("include"),         // a system directory's files, as Grep would read them
		st.s("include/fifo.h"),  // not a regular file
		st.s("missing.h"),       // no such file
		filepath.Join(st.base, "home/.bashrc"),
	} {
		_, err := fsys.ReadFile(p)
		requireOutside(t, err, p)
		_, err = fsys.Open(p)
		requireOutside(t, err, p)
	}

	// Listing a system directory: the names the rule would not let a file
	// tool read are left out.
	ents, err := fsys.ReadDir(st.sys)
	require.NoError(t, err)
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	assert.Equal(t, []string{"app", "include", "stdio-link"}, got)
	ents, err = fsys.ReadDir(st.s("app"))
	require.NoError(t, err)
	require.Len(t, ents, 1)
	assert.Equal(t, "app.conf", ents[0].Name())
	_, err = fsys.ReadDir(st.s("drop"))
	requireOutside(t, err, st.s("drop"))

	var walked []string
	require.NoError(t, fsys.WalkDir(st.sys, func(p string, d fs.DirEntry, err error) error {
		require.NoError(t, err, p)
		walked = append(walked, p)
		return nil
	}))
	assert.Equal(t, []string{st.sys, st.s("app"), st.s("app/app.conf"), st.s("include"), st.s("include/stdio.h"), st.s("stdio-link")}, walked)
	err = fsys.WalkDir(st.s("drop"), func(string, fs.DirEntry, error) error { return nil })
	requireOutside(t, err, st.s("drop"))

	ms, err := fsys.Glob(st.s("**/*.h"))
	require.NoError(t, err)
	assert.Equal(t, []string{st.s("include/stdio.h")}, ms, "the FIFO, a special file, is left out")
	ms, err = fsys.Glob(filepath.Join(st.mod, "**/*.go"))
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join(st.mod, "example.com/m@v1.0.0/m.go")}, ms)
	_, err = fsys.Glob(st.s("drop/*"))
	requireOutside(t, err, st.s("drop/*"))

	fi, err := fsys.Stat(st.s("stdio-link"))
	require.NoError(t, err)
	assert.True(t, fi.Mode().IsRegular())
	assert.EqualValues(t, 7, fi.Size())
	fi, err = fsys.Lstat(st.s("stdio-link"))
	require.NoError(t, err)
	assert.Equal(t, fs.ModeSymlink, fi.Mode().Type(), "Lstat describes the link")
	fi, err = fsys.Lstat(st.s("include"))
	require.NoError(t, err)
	assert.True(t, fi.IsDir())
	for _, p := range []string{st.s("shadow"), st.s("home-link"), st.s("drop/notes.txt"), st.s("app/site.conf")} {
		_, err = fsys.Stat(p)
		requireOutside(t, err, p)
		_, err = fsys.Lstat(p)
		requireOutside(t, err, p)
	}

	// Writes stay refused, and write nothing.
	for _, p := range []string{st.s("include/new.h"), st.s("include/stdio.h"), filepath.Join(st.mod, "example.com/m@v1.0.0/m.go")} {
		requireOutside(t, fsys.WriteFile(p, []byte("y"), 0o644), p)
		_, err = fsys.Create(p)
		requireOutside(t, err, p)
		_, err = fsys.OpenFile(p, os.O_RDWR, 0)
		requireOutside(t, err, p)
		_, err = fsys.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
		requireOutside(t, err, p)
		requireOutside(t, fsys.Remove(p), p)
	}
	requireOutside(t, fsys.MkdirAll(st.s("include/newdir"), 0o755), st.s("include/newdir"))
	_, err = os.Stat(st.s("include/new.h"))
	assert.ErrorIs(t, err, fs.ErrNotExist)
	b, err = os.ReadFile(st.s("include/stdio.h"))
	require.NoError(t, err)
	assert.Equal(t, "int x;\n", string(b))

	// An empty list of system roots lifts none; the module cache stays.
	none := st.open(t, sandbox.ReadOutside([]string{}, st.mod))
	_, err = none.ReadFile(st.s("include/stdio.h"))
	requireOutside(t, err, st.s("include/stdio.h"))
	_, err = none.ReadFile(filepath.Join(st.mod, "example.com/m@v1.0.0/m.go"))
	require.NoError(t, err)
}

// A directory of a system root swapped for a link to the home and back,
// while the FS reads a file below it: every read gives the system file or
// fails with the sandbox's error, never the home's file of the same name.
func TestFSReadOutsideSwapRace(t *testing.T) {
	st := newSysTree(t)
	conf, saved, home := st.s("conf"), st.s("conf.saved"), filepath.Join(st.base, "home")
	require.NoError(t, os.MkdirAll(conf, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(conf, "app.conf"), []byte("public"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(home, "app.conf"), []byte("HOME FILE"), 0o644))
	fsys := st.open(t, sandbox.ReadOutside([]string{st.sys}, ""))
	stop := make(chan struct{})
	done := make(chan struct{})
	t.Cleanup(func() { close(stop); <-done })
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			_ = os.Rename(conf, saved)
			_ = os.Symlink(home, conf)
			_ = os.Remove(conf)
			_ = os.Rename(saved, conf)
			time.Sleep(20 * time.Microsecond) // in place most of the time: reads also succeed
		}
	}()
	read, refused := 0, 0
	for range 3000 {
		b, err := fsys.ReadFile(filepath.Join(conf, "app.conf"))
		if err != nil {
			// Outside every root, not resolvable mid-swap, or gone.
			var pe *sandbox.PathError
			var ope *fs.PathError
			require.True(t, errors.As(err, &pe) || errors.As(err, &ope), "a path error, not %v", err)
			refused++
			continue
		}
		require.Equal(t, "public", string(b), "read through a link swapped in")
		read++
	}
	t.Logf("%d reads of the system file, %d refused while it was swapped", read, refused)
	assert.NotZero(t, read)
}

package runtime_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/sandbox"
)

// A host's own read through the pipeline's FS (Pipeline.OpenFS) agrees
// with the pipeline's decision for every row of TestFileToolsSystemReads:
// what the pipeline allows outside the roots, the FS reads (Read as
// ReadFile, Grep as Open of what it searches, Glob as Glob); what it
// refuses, the FS refuses with the sandbox's *PathError, whose reason is
// the one the pipeline gave; every write stays refused.
func TestFSAgreesWithSystemReads(t *testing.T) {
	f := newReadsFixture(t, nil)
	fsys, err := f.p.OpenFS()
	require.NoError(t, err)
	defer fsys.Close()
	for _, c := range systemReadRows(f) {
		name := c.tool + " " + c.input["file_path"] + c.input["path"] + " " + c.input["pattern"]
		var got []string // what the FS read or listed
		switch c.tool {
		case "Read":
			var b []byte
			b, err = fsys.ReadFile(c.input["file_path"])
			got = []string{string(b)}
		case "Grep":
			var file *os.File
			if file, err = fsys.Open(c.input["path"]); err == nil {
				fi, _ := file.Stat()
				if fi.IsDir() {
					got, err = file.Readdirnames(-1)
				} else {
					var b []byte
					b, err = io.ReadAll(file)
					got = []string{string(b)}
				}
				file.Close()
			}
		case "Glob":
			pat := c.input["pattern"]
			if dir := c.input["path"]; dir != "" {
				pat = filepath.Join(dir, pat)
			}
			got, err = fsys.Glob(pat)
		case "Write", "Edit":
			err = fsys.WriteFile(c.input["file_path"], []byte("y"), 0o644)
		default:
			continue // a shell command: the FS opens nothing of it
		}
		v := f.check(t, c.tool, c.input)
		require.Equal(t, c.want, v.Decision, "%s: %s", name, v.Reason)
		if c.want == permission.Allow {
			if assert.NoError(t, err, "%s: the pipeline allowed it (%s)", name, v.Reason) {
				assert.NotEmpty(t, got, name)
				for _, g := range got {
					if c.tool != "Glob" && g != "m.go" {
						assert.Equal(t, "int x;\n", g, name)
					}
				}
			}
			continue
		}
		var pe *sandbox.PathError
		if assert.True(t, errors.As(err, &pe), "%s: refused with a *sandbox.PathError, not %v", name, err) {
			assert.ErrorIs(t, err, sandbox.ErrOutsideRoots, name)
			assert.Contains(t, pe.Reason, "outside every root", name)
			assert.Contains(t, v.Reason, pe.Reason, "%s: the FS's reason is the pipeline's", name)
		}
	}
	// Glob's matches are judged one by one: app/db.password (a
	// credential's name), drop/notes.txt (in a directory every user may
	// write), shadow (0640) and home-link (leads to the home) are left out.
	ms, err := fsys.Glob(filepath.Join(f.sys, "*/*"))
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join(f.sys, "include/stdio.h")}, ms)
	ms, err = fsys.Glob(filepath.Join(f.sys, "*"))
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join(f.sys, "app"), filepath.Join(f.sys, "include")}, ms)
	ms, err = fsys.Glob(filepath.Join(f.mod, "*.go"))
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join(f.mod, "m.go")}, ms)
}

// With the default system roots, the pipeline's FS reads /etc/passwd and
// /proc/cpuinfo where the pipeline's Read is allowed (the row of
// cmd/toolgate/testdata/read_system_file_allow.json), and not
// /etc/shadow, which it refuses.
func TestFSDefaultSystemRoots(t *testing.T) {
	f := newReadsFixture(t, nil)
	p, err := runtime.Open(runtime.Workspace{Dir: f.dir, Home: f.home, Rules: permission.Config{Default: permission.Ask,
		DefaultFor: map[permission.Kind]permission.Decision{permission.KindRead: permission.Allow}}})
	require.NoError(t, err)
	f.p = p
	_, err = p.Session(t.Context(), runtime.SessionOptions{ID: "s1"})
	require.NoError(t, err)
	fsys, err := p.OpenFS()
	require.NoError(t, err)
	defer fsys.Close()
	checked := 0
	for _, name := range []string{"/etc/passwd", "/proc/cpuinfo", "/etc/shadow", "/usr/include/stdio.h"} {
		if _, err := os.Stat(name); err != nil {
			t.Logf("SKIP part: %s is not on this machine (%v)", name, err)
			continue
		}
		checked++
		v := f.check(t, "Read", map[string]string{"file_path": name})
		_, err := fsys.ReadFile(name)
		if v.Decision == permission.Allow {
			assert.NoError(t, err, "%s: the pipeline allowed it (%s)", name, v.Reason)
			continue
		}
		var pe *sandbox.PathError
		if assert.ErrorAs(t, err, &pe, "%s: the pipeline refused it (%s)", name, v.Reason) {
			assert.ErrorIs(t, err, sandbox.ErrOutsideRoots)
			assert.Contains(t, v.Reason, pe.Reason, name)
		}
		if name == "/etc/shadow" {
			assert.Equal(t, permission.Deny, v.Decision, "mode 0640: %s", v.Reason)
		}
	}
	require.NotZero(t, checked, "none of the system files is on this machine")
}

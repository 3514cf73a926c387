package sandbox_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgate/toolgate/sandbox"
)

type resolveCase struct {
	name   string
	path   string
	want   string // resolved path when no error is expected
	kind   error  // expected sentinel, or nil
	reason string // substring expected in the error's reason
}

func runResolveCases(t *testing.T, sb interface{ Resolve(string) (string, error) }, cases []resolveCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := sb.Resolve(c.path)
			if c.kind == nil {
				require.NoError(t, err)
				assert.Equal(t, c.want, got)
				return
			}
			require.Error(t, err, "resolved to %q", got)
			assert.True(t, errors.Is(err, c.kind), "error %v is not %v", err, c.kind)
			var pe *sandbox.PathError
			require.True(t, errors.As(err, &pe))
			assert.Equal(t, c.path, pe.Path)
			assert.Contains(t, pe.Reason, c.reason)
			assert.Contains(t, err.Error(), c.reason)
			assert.Empty(t, got)
		})
	}
}

func TestResolveTraversal(t *testing.T) {
	tr := newTree(t)
	runResolveCases(t, tr.sb, []resolveCase{
		{name: "plain relative", path: "a.txt", want: tr.r("a.txt")},
		{name: "dot slash", path: "./a.txt", want: tr.r("a.txt")},
		{name: "double slash", path: "sub//b.txt", want: tr.r("sub/b.txt")},
		{name: "trailing slash dir", path: "sub/", want: tr.r("sub")},
		{name: "dotdot inside", path: "sub/../a.txt", want: tr.r("a.txt")},
		{name: "dot dotdot inside", path: "sub/./deep/../b.txt", want: tr.r("sub/b.txt")},
		{name: "root itself", path: ".", want: tr.root},
		{name: "absolute inside", path: tr.r("sub/b.txt"), want: tr.r("sub/b.txt")},
		{name: "absolute out and back", path: tr.root + "/../root/a.txt", want: tr.r("a.txt")},
		{name: "tilde inside name", path: "notes~", want: tr.r("notes~")},
		{name: "dots inside name", path: "a..b", want: tr.r("a..b")},
		{name: "three dots", path: "...", want: tr.r("...")},
		{name: "tilde later component", path: "sub/~", want: tr.r("sub/~")},
		{name: "dotdot out", path: "../outside/secret.txt", kind: sandbox.ErrOutsideRoots,
			reason: "resolves to " + tr.o("secret.txt") + ", outside every root (" + tr.root + ")"},
		{name: "nested dotdot out", path: "sub/../../outside/secret.txt", kind: sandbox.ErrOutsideRoots,
			reason: "resolves to " + tr.o("secret.txt")},
		{name: "absolute dotdot out", path: tr.r("sub/../../outside/secret.txt"), kind: sandbox.ErrOutsideRoots,
			reason: "resolves to " + tr.o("secret.txt")},
		{name: "parent of root", path: "..", kind: sandbox.ErrOutsideRoots, reason: "resolves to " + tr.base + ","},
		{name: "many dotdots", path: strings.Repeat("../", 40) + "etc/passwd", kind: sandbox.ErrOutsideRoots,
			reason: "resolves to /etc/passwd,"},
		{name: "filesystem root", path: "/", kind: sandbox.ErrOutsideRoots, reason: "resolves to /,"},
		{name: "home", path: "~", kind: sandbox.ErrHomeRef, reason: `leading "~" refers to a home directory`},
		{name: "home slash", path: "~/.ssh/id_rsa", kind: sandbox.ErrHomeRef, reason: `leading "~" refers to a home directory`},
		{name: "home of user", path: "~root/.bashrc", kind: sandbox.ErrHomeRef, reason: `leading "~root" refers to a home directory`},
		{name: "empty", path: "", kind: sandbox.ErrInvalidPath, reason: "empty path"},
		{name: "nul byte", path: "a.txt\x00/../../etc/passwd", kind: sandbox.ErrInvalidPath, reason: "NUL byte"},
		{name: "over long", path: strings.Repeat("a/", 2049), kind: sandbox.ErrInvalidPath, reason: "longer than 4096 bytes"},
		{name: "long component", path: strings.Repeat("x", 256), kind: sandbox.ErrInvalidPath, reason: "component is longer than 255 bytes"},
		{name: "through a file", path: "a.txt/x", kind: sandbox.ErrInvalidPath, reason: tr.r("a.txt") + " is not a directory"},
		{name: "dotdot after file", path: "a.txt/../sub", kind: sandbox.ErrInvalidPath, reason: tr.r("a.txt") + " is not a directory"},
	})
}

func TestResolveSiblingPrefix(t *testing.T) {
	tr := newTree(t)
	runResolveCases(t, tr.sb, []resolveCase{
		{name: "absolute sibling", path: tr.evil + "/x", kind: sandbox.ErrOutsideRoots,
			reason: "resolves to " + tr.evil + "/x, outside every root"},
		{name: "relative sibling", path: "../root_evil/x", kind: sandbox.ErrOutsideRoots,
			reason: "resolves to " + tr.evil + "/x"},
		{name: "sibling dir itself", path: tr.evil, kind: sandbox.ErrOutsideRoots,
			reason: "resolves to " + tr.evil + ","},
		{name: "link to sibling", path: "to_evil/x", kind: sandbox.ErrOutsideRoots,
			reason: "resolves to " + tr.evil + "/x"},
		{name: "new file in sibling", path: tr.evil + "/new", kind: sandbox.ErrOutsideRoots,
			reason: "resolves to " + tr.evil + "/new"},
	})
}

func TestResolveSymlinks(t *testing.T) {
	tr := newTree(t)
	runResolveCases(t, tr.sb, []resolveCase{
		{name: "link inside", path: "link_in/b.txt", want: tr.r("sub/b.txt")},
		{name: "absolute link inside", path: "link_abs_in/b.txt", want: tr.r("sub/b.txt")},
		{name: "link itself followed", path: "link_in", want: tr.r("sub")},
		{name: "chain", path: "chain1/b.txt", want: tr.r("sub/b.txt")},
		{name: "link then dotdot goes to target's parent", path: "jump/../b.txt", want: tr.r("sub/b.txt")},
		{name: "link to dotdot", path: "sub/up/a.txt", want: tr.r("a.txt")},
		{name: "link out", path: "link_out/secret.txt", kind: sandbox.ErrOutsideRoots,
			reason: "resolves to " + tr.o("secret.txt")},
		{name: "absolute link out", path: "link_out_abs/secret.txt", kind: sandbox.ErrOutsideRoots,
			reason: "resolves to " + tr.o("secret.txt")},
		{name: "link then dotdot escapes where lexical would not", path: "toout/..", kind: sandbox.ErrOutsideRoots,
			reason: "resolves to " + tr.outside + ","},
		{name: "link then dotdot then name", path: "toout/../secret.txt", kind: sandbox.ErrOutsideRoots,
			reason: "resolves to " + tr.o("secret.txt")},
		{name: "link to grandparent", path: "sub/upout/outside/secret.txt", kind: sandbox.ErrOutsideRoots,
			reason: "resolves to " + tr.o("secret.txt")},
		{name: "link to slash", path: "rootlink/etc/passwd", kind: sandbox.ErrOutsideRoots,
			reason: "resolves to /etc/passwd,"},
		{name: "deep link out", path: "sub/deep/escape", kind: sandbox.ErrOutsideRoots,
			reason: "resolves to " + tr.o("secret.txt")},
		{name: "loop", path: "loop1/x", kind: sandbox.ErrSymlinkLoop,
			reason: "more than 40 symbolic links followed (a loop?) at " + tr.root + "/loop"},
		{name: "self loop", path: "self", kind: sandbox.ErrSymlinkLoop,
			reason: "more than 40 symbolic links followed (a loop?) at " + tr.r("self")},
	})
}

func TestResolveNotYetExisting(t *testing.T) {
	tr := newTree(t)
	runResolveCases(t, tr.sb, []resolveCase{
		{name: "new file", path: "new.txt", want: tr.r("new.txt")},
		{name: "new nested", path: "sub/n1/n2/new.txt", want: tr.r("sub/n1/n2/new.txt")},
		{name: "new with dotdot", path: "sub/n1/../new.txt", want: tr.r("sub/new.txt")},
		{name: "symlinked parent inside", path: "link_in/new.txt", want: tr.r("sub/new.txt")},
		{name: "symlinked parent chain", path: "chain1/n/new.txt", want: tr.r("sub/n/new.txt")},
		{name: "dangling inside judged by target", path: "dangling_in", want: tr.r("newfile.txt")},
		{name: "symlinked parent outside", path: "link_out/new.txt", kind: sandbox.ErrOutsideRoots,
			reason: "resolves to " + tr.o("new.txt")},
		{name: "dangling outside judged by target", path: "dangling_out", kind: sandbox.ErrOutsideRoots,
			reason: "resolves to " + tr.o("newfile")},
		{name: "new dir then out", path: "n1/../../outside/x", kind: sandbox.ErrOutsideRoots,
			reason: "resolves to " + tr.o("x")},
	})
}

func TestResolveMagicLinks(t *testing.T) {
	tr := newTree(t)
	pid := os.Getpid()
	in, err := os.Open(tr.r("a.txt"))
	require.NoError(t, err)
	defer in.Close()
	out, err := os.Open(tr.o("secret.txt"))
	require.NoError(t, err)
	defer out.Close()
	pr, pw, err := os.Pipe()
	require.NoError(t, err)
	defer pr.Close()
	defer pw.Close()
	cwd, err := os.Getwd()
	require.NoError(t, err)
	cwd, err = filepath.EvalSymlinks(cwd)
	require.NoError(t, err)

	rootVia := fmt.Sprintf("through magic link /proc/%d/root", pid)
	// A process-relative name resolves in the process that judges it,
	// not in the one that opens it: refused, whatever it leads to.
	rel := "a process-relative location"
	require.NoError(t, os.Symlink("/proc/self/cwd", tr.r("to_self_cwd")))
	runResolveCases(t, tr.sb, []resolveCase{
		{name: "proc self root into root", path: "/proc/self/root" + tr.r("a.txt"), kind: sandbox.ErrForeignProcess, reason: "names /proc/self, " + rel},
		{name: "proc self root out", path: "/proc/self/root/etc/passwd", kind: sandbox.ErrForeignProcess, reason: "names /proc/self, " + rel},
		{name: "proc self root dotdot", path: "/proc/self/root/../../" + tr.o("secret.txt"), kind: sandbox.ErrOutsideRoots,
			reason: "resolves to " + tr.o("secret.txt")},
		{name: "proc pid root", path: fmt.Sprintf("/proc/%d/root/etc/passwd", pid), kind: sandbox.ErrOutsideRoots,
			reason: "resolves to /etc/passwd " + rootVia},
		{name: "proc pid root into root", path: fmt.Sprintf("/proc/%d/root%s", pid, tr.r("a.txt")), kind: sandbox.ErrForeignProcess,
			reason: "goes through the magic link " + fmt.Sprintf("/proc/%d/root", pid)},
		{name: "proc self cwd", path: "/proc/self/cwd/x", kind: sandbox.ErrForeignProcess, reason: "names /proc/self, " + rel},
		{name: "proc thread-self", path: "/proc/thread-self/cwd/x", kind: sandbox.ErrForeignProcess, reason: "names /proc/thread-self, " + rel},
		{name: "proc fd inside", path: fmt.Sprintf("/proc/self/fd/%d", in.Fd()), kind: sandbox.ErrForeignProcess, reason: rel},
		{name: "proc fd outside", path: fmt.Sprintf("/proc/self/fd/%d", out.Fd()), kind: sandbox.ErrForeignProcess, reason: rel},
		{name: "dev fd inside", path: fmt.Sprintf("/dev/fd/%d", in.Fd()), kind: sandbox.ErrForeignProcess, reason: "names /dev/fd, " + rel},
		{name: "dev stdin", path: "/dev/stdin", kind: sandbox.ErrForeignProcess, reason: "names /dev/stdin, " + rel},
		{name: "dev fd dotdot", path: "/dev/fd/../fd/0", kind: sandbox.ErrForeignProcess, reason: "names /dev/fd, " + rel},
		{name: "proc fd pipe", path: fmt.Sprintf("/proc/self/fd/%d", pr.Fd()), kind: sandbox.ErrForeignProcess, reason: rel},
		{name: "a link in the root to /proc/self/cwd", path: "to_self_cwd/x", kind: sandbox.ErrOutsideRoots, reason: "through magic link"},
	})
}

func TestNew(t *testing.T) {
	tr := newTree(t)
	t.Run("missing root", func(t *testing.T) {
		_, err := sandbox.New(sandbox.Config{Roots: []string{tr.r("nope")}})
		require.ErrorIs(t, err, sandbox.ErrInvalidPath)
		assert.Contains(t, err.Error(), "does not exist or cannot be read")
		assert.ErrorIs(t, err, syscall.ENOENT)
	})
	t.Run("file root", func(t *testing.T) {
		_, err := sandbox.New(sandbox.Config{Roots: []string{tr.r("a.txt")}})
		require.ErrorIs(t, err, sandbox.ErrInvalidPath)
		assert.Contains(t, err.Error(), "is not a directory")
	})
	t.Run("relative workdir", func(t *testing.T) {
		_, err := sandbox.New(sandbox.Config{WorkDir: "rel"})
		require.ErrorIs(t, err, sandbox.ErrInvalidPath)
		assert.Contains(t, err.Error(), "working directory must be absolute")
	})
	t.Run("relative root without workdir", func(t *testing.T) {
		_, err := sandbox.New(sandbox.Config{Roots: []string{"rel"}})
		require.ErrorIs(t, err, sandbox.ErrInvalidPath)
		assert.Contains(t, err.Error(), "relative root and no working directory")
	})
	t.Run("bad pattern", func(t *testing.T) {
		_, err := sandbox.New(sandbox.Config{Protected: []string{"a/[x"}})
		require.ErrorIs(t, err, sandbox.ErrInvalidPath)
		assert.Contains(t, err.Error(), "malformed pattern component [x")
	})
	t.Run("root through link is resolved once", func(t *testing.T) {
		sb, err := sandbox.New(sandbox.Config{Roots: []string{tr.r("link_in"), tr.r("sub")}, WorkDir: tr.r("jump")})
		require.NoError(t, err)
		assert.Equal(t, []string{tr.r("sub")}, sb.Roots())
		assert.Equal(t, tr.r("sub/deep"), sb.WorkDir())
		got, err := sb.Resolve("../b.txt")
		require.NoError(t, err)
		assert.Equal(t, tr.r("sub/b.txt"), got)
	})
	t.Run("nested roots", func(t *testing.T) {
		sb, err := sandbox.New(sandbox.Config{Roots: []string{tr.r("sub/deep"), tr.root, tr.outside}})
		require.NoError(t, err)
		assert.Equal(t, []string{tr.root, tr.outside, tr.r("sub/deep")}, sb.Roots())
		got, err := sb.Resolve(tr.r("link_out/secret.txt"))
		require.NoError(t, err)
		assert.Equal(t, tr.o("secret.txt"), got)
	})
}

func TestZeroConfigFailsClosed(t *testing.T) {
	tr := newTree(t)
	sb, err := sandbox.New(sandbox.Config{})
	require.NoError(t, err)
	runResolveCases(t, sb, []resolveCase{
		{name: "absolute", path: tr.r("a.txt"), kind: sandbox.ErrOutsideRoots,
			reason: "resolves to " + tr.r("a.txt") + ", and no roots are configured"},
		{name: "relative", path: "a.txt", kind: sandbox.ErrInvalidPath,
			reason: "relative path and no working directory configured"},
	})
	var zero sandbox.Sandbox
	_, err = zero.Resolve(tr.r("a.txt"))
	require.ErrorIs(t, err, sandbox.ErrOutsideRoots)
	assert.Contains(t, err.Error(), "no roots are configured")
}

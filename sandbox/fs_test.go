package sandbox_test

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgate/toolgate/sandbox"
)

func openFS(t testing.TB, sb *sandbox.Sandbox) *sandbox.FS {
	t.Helper()
	fsys, err := sb.OpenFS()
	require.NoError(t, err)
	t.Cleanup(func() { _ = fsys.Close() })
	return fsys
}

func TestFSReadWrite(t *testing.T) {
	tr := newTree(t)
	fsys := openFS(t, tr.sb)

	b, err := fsys.ReadFile("link_in/b.txt")
	require.NoError(t, err)
	assert.Equal(t, "inside b", string(b))

	require.NoError(t, fsys.MkdirAll("sub/n1/n2", 0o755))
	require.NoError(t, fsys.WriteFile("link_in/n1/n2/w.txt", []byte("written"), 0o644))
	b, err = os.ReadFile(tr.r("sub/n1/n2/w.txt"))
	require.NoError(t, err)
	assert.Equal(t, "written", string(b))

	f, err := fsys.Create(tr.r("created.txt"))
	require.NoError(t, err)
	_, err = io.WriteString(f, "c")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	f, err = fsys.Open("created.txt")
	require.NoError(t, err)
	b, err = io.ReadAll(f)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	assert.Equal(t, "c", string(b))

	_, err = fsys.OpenFile("link_in", os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	require.ErrorIs(t, err, fs.ErrExist, "O_EXCL does not follow a final link")

	fi, err := fsys.Stat("link_in")
	require.NoError(t, err)
	assert.True(t, fi.IsDir())
	fi, err = fsys.Lstat("link_in")
	require.NoError(t, err)
	assert.Equal(t, fs.ModeSymlink, fi.Mode().Type())

	// Remove removes the link, not its target; even a link leading out.
	require.NoError(t, fsys.Remove("link_out"))
	_, err = os.Lstat(tr.r("link_out"))
	assert.ErrorIs(t, err, fs.ErrNotExist)
	_, err = os.Stat(tr.outside)
	assert.NoError(t, err)
	require.NoError(t, fsys.Remove("created.txt"))

	ents, err := fsys.ReadDir("chain1")
	require.NoError(t, err)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	assert.Equal(t, []string{"b.txt", "deep", "n1", "up", "upout"}, names)

	var walked []string
	err = fsys.WalkDir("jump", func(p string, d fs.DirEntry, err error) error {
		require.NoError(t, err)
		walked = append(walked, p)
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, []string{
		tr.r("sub/deep"), tr.r("sub/deep/d4"), tr.r("sub/deep/d4/d5"), tr.r("sub/deep/d4/d5/d6"),
		tr.r("sub/deep/d4/d5/d6/f.txt"), tr.r("sub/deep/escape"),
	}, walked)
}

func TestFSRefusesOutside(t *testing.T) {
	tr := newTree(t)
	fsys := openFS(t, tr.sb)
	for _, p := range []string{"../outside/secret.txt", "link_out_abs/secret.txt", "sub/deep/escape", "toout/../secret.txt", tr.evil + "/x"} {
		_, err := fsys.ReadFile(p)
		require.ErrorIs(t, err, sandbox.ErrOutsideRoots, p)
		assert.Contains(t, err.Error(), "outside every root", p)
	}
	_, err := fsys.ReadFile("/proc/self/root" + tr.o("secret.txt"))
	require.ErrorIs(t, err, sandbox.ErrForeignProcess)
	err = fsys.WriteFile("dangling_out", []byte("x"), 0o644)
	require.ErrorIs(t, err, sandbox.ErrOutsideRoots)
	assert.Contains(t, err.Error(), "resolves to "+tr.o("newfile"))
	_, err = os.Stat(tr.o("newfile"))
	assert.ErrorIs(t, err, fs.ErrNotExist)

	err = fsys.MkdirAll("link_out/newdir", 0o755)
	require.ErrorIs(t, err, sandbox.ErrOutsideRoots)
	assert.Contains(t, err.Error(), "resolves to "+tr.o("newdir"))

	err = fsys.Remove("../outside/secret.txt")
	require.ErrorIs(t, err, sandbox.ErrOutsideRoots)
	assert.Contains(t, err.Error(), "resolves to "+tr.o("secret.txt"))

	_, err = fsys.ReadFile("~/.ssh/id_rsa")
	require.ErrorIs(t, err, sandbox.ErrHomeRef)
	assert.Contains(t, err.Error(), "refers to a home directory")

	require.NoError(t, fsys.Close())
	require.NoError(t, fsys.Close(), "Close is idempotent")
	_, err = fsys.ReadFile("a.txt")
	require.ErrorIs(t, err, os.ErrClosed)
	assert.Contains(t, err.Error(), "a.txt")
}

func TestFSGlob(t *testing.T) {
	tr := newTree(t)
	fsys := openFS(t, tr.sb)

	got, err := fsys.Glob("sub/**/*.txt")
	require.NoError(t, err)
	assert.Equal(t, []string{tr.r("sub/b.txt"), tr.r("sub/deep/d4/d5/d6/f.txt")}, got)

	// A ** walk over the whole root: links leading out are left out.
	got, err = fsys.Glob(tr.root + "/**/secret.txt")
	require.NoError(t, err)
	assert.Empty(t, got)
	got, err = fsys.Glob("**/escape")
	require.NoError(t, err)
	assert.Empty(t, got, "a match leading outside is left out")
	got, err = fsys.Glob("link_in/*.txt")
	require.NoError(t, err)
	assert.Equal(t, []string{tr.r("sub/b.txt")}, got)

	for _, c := range []struct {
		pattern string
		kind    error
		reason  string
	}{
		{"../outside/*", sandbox.ErrOutsideRoots, "base directory resolves to " + tr.outside + ", outside every root"},
		{"link_out/**", sandbox.ErrOutsideRoots, "base directory resolves to " + tr.outside},
		{tr.evil + "/*", sandbox.ErrOutsideRoots, "base directory resolves to " + tr.evil + ","},
		{"sub/*/../../../outside/*", sandbox.ErrInvalidPath, `wildcard part of a pattern may not contain "." or ".."`},
		{"~/*", sandbox.ErrHomeRef, "refers to a home directory"},
		{"sub/[", sandbox.ErrInvalidPath, "malformed pattern"},
	} {
		_, err := fsys.Glob(c.pattern)
		require.ErrorIs(t, err, c.kind, c.pattern)
		assert.Contains(t, err.Error(), c.reason, c.pattern)
	}

	base, rest, err := tr.sb.GlobBase("chain1/deep/**/*.go")
	require.NoError(t, err)
	assert.Equal(t, tr.r("sub/deep"), base)
	assert.Equal(t, "**/*.go", rest)
}

// TestRaceSwap swaps a directory inside the root for a symbolic link to an
// outside directory, over and over, while reading a file beneath it. Reads
// through FS never see the outside file; the same check followed by a plain
// os.ReadFile does, which shows the test can fail.
func TestRaceSwap(t *testing.T) {
	tr := newTree(t)
	fsys := openFS(t, tr.sb)
	const secret = "OUTSIDE-SECRET"
	dir := tr.r("swap")
	real := tr.r("swap.real")
	link := tr.r("swap.link")
	require.NoError(t, os.Mkdir(real, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(real, "file"), []byte("inside"), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(tr.outside, "dir"), link))
	// Also a relative link, which os.Root would follow if it stayed inside.
	relLink := tr.r("swap.rel")
	require.NoError(t, os.Symlink("../outside/dir", relLink))

	var stop atomic.Bool
	var swaps atomic.Int64
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; !stop.Load(); i++ {
			l := link
			if i%2 == 1 {
				l = relLink
			}
			_ = os.Rename(real, dir) // dir is the real directory
			_ = os.Rename(dir, real)
			_ = os.Rename(l, dir) // dir is a link to outside
			_ = os.Rename(dir, l)
			swaps.Add(1)
		}
	})

	target := filepath.Join(dir, "file")
	var fsReads, fsInside, fsRefusedLate, naiveReads, naiveLeaks atomic.Int64
	start := time.Now()
	wg.Go(func() {
		for time.Since(start) < 1500*time.Millisecond {
			b, err := fsys.ReadFile(target)
			var pe *sandbox.PathError
			if err != nil && !errors.As(err, &pe) && !errors.Is(err, fs.ErrNotExist) {
				// The check passed, then os.Root refused the swapped path.
				fsRefusedLate.Add(1)
			}
			if err == nil {
				fsReads.Add(1)
				assert.NotContains(t, string(b), secret, "read through FS escaped the root")
				if string(b) == "inside" {
					fsInside.Add(1)
				}
			}
		}
	})
	wg.Go(func() {
		// The control: check, then open by name. Keep going past the
		// second until the swap has been won at least once.
		for time.Since(start) < 1500*time.Millisecond || naiveLeaks.Load() == 0 && time.Since(start) < 60*time.Second {
			if _, err := tr.sb.Resolve(target); err != nil {
				continue
			}
			naiveReads.Add(1)
			if b, err := os.ReadFile(target); err == nil && string(b) == secret {
				naiveLeaks.Add(1)
			}
		}
	})
	// Wait for the readers, then stop the swapper.
	for time.Since(start) < 1500*time.Millisecond || naiveLeaks.Load() == 0 && time.Since(start) < 60*time.Second {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond)
	stop.Store(true)
	wg.Wait()
	t.Logf("swaps %d; FS reads %d (%d inside), refused by os.Root after a passed check %d; naive reads after a passed check %d, leaks %d",
		swaps.Load(), fsReads.Load(), fsInside.Load(), fsRefusedLate.Load(), naiveReads.Load(), naiveLeaks.Load())
	assert.Positive(t, fsInside.Load(), "FS never managed a read; the test proves nothing")
	assert.Positive(t, naiveLeaks.Load(), "the naive check-then-read control never leaked; the test cannot fail")
	assert.GreaterOrEqual(t, time.Since(start), time.Second)
}

func TestFSErrorsNameThePath(t *testing.T) {
	tr := newTree(t)
	fsys := openFS(t, tr.sb)
	_, err := fsys.ReadFile("sub/missing.txt")
	require.ErrorIs(t, err, fs.ErrNotExist)
	var pe *fs.PathError
	require.True(t, errors.As(err, &pe))
	assert.Equal(t, "sub/missing.txt", pe.Path)
}

// TestGlobBaseAlternatives shows that a brace alternative in the wildcard
// part of a pattern can name "..": a glob that expands braces before it
// walks (bash here, and the glob libraries of Node and Python) then lists
// the outside directory.
func TestGlobBaseAlternatives(t *testing.T) {
	tr := newTree(t)
	script := "shopt -s nullglob; cd \"$1\" && printf '%s\\n' {..,sub}/outside/*.txt"
	leak, err := exec.Command("bash", "-c", script, "bash", tr.root).Output()
	require.NoError(t, err)
	require.Equal(t, "../outside/secret.txt\n", string(leak), "the pattern reaches outside the root")

	for _, c := range []struct{ pattern, reason string }{
		{"{..,sub}/outside/*.txt", `a brace group of the wildcard part holds ".."`},
		{"sub/{a,{b,..}}/x", `a brace group of the wildcard part holds ".."`},
		{"{.,x}{.,y}/outside/*", `an alternative of the wildcard part names "." or ".." ("../outside/*")`},
		{"{x,.}/{.,y}./outside/*", `("x/../outside/*")`},
		{"*/{a,.}", `("*/.")`},
		{"{-../}{-../}/outside/*", `a brace group of the wildcard part holds ".." (a range in some glob dialects)`},
		{"{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}", "the wildcard part has more than 1024 alternatives"},
	} {
		_, _, err := tr.sb.GlobBase(c.pattern)
		require.ErrorIs(t, err, sandbox.ErrInvalidPath, c.pattern)
		assert.Contains(t, err.Error(), c.reason, c.pattern)
	}
	for _, c := range []struct{ pattern, rest string }{
		{"sub/*.{txt,md}", "*.{txt,md}"},
		{"{*.txt,*.md}", "{*.txt,*.md}"},
		{"sub/{a,b}/[{]x", "{a,b}/[{]x"},
		{"**/.{env,git}", "**/.{env,git}"},
	} {
		_, rest, err := tr.sb.GlobBase(c.pattern)
		require.NoError(t, err, c.pattern)
		assert.Equal(t, c.rest, rest, c.pattern)
	}
}

// TestGlobBaseAbsoluteAlternative shows that a brace alternative of a
// relative pattern can be an absolute path or start with "~": bash (and
// Node's fast-glob for the absolute one) expands the braces first and then
// lists that directory, wherever it is.
func TestGlobBaseAbsoluteAlternative(t *testing.T) {
	tr := newTree(t)
	script := "shopt -s nullglob; cd \"$1\" && printf '%s\\n' {" + tr.outside + ",sub}/*.txt"
	leak, err := exec.Command("bash", "-c", script, "bash", tr.root).Output()
	require.NoError(t, err)
	require.Equal(t, tr.outside+"/secret.txt\nsub/b.txt\n", string(leak), "the pattern reaches outside the root")
	home, err := exec.Command("bash", "-c", "HOME=\"$1\"; cd \"$2\" && printf '%s\\n' {~,sub}/secret.txt", "bash", tr.outside, tr.root).Output()
	require.NoError(t, err)
	require.Equal(t, tr.outside+"/secret.txt\nsub/secret.txt\n", string(home), "the tilde alternative is the home directory")

	for _, c := range []struct{ pattern, reason string }{
		{"{" + tr.outside + ",sub}/*.txt", `an alternative of the wildcard part is an absolute path ("` + tr.outside + `/*.txt")`},
		{"{sub,{x,/etc}}/*", `an alternative of the wildcard part is an absolute path ("/etc/*")`},
		{"{~,sub}/*.txt", `an alternative of the wildcard part starts with "~" ("~/*.txt")`},
		{"{~root,sub}/.ssh/*", `an alternative of the wildcard part starts with "~" ("~root/.ssh/*")`},
	} {
		_, _, err := tr.sb.GlobBase(c.pattern)
		require.ErrorIs(t, err, sandbox.ErrInvalidPath, c.pattern)
		assert.Contains(t, err.Error(), c.reason, c.pattern)
	}
	// Benign: "/" and "~" inside an alternative, not at its start.
	for _, c := range []struct{ pattern, rest string }{
		{"{sub/deep,sub}/*", "{sub/deep,sub}/*"},
		{"{notes~,a.txt}", "{notes~,a.txt}"},
		{"sub/{a,b}~", "{a,b}~"},
	} {
		_, rest, err := tr.sb.GlobBase(c.pattern)
		require.NoError(t, err, c.pattern)
		assert.Equal(t, c.rest, rest, c.pattern)
	}
}

// TestFSRefusesSpecialFiles: a FIFO in the roots is never opened for a
// read that would wait for a writer, nor written: the FS opens without
// blocking and refuses what is not a regular file or a directory.
func TestFSRefusesSpecialFiles(t *testing.T) {
	tr := newTree(t)
	fsys := openFS(t, tr.sb)
	require.NoError(t, syscall.Mkfifo(tr.r("pipe"), 0o644))
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, err := fsys.ReadFile("pipe")
		assert.ErrorIs(t, err, sandbox.ErrSpecialFile)
		_, err = fsys.Open("pipe")
		assert.ErrorIs(t, err, sandbox.ErrSpecialFile)
		err = fsys.WriteFile("pipe", []byte("x"), 0o644)
		assert.Error(t, err, "a write of a FIFO with no reader")
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the FS blocked on a FIFO")
	}
	b, err := fsys.ReadFile("a.txt")
	require.NoError(t, err)
	assert.Equal(t, "inside a", string(b))
}

// claudeCodeGlobSplit is how Claude Code 2.1.332's Glob tool splits an
// absolute pattern before it runs ripgrep: the base is everything before
// the last "/" ahead of the first "*", "?", "[" or "{" (a backslash is
// no escape to it), or the pattern's directory when it has none; the rest
// is ripgrep's --glob, matched beneath the base.
func claudeCodeGlobSplit(p string) (base, rel string) {
	i := strings.IndexAny(p, "*?[{")
	if i < 0 {
		return filepath.Dir(p), filepath.Base(p)
	}
	j := strings.LastIndex(p[:i], "/")
	if j <= 0 {
		return "/", p[j+1:]
	}
	return p[:j], p[j+1:]
}

// TestGlobBaseAsClaudeCodeGlobs runs real ripgrep as Claude Code's Glob
// tool runs it (rg --files --null --no-ignore --hidden --glob REST in the
// base it splits off) on patterns that spell a way out of the root: every
// pattern that lists a file outside is one GlobBase refuses. (A relative
// pattern is ripgrep's --glob beneath the call's path, which is judged
// as a path: ripgrep never lists what is not beneath the folder it walks.)
func TestGlobBaseAsClaudeCodeGlobs(t *testing.T) {
	rg, err := exec.LookPath("rg")
	if err != nil {
		if os.Getenv("TOOLGATE_REQUIRE_EFFECTS") != "" {
			t.Fatal("ripgrep (rg) is not installed; .ci/setup installs it before the tests")
		}
		t.Skip("SKIPPED: ripgrep (rg) is not installed, so Claude Code's Glob engine cannot be run")
	}
	tr := newTree(t)
	patterns := []string{
		tr.root + "/../outside/*",
		tr.root + "/sub/../../outside/*.txt",
		tr.root + "/\\.\\./outside/*",
		tr.root + "/[.][.]/outside/*",
		tr.root + "/.[.]/outside/*",
		tr.root + "/sub/??/??/outside/*",
		tr.root + "/a\\b/../../outside/*",
		tr.root + "/{sub,..}/*",
		tr.root + "/../out?ide/*",
		tr.root + "/../!x*",
		tr.root + "/../!root",
		tr.base + "/*/secret.txt",
		tr.base + "/roo[t]*/**",
		tr.base + "/{root,outside}/*.txt",
		tr.root + "/**/*.txt",
		tr.root + "/sub/*",
		tr.root + "/!a.txt",
	}
	for _, p := range patterns {
		base, rel := claudeCodeGlobSplit(p)
		cmd := exec.Command(rg, "--files", "--null", "--no-ignore", "--hidden", "--glob", rel)
		cmd.Dir = base
		out, err := cmd.Output()
		var ee *exec.ExitError
		if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
			// No such base directory: nothing listed.
			out = nil
		}
		var outside []string
		for f := range strings.SplitSeq(strings.TrimRight(string(out), "\x00"), "\x00") {
			if f == "" {
				continue
			}
			real, err := filepath.EvalSymlinks(filepath.Join(base, f))
			require.NoError(t, err, f)
			if real != tr.root && !strings.HasPrefix(real, tr.root+"/") {
				outside = append(outside, real)
			}
		}
		_, _, gerr := tr.sb.GlobBase(p)
		if len(outside) > 0 {
			assert.Error(t, gerr, "%s lists %q outside the root through ripgrep, and GlobBase allows it", p, outside)
		}
		t.Logf("%s: ripgrep in %s with %q lists %d outside; GlobBase: %v", p, base, rel, len(outside), gerr)
	}
}

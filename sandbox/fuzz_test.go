package sandbox_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/sandbox"
)

// FuzzResolve checks, on a real tree full of symbolic links, that whatever
// Resolve accepts is clean, absolute, free of ".." components and inside
// the root once every symbolic link of its existing part is resolved by
// filepath.EvalSymlinks; that an existing path resolves exactly where
// EvalSymlinks says; and that every refusal is a typed error with a reason.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{
		"a.txt", "./a.txt", "sub//b.txt", "sub/../a.txt", "..", "../outside/secret.txt",
		"sub/../../outside/secret.txt", "../root_evil/x", "link_in/b.txt", "link_out/secret.txt",
		"link_out_abs/secret.txt", "toout/..", "toout/../secret.txt", "jump/../b.txt", "sub/up/a.txt",
		"sub/upout/outside/secret.txt", "rootlink/etc/passwd", "sub/deep/escape", "loop1/x", "self",
		"chain1/n/new.txt", "dangling_in", "dangling_out", "n1/../../outside/x", "a.txt/x", "~", "~/x",
		"~root/x", "notes~", "a..b", "...", "", "a\x00b", "/", "/proc/self/root/etc/passwd",
		"/proc/self/cwd/x", "/proc/self/fd/0", "/dev/fd/1", "/dev/stdin", "sub/up/sub/up/sub/up/..",
		"/proc/self/root/tmp", strings.Repeat("x/", 300), strings.Repeat("../", 50),
	} {
		f.Add(s)
	}
	tr := newTree(f)
	f.Fuzz(func(t *testing.T, p string) {
		r, err := tr.sb.Resolve(p)
		d, reason := tr.sb.CheckPath(p, false)
		if err != nil {
			var pe *sandbox.PathError
			if !errors.As(err, &pe) || pe.Reason == "" || pe.Path != p {
				t.Fatalf("Resolve(%q): untyped or unexplained error %#v", p, err)
			}
			known := false
			for _, k := range []error{sandbox.ErrOutsideRoots, sandbox.ErrInvalidPath, sandbox.ErrSymlinkLoop, sandbox.ErrHomeRef, sandbox.ErrUnresolvable, sandbox.ErrForeignProcess} {
				known = known || errors.Is(err, k)
			}
			if !known {
				t.Fatalf("Resolve(%q): error of no known kind: %v", p, err)
			}
			if d != permission.Deny || !strings.Contains(reason, pe.Reason) {
				t.Fatalf("CheckPath(%q) = %v %q after Resolve refused it: %v", p, d, reason, err)
			}
			return
		}
		if d == permission.Deny {
			t.Fatalf("CheckPath(%q) denied (%s) what Resolve accepted as %q", p, reason, r)
		}
		if !filepath.IsAbs(r) || filepath.Clean(r) != r {
			t.Fatalf("Resolve(%q) = %q: not clean and absolute", p, r)
		}
		for _, c := range strings.Split(r, "/") {
			if c == ".." {
				t.Fatalf("Resolve(%q) = %q: contains ..", p, r)
			}
		}
		// Split r into its deepest existing part and the rest.
		existing, rest := r, ""
		for {
			if _, err := os.Lstat(existing); err == nil {
				break
			}
			rest = filepath.Join(filepath.Base(existing), rest)
			existing = filepath.Dir(existing)
		}
		real, err := filepath.EvalSymlinks(existing)
		if err != nil {
			t.Fatalf("Resolve(%q) = %q: EvalSymlinks(%q): %v", p, r, existing, err)
		}
		if real != existing {
			t.Fatalf("Resolve(%q) = %q: its existing part %q is really %q", p, r, existing, real)
		}
		full := filepath.Join(real, rest)
		if rel, err := filepath.Rel(tr.root, full); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			t.Fatalf("Resolve(%q) = %q: %q is outside the root %q", p, r, full, tr.root)
		}
		// Where the path exists, the kernel-like walk agrees with
		// EvalSymlinks.
		abs := p
		if !filepath.IsAbs(abs) {
			abs = tr.root + "/" + abs
		}
		if _, err := os.Stat(abs); err == nil {
			if want, err := filepath.EvalSymlinks(abs); err == nil && want != r {
				t.Fatalf("Resolve(%q) = %q, EvalSymlinks says %q", p, r, want)
			}
		}
	})
}

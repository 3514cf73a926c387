package sandbox

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// processRelativeSlow is processRelative without its fast path: the
// reference the fast path must agree with.
func processRelativeSlow(path, wd string) error {
	p := path
	if !filepath.IsAbs(p) {
		if wd == "" {
			return nil
		}
		p = wd + "/" + p
	}
	p = filepath.Clean(p)
	for _, d := range [...]string{"/proc/self", "/proc/thread-self", "/dev/fd", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/tty"} {
		if p == d || strings.HasPrefix(p, d+"/") {
			return pathErr(ErrForeignProcess, path, "", "names "+d+", a process-relative location: it resolves in the process that judges it, not in the one that opens it", nil)
		}
	}
	return nil
}

// TestProcessRelativeFastPath: the fast path of processRelative refuses
// exactly what the join-and-clean refuses, with the same reason, for
// paths that reach the process-relative names by "..", doubled slashes,
// "." and relative joins, and for paths that only look like them.
func TestProcessRelativeFastPath(t *testing.T) {
	wds := []string{"", "/", "/home/u/proj", "/home/dev/proj", "/proc", "/dev", "/tmp/x/001/proj"}
	paths := []string{
		"/proc/self", "/proc/self/cwd", "/proc//self/environ", "/proc/./self", "/x/../proc/self",
		"/proc/thread-self/fd/3", "/dev/fd/0", "/dev/stdin", "/dev//stdout", "/dev/./stderr", "/dev/tty",
		"proc/self", "self", "fd/1", "../proc/self", "../../proc/self", "../../../dev/tty", "./dev/stdin",
		"/home/dev/x", "/procx/self", "/devx/tty", "/a/proc/self", "dev", "proc", "/dev", "/proc",
		"src/a.go", "/tmp/x/001/proj/src/a.go", "", ".", "..", "tty", "thread-self",
	}
	for _, wd := range wds {
		for _, p := range paths {
			got, want := processRelative(p, wd), processRelativeSlow(p, wd)
			if (got == nil) != (want == nil) {
				t.Errorf("processRelative(%q, %q) = %v, want %v", p, wd, got, want)
				continue
			}
			if want == nil {
				continue
			}
			if got.Error() != want.Error() || !errors.Is(got, ErrForeignProcess) {
				t.Errorf("processRelative(%q, %q) = %q, want %q", p, wd, got, want)
			}
		}
	}
	// A sample of what is refused, with its reason.
	err := processRelative("../../proc/self/cwd", "/home/u")
	if err == nil || !strings.Contains(err.Error(), "names /proc/self, a process-relative location") {
		t.Errorf("../../proc/self/cwd from /home/u: %v", err)
	}
}

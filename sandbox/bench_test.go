package sandbox_test

import (
	"os"
	"path/filepath"
	goruntime "runtime"
	"testing"

	"github.com/toolgate/toolgate/permission"
)

// BenchmarkResolveNested resolves a path six levels beneath the root,
// against filepath.EvalSymlinks followed by os.Lstat on the same path, the
// cheapest standard-library way to learn where an existing path leads.
func BenchmarkResolveNested(b *testing.B) {
	tr := newTree(b)
	p := tr.r("sub/deep/d4/d5/d6/f.txt")
	b.Run("sandbox.Resolve", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r, err := tr.sb.Resolve(p)
			if err != nil || r != p {
				b.Fatal(r, err)
			}
		}
	})
	b.Run("EvalSymlinks+Lstat", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r, err := filepath.EvalSymlinks(p)
			if err != nil || r != p {
				b.Fatal(r, err)
			}
			if _, err := os.Lstat(r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("sandbox.CheckPath", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if d, reason := tr.sb.CheckPath(p, false); d != permission.Allow {
				b.Fatal(reason)
			}
		}
	})
}

// BenchmarkReadFile reads a small file six levels beneath the root through
// FS against plain os.ReadFile.
func BenchmarkReadFile(b *testing.B) {
	tr := newTree(b)
	fsys := openFS(b, tr.sb)
	p := tr.r("sub/deep/d4/d5/d6/f.txt")
	b.Run("FS.ReadFile", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := fsys.ReadFile(p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("os.Root.ReadFile", func(b *testing.B) {
		root, err := os.OpenRoot(tr.root)
		if err != nil {
			b.Fatal(err)
		}
		defer root.Close()
		b.ReportAllocs()
		for b.Loop() {
			if _, err := root.ReadFile("sub/deep/d4/d5/d6/f.txt"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("FS.ReadFile/via-link", func(b *testing.B) {
		q := tr.r("chain1/deep/d4/d5/d6/f.txt")
		b.ReportAllocs()
		for b.Loop() {
			if _, err := fsys.ReadFile(q); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("os.ReadFile", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := os.ReadFile(p); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestResolveAllocs guards the hot path: resolving an existing path
// without links allocates only the result.
func TestResolveAllocs(t *testing.T) {
	tr := newTree(t)
	p := tr.r("sub/deep/d4/d5/d6/f.txt")
	allocs := testing.AllocsPerRun(100, func() {
		if r, err := tr.sb.Resolve(p); err != nil || r != p {
			t.Fatal(r, err)
		}
	})
	want := 1.0
	if goruntime.GOOS != "linux" || goruntime.GOARCH != "amd64" && goruntime.GOARCH != "arm64" {
		want = 12 // syscall.Lstat copies each component's path
	}
	if allocs > want {
		t.Fatalf("Resolve allocates %v times per call, want at most %v", allocs, want)
	}
}

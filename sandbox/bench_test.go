package sandbox_test

import (
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
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

// BenchmarkResolveDepth resolves an existing file at depths 1 to 40 below
// the root, beside os.Stat of the same path (one kernel walk of the whole
// path): the ratio stays flat as the depth grows because the walk anchors
// its lookups at directory handles (linear in depth, not quadratic).
// ns/component is the time per path component.
func BenchmarkResolveDepth(b *testing.B) {
	tr := newTree(b)
	deep := tr.r("")
	for i := range 40 {
		deep = filepath.Join(deep, fmt.Sprintf("d%02d", i))
	}
	if err := os.MkdirAll(deep, 0o755); err != nil {
		b.Fatal(err)
	}
	for _, depth := range []int{1, 5, 10, 20, 40} {
		p := tr.r("")
		for i := range depth {
			p = filepath.Join(p, fmt.Sprintf("d%02d", i))
		}
		p = filepath.Join(p, "f.txt")
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			b.Fatal(err)
		}
		comps := float64(strings.Count(p, "/"))
		b.Run(fmt.Sprintf("depth=%d/sandbox.Resolve", depth), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if r, err := tr.sb.Resolve(p); err != nil || r != p {
					b.Fatal(r, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/comps, "ns/component")
		})
		b.Run(fmt.Sprintf("depth=%d/os.Stat", depth), func(b *testing.B) {
			for b.Loop() {
				if _, err := os.Stat(p); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/comps, "ns/component")
		})
	}
}

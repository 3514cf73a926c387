package sandbox_test

import (
	"errors"
	"testing"

	"github.com/toolgate/toolgate/internal/costtest"
	"github.com/toolgate/toolgate/sandbox"
)

// BenchmarkResolveCost: Resolve over adversarial paths of 1 KiB, 64 KiB
// and 1 MiB (many components of an existing tree, runs of "/", of "./" and
// of "../", a long missing tail). A path longer than PATH_MAX (4 KiB) is
// refused before any system call, so past it the cost is a scan of the
// text; below it ns/KiB stays about the same as the path grows.
func BenchmarkResolveCost(b *testing.B) {
	tr := newTree(b)
	shapes := []struct {
		name string
		make func(n int) string
	}{
		{"existing-components", func(n int) string { return costtest.Fill("", "sub/deep/..", "/", "", n) }},
		{"slashes", func(n int) string { return costtest.Fill("sub", "/", "", "/a.txt", n) }},
		{"dots", func(n int) string { return costtest.Fill("", ".", "/", "/a.txt", n) }},
		{"dotdots", func(n int) string { return costtest.Fill("sub/", "..", "/", "", n) }},
		{"missing", func(n int) string { return costtest.Fill("new", "x", "/", "", n) }},
		{"long-name", func(n int) string { return costtest.Fill("", "a", "", "", n) }},
	}
	for _, s := range shapes {
		costtest.Run(b, s.name, func(n int) (string, bool) { return s.make(n), true }, func(b *testing.B, p string) {
			for b.Loop() {
				_, err := tr.sb.Resolve(p)
				if err != nil && !errors.Is(err, sandbox.ErrInvalidPath) && !errors.Is(err, sandbox.ErrOutsideRoots) {
					b.Fatal(err)
				}
			}
		})
	}
}

package bashguard

import (
	"strings"
	"testing"
)

// configKeyMatchSlow is configKeyMatch without its fast path: the
// reference the fast path must agree with.
func configKeyMatchSlow(pat, name string) bool {
	ps, rest, _ := strings.Cut(pat, ".")
	ns, nrest, _ := strings.Cut(name, ".")
	if ps != ns {
		return false
	}
	if rest == "*" {
		return true
	}
	if sub, key, ok := strings.Cut(rest, "."); ok && sub == "*" {
		j := strings.LastIndexByte(nrest, '.')
		return j >= 0 && nrest[j+1:] == key
	}
	return nrest == rest
}

// TestConfigKeyMatchFastPath: the fast path of configKeyMatch answers
// every pattern the specs name and a few more, against names with and
// without subsections, as the full comparison does.
func TestConfigKeyMatchFastPath(t *testing.T) {
	pats := []string{"core.fsmonitor", "core.pager", "pager.*", "diff.*.textconv", "diff.*.command", "diff.external",
		"filter.*.clean", "includeif.*.path", "include.path", "core", "a.b.c", "*", ""}
	pats = append(pats, gitNetConfig()...)
	names := []string{"core.fsmonitor", "core.fsmonitorx", "core.pager", "corex.pager", "cor.pager", "pager.log", "pager",
		"diff.foo.textconv", "diff.a.b.textconv", "diff.textconv", "diff.external", "diffx.external", "filter.lfs.clean",
		"includeif.gitdir:~/x.path", "include.path", "core", "core.", ".core", "a.b.c", "a.b", "", ".", "x.y.z"}
	for _, p := range pats {
		for _, n := range names {
			if got, want := configKeyMatch(p, n), configKeyMatchSlow(p, n); got != want {
				t.Errorf("configKeyMatch(%q, %q) = %v, want %v", p, n, got, want)
			}
		}
	}
}

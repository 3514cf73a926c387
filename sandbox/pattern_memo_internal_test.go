package sandbox

import (
	"strings"
	"testing"
)

// TestPatternMemo: a set answers a path from its memo as it answers it
// the first time, whichever path was asked before, and the memo is
// bounded.
func TestPatternMemo(t *testing.T) {
	set, err := compilePatterns(append(DefaultProtected(), DefaultSecret()...), "/home/u")
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{"/home/u/proj/.env", "/home/u/proj/src/a.go", "/home/u/.ssh/id_rsa", "/home/u/proj/.git/config",
		"/home/u/proj/.GIT/hooks/pre-commit", "/home/u/proj/server.pem", "/home/u/proj/README.md", "/"}
	var fresh []int
	for _, p := range paths {
		fresh = append(fresh, set.matchSplit(p))
	}
	for round := range 3 {
		for i, p := range paths {
			if got := set.matchPath(p); got != fresh[i] {
				t.Errorf("round %d: matchPath(%q) = %d, matchSplit says %d", round, p, got, fresh[i])
			}
		}
	}
	if pat, ok := set.first("/home/u/proj/src/a.go", "/home/u/proj/.env"); !ok || pat != ".env" {
		t.Errorf("first: %q, %v; want .env", pat, ok)
	}
	if _, ok := set.first("/home/u/proj/src/a.go"); ok {
		t.Errorf("first(src/a.go) matched")
	}
	for i := range maxMemo + 10 {
		set.matchPath("/home/u/proj/f" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + "/" + string(rune('0'+i%10)) + strings.Repeat("y", i/260))
	}
	if n := len(set.memo.m); n > maxMemo {
		t.Errorf("memo holds %d paths, more than %d", n, maxMemo)
	}
}

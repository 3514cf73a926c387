package bashguard

import (
	"path/filepath"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// rootChecker is a small real PathChecker for tests: paths resolve against
// dir, must stay under one of roots, and a few names are protected or
// secret. It works on path text only (no symlinks), which is all the cases
// need.
type rootChecker struct {
	dir   string
	roots []string
}

func (r rootChecker) CheckPath(p string, write bool) (permission.Decision, string) {
	if strings.HasPrefix(p, "~") {
		return permission.Deny, "a leading ~ is refused"
	}
	switch {
	case filepath.IsAbs(p):
		p = filepath.Clean(p)
	case cleanRel(p) && len(r.dir) > 1 && r.dir[0] == '/' && cleanRel(r.dir[1:]):
		// What Join gives, built in a buffer that does not escape, so that
		// benchmarks of Judge do not mostly measure this checker.
		var buf [64]byte
		p = string(append(append(append(buf[:0], r.dir...), '/'), p...))
	default:
		p = filepath.Join(r.dir, p) // Join cleans
	}
	for _, root := range r.roots {
		if p == root || strings.HasPrefix(p, root) && p[len(root)] == '/' {
			base := filepath.Base(p)
			switch {
			case !write && (base == ".env" || strings.Contains(p, "/.ssh/") || strings.HasSuffix(base, ".pem")):
				return permission.Ask, "secret file " + p
			case write && (strings.Contains(p, "/.git/") || strings.HasSuffix(p, "/.git") || base == ".bashrc" || base == ".zshenv"):
				return permission.Ask, "protected path " + p
			}
			return permission.Allow, "inside the roots"
		}
	}
	return permission.Deny, p + " is outside every root"
}

// cleanRel reports a relative path that Clean leaves unchanged: no empty,
// "." or ".." element.
func cleanRel(p string) bool {
	if p == "" || p[0] == '/' {
		return false
	}
	for p != "" {
		e, rest, found := strings.Cut(p, "/")
		if e == "" || e == "." || e == ".." || found && rest == "" {
			return false
		}
		p = rest
	}
	return true
}

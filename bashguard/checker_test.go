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
	if !filepath.IsAbs(p) {
		p = filepath.Join(r.dir, p) // Join cleans
	} else {
		p = filepath.Clean(p)
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

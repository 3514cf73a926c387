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
	if p == "." && r.isRoot(r.dir) {
		return permission.Allow, "inside the roots"
	}
	if cleanRel(p) && r.isRoot(r.dir) {
		// The common case, decided on the relative path without building
		// the joined one, so that benchmarks of Judge do not mostly
		// measure this checker: dir/p lies under the root dir, and its
		// classes show in p alone ("/" + p stands for the part after dir).
		if d, ok := rootClass(p, true, write, func() string { return filepath.Join(r.dir, p) }); ok {
			return d.dec, d.why
		}
		return permission.Allow, "inside the roots"
	}
	if filepath.IsAbs(p) {
		p = filepath.Clean(p)
	} else {
		p = filepath.Join(r.dir, p) // Join cleans
	}
	for _, root := range r.roots {
		if p == root || strings.HasPrefix(p, root) && p[len(root)] == '/' {
			if d, ok := rootClass(p, false, write, func() string { return p }); ok {
				return d.dec, d.why
			}
			return permission.Allow, "inside the roots"
		}
	}
	return permission.Deny, p + " is outside every root"
}

func (r rootChecker) isRoot(dir string) bool {
	for _, root := range r.roots {
		if dir == root {
			return true
		}
	}
	return false
}

type classed struct {
	dec permission.Decision
	why string
}

// rootClass finds the secret (read) and protected (write) paths. p is
// the path, or when rel is set its part after the root it lies under;
// full builds the whole path for the reason.
func rootClass(p string, rel, write bool, full func() string) (classed, bool) {
	base := filepath.Base(p)
	// has reports whether the whole path holds "/"+elem, given as elem
	// and "/"+elem (elem ends in "/").
	has := func(elem, slashElem string) bool {
		return rel && strings.HasPrefix(p, elem) || strings.Contains(p, slashElem)
	}
	switch {
	case !write && (base == ".env" || has(".ssh/", "/.ssh/") || strings.HasSuffix(base, ".pem")):
		return classed{permission.Ask, "secret file " + full()}, true
	case write && (has(".git/", "/.git/") || rel && p == ".git" || strings.HasSuffix(p, "/.git") || base == ".bashrc" || base == ".zshenv"):
		return classed{permission.Ask, "protected path " + full()}, true
	}
	return classed{}, false
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

package sandbox

import (
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// CheckListed judges the entry name of the directory dir as
// [Sandbox.CheckPath] judges dir+"/"+name, for a caller that walks a tree
// and judges every entry it lists (the confinement's walk of the roots).
// On a view ([Sandbox.Pin]) each directory is resolved once, the first
// time one of its entries is judged, and an entry found in a directory
// that is its own resolved path (no symbolic link on the way) is judged
// without resolving its path again: one lstat an entry instead of one a
// component. Anything else (a name that is not one component, an entry
// that is a symbolic link, a directory reached through a link, a sandbox
// that is not a view) is judged by CheckPath. The decision and the
// reason are CheckPath's in every case; TestCheckListedAgreesWithCheckPath
// holds it to that.
func (s *Sandbox) CheckListed(dir, name string, write bool) (permission.Decision, string) {
	p := dir + "/" + name
	if dir == "/" {
		p = "/" + name
	}
	if s == nil || s.base == nil || name == "" || name == "." || name == ".." || strings.IndexByte(name, '/') >= 0 ||
		len(name) > maxName || len(p) > maxPath || !s.realDir(dir) {
		return s.CheckPath(p, write)
	}
	st, exists, serr := statPath(p, false)
	if serr != nil || !exists || st.isLink() {
		return s.CheckPath(p, write)
	}
	var w walker
	if _, err := s.contain(&w, p, p); err != nil {
		return s.CheckPath(p, write)
	}
	op := "read"
	if write {
		op = "write"
	}
	real, d, reason, _ := s.judgeResolved(p, p, []string{p}, st, exists, serr, write, op, refuser(op, p))
	return s.allowReason(real, d, reason, write)
}

// realDir reports whether dir is a directory inside a root that resolves
// to itself, through no link: on a view, remembered for the view's life
// (one decision), as the view holds the identities it took.
func (s *Sandbox) realDir(dir string) bool {
	if v, ok := s.listedDirs.Load(dir); ok {
		return v.(bool)
	}
	w := walker{collect: true}
	r, err := s.resolve(&w, dir)
	ok := err == nil && r == dir && len(w.links) == 0 && w.via == ""
	if ok {
		st, exists, serr := statPath(r, false)
		ok = serr == nil && exists && st.isDir()
	}
	s.listedDirs.Store(dir, ok)
	return ok
}

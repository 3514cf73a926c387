package sandbox

import (
	"errors"
	"path/filepath"
	"strconv"

	"github.com/toolgate/toolgate/permission"
)

// CheckPath judges one path that a tool or shell command reads (write
// false) or writes (write true), and says why:
//
//   - Deny when the path is invalid, begins with "~", loops, or leads
//     outside every root (through "..", a symbolic link or a magic link);
//   - Ask when it lies inside a root but a write would touch a protected
//     or secret path, or a read would touch a secret path;
//   - Allow otherwise; the reason names the resolved path and its root.
//
// A relative path is taken against the configured working directory.
// Protected and secret patterns are matched against the resolved path, the
// path as written (made absolute and cleaned) and the location of every
// symbolic link followed on the way, so that neither a link to a protected
// file nor a protected link to an ordinary file slips through.
//
// CheckPath only judges; a write it allows is still the caller's to
// confirm. It is safe for concurrent use. A nil *Sandbox denies every
// path.
func (s *Sandbox) CheckPath(path string, write bool) (permission.Decision, string) {
	if s == nil {
		s = none
	}
	op := "read"
	if write {
		op = "write"
	}
	w := walker{collect: true}
	r, err := s.resolve(&w, path)
	if err != nil {
		var pe *PathError
		if errors.As(err, &pe) {
			return permission.Deny, op + " " + strconv.Quote(path) + " refused: " + pe.Reason
		}
		return permission.Deny, op + " " + strconv.Quote(path) + " refused: " + err.Error()
	}
	lexical := path
	if !filepath.IsAbs(lexical) {
		lexical = s.workDir + "/" + lexical
	}
	cands := make([]string, 0, 2+len(w.links))
	cands = append(cands, r, filepath.Clean(lexical))
	cands = append(cands, w.links...)
	if write {
		if pat, ok := s.protected.first(cands...); ok {
			return permission.Ask, "write " + r + ": protected path (matches " + strconv.Quote(pat) + ")"
		}
	}
	if pat, ok := s.secret.first(cands...); ok {
		return permission.Ask, op + " " + r + ": secret path (matches " + strconv.Quote(pat) + ")"
	}
	return permission.Allow, op + " " + r + ": inside root " + s.roots[s.rootOf(r)]
}

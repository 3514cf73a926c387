package sandbox

import "path/filepath"

// Secret reports whether path is a secret path wherever it leads, inside
// the roots or outside them, and which pattern it matches. As in
// [Sandbox.Judge], the patterns are matched against the resolved path, the
// path as written (made absolute and cleaned) and every symbolic link
// followed on the way. A path that cannot be resolved is judged as
// written.
//
// Judge refuses a path outside the roots before it looks at its class;
// Secret tells a caller that treats such a path as something to ask about
// (a shell command reading outside the roots) that it must not be read.
// A nil *Sandbox knows no secret paths.
func (s *Sandbox) Secret(path string) (pattern string, ok bool) {
	if s == nil || validate(path) != nil {
		return "", false
	}
	w := walker{collect: true}
	var buf [8]string
	cands := buf[:0]
	if r, err := w.walk(path, path, s.workDir); err == nil {
		cands = append(cands, r)
	}
	if lexical := path; filepath.IsAbs(lexical) || s.workDir != "" {
		if !filepath.IsAbs(lexical) {
			lexical = s.workDir + "/" + lexical
		}
		cands = append(cands, filepath.Clean(lexical))
	}
	cands = append(cands, w.links...)
	return s.secret.first(cands...)
}

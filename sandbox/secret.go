package sandbox

import (
	"path/filepath"
	"strconv"
)

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
	w := walker{collect: true, memo: s.look}
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

// Protected reports whether path is a protected path by its name,
// wherever it leads, and which pattern it matches: the paths a write of
// is asked because the file runs code or widens the agent's rights the
// next time something starts. The patterns are matched as in [Sandbox.Secret]
// (the resolved path, the path as written and every link followed), and
// nothing is looked up by identity: the question is about the name, for a
// caller that must tell a protected path from a secret one, such as a
// confined runner judging the entries a command created (package
// bashguard/runner). A nil *Sandbox knows no protected paths.
func (s *Sandbox) Protected(path string) (pattern string, ok bool) {
	if s == nil || validate(path) != nil {
		return "", false
	}
	w := walker{collect: true, memo: s.look}
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
	return s.protected.first(cands...)
}

// SecretBeneath reports whether a search of the resolved directory dir
// that reads every file beneath it (Grep, rg) would read a secret under a
// name that is not secret: the target of a link whose own name is secret
// (.env -> conf/, .env.production -> deploy/x, ~/.ssh/id_ed25519 ->
// keys/work), found when the Sandbox was built. It returns where that
// secret is named. A target whose own name is secret is a secret file
// like any other in the tree, and not reported here. A nil *Sandbox knows none.
func (s *Sandbox) SecretBeneath(dir string) (loc string, ok bool) {
	if s == nil {
		return "", false
	}
	ids := s.current()
	for _, a := range ids.moved {
		if _, named := s.secret.first(a.real); a.secret && within(a.real, dir) && !named {
			return a.loc + " (" + kindWord(true) + ", matches " + strconv.Quote(a.pat) + ") is " + a.real, true
		}
	}
	return "", false
}

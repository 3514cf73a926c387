package sandbox

import (
	"errors"
	"path/filepath"
	"strconv"
	"strings"

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
	return s.checkPath(path, write, false)
}

func (s *Sandbox) checkPath(path string, write, command bool) (permission.Decision, string) {
	real, d, reason, _ := s.judge(path, write, command)
	if d == permission.Allow {
		op := "read "
		if write {
			op = "write "
		}
		reason = op + real + ": inside root " + s.roots[s.rootOf(real)]
	}
	return d, reason
}

// Judge is [Sandbox.CheckPath] that also returns the resolved path, and the
// *PathError when the path is refused, from one walk of the path. Callers
// that go on to use the path (and to match rules against it) resolve it
// once this way rather than twice. The reason is empty for Allow: the
// resolved path says where the path leads, and Judge spares the string.
func (s *Sandbox) Judge(path string, write bool) (real string, d permission.Decision, reason string, err error) {
	return s.judge(path, write, false)
}

// judge is Judge; command says the path is opened by another process (see
// [Sandbox.Commands]).
func (s *Sandbox) judge(path string, write, command bool) (real string, d permission.Decision, reason string, err error) {
	if s == nil {
		s = none
	}
	op := "read"
	if write {
		op = "write"
	}
	w := walker{collect: true, command: command}
	r, err := s.resolve(&w, path)
	if err != nil {
		var pe *PathError
		if errors.As(err, &pe) {
			return "", permission.Deny, op + " " + strconv.Quote(path) + " refused: " + pe.Reason, err
		}
		return "", permission.Deny, op + " " + strconv.Quote(path) + " refused: " + err.Error(), err
	}
	cands := []string{r}
	if !sameLexical(r, s.workDir, path) {
		lexical := path
		if !filepath.IsAbs(lexical) {
			lexical = s.workDir + "/" + lexical
		}
		cands = append(cands, filepath.Clean(lexical))
	}
	cands = append(cands, w.links...)
	if write {
		if pat, ok := s.protected.first(cands...); ok {
			return r, permission.Ask, "write " + r + ": protected path (matches " + strconv.Quote(pat) + ")", nil
		}
	}
	if pat, ok := s.secret.first(cands...); ok && !(certName(pat) && certOnly(r)) {
		return r, permission.Ask, op + " " + r + ": secret path (matches " + strconv.Quote(pat) + ")", nil
	}
	// By identity: the protected and secret locations wherever they
	// resolve, and the final file itself.
	ids := s.current()
	if a, ok := ids.byIdentity(r, write); ok {
		return r, permission.Ask, op + " " + r + ": " + kindWord(a.secret) + " path by identity: it is " +
			a.loc + " (matches " + strconv.Quote(a.pat) + "), reached under another name", nil
	}
	if f, ok := s.inspect(r, write, ids); ok {
		return r, permission.Ask, op + " " + r + ": " + finalWord(f) + ": it " + f.why, nil
	}
	return r, permission.Allow, "", nil
}

// certName reports whether a secret pattern is one that a file of
// certificates or public keys only may match.
func certName(pat string) bool { return pat == "*.pem" || pat == "*.key" }

func finalWord(f finalAsk) string {
	if f.secret {
		return "secret path"
	}
	return "protected path"
}

// sameLexical reports, without building it, whether path made absolute
// against wd and cleaned is r, which is clean: the common case of a path
// with no links, "." or "..", whose classification would only repeat.
func sameLexical(r, wd, path string) bool {
	if filepath.IsAbs(path) {
		return path == r
	}
	return len(r) == len(wd)+1+len(path) && r[len(wd)] == '/' &&
		strings.HasPrefix(r, wd) && strings.HasSuffix(r, path)
}

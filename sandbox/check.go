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
	return s.allowReason(real, d, reason, write)
}

// allowReason gives an Allow of real its reason.
func (s *Sandbox) allowReason(real string, d permission.Decision, reason string, write bool) (permission.Decision, string) {
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
// err is the *PathError of a Deny (its Kind says why: [ErrOutsideRoots],
// [ErrSpecialFile], ...) or of an Ask (Kind [ErrSecret] or
// [ErrProtected]), and nil for an Allow.
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
	refuse := refuser(op, path)
	w := walker{collect: true, command: command, memo: s.look}
	r, err := s.resolve(&w, path)
	if err != nil {
		return refuse(err)
	}
	st, exists, serr := w.stat(r)
	cands := []string{r}
	if !sameLexical(r, s.workDir, path) {
		lexical := path
		if !filepath.IsAbs(lexical) {
			lexical = s.workDir + "/" + lexical
		}
		cands = append(cands, filepath.Clean(lexical))
	}
	cands = append(cands, w.links...)
	return s.judgeResolved(path, r, cands, st, exists, serr, write, op, refuse)
}

// refuser returns what refuses path for the operation op ("read",
// "write"), with err's reason.
func refuser(op, path string) func(error) (string, permission.Decision, string, error) {
	return func(err error) (string, permission.Decision, string, error) {
		var pe *PathError
		if errors.As(err, &pe) {
			return "", permission.Deny, op + " " + strconv.Quote(path) + " refused: " + pe.Reason, err
		}
		return "", permission.Deny, op + " " + strconv.Quote(path) + " refused: " + err.Error(), err
	}
}

// judgeResolved is the judgement of path once resolved to r (inside a
// root), by the names cands it was reached under and the final file's
// stat st.
func (s *Sandbox) judgeResolved(path, r string, cands []string, st fileStat, exists bool, serr error, write bool, op string,
	refuse func(error) (string, permission.Decision, string, error)) (string, permission.Decision, string, error) {
	if serr == nil && exists && !st.isRegular() && !st.isDir() {
		return refuse(pathErr(ErrSpecialFile, path, r, r+" is "+specialWord(st)+", not a regular file or directory: file tools open neither", nil))
	}
	ask := func(secret bool, why string) (string, permission.Decision, string, error) {
		kind := ErrProtected
		if secret {
			kind = ErrSecret
		}
		return r, permission.Ask, why, pathErr(kind, path, r, why, nil)
	}
	if write {
		if pat, ok := s.protected.first(cands...); ok {
			return ask(false, "write "+r+": protected path (matches "+strconv.Quote(pat)+")")
		}
	}
	if pat, ok := s.secret.first(cands...); ok && !(certName(pat) && certOnly(r)) {
		return ask(true, op+" "+r+": secret path (matches "+strconv.Quote(pat)+")")
	}
	// By identity: the protected and secret locations wherever they
	// resolve, and the final file itself.
	ids := s.current()
	if exists && serr == nil && ids.staleFor(st) {
		ids = s.newerThan(st)
	}
	if a, ok := ids.byIdentity(r, write); ok {
		return ask(a.secret, op+" "+r+": "+kindWord(a.secret)+" path by identity: it is "+
			a.loc+" (matches "+strconv.Quote(a.pat)+"), reached under another name")
	}
	if f, ok := s.inspect(r, write, ids, st, exists, serr); ok {
		return ask(f.secret, op+" "+r+": "+finalWord(f)+": it "+f.why)
	}
	return r, permission.Allow, "", nil
}

// processRelative refuses a path that names a process-relative location
// as written: /proc/self and /proc/thread-self (a /proc/<pid> entry is
// refused where the walk meets its magic links), and
// /dev/fd, /dev/stdin, /dev/stdout, /dev/stderr. Such a name resolves in
// the process that judges it (a hook, a library's host), not in the
// client that opens it, whose working directory and descriptors differ
// (after "cd sub", /proc/self/cwd/.. is another directory).
func processRelative(path, wd string) error {
	p := path
	if !filepath.IsAbs(p) {
		if wd == "" {
			return nil
		}
		// Fast path (BenchmarkToolgateCommands in bench): cleaning keeps
		// the components it does not drop as written, so a joined path
		// with no component "proc" or "dev" cannot clean to one of the
		// names below, and the join and its clean are skipped.
		if !mayNameProcDev(path) && !mayNameProcDev(wd) {
			return nil
		}
		p = wd + "/" + p
	} else if !mayNameProcDev(p) {
		return nil
	}
	p = filepath.Clean(p)
	for _, d := range [...]string{"/proc/self", "/proc/thread-self", "/dev/fd", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/tty"} {
		if p == d || strings.HasPrefix(p, d+"/") {
			return pathErr(ErrForeignProcess, path, "", "names "+d+", a process-relative location: it resolves in the process that judges it, not in the one that opens it", nil)
		}
	}
	return nil
}

// mayNameProcDev reports whether p has a component "proc" or "dev", as
// every path that cleans to a process-relative location has
// (processRelative).
func mayNameProcDev(p string) bool {
	for p != "" {
		name := p
		if i := strings.IndexByte(p, '/'); i >= 0 {
			name, p = p[:i], p[i+1:]
		} else {
			p = ""
		}
		if name == "proc" || name == "dev" {
			return true
		}
	}
	return false
}

// specialWord names the kind of a file that is neither regular nor a
// directory.
func specialWord(st fileStat) string {
	switch {
	case st.isFIFO():
		return "a FIFO (named pipe)"
	case st.isSocket():
		return "a socket"
	case st.isCharDev():
		return "a character device"
	case st.isBlockDev():
		return "a block device"
	}
	return "a special file"
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

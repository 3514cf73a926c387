//go:build linux

package runner

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/internal/fanout"
	"github.com/toolgate/toolgate/permission"
)

// The read-only grants' walk for secret paths. A read-only location that
// is not a system location (a PATH entry under HOME, a toolchain's
// directory, a package cache) may hold the user's secrets as the roots
// do (~/.cargo/credentials.toml, a .env): it is walked as the roots are,
// with the checker's Secret as the judge, and its secret entries are left
// out of the grant. The walk is kept between runs, with a stamp of every
// directory it listed; a run stats those directories and walks a
// location again only when one changed.

// confineSecretNames is a checker that names the secret paths outside the
// roots too ([sandbox.Sandbox.Secret]); CheckPath refuses every path
// there, so it cannot judge a read-only grant's entries.
type confineSecretNames interface {
	Secret(path string) (pattern string, ok bool)
}

// confineSystemLocation reports whether path is one of the system
// locations ([DefaultConfineReadOnly]) or beneath one: root's programs,
// libraries and configuration, granted whole and not walked (they are not
// the user's, and too large to walk per session; /etc's secrets are kept
// from an unprivileged user by their modes, see DefaultConfineReadOnly).
func confineSystemLocation(path string) bool {
	path = filepath.Clean(path)
	for _, sys := range DefaultConfineReadOnly() {
		if path == sys || strings.HasPrefix(path, sys+"/") {
			return true
		}
	}
	return false
}

// confineGrant is what one read-only location grants.
type confineGrant struct {
	rules   []confineRule
	secrets int
	dropped string // why it grants nothing; "" when it grants
	// stamps are the directories the walk listed, as it found them.
	stamps []confineDirStamp
	// checker and limit are what the walk was made with.
	checker bashguard.PathChecker
	limit   int
}

// confineDirStamp is a directory as a walk listed it: any change of its
// entries changes its modification and change times.
type confineDirStamp struct {
	path         string
	dev, ino     uint64
	mtime, ctime unix.Timespec
}

func confineStampOf(dir string) (confineDirStamp, bool) {
	var st unix.Stat_t
	if err := unix.Lstat(dir, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return confineDirStamp{}, false
	}
	return confineDirStamp{path: dir, dev: st.Dev, ino: st.Ino, mtime: st.Mtim, ctime: st.Ctim}, true
}

// current reports whether every directory the walk listed is unchanged.
func (g *confineGrant) current(c runConfig, limit int) bool {
	if !sameChecker(g.checker, c.checker) || g.limit != limit {
		return false
	}
	return fanout.All(len(g.stamps), func(i int) bool {
		now, ok := confineStampOf(g.stamps[i].path)
		return ok && now == g.stamps[i]
	})
}

// confineGrants keeps the read-only grants' walks of a Shell, by the
// location as configured.
type confineGrants struct {
	mu sync.Mutex
	by map[string]*confineGrant
}

// grant returns what the read-only location path grants, from the kept
// walk when it is current. A nil f walks.
func (f *confineFacts) grant(c runConfig, path string) *confineGrant {
	limit := c.confine.MaxWalk
	if limit == 0 {
		limit = ConfineMaxWalk
	}
	if f == nil {
		return confineWalkGrant(c.checker, path, limit)
	}
	gs := &f.grants
	gs.mu.Lock()
	defer gs.mu.Unlock()
	if g := gs.by[path]; g != nil && g.current(c, limit) {
		return g
	}
	g := confineWalkGrant(c.checker, path, limit)
	if gs.by == nil {
		gs.by = map[string]*confineGrant{}
	}
	gs.by[path] = g
	return g
}

// confineSecretChecker judges an entry of a read-only grant: refused
// when the checker names it secret.
type confineSecretChecker struct{ names confineSecretNames }

func (s confineSecretChecker) CheckPath(path string, _ bool) (permission.Decision, string) {
	if pat, ok := s.names.Secret(path); ok {
		return permission.Deny, "secret path, matches " + pat
	}
	return permission.Allow, ""
}

// confineWalkGrant walks the read-only location path: the rules that
// grant it without its secret entries, or nothing and why.
func confineWalkGrant(checker bashguard.PathChecker, path string, limit int) (g *confineGrant) {
	g = &confineGrant{checker: checker, limit: limit}
	defer func() {
		if p := recover(); p != nil {
			*g = confineGrant{checker: checker, limit: limit, dropped: fmt.Sprintf("%s: the checker panicked judging it: %v", path, p)}
		}
	}()
	resolved, err := filepath.EvalSymlinks(path)
	if err != nil {
		// A location that does not exist is skipped, as before; one
		// that exists but cannot be resolved is not granted.
		if !os.IsNotExist(err) {
			g.dropped = path + ": " + err.Error()
		}
		return g
	}
	if confineSystemLocation(resolved) {
		g.rules = []confineRule{{Path: path, Access: confineRead, Follow: true}}
		return g
	}
	names, ok := checker.(confineSecretNames)
	if !ok || checker == nil {
		g.dropped = path + ": not granted: the checker cannot name secret paths outside the roots (it has no Secret method)"
		return g
	}
	judge := confineSecretChecker{names}
	fi, err := os.Lstat(resolved)
	switch {
	case err != nil:
		g.dropped = path + ": " + err.Error()
		return g
	case !fi.IsDir():
		if d, _ := runCheckPath(judge, path); d != permission.Allow {
			g.secrets++
			return g
		}
		if d, _ := runCheckPath(judge, resolved); d != permission.Allow {
			g.secrets++
			return g
		}
		g.rules = []confineRule{{Path: resolved, Access: confineRead}}
		return g
	}
	if d, _ := runCheckPath(judge, path); d != permission.Allow {
		g.secrets++ // the location itself is secret
		return g
	}
	w := confineWalk{checker: judge, limit: limit, access: confineRead, stamps: &g.stamps, maxDepth: ConfineMaxGrantDepth}
	below, err := w.walk(resolved, confineWalkAt{readOnly: true})
	switch {
	case errors.Is(err, errConfineWalkDepth):
		*g = confineGrant{checker: checker, limit: limit,
			dropped: fmt.Sprintf("%s: not granted: it holds directories nested more than %d deep, too deep to find its secret paths (see ConfineMaxGrantDepth)", path, ConfineMaxGrantDepth)}
		return g
	case err != nil:
		*g = confineGrant{checker: checker, limit: limit,
			dropped: fmt.Sprintf("%s: not granted: it holds more than %d entries, too many to find its secret paths (see Confinement.MaxWalk)", path, limit)}
		return g
	}
	g.rules, g.secrets = w.rules, w.secrets
	if !below {
		g.rules = []confineRule{{Path: resolved, Access: confineRead}}
	}
	return g
}

// confineTellDropped says, once per run, each read-only location the run
// did not grant and why ([ConfineLevel.Dropped]): a command that fails to
// read it then has its reason beside the kernel's EACCES.
func confineTellDropped(c runConfig, res *Result) {
	if len(res.Confined.Dropped) == 0 {
		return
	}
	var b strings.Builder
	for _, d := range res.Confined.Dropped {
		b.WriteString("toolgate: a read-only location was not granted to the command: ")
		b.WriteString(d)
		b.WriteByte('\n')
	}
	runTell(c, res, b.String())
}

package bashguard

import (
	"path"
	"strings"

	"github.com/toolgate/toolgate/internal/sysread"
	"github.com/toolgate/toolgate/permission"
)

// World-readable system files are not secrets. A read-only command that
// reads or lists a file or directory the system installed, below the
// system roots (Policy.SystemRoots), reads what every user of the machine
// may read: the path judge's Ask for a read outside the roots is lifted
// when the path, with every link followed, stays below them, its mode
// bits let every user read it (and every directory above it lets every
// user pass), no directory below the root lets every user write, and its
// name is not one a credential goes by. The rule is internal/sysread's,
// which the file tools read too: one table, one function. A secret name
// the path judge knows is denied before this lift is asked (the content
// stage's judge denies a read of a secret path outside the roots); this
// check is the guard's own second line. The Go module cache is such a
// place too (model_go_modcache.go).

// liftRead turns the path judge's Ask for a read or probe of p outside
// the roots into an Allow when p lies in a place where a read needs no
// person: sysread.Places, the one table of them (the system roots, the Go
// module cache), which the file tools read too, and whose Why gives the
// place's reason. p is absolute, or relative to the home ("~/...").
func (m *cmdCall) liftRead(p string, access Access, r permission.Result) permission.Result {
	if access == Write || r.Decision != permission.Ask || !strings.HasPrefix(r.Reason, "outside the allowed roots") {
		return r
	}
	switch {
	case strings.HasPrefix(p, "~/") && m.pol.Home != "":
		p = m.pol.Home + p[1:]
	case !path.IsAbs(p):
		return r // ~user, or relative without a working directory
	}
	why := sysread.Places{System: m.pol.SystemRoots, ModCache: m.goEnvValue("GOMODCACHE")}.Why(p)
	if why == "" {
		return r
	}
	return permission.Result{Decision: permission.Allow, Layer: permission.LayerShell, Rule: RulePathRead, Reason: why}
}

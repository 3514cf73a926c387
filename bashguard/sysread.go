package bashguard

import (
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
// check is the guard's own second line.

// liftSystemRead turns the path judge's Ask for a read or probe of p
// outside the roots into an Allow when p is a world-readable system file
// or directory (see above).
func (a *analyzer) liftSystemRead(p string, access Access, r permission.Result) permission.Result {
	if access == Write || r.Decision != permission.Ask || !strings.HasPrefix(r.Reason, "outside the allowed roots") {
		return r
	}
	why := sysread.Places{System: a.g.pol.SystemRoots}.Why(p)
	if why == "" {
		return r
	}
	return permission.Result{Decision: permission.Allow, Layer: permission.LayerShell, Rule: RulePathRead, Reason: why}
}

package bashguard

import (
	"os"
	"path"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// A command the guard does not know (tar, zip, make, git clone) reads and
// writes what it likes, and the guard asks; an allow rule of the user
// (Bash(tar:*)) may then let it run. What the guard still holds is a Deny
// for a path: every literal operand, and the value of a "--opt=VALUE",
// that names an existing file goes to the path judge, and a Deny there (a
// secret file, a path a Read deny rule names) denies the command, so that
// an allowed "tar czf out.tgz .env" cannot carry what "cat .env" may not.
// An Ask for an operand adds nothing: the command is asked already.

// operandDenies judges the operands of a command the guard does not know,
// looking only for a Deny.
func (a *analyzer) operandDenies(c *verdictAcc, v *argv) {
	if a.paths == nil {
		return
	}
	for i := 1; i < v.len(); i++ {
		if !v.literal(i) {
			continue
		}
		w := v.vals[i]
		if strings.HasPrefix(w, "-") {
			k := strings.IndexByte(w, '=')
			if k < 0 {
				continue
			}
			w = w[k+1:]
		}
		w = strings.TrimPrefix(w, "file://")
		if w == "" || harmlessRead(w) {
			continue
		}
		full := w
		if !path.IsAbs(w) {
			if a.dir == "" {
				continue
			}
			full = strings.TrimSuffix(a.dir, "/") + "/" + w
		}
		if _, err := os.Lstat(full); err != nil {
			continue // not a file: an option's value, a name, a pattern
		}
		if r := a.judgePath(w, Read); r.Decision == permission.Deny {
			c.addc(permission.Deny, r.Layer, ruleOr(r.Rule, RulePathRead), r.Cause, "reaches ", w, sep(r.Reason), false)
			return
		}
	}
}

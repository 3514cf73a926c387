package bashguard

import (
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// The models the inspection tools' specs (specs_ops.go) name, for what
// the kinds cannot say. Each asks for a line that is not one of the
// tool's queries, saying why (opsAsk); an allow rule may lift that Ask.

// opsAsk records that the line is not one of the queries of s, for why.
func opsAsk(c *verdictAcc, s *spec, why string) {
	c.addf(permission.Ask, RuleUnlisted, "not on the safe list (", s.name+" "+why, ")", true)
}

// tarRemote asks for a tar line whose archive (-f) has a colon before
// any slash: GNU tar reaches HOST:FILE through rsh, unless --force-local
// says otherwise. A line without -t and -f fails tar's query rows first.
func tarRemote(m *cmdCall, c *verdictAcc, s *spec, v *argv, f *specFacts) {
	if f.hasKind(kVersion) {
		return
	}
	file := f.option("-f", "--file")
	if host, _, remote := strings.Cut(file.val, ":"); remote && !strings.Contains(host, "/") && !f.has("--force-local") {
		opsAsk(c, s, "-f "+file.val+" names an archive on another host, reached with rsh")
	}
}

// plainName reports whether n is a plain name, such as a service's or a
// unit's: letters, digits and "@._-", not starting with "-" or ".", so
// that a program that finds a file by it (service runs /etc/init.d/NAME)
// finds none elsewhere.
func plainName(n string) bool {
	if n == "" || n[0] == '-' || n[0] == '.' {
		return false
	}
	for _, r := range n {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@._-", r)) {
			return false
		}
	}
	return true
}

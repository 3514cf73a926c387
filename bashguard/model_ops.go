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

// serviceStatus allows service --status-all alone, and service NAME
// status where NAME is a plain name: service runs /etc/init.d/NAME, and
// a name with a "/" would run a script elsewhere.
func serviceStatus(m *cmdCall, c *verdictAcc, s *spec, v *argv, f *specFacts) {
	switch {
	case f.hasKind(kVersion) && len(f.ops) == 0:
	case f.has("--status-all") && len(f.ops) == 0:
	case len(f.seen) == 0 && len(f.ops) == 2 && serviceName(v.vals[f.ops[0]]) && v.vals[f.ops[1]] == "status":
	default:
		opsAsk(c, s, strings.Join(v.vals[1:], " ")+" is not --status-all or NAME status")
	}
}

// serviceName reports a plain service name: letters, digits and
// "@._-", not starting with "-" or ".".
func serviceName(n string) bool {
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

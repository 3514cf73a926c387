package bashguard

import (
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// The tools of toolSpecs (specs_tools.go) are judged by their specs,
// and the checks their specs name are here.

// moreTools judges the tools of toolSpecs. It reports whether it decided.
func (m *cmdCall) moreTools(c *verdictAcc, name string, v *argv) bool {
	if !cmdIn(name, inTools) {
		return false // toolSpecs is built only for a name it holds (cmdindex.go)
	}
	s := toolSpecs()[name]
	m.tool(c, name, s, v)
	return true
}

// hostnameArgs asks for hostname with any argument but its help and
// version: it sets the name (an operand, -F, -b) or looks it up in the DNS
// (-f, -i, -a, -d, ...).
func hostnameArgs(m *cmdCall, c *verdictAcc, s *spec, v *argv, f *specFacts) {
	for _, e := range f.seen {
		if e.opt.kind != kVersion {
			c.add(permission.Ask, ArgsRule("hostname"), "hostname with arguments sets the name or looks it up in the DNS", true)
			return
		}
	}
	for _, i := range f.ops {
		c.add(permission.Ask, ArgsRule("hostname"), "hostname with arguments sets the name or looks it up in the DNS", true)
		f.handle(i)
	}
}

// tool judges the tool name by its spec s: each option by its kind, then
// what its model says of the operands, then each other operand by the
// spec's operands kind. A tool whose spec gives no operands kind takes no
// operand: one asks.
func (m *cmdCall) tool(c *verdictAcc, name string, s *spec, v *argv) {
	f := m.judgeSpec(c, name, s, v, 1)
	m.specCheck(c, s, v, 1, &f)
	roots := 0
	for k, i := range f.ops {
		if f.handled(i) {
			roots++
			continue
		}
		if k == 0 && s.firstOperand == kPattern {
			continue // fd's pattern is data
		}
		switch s.operandKind(k, &f) {
		case kRead:
			m.readPath(c, v.vals[i], v.flags[i], name)
		case kProbe:
			m.probePath(c, v.vals[i], v.flags[i], name)
		case kWrite:
			m.writePath(c, v.vals[i], v.flags[i], name)
		case kWord:
		default:
			c.addf(permission.Ask, ArgsRule(name), "takes no operand, and ", v.vals[i], " is not known to be harmless", false)
			return
		}
		roots++
	}
	if roots == 0 && s.bareDot {
		// tree and fd without a directory list the working directory.
		m.probePath(c, ".", 0, name)
	}
	c.allow(RuleSafe, orText(s.allow, name+" only prints"))
}

// treeClusters asks for a cluster of tree's short options in which one
// that takes a value is not the last: tree takes every such value from
// the next words, in order, and reads the rest of the cluster as options
// ("tree -Lo 1 out.txt" writes out.txt), where the scanner takes the rest
// of the word for the value.
func treeClusters(m *cmdCall, c *verdictAcc, s *spec, v *argv, f *specFacts) {
	for _, e := range f.seen {
		if len(e.spell) == 2 && e.hasVal && !e.next && len(e.word) > 2 {
			c.addf(permission.Ask, ArgsRule("tree"), "tree takes the value of "+e.spell+" from the next word, not from the rest of ", e.word, "", false)
			return
		}
	}
}

// stringsOptionFiles asks for an operand "@FILE": binutils read more
// options from FILE, -o FILE among them, which are not analysed.
func stringsOptionFiles(m *cmdCall, c *verdictAcc, s *spec, v *argv, f *specFacts) {
	for _, i := range f.ops {
		if w := v.vals[i]; strings.HasPrefix(w, "@") {
			m.readPath(c, w[1:], v.flags[i], s.name)
			c.add(permission.Ask, ArgsRule(s.name), "reads its options from the file "+w[1:]+" (@file), which are not analysed", false)
			f.handle(i)
		}
	}
}

// getconfOperands judges getconf's operands: getconf NAME PATH and
// getconf -a PATH look up the limits of PATH.
func getconfOperands(m *cmdCall, c *verdictAcc, s *spec, v *argv, f *specFacts) {
	for k, i := range f.ops {
		if k > 0 || f.has("-a") {
			m.probePath(c, v.vals[i], v.flags[i], "getconf")
			f.handle(i)
		}
	}
}

package bashguard

import (
	"slices"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// The tools of toolSpecs (specs_tools.go) are judged by their specs,
// and the checks their specs name are here.

// moreTools judges the tools of toolSpecs. It reports whether it decided.
func (m *cmdCall) moreTools(c *verdictAcc, name string, v *argv) bool {
	if !m.cmdIn(name, inTools) {
		return false // toolSpecs is built only for a name it holds (cmdindex.go)
	}
	s := toolSpecs()[name]
	m.tool(c, name, s, v)
	return true
}

// tool judges the tool name by its spec s: each option by its kind, then
// what its model says of the operands, then each other operand by the
// spec's operands kind, and below an operand read the tree the spec's
// tree says it reaches (gofmt formats the files below a directory). A
// tool whose spec gives no operands kind takes no operand: one asks.
func (m *cmdCall) tool(c *verdictAcc, name string, s *spec, v *argv) {
	f := m.judgeSpec(c, name, s, v, 1)
	tree := readerTree(s, &f)
	m.specCheck(c, s, v, 1, &f)
	if s.atFiles {
		m.atFiles(c, s, v, &f)
	}
	m.leadGlobs(c, name, s, v, &f)
	roots := 0
	for k, i := range f.ops {
		if f.handled(i) {
			roots++
			continue
		}
		switch s.operandKind(k, &f) {
		case kPattern:
			continue // fd's pattern is data
		case kRead:
			if m.readPath(c, v.vals[i], v.flags[i], name) && tree.recursive {
				m.walkRoot(c, v.vals[i], v.flags[i], name, tree)
			}
		case kProbe:
			m.probePath(c, v.vals[i], v.flags[i], name)
		case kWrite:
			m.writtenOperand(c, name, v, i)
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

// atFiles judges the words "@FILE" of the line v of s, a spec whose
// program reads more arguments from FILE (atFiles): FILE is read, and the
// line asks, since what it holds (-o FILE among binutils' options) is not
// analysed. An operand so judged is not read as one.
func (m *cmdCall) atFiles(c *verdictAcc, s *spec, v *argv, f *specFacts) {
	for i := 1; i < v.len(); i++ {
		if w := v.vals[i]; strings.HasPrefix(w, "@") {
			m.readPath(c, w[1:], v.flags[i], s.name)
			c.add(permission.Ask, ArgsRule(s.name), "reads its options from the file "+w[1:]+" (@file), which are not analysed", false)
			if slices.Contains(f.ops, i) {
				f.handle(i)
			}
		}
	}
}

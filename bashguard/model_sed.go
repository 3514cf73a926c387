package bashguard

import (
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// sed allows scripts that only print: no in-place editing, no script
// files, and no w, W, e, r or R commands or s///w and s///e flags. Its
// command line is read by its spec (GNU sed's options); its script, a
// program, by sedUnsafe over the table of sed's commands.

// sedLine is what sed's options said.
type sedLine struct {
	scripts  []int // the words holding -e's scripts (-1: attached, judged already)
	ops      []int // the operands
	inPlace  bool
	fromFile bool
}

func (m *cmdCall) sed(c *verdictAcc, v *argv) {
	var l sedLine
	scanSpec(sedSpec(), v, 1, false, func(e *scanned) { l.option(m, c, v, e) })
	if len(l.scripts) == 0 && !l.fromFile {
		if len(l.ops) == 0 {
			c.add(permission.Ask, ArgsRule("sed"), "no sed script given", false)
			return
		}
		l.scripts, l.ops = l.ops[:1], l.ops[1:]
	}
	if l.fromFile {
		c.add(permission.Ask, RuleCodeSed, "runs a sed script from a file, which is not analysed", false)
	}
	for _, i := range l.scripts {
		switch {
		case i < 0:
		case !v.literal(i):
			c.add(permission.Ask, ArgsRule("sed"), "sed script is only known at run time", false)
		default:
			sedScript(c, v.vals[i])
		}
	}
	for _, i := range l.ops {
		if l.inPlace {
			m.writePath(c, v.vals[i], v.flags[i], "sed")
		} else {
			m.readPath(c, v.vals[i], v.flags[i], "sed")
		}
	}
	if l.inPlace {
		c.add(permission.Ask, WriteRule("sed"), "edits files in place (-i)", true)
		c.plainLast(true) // each file it edits has a factor of its own
	}
	c.allow(RuleSafe, "sed script only prints")
}

// option records one thing the scanner found on sed's command line.
func (l *sedLine) option(m *cmdCall, c *verdictAcc, v *argv, e *scanned) {
	switch {
	case e.opt == &dashDashOpt:
	case e.opt == nil && e.problem == "":
		l.ops = append(l.ops, e.at)
	case e.problem != "":
		m.specOption(c, "sed", sedSpec(), v, e, nil)
	case e.opt.name == "-e" && v.vals[e.at] != e.val:
		sedScript(c, e.val) // attached: judged as text
		l.scripts = append(l.scripts, -1)
	case e.opt.name == "-e":
		l.scripts = append(l.scripts, e.at)
	case e.opt.name == "-f":
		l.fromFile = true
	case e.opt.name == "-i":
		l.inPlace = true
	}
}

// sedScript records why the sed script s is not read-only, if it is not.
func sedScript(c *verdictAcc, s string) {
	if why := sedUnsafe(s); why != "" {
		c.add(permission.Ask, ArgsRule("sed"), "sed script "+why, false)
	}
}

// sedCmd is one row of sed's commands: the letters, how the rest of the
// command reads (nil: nothing follows), and, for a command that is not
// read-only, why. A command whose letter no row holds asks.
type sedCmd struct {
	letters string
	rest    func(s string, i int) (int, string)
	why     string
}

// sedFlag is one row of the flags of the s command that are not
// read-only.
type sedFlag struct {
	flag byte
	why  string
}

// sedCommand returns the row of the command letter cmd, or nil.
func sedCommand(cmd byte) *sedCmd {
	for k := range sedCommands {
		if strings.IndexByte(sedCommands[k].letters, cmd) >= 0 {
			return &sedCommands[k]
		}
	}
	return nil
}

// sedUnsafe explains why a sed script may write, read or run something, or
// returns "". Anything it cannot parse is unsafe.
func sedUnsafe(s string) string {
	for i := 0; ; {
		i = sedSkip(s, i, " \t\n;")
		if i >= len(s) {
			return ""
		}
		var why string
		if i, why = sedAddrs(s, i); why != "" {
			return why
		}
		cmd := s[i]
		row := sedCommand(cmd)
		switch {
		case row == nil:
			return "uses the command " + string(cmd) + ", which is not known to be read-only"
		case row.why != "":
			return row.why
		case row.rest != nil:
			if i, why = row.rest(s, i+1); why != "" {
				return why
			}
		default:
			i++
		}
	}
}

// sedSkip returns the index of the first byte at or after i that is not
// in set.
func sedSkip(s string, i int, set string) int {
	for i < len(s) && strings.IndexByte(set, s[i]) >= 0 {
		i++
	}
	return i
}

// sedAddrs skips the address (or range of two) and the negations of the
// command at s[i:], returning the index of its letter, or why it cannot be
// parsed.
func sedAddrs(s string, i int) (int, string) {
	if i = sedAddr(s, i); i < 0 {
		return 0, "has an address that cannot be parsed"
	}
	i = sedSkip(s, i, " \t")
	if i < len(s) && s[i] == ',' {
		if i = sedAddr(s, sedSkip(s, i+1, " \t")); i < 0 {
			return 0, "has an address that cannot be parsed"
		}
	}
	i = sedSkip(s, sedSkip(s, i, " \t"), "! \t")
	if i >= len(s) {
		return 0, "ends without a command"
	}
	return i, ""
}

// sedCount skips the optional number after l, q, Q and L.
func sedCount(s string, i int) (int, string) {
	return sedSkip(s, sedSkip(s, i, " \t"), "0123456789"), ""
}

// sedComment skips a comment to the end of its line.
func sedComment(s string, i int) (int, string) {
	for i < len(s) && s[i] != '\n' {
		i++
	}
	return i, ""
}

// sedLabelDef and sedLabel skip the label of ":" and of b, t and T. GNU
// sed ends a label at blanks and ";" too, and reads what follows as the
// next command; a branch's label ends at "}" as well.
func sedLabelDef(s string, i int) (int, string) { return sedLabelEnd(s, i, "\n; \t"), "" }
func sedLabel(s string, i int) (int, string)    { return sedLabelEnd(s, i, "\n; \t}"), "" }

func sedLabelEnd(s string, i int, stops string) int {
	i = sedSkip(s, i, " \t")
	for i < len(s) && strings.IndexByte(stops, s[i]) < 0 {
		i++
	}
	return i
}

// sedText skips the text of a, i and c, to the end of its line (a
// backslash escapes the next byte, a newline too).
func sedText(s string, i int) (int, string) {
	for i < len(s) && s[i] != '\n' {
		if s[i] == '\\' {
			i++
		}
		i++
	}
	return i, ""
}

// sedY skips y/src/dst/.
func sedY(s string, i int) (int, string) {
	if i >= len(s) {
		return 0, "has an incomplete y command"
	}
	d := s[i]
	if i = sedDelim(s, i+1, d, false); i < 0 {
		return 0, "has an incomplete y command"
	}
	if i = sedDelim(s, i, d, false); i < 0 {
		return 0, "has an incomplete y command"
	}
	return i, ""
}

// sedS skips s/regex/replacement/flags and explains a flag that runs or
// writes.
func sedS(s string, i int) (int, string) {
	if i >= len(s) || s[i] == '\n' || s[i] == '\\' {
		return 0, "has an incomplete s command"
	}
	d := s[i]
	if i = sedDelim(s, i+1, d, true); i < 0 {
		return 0, "has an incomplete s command"
	}
	if i = sedDelim(s, i, d, false); i < 0 {
		return 0, "has an incomplete s command"
	}
	i = sedSkip(s, i, sedSPlainFlags)
	if i < len(s) {
		for _, f := range sedSFlags {
			if s[i] == f.flag {
				return 0, f.why
			}
		}
	}
	return i, ""
}

// sedAddr skips one address at s[i:], returning the index after it, or
// -1 when it cannot be parsed.
func sedAddr(s string, i int) int {
	n := len(s)
	if i >= n {
		return i
	}
	switch {
	case s[i] >= '0' && s[i] <= '9':
		return sedSkip(s, i, "0123456789~")
	case s[i] == '$':
		return i + 1
	case s[i] == '+' || s[i] == '~':
		return sedSkip(s, i+1, "0123456789")
	case s[i] == '/':
		i = sedDelim(s, i+1, '/', true)
	case s[i] == '\\':
		if i+1 >= n {
			return -1
		}
		i = sedDelim(s, i+2, s[i+1], true)
	default:
		return i
	}
	if i < 0 {
		return i
	}
	return sedSkip(s, i, "IM")
}

// sedDelim returns the index after the delimiter d that ends the part
// starting at s[i:], or -1. In a regular expression a bracket expression
// may hold the delimiter.
func sedDelim(s string, i int, d byte, regex bool) int {
	n := len(s)
	for i < n {
		ch := s[i]
		switch {
		case ch == '\\':
			i += 2
			continue
		case regex && ch == '[':
			if i = bracketExprEnd(s, i+1, false); i < 0 {
				return -1
			}
			continue
		case ch == d:
			return i + 1
		}
		i++
	}
	return -1
}

// bracketExprEnd returns the index after the "]" that ends the bracket
// expression whose "[" is just before s[i:], or -1 when it does not end
// (with atLine, at the line's end at the latest). A "]" first in the
// list, after an optional "^", is a member; so is every byte of a
// character class, equivalence class or collating symbol ("[:]:]").
func bracketExprEnd(s string, i int, atLine bool) int {
	n := len(s)
	if i < n && s[i] == '^' {
		i++
	}
	if i < n && s[i] == ']' {
		i++
	}
	for i < n && s[i] != ']' {
		switch {
		case atLine && s[i] == '\n':
			return -1
		case s[i] == '[' && i+1 < n && (s[i+1] == ':' || s[i+1] == '.' || s[i+1] == '='):
			k := strings.Index(s[i+2:], string(s[i+1])+"]")
			if k < 0 {
				return -1
			}
			i += k + 4
		default:
			i++
		}
	}
	if i >= n {
		return -1
	}
	return i + 1
}

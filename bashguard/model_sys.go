package bashguard

import (
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// The toolchains and shell queries of sysSpecs (specs_sys.go), judged by
// their specs: the engine that walks their subcommands, and the models
// their specs' checks name, for what the kinds cannot say.

// sysTools judges the commands of sysSpecs by their specs. It reports
// whether it decided: a byClass spec leaves to the command's class a line
// it does not read whole.
func (m *cmdCall) sysTools(c *verdictAcc, name string, v *argv) bool {
	if !m.cmdIn(name, inSys) {
		return false // sysSpecs is built only for a name it holds (cmdindex.go)
	}
	s := sysSpecs()[name]
	m.readAnywhere(c, name, s, v)
	if !allLiteral(v) {
		return false // the class judges what is only known at run time
	}
	acc := *c
	if !m.sysLevel(&acc, name, s, v, 1, true) {
		return false
	}
	*c = acc
	return true
}

// readAnywhere judges the options of s.anywhere where they stand in the
// line v of the command cmd: each is refused as an option of its kind
// (runs a program) that only an allow rule naming it lifts; one whose
// value is only known at run time too.
func (m *cmdCall) readAnywhere(c *verdictAcc, cmd string, s *spec, v *argv) {
	for _, r := range s.anywhere {
		for i := 1; i+1 < v.len(); i++ {
			w, val := v.vals[i], v.vals[i+1]
			if !v.literal(i) || !spelt(r.spell, w) || v.literal(i+1) && (val == "" || strings.HasPrefix(val, "-")) {
				continue
			}
			c.addNamed(w, permission.Ask, ArgsRule(cmd), "uses the "+s.name+" option ", w+" "+val,
				", which "+orText(r.why, "runs a program")+" (read wherever it stands in the line)")
		}
	}
}

func allLiteral(v *argv) bool {
	for i := 0; i < v.len(); i++ {
		if !v.literal(i) {
			return false
		}
	}
	return true
}

// sysLevel judges the line v from the word at from on by the spec s, a
// level of the command cmd (top for the command's own): its options,
// then its subcommand or its operands. It reports false for a line a
// byClass spec leaves to the class.
func (m *cmdCall) sysLevel(c *verdictAcc, cmd string, s *spec, v *argv, from int, top bool) bool {
	if s.ask != "" && !s.hasRows() {
		// Every line of the subcommand asks, for what it does.
		c.addf(permission.Ask, RuleUnlisted, "not on the safe list (", s.name+" "+s.ask, ")", true)
		if s.script != nil {
			// It reads no option: every word is the script's.
			m.pkgScriptWords(c, cmd, s, v, wordsFrom(from, v.len()), nil)
		}
		return true
	}
	if s.subs == nil {
		return m.sysLeaf(c, cmd, s, v, from, top)
	}
	var bad *scanned
	version := false
	i := scanSpec(s, v, from, true, func(e *scanned) {
		switch {
		case e.problem != "" || e.opt.kind != kFlag && e.opt.kind != kVersion:
			if bad == nil {
				bad = e
			}
		case e.opt.kind == kVersion:
			version = true
		}
	})
	switch {
	case bad != nil:
		return sysUnread(c, s, top, s.name+" option "+optWritten(bad)+" "+orText(bad.problem, "is not among the queries judged"))
	case i >= v.len() && version:
		c.allow(RuleSafe, "prints its version")
		return true
	case i >= v.len():
		return sysUnread(c, s, top, s.name+" without a subcommand")
	}
	sub := s.subs[v.vals[i]]
	if sub == nil {
		return sysUnread(c, s, top, s.name+" "+v.vals[i])
	}
	return m.sysLevel(c, cmd, sub, v, i+1, false)
}

// sysLeaf judges the options and operands of the line v from the word at
// from on by s, a spec without subcommands.
func (m *cmdCall) sysLeaf(c *verdictAcc, cmd string, s *spec, v *argv, from int, top bool) bool {
	if !s.byClass && top && s.ask == "" {
		m.tool(c, cmd, s, v)
		return true
	}
	if top && from >= v.len() && s.allow == "" {
		return false // node alone, a program that is only its version here
	}
	f := specFacts{dashes: -1}
	unread := ""
	scanSpec(s, v, from, false, func(e *scanned) {
		switch {
		case e.word == "--" && e.opt == &dashDashOpt:
			f.dashes = len(f.ops)
		case e.opt == nil && e.problem == "":
			f.ops = append(f.ops, e.at)
		case e.problem == "" && (e.opt.kind == kProgram || e.opt.kind == kAsk):
			// An Ask no allow rule for the command lifts (go list
			// -toolexec), wherever the option is.
			m.specOption(c, cmd, s, v, e, &f)
		case e.problem != "" || top && s.byClass && e.opt.kind != kFlag && e.opt.kind != kVersion && e.opt.kind != kWord && e.opt.kind != kRead:
			// An option the spec does not list is the Ask of an unlisted
			// command, which an allow rule for it lifts: a toolchain's
			// spec knows only some of its forms (pip list --outdated),
			// and the --help tests hold the lists of those it knows whole.
			// The options after it are still judged (pytest's plugins
			// take options of their own, and --basetemp after one still
			// empties its tree), as are the operands and the spec's check.
			if unread == "" {
				unread = s.name + " option " + optWritten(e) + " " + orText(e.problem, "is not among the queries judged")
			}
			if e.opt != nil {
				m.specOption(c, cmd, s, v, e, &f)
			}
		default:
			m.specOption(c, cmd, s, v, e, &f)
		}
	})
	if unread != "" && !sysUnread(c, s, top, unread) {
		return false // the class judges
	}
	switch {
	case s.ask == "" || f.hasKind(kVersion):
	case top:
		// The command's own: its name says what the spec's ask says
		// (make runs the recipes of the project's makefiles).
		c.add(permission.Ask, RuleUnlisted, "not on the safe list", true)
	default:
		c.addf(permission.Ask, RuleUnlisted, "not on the safe list (", s.name+" "+s.ask, ")", true)
	}
	m.gitConfigPrograms(c, s)
	m.specCheck(c, s, v, from, &f)
	if s.script != nil {
		m.pkgScriptWords(c, cmd, s, v, f.ops, f.seen)
	}
	if s.atFiles {
		m.atFiles(c, s, v, &f) // mypy @args
	}
	if f.toClass {
		return sysUnread(c, s, top, s.name+" "+strings.Join(v.vals[from:], " "))
	}
	for k, i := range f.ops {
		switch ok := s.operandKind(k, &f); {
		case f.handled(i), ok == kWord:
		case ok == kRead:
			m.readPath(c, v.vals[i], v.flags[i], cmd)
		case ok == kProbe:
			m.probePath(c, v.vals[i], v.flags[i], cmd)
		case ok == kWrite && s.ask != "":
			// A command that asks for what it does (black rewrites its
			// operands): where it writes is judged as a path.
			m.writePath(c, v.vals[i], v.flags[i], cmd)
		default:
			return sysUnread(c, s, top, s.name+" "+v.vals[i])
		}
	}
	if f.hasKind(kVersion) {
		c.allow(RuleSafe, "prints its version")
		return true
	}
	specAllows(c, s)
	return true
}

// sysUnread records that a line is not one the spec s allows, for what:
// at the command's own level of a byClass spec, by reporting false (the
// class judges); elsewhere as the Ask of an unlisted command, which an
// allow rule may lift.
func sysUnread(c *verdictAcc, s *spec, top bool, what string) bool {
	if top && s.byClass {
		return false
	}
	c.addf(permission.Ask, RuleUnlisted, "not on the safe list (", what, ")", true)
	return true
}

// yqOperands judges yq's operands: after mikefarah's subcommands (eval,
// eval-all), an expression without the words of yqWords, then files that
// are read. The expression is judged as a read too: mikefarah's yq takes
// an existing file there for the file, with the expression ".".
func yqOperands(m *cmdCall, c *verdictAcc, s *spec, v *argv, f *specFacts) {
	ops := f.ops
	if len(ops) > 0 {
		if yqSubcommands()[v.vals[ops[0]]] {
			f.handle(ops[0])
			ops = ops[1:]
		}
	}
	if len(ops) == 0 {
		return
	}
	expr := v.vals[ops[0]]
	for _, w := range yqWords {
		if strings.Contains(expr, w) {
			c.addf(permission.Ask, ArgsRule("yq"), "yq expression ", expr, " may read files or the environment ("+w+")", false)
			return
		}
	}
}

// wordsFrom is the indexes from from to n-1.
func wordsFrom(from, n int) []int {
	out := make([]int, 0, max(n-from, 0))
	for i := from; i < n; i++ {
		out = append(out, i)
	}
	return out
}

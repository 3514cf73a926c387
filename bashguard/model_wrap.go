package bashguard

import (
	"slices"
	"strings"
	"sync"

	"github.com/toolgate/toolgate/permission"
)

// xargs judges its options by its spec (specs_wrappers.go), and the
// command it runs with arguments read from its input; with no command it
// runs echo. Where its input is what a lister prints (find, git
// ls-files: x.found) and its options keep those names whole, the command
// is judged on the names themselves (xargsFound); otherwise the
// arguments cannot be checked.
func (m *cmdCall) xargs(c *verdictAcc, v *argv, x execCtx) {
	f := m.judgeSpec(c, "xargs", wrapperSpecs()["xargs"], v, 1)
	if len(f.ops) == 0 {
		c.allow(RuleSafe, "xargs without a command runs echo")
		return
	}
	cmd := f.ops[0]
	if fi := x.found; fi != nil {
		if delim, whole := xargsDelim(v, &f, fi); whole {
			m.xargsFound(c, v, cmd, fi, delim)
			return
		}
	}
	rest := v.from(cmd)
	sub := m.wrapped(c, "", &rest, x)
	// Rules hold for the command xargs runs; its arguments come from the
	// input, so an allow rule for the command does not speak for them.
	c.wraps("xargs", &rest, &sub, true)
	m.appendedHosts(c, &rest)
	m.appendedSecrets(c, &rest)
	c.add(permission.Ask, WrapperRule("xargs"), "runs "+v.vals[cmd]+" with arguments read from its input, which cannot be checked", !sub.nonOver)
	m.deniedOperands(c, v)
}

// xargsDelim returns where xargs, given the options f found, ends each
// argument it reads: at blanks, reading quotes (' ', without -0 or -d),
// at newlines only (-d '\n'), or at NUL (0: -0), the last of them
// given deciding, as in xargs. It reports whether the names the lister
// fi prints reach the command whole: every other option is harmless to
// them (kFlag, kWord), and they are ended as fi ends them (-0 with
// -print0, and only then).
func xargsDelim(v *argv, f *specFacts, fi *findInfo) (byte, bool) {
	delim := byte(' ')
	for _, e := range f.seen {
		switch k := e.opt.kind; {
		case k == kDelim && !e.hasVal:
			delim = 0
		case k == kDelim && v.literal(e.at) && newlineDelim(e.val):
			delim = '\n'
		case k != kFlag && k != kWord:
			return 0, false
		}
	}
	return delim, (delim == 0) == fi.print0
}

// xargsFound judges the command at cmd that xargs runs on the names the
// lister fi prints, split at delim: the command with one of them in
// their place, and the names, as files it reads.
func (m *cmdCall) xargsFound(c *verdictAcc, v *argv, cmd int, fi *findInfo, delim byte) {
	var rest argv
	m.newArgv(&rest, v.len()-cmd+1)
	copy(rest.vals, v.vals[cmd:])
	copy(rest.flags, v.flags[cmd:])
	hole := strings.TrimSuffix(fi.starts[0], "/") + "/{}"
	rest.vals[len(rest.vals)-1] = hole
	rest.flags[len(rest.flags)-1] = 0
	sub, asFiles := m.judgeOnFound(c, "", &rest, hole, execCtx{fork: true, piped: true})
	c.wraps("xargs", &rest, &sub, true)
	switch {
	case sub.decided:
		c.add(permission.Ask, WrapperRule("xargs"), "runs "+v.vals[cmd]+" on the files "+fi.lister()+" lists", !sub.nonOver)
	case !asFiles:
		c.addf(permission.Ask, WrapperRule("xargs"), "xargs passes the names find prints to ", v.vals[cmd],
			" as something other than files it reads (a program, a script, a pattern or an option value), and any name may be found", false)
	default:
		m.readFound(c, fi, "xargs", delim)
		c.allow(RuleSafe, "xargs runs a read-only command on the files "+fi.lister()+" lists inside the allowed roots")
	}
}

// unsetEnv returns env without the variable name.
func unsetEnv(env []envVar, name string) []envVar {
	var out []envVar
	for _, e := range env {
		if e.name != name {
			out = append(out, e)
		}
	}
	return out
}

// env judges its options and assignments by its spec, and the command it
// runs in the environment they make.
func (m *cmdCall) env(c *verdictAcc, v *argv, x execCtx) {
	m.envSpec(c, wrapperSpecs()["env"], v, x)
	m.deniedOperands(c, v)
}

// envSpec judges env by its spec s.
func (m *cmdCall) envSpec(c *verdictAcc, s *spec, v *argv, x execCtx) {
	f := m.judgeSpec(c, "env", s, v, 1)
	if f.hasKind(kSplitArgs) {
		return // the command line is in the string
	}
	if e := f.kindOpt(kDir); e != nil {
		c.add(permission.Ask, ArgsRule("env"), "runs the command in another directory ("+e.opt.name+"), so its relative paths cannot be checked", false)
	}
	env, ops := m.envAssigned(c, v, &f)
	if len(ops) == 0 && f.hasKind(kVersion) {
		// --help or --version: env prints its text and exits as it
		// meets the option, printing no environment, running nothing.
		c.allow(RuleSafe, "env "+f.kindOpt(kVersion).opt.name+" prints its own text and exits")
		return
	}
	if len(ops) == 0 {
		environ(c, "env without a command prints the environment")
		return
	}
	outerEnv := m.cmdEnv
	defer func() { m.cmdEnv = outerEnv }()
	rest := v.from(ops[0])
	m.cmdEnv = env
	acts := c.decided // an option or an assignment did something
	sub := m.wrapped(c, "", &rest, x)
	c.wraps("env", &rest, &sub, acts)
	if !sub.decided {
		c.allow(sub.allowRule, "runs "+v.vals[ops[0]]+": "+sub.allowWhy)
	}
}

// envAssigned returns the environment env's options and NAME=VALUE
// operands make for the command it runs ("-i" and a first operand "-"
// empty it, -u removes a name), judging each assignment, and the operands
// left: the command line.
func (m *cmdCall) envAssigned(c *verdictAcc, v *argv, f *specFacts) ([]envVar, []int) {
	env := m.cmdEnv
	for _, e := range f.seen {
		switch e.opt.kind {
		case kClearEnv:
			env = nil
		case kUnsetVar:
			env = unsetEnv(env, e.val)
		}
	}
	ops := f.ops
	if len(ops) > 0 && v.vals[ops[0]] == "-" && v.literal(ops[0]) {
		env, ops = nil, ops[1:]
	}
	for ; len(ops) > 0 && isAssignWord(v.vals[ops[0]]); ops = ops[1:] {
		name, val, _ := strings.Cut(v.vals[ops[0]], "=")
		if why := riskyVar(name, true); why != "" {
			c.add(permission.Ask, RuleEnvAssign, "assignment to "+name+" "+why, false)
		}
		env = append(env[:len(env):len(env)], envVar{name: name, val: val, lit: v.literal(ops[0])})
	}
	return env, ops
}

// wraps records that the command is the process wrapper name running
// rest, which sub judged: the innermost command and the chain of wrappers
// around it.
func (c *verdictAcc) wraps(name string, rest *argv, sub *verdictAcc, acts bool) {
	c.via = append([]string{name}, sub.via...)
	c.viaActs = acts || sub.viaActs
	c.runs = sub.runs
	if c.runs == nil {
		c.runs = slices.Clone(rest.vals)
	}
	c.more = append(c.more, sub.more...)
}

// runsToo records that the command (find) runs rest, which sub judged, as
// one of the commands its own arguments name: the first is its Runs with
// name as the wrapper whose options act; each further one goes to
// [Command.RunsMore].
func (c *verdictAcc) runsToo(name string, rest *argv, sub *verdictAcc) {
	if c.runs == nil {
		c.wraps(name, rest, sub, true)
		return
	}
	runs := sub.runs
	if runs == nil {
		runs = slices.Clone(rest.vals)
	}
	c.more = append(append(c.more, runs), sub.more...)
}

// wrapper judges nice, nohup, timeout, time, stdbuf, command, builtin,
// exec, setsid, flock and watch by their specs (specs_wrappers.go): their
// own options by their kinds, then the command line their operands start,
// as its own.
func (m *cmdCall) wrapper(c *verdictAcc, name string, v *argv, x execCtx) {
	m.wrapperSpec(c, name, wrapperSpecs()[name], v, x)
	m.deniedOperands(c, v)
}

// wrapperSpec judges the wrapper name by its spec s.
func (m *cmdCall) wrapperSpec(c *verdictAcc, name string, s *spec, v *argv, x execCtx) {
	f := m.judgeSpec(c, name, s, v, 1)
	m.specCheck(c, s, v, 1, &f)
	if s.firstOperand != kUnknown && len(f.ops) > 0 {
		m.firstOperand(c, name, s.firstOperand, v, f.ops[0]) // timeout's duration, flock's lock file
		m.readAfterFirst(c, name, s, v, &f)                  // flock FILE -c CODE
		f.handle(f.ops[0])
	}
	ops := slices.DeleteFunc(slices.Clone(f.ops), f.handled)
	// Its own options did something (time -o writes); a redirection of
	// the whole command, judged before them, is not one of them.
	acts := c.decided && (c.dec == permission.Deny || slices.ContainsFunc(c.asks, func(f Finding) bool { return f.Rule != RuleWriteRedirect }))
	if f.hasKind(kShellCode) {
		// flock -c: the code, judged as a script, is what it runs.
		c.add(permission.Ask, WrapperRule(name), s.ask, true)
		return
	}
	switch {
	case len(ops) == 0 && s.bareWhy == "":
		c.allow(RuleSafe, s.allow)
		return
	case len(ops) == 0:
		c.add(permission.Ask, ArgsRule(name), s.bareWhy, true)
		return
	case f.hasKind(kLookup):
		m.cmdNames(c, v, ops, name)
		c.allow(RuleSafe, s.name+" "+f.kindOpt(kLookup).spell+" only looks up a name")
		return
	case s.operands == kShellCode && !f.hasKind(kExecOps):
		m.joinedCode(c, name, v, ops[0])
		c.add(permission.Ask, WrapperRule(name), s.ask, true)
		return
	}
	rest := v.from(ops[0])
	if s.pkgName && rest.literal(0) {
		rest.vals = slices.Clone(rest.vals)
		rest.vals[0] = pkgProgram(rest.vals[0])
	}
	sub := m.wrapped(c, "", &rest, x)
	c.wraps(name, &rest, &sub, acts)
	if s.ask != "" {
		c.add(permission.Ask, WrapperRule(name), s.ask, !sub.nonOver && !s.askFinal)
		return
	}
	if !sub.decided {
		c.allow(sub.allowRule, "runs "+v.vals[ops[0]]+": "+sub.allowWhy)
	}
}

// shellCode judges the shell code e, the value of an option of kind
// kShellCode of the command cmd (flock -c), as a script.
func (m *cmdCall) shellCode(c *verdictAcc, cmd string, s *spec, e *scanned, literal bool) {
	what := s.name + " " + e.spell
	if !literal {
		c.add(permission.Ask, RuleCodeShell, what+" runs shell code that is only known at run time", false)
		return
	}
	m.code(c, e.val, WrapperRule(cmd), what)
}

// joinedCode judges the shell code a command makes of its words from the
// one at i on, joined by spaces (watch hands them to sh -c).
func (m *cmdCall) joinedCode(c *verdictAcc, cmd string, v *argv, i int) {
	for k := i; k < v.len(); k++ {
		if !v.literal(k) {
			c.add(permission.Ask, RuleCodeShell, cmd+" runs shell code that is only known at run time", false)
			return
		}
	}
	m.code(c, strings.Join(v.vals[i:], " "), WrapperRule(cmd), cmd)
}

// firstOperand judges the first operand of a wrapper, at i, which its
// spec says is of kind k: a word (timeout's duration), or a file opened
// to write unless it is a descriptor (kWriteFd: flock's lock file).
func (m *cmdCall) firstOperand(c *verdictAcc, name string, k kind, v *argv, i int) {
	switch {
	case k == kWord, k == kWriteFd && isFdWord(v.vals[i]):
	case k == kWriteFd:
		m.writePath(c, v.vals[i], v.flags[i], name)
	default:
		c.addf(permission.Ask, ArgsRule(name), "uses the operand ", v.vals[i], ", which is not known to be harmless", false)
	}
}

// newlineDelim reports the delimiter of xargs -d that is a newline: the
// escape \n xargs reads, or a newline itself.
func newlineDelim(d string) bool {
	return d == "\\n" || d == "\n"
}

// subWrapper judges a subcommand that runs a program (pnpm exec, bun x;
// subWrappers) as a wrapper, and reports whether v is one.
func (m *cmdCall) subWrapper(c *verdictAcc, name string, v *argv, x execCtx) bool {
	if v.len() < 2 {
		return false
	}
	at, lead := 1, subWrapperLeads()[name]
	if lead != nil {
		at = scanSpec(lead, v, 1, true, func(*scanned) {})
	}
	if at >= v.len() || !v.literal(at) {
		return false
	}
	s := subWrappers()[name+" "+v.vals[at]]
	if s == nil && at+1 < v.len() && v.literal(at+1) {
		s, at = subWrappers()[name+" "+v.vals[at]+" "+v.vals[at+1]], at+1 // uv tool run
	}
	if s == nil {
		// Options before a subcommand that runs a program, which the
		// tool's lead spec (if any) did not read up to it (npm --silent
		// exec -- rm ...): the command it runs cannot be found for sure.
		// The line is judged on as the tool's own, too.
		if sub := laterSubWrapper(name, v); sub != "" && strings.HasPrefix(v.vals[1], "-") {
			c.addf(permission.Ask, ArgsRule(name), "runs "+name+" "+sub+" after options that are not read before it, so the command it runs is not judged", "", "", false)
		}
		return false
	}
	if lead != nil {
		head := argv{v.vals[:at], v.flags[:at]}
		m.judgeSpec(c, name, lead, &head, 1)
	}
	rest := v.from(at)
	m.wrapperSpec(c, s.name, s, &rest, x)
	m.deniedOperands(c, &rest)
	return true
}

// laterSubWrapper returns the first word of the line v of the tool name,
// after its first, that names one of its subWrappers rows (alone, or
// with the word after it), or "".
func laterSubWrapper(name string, v *argv) string {
	for i := 2; i < v.len(); i++ {
		if !v.literal(i) {
			continue
		}
		if subWrappers()[name+" "+v.vals[i]] != nil {
			return v.vals[i]
		}
		if i+1 < v.len() && v.literal(i+1) && subWrappers()[name+" "+v.vals[i]+" "+v.vals[i+1]] != nil {
			return v.vals[i] + " " + v.vals[i+1]
		}
	}
	return ""
}

// subWrapperLeads are the options a tool takes before the subcommand a
// subWrappers row names, by the tool (uv's global options: uv
// --directory d run ...): read by their spec to find that subcommand,
// and judged by it.
var subWrapperLeads = sync.OnceValue(func() map[string]*spec {
	return map[string]*spec{"uv": uvGlobalSpec()}
})

// pkgProgram is the program a package runner runs for the package pkg:
// its name, without a scope or a version (@scope/name@1 runs name).
func pkgProgram(pkg string) string {
	if strings.HasPrefix(pkg, "@") {
		if _, rest, ok := strings.Cut(pkg, "/"); ok {
			pkg = rest
		}
	}
	if i := strings.IndexByte(pkg, '@'); i > 0 {
		pkg = pkg[:i]
	}
	return pkg
}

package bashguard

import (
	"slices"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// code judges literal shell text (from "bash -c", "eval" or a wrapper)
// command by command, through the walker; the result is merged into c.
// The command running it is at best Ask.
func (m *cmdCall) code(c *verdictAcc, text string, rule permission.RuleID, what string) {
	m.w.nestedCode(c, text, rule, what, false, false)
}

// codeJudged is code; with judged set, shell code whose every command is
// allowed by the same judgement is allowed as they are (a literal bash -c
// script), instead of asked.
func (m *cmdCall) codeJudged(c *verdictAcc, text string, rule permission.RuleID, what string, judged bool) {
	m.w.nestedCode(c, text, rule, what, judged, false)
}

// shell judges bash, sh and the other shells.
func (m *cmdCall) shell(c *verdictAcc, v *argv, x execCtx) {
	l := shellOptions(v)
	if l.unread != "" {
		// Which word is the code, or the script, depends on what the
		// option is: no allow rule lifts this.
		c.add(permission.Ask, RuleCodeShell, "uses the option "+l.unread+", which is not bash's: which word is the code it runs is not known", false)
	}
	switch {
	case l.cmd && l.operand < 0:
		c.add(permission.Ask, RuleCodeShell, "-c without shell code", false)
	case l.cmd && !v.literal(l.operand):
		c.add(permission.Ask, RuleCodeShell, "runs shell code that is only known at run time", false)
	case l.cmd:
		m.codeJudged(c, v.vals[l.operand], RuleCodeShell, "-c", m.shellPlain(v, l) && !x.piped)
	case l.operand >= 0 && !l.stdin:
		c.add(permission.Ask, RuleCodeScript, "runs the script "+v.vals[l.operand]+", whose content is not analysed", true)
	case x.piped || l.stdin:
		c.add(permission.Ask, RuleCodePipeToShell, "runs shell code read from its input, which is not analysed", false)
	default:
		c.add(permission.Ask, RuleCodeShell, "starts an interactive shell", false)
	}
}

// shellLine is what a shell's options said.
type shellLine struct {
	cmd     bool   // -c: the first operand is the code
	stdin   bool   // -s: the code comes from the input
	plain   bool   // every option leaves the code read as it is (shellInvocation's kFlag rows)
	unread  string // an option that is not bash's, which another shell may read otherwise (its value, its code)
	operand int    // the index of the first operand, or -1
}

// shellOptions reads the options of the shell command v by
// shellInvocation. A word only known at run time is the first operand;
// "-", like "--", ends the options.
func shellOptions(v *argv) shellLine {
	l := shellLine{plain: true}
	i := scanSpec(shellInvocation(), v, 1, true, func(e *scanned) {
		switch {
		case e.opt == nil:
			// Not a bash option: another shell may read it, so a "c"
			// in a cluster is taken for -c, and the code for code.
			l.plain = false
			if l.unread == "" {
				l.unread = e.word
			}
			l.cmd = l.cmd || !strings.HasPrefix(e.word, "--") && e.word[0] == '-' && strings.ContainsRune(e.word[1:], 'c')
		case e.opt.kind == kShellCode:
			l.cmd = l.cmd || !e.plus
			l.plain = l.plain && !e.plus
		case e.spell == "-s":
			l.stdin, l.plain = true, false
		case e.opt.kind != kFlag || e.plus:
			l.plain = false
		}
	})
	if i < v.len() && v.vals[i] == "-" && v.literal(i) && !(v.vals[i-1] == "--" && v.literal(i-1)) {
		i++
	}
	l.operand = i
	if i >= v.len() {
		l.operand = -1
	}
	return l
}

// shellPlain reports whether the shell v reads its literal -c code (the
// word at operand) as the guard does, by plainShells.
func (m *cmdCall) shellPlain(v *argv, l shellLine) bool {
	sh, ok := plainShells()[v.vals[0][strings.LastIndexByte(v.vals[0], '/')+1:]]
	switch {
	case !ok:
		return false
	case sh.onlyC && (l.operand != 2 || v.vals[1] != "-c"):
		return false
	case !sh.onlyC && !l.plain:
		return false
	case sh.reads == nil:
		return true
	}
	f, err := m.w.parse(v.vals[l.operand])
	return err == nil && sh.reads(f)
}

func (m *cmdCall) eval(c *verdictAcc, v *argv) {
	if v.len() < 2 {
		c.add(permission.Ask, RuleCodeEval, "eval without text", true)
		return
	}
	for i := 1; i < v.len(); i++ {
		if !v.literal(i) {
			c.add(permission.Ask, RuleCodeEval, "evaluates text that is only known at run time", false)
			return
		}
	}
	// eval runs in this shell: a cd in its text is not followed.
	m.w.nestedCode(c, strings.Join(v.vals[1:], " "), RuleCodeEval, "eval", false, true)
}

// interpreter judges python, perl, node and the like by their specs
// (specs_interp.go): no line of one is allowed, and what decides is the
// strongest of what the scanner found (interpFinds). The files the
// options read and write are judged too.
func (m *cmdCall) interpreter(c *verdictAcc, name string, v *argv, x execCtx) {
	s, as := interpSpec(name)
	if v.len() == 1 {
		switch {
		case x.piped:
			c.add(permission.Ask, RuleCodePipeToShell, "runs a program read from its input, which is not analysed", false)
		case x.stdinRdr:
			// python3 <<'EOF' runs the here-document's text, as
			// python3 script.py runs the file's: it does not wait for a
			// person.
			c.add(permission.Ask, RuleCodeInline, interpStdinRdr, true)
		case bareInteractive()[name] || bareInteractive()[as]:
			c.add(permission.Deny, RuleDangerousInteractive, "starts an interactive interpreter that would hang waiting for a person", false)
		default:
			c.add(permission.Ask, RuleUnlisted, "not on the safe list", true)
		}
		return
	}
	l := interpLine{name: name}
	at := scanSpec(s, v, 1, true, l.option)
	switch {
	case l.ran:
		// The words left are the program's arguments.
	case at < v.len() && v.vals[at] == "-" && v.literal(at):
		l.found(ifStdin, "", "")
	case at < v.len():
		l.found(ifProgram, v.vals[at], "")
	case x.piped:
		l.found(ifStdin, "", "")
	case x.stdinRdr:
		l.found(ifStdinRdr, "", "")
	}
	f := interpFinds[l.best]
	c.addf(f.dec, ruleOr(f.rule, ArgsRule(name)), f.pre, l.what, f.post+l.note, f.over)
	m.moduleLine(c, name, v)
	for i := range l.paths {
		e := &l.paths[i]
		if e.opt.kind == kRead {
			m.readPath(c, e.val, v.flags[e.at], name)
		} else {
			m.writePath(c, e.val, v.flags[e.at], name)
		}
	}
}

// moduleSpecs are the modules an interpreter runs as its program
// (python3 -m NAME) whose command lines a spec of sysSpecs reads, by the
// command's name: the words after the module are judged as that
// command's own (python3 -m pytest --basetemp=src is pytest
// --basetemp=src).
var moduleSpecs = map[string]string{"pytest": "pytest"}

// moduleLine judges the words after the module of the interpreter name's
// command line v by the module's spec, when moduleSpecs has one.
func (m *cmdCall) moduleLine(c *verdictAcc, name string, v *argv) {
	at, mod := interpModule(name, v)
	cmd, ok := moduleSpecs[mod]
	if at < 0 || !ok {
		return
	}
	line := argv{vals: append([]string{cmd}, v.vals[at+1:]...), flags: append([]wordFlags{0}, v.flags[at+1:]...)}
	m.sysLeaf(c, cmd, sysSpecs()[cmd], &line, 1, true)
}

// interpSpec returns the spec that reads the interpreter name's command
// line, and the name it is the spec of (python3 for python3.12).
func interpSpec(name string) (*spec, string) {
	if s := interpSpecs()[name]; s != nil {
		return s, name
	}
	for _, p := range interpPrefixes {
		if strings.HasPrefix(name, p.prefix) {
			return interpSpecs()[p.spec], p.spec
		}
	}
	return interpSpecs()["python3"], "python3" // isInterpreter names no other
}

// interpModule returns the word holding the module the interpreter name's
// command line v runs as its program (python3 -m pip: the word pip, or
// -mpip), and the module; -1 without one.
func interpModule(name string, v *argv) (int, string) {
	at, mod := -1, ""
	s, _ := interpSpec(name)
	scanSpec(s, v, 1, true, func(e *scanned) {
		if at < 0 && e.opt != nil && e.opt.kind == kModule && e.opt.ends && v.literal(e.at) {
			at, mod = e.at, e.val
		}
	})
	return at, mod
}

// runsModules reports whether the interpreter name runs a module as its
// program (python -m), so that the module's own command line follows.
func runsModules(name string) bool {
	if !isInterpreter(name) {
		return false
	}
	s, _ := interpSpec(name)
	for r := range s.eachRow {
		if r.kind == kModule && s.endOpts != "" {
			return true
		}
	}
	return false
}

// interpFind is what the interpreter's model found on a command line; the
// greater decides.
type interpFind uint8

const (
	ifNone     interpFind = iota // options alone
	ifProgram                    // the program run: a script, a module (python -m)
	ifPreload                    // a module loaded before the program (node -r, perl -M)
	ifOption                     // an option not known to be harmless, or one whose row asks
	ifInline                     // inline program text
	ifStdinRdr                   // the program read from a redirection of the input
	ifStdin                      // the program read from the input
	ifPrompt                     // an interactive prompt
)

// interpLine is what the scanner found on an interpreter's command line.
type interpLine struct {
	name  string
	best  interpFind
	what  string // the word the reason of best names
	note  string // the option that gave best, as the reason ends with it
	ran   bool   // an option gave the program (python -c, -m; perl -e): the operands are its arguments
	paths []scanned
}

// found records f, naming what and the option opt, unless a stronger
// finding, or one as strong found first, decides.
func (l *interpLine) found(f interpFind, what, opt string) {
	if f <= l.best {
		return
	}
	l.best, l.what, l.note = f, what, ""
	if opt != "" {
		l.note = " (" + opt + ")"
	}
}

// asks records the option e, which asks for why.
func (l *interpLine) asks(e *scanned, why string) {
	if l.best < ifOption {
		l.found(ifOption, l.name+" option "+optWritten(e)+", which "+why, "")
	}
}

// option records one option the scanner found.
func (l *interpLine) option(e *scanned) {
	if e.problem != "" {
		l.asks(e, e.problem)
		return
	}
	switch o := e.opt; o.kind {
	case kFlag, kWord, kPattern, kVersion, kDir:
	case kInline:
		l.ran = true
		l.found(ifInline, "", e.spell)
	case kModule:
		switch {
		case !e.hasVal:
			l.asks(e, "lacks its value")
		case o.ends:
			l.ran = true
			l.found(ifProgram, e.val, e.spell)
		default:
			l.found(ifPreload, e.val, e.spell)
		}
	case kInteractive:
		l.found(ifPrompt, "", e.spell)
	case kRead:
		l.paths = append(l.paths, *e)
	case kWrite:
		if e.hasVal {
			l.paths = append(l.paths, *e)
		}
		l.asks(e, o.why)
	default:
		l.asks(e, orText(o.why, "is not classified"))
	}
}

// awkLine is what awk's options said.
type awkLine struct {
	progFile bool  // a program file, include file, extension or -e text: the program is not analysed
	progVals []int // the words holding their values, each read by awk
	vals     []int // the words taken as the values of options
	ops      []int // the operands
}

// option records one thing the scanner found on awk's command line.
func (l *awkLine) option(c *verdictAcc, v *argv, e *scanned) {
	switch {
	case e.opt == &dashDashOpt:
		return
	case e.opt == nil && e.problem == "":
		l.ops = append(l.ops, e.at)
		return
	case e.problem != "":
		// Every option awkSpec does not list can write files or wait.
		why := e.problem
		if why == "is not known to be harmless" {
			why = "can write files (--dump-variables, --profile, --pretty-print) or wait for a person (--debug)"
		}
		name, _, _ := strings.Cut(orText(e.spell, e.word), "=")
		c.add(permission.Ask, ArgsRule("awk"), "uses the awk option "+name+", which "+why, false)
		return
	}
	// A value in a word of its own (not attached: "-F:", "--assign=x").
	separate := e.hasVal && v.vals[e.at] == e.val
	if separate {
		l.vals = append(l.vals, e.at)
	}
	switch e.opt.kind {
	case kProgram:
		l.progFile = true
		if separate {
			l.progVals = append(l.progVals, e.at)
		}
	case kAsk:
		c.add(permission.Ask, RuleCodeAwk, "uses -W "+e.val+", which "+e.opt.why, false)
	}
}

// awk allows programs that only read their input and print.
func (m *cmdCall) awk(c *verdictAcc, v *argv) {
	var l awkLine
	scanSpec(awkSpec(), v, 1, false, func(e *scanned) { l.option(c, v, e) })
	ops := l.ops
	switch {
	case l.progFile:
		c.add(permission.Ask, RuleCodeAwk, "runs an awk program from a file or extension, which is not analysed", false)
		ops = append(l.progVals, ops...)
	case len(ops) == 0:
		c.add(permission.Ask, RuleCodeAwk, "no awk program given", false)
		return
	default:
		p := ops[0]
		ops = ops[1:]
		awkProgram(c, v, p)
		// The word scanned as the value of an option after the program
		// is a file awk reads.
		for _, i := range l.vals {
			if i > p && !isAssignWord(v.vals[i]) {
				m.readPath(c, v.vals[i], v.flags[i], "awk")
			}
		}
	}
	for _, i := range ops {
		if !isAssignWord(v.vals[i]) {
			m.readPath(c, v.vals[i], v.flags[i], "awk")
		}
	}
	c.allow(RuleSafe, "awk program without system(), pipes or redirection")
}

// awkProgram judges the awk program in the word at p.
func awkProgram(c *verdictAcc, v *argv, p int) {
	if !v.literal(p) {
		c.add(permission.Ask, RuleCodeAwk, "awk program is only known at run time", false)
		return
	}
	if why := awkUnsafe(v.vals[p]); why != "" {
		c.add(permission.Ask, RuleCodeAwk, "awk program "+why, false)
	} else if awkReadsEnv(v.vals[p]) {
		environ(c, "awk program reads ENVIRON, the environment")
	}
}

func isAssignWord(s string) bool {
	eq := strings.IndexByte(s, '=')
	if eq <= 0 {
		return false
	}
	for i := 0; i < eq; i++ {
		ch := s[i]
		if !(ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || i > 0 && ch >= '0' && ch <= '9') {
			return false
		}
	}
	return true
}

// awkUnsafe explains why an awk program may run commands, read other
// files or write files, or returns "". It is conservative: "|" and ">"
// inside an action are taken as pipes and redirections, and "<" as
// getline from a file when the program uses getline.
func awkUnsafe(p string) string {
	if why := awkNamesUnsafe(p); why != "" {
		return why
	}
	s := awkScanner{p: p, getline: strings.Contains(p, "getline"), budget: awkBranches}
	return s.scan(0, awkState{})
}

// awkName is one row of the names that make an awk program reach beyond
// its input and output, checked on the raw text: a string that holds them
// is rare, and nothing can hide them.
type awkName struct {
	name string
	call bool // only when called: the name, blanks or escaped newlines, "("
	why  string
}

// awkNamesUnsafe explains the first use of a name of awkNames in p, or
// returns "".
func awkNamesUnsafe(p string) string {
	for i := 0; i < len(p); i++ {
		if i > 0 && isWordByte(p[i-1]) {
			continue
		}
		for _, n := range awkNames {
			if !strings.HasPrefix(p[i:], n.name) {
				continue
			}
			rest := p[i+len(n.name):]
			if n.call && strings.HasPrefix(strings.TrimLeft(rest, " \t\\\n"), "(") ||
				!n.call && (rest == "" || !isWordByte(rest[0])) {
				return n.why
			}
		}
	}
	return ""
}

// awkDanger is one row of the tokens by which an awk program runs a
// command, reads a file or writes one, and when each does.
type awkDanger struct {
	tok  byte
	when awkWhen
	why  string
}

// awkWhen is when a token of awkDangers is dangerous.
type awkWhen uint8

const (
	awkAlways   awkWhen = iota // wherever it stands
	awkInAction                // inside an action, outside parentheses: print > "file" (a pattern's ">" compares)
	awkGetline                 // when the program uses getline: getline < "file"
)

// awkOp is a two-byte operator, read as one token; ambiguous says that a
// "/" after it may be either division or a regular expression.
type awkOp struct {
	tok       string
	ambiguous bool
}

// awkBranches bounds how many readings of an ambiguous "/" (division or
// the start of a regular expression) awkScan tries.
const awkBranches = 64

type awkState struct {
	brace, paren int
	operand      bool // the last token ends an operand: "/" is division
	ambiguous    bool // the last token may or may not end an operand
}

// after is the state after a token that ends an operand (or not), and
// is not ambiguous.
func (st awkState) after(operand bool) awkState {
	st.operand, st.ambiguous = operand, false
	return st
}

// awkScanner tokenises an awk program p and explains the first token of
// awkDangers it finds where it is dangerous. Where "/" may be division
// or start a regular expression, both readings are scanned, and a
// regular expression is read both with and without bracket expressions
// protecting "/", so that text inside a regular expression (a quote, a #)
// cannot hide code from the scan; budget bounds the readings.
type awkScanner struct {
	p       string
	getline bool // the program uses getline: "<" reads a file
	budget  int
}

// scan reads p from i in state st.
func (s *awkScanner) scan(i int, st awkState) string {
	for why := ""; i < len(s.p); {
		if i, st, why = s.token(i, st); why != "" {
			return why
		}
	}
	return ""
}

// token reads the token at i and returns where the next one starts and
// the state after it, or why the program is not safe.
func (s *awkScanner) token(i int, st awkState) (int, awkState, string) {
	p := s.p
	switch ch := p[i]; {
	case ch == ' ' || ch == '\t':
		return i + 1, st, ""
	case ch == '\\' && i+1 < len(p) && (p[i+1] == '\n' || p[i+1] == '\r'):
		return i + 2, st, ""
	case ch == '"':
		return s.str(i, st)
	case ch == '#':
		return awkLineEnd(p, i), st, ""
	case ch == '/':
		return s.slash(i, st)
	case isWordByte(ch) || ch == '.' && i+1 < len(p) && p[i+1] >= '0' && p[i+1] <= '9':
		return s.word(i, st)
	}
	for _, op := range awkOps2 {
		if strings.HasPrefix(p[i:], op.tok) {
			st = st.after(false)
			st.ambiguous = op.ambiguous
			return i + len(op.tok), st, ""
		}
	}
	for _, d := range awkDangers {
		if p[i] == d.tok && s.dangerous(d.when, st) {
			return i, st, d.why
		}
	}
	return i + 1, awkPunct(p[i], st), ""
}

// dangerous reports whether a token of awkDangers is dangerous in st.
func (s *awkScanner) dangerous(w awkWhen, st awkState) bool {
	switch w {
	case awkInAction:
		return st.brace > 0 && st.paren <= 0
	case awkGetline:
		return s.getline
	}
	return true
}

// awkPunct is the state after the one-byte token ch.
func awkPunct(ch byte, st awkState) awkState {
	switch ch {
	case ')':
		st.paren--
		return st.after(true)
	case ']':
		return st.after(true)
	case '(':
		st.paren++
	case '{':
		st.brace++
	case '}':
		st.brace--
	case '$':
		st = st.after(false)
		st.ambiguous = true // $x / 2, or $ /re/
		return st
	}
	return st.after(false)
}

// str reads the string at i.
func (s *awkScanner) str(i int, st awkState) (int, awkState, string) {
	p := s.p
	for i++; i < len(p) && p[i] != '"'; i++ {
		if p[i] == '\\' {
			i++
		}
	}
	if i >= len(p) {
		return i, st, "has an unterminated string"
	}
	return i + 1, st.after(true), ""
}

// word reads the name, keyword or number at i. After a keyword (or a
// built-in called without parentheses) "/" may start a regular expression.
func (s *awkScanner) word(i int, st awkState) (int, awkState, string) {
	p := s.p
	j := i
	for j < len(p) && (isWordByte(p[j]) || p[j] == '.') {
		j++
	}
	st = st.after(true)
	if w := p[i:j]; (w[0] < '0' || w[0] > '9') && awkKeywords()[w] {
		st.operand, st.ambiguous = false, true
	}
	return j, st, ""
}

// slash reads the "/" at i: a regular expression where the state allows
// one, division where it allows that; where both are possible, every
// reading but the last is scanned to the end on its own.
func (s *awkScanner) slash(i int, st awkState) (int, awkState, string) {
	regex := !st.operand || st.ambiguous
	division := st.operand || st.ambiguous
	if !regex {
		return i + 1, st.after(false), ""
	}
	ends := awkRegexEnds(s.p, i+1)
	if len(ends) == 0 && !division {
		return i, st, "has a regular expression that cannot be parsed"
	}
	for k, e := range ends {
		if division || k > 0 {
			if s.budget--; s.budget < 0 {
				return i, st, "is too complex to analyse"
			}
		}
		if !division && k == len(ends)-1 {
			return e, st.after(true), "" // the last reading goes on here
		}
		if why := s.scan(e, st.after(true)); why != "" {
			return i, st, why
		}
	}
	return i + 1, st.after(false), ""
}

// awkLineEnd returns the index of the newline that ends the line at i, or
// len(p).
func awkLineEnd(p string, i int) int {
	if k := strings.IndexByte(p[i:], '\n'); k >= 0 {
		return i + k
	}
	return len(p)
}

// awkRegexEnds returns the indexes just after the "/" that ends a regular
// expression starting at p[i:], read with and without bracket expressions
// protecting "/" (awk implementations differ). A regular expression ends
// at the line's end at the latest; none is returned if it is unterminated.
func awkRegexEnds(p string, i int) []int {
	var ends []int
	for _, brackets := range []bool{true, false} {
		if e := awkRegexEnd(p, i, brackets); e >= 0 && !slices.Contains(ends, e) {
			ends = append(ends, e)
		}
	}
	return ends
}

func awkRegexEnd(p string, i int, brackets bool) int {
	for i < len(p) {
		switch ch := p[i]; {
		case ch == '\n':
			return -1
		case ch == '\\':
			i += 2
		case ch == '/':
			return i + 1
		case ch == '[' && brackets:
			if i = bracketExprEnd(p, i+1, true); i < 0 {
				return -1
			}
		default:
			i++
		}
	}
	return -1
}

func isWordByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

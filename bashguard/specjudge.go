package bashguard

import (
	"path"
	"slices"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// The engine over the specs: what the scanner found on a command line,
// turned into the command's factors by the kind of each option.

// specFacts is what the options of one command line said, for the model
// of the command (its operands, its output).
type specFacts struct {
	from     int       // the index of the first word the spec read
	ops      []int     // the indexes of the operands, in order
	dashes   int       // how many operands came before "--", or -1 without one
	seen     []scanned // the options given, in order
	done     []int     // operands the command's model has judged itself
	probeOps bool      // the operands are only looked at (names printed), not read
	dirs     []int     // the indexes of the words holding the values of kDir options
	content  bool      // an option of kind kContent was given
	format   bool      // an option of kind kFormat was given
	toClass  bool      // the command's model gives the line to the command's class (a byClass spec)
	unmet    bool      // the line failed a query row of its spec (judgeQuery)
}

// has reports whether one of the options names (as resolved) was given.
func (f *specFacts) has(names ...string) bool {
	return f.option(names...) != nil
}

// option returns the last of the options names given, or nil.
func (f *specFacts) option(names ...string) *scanned {
	for i := len(f.seen) - 1; i >= 0; i-- {
		if slices.Contains(names, f.seen[i].spell) {
			return &f.seen[i]
		}
	}
	return nil
}

// hasKind reports whether an option of kind k was given.
func (f *specFacts) hasKind(k kind) bool {
	return slices.ContainsFunc(f.seen, func(e scanned) bool { return e.opt != nil && e.opt.kind == k })
}

// handle marks the operand at i as judged by the command's model;
// unhandle gives it back to the generic reading.
func (f *specFacts) handle(i int) { f.done = append(f.done, i) }
func (f *specFacts) unhandle(i int) {
	f.done = slices.DeleteFunc(f.done, func(k int) bool { return k == i })
}

// handled reports whether the model judged the operand at i.
func (f *specFacts) handled(i int) bool { return slices.Contains(f.done, i) }

// printsContent reports whether the output of the command line carries
// the content of files: an option asked for it, or the command prints it
// unless an option asks for a summary instead.
func (f *specFacts) printsContent(s *spec) bool {
	return f.content || s.content && !f.format
}

// overMax reports a line of s that its tooMany asks for: more operands
// than its maxOps, and none of its listing options ("git config NAME
// VALUE").
func (f *specFacts) overMax(s *spec) bool {
	return s.tooMany != "" && len(f.ops) > s.maxOps && !f.has(s.listing...)
}

// sets reports whether the command line changes what the command of s
// keeps: overMax, or an option of kind kChange.
func (f *specFacts) sets(s *spec) bool { return f.overMax(s) || f.hasKind(kChange) }

// writeStores judges as writes the files the options of kind kStore
// name, where the line sets (git config -f FILE NAME VALUE): the
// scanner judged them as reads.
func (m *cmdCall) writeStores(c *verdictAcc, cmd string, s *spec, v *argv, f *specFacts) {
	if !f.sets(s) {
		return
	}
	for i := range f.seen {
		if e := &f.seen[i]; e.opt.kind == kStore && e.hasVal {
			m.writePath(c, e.val, v.flags[e.at], cmd)
		}
	}
}

// afterDashes returns the operands after "--" (none without one).
func (f *specFacts) afterDashes() []int {
	if f.dashes < 0 {
		return nil
	}
	return f.ops[f.dashes:]
}

// judgeSpec reads the command line v from the word at from on by the spec
// s of the command cmd, recording a factor for every option that is not
// harmless, and returns what the options said.
func (m *cmdCall) judgeSpec(c *verdictAcc, cmd string, s *spec, v *argv, from int) specFacts {
	f := specFacts{dashes: -1}
	if s.endless != "" {
		c.endless = s.name + " " + s.endless
	}
	scanSpec(s, v, from, false, func(e *scanned) {
		switch {
		case e.word == "--" && e.opt == &dashDashOpt:
			f.dashes = len(f.ops)
		case e.opt == nil && e.problem == "":
			f.ops = append(f.ops, e.at)
		default:
			m.specOption(c, cmd, s, v, e, &f)
		}
	})
	return f
}

// specOption records the factor of one option e of the command cmd,
// found by the spec s, and what it says in f (which may be nil).
func (m *cmdCall) specOption(c *verdictAcc, cmd string, s *spec, v *argv, e *scanned, f *specFacts) {
	if e.problem != "" {
		c.addf(permission.Ask, ArgsRule(cmd), "uses the "+s.name+" option ", optWritten(e), ", which "+e.problem, false)
		return
	}
	if f != nil {
		f.seen = append(f.seen, *e)
	}
	if e = m.expandedOption(c, cmd, s, e); e == nil {
		return
	}
	o := e.opt
	vf := v.flags[e.at]
	switch o.kind {
	case kFlag, kWord, kPattern, kRecurse, kRecurseFollow, kDirectories, kFollow, kNoFollow, kHidden, kUnrestricted,
		kInclude, kExclude, kExcludeDir, kVersion, kDelim, kSplit, kSumList, kCommit, kRenames, kInputArg:
	case kRead, kStore, kDockerfile, kComposeFile: // kStore's write: writeStores
		m.readPath(c, e.val, vf, cmd)
	case kReadOrJSON:
		if strings.HasPrefix(strings.TrimSpace(e.val), "{") {
			c.addNamed(e.spell, permission.Ask, ArgsRule(cmd), "uses the "+s.name+" option ", optWritten(e),
				", whose JSON value is a configuration that names the modules to load, which are not read here")
			break
		}
		m.readPath(c, e.val, vf, cmd)
	case kProbe:
		m.probePath(c, e.val, vf, cmd)
	case kList:
		m.listFile(c, e.val, vf, cmd, '\n')
	case kList0:
		m.listFile(c, e.val, vf, cmd, 0)
	case kWrite:
		// The option's own reason first: it says more than the path's.
		c.addf(permission.Ask, WriteRule(cmd), s.name+" "+optWritten(e)+" writes ", orText(o.why, "a file"), "", true)
		if e.hasVal {
			m.writePath(c, e.val, vf, cmd)
		}
	case kProgram:
		c.addNamed(e.spell, permission.Ask, ArgsRule(cmd), "uses the "+s.name+" option ", optWritten(e), ", which "+orText(o.why, "runs a program"))

	case kChange:
		c.addf(permission.Ask, ArgsRule(cmd), s.name+" "+optWritten(e)+" ", orText(o.why, "changes state"), "", true)
	case kWriteOrPipe, kBind, kFieldFile, kKeyFiles, kURLOrFile, kInterpreter, kClientScript, kScriptFile, kBuildSecret, kBuildSSH, kBuildOutput, kBuildContext, kTypedWrite, kVolumeOpt, kSSHOption:
		m.specValue(c, cmd, s, v, e)
	case kMore:
		c.addf(permission.Ask, ArgsRule(cmd), s.name+" "+optWritten(e)+" ", orText(o.why, "does more than the command's query"), "", true)
	case kEndless:
		why := s.name + " " + optWritten(e) + " " + orText(o.why, "runs until it is stopped")
		c.addf(permission.Ask, ArgsRule(cmd), why, "", "", true)
		c.endless = why
	case kContent:
		if f != nil {
			f.content = true
		}
	case kFormat:
		if f != nil {
			f.format = true
		}
	case kEnv:
		what := s.name + " " + optWritten(e)
		switch e.bsd {
		case bsdWord:
			what = s.name + " " + e.word
		case bsdAgain:
			what = s.name + " " + e.word + " is read as BSD options, whose " + e.spell
		}
		environ(c, what+" "+orText(o.why, "prints the environment"))
	case kDeny:
		rule := RuleDangerousRecursiveCritical
		if len(s.dangers) > 0 {
			rule = s.dangers[0].rule
		}
		c.add(permission.Deny, rule, e.spell+" "+orText(o.why, "is denied"), false)
	case kAsk:
		c.addf(permission.Ask, ArgsRule(cmd), "uses the "+s.name+" option ", optWritten(e), ", which "+orText(o.why, "is not known to be harmless"), false)
	case kRangeFile:
		if f != nil {
			f.content = true
		}
		file := e.val
		if j := strings.LastIndexByte(file, ':'); j >= 0 {
			file = file[j+1:]
		}
		m.readPath(c, file, vf, cmd)
	case kDir:
		if f != nil && e.hasVal {
			f.dirs = append(f.dirs, e.at)
		}
	case kRepo:
		c.addf(permission.Ask, RuleGitRepository, "uses ", optWritten(e), ", so "+cmd+" works on another repository than the workspace's, whose config can run programs", false)
	case kSetProgram:
		if e.hasVal {
			c.addf(permission.Ask, ArgsRule(cmd), "uses the "+s.name+" option ", optWritten(e), ", which "+orText(o.why, "names the programs it runs"), false)
		}
	case kTargetDir:
		m.writePath(c, e.val, vf, cmd) // and the command's model writes its operands into it
	case kExecOps, kLookup, kClearEnv, kUnsetVar, kFuncs:
		// What the command's model reads its operands as, and the
		// environment it runs them in (model_wrap.go).
	case kSplitArgs:
		c.addf(permission.Ask, RuleCodeEnvSplit, "splits a string into a command line (", o.name, "), which is not analysed", false)
	case kShellCode:
		m.shellCode(c, cmd, s, e, v.literal(e.at))
	case kSetVar:
		setVar(c, e, v.literal(e.at))
	case kAssign:
		assignName(c, cmd, e.val, v.literal(e.at))
	case kToolFlags:
		if why := goToolFlagsWhy(e.val); e.hasVal && why != "" {
			c.addf(permission.Ask, ArgsRule(cmd), "uses the "+s.name+" option ", optWritten(e), ", whose value "+why, false)
		}
	case kCallback:
		c.add(permission.Ask, RuleCodeCallback, s.name+" "+e.spell+" runs a callback command for the lines it reads", false)
	default:
		c.addf(permission.Ask, ArgsRule(cmd), "uses the "+s.name+" option ", optWritten(e), ", which is not classified", false)
	}
}

// readAfterFirst reads the word after the first operand of the line v,
// when it spells one of the options of s.afterFirst, as that option given
// with the operand after it for its value (flock FILE -c CODE); both are
// then judged, and are no operands.
func (m *cmdCall) readAfterFirst(c *verdictAcc, cmd string, s *spec, v *argv, f *specFacts) {
	if s.afterFirst == "" || len(f.ops) < 3 || !v.literal(f.ops[1]) || !spelt(s.afterFirst, v.vals[f.ops[1]]) {
		return
	}
	w, at := v.vals[f.ops[1]], f.ops[2]
	sp := s.longExact(w)
	if len(w) == 2 {
		sp = s.tables().short[w[1]]
	}
	e := scanned{word: w, spell: sp.opt.name, opt: sp.opt, val: v.vals[at], hasVal: true, next: true, at: at}
	m.specOption(c, cmd, s, v, &e, f)
	f.handle(f.ops[1])
	f.handle(at)
}

// dashDashOpt is the "--" that ends the options, as judgeSpec sees it.
var dashDashOpt = option{name: "--", kind: kFlag}

// specValue records the factor of one option e of the command cmd whose
// kind reads its value (kWriteOrPipe, kBind and the other container kinds, kFieldFile, kClientScript,
// kScriptFile), found by the spec s.
func (m *cmdCall) specValue(c *verdictAcc, cmd string, s *spec, v *argv, e *scanned) {
	vf := v.flags[e.at]
	switch e.opt.kind {
	case kWriteOrPipe:
		if vf&wDynamic != 0 {
			c.addNamed(e.spell, permission.Ask, ArgsRule(cmd), "uses the "+s.name+" option ", optWritten(e), ", whose value, only known at run time, may pipe the output to a command it runs (|command)")
			break
		}
		if strings.HasPrefix(strings.TrimLeft(e.val, " \t"), "|") {
			c.addNamed(e.spell, permission.Ask, ArgsRule(cmd), "uses the "+s.name+" option ", optWritten(e), ", which pipes the output to a command it runs")
			break
		}
		c.addf(permission.Ask, WriteRule(cmd), s.name+" "+optWritten(e)+" writes ", "a file", "", true)
		m.writePath(c, e.val, vf, cmd)
	case kScriptFile:
		c.addNamed(e.spell, permission.Ask, ArgsRule(cmd), "uses the "+s.name+" option ", optWritten(e), ", which "+orText(e.opt.why, "runs the script of a file"))
		m.readPath(c, e.val, vf, cmd)
	case kFieldFile, kURLOrFile, kKeyFiles:
		for _, p := range valueFiles(e.opt.kind, e.val) {
			m.readPath(c, p, vf, cmd)
		}
	case kInterpreter:
		if vf&wDynamic != 0 || strings.Contains(e.val, "/") {
			c.addNamed(e.spell, permission.Ask, ArgsRule(cmd), "uses the "+s.name+" option ", optWritten(e), ", which runs the interpreter its path names")
		}
	case kSSHOption:
		if vf&wDynamic != 0 || sshExecKeys()[sshOptKey(e.val)] {
			c.addNamed(e.spell, permission.Ask, ArgsRule(cmd), "uses the "+s.name+" option ", optWritten(e), ", whose ssh option runs a program or reads configuration")
		}
	case kTypedWrite:
		c.addf(permission.Ask, WriteRule(cmd), s.name+" "+optWritten(e)+" writes ", "a file", "", true)
		m.writePath(c, e.val, vf, cmd)
		if p, typed := untyped(e.val); typed {
			if p, ok := m.toolPath(c, cmd, s, e, p); ok {
				m.writePath(c, p, vf, cmd)
			}
		}
	case kBind, kBuildSecret, kBuildSSH, kBuildOutput, kBuildContext, kVolumeOpt:
		if vf&wDynamic != 0 {
			c.addNamed(e.spell, permission.Ask, ArgsRule(cmd), "uses the "+s.name+" option ", optWritten(e), ", whose value, only known at run time, may name any path of this machine")
			break
		}
		paths, ok := containerPaths(e.opt.kind, e.spell, e.val)
		if !ok {
			c.addNamed(e.spell, permission.Ask, ArgsRule(cmd), "uses the "+s.name+" option ", optWritten(e), ", whose value does not read as its list of fields, and may name any path of this machine")
			break
		}
		m.hostPaths(c, cmd, paths, vf)
	case kClientScript:
		runs := clientScriptRuns
		if s.scriptRuns != nil {
			runs = s.scriptRuns
		}
		if why := runs(e.val, vf); why != "" {
			c.addNamed(e.spell, permission.Ask, ArgsRule(cmd), "uses the "+s.name+" option ", optWritten(e), ", whose script "+why)
			break
		}
		c.addf(permission.Ask, ArgsRule(cmd), s.name+" "+optWritten(e)+" ", orText(e.opt.why, "runs a script on the server"), "", true)
	}
}

// valueFiles are the files of this machine the value val of an option of
// kind k names, which the program reads: KEY=@FILE's (kFieldFile, gh api
// -F), a file: URL's or a word's without a scheme (kURLOrFile; a URL's
// host is the host reader's), each KEY=PATH's (kKeyFiles, helm
// --set-file).
func valueFiles(k kind, val string) []string {
	var out []string
	switch k {
	case kFieldFile:
		if _, file, ok := strings.Cut(val, "=@"); ok && file != "-" {
			out = append(out, file)
		}
	case kURLOrFile:
		if p, ok := urlOrFile(val); ok {
			out = append(out, p)
		}
	case kKeyFiles:
		for field := range strings.SplitSeq(val, ",") {
			if _, file, ok := strings.Cut(field, "="); ok {
				out = append(out, file)
			}
		}
	}
	return out
}

// optWritten names the option e as a reason does: its spelling, and how
// it was written where that differs ("-O (in -iOless)").
func optWritten(e *scanned) string {
	switch {
	case e.spell == "":
		return e.word
	case e.word == e.spell || e.word == e.spell+"="+e.val:
		return e.spell
	}
	return e.spell + " (written " + e.word + ")"
}

func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// setVar records that a command sets the variable e names in the
// environment of the commands it runs (xargs --process-slot-var):
// --process-slot-var=PATH changes where they are found.
func setVar(c *verdictAcc, e *scanned, literal bool) {
	if !literal {
		c.add(permission.Ask, RuleEnvAssign, e.opt.name+" assigns a variable whose name is only known at run time", false)
		return
	}
	if why := riskyVar(e.val, true); why != "" {
		c.add(permission.Ask, RuleEnvAssign, e.opt.name+" assigns "+e.val+", which "+why, false)
	}
}

// judgeQuery reads the line v (its words from from on, as judgeSpec
// found them in f) by the query rows of s, in order: the first row the
// line fails records its finding, and judgeQuery reports false; it
// reports true when the line meets every row.
func judgeQuery(c *verdictAcc, s *spec, v *argv, from int, f *specFacts) bool {
	for i := range s.query {
		q := &s.query[i]
		met := true
		q.check(v, from, f, func(what string) {
			met = false
			switch q.fail {
			case fClass:
				f.toClass = true
			case fPlain:
				c.add(permission.Ask, RuleUnlisted, strings.ReplaceAll(q.why, "%s", what), true)
			case fArgs, fArgsByRule:
				c.add(permission.Ask, ArgsRule(s.name), strings.ReplaceAll(q.why, "%s", what), q.fail == fArgsByRule)
			default:
				c.addf(permission.Ask, RuleUnlisted, "not on the safe list (", s.name+" "+strings.ReplaceAll(q.why, "%s", what), ")", true)
			}
		})
		if !met {
			return false
		}
	}
	return true
}

// check tests the line v (from from on, its options and operands in f)
// by q, calling fail with what failed for each failure.
func (q *cond) check(v *argv, from int, f *specFacts, fail func(what string)) {
	if q.unless != "" && f.hasSpell(q.unless) {
		return
	}
	switch q.test {
	case cNeeds, cLastIn, cEachIn, cOneOf, cLocal:
		q.checkOptions(f, fail)
	case cFirstIn, cNoneIn, cOperands, cMaxOps, cPlainOps, cPrefixed:
		q.checkOperands(v, from, f, fail)
	case cForms:
		if !f.meetsForms(q.values, v) {
			fail(strings.Join(v.vals[from:], " "))
		}
	default:
		fail(strings.Join(v.vals[from:], " "))
	}
}

// checkOptions is check for the tests of the options given.
func (q *cond) checkOptions(f *specFacts, fail func(what string)) {
	n, last := 0, (*scanned)(nil)
	for i := range f.seen {
		e := &f.seen[i]
		if !spelt(q.opts, e.spell) {
			continue
		}
		n, last = n+1, e
		if q.test == cEachIn && !slices.Contains(q.values, e.val) {
			fail(e.spell + "=" + e.val)
			return
		}
		if q.test == cLocal && hostFile(e.val) && !f.hasKind(kVersion) {
			fail(e.spell + " " + e.val)
			return
		}
	}
	version := f.hasKind(kVersion)
	switch {
	case q.test == cNeeds && n == 0 && !version, q.test == cOneOf && n != 1 && !version:
		fail("")
	case q.test == cLastIn && last != nil && !slices.Contains(q.values, last.val):
		fail(last.spell + "=" + last.val)
	}
}

// checkOperands is check for the tests of the operands.
func (q *cond) checkOperands(v *argv, from int, f *specFacts, fail func(what string)) {
	line := func() string { return strings.Join(v.vals[from:], " ") }
	switch q.test {
	case cFirstIn:
		if len(f.ops) > 0 && !slices.Contains(q.values, v.vals[f.ops[0]]) {
			fail(v.vals[f.ops[0]])
		}
	case cNoneIn:
		for _, i := range f.ops {
			if slices.Contains(q.values, v.vals[i]) {
				fail(v.vals[i])
			}
		}
	case cOperands:
		if len(f.ops) == 0 && !f.hasSpell(q.opts) {
			fail("")
		}
	case cMaxOps:
		if len(f.ops) > q.n {
			fail(line())
		}
	case cPlainOps:
		if slices.ContainsFunc(f.ops, func(i int) bool { return strings.HasPrefix(v.vals[i], "-") }) {
			fail(line())
		}
	case cPrefixed:
		for _, i := range f.ops {
			if !slices.ContainsFunc(q.values, func(p string) bool { return strings.HasPrefix(v.vals[i], p) }) {
				fail(v.vals[i])
			}
		}
	}
}

// hostFile reports whether the value p names a file on another host,
// HOST:FILE: a colon before any slash.
func hostFile(p string) bool {
	host, _, remote := strings.Cut(p, ":")
	return remote && !strings.Contains(host, "/")
}

// meetsForms reports whether the line v, whose options and operands are
// in f, is one of forms (cForms). A line that gives an option that prints
// the version and no operand is read without its version options, and
// meets the empty form too: the program prints its version and stops.
func (f *specFacts) meetsForms(forms []string, v *argv) bool {
	version := f.hasKind(kVersion) && len(f.ops) == 0
	if version && f.meetsForm("", v, true) {
		return true
	}
	return slices.ContainsFunc(forms, func(form string) bool { return f.meetsForm(form, v, version) })
}

// meetsForm reports whether the line v, whose options and operands are
// in f, is the form, a synopsis line: words that begin with "-" are
// options, given as they are spelt ("--status-all"); the other words are
// operands, in order, each the word itself ("status") or a placeholder of
// formWords ("NAME"). A word in brackets may be left out ("[-l]"), and a
// placeholder followed by "..." stands for one operand or more. The line
// meets it when its options are the form's (formOptions) and its
// operands are (formOperands).
func (f *specFacts) meetsForm(form string, v *argv, noVersion bool) bool {
	return f.formOptions(form, noVersion) && f.formOperands(form, v)
}

// formOptions reports whether every option given is one of the form's
// (those that print the version aside, when noVersion is set), and every
// option of the form not in brackets is given.
func (f *specFacts) formOptions(form string, noVersion bool) bool {
	for i := range f.seen {
		e := &f.seen[i]
		if !(noVersion && e.opt.kind == kVersion) && !formOption(form, e.spell) {
			return false
		}
	}
	for w := range strings.FieldsSeq(form) {
		if strings.HasPrefix(w, "-") && !f.hasSpell(w) {
			return false
		}
	}
	return true
}

// formOperands reports whether the operands of the line v are those of
// the form, in order. Each word of the form takes the operands it
// matches from the left, without going back: an optional word takes an
// operand that a later word would have matched.
func (f *specFacts) formOperands(form string, v *argv) bool {
	k := 0 // the next operand to match
	for w := range strings.FieldsSeq(form) {
		inner, optional := strings.CutPrefix(w, "[")
		inner = strings.TrimSuffix(inner, "]")
		if strings.HasPrefix(inner, "-") {
			continue // an option: formOptions
		}
		word, many := strings.CutSuffix(inner, "...")
		n := 0
		for k < len(f.ops) && (n == 0 || many) && formWord(word, v.vals[f.ops[k]]) {
			k, n = k+1, n+1
		}
		if n == 0 && !optional {
			return false
		}
	}
	return k == len(f.ops)
}

// formOption reports whether the option spelt opt is one of the form's,
// with or without brackets.
func formOption(form, opt string) bool {
	for w := range strings.FieldsSeq(form) {
		if strings.TrimSuffix(strings.TrimPrefix(w, "["), "]") == opt {
			return true
		}
	}
	return false
}

// formWord reports whether the operand op is the word of a form: the
// word itself, or an operand of the placeholder it names in formWords.
func formWord(word, op string) bool {
	if is, ok := formWords()[word]; ok {
		return is(op)
	}
	return op == word
}

// specCheck reads the line v (from from on, as judgeSpec found it in f)
// by the query rows of s, and then, if it meets them, by the spec's
// check.
func (m *cmdCall) specCheck(c *verdictAcc, s *spec, v *argv, from int, f *specFacts) {
	f.unmet = !judgeQuery(c, s, v, from, f)
	if !f.unmet && s.check != nil {
		s.check(m, c, s, v, f)
	}
}

// operandKind is the kind of the k-th operand of a line of s, whose
// options said f: by its position in a line that is the spec's query
// (leadOps); the first, unless an option of patternBy gives what it
// would be (firstOperand); or the spec's operands.
func (s *spec) operandKind(k int, f *specFacts) kind {
	switch {
	case k < len(s.leadOps) && !f.unmet:
		return s.leadOps[k]
	case k == 0 && s.firstOperand != kUnknown && !f.has(s.patternBy...):
		return s.firstOperand
	}
	return s.operands
}

// hasSpell reports whether one of the options spelt in opts (separated
// by spaces) was given.
func (f *specFacts) hasSpell(opts string) bool {
	for i := range f.seen {
		if spelt(opts, f.seen[i].spell) {
			return true
		}
	}
	return false
}

// spelt reports whether the spelling w is one of opts, separated by
// spaces.
func spelt(opts, w string) bool {
	for o := range strings.FieldsSeq(opts) {
		if o == w {
			return true
		}
	}
	return false
}

// hostPaths judges the paths of this machine that a container tool's
// option or operand names (containerPaths) as the reads and writes they
// stand for: a tree read whole is walked as a recursive read's, its
// secrets and its links too, which resolve in the container.
func (m *cmdCall) hostPaths(c *verdictAcc, cmd string, paths []hostPath, vf wordFlags) {
	for _, p := range paths {
		if p.read {
			m.readPath(c, p.path, vf, cmd)
		}
		if p.write {
			m.writePath(c, p.path, vf, cmd)
		}
		if p.tree {
			w := walkOpts{recursive: true, content: true, hidden: true, follow: p.follow}
			if dir := p.path; p.context && vf&wDynamic == 0 && (path.IsAbs(dir) || m.dir != "") {
				if !path.IsAbs(dir) {
					dir = path.Join(m.dir, dir)
				}
				w.ignore = m.readDockerIgnore(path.Clean(dir))
			}
			m.walkRoot(c, p.path, vf, cmd, w)
		}
	}
}

// untyped returns the path of a value of kind kTypedWrite without its
// TYPES: prefix, words of letters, digits and "_" joined by ",", and
// whether it had one.
func untyped(val string) (string, bool) {
	types, p, ok := strings.Cut(val, ":")
	if !ok || types == "" {
		return val, false
	}
	for _, r := range types {
		if r != ',' && r != '_' && !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
			return val, false
		}
	}
	return p, true
}

// expandedOption is the option e with its path value as the program
// expands it (spec.expandsPaths), or nil when the path is not known here
// (the Ask is recorded).
func (m *cmdCall) expandedOption(c *verdictAcc, cmd string, s *spec, e *scanned) *scanned {
	if !s.expandsPaths || !e.hasVal || !toolPathKinds[e.opt.kind] {
		return e
	}
	p, ok := m.toolPath(c, cmd, s, e, e.val)
	if !ok {
		return nil
	}
	ex := *e
	ex.val = p
	return &ex
}

// toolPath is the path p of the option e as the program of s expands it,
// and whether it is known here; where it is not, the Ask naming the
// option is recorded.
func (m *cmdCall) toolPath(c *verdictAcc, cmd string, s *spec, e *scanned, p string) (string, bool) {
	if !s.expandsPaths {
		return p, true
	}
	p, why := expandToolPath(p, m.pol.Home)
	if why != "" {
		c.addNamed(e.spell, permission.Ask, ArgsRule(cmd), "uses the "+s.name+" option ", optWritten(e), ", whose path "+why)
		return "", false
	}
	return p, true
}

// toolPathKinds are the kinds whose value is a path, which a tool that
// expands its paths itself (spec.expandsPaths) reads expanded.
var toolPathKinds = map[kind]bool{kRead: true, kStore: true, kList: true, kList0: true, kWrite: true, kTypedWrite: true}

// expandToolPath expands a path as yt-dlp's expand_path does: "~" and
// "~/" are the home directory home; a path with "$" (a variable, which
// the tool expands from its environment) or "~user" is not known here,
// and why says so.
func expandToolPath(p, home string) (string, string) {
	switch {
	case strings.Contains(p, "$"):
		return "", "names a variable, which the program expands itself from its environment"
	case p == "~" || strings.HasPrefix(p, "~/"):
		if home == "" {
			return "", "begins with ~, which the program expands to a home directory not known here"
		}
		return home + p[1:], ""
	case strings.HasPrefix(p, "~"):
		return "", "names another user's home directory (~user), which the program expands itself"
	}
	return p, ""
}

package bashguard

import (
	"path"
	"slices"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// judge decides one command line, recording its factors in c.
func (m *cmdCall) judge(c *verdictAcc, v *argv, x execCtx) {
	m.judgeArgv(c, v, x)
}

// judgeArgv is the dispatcher: dangerous commands first (no allow rule can
// change them), then network, wrappers, code runners, writers, and the safe
// list; everything else is Ask.
func (m *cmdCall) judgeArgv(c *verdictAcc, v *argv, x execCtx) {
	if v.len() == 0 {
		return
	}
	if !v.literal(0) || v.flags[0]&wProcIn != 0 {
		c.addf(permission.Ask, RuleDynamicName, "command name ", v.vals[0], " is only known at run time", false)
		return
	}
	raw := v.vals[0]
	name, std := raw, true
	if i := strings.LastIndexByte(raw, '/'); i >= 0 {
		name, std = raw[i+1:], stdDir(raw[:i])
	}
	m.dispatch(c, raw, name, std, v, x)
	if c.decided && c.dec == permission.Ask && (!c.nonOver || !c.unnamed) {
		// An Ask an allow rule may lift: a command the guard does not
		// know, one asked for what it does (curl, scp, a script), or one
		// asked for an option a rule that names it lifts (pnpm run
		// --env-file .env under Bash(pnpm run --env-file:*)).
		m.operandDenies(c, v)
	}
	m.hosts(c, name, v)
	if std {
		m.netToolSpec(c, name, v, x)
	}
	m.secretPrinted(c, name, v)
	if std && m.lookupCmd(name).class == clsNetwork {
		m.netPrograms(c, name, v)
	}
	m.globOptions(c, name, v)
	for i := 1; i < v.len(); i++ {
		if !v.literal(i) && !dataArg(name, v, i, m.pol.Confined) {
			if v.flags[i]&wUnquoted != 0 {
				c.addf(permission.Ask, RuleDynamicArg, "argument ", v.vals[i], " is only known at run time (unquoted, the output of a substitution or a variable is split and globbed)", false)
				break
			}
			c.addf(permission.Ask, RuleDynamicArg, "argument ", v.vals[i], " is only known at run time", false)
			break
		}
	}
}

func (m *cmdCall) dispatch(c *verdictAcc, raw, name string, std bool, v *argv, x execCtx) {
	// A launcher file (rust-toolchain.toml's path, .yarnrc's yarn-path)
	// asks, and the line is still judged as without it: what its options
	// do (cargo build --config) stays asked.
	if std && launcherFiles()[name] != nil {
		m.launcherGuard(c, name)
	}
	if std && (m.subWrapper(c, name, v, x) || m.moreTools(c, name, v) || m.sysTools(c, name, v)) {
		m.extraSafe(c, name)
		return
	}
	if !std && m.systemVersion(c, raw, name, v) {
		return
	}
	e := m.lookupCmd(name)
	if int(e.class) < len(classModels) && e.class != clsUnlisted {
		r := &classModels[e.class]
		if r.model == nil {
			c.add(r.dec, r.rule, r.why, r.dec == permission.Ask && r.lifts)
			return
		}
		l := cmdLine{raw: raw, name: name, std: std, v: v, x: x, entry: e}
		r.model(m, c, l)
		return
	}
	switch {
	case !std:
		c.addf(permission.Ask, RuleUnlisted, "runs ", raw, ", which is not a standard command", true)
		if packageBin(raw) {
			// A package's program, as npx runs it: what its spec says
			// of the line holds too (node_modules/.bin/eslint -c
			// /tmp/x.js, .venv/bin/pytest --basetemp=/tmp/x), besides
			// the Ask of a program of the workspace.
			m.sysTools(c, name, v)
		} else if tool := projectLaunchers[name]; tool != "" {
			// The project's wrapper of a build tool: the tool's line.
			m.sysTools(c, tool, v)
		}
	case e.class == clsSafe:
		if s := safeSpecs()[name]; s != nil {
			m.safeSpec(c, name, s, v)
		}
		c.allow(RuleSafe, "on the safe list")
	case e.class == clsReader:
		m.reader(c, name, e.reader, v)
	case m.extra[name]:
		c.allow(RuleSafeExtra, "on the policy's extra safe list")
	default:
		c.add(permission.Ask, RuleUnlisted, "not on the safe list", true)
	}
}

// netToolSpec judges, by its spec, what the options of a network tool do
// besides reaching hosts (the host reader's part, judged before), whatever
// model judged the line: psql -o '|cmd' and -f run programs, pg_dump -f
// writes a file, docker run -v binds a path into a container. The Ask of
// a command the guard has no model of, or of a subcommand its model does
// not know (docker container run), is lifted by an allow rule for it
// (Bash(psql:*)); these are not, or only as their kinds say: a program
// an option runs by a rule that names the option, a path as the path
// judge says of it (netToolKinds).
//
// A tool that reads its script from its input when no option gives it one
// (netTool.stdinScript) asks so when that input is a pipe or a
// redirection: what it holds is not analysed.
func (m *cmdCall) netToolSpec(c *verdictAcc, name string, v *argv, x execCtx) {
	if !m.cmdIn(name, inNetTools) {
		return
	}
	t := netTools()[name]
	if t == nil {
		return
	}
	// The tool's configuration in the workspace runs programs whatever
	// model reads its line (bun test is a toolchain's).
	for _, f := range t.runsConf {
		if why := m.confRuns(f); why != "" {
			c.addf(permission.Ask, ArgsRule(name), "reads ", f.name, " of the workspace, which "+why, false)
		}
	}
	if t.options == nil && len(t.kinds) == 0 && t.kindsSpec == nil || m.sysJudges(name, v) {
		return
	}
	// An option the spec does not know, cannot tell or leaves
	// unclassified is the host reader's to ask for where it may move the
	// host: the spec is written for that, and lists each subcommand's
	// options only where they matter to it (gh run view --log). Where
	// the spec is the whole of the tool's options (netTool.whole: psql,
	// ping), such an option asks, naming it, and every option is judged
	// as its kind says. An option that reads configuration that can run
	// programs (kConfig: apt-get -c, gem --config-file) asks whatever
	// rule allows the tool.
	n := &netScan{m: m, c: c, name: name, t: t, s: netToolSpecs()[name](), v: v}
	n.cur = n.s
	if len(t.early) > 0 {
		n.judged = map[int]bool{} // only earlyOptions reads it
	}
	scanNetLine(n.s, v, 1, n.visit)
	if n.cur.compose {
		m.composeFiles(c, name, n.composeFiles, n.composeDir)
	}
	m.earlyOptions(t, n.s, v, n.judged, n.judge)
	m.pathOperands(c, name, n.cur, v, n.ops, !n.dockerfile)
	m.paramFiles(c, name, n.s, v)
	if n.cur.operands == kToolCommand && len(n.ops) > 0 {
		n.scripted = true // the command is its operands: the input is its data (redis-cli -x)
	}
	if t.stdinScript != "" && !n.scripted && (x.piped || x.stdinRdr) {
		c.addf(permission.Ask, ArgsRule(name), "reads a script from its input (a pipe, a here-document, a here-string or a file) and runs it, which is not analysed: ",
			t.stdinScript, "", false)
	}
}

// netScan is one line of a network tool read by its spec (netToolSpec):
// the options judged as they come, and what the line's end needs.
type netScan struct {
	m      *cmdCall
	c      *verdictAcc
	name   string
	t      *netTool
	s      *spec
	v      *argv
	cur    *spec        // the subcommand's spec
	ops    []int        // its operands
	judged map[int]bool // the words of the options judged
	// composeFiles are docker compose's -f, composeDir its
	// --project-directory (kComposeFile, kDir); dockerfile: a build's -f
	// named its Dockerfile (kDockerfile).
	composeFiles []string
	composeDir   string
	dockerfile   bool
	scripted     bool // an option gave the tool its script
}

// visit reads one word of the line as scanNetLine found it.
func (n *netScan) visit(e *scanned) {
	if e.opt == nil && e.problem == "" {
		if sub := n.cur.subs[e.word]; sub != nil && len(n.ops) == 0 && n.v.literal(e.at) {
			n.cur = sub // scanNetLine's reading: the word is the subcommand
			return
		}
		n.ops = append(n.ops, e.at)
		return
	}
	if n.judged != nil {
		at := e.at
		if e.next {
			at-- // the value is the next word: the option is before it
		}
		n.judged[at] = true
	}
	if e.opt != nil {
		switch e.opt.kind {
		case kComposeFile:
			n.composeFiles = append(n.composeFiles, e.val)
		case kDir:
			n.composeDir = e.val
		case kDockerfile:
			n.dockerfile = true
		}
	}
	n.judge(e)
}

// judge judges one option e. An option the spec does not know, cannot
// tell or leaves unclassified is the host reader's to ask for where it
// may move the host: the spec is written for that, and lists each
// subcommand's options only where they matter to it (gh run view
// --log). Where the spec is the whole of the tool's options
// (netTool.whole: psql, ping), such an option asks, naming it, and every
// option is judged as its kind says. An option that reads configuration
// that can run programs (kConfig: apt-get -c, gem --config-file) asks
// whatever rule allows the tool.
func (n *netScan) judge(e *scanned) {
	m, c, name, s, v := n.m, n.c, n.name, n.s, n.v
	switch {
	case e.problem == problemUnknown && s.fileSuffix(e.word):
		m.suffixFile(c, name, v, e)
	case e.problem != "":
		if n.t.whole {
			m.specOption(c, name, s, v, e, nil) // it asks, naming the option
		}
	case e.opt == nil || e.opt == &dashDashOpt, netHostKinds[e.opt.kind]:
	case e.opt.kind == kConfig:
		c.addNamed(e.spell, permission.Ask, ArgsRule(name), "uses the "+s.name+" option ", optWritten(e),
			", which "+orText(e.opt.why, "reads configuration that can run programs"))
		if n.t.whole {
			m.readPath(c, e.val, v.flags[e.at], name)
		}
	case netToolKinds[e.opt.kind] || n.t.whole:
		n.scripted = n.scripted || e.opt.kind == kClientScript || e.opt.kind == kScriptFile || e.opt.kind == kProgram
		m.specOption(c, name, s, v, e, nil)
	}
}

// earlyOptions judges the options of t.early (netTool) wherever they
// stand on the line v before "--", as the tool reads them, where the
// scan of the line did not judge them (it read the word as another
// option's value, or as an operand).
func (m *cmdCall) earlyOptions(t *netTool, s *spec, v *argv, judged map[int]bool, judge func(*scanned)) {
	for i := 1; i < v.len() && len(t.early) > 0; i++ {
		w := v.vals[i]
		if v.literal(i) && w == "--" {
			return
		}
		if judged[i] || !isEarly(t.early, w) {
			continue
		}
		first := true
		scanSpec(s, v, i, true, func(e *scanned) {
			if first && (e.opt != nil || e.problem != "") {
				judge(e)
			}
			first = false
		})
	}
}

// isEarly reports whether the word w is one of the early options: a
// long one whole or with "=VALUE", a letter whole or with its value
// attached.
func isEarly(early []string, w string) bool {
	for _, o := range early {
		if w == o || strings.HasPrefix(w, o+"=") || len(o) == 2 && strings.HasPrefix(w, o) {
			return true
		}
	}
	return false
}

// pathOperands judges the operands ops of the line v that the spec s of
// its subcommand reads as paths of this machine: a build's context
// (kBuildContext), the two sides of a copy (kContainerCopy), the files
// HTTPie's request items send (kRequestItems). ignore says a build's
// context is walked without what its .dockerignore excludes (no -f named
// a Dockerfile, whose own ignore file would take its place).
func (m *cmdCall) pathOperands(c *verdictAcc, name string, s *spec, v *argv, ops []int, ignore bool) {
	m.scriptOperands(c, name, s, v, ops)
	k := s.operands
	if row, rest := s.leadCommand(v, ops); row != nil {
		if row.kind == kAsk {
			if row.asks(v, rest) {
				c.addf(permission.Ask, ArgsRule(name), name+" "+row.words+" ", row.why, "", false)
			}
			return
		}
		k, ops = row.kind, rest
	}
	switch k {
	case kBuildContext, kContainerCopy, kRequestItems, kURLOrFile, kOutfile, kTree, kURLCopy:
	case kToolCommand:
		m.toolCommand(c, name, s, v, ops)
		return
	default:
		return
	}
	for n, i := range ops {
		var paths []hostPath
		switch {
		case v.flags[i]&wDynamic != 0:
			c.addf(permission.Ask, ArgsRule(name), "copies or sends ", v.vals[i], ", only known at run time, which may name any path of this machine", false)
			continue
		case k == kRequestItems:
			paths = m.requestItemPaths(c, name, s, v.vals[i])
		default:
			paths = copyOperandPaths(k, v.vals[i], n, len(ops), ignore)
		}
		m.hostPaths(c, name, paths, v.flags[i])
	}
}

// copyOperandPaths are the paths of this machine the operand w, the n-th of
// count, of kind k names (pathOperands): a file written (kOutfile), a
// tree read with its links followed (kTree), a build's context, walked
// without what its .dockerignore excludes where ignore says so
// (kBuildContext), a file a URL or a word names (kURLOrFile), a side of
// a copy, the last one written (kContainerCopy, kURLCopy).
func copyOperandPaths(k kind, w string, n, count int, ignore bool) []hostPath {
	switch {
	case k == kOutfile:
		return []hostPath{{path: w, write: true}}
	case k == kTree:
		if w != "-" && !strings.Contains(w, "://") {
			return []hostPath{{path: w, read: true, tree: true, follow: true}}
		}
	case k == kBuildContext:
		paths, _ := containerPaths(kBuildContext, "", w)
		for j := range paths {
			paths[j].context = ignore
		}
		return paths
	case k == kURLOrFile:
		if p, ok := urlOrFile(w); ok {
			return []hostPath{{path: p, read: true}}
		}
	case k == kURLCopy && (w == "-" || strings.Contains(w, "://")):
	case k == kContainerCopy && !containerCopySide(w):
	case n == count-1 && n > 0:
		return []hostPath{{path: w, write: true}}
	default:
		return []hostPath{{path: w, read: true, tree: true}}
	}
	return nil
}

// requestItemPaths are the files HTTPie's request item w sends, "~"
// expanded where the tool expands it itself; one whose path cannot be
// known asks.
func (m *cmdCall) requestItemPaths(c *verdictAcc, name string, s *spec, w string) []hostPath {
	var paths []hostPath
	for _, p := range httpieItemPath(w) {
		if s.expandsPaths {
			var why string
			if p, why = expandToolPath(p, m.pol.Home); why != "" {
				c.addf(permission.Ask, ArgsRule(name), "sends the file of ", w, ", whose path "+why, false)
				continue
			}
		}
		paths = append(paths, hostPath{path: p, read: true})
	}
	return paths
}

// scriptOperands judges the operands ops of the line v that are scripts
// the tool runs (spec.scriptOps): read, and an Ask no allow rule for the
// tool lifts; an operand only known at run time may be one.
func (m *cmdCall) scriptOperands(c *verdictAcc, name string, s *spec, v *argv, ops []int) {
	for _, i := range ops {
		w := v.vals[i]
		switch {
		case len(s.scriptOps) == 0:
			return
		case !v.literal(i):
			c.addf(permission.Ask, ArgsRule(name), "runs ", w, ", only known at run time, which may be a script that runs programs", false)
		case slices.ContainsFunc(s.scriptOps, func(e string) bool { return strings.HasSuffix(w, e) }):
			m.readPath(c, w, v.flags[i], name)
			c.addf(permission.Ask, ArgsRule(name), "runs the script ", w, ", which is not analysed here and can read and write files and run programs", false)
		}
	}
}

// urlOrFile returns the file an operand of kind kURLOrFile names: the
// path of a file: URL, or the word itself where it has no scheme.
func urlOrFile(w string) (string, bool) {
	if rest, ok := strings.CutPrefix(w, "file:"); ok {
		if host, p, ok := strings.Cut(strings.TrimPrefix(rest, "//"), "/"); ok && strings.HasPrefix(rest, "//") && (host == "" || host == "localhost") {
			return "/" + p, true
		}
		return rest, rest != ""
	}
	if i := strings.Index(w, ":"); i > 0 && !strings.ContainsAny(w[:i], "/.") {
		return "", false // scheme:..., a URL
	}
	return w, w != ""
}

// sysJudges reports whether the spec of sysTools for the command name
// has rows of its own for the subcommand of the line v (cargo run: its
// options end at its first operand, and --config after it is the
// program's): that spec judged the line, more closely than the host
// reader's.
func (m *cmdCall) sysJudges(name string, v *argv) bool {
	if !m.cmdIn(name, inSys) {
		return false
	}
	s := sysSpecs()[name]
	if s == nil || len(s.subs) == 0 {
		return false
	}
	for i := 1; len(s.subs) > 0; i++ {
		i = scanSpec(s, v, i, true, func(*scanned) {})
		if i >= v.len() || !v.literal(i) || s.subs[v.vals[i]] == nil {
			return false // docker container run: not a form it knows
		}
		s = s.subs[v.vals[i]]
	}
	return s.hasRows()
}

// netHostKinds are the kinds of the options that only choose the hosts
// a tool reaches (ssh's -L, -J): the host reader's, not netToolSpec's.
var netHostKinds = map[kind]bool{kForward: true, kJump: true, kReroute: true, kURL: true, kListen: true}

// netToolKinds are the kinds of a network tool's options that
// netToolSpec judges: those that run a program or reach a file.
var netToolKinds = map[kind]bool{
	kProgram: true, kAsk: true, kRead: true, kList: true, kList0: true, kWrite: true, kWriteOrPipe: true, kClientScript: true, kBind: true, kFieldFile: true, kScriptFile: true,
	kBuildSecret: true, kBuildSSH: true, kBuildOutput: true, kBuildContext: true, kRepo: true, kVolumeOpt: true, kSSHOption: true, kDockerfile: true, kComposeFile: true,
	kKeyFiles: true, kURLOrFile: true, kTypedWrite: true, kInterpreter: true,
}

// extraSafe allows a command the policy adds to the safe list
// (Policy.ExtraSafe: any literal arguments) whose spec asked, where an
// allow rule for the command would lift the Ask: what a row says no rule
// lifts (a program an option runs, make --eval) stays asked, as a Deny
// stays denied.
func (m *cmdCall) extraSafe(c *verdictAcc, name string) {
	if !m.extra[name] || c.dec != permission.Ask || c.nonOver {
		return
	}
	lifted := newAcc()
	lifted.runs, lifted.via, lifted.viaActs, lifted.more, lifted.endless, lifted.lists = c.runs, c.via, c.viaActs, c.more, c.endless, c.lists
	*c = lifted
	c.allow(RuleSafeExtra, "on the policy's extra safe list")
}

// initModel judges init and telinit: a runlevel that halts is denied.
func initModel(_ *cmdCall, c *verdictAcc, l cmdLine) {
	if l.v.len() > 1 && initHalts()[l.v.vals[1]] {
		c.add(permission.Deny, RuleDangerousPower, "shuts down or restarts the machine", false)
		return
	}
	c.add(permission.Ask, RuleUnlisted, "not on the safe list", true)
}

// interactiveModel judges a program that would wait for a person: denied
// unless it only prints its version or runs in batch mode.
func interactiveModel(_ *cmdCall, c *verdictAcc, l cmdLine) {
	switch {
	case onlyVersion(l.v):
		c.add(permission.Ask, RuleUnlisted, "only prints its version or help; not on the safe list", true)
	case batchTop(l.v, batchOptions()[l.name]):
		c.add(permission.Ask, RuleUnlisted, "runs in batch mode; not on the safe list", true)
	default:
		c.add(permission.Deny, RuleDangerousInteractive, "is interactive and would hang waiting for a person", false)
	}
}

// networkModel judges a network program: what stays on the loopback is
// read as such (model_net_loopback.go); the rest reaches the network.
func networkModel(m *cmdCall, c *verdictAcc, l cmdLine) {
	switch {
	case onlyVersion(l.v):
		c.add(permission.Ask, RuleUnlisted, "only prints its version or help; not on the safe list", true)
	case m.loopbackOnly(l.name, l.v):
		m.loopback(c, l.name, l.v)
	default:
		m.network(c, NetworkRule(l.name), "reaches the network")
	}
}

// sourceModel judges source and ".": the file's shell code is not read.
func sourceModel(_ *cmdCall, c *verdictAcc, l cmdLine) {
	what := "a file"
	if l.v.len() > 1 {
		what = l.v.vals[1]
	}
	c.add(permission.Ask, RuleCodeSource, "runs the shell code in "+what+", which is not analysed", false)
}

// assignerModel judges bash's assigning builtins (model_assign.go):
// printf without -v only prints its format (bash's printf has no %n), and
// its arguments are data.
func assignerModel(m *cmdCall, c *verdictAcc, l cmdLine) {
	m.assigner(c, l.name, l.v)
	if assigners()[l.name].prints && !printfAssigns(l.v) {
		c.allow(RuleSafe, "on the safe list")
		return
	}
	c.add(permission.Ask, RuleUnlisted, "not on the safe list", true)
}

// wrapped judges the command a wrapper runs and merges its factors into c.
func (m *cmdCall) wrapped(c *verdictAcc, via string, v *argv, x execCtx) verdictAcc {
	sub := newAcc()
	m.w.judgeLine(&sub, v, x)
	// What it lists and whether it ends are the wrapper's too.
	if sub.endless != "" {
		c.endless = sub.endless
	}
	if sub.lists != nil {
		c.lists = sub.lists
	}
	if sub.decided {
		n := len(c.asks)
		c.addc(sub.dec, sub.layer, sub.rule, sub.cause, via+"runs "+v.vals[0]+": ", sub.why[0], sub.why[1]+sub.why[2], !sub.nonOver)
		if sub.dec == permission.Ask {
			// The wrapped command's own factors, not one for them all.
			c.asks = append(c.asks[:n], sub.asks...)
		}
	}
	return sub
}

func isInterpreter(name string) bool {
	return interpSpecs()[name] != nil || prefixClass(name) == clsInterpreter
}

// onlyVersion reports a command line whose every argument asks for the
// version or the help text: it neither connects nor waits for a person.
func onlyVersion(v *argv) bool {
	if v.len() < 2 {
		return false
	}
	for i := 1; i < v.len(); i++ {
		if !versionWords()[v.vals[i]] {
			return false
		}
	}
	return true
}

// batchTop reports a line with one of the short options batch (top -b).
func batchTop(v *argv, batch string) bool {
	if batch == "" {
		return false
	}
	for i := 1; i < v.len(); i++ {
		s := v.vals[i]
		if len(s) > 1 && s[0] == '-' && s[1] != '-' && strings.ContainsAny(s[1:], batch) {
			return true
		}
	}
	return false
}

// packageBinDirs are the directories, by their last two names, where
// package managers put the programs of a project's dependencies: npm's,
// pnpm's and yarn's node_modules/.bin, a Python virtual environment's
// bin, Composer's vendor/bin.
var packageBinDirs = []string{"node_modules/.bin", ".venv/bin", "venv/bin", "vendor/bin"}

// packageBin reports whether the command path p names a program in one
// of packageBinDirs.
func packageBin(p string) bool {
	dir := path.Dir(path.Clean(p))
	return slices.Contains(packageBinDirs, path.Base(path.Dir(dir))+"/"+path.Base(dir))
}

package bashguard

import (
	"path"
	"slices"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// homeWord reports words that name the home directory at run time.
func homeWord(src string) bool {
	s := strings.ReplaceAll(src, `"`, "")
	for _, suf := range []string{"/*", "/"} {
		s = strings.TrimSuffix(s, suf)
	}
	return s == "~" || s == "$HOME" || s == "${HOME}"
}

// dangers denies the operands of the line v of s that its danger rows
// hold for (rm -rf /, shred /dev/sda), each row whose options are given;
// an operand denied is not judged again as a file written.
func (m *cmdCall) dangers(c *verdictAcc, s *spec, v *argv, f *specFacts) {
	for _, d := range s.dangers {
		if d.when != "" && !f.hasSpell(d.when) {
			continue
		}
		for _, i := range f.ops {
			if !f.handled(i) && m.dangerous(&d, v, i) {
				c.add(permission.Deny, d.rule, strings.ReplaceAll(d.why, "%s", v.vals[i]), false)
				f.handle(i)
			}
		}
	}
}

// dangerous reports whether the row d holds for the operand of v at i.
func (m *cmdCall) dangerous(d *danger, v *argv, i int) bool {
	p := v.vals[i]
	switch d.test {
	case dCritical:
		return v.literal(i) && m.critical(p) || d.home && !v.literal(i) && homeWord(p)
	case dDevice:
		return strings.HasPrefix(path.Clean(p), "/dev/")
	}
	return true
}

// dd judges its options by its spec and its operands by ddOperands: the
// file if= names is read, the one of= names written (a device other than
// the harmless ones is denied); an operand dd does not know asks.
func (m *cmdCall) dd(c *verdictAcc, v *argv) {
	f := m.judgeSpec(c, "dd", writerSpecs()["dd"], v, 1)
	for _, i := range f.ops {
		m.ddOperand(c, v, i)
	}
	c.add(permission.Ask, RuleUnlisted, "copies raw data; not on the safe list", true)
	m.deniedOperands(c, v)
}

// ddOperand judges the operand of dd at i.
func (m *cmdCall) ddOperand(c *verdictAcc, v *argv, i int) {
	k, val, _ := strings.Cut(v.vals[i], "=")
	switch ddOperands()[k] {
	case kRead:
		m.readPath(c, val, v.flags[i], "dd")
	case kWrite:
		if v.literal(i) && strings.HasPrefix(path.Clean(val), "/dev/") && !harmlessDevice(val) {
			c.add(permission.Deny, RuleDangerousDisk, "writes the device "+val, false)
			return
		}
		m.writePath(c, val, v.flags[i], "dd")
	case kWord:
	default:
		c.addf(permission.Ask, ArgsRule("dd"), "uses the dd operand ", v.vals[i], ", which is not known to be harmless", false)
	}
}

func (m *cmdCall) systemctl(c *verdictAcc, v *argv) {
	for _, s := range v.vals[1:] {
		if systemctlPower()[s] {
			c.add(permission.Deny, RuleDangerousPower, "shuts down or restarts the machine", false)
			return
		}
	}
	c.add(permission.Ask, RuleUnlisted, "not on the safe list", true)
}

// kill judges kill by its spec, reading its words as bash's kill does:
// the first signal given, -s SIG, -n NUM, -SIG or -NUM, ends the options,
// and every word after it is a process id ("kill -9 -1"). The id -1
// signals every process the user owns.
func (m *cmdCall) kill(c *verdictAcc, v *argv) {
	s := writerSpecs()["kill"]
	signalled := false
	var pids []int
	scanSpec(s, v, 1, false, func(e *scanned) {
		switch {
		case e.opt == &dashDashOpt:
		case e.opt == nil && e.problem == "" || signalled:
			pids = append(pids, e.at)
		case e.opt == nil && signalWord(e.word):
			signalled = true // -KILL, -SIGHUP
		default:
			m.specOption(c, "kill", s, v, e, nil)
			signalled = e.opt != nil && e.opt.kind == kWord
		}
	})
	for _, i := range pids {
		if v.vals[i] == "-1" {
			c.add(permission.Deny, RuleDangerousKillAll, "signals every process the user owns (pid -1)", false)
			return
		}
	}
	c.add(permission.Ask, RuleUnlisted, "sends signals to processes; not on the safe list", true)
}

// signalWord reports a word bash's kill reads as a signal: "-" and a name
// or number ("-KILL", "-SIGRTMIN+1", "-9").
func signalWord(w string) bool {
	if len(w) < 2 || w[0] != '-' {
		return false
	}
	for i := 1; i < len(w); i++ {
		ch := w[i]
		if !(ch >= 'A' && ch <= 'Z' || ch >= 'a' && ch <= 'z' || ch >= '0' && ch <= '9' || ch == '+' || ch == '-') {
			return false
		}
	}
	return true
}

// rsync judges rsync by its spec: its options by their kinds, and its
// operands: a remote one ([USER@]HOST:PATH, HOST::MODULE, rsync://)
// reaches the network; otherwise the sources are read and the last
// operand, the destination, written.
func (m *cmdCall) rsync(c *verdictAcc, v *argv) {
	f := m.judgeSpec(c, "rsync", writerSpecs()["rsync"], v, 1)
	ops := f.ops
	for _, i := range ops {
		if rsyncRemote(v.vals[i]) {
			m.network(c, NetworkRule("rsync"), "copies to or from the remote "+v.vals[i])
			return
		}
	}
	if len(ops) > 0 {
		last := ops[len(ops)-1]
		for _, i := range ops[:len(ops)-1] {
			m.readPath(c, v.vals[i], v.flags[i], "rsync")
		}
		m.writePath(c, v.vals[last], v.flags[last], "rsync")
	}
	c.add(permission.Ask, RuleUnlisted, "copies files; not on the safe list", true)
	m.deniedOperands(c, v)
}

// rsyncRemote reports an operand of rsync that names another host.
func rsyncRemote(p string) bool {
	slash := strings.IndexByte(p, '/')
	colon := strings.IndexByte(p, ':')
	return strings.Contains(p, "::") || strings.HasPrefix(p, "rsync://") || colon > 0 && (slash < 0 || colon < slash)
}

// writer judges cp, mv, touch and the other commands that change files by
// their specs (specs_writers.go): each option by its kind, then the
// operands by the spec's: every file written goes through the path
// checker, every source through the reader's, and the command is at best
// Ask.
func (m *cmdCall) writer(c *verdictAcc, name string, v *argv) {
	s := writerSpecs()[name]
	f := m.judgeSpec(c, name, s, v, 1)
	m.specCheck(c, s, v, 1, &f)
	m.dangers(c, s, v, &f) // rm's critical paths, shred's devices
	ops := slices.DeleteFunc(slices.Clone(f.ops), f.handled)
	if len(ops) == 0 && s.bareWhy == "" {
		c.allow(RuleSafe, s.allow) // tee without a file
		return
	}
	if s.firstOperand == kWord && len(ops) > 0 && !f.has(s.patternBy...) {
		ops = ops[1:] // the mode or owner
	}
	td := f.kindOpt(kTargetDir)
	switch s.operands {
	case kCopy, kMove, kLink:
		m.copyOperands(c, name, s, v, ops, td)
	default:
		for _, i := range ops {
			m.writePath(c, v.vals[i], v.flags[i], name)
		}
	}
	c.add(permission.Ask, WriteRule(name), s.ask, true)
	// The command's own factor names no path: each operand it writes
	// has a factor of its own, which says whether it is plain.
	c.plainLast(true)
	m.deniedOperands(c, v)
}

// deniedOperands looks for a denied path among the words of a command
// line asked for what no allow rule lifts (an option no row classifies, a
// secret written): judgeArgv looks only where an allow rule may lift the
// Ask, and such an Ask must not hide a Deny a word carries ("cp --foo
// .env x").
func (m *cmdCall) deniedOperands(c *verdictAcc, v *argv) {
	if c.decided && c.dec == permission.Ask && c.nonOver {
		m.operandDenies(c, v)
	}
}

// kindOpt returns the last option of kind k given, or nil.
func (f *specFacts) kindOpt(k kind) *scanned {
	for i := len(f.seen) - 1; i >= 0; i-- {
		if f.seen[i].opt != nil && f.seen[i].opt.kind == k {
			return &f.seen[i]
		}
	}
	return nil
}

// copyOperands judges the operands of cp, install, mv and ln (the spec's
// kCopy, kMove, kLink): the sources are read (what mv moves is read as
// surely as what cp copies: its content is then found under the new
// name) and mv's written, as it removes them; the destination, the last
// operand unless td (-t DIR) names the directory, is written, and so is
// each name the sources get in it. ln reads no source; ln with one
// operand makes a link of its name in the working directory.
func (m *cmdCall) copyOperands(c *verdictAcc, name string, s *spec, v *argv, ops []int, td *scanned) {
	srcs, dest := ops, -1
	if td == nil && len(ops) > 0 {
		srcs, dest = ops[:len(ops)-1], ops[len(ops)-1]
		if s.operands == kLink && len(ops) == 1 {
			srcs, dest = nil, -1
			m.writePath(c, path.Base(v.vals[ops[0]]), v.flags[ops[0]], name)
		}
	}
	if dest >= 0 && s.operands != kMove {
		m.writePath(c, v.vals[dest], v.flags[dest], name)
	}
	if s.operands != kLink {
		for _, i := range srcs {
			m.readPath(c, v.vals[i], v.flags[i], name)
		}
	}
	if s.operands == kMove {
		for _, i := range ops {
			m.writePath(c, v.vals[i], v.flags[i], name)
		}
	}
	if td != nil {
		m.intoDir(c, name, v, ops, true, td.val, v.flags[td.at])
		return
	}
	m.intoDir(c, name, v, ops, false, "", 0)
}

// intoDir judges the files cp, mv, install and ln create in a target
// directory: DIR/<name of each source>, which a rule may name although
// the command names only DIR ("cp x/notes.txt ." writes ./notes.txt).
// The target is a directory when -t names it, when there are several
// sources, or when it is one now.
func (m *cmdCall) intoDir(c *verdictAcc, name string, v *argv, ops []int, hasT bool, td string, tdf wordFlags) {
	target, tf, srcs := td, tdf, ops
	if !hasT {
		if len(ops) < 2 {
			return
		}
		last := ops[len(ops)-1]
		target, tf, srcs = v.vals[last], v.flags[last], ops[:len(ops)-1]
	}
	if tf&(wDynamic|wGlob) != 0 || m.paths == nil {
		return // asked already
	}
	if !hasT && len(srcs) == 1 && !m.isDirPath(target) {
		return
	}
	dir := strings.TrimSuffix(target, "/")
	for _, i := range srcs {
		if !v.literal(i) {
			continue // asked already
		}
		names := []string{v.vals[i]}
		if v.flags[i]&wGlob != 0 {
			found, err := expandGlob(m.dir, v.vals[i])
			if err != nil {
				continue // asked already
			}
			names = found
		}
		for _, n := range names {
			base := path.Base(n)
			if base == "/" || base == "." || base == ".." {
				continue
			}
			m.writePath(c, dir+"/"+base, 0, name)
		}
	}
}

// isDirPath reports whether p, taken from the working directory, is a
// directory now.
func (m *cmdCall) isDirPath(p string) bool {
	if !path.IsAbs(p) {
		if m.dir == "" {
			return false
		}
		p = strings.TrimSuffix(m.dir, "/") + "/" + p
	}
	return m.ws.isDir(p)
}

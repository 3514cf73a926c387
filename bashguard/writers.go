package bashguard

import (
	"path"
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

func (a *analyzer) rm(c *verdictAcc, v *argv) {
	recursive, force := false, false
	ops := scanOpts(v, "", nil, nil, func(o opt) {
		switch {
		case o.name == "-r" || o.name == "-R" || longIs(o.name, "--recursive"):
			recursive = true
		case o.name == "-f" || longIs(o.name, "--force"):
			force = true
		case longIs(o.name, "--no-preserve-root"):
			c.add(permission.Deny, RuleDangerousRmCritical, "--no-preserve-root allows removing /", false)
		}
	})
	for _, i := range ops {
		p := v.vals[i]
		if recursive || force {
			if v.literal(i) && a.critical(p) || !v.literal(i) && homeWord(p) {
				c.add(permission.Deny, RuleDangerousRmCritical, "removes the critical path "+p+" recursively or by force", false)
				continue
			}
		}
		a.writePath(c, p, v.flags[i], "rm")
	}
	c.add(permission.Ask, WriteRule("rm"), "removes files", true)
}

func (a *analyzer) dd(c *verdictAcc, v *argv) {
	for i := 1; i < v.len(); i++ {
		k, val, ok := strings.Cut(v.vals[i], "=")
		if !ok {
			continue
		}
		switch k {
		case "if":
			a.readPath(c, val, v.flags[i], "dd")
		case "of":
			if v.literal(i) && strings.HasPrefix(path.Clean(val), "/dev/") && !harmlessDevice(val) {
				c.add(permission.Deny, RuleDangerousDisk, "writes the device "+val, false)
				continue
			}
			a.writePath(c, val, v.flags[i], "dd")
		}
	}
	c.add(permission.Ask, RuleUnlisted, "copies raw data; not on the safe list", true)
}

func (a *analyzer) shred(c *verdictAcc, v *argv) {
	ops := scanOpts(v, "ns", []string{"--iterations", "--size", "--random-source"}, nil, func(opt) {})
	for _, i := range ops {
		if strings.HasPrefix(path.Clean(v.vals[i]), "/dev/") {
			c.add(permission.Deny, RuleDangerousDisk, "shreds the device "+v.vals[i], false)
			continue
		}
		a.writePath(c, v.vals[i], v.flags[i], "shred")
	}
	c.add(permission.Ask, WriteRule("shred"), "destroys file contents", true)
}

func (a *analyzer) systemctl(c *verdictAcc, v *argv) {
	for _, s := range v.vals[1:] {
		switch s {
		case "poweroff", "reboot", "halt", "kexec", "soft-reboot":
			c.add(permission.Deny, RuleDangerousPower, "shuts down or restarts the machine", false)
			return
		}
	}
	c.add(permission.Ask, RuleUnlisted, "not on the safe list", true)
}

func (a *analyzer) kill(c *verdictAcc, v *argv) {
	args := v.vals[1:]
	j := 0
	if j < len(args) && (args[j] == "-s" || args[j] == "-n") {
		j += 2
	} else if j < len(args) && strings.HasPrefix(args[j], "-") && args[j] != "--" {
		j++
	}
	for ; j < len(args); j++ {
		if args[j] == "-1" {
			c.add(permission.Deny, RuleDangerousKillAll, "signals every process the user owns (pid -1)", false)
			return
		}
	}
	c.add(permission.Ask, RuleUnlisted, "sends signals to processes; not on the safe list", true)
}

func (a *analyzer) rsync(c *verdictAcc, v *argv) {
	ops := scanOpts(v, "e", []string{"--rsh", "--rsync-path"}, nil, func(o opt) {
		if o.name == "-e" || longIs(o.name, "--rsh") {
			c.add(permission.Ask, RuleCodeInline, "runs the remote shell "+o.val, false)
		}
	})
	for _, i := range ops {
		p := v.vals[i]
		slash := strings.IndexByte(p, '/')
		colon := strings.IndexByte(p, ':')
		if strings.Contains(p, "::") || strings.HasPrefix(p, "rsync://") || colon > 0 && (slash < 0 || colon < slash) {
			a.network(c, NetworkRule("rsync"), "copies to or from the remote "+p)
			return
		}
	}
	if len(ops) > 0 {
		last := ops[len(ops)-1]
		for _, i := range ops[:len(ops)-1] {
			a.readPath(c, v.vals[i], v.flags[i], "rsync")
		}
		a.writePath(c, v.vals[last], v.flags[last], "rsync")
	}
	c.add(permission.Ask, RuleUnlisted, "copies files; not on the safe list", true)
}

// writer judges cp, mv, touch and the other commands that change files by
// their specs (specs_writers.go): each option by its kind, then the
// operands by the spec's: every file written goes through the path
// checker, every source through the reader's, and the command is at best
// Ask.
func (a *analyzer) writer(c *verdictAcc, name string, v *argv) {
	s := writerSpecs[name]
	f := a.judgeSpec(c, name, s, v, 1)
	ops := f.ops
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
		a.copyOperands(c, name, s, v, ops, td)
	default:
		if f.hasKind(kRecurse) {
			a.recursiveCritical(c, v, ops)
		}
		for _, i := range ops {
			a.writePath(c, v.vals[i], v.flags[i], name)
		}
	}
	c.add(permission.Ask, WriteRule(name), s.ask, true)
	a.deniedOperands(c, v)
}

// deniedOperands looks for a denied path among the words of a command
// line asked for what no allow rule lifts (an option no row classifies, a
// secret written): judgeArgv looks only where an allow rule may lift the
// Ask, and such an Ask must not hide a Deny a word carries ("cp --foo
// .env x").
func (a *analyzer) deniedOperands(c *verdictAcc, v *argv) {
	if c.decided && c.dec == permission.Ask && c.nonOver {
		a.operandDenies(c, v)
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
func (a *analyzer) copyOperands(c *verdictAcc, name string, s *spec, v *argv, ops []int, td *scanned) {
	srcs, dest := ops, -1
	if td == nil && len(ops) > 0 {
		srcs, dest = ops[:len(ops)-1], ops[len(ops)-1]
		if s.operands == kLink && len(ops) == 1 {
			srcs, dest = nil, -1
			a.writePath(c, path.Base(v.vals[ops[0]]), v.flags[ops[0]], name)
		}
	}
	if dest >= 0 && s.operands != kMove {
		a.writePath(c, v.vals[dest], v.flags[dest], name)
	}
	if s.operands != kLink {
		for _, i := range srcs {
			a.readPath(c, v.vals[i], v.flags[i], name)
		}
	}
	if s.operands == kMove {
		for _, i := range ops {
			a.writePath(c, v.vals[i], v.flags[i], name)
		}
	}
	if td != nil {
		a.intoDir(c, name, v, ops, true, td.val, v.flags[td.at])
		return
	}
	a.intoDir(c, name, v, ops, false, "", 0)
}

// recursiveCritical denies a recursive change of a critical path (chmod
// -R 777 /).
func (a *analyzer) recursiveCritical(c *verdictAcc, v *argv, ops []int) {
	for _, i := range ops {
		if v.literal(i) && a.critical(v.vals[i]) {
			c.add(permission.Deny, RuleDangerousRecursiveCritical, "changes the critical path "+v.vals[i]+" recursively", false)
		}
	}
}

// intoDir judges the files cp, mv, install and ln create in a target
// directory: DIR/<name of each source>, which a rule may name although
// the command names only DIR ("cp x/notes.txt ." writes ./notes.txt).
// The target is a directory when -t names it, when there are several
// sources, or when it is one now.
func (a *analyzer) intoDir(c *verdictAcc, name string, v *argv, ops []int, hasT bool, td string, tdf wordFlags) {
	target, tf, srcs := td, tdf, ops
	if !hasT {
		if len(ops) < 2 {
			return
		}
		last := ops[len(ops)-1]
		target, tf, srcs = v.vals[last], v.flags[last], ops[:len(ops)-1]
	}
	if tf&(wDynamic|wGlob) != 0 || a.paths == nil {
		return // asked already
	}
	if !hasT && len(srcs) == 1 && !a.isDirPath(target) {
		return
	}
	dir := strings.TrimSuffix(target, "/")
	for _, i := range srcs {
		if !v.literal(i) {
			continue // asked already
		}
		names := []string{v.vals[i]}
		if v.flags[i]&wGlob != 0 {
			m, err := expandGlob(a.dir, v.vals[i])
			if err != nil {
				continue // asked already
			}
			names = m
		}
		for _, n := range names {
			base := path.Base(n)
			if base == "/" || base == "." || base == ".." {
				continue
			}
			a.writePath(c, dir+"/"+base, 0, name)
		}
	}
}

// isDirPath reports whether p, taken from the working directory, is a
// directory now.
func (a *analyzer) isDirPath(p string) bool {
	if !path.IsAbs(p) {
		if a.dir == "" {
			return false
		}
		p = strings.TrimSuffix(a.dir, "/") + "/" + p
	}
	return isDir(p)
}

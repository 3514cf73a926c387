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

// writerSpecs give the value-taking options of the commands that write.
var writerSpecs = map[string]struct {
	short string
	long  []string
}{
	"mv":       {"tS", []string{"--target-directory", "--suffix"}},
	"cp":       {"tS", []string{"--target-directory", "--suffix"}},
	"install":  {"tSmog", []string{"--target-directory", "--suffix", "--mode", "--owner", "--group"}},
	"ln":       {"tS", []string{"--target-directory", "--suffix"}},
	"touch":    {"dtr", []string{"--date", "--reference", "--time"}},
	"mkdir":    {"m", []string{"--mode"}},
	"truncate": {"sr", []string{"--size", "--reference"}},
	"chown":    {"", []string{"--reference", "--from"}},
	"chgrp":    {"", []string{"--reference"}},
	"chmod":    {"", []string{"--reference"}},
}

// writer judges cp, mv, touch and the other commands that change files:
// every target goes through the path checker and the command is at best
// Ask.
func (a *analyzer) writer(c *verdictAcc, name string, v *argv) {
	spec := writerSpecs[name]
	targetDir, reference, recursive := -1, false, false
	var tdVal string
	var tdFlags wordFlags
	ops := scanOpts(v, spec.short, spec.long, nil, func(o opt) {
		switch {
		case o.name == "-t" || longIs(o.name, "--target-directory"):
			targetDir, tdVal, tdFlags = 1, o.val, o.vf
		case longIs(o.name, "--reference") || (name == "touch" || name == "truncate") && o.name == "-r":
			reference = true
			a.readPath(c, o.val, o.vf, name)
		case o.name == "-R" || o.name == "-r" && name != "touch" || longIs(o.name, "--recursive"):
			recursive = true
		}
	})
	if targetDir > 0 {
		a.writePath(c, tdVal, tdFlags, name)
	}
	all := ops
	switch name {
	case "tee":
		if len(ops) == 0 {
			c.allow(RuleSafe, "copies its input to its output only")
			return
		}
	case "cp", "install":
		if targetDir < 0 && len(ops) > 0 {
			last := ops[len(ops)-1]
			ops = ops[:len(ops)-1]
			a.writePath(c, v.vals[last], v.flags[last], name)
		}
		for _, i := range ops {
			a.readPath(c, v.vals[i], v.flags[i], name)
		}
		ops = nil
	case "ln":
		if targetDir < 0 && len(ops) == 1 {
			a.writePath(c, path.Base(v.vals[ops[0]]), v.flags[ops[0]], name)
		} else if targetDir < 0 && len(ops) > 1 {
			last := ops[len(ops)-1]
			a.writePath(c, v.vals[last], v.flags[last], name)
		}
		ops = nil
	case "chmod", "chown", "chgrp":
		if !reference && len(ops) > 0 && !(name == "chmod" && dashMode(v)) {
			ops = ops[1:] // the mode or owner
		}
		if recursive {
			for _, i := range ops {
				if v.literal(i) && a.critical(v.vals[i]) {
					c.add(permission.Deny, RuleDangerousRecursiveCritical, "changes the critical path "+v.vals[i]+" recursively", false)
				}
			}
		}
	}
	if name == "mv" && len(ops) > 0 {
		// What mv moves is read as surely as what cp copies: its content
		// is then found under the new name. (The last operand, the
		// target, is only written, unless -t named the target.)
		srcs := ops[:len(ops)-1]
		if targetDir > 0 {
			srcs = ops
		}
		for _, i := range srcs {
			a.readPath(c, v.vals[i], v.flags[i], name)
		}
	}
	for _, i := range ops {
		a.writePath(c, v.vals[i], v.flags[i], name)
	}
	if name == "cp" || name == "mv" || name == "install" || name == "ln" {
		a.intoDir(c, name, v, all, targetDir > 0, tdVal, tdFlags)
	}
	c.add(permission.Ask, WriteRule(name), "changes files", true)
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

// dashMode reports "chmod -x file": a mode that looks like an option.
func dashMode(v *argv) bool {
	for _, s := range v.vals[1:] {
		if len(s) > 1 && s[0] == '-' && strings.Trim(s[1:], "rwxXst") == "" {
			return true
		}
	}
	return false
}

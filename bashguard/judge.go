package bashguard

import (
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// judge decides one command line, recording its factors in c.
func (a *analyzer) judge(c *verdictAcc, v argv, x execCtx) {
	a.judgeArgv(c, v, x)
}

// judgeArgv is the dispatcher: dangerous commands first (no allow rule can
// change them), then network, wrappers, code runners, writers, and the safe
// list; everything else is Ask.
func (a *analyzer) judgeArgv(c *verdictAcc, v argv, x execCtx) {
	if v.len() == 0 {
		return
	}
	if !v.literal(0) {
		c.add(permission.Ask, "dynamic:name", "command name "+v.vals[0]+" is only known at run time", false)
		return
	}
	raw := v.vals[0]
	name, std := raw, true
	if i := strings.LastIndexByte(raw, '/'); i >= 0 {
		name, std = raw[i+1:], stdDir(raw[:i])
	}
	a.dispatch(c, raw, name, std, v, x)
	for i := 1; i < v.len(); i++ {
		if !v.literal(i) {
			c.add(permission.Ask, "dynamic:arg", "argument "+v.vals[i]+" is only known at run time", false)
			break
		}
	}
}

func (a *analyzer) dispatch(c *verdictAcc, raw, name string, std bool, v argv, x execCtx) {
	switch {
	case privileged[name]:
		c.add(permission.Deny, "dangerous:privilege", "runs a command with other privileges", false)
	case name == "rm":
		a.rm(c, v)
	case strings.HasPrefix(name, "mkfs") || diskCmds[name]:
		c.add(permission.Deny, "dangerous:disk", "changes disks or file systems", false)
	case name == "dd":
		a.dd(c, v)
	case name == "shred":
		a.shred(c, v)
	case powerCmds[name]:
		c.add(permission.Deny, "dangerous:power", "shuts down or restarts the machine", false)
	case name == "init" || name == "telinit":
		if v.len() > 1 && (v.vals[1] == "0" || v.vals[1] == "6") {
			c.add(permission.Deny, "dangerous:power", "shuts down or restarts the machine", false)
		} else {
			c.add(permission.Ask, "unlisted", "not on the safe list", true)
		}
	case name == "systemctl":
		a.systemctl(c, v)
	case name == "kill":
		a.kill(c, v)
	case name == "mount" || name == "umount":
		c.add(permission.Deny, "dangerous:mount", "mounts or unmounts file systems", false)
	case interactive[name]:
		c.add(permission.Deny, "dangerous:interactive", "is interactive and would hang waiting for a person", false)
	case networkCmds[name]:
		a.network(c, "network:"+name, "reaches the network")
	case name == "rsync":
		a.rsync(c, v)
	case shells[name]:
		a.shell(c, v, x)
	case name == "eval":
		a.eval(c, v)
	case name == "source" || name == ".":
		what := "a file"
		if v.len() > 1 {
			what = v.vals[1]
		}
		c.add(permission.Ask, "code:source", "runs the shell code in "+what+", which is not analysed", false)
	case isInterpreter(name):
		a.interpreter(c, name, v, x)
	case name == "awk" || name == "gawk" || name == "mawk" || name == "nawk":
		a.awk(c, v)
	case name == "sed":
		a.sed(c, v)
	case name == "find":
		a.find(c, v, x)
	case name == "git":
		a.git(c, v)
	case name == "xargs":
		a.xargs(c, v, x)
	case name == "env":
		a.env(c, v, x)
	case name == "nice" || name == "nohup" || name == "timeout" || name == "time" || name == "stdbuf" ||
		name == "command" || name == "builtin" || name == "exec" || name == "setsid" || name == "flock" || name == "watch":
		a.wrapper(c, name, v, x)
	case writers[name]:
		a.writer(c, name, v)
	case stateBuiltins[name] != "":
		c.add(permission.Ask, "state", stateBuiltins[name], false)
	case !std:
		c.add(permission.Ask, "unlisted", "runs "+raw+", which is not a standard command", true)
	case safeNoPaths[name]:
		c.allow("safe", "on the safe list")
	case readers[name] != nil:
		a.reader(c, name, readers[name], v)
	case a.g.extra[name]:
		c.allow("safe:extra", "on the policy's extra safe list")
	default:
		c.add(permission.Ask, "unlisted", "not on the safe list", true)
	}
}

// wrapped judges the command a wrapper runs and merges its factors into c.
func (a *analyzer) wrapped(c *verdictAcc, via string, v argv, x execCtx) verdictAcc {
	sub := newAcc()
	a.judgeArgv(&sub, v, x)
	if sub.decided {
		c.add(sub.dec, sub.rule, via+"runs "+v.vals[0]+": "+sub.reason, !sub.nonOver)
	}
	return sub
}

func isInterpreter(name string) bool {
	if _, ok := inlineFlags[name]; ok {
		return true
	}
	return strings.HasPrefix(name, "python") || strings.HasPrefix(name, "pypy")
}

func inlineFor(name string) string {
	if f, ok := inlineFlags[name]; ok {
		return f
	}
	return "c"
}

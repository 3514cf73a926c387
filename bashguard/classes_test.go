package bashguard

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// switchOrderClass is the dispatcher's chain of checks as it was written
// before the name table: one list after the other, first match wins. The
// table must give the same answer for every name.
func switchOrderClass(name string, std bool, extra map[string]bool) string {
	switch {
	case privileged()[name]:
		return "privileged"
	case name == "rm":
		return "rm"
	case strings.HasPrefix(name, "mkfs") || diskCmds()[name]:
		return "disk"
	case name == "dd":
		return "dd"
	case name == "shred":
		return "shred"
	case powerCmds()[name]:
		return "power"
	case name == "init" || name == "telinit":
		return "init"
	case name == "systemctl":
		return "systemctl"
	case name == "kill":
		return "kill"
	case name == "mount" || name == "umount":
		return "mount"
	case interactive()[name]:
		return "interactive"
	case networkCmds()[name]:
		return "network"
	case name == "rsync":
		return "rsync"
	case shells()[name]:
		return "shell"
	case name == "eval":
		return "eval"
	case name == "source" || name == ".":
		return "source"
	case isInterpreter(name):
		return "interpreter"
	case name == "awk" || name == "gawk" || name == "mawk" || name == "nawk":
		return "awk"
	case name == "sed":
		return "sed"
	case name == "find":
		return "find"
	case name == "git":
		return "git"
	case name == "xargs":
		return "xargs"
	case name == "env":
		return "env"
	case name == "nice" || name == "nohup" || name == "timeout" || name == "time" || name == "stdbuf" ||
		name == "command" || name == "builtin" || name == "exec" || name == "setsid" || name == "flock" || name == "watch" || name == "npx" || name == "pnpx" || name == "bunx" || name == "uvx":
		return "wrapper"
	case writers()[name]:
		return "writer"
	case name == "printenv" || name == "set":
		return "envprint"
	case name == "read" || name == "mapfile" || name == "readarray" || name == "printf" || name == "wait" ||
		name == "getopts" || name == "unset":
		return "assigner"
	case stateBuiltins()[name] != "":
		return "state:" + stateBuiltins()[name]
	case !std:
		return "nonstandard"
	case safeNoPaths()[name]:
		return "safe"
	case readerSpecs()[name] != nil:
		return "reader"
	case extra[name]:
		return "extra"
	}
	return "unlisted"
}

// tableClass answers the same question through lookupCmd, as dispatch does.
func tableClass(name string, std bool, extra map[string]bool) string {
	e := lookupCmd(name)
	names := map[cmdClass]string{
		clsPrivileged: "privileged", clsRm: "rm", clsDisk: "disk", clsDd: "dd", clsShred: "shred",
		clsPower: "power", clsInit: "init", clsSystemctl: "systemctl", clsKill: "kill", clsMount: "mount",
		clsInteractive: "interactive", clsNetwork: "network", clsRsync: "rsync", clsShell: "shell",
		clsEval: "eval", clsSource: "source", clsInterpreter: "interpreter", clsAwk: "awk", clsSed: "sed",
		clsFind: "find", clsGit: "git", clsXargs: "xargs", clsEnv: "env", clsWrapper: "wrapper",
		clsWriter: "writer", clsEnvPrint: "envprint", clsAssigner: "assigner",
	}
	if n, ok := names[e.class]; ok {
		return n
	}
	switch {
	case e.class == clsState:
		return "state:" + e.state
	case !std:
		return "nonstandard"
	case e.class == clsSafe:
		return "safe"
	case e.class == clsReader:
		if e.reader != readerSpecs()[name] {
			return "reader with the wrong spec"
		}
		return "reader"
	case extra[name]:
		return "extra"
	}
	return "unlisted"
}

// TestCmdTableMatchesSwitchOrder checks the name table against the chain
// of checks for every name on every list, the names the chain knows
// without a list, names caught by a prefix, and names on no list, from a
// standard directory and from elsewhere, with and without an extra safe
// list that names them all.
func TestCmdTableMatchesSwitchOrder(t *testing.T) {
	// The names the chain tests by name, listed here independently of
	// cmdNamed so that a name missing from the table is caught.
	names := []string{"rm", "dd", "shred", "init", "telinit", "systemctl", "kill", "mount", "umount", "rsync",
		"eval", "source", ".", "awk", "gawk", "mawk", "nawk", "sed", "find", "git", "xargs", "env", "nice",
		"nohup", "timeout", "time", "stdbuf", "command", "builtin", "exec", "setsid", "flock", "watch", "npx", "pnpx", "bunx", "uvx",
		"printenv", "set", "read", "mapfile", "readarray", "printf", "wait", "getopts", "unset"}
	for _, m := range []map[string]bool{privileged(), diskCmds(), powerCmds(), interactive(), networkCmds(), shells(),
		writers(), safeNoPaths(), bareInteractive(), harmlessVars()} {
		for n := range m {
			names = append(names, n)
		}
	}
	for n := range interpSpecs() {
		names = append(names, n)
	}
	for n := range stateBuiltins() {
		names = append(names, n)
	}
	for n := range readerSpecs() {
		names = append(names, n)
	}
	for n := range gitSpec().subs {
		names = append(names, n)
	}
	names = append(names, "mkfs", "mkfs.ext4", "mkfsgit", "mkfspython", "python", "python3.12", "pythonx",
		"pypy", "pypy3", "pypyrm", "go", "make", "cargo", "", "-", "coproc", "[[", "let", "declare", "ls2")
	require.Greater(t, len(names), 150)
	all := map[string]bool{}
	for _, n := range names {
		all[n] = true
	}
	for _, n := range names {
		for _, std := range []bool{true, false} {
			for _, extra := range []map[string]bool{nil, all} {
				assert.Equal(t, switchOrderClass(n, std, extra), tableClass(n, std, extra),
					"class of %q (standard directory: %v, extra list: %v)", n, std, extra != nil)
			}
		}
	}
	// Every name in the table is one that some list or the chain names.
	for n := range buildCmdTable() {
		assert.True(t, all[n], "table holds %q, which no list names", n)
	}
	_, ok := buildCmdTable()["no-such-command"]
	assert.False(t, ok)
}

// TestClassModelsWhole holds the dispatcher's table to a row for every
// class it reads by class: a finding of the class's own, or a model. A
// missing row would be the zero row, a Deny without a reason.
func TestClassModelsWhole(t *testing.T) {
	require.Len(t, classModels, int(clsAssigner)+1, "one row for each class up to clsAssigner")
	for cls := clsPrivileged; cls <= clsAssigner; cls++ {
		r := classModels[cls]
		assert.True(t, r.model != nil || r.why != "" && r.rule != "", "class %d has neither a model nor a finding", cls)
		assert.False(t, r.model != nil && r.why != "", "class %d has both a model and a finding", cls)
	}
}

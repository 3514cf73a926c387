package bashguard

import "strings"

// cmdClass says which check the dispatcher applies to a command name.
type cmdClass uint8

// The classes, in the order the dispatcher tries them: a name that more
// than one list names takes the first class that applies.
const (
	clsUnlisted cmdClass = iota // on no list
	clsPrivileged
	clsRm
	clsDisk
	clsDd
	clsShred
	clsPower
	clsInit
	clsSystemctl
	clsKill
	clsMount
	clsInteractive
	clsNetwork
	clsRsync
	clsShell
	clsEval
	clsSource
	clsInterpreter
	clsAwk
	clsSed
	clsFind
	clsGit
	clsXargs
	clsEnv
	clsWrapper
	clsWriter
	clsState
	clsEnvPrint // printenv, set
	clsAssigner // read, mapfile, printf, getopts, wait, unset
	// The classes below apply only to a name given bare or from a
	// standard directory.
	clsSafe
	clsReader
)

// cmdEntry is what the dispatcher needs to know about one command name.
type cmdEntry struct {
	class  cmdClass
	reader *spec  // for clsReader
	state  string // for clsState: why the builtin needs a person
}

// cmdTable maps every name that a list of the default policy names to its
// entry, so that judging a command costs one lookup. It is built once from
// the lists and is read-only afterwards.
var cmdTable = buildCmdTable()

func buildCmdTable() map[string]cmdEntry {
	var names []string
	for _, m := range []map[string]bool{privileged, diskCmds, powerCmds, interactive, networkCmds, shells,
		writers, safeNoPaths} {
		for n := range m {
			names = append(names, n)
		}
	}
	for n := range inlineFlags {
		names = append(names, n)
	}
	for n := range stateBuiltins {
		names = append(names, n)
	}
	for n := range readerSpecs {
		names = append(names, n)
	}
	names = append(names, fixedCmdNames...)
	for n := range assigners {
		names = append(names, n)
	}
	t := make(map[string]cmdEntry, len(names))
	for _, n := range names {
		t[n] = classify(n)
	}
	return t
}

// fixedCmdNames are the names the dispatcher knows without a list.
var fixedCmdNames = []string{
	"rm", "dd", "shred", "init", "telinit", "systemctl", "kill", "mount", "umount", "rsync", "eval",
	"source", ".", "awk", "gawk", "mawk", "nawk", "sed", "find", "git", "xargs", "env",
	"nice", "nohup", "timeout", "time", "stdbuf", "command", "builtin", "exec", "setsid", "flock", "watch",
	"printenv", "set",
}

// classify gives the entry of name by trying the checks in the
// dispatcher's order. It builds cmdTable; lookupCmd answers for names that
// are not in the table.
func classify(name string) cmdEntry {
	switch {
	case privileged[name]:
		return cmdEntry{class: clsPrivileged}
	case name == "rm":
		return cmdEntry{class: clsRm}
	case strings.HasPrefix(name, "mkfs") || diskCmds[name]:
		return cmdEntry{class: clsDisk}
	case name == "dd":
		return cmdEntry{class: clsDd}
	case name == "shred":
		return cmdEntry{class: clsShred}
	case powerCmds[name]:
		return cmdEntry{class: clsPower}
	case name == "init" || name == "telinit":
		return cmdEntry{class: clsInit}
	case name == "systemctl":
		return cmdEntry{class: clsSystemctl}
	case name == "kill":
		return cmdEntry{class: clsKill}
	case name == "mount" || name == "umount":
		return cmdEntry{class: clsMount}
	case interactive[name]:
		return cmdEntry{class: clsInteractive}
	case networkCmds[name]:
		return cmdEntry{class: clsNetwork}
	case name == "rsync":
		return cmdEntry{class: clsRsync}
	case shells[name]:
		return cmdEntry{class: clsShell}
	case name == "eval":
		return cmdEntry{class: clsEval}
	case name == "source" || name == ".":
		return cmdEntry{class: clsSource}
	case isInterpreter(name):
		return cmdEntry{class: clsInterpreter}
	case name == "awk" || name == "gawk" || name == "mawk" || name == "nawk":
		return cmdEntry{class: clsAwk}
	case name == "sed":
		return cmdEntry{class: clsSed}
	case name == "find":
		return cmdEntry{class: clsFind}
	case name == "git":
		return cmdEntry{class: clsGit}
	case name == "xargs":
		return cmdEntry{class: clsXargs}
	case name == "env":
		return cmdEntry{class: clsEnv}
	case name == "nice" || name == "nohup" || name == "timeout" || name == "time" || name == "stdbuf" ||
		name == "command" || name == "builtin" || name == "exec" || name == "setsid" || name == "flock" || name == "watch":
		return cmdEntry{class: clsWrapper}
	case writers[name]:
		return cmdEntry{class: clsWriter}
	case name == "printenv" || name == "set":
		return cmdEntry{class: clsEnvPrint}
	case assigners[name] != assignerRow{}:
		return cmdEntry{class: clsAssigner}
	case stateBuiltins[name] != "":
		return cmdEntry{class: clsState, state: stateBuiltins[name]}
	case safeNoPaths[name]:
		return cmdEntry{class: clsSafe}
	case readerSpecs[name] != nil:
		return cmdEntry{class: clsReader, reader: readerSpecs[name]}
	}
	return cmdEntry{}
}

// lookupCmd returns the entry of name: from the table, or for a name on no
// list, from the prefixes the dispatcher knows ("mkfs.ext4", "python3.12").
func lookupCmd(name string) cmdEntry {
	if e, ok := cmdTable[name]; ok {
		return e
	}
	switch {
	case strings.HasPrefix(name, "mkfs"):
		return cmdEntry{class: clsDisk}
	case strings.HasPrefix(name, "python") || strings.HasPrefix(name, "pypy"):
		return cmdEntry{class: clsInterpreter}
	}
	return cmdEntry{}
}

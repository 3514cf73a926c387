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
	for n := range interpSpecs {
		names = append(names, n)
	}
	for n := range stateBuiltins {
		names = append(names, n)
	}
	for n := range readerSpecs {
		names = append(names, n)
	}
	for n := range cmdNamed {
		names = append(names, n)
	}
	for n := range assigners {
		names = append(names, n)
	}
	t := make(map[string]cmdEntry, len(names))
	for _, n := range names {
		t[n] = classify(n)
	}
	return t
}

// cmdListed says, for each class that a list holds, whether the list
// names a command.
var cmdListed = map[cmdClass]func(name string) bool{
	clsPrivileged:  func(n string) bool { return privileged[n] },
	clsDisk:        func(n string) bool { return prefixClass(n) == clsDisk || diskCmds[n] },
	clsPower:       func(n string) bool { return powerCmds[n] },
	clsInteractive: func(n string) bool { return interactive[n] },
	clsNetwork:     func(n string) bool { return networkCmds[n] },
	clsShell:       func(n string) bool { return shells[n] },
	clsInterpreter: isInterpreter,
	clsWriter:      func(n string) bool { return writers[n] },
	clsAssigner:    func(n string) bool { return assigners[n] != assignerRow{} },
	clsState:       func(n string) bool { return stateBuiltins[n] != "" },
	clsSafe:        func(n string) bool { return safeNoPaths[n] },
	clsReader:      func(n string) bool { return readerSpecs[n] != nil },
}

// classify gives the entry of name: the first class, in the dispatcher's
// order, that names it by cmdNamed or by its list. It builds cmdTable;
// lookupCmd answers for names that are not in the table.
func classify(name string) cmdEntry {
	named, isNamed := cmdNamed[name]
	for cls := clsPrivileged; cls <= clsReader; cls++ {
		listed := cmdListed[cls]
		if !(isNamed && named == cls || listed != nil && listed(name)) {
			continue
		}
		e := cmdEntry{class: cls}
		switch cls {
		case clsReader:
			e.reader = readerSpecs[name]
		case clsState:
			e.state = stateBuiltins[name]
		}
		return e
	}
	return cmdEntry{}
}

// lookupCmd returns the entry of name: from the table, or for a name on no
// list, from the prefixes the dispatcher knows ("mkfs.ext4", "python3.12").
func lookupCmd(name string) cmdEntry {
	if e, ok := cmdTable[name]; ok {
		return e
	}
	return cmdEntry{class: prefixClass(name)}
}

// prefixClass is the class of the first of cmdPrefixes that name begins
// with, or clsUnlisted.
func prefixClass(name string) cmdClass {
	for _, p := range cmdPrefixes {
		if strings.HasPrefix(name, p.prefix) {
			return p.class
		}
	}
	return clsUnlisted
}

package bashguard

import (
	"maps"
	"slices"
	"strings"
)

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

// lookupCmd returns the entry of name: from the command index, or for a
// name on no list, from the prefixes the dispatcher knows ("mkfs.ext4",
// "python3.12").
func lookupCmd(name string) cmdEntry {
	r, ok := indexed(name)
	return entryOf(name, r, ok)
}

// lookupCmd is the package's lookupCmd, through the call's memo.
func (m *cmdCall) lookupCmd(name string) cmdEntry {
	r, ok := m.indexed(name)
	return entryOf(name, r, ok)
}

// entryOf is the entry of name, whose row in the index is r (ok: held).
func entryOf(name string, r *cmdIndexRow, ok bool) cmdEntry {
	if !ok || !r.listed {
		return cmdEntry{class: prefixClass(name)}
	}
	e := cmdEntry{class: r.class, state: r.state}
	if r.class == clsReader {
		e.reader = readerSpecs()[name]
	}
	return e
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

// stdDirs are the directories where "/bin/rm" still means rm.
func stdDir(dir string) bool {
	switch dir {
	case "/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin", "/usr/local/sbin":
		return true
	}
	return false
}

// SafeCommands returns the names the default policy may auto-allow, given
// read-only arguments: the plain safe commands, the file readers with
// their argument checks, the wrappers that are judged by what they run,
// and the toolchains whose version or listings alone are allowed. The
// result is a fresh slice.
func SafeCommands() []string {
	var out []string
	for n := range safeNoPaths() {
		out = append(out, n)
	}
	for n := range readerSpecs() {
		out = append(out, n)
	}
	for n := range versionTools() {
		out = append(out, n) // only to print their version, or go's and npm's listings
	}
	for n := range toolSpecs() {
		out = append(out, n) // with the options of specs_tools.go
	}
	out = append(out, "ulimit", "printenv", "gofmt", "hash", "rustup", "yq") // in the forms of specs_sys.go
	for _, m := range []map[string]*spec{opsSpecs(), lintSpecs(), rbpySpecs()} {
		for n, s := range m {
			if allowsSome(s) {
				out = append(out, n) // in the forms of specs_ops.go and specs_jstools.go (eslint --version)
			}
		}
	}
	out = append(out, "find", "sed", "awk", "gawk", "mawk", "nawk", "git", "env", "xargs", "tee",
		"time", "nice", "nohup", "timeout", "stdbuf", "command", "builtin", "exec",
		// bash with a literal -c script whose every command is allowed on
		// its own; sh only with code every POSIX shell reads as bash does.
		"bash", "sh",
		// zsh only with a script of plain literal words (shcode.go).
		"zsh",
		// printf without -v prints; with it, it assigns, which is asked.
		"printf",
		// In the forms of model_tools.go.
		"ps", "hostname")
	slices.Sort(out)
	return slices.Compact(out)
}

// allowsSome reports whether a spec allows some line: it has a version
// option, a reason to allow, or a subcommand that allows some line.
func allowsSome(s *spec) bool {
	if s.allow != "" {
		return true
	}
	for r := range s.eachRow {
		if r.kind == kVersion {
			return true
		}
	}
	for _, sub := range s.subs {
		if allowsSome(sub) {
			return true
		}
	}
	return false
}

// EnvironNames returns the names of the variables whose values
// [Policy].Environ may give, sorted.
func EnvironNames() []string {
	return slices.Sorted(maps.Keys(environNames()))
}

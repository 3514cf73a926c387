package bashguard

import "strings"

// The scripts of clients whose own commands reach this machine beside
// the server (lftp -c, smbclient -c): a command of the script that is not
// one of the client's queries may read or write local files or run a
// program, and asks past the client's allow rule.

// commandScript is how one client's scripts are read.
type commandScript struct {
	tool    string
	queries map[string]bool // the commands, lowercased and whole, that reach only the server
	// shellChars are the characters that pipe, redirect or run a
	// command of this machine wherever they stand.
	shellChars string
	// runOpt, when set, begins an option that gives a command more
	// commands to run (lftp's open -e), with why it asks.
	runOpt, runOptWhy string
}

// runs says how the script val reaches this machine, or "" for a script
// of queries alone. Commands end at ";", "&" and a new line; quoting is
// not read, so a separator inside quotes only makes more commands.
func (s commandScript) runs(val string, vf wordFlags) string {
	if vf&wDynamic != 0 {
		return "is only known at run time"
	}
	if strings.ContainsAny(val, s.shellChars) {
		return "pipes or redirects a command's output, or runs a command of this machine (" + s.shellChars + ")"
	}
	for cmd := range strings.FieldsFuncSeq(val, func(r rune) bool { return r == ';' || r == '&' || r == '\n' }) {
		f := strings.Fields(cmd)
		if len(f) == 0 {
			continue
		}
		if !s.queries[strings.ToLower(f[0])] {
			return "runs " + s.tool + "'s " + f[0] + ", which may read or write files of this machine, or run programs"
		}
		for _, w := range f[1:] {
			if s.runOpt != "" && strings.HasPrefix(w, s.runOpt) {
				return s.runOptWhy
			}
		}
	}
	return ""
}

package bashguard

import (
	"strings"
	"sync"
)

// lftp's command line (lftp --help, and open's options, which lftp
// takes too: lftp -c 'help open'): -c and -e give it a script of its own
// commands, -f a file of them. lftp reads its options with getopt, no
// abbreviation of --norc; open's options may follow the site, so the
// spec reads options anywhere.
var lftpRows = rows(
	each(kClientScript, "runs lftp's commands on the server", "-c=", "-e="),
	each(kScriptFile, "runs a script of lftp's commands, which read and write files of this machine and run programs (!)", "-f="),
	each(kWord, "", "-u= --user=", "-p=", "-s=", "--password="),
	each(kFlag, "", "-d", "-B", "--env-password", "--norc", "-h --help", "-v --version"),
)

// lftpSpec is lftp's.
var lftpSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "lftp", grammar: grammar{permute: true}, rows: lftpRows, scriptRuns: lftpScriptRuns}).compile()
})

// lftpQueries are the commands of lftp that reach only the server: they
// list, print or change its files, or end the session. lftp reads a
// command's name in any case and takes a unique prefix of it for the
// command ("sh" is shell), so only a name written whole is one of them.
var lftpQueries = map[string]bool{
	"open": true, "user": true, "ls": true, "cls": true, "nlist": true, "pwd": true, "cd": true, "cat": true, "more": true,
	"zcat": true, "zmore": true, "bzcat": true, "bzmore": true, "find": true, "du": true, "echo": true, "mkdir": true,
	"rm": true, "rmdir": true, "mrm": true, "mv": true, "chmod": true, "exit": true, "bye": true, "quit": true,
}

// lftpScriptRuns says how the lftp script val reaches this machine: a
// command's output piped to a program or redirected to a file (| >), a
// shell command (!), a command other than lftpQueries (get and put read
// and write local files, source and shell run what they name), or
// open -e, whose commands run after it. "" is a script of queries alone.
func lftpScriptRuns(val string, vf wordFlags) string {
	if vf&wDynamic != 0 {
		return "is only known at run time"
	}
	if strings.ContainsAny(val, "|>!`") {
		return "pipes or redirects a command's output, or runs a command of this machine (| > !)"
	}
	for cmd := range strings.FieldsFuncSeq(val, func(r rune) bool { return r == ';' || r == '&' || r == '\n' }) {
		f := strings.Fields(cmd)
		if len(f) == 0 {
			continue
		}
		if name := strings.ToLower(f[0]); !lftpQueries[name] {
			return "runs lftp's " + f[0] + ", which may read or write files of this machine, or run programs"
		}
		for _, w := range f[1:] {
			if strings.HasPrefix(w, "-e") {
				return "gives open the commands of -e, which are not analysed"
			}
		}
	}
	return ""
}

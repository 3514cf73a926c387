package bashguard

import "sync"

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
	return (&spec{name: "lftp", grammar: grammar{permute: true}, rows: lftpRows, scriptRuns: lftpScript.runs}).compile()
})

// lftpScript reads lftp's scripts: its queries are the commands that
// reach only the server (they list, print or change its files, or end the
// session; get and put read and write local files, source and shell run
// what they name); lftp reads a command's name in any case and takes a
// unique prefix of it for the command ("sh" is shell), so only a name
// written whole is one of them. A command's output piped to a program
// or redirected to a file (| >), a shell command (!), and open -e, whose
// commands run after it, are not queries.
var lftpScript = commandScript{tool: "lftp", queries: lftpQueries, shellChars: "|>!`", runOpt: "-e",
	runOptWhy: "gives open the commands of -e, which are not analysed"}

// lftpQueries are lftp's queries (lftpScript).
var lftpQueries = map[string]bool{
	"open": true, "user": true, "ls": true, "cls": true, "nlist": true, "pwd": true, "cd": true, "cat": true, "more": true,
	"zcat": true, "zmore": true, "bzcat": true, "bzmore": true, "find": true, "du": true, "echo": true, "mkdir": true,
	"rm": true, "rmdir": true, "mrm": true, "mv": true, "chmod": true, "exit": true, "bye": true, "quit": true,
}

package bashguard

import "sync"

// Subversion's command line: one table of options for every subcommand
// (svn_cl__options), each with one meaning and one arity wherever it is
// valid, read with apr_getopt_long: letters clustered, a value attached
// or the next word, "--long=value", no abbreviation, options anywhere.
// The rows are every option svn help -v lists for its subcommands, and
// its global options. The external programs it runs (--diff-cmd,
// --diff3-cmd, --editor-cmd) ask past Bash(svn:*), and so does the
// configuration that names them (--config-dir, --config-option); a file
// it reads (-F, --targets) is judged as a read. checkout, export and
// import copy between a URL and a path of this machine (kContainerCopy):
// the local destination is written, the local source read whole.
var svnRows = rows(
	each(kProgram, "runs the program it names", "--diff-cmd=", "--diff3-cmd=", "--editor-cmd="),
	each(kConfig, "reads configuration, whose helpers and tunnels run programs", "--config-dir=", "--config-option="),
	each(kRead, "", "-F= --file=", "--old=", "--new="),
	each(kList, "", "--targets="),
	each(kWord, "", "--accept=", "--changelist= --cl=", "--depth=", "--encoding=", "--native-eol=", "--password=",
		"--search=", "--search-and=", "--set-depth=", "--show-item=", "--show-revs=", "--strip=",
		"--trust-server-cert-failures=", "--username=", "--with-revprop=", "--x-viewspec=", "-c= --change=",
		"-l= --limit=", "-m= --message=", "-r= --revision=", "-x= --extensions="),
	each(kFlag, "", "--adds-as-modification", "--allow-mixed-revisions", "--auto-props", "--diff", "--dry-run", "--force",
		"--force-interactive", "--force-log", "--git", "--ignore-ancestry", "--ignore-externals", "--ignore-keywords",
		"--ignore-properties", "--ignore-whitespace", "--include-externals", "--incremental", "--internal-diff",
		"--keep-changelists", "--keep-local", "--log", "--no-auth-cache", "--no-auto-props", "--no-diff-added",
		"--no-diff-deleted", "--no-ignore", "--no-newline", "--no-unlock", "--non-interactive", "--notice-ancestry",
		"--parents", "--password-from-stdin", "--patch-compatible", "--pin-externals", "--properties-only",
		"--record-only", "--reintegrate", "--relocate", "--remove", "--remove-added", "--remove-ignored",
		"--remove-unversioned", "--reverse-diff", "--revprop", "--show-copies-as-adds", "--show-inherited-props",
		"--show-passwords", "--stop-on-copy", "--strict", "--summarize", "--trust-server-cert", "--vacuum-pristines",
		"--with-all-revprops", "--with-no-revprops", "--xml", "-H --human-readable", "-N --non-recursive",
		"-R --recursive", "-g --use-merge-history", "-q --quiet", "-u --show-updates", "-v --verbose", "--version",
		"-h --help"),
)

// svnSpec is svn's.
var svnSpec = sync.OnceValue(func() *spec {
	copying := &spec{grammar: grammar{permute: true}, rows: svnRows, operands: kContainerCopy}
	return (&spec{name: "svn", grammar: grammar{permute: true}, rows: svnRows, subs: map[string]*spec{
		"checkout": copying, "co": copying, "export": copying, "import": copying,
	}}).compile()
})

package bashguard

// The commands that change files, as data: every option each one's --help
// lists, with what its value is (a mode, a suffix: a word; a file whose
// times or mode are copied: read; the directory the operands go into:
// kTargetDir), and what its operands are: files written (kWrite), sources
// read and a destination written (kCopy, kMove), link targets and a link
// (kLink). writers.go judges them by these kinds; every line of them asks
// at best ("changes files"), tee without a file aside. spec_help_test.go
// holds the tables to the installed tools' --help.

// writerSpecs are the writers' specs, by command name.
var writerSpecs = compileAll(map[string]*spec{
	"cp": writerSpec(writerCpRows, kCopy,
		example{"cp a.txt b.txt", "ask"}, example{"cp -t src a.txt", "ask"}, example{"cp --target-dir=src a.txt", "ask"},
		example{"cp .env x.txt", "deny"}, example{"cp -rt src .env", "deny"}, example{"cp --nosuch a.txt b.txt", "ask"}),
	"mv": writerSpec(writerMvRows, kMove,
		example{"mv a.txt b.txt", "ask"}, example{"mv -t src a.txt", "ask"}, example{"mv -fTa.txt b.txt", "ask"},
		example{"mv .env x.txt", "deny"}, example{"mv -x a.txt b.txt", "ask"}),
	"install": writerSpec(writerInstallRows, kCopy,
		example{"install -m 644 a.txt b.txt", "ask"}, example{"install -Dm644 -t src a.txt", "ask"}, example{"install .env x", "deny"},
		example{"install -s a.txt b.txt", "ask"}, example{"install --strip-prog=x a.txt b.txt", "ask"}),
	"ln": writerSpec(writerLnRows, kLink,
		example{"ln -s a.txt b.txt", "ask"}, example{"ln -st src a.txt", "ask"}, example{"ln -s a.txt", "ask"}, example{"ln -y a b", "ask"}),
	"touch": writerSpec(writerTouchRows, kWrite,
		example{"touch a.txt", "ask"}, example{"touch -d 2020-01-01 -m a.txt", "ask"}, example{"touch -r .env a.txt", "deny"},
		example{"touch --ref=.env a.txt", "deny"}, example{"touch -x a.txt", "ask"}),
	"mkdir": writerSpec(writerMkdirRows, kWrite,
		example{"mkdir -p src/x", "ask"}, example{"mkdir -m755 d", "ask"}, example{"mkdir --mode 755 d", "ask"}, example{"mkdir -x d", "ask"}),
	"truncate": writerSpec(writerTruncateRows, kWrite,
		example{"truncate -s 0 a.txt", "ask"}, example{"truncate -r .env a.txt", "deny"}, example{"truncate -x a.txt", "ask"}),
	"rmdir": writerSpec(writerRmdirRows, kWrite,
		example{"rmdir -p src", "ask"}, example{"rmdir --ignore src", "ask"}, example{"rmdir -x src", "ask"}),
	"unlink": writerSpec(gnuInfoRows, kWrite,
		example{"unlink a.txt", "ask"}, example{"unlink -x a.txt", "ask"}),
	// tee FILE... writes each FILE; without one it only copies its
	// input to its output.
	"tee": {grammar: gnuGrammar, rows: writerTeeRows, operands: kWrite, ask: "changes files", bareWhy: "",
		allow:    "copies its input to its output only",
		examples: []example{{"tee", "allow"}, {"tee -ai", "allow"}, {"tee --output-error=warn", "allow"}, {"tee a.txt", "ask"}, {"tee -a .env", "deny"}, {"tee -x", "ask"}}},
	// chmod MODE FILE..., chown OWNER FILE..., chgrp GROUP FILE...: the
	// first operand is a word, unless --reference gives it (or, to
	// chmod, a mode written as an option: "chmod -w FILE").
	"chmod": {grammar: grammar{abbrev: true, permute: true, digits: true}, rows: writerChmodRows, operands: kWrite,
		firstOperand: kWord, patternBy: []string{"--reference", "-r", "-w", "-x", "-X", "-s", "-t", "-u", "-g", "-o", "-a", "-NUM"},
		ask: "changes files", bareWhy: "changes files",
		examples: []example{{"chmod 644 a.txt", "ask"}, {"chmod -w a.txt", "ask"}, {"chmod -R u+w src", "ask"}, {"chmod --reference=.env a.txt", "deny"},
			{"chmod -R 777 /", "deny"}, {"chmod --recur 777 /", "deny"}, {"chmod -y a.txt", "ask"}}},
	"chown": {grammar: gnuGrammar, rows: writerChownRows, operands: kWrite, firstOperand: kWord, patternBy: []string{"--reference"},
		ask: "changes files", bareWhy: "changes files",
		examples: []example{{"chown nobody a.txt", "ask"}, {"chown --from=root nobody a.txt", "ask"}, {"chown -R nobody /", "deny"},
			{"chown --reference=.env a.txt", "deny"}, {"chown -x nobody a.txt", "ask"}}},
	"chgrp": {grammar: gnuGrammar, rows: writerChgrpRows, operands: kWrite, firstOperand: kWord, patternBy: []string{"--reference"},
		ask: "changes files", bareWhy: "changes files",
		examples: []example{{"chgrp nogroup a.txt", "ask"}, {"chgrp -hR nogroup /etc", "deny"}, {"chgrp --ref .env a.txt", "deny"}, {"chgrp -x g a.txt", "ask"}}},
})

// writerSpec is the spec of a writer that takes no word before its
// operands, which are of the kind ops.
func writerSpec(rows []optRow, ops kind, ex ...example) *spec {
	return &spec{grammar: gnuGrammar, rows: rows, operands: ops, ask: "changes files", bareWhy: "changes files", examples: ex}
}

// writerBackupRows are the backup options of cp, mv, install and ln:
// each destination they replace is first renamed beside itself.
var writerBackupRows = []optRow{
	{"--backup[=]", kWord, ""},
	{"-b", kFlag, ""},
	{"-S= --suffix=", kWord, ""},
}

// writerTargetRows are the options of cp, mv, install and ln that say
// where the operands go.
var writerTargetRows = []optRow{
	{"-t= --target-directory=", kTargetDir, ""},
	{"-T --no-target-directory", kFlag, ""},
}

// writerCpRows are the options of cp. -i prompts on its input, which is
// not a terminal; -l and -s make links in place of copies (their sources
// are judged as read all the same).
var writerCpRows = rows([]optRow{
	{"-a --archive", kRecurse, ""},
	{"--attributes-only", kFlag, ""},
	{"--copy-contents", kFlag, ""},
	{"-d", kFlag, ""},
	{"-f --force", kFlag, ""},
	{"-i --interactive", kFlag, ""},
	{"-H", kFlag, ""},
	{"-l --link", kFlag, ""},
	{"-L --dereference", kFlag, ""},
	{"-n --no-clobber", kFlag, ""},
	{"-P --no-dereference", kFlag, ""},
	{"-p", kFlag, ""},
	{"--preserve[=]", kWord, ""},
	{"--no-preserve=", kWord, ""},
	{"--parents", kFlag, ""},
	{"-R -r --recursive", kRecurse, ""},
	{"--reflink[=]", kWord, ""},
	{"--remove-destination", kFlag, ""},
	{"--sparse=", kWord, ""},
	{"--strip-trailing-slashes", kFlag, ""},
	{"-s --symbolic-link", kFlag, ""},
	{"-u --update", kFlag, ""},
	{"-v --verbose", kFlag, ""},
	{"-x --one-file-system", kFlag, ""},
	{"-Z", kFlag, ""},
	{"--context[=]", kWord, ""},
}, writerBackupRows, writerTargetRows, gnuInfoRows)

// writerMvRows are the options of mv.
var writerMvRows = rows([]optRow{
	{"-f --force", kFlag, ""},
	{"-i --interactive", kFlag, ""},
	{"-n --no-clobber", kFlag, ""},
	{"--strip-trailing-slashes", kFlag, ""},
	{"-u --update", kFlag, ""},
	{"-v --verbose", kFlag, ""},
	{"-Z --context", kFlag, ""},
}, writerBackupRows, writerTargetRows, gnuInfoRows)

// writerInstallRows are the options of install. -s runs strip on what it
// installs, --strip-program names the program it runs for it.
var writerInstallRows = rows([]optRow{
	{"-c", kFlag, ""},
	{"-C --compare", kFlag, ""},
	{"-d --directory", kFlag, ""},
	{"-D", kFlag, ""},
	{"-g= --group=", kWord, ""},
	{"-m= --mode=", kWord, ""},
	{"-o= --owner=", kWord, ""},
	{"-p --preserve-timestamps", kFlag, ""},
	{"-s --strip", kProgram, "runs strip on the files it installs"},
	{"--strip-program=", kProgram, "names the program it runs on the files it installs"},
	{"-v --verbose", kFlag, ""},
	{"--preserve-context", kFlag, ""},
	{"-Z", kFlag, ""},
	{"--context[=]", kWord, ""},
}, writerBackupRows, writerTargetRows, gnuInfoRows)

// writerLnRows are the options of ln.
var writerLnRows = rows([]optRow{
	{"-d -F --directory", kFlag, ""},
	{"-f --force", kFlag, ""},
	{"-i --interactive", kFlag, ""},
	{"-L --logical", kFlag, ""},
	{"-n --no-dereference", kFlag, ""},
	{"-P --physical", kFlag, ""},
	{"-r --relative", kFlag, ""},
	{"-s --symbolic", kFlag, ""},
	{"-v --verbose", kFlag, ""},
}, writerBackupRows, writerTargetRows, gnuInfoRows)

// writerTouchRows are the options of touch: -r takes the times of a file
// it reads.
var writerTouchRows = rows([]optRow{
	{"-a", kFlag, ""},
	{"-c --no-create", kFlag, ""},
	{"-d= --date=", kWord, ""},
	{"-f", kFlag, ""},
	{"-h --no-dereference", kFlag, ""},
	{"-m", kFlag, ""},
	{"-r= --reference=", kRead, ""},
	{"-t=", kWord, ""},
	{"--time=", kWord, ""},
}, gnuInfoRows)

// writerMkdirRows are the options of mkdir.
var writerMkdirRows = rows([]optRow{
	{"-m= --mode=", kWord, ""},
	{"-p --parents", kFlag, ""},
	{"-v --verbose", kFlag, ""},
	{"-Z", kFlag, ""},
	{"--context[=]", kWord, ""},
}, gnuInfoRows)

// writerTruncateRows are the options of truncate: -r takes the size of a
// file it reads.
var writerTruncateRows = rows([]optRow{
	{"-c --no-create", kFlag, ""},
	{"-o --io-blocks", kFlag, ""},
	{"-r= --reference=", kRead, ""},
	{"-s= --size=", kWord, ""},
}, gnuInfoRows)

// writerRmdirRows are the options of rmdir.
var writerRmdirRows = rows([]optRow{
	{"--ignore-fail-on-non-empty", kFlag, ""},
	{"-p --parents", kFlag, ""},
	{"-v --verbose", kFlag, ""},
}, gnuInfoRows)

// writerTeeRows are the options of tee.
var writerTeeRows = rows([]optRow{
	{"-a --append", kFlag, ""},
	{"-i --ignore-interrupts", kFlag, ""},
	{"-p", kFlag, ""},
	{"--output-error[=]", kWord, ""},
}, gnuInfoRows)

// writerOwnerRows are the options chmod, chown and chgrp share; -R
// changes the trees below the operands. --reference takes the mode or
// owner of a file it reads.
var writerOwnerRows = rows([]optRow{
	{"-c --changes", kFlag, ""},
	{"-f --silent --quiet", kFlag, ""},
	{"-v --verbose", kFlag, ""},
	{"--no-preserve-root", kFlag, ""},
	{"--preserve-root", kFlag, ""},
	{"--reference=", kRead, ""},
	{"-R --recursive", kRecurse, ""},
}, gnuInfoRows)

// writerChownRows are the options of chown.
var writerChownRows = rows([]optRow{
	{"--dereference", kFlag, ""},
	{"-h --no-dereference", kFlag, ""},
	{"--from=", kWord, ""},
	{"-H", kFlag, ""},
	{"-L", kFlag, ""},
	{"-P", kFlag, ""},
}, writerOwnerRows)

// writerChgrpRows are the options of chgrp.
var writerChgrpRows = rows([]optRow{
	{"--dereference", kFlag, ""},
	{"-h --no-dereference", kFlag, ""},
	{"-H", kFlag, ""},
	{"-L", kFlag, ""},
	{"-P", kFlag, ""},
}, writerOwnerRows)

// writerChmodRows are the options of chmod. Its getopt also reads a mode
// that starts with "-" ("-w", "-rwx", "-u+x", "-755"): each letter a mode
// may start with is an option whose value, attached, is the rest of the
// mode, which is then not an operand.
var writerChmodRows = rows([]optRow{
	{"-r[=]", kWord, ""}, {"-w[=]", kWord, ""}, {"-x[=]", kWord, ""}, {"-X[=]", kWord, ""}, {"-s[=]", kWord, ""},
	{"-t[=]", kWord, ""}, {"-u[=]", kWord, ""}, {"-g[=]", kWord, ""}, {"-o[=]", kWord, ""}, {"-a[=]", kWord, ""},
}, writerOwnerRows)

package bashguard

import "sync"

// The read-only tools with options of their own, as data: listers (tree,
// fd), dumpers (xxd, hexdump, strings), text tools (fold, fmt, join) and
// system queries (uptime, free, lscpu, pgrep, ss, ...). Every option each
// tool's --help lists is here: the ones the guard has judged harmless
// with their arity and kind, the others asking with the reason they are
// not allowed, listed so that an abbreviation resolves as the tool
// resolves it. What the operands are is the spec's operands kind: files
// read (kRead), paths whose names are listed (kProbe), words (kWord), or
// none at all (kUnknown: an operand asks). model_tools.go keeps what the kinds
// cannot say (xxd IN OUT, strings @FILE, getconf NAME PATH, tree's
// clusters). spec_help_test.go reads the installed tools' --help and fails
// on an option these tables do not classify.

// toolSpecs are the tools' specs, by command name.
var toolSpecs = sync.OnceValue(func() map[string]*spec {
	return compileAll(map[string]*spec{
		// tree reads its own command line: long options by their exact
		// names, "--opt=value" or "--opt value"; a short option's value is
		// always the next word, and its cluster goes on (nextValues).
		"tree": {grammar: grammar{permute: true, nextValues: true}, rows: toolTreeRows, operands: kProbe, bareDot: true,
			allow: "tree lists names inside the allowed roots",
			examples: []example{{"tree", "allow"}, {"tree -a src", "allow"}, {"tree -L 1 --noreport .", "allow"}, {"tree -aL 1 src", "allow"}, {"tree -La 1 src", "allow"},
				{"tree -o out.txt src", "ask"}, {"tree -Lo 1 out.txt src", "ask"}, {"tree --gitfile .env", "deny"}, {"tree -l src", "ask"}, {"tree --filel=3 src", "ask"}}},
		// fd (fdfind on Debian) reads its command line with clap: exact long
		// names, clusters, attached values. fd PATTERN PATH...: the pattern
		// is data.
		"fd":     fdSpec("fd"),
		"fdfind": fdSpec("fdfind"),
		// xxd reads its own command line: one option a word, long ones with
		// one dash, options end at the first operand; xxd IN OUT writes OUT.
		// Every operand after the first is judged as written, since a value
		// the scanner attaches xxd may take from the next word.
		"xxd": {grammar: grammar{oneDash: true}, rows: toolXxdRows, leadOps: []kind{kRead}, operands: kWrite,
			allow: "xxd reads only inside the allowed roots",
			examples: []example{{"xxd a.txt", "allow"}, {"xxd -l 4 -c 8 a.txt", "allow"}, {"xxd -ps a.txt", "allow"}, {"xxd -cols 4 a.txt", "allow"},
				{"xxd .env", "deny"}, {"xxd -ps .env", "deny"}, {"xxd a.txt out.txt", "ask"}, {"xxd -r a.txt", "ask"}, {"xxd a.txt -r", "ask"}}},
		"hexdump": {grammar: gnuGrammar, rows: toolHexdumpRows, operands: kRead, allow: "hexdump reads only inside the allowed roots",
			examples: []example{{"hexdump -C a.txt", "allow"}, {"hexdump -n 4 -x a.txt", "allow"}, {"hexdump --color=never -C a.txt", "allow"},
				{"hexdump --color .env", "deny"}, {"hexdump -f .env a.txt", "deny"}}},
		// strings: "@FILE" reads more options from FILE (atFiles); -NUM
		// is -n NUM.
		"strings": {grammar: grammar{abbrev: true, permute: true, digits: true}, rows: toolStringsRows, operands: kRead, atFiles: true,
			examples: []example{{"strings a.txt", "allow"}, {"strings -n 3 -t x a.txt", "allow"}, {"strings -8 a.txt", "allow"},
				{"strings .env", "deny"}, {"strings @a.txt", "ask"}, {"strings -t @a.txt a.txt", "ask"}, {"strings -H a.txt", "ask"}}},
		"fold": {grammar: grammar{abbrev: true, permute: true, digits: true}, rows: toolFoldRows(), operands: kRead,
			examples: []example{{"fold -w 3 a.txt", "allow"}, {"fold -3 a.txt", "allow"}, {"fold -sw3 a.txt", "allow"}, {"fold .env", "deny"}}},
		"fmt": {grammar: grammar{abbrev: true, permute: true, digits: true}, rows: toolFmtRows(), operands: kRead,
			examples: []example{{"fmt -w 20 a.txt", "allow"}, {"fmt -u a.txt", "allow"}, {"fmt -p '#' .env", "deny"}}},
		// join FILE1 FILE2.
		"join": {grammar: gnuGrammar, rows: toolJoinRows(), operands: kRead,
			examples: []example{{"join a.txt a.txt", "allow"}, {"join -1 1 -2 1 -t, a.txt a.txt", "allow"}, {"join a.txt .env", "deny"}}},
		"uptime": {grammar: gnuGrammar, rows: toolUptimeRows,
			examples: []example{{"uptime", "allow"}, {"uptime -p", "allow"}, {"uptime now", "ask"}}},
		"nproc": {grammar: gnuGrammar, rows: toolNprocRows(),
			examples: []example{{"nproc", "allow"}, {"nproc --all", "allow"}, {"nproc --ignore=1", "allow"}, {"nproc 2", "ask"}}},
		"arch": {grammar: gnuGrammar, rows: gnuInfoRows,
			examples: []example{{"arch", "allow"}, {"arch -x", "ask"}}},
		"tty": {grammar: gnuGrammar, rows: toolTtyRows(),
			examples: []example{{"tty -s", "allow"}, {"tty x", "ask"}}},
		// groups [USER]...
		"groups": {grammar: gnuGrammar, rows: gnuInfoRows, operands: kWord,
			examples: []example{{"groups", "allow"}, {"groups root", "allow"}, {"groups -x", "ask"}}},
		// locale [NAME]...: names of categories and keywords.
		"locale": {grammar: gnuGrammar, rows: toolLocaleRows, operands: kWord,
			examples: []example{{"locale", "allow"}, {"locale -a", "allow"}, {"locale -k LC_CTYPE", "allow"}, {"locale -x", "ask"}}},
		// getconf [-v SPEC] NAME [PATH], getconf -a [PATH]: the limits of
		// PATH are looked up, so it is probed; NAME is a word, unless -a
		// lists every name.
		"getconf": {grammar: posixGrammar, rows: toolGetconfRows, operands: kProbe, firstOperand: kWord, patternBy: []string{"-a"},
			examples: []example{{"getconf PAGESIZE", "allow"}, {"getconf NAME_MAX src", "allow"}, {"getconf -a", "allow"}, {"getconf -a src", "allow"}, {"getconf -a .env", "ask"}, {"getconf -x", "ask"}}},
		// Debian's lsb_release is a shell script that runs getopt, cut and
		// tr on words it fixes.
		"lsb_release": {grammar: gnuGrammar, rows: toolLsbReleaseRows, helpers: []string{"getopt", "cut", "tr"},
			examples: []example{{"lsb_release -a", "allow"}, {"lsb_release --sh -i", "allow"}, {"lsb_release x", "ask"}}},
		"free": {grammar: gnuGrammar, rows: toolFreeRows,
			examples: []example{{"free -h", "allow"}, {"free --mebi -c 1", "allow"}, {"free -s 1", "ask"}, {"free --sec 1", "ask"}}},
		"lscpu": {grammar: gnuGrammar, rows: toolLscpuRows,
			examples: []example{{"lscpu", "allow"}, {"lscpu -J", "allow"}, {"lscpu --extended=CPU,CORE", "allow"}, {"lscpu -s /", "ask"}}},
		// pgrep PATTERN.
		"pgrep": {grammar: gnuGrammar, rows: toolPgrepRows, operands: kWord,
			examples: []example{{"pgrep -l bash", "allow"}, {"pgrep -u root -c sh", "allow"}, {"pgrep -F .env", "deny"}}},
		// hostname alone prints the host's name; with arguments, but for
		// its help and version, it sets the name (an operand, -F, -b) or
		// looks it up in the DNS (-f, -i, -a, -d, ...).
		"hostname": {grammar: gnuGrammar, rows: toolHostnameRows, operands: kWord, allow: "hostname prints the host's name",
			query:    []cond{{test: cForms, values: []string{""}, fail: fArgsByRule, why: "hostname with arguments sets the name or looks it up in the DNS"}},
			examples: []example{{"hostname", "allow"}, {"hostname --version", "allow"}, {"hostname -f", "ask"}, {"hostname -V -f", "ask"}, {"hostname -f evil.example", "ask"}, {"hostname evil.example", "ask"}, {"hostname -F a.txt", "ask"}}},
		// ps reads its command line in a language of its own: UNIX options
		// (-ef), BSD ones without a dash (aux), GNU long ones, and a dashed
		// word it cannot read as UNIX options read again as BSD ones: the
		// grammar's bsd. BSD e prints every process's environment.
		"ps": {grammar: grammar{bsd: true}, rows: toolPsRows, allow: "ps lists processes",
			examples: []example{{"ps -ef", "allow"}, {"ps aux", "allow"}, {"ps -o pid,comm", "allow"}, {"ps -p 1 -o pid=", "allow"},
				{"ps --sort=-%mem -eo pid,cmd", "allow"}, {"ps axjf", "allow"}, {"ps -efww", "allow"}, {"ps h -o pid", "allow"},
				{"ps auxe", "ask"}, {"ps -axe", "ask"}, {"ps e -p 1", "ask"}, {"ps -N e", "ask"}, {"ps -o pid e", "ask"},
				{"ps --sor=pid", "ask"}, {"ps -W", "ask"}}},
		// ss [FILTER].
		"ss": {grammar: gnuGrammar, rows: toolSsRows, operands: kWord,
			examples: []example{{"ss -tln", "allow"}, {"ss -s", "allow"}, {"ss -A tcp", "allow"}, {"ss -K", "ask"}, {"ss -r", "ask"}, {"ss -D out.txt", "ask"}, {"ss -tE", "ask"}}},
	})
})

// fdSpec is the spec of fd, installed as name. Debian installs it as
// fdfind alone, so fd's allowed examples, which the effect test runs, are
// fdfind's.
func fdSpec(name string) *spec {
	ex := []example{{name + " -x rm", "ask"}, {name + " -l x", "ask"}, {name + " --ignore-file .env x", "deny"}, {name + " --exe x", "ask"}}
	if name == "fdfind" {
		ex = append(ex, example{name + " main", "allow"}, example{name + " -e go . src", "allow"}, example{name + " -H -t f -d2 x src", "allow"})
	}
	return &spec{grammar: grammar{permute: true}, rows: toolFdRows, operands: kProbe, firstOperand: kPattern, bareDot: true,
		allow: name + " lists names inside the allowed roots", examples: ex,
		lists: &listModel{pattern: patOptional, operands: opStarts, skipHidden: true, opts: fdListRows}}
}

// toolHostnameRows are the options of hostname: its help and version,
// and those that set the name or look it up in the DNS, which the
// spec's query row asks for.
var toolHostnameRows = []optRow{
	{"-h --help", kVersion, ""}, {"-V --version", kVersion, ""},
	{"-a --alias", kFlag, ""}, {"-A --all-fqdns", kFlag, ""}, {"-b --boot", kFlag, ""}, {"-d --domain", kFlag, ""},
	{"-f --fqdn --long", kFlag, ""}, {"-F= --file=", kWord, ""}, {"-i --ip-address", kFlag, ""}, {"-I --all-ip-addresses", kFlag, ""},
	{"-s --short", kFlag, ""}, {"-y --yp --nis", kFlag, ""},
}

// toolTreeRows are the options of tree. -o writes, -R reruns tree in
// every directory at the -L level, -l follows links out of the tree,
// --fromfile reads the names to list from files, --info prints the .info
// files it finds; the HTML options are not among the harmless ones.
var toolTreeRows = []optRow{
	{"-a", kFlag, ""}, {"-d", kFlag, ""}, {"-f", kFlag, ""}, {"-x", kFlag, ""},
	{"-L=", kWord, ""},
	{"-P=", kPattern, ""}, {"-I=", kPattern, ""},
	{"--gitignore", kFlag, ""},
	{"--gitfile=", kRead, ""},
	{"--ignore-case", kFlag, ""}, {"--matchdirs", kFlag, ""}, {"--metafirst", kFlag, ""}, {"--prune", kFlag, ""},
	{"--infofile=", kRead, ""},
	{"--noreport", kFlag, ""},
	{"--charset=", kWord, ""}, {"--filelimit=", kWord, ""},
	{"-q", kFlag, ""}, {"-N", kFlag, ""}, {"-Q", kFlag, ""}, {"-p", kFlag, ""}, {"-u", kFlag, ""}, {"-g", kFlag, ""},
	{"-s", kFlag, ""}, {"-h", kFlag, ""}, {"--si", kFlag, ""}, {"--du", kFlag, ""}, {"-D", kFlag, ""},
	{"--timefmt=", kWord, ""},
	{"-F", kFlag, ""}, {"--inodes", kFlag, ""}, {"--device", kFlag, ""},
	{"-v", kFlag, ""}, {"-t", kFlag, ""}, {"-c", kFlag, ""}, {"-U", kFlag, ""}, {"-r", kFlag, ""},
	{"--dirsfirst", kFlag, ""}, {"--filesfirst", kFlag, ""},
	{"--sort=", kWord, ""},
	{"-i", kFlag, ""}, {"-A", kFlag, ""}, {"-S", kFlag, ""}, {"-n", kFlag, ""}, {"-C", kFlag, ""},
	{"-X", kFlag, ""}, {"-J", kFlag, ""},
	{"--version", kFlag, ""}, {"--help", kFlag, ""},
	{"-l", kAsk, "follows symbolic links to directories, out of the tree"},
	{"-R", kAsk, "reruns tree in every directory at the -L level, writing a listing there with -o"},
	{"-o=", kWrite, "its listing to a file"},
	{"-H=", kAsk, "makes an HTML page, which is not known to be harmless"},
	{"-T=", kAsk, "titles an HTML page, which is not known to be harmless"},
	{"--nolinks", kAsk, "changes an HTML page, which is not known to be harmless"},
	{"--hintro=", kAsk, "puts a file into an HTML page, which is not known to be harmless"},
	{"--houtro=", kAsk, "puts a file into an HTML page, which is not known to be harmless"},
	{"--fromfile", kAsk, "reads the names to list from its operands' files, which are not judged as lists"},
	{"--fflinks", kAsk, "reads link information with --fromfile, which is not known to be harmless"},
	{"--info", kAsk, "prints the .info files it finds in the tree, which are not judged"},
}

// toolFdRows are the options of fd. -x and -X run a command on what it
// finds, -l runs ls, -L follows links out of the tree, --base-directory
// moves the search.
var toolFdRows = []optRow{
	{"-H --hidden", kFlag, ""}, {"--no-hidden", kFlag, ""},
	{"-I --no-ignore", kFlag, ""}, {"--ignore", kFlag, ""},
	{"--no-ignore-vcs", kFlag, ""}, {"--ignore-vcs", kFlag, ""}, {"--no-ignore-parent", kFlag, ""},
	{"-u --unrestricted", kFlag, ""},
	{"-s --case-sensitive", kFlag, ""}, {"-i --ignore-case", kFlag, ""},
	{"-g --glob", kFlag, ""}, {"--regex", kFlag, ""}, {"-F --fixed-strings", kFlag, ""},
	{"--and=", kPattern, ""},
	{"-a --absolute-path", kFlag, ""}, {"--relative-path", kFlag, ""},
	{"-p --full-path", kFlag, ""},
	{"-0 --print0", kFlag, ""},
	{"-d= --max-depth=", kWord, ""}, {"--min-depth=", kWord, ""}, {"--exact-depth=", kWord, ""},
	{"-E= --exclude=", kPattern, ""},
	{"--prune", kFlag, ""},
	{"-t= --type=", kWord, ""}, {"-e= --extension=", kWord, ""}, {"-S= --size=", kWord, ""},
	{"--changed-within= --change-newer-than= --newer=", kWord, ""},
	{"--changed-before= --change-older-than= --older=", kWord, ""},
	{"-o= --owner=", kWord, ""},
	{"--batch-size=", kWord, ""},
	{"--ignore-file=", kRead, ""},
	{"-c= --color=", kWord, ""},
	{"-j= --threads=", kWord, ""},
	{"--max-results=", kWord, ""}, {"-1", kFlag, ""},
	{"-q --quiet", kFlag, ""}, {"--show-errors", kFlag, ""},
	{"--path-separator=", kWord, ""},
	{"--search-path=", kProbe, ""},
	{"--strip-cwd-prefix", kFlag, ""}, {"--one-file-system", kFlag, ""},
	{"--no-require-git", kFlag, ""}, {"--require-git", kFlag, ""}, {"--no-follow", kFlag, ""},
	{"--format=", kWord, ""}, {"--hyperlink[=]", kWord, ""},
	{"-h --help", kFlag, ""}, {"-V --version", kFlag, ""},
	{"-x= --exec=", kProgram, "runs a command on every file it finds"},
	{"-X= --exec-batch=", kProgram, "runs a command on the files it finds"},
	{"-l --list-details", kProgram, "runs ls on the files it finds"},
	{"-L --follow", kAsk, "follows symbolic links, out of the tree"},
	{"--base-directory=", kAsk, "moves the search to a directory that is not judged"},
}

// toolXxdRows are the options of xxd. -r turns a dump back into binary
// (and patches an output file in place).
var toolXxdRows = []optRow{
	{"-a -autoskip", kFlag, ""}, {"-b -bits", kFlag, ""}, {"-C -capitalize", kFlag, ""},
	{"-c= -cols=", kWord, ""},
	{"-E -EBCDIC", kFlag, ""}, {"-e", kFlag, ""},
	{"-g= -groupsize=", kWord, ""},
	{"-h -help", kFlag, ""}, {"-i -include", kFlag, ""},
	{"-l= -len=", kWord, ""}, {"-n= -name=", kWord, ""}, {"-o=", kWord, ""},
	{"-p -ps -postscript -plain", kFlag, ""},
	{"-d", kFlag, ""},
	{"-s= -seek=", kWord, ""},
	{"-u -uppercase", kFlag, ""}, {"-v -version", kFlag, ""},
	{"-r -revert", kAsk, "turns a dump back into binary, patching the output file in place"},
}

// toolHexdumpRows are the options of hexdump (util-linux). -L and --color
// take their mode only attached.
var toolHexdumpRows = []optRow{
	{"-b --one-byte-octal", kFlag, ""}, {"-c --one-byte-char", kFlag, ""}, {"-C --canonical", kFlag, ""},
	{"-d --two-bytes-decimal", kFlag, ""}, {"-o --two-bytes-octal", kFlag, ""}, {"-x --two-bytes-hex", kFlag, ""},
	{"-L[=] --color[=]", kWord, ""},
	{"-e= --format=", kWord, ""},
	{"-f= --format-file=", kRead, ""},
	{"-n= --length=", kWord, ""}, {"-s= --skip=", kWord, ""},
	{"-v --no-squeezing", kFlag, ""},
	{"-h --help", kFlag, ""}, {"-V --version", kFlag, ""},
}

// toolStringsRows are the options of strings (binutils); -0 to -9 build a
// length, as -n does.
var toolStringsRows = []optRow{
	{"-a --all", kFlag, ""}, {"-d --data", kFlag, ""}, {"-f --print-file-name", kFlag, ""},
	{"-n= --bytes=", kWord, ""},
	{"-t= --radix=", kWord, ""},
	{"-w --include-all-whitespace", kFlag, ""},
	{"-o", kFlag, ""},
	{"-T= --target=", kWord, ""},
	{"-e= --encoding=", kWord, ""},
	{"-U= --unicode=", kWord, ""},
	{"-s= --output-separator=", kWord, ""},
	{"-h --help", kFlag, ""}, {"-v -V --version", kFlag, ""},
	{"-0", kFlag, ""}, {"-1", kFlag, ""}, {"-2", kFlag, ""}, {"-3", kFlag, ""}, {"-4", kFlag, ""},
	{"-5", kFlag, ""}, {"-6", kFlag, ""}, {"-7", kFlag, ""}, {"-8", kFlag, ""}, {"-9", kFlag, ""},
}

// digitRows are -0 to -9, which fold and fmt read as digits of a width.
var digitRows = []optRow{
	{"-0", kFlag, ""}, {"-1", kFlag, ""}, {"-2", kFlag, ""}, {"-3", kFlag, ""}, {"-4", kFlag, ""},
	{"-5", kFlag, ""}, {"-6", kFlag, ""}, {"-7", kFlag, ""}, {"-8", kFlag, ""}, {"-9", kFlag, ""},
}

// toolFoldRows are the options of fold.
var toolFoldRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"-b --bytes", kFlag, ""}, {"-s --spaces", kFlag, ""},
		{"-w= --width=", kWord, ""},
	}, digitRows, gnuInfoRows)
})

// toolFmtRows are the options of fmt.
var toolFmtRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"-c --crown-margin", kFlag, ""},
		{"-p= --prefix=", kWord, ""},
		{"-s --split-only", kFlag, ""}, {"-t --tagged-paragraph", kFlag, ""}, {"-u --uniform-spacing", kFlag, ""},
		{"-w= --width=", kWord, ""}, {"-g= --goal=", kWord, ""},
	}, digitRows, gnuInfoRows)
})

// toolJoinRows are the options of join.
var toolJoinRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"-a=", kWord, ""}, {"-e=", kWord, ""},
		{"-i --ignore-case", kFlag, ""},
		{"-j=", kWord, ""}, {"-o=", kWord, ""}, {"-t=", kWord, ""}, {"-v=", kWord, ""},
		{"-1=", kWord, ""}, {"-2=", kWord, ""},
		{"--check-order", kFlag, ""}, {"--nocheck-order", kFlag, ""}, {"--header", kFlag, ""},
		{"-z --zero-terminated", kFlag, ""},
	}, gnuInfoRows)
})

// toolUptimeRows are the options of uptime (procps).
var toolUptimeRows = []optRow{
	{"-p --pretty", kFlag, ""}, {"-h --help", kFlag, ""}, {"-s --since", kFlag, ""}, {"-V --version", kFlag, ""},
}

// toolNprocRows are the options of nproc.
var toolNprocRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"--all", kFlag, ""}, {"--ignore=", kWord, ""},
	}, gnuInfoRows)
})

// toolTtyRows are the options of tty.
var toolTtyRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"-s --silent --quiet", kFlag, ""},
	}, gnuInfoRows)
})

// toolLocaleRows are the options of locale (glibc's argp).
var toolLocaleRows = []optRow{
	{"-a --all-locales", kFlag, ""}, {"-m --charmaps", kFlag, ""}, {"-c --category-name", kFlag, ""},
	{"-k --keyword-name", kFlag, ""}, {"-v --verbose", kFlag, ""},
	{"-? --help", kFlag, ""}, {"--usage", kFlag, ""}, {"-V --version", kFlag, ""},
}

// toolGetconfRows are the options of getconf (glibc's, read by hand).
var toolGetconfRows = []optRow{
	{"-a", kFlag, ""},
	{"-v=", kWord, ""},
}

// toolLsbReleaseRows are the options of lsb_release (Python's optparse,
// which takes unique prefixes).
var toolLsbReleaseRows = []optRow{
	{"-h --help", kFlag, ""}, {"-v --version", kFlag, ""},
	{"-i --id", kFlag, ""}, {"-d --description", kFlag, ""}, {"-r --release", kFlag, ""},
	{"-c --codename", kFlag, ""}, {"-a --all", kFlag, ""}, {"-s --short", kFlag, ""},
}

// toolFreeRows are the options of free (procps). -s repeats without end
// (unless -c).
var toolFreeRows = []optRow{
	{"-b --bytes", kFlag, ""}, {"--kilo", kFlag, ""}, {"--mega", kFlag, ""}, {"--giga", kFlag, ""},
	{"--tera", kFlag, ""}, {"--peta", kFlag, ""},
	{"-k --kibi", kFlag, ""}, {"-m --mebi", kFlag, ""}, {"-g --gibi", kFlag, ""}, {"--tebi", kFlag, ""}, {"--pebi", kFlag, ""},
	{"-h --human", kFlag, ""}, {"--si", kFlag, ""}, {"-l --lohi", kFlag, ""}, {"-t --total", kFlag, ""},
	{"-v --committed", kFlag, ""},
	{"-c= --count=", kWord, ""},
	{"-w --wide", kFlag, ""},
	{"--help", kFlag, ""}, {"-V --version", kFlag, ""},
	{"-s= --seconds=", kAsk, "repeats every N seconds, without end unless -c"},
}

// toolLscpuRows are the options of lscpu (util-linux). -C, -e and -p
// take a list of columns, only attached.
var toolLscpuRows = []optRow{
	{"-a --all", kFlag, ""}, {"-b --online", kFlag, ""}, {"-B --bytes", kFlag, ""},
	{"-C[=] --caches[=]", kWord, ""},
	{"-c --offline", kFlag, ""}, {"-J --json", kFlag, ""},
	{"-e[=] --extended[=]", kWord, ""}, {"-p[=] --parse[=]", kWord, ""},
	{"-x --hex", kFlag, ""}, {"-y --physical", kFlag, ""}, {"--output-all", kFlag, ""},
	{"-h --help", kFlag, ""}, {"-V --version", kFlag, ""},
	{"-s= --sysroot=", kAsk, "reads the CPU information of another system root"},
}

// toolPgrepRows are the options of pgrep (procps). -F reads process ids
// from a file.
var toolPgrepRows = []optRow{
	{"-d= --delimiter=", kWord, ""},
	{"-l --list-name", kFlag, ""}, {"-a --list-full", kFlag, ""}, {"-v --inverse", kFlag, ""},
	{"-w --lightweight", kFlag, ""}, {"-c --count", kFlag, ""}, {"-f --full", kFlag, ""},
	{"-g= --pgroup=", kWord, ""}, {"-G= --group=", kWord, ""},
	{"-i --ignore-case", kFlag, ""}, {"-n --newest", kFlag, ""}, {"-o --oldest", kFlag, ""},
	{"-O= --older=", kWord, ""}, {"-P= --parent=", kWord, ""}, {"-s= --session=", kWord, ""},
	{"-t= --terminal=", kWord, ""}, {"-u= --euid=", kWord, ""}, {"-U= --uid=", kWord, ""},
	{"-x --exact", kFlag, ""},
	{"-F= --pidfile=", kRead, ""},
	{"-L --logpidfile", kFlag, ""},
	{"-r= --runstates=", kWord, ""},
	{"-A --ignore-ancestors", kFlag, ""},
	{"--cgroup=", kWord, ""}, {"--ns=", kWord, ""}, {"--nslist=", kWord, ""},
	{"-h --help", kFlag, ""}, {"-V --version", kFlag, ""},
}

// toolSsRows are the options of ss (iproute2). -r resolves names over the
// network, -K closes sockets, -E never ends, -N enters another namespace,
// -D writes a file and -F reads one.
var toolSsRows = []optRow{
	{"-h --help", kFlag, ""}, {"-V --version", kFlag, ""},
	{"-n --numeric", kFlag, ""}, {"-a --all", kFlag, ""}, {"-l --listening", kFlag, ""},
	{"-o --options", kFlag, ""}, {"-e --extended", kFlag, ""}, {"-m --memory", kFlag, ""},
	{"-p --processes", kFlag, ""}, {"-T --threads", kFlag, ""}, {"-i --info", kFlag, ""},
	{"--tipcinfo", kFlag, ""}, {"-s --summary", kFlag, ""}, {"--tos", kFlag, ""}, {"--cgroup", kFlag, ""},
	{"-b --bpf", kFlag, ""}, {"-Z --context", kFlag, ""}, {"-z --contexts", kFlag, ""},
	{"-4 --ipv4", kFlag, ""}, {"-6 --ipv6", kFlag, ""}, {"-0 --packet", kFlag, ""},
	{"-t --tcp", kFlag, ""}, {"-M --mptcp", kFlag, ""}, {"-S --sctp", kFlag, ""}, {"-u --udp", kFlag, ""},
	{"-d --dccp", kFlag, ""}, {"-w --raw", kFlag, ""}, {"-x --unix", kFlag, ""},
	{"--tipc", kFlag, ""}, {"--vsock", kFlag, ""}, {"--xdp", kFlag, ""},
	{"-f= --family=", kWord, ""},
	{"-H --no-header", kFlag, ""}, {"-O --oneline", kFlag, ""}, {"--inet-sockopt", kFlag, ""},
	{"-A= --query= --socket=", kWord, ""},
	{"-r --resolve", kAsk, "resolves addresses to names over the network"},
	{"-E --events", kAsk, "never ends: it waits for sockets to close"},
	{"-N= --net=", kAsk, "enters another network namespace"},
	{"-K --kill", kAsk, "closes the sockets it lists"},
	{"-D= --diag=", kWrite, "raw information about TCP sockets to a file"},
	{"-F= --filter=", kAsk, "reads its filter from a file, which is not judged"},
}

// toolPsRows are procps ps's options (ps --help all, ps(1)): its UNIX
// ones, its BSD ones without a dash, and its GNU long ones, which it
// takes only whole. Every one lists or formats processes, but BSD e,
// which prints each one's environment.
var toolPsRows = []optRow{
	{"-A -a -c -d -e -F -f -H -j -L -l -M -m -N -P -T -V -w -y -Z", kFlag, ""},
	{"-C= -G= -g= -O= -o= -p= -q= -s= -t= -U= -u=", kWord, ""},
	{"a c f H h j L l m n r S s T u V v w X x Z", kFlag, ""},
	{"k= O= o= p= q= t= U=", kWord, ""},
	{"e", kEnv, "prints the environment of the processes"},
	{"--context --cumulative --deselect --forest --headers --no-headers --info --version", kFlag, ""},
	{"--help[=]", kFlag, ""},
	{"--cols= --columns= --format= --Group= --group= --lines= --pid= --ppid= --quick-pid= --rows= --sid= --sort= --tty= --User= --user= --width=", kWord, ""},
}

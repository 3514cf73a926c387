package bashguard

import "sync"

// The rows of the tools whose input is itself a program, read by their
// engines: awk (model_code.go), sed (model_sed.go), find's primaries and the line
// filters (model_find.go), and the shells whose -c code the guard reads as
// its own (model_code.go, shcode.go).

import "mvdan.cc/sh/v3/syntax"

// plainShells are the shells whose literal -c code the guard reads as
// its own, and how: bash itself with options that leave the parse as it
// is; sh (dash on Debian) only as sh -c CODE, and sh and zsh only with
// code they read as bash does (read: nil for bash). Other shells (fish's
// syntax) are not here.
var plainShells = sync.OnceValue(func() map[string]struct {
	onlyC bool                    // only "NAME -c CODE", no other option
	reads func(*syntax.File) bool // the code is read as bash reads it
} {
	return map[string]struct {
		onlyC bool                    // only "NAME -c CODE", no other option
		reads func(*syntax.File) bool // the code is read as bash reads it
	}{
		"bash": {},
		"sh":   {onlyC: true, reads: posixPlain}, // $'...', braces and [[ ]] are read otherwise by dash
		"zsh":  {reads: zshPlain},
	}
})

// shellInvocation is the command line of bash, sh and the shells like
// them, as bash reads it (bash --help, bash(1)): clusters of "-" and "+"
// letters, -o and -O taking the next word, GNU long options spelled out,
// the start-up files taking the next word, "--" or "-" ending them. The
// kFlag rows leave the code read and run as it is; every other option may
// change that, so code it runs is never allowed as it is (shell, model_code.go).
var shellInvocation = sync.OnceValue(func() *spec {
	return (&spec{name: "bash", grammar: grammar{shell: true, nextValues: true}, rows: []optRow{
		{"-c", kShellCode, "runs its first operand as shell code"},
		{"-l -e -x -u --login --norc --noprofile", kFlag, ""},
		{"-s", kAsk, "reads the code from its input"},
		{"-i -r -D -a -b -f -h -k -m -n -p -t -v -B -C -E -H -P -T", kAsk, "changes how the shell reads or runs the code"},
		{"-o= -O=", kAsk, "sets a shell option, which can change how the code is read"},
		{"--rcfile= --init-file=", kAsk, "names a start-up file"},
		{"--debug --debugger --dump-po-strings --dump-strings --help --noediting --posix --pretty-print --restricted --verbose --version",
			kAsk, "changes how the shell reads or runs the code"},
	}}).compile()
})

// awkSpec is the command line of awk (gawk's options, which mawk's and
// the one-true-awk's are a part of). Long options must be spelled out:
// an abbreviation may name another option (--p is --posix, --profile or
// --pretty-print). Options are read after the program too, although awk
// takes none there ("awk prog -v f" reads the files "-v" and f): the
// value of such an option is judged as a file as well.
var awkSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "awk", grammar: grammar{permute: true}, rows: []optRow{
		{"-F= --field-separator=", kWord, ""},
		{"-v= --assign=", kWord, ""},
		{"-f= --file= --exec= -E=", kProgram, "runs an awk program from a file"},
		{"-i= --include= -l= --load= -e= --source=", kProgram, "loads an include file or an extension, or adds program text"},
		{"-W=", kAsk, "can run a program from a file or write files"}, // mawk's -W exec file; gawk's -W is any long option
		{"-b --characters-as-bytes -c --traditional -P --posix -r --re-interval -S --sandbox -N --use-lc-numeric", kFlag, ""},
		{"-V --version --help", kFlag, ""},
	}}).compile()
})

// awkNames are the names that run commands or choose other files.
var awkNames = []awkName{
	{"system", true, "calls system()"},
	{"ARGV", false, "uses ARGV or ARGC, which can make it read other files"},
	{"ARGC", false, "uses ARGV or ARGC, which can make it read other files"},
}

// awkDangers are awk's pipes, redirections, getline from a file and
// extensions. The two-byte operators of awkOps2 that start alike ("||",
// ">=") are not among them.
var awkDangers = []awkDanger{
	{'|', awkAlways, "uses a pipe to or from a command"},
	{'>', awkInAction, "redirects output to a file or command"},
	{'<', awkGetline, "reads a file with getline"},
	{'@', awkAlways, "loads an extension or include file"},
}

// awkOps2 are the two-byte operators the scan must tell from a token of
// awkDangers ("||" is no pipe, ">=" no redirection) or whose "/" reading
// differs ("++" and "--" are postfix or prefix).
var awkOps2 = []awkOp{{"||", false}, {">=", false}, {"++", true}, {"--", true}}

// awkKeywords are the words after which "/" may start a regular
// expression although they look like operands: keywords, and built-in
// functions that may be called without parentheses.
var awkKeywords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"print": true, "printf": true, "return": true, "in": true, "getline": true, "if": true,
		"while": true, "for": true, "do": true, "else": true, "delete": true, "exit": true,
		"case": true, "length": true, "next": true, "nextfile": true, "BEGIN": true, "END": true,
		"BEGINFILE": true, "ENDFILE": true, "func": true, "function": true, "switch": true, "default": true,
	}
})

// posixPlainCode is what every POSIX shell reads as bash does, so that
// "sh -c" (dash on Debian) runs what the guard judges: simple commands of
// plain words (literal text, single quotes, double quotes around literal
// text), joined by ; && || | and newlines, grouped by ( ) and { }, with
// the redirections > >> < 2>&1. Anything bash reads otherwise ($'...',
// brace expansion, [[ ]], here-strings, &>, |&, time, functions,
// arithmetic, process substitution) and every expansion is left out.
var posixPlainCode = plainDialect{
	groups: true,
	// A brace would be expanded by bash and kept by dash.
	litBanned: "{}",
	redirects: []plainRedirect{
		{syntax.RdrOut, plainAnyFd, plainAnyWord},
		{syntax.AppOut, plainAnyFd, plainAnyWord},
		{syntax.RdrIn, plainAnyFd, plainAnyWord},
		{syntax.DplOut, plainAnyFd, plainFdWord},
		{syntax.DplIn, plainAnyFd, plainFdWord},
	},
}

// zshPlainCode is what zsh reads as bash does, whatever options the
// user's .zshenv sets: simple commands of plain words joined by ; && ||
// | and newlines, with no redirection but 2>&1. A plain word is literal
// text in single quotes, in double quotes, or bare of the characters zsh
// treats otherwise: glob characters and qualifiers (* ? [ ] ( ) < > and
// EXTENDED_GLOB's ^ # ~), braces, "=" at the start of a word (=cmd
// expands to the path of cmd) or after "=" or ":" (MAGIC_EQUAL_SUBST
// expands "x==cmd" and "x=a:=cmd" as an assignment would), backslashes,
// adjacent single-quoted strings and every expansion. cd, pushd and popd
// are left out: zsh's "cd OLD NEW" replaces text in the working
// directory.
var zshPlainCode = plainDialect{
	bareStmts:        true,
	named:            true,
	leftOut:          map[string]bool{"cd": true, "pushd": true, "popd": true, "": true},
	noAdjacentSingle: true,
	litOnly:          "_./,:=+-@%",
	litBannedPrefix:  "=",
	litBannedInside:  []string{"==", ":="},
	dblBanned:        "\\!",
	dblOpaque:        true,
	redirects:        []plainRedirect{{syntax.DplOut, "2", "1"}},
	redirOpaque:      true,
}

// sedSpec is GNU sed's command line. The options the model acts on are
// -e (a script), -f (a script file) and -i (in place); the others are
// harmless. An option the spec does not list asks.
var sedSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "sed", grammar: gnuGrammar, rows: []optRow{
		{"-n --quiet --silent", kFlag, ""},
		{"--debug", kFlag, ""},
		{"-e= --expression=", kPattern, ""}, // a script: judged by sedUnsafe
		{"-f= --file=", kProgram, "runs a sed script from a file, which is not analysed"},
		{"--follow-symlinks", kFlag, ""},
		{"-i[=] --in-place[=]", kWrite, "edits files in place (-i)"},
		{"-l= --line-length=", kWord, ""},
		{"--posix", kFlag, ""},
		{"-E -r --regexp-extended", kFlag, ""},
		{"-s --separate", kFlag, ""},
		{"--sandbox", kFlag, ""},
		{"-u --unbuffered", kFlag, ""},
		{"-z --null-data", kFlag, ""},
		{"--help", kFlag, ""},
		{"--version", kFlag, ""},
	}}).compile()
})

// sedCommands are sed's commands (GNU sed's, which POSIX's are a part of).
var sedCommands = []sedCmd{
	{"{}=pPdDnNgGhHxzF", nil, ""},
	{"lqQL", sedCount, ""},
	{"#", sedComment, ""},
	{":", sedLabelDef, ""},
	{"btT", sedLabel, ""},
	{"aic", sedText, ""},
	{"y", sedY, ""},
	{"s", sedS, ""},
	{"e", nil, "runs commands (e)"},
	{"w", nil, "writes a file (w)"},
	{"W", nil, "writes a file (W)"},
	{"r", nil, "reads a file (r)"},
	{"R", nil, "reads a file (R)"},
}

// sedSFlags are the flags of s that run or write; the other flags
// (sedSPlainFlags) only change the substitution.
var sedSFlags = []sedFlag{
	{'e', "runs commands (s///e)"},
	{'w', "writes a file (s///w)"},
}

// sedSPlainFlags are the harmless flags of s, and the blanks GNU sed
// skips between them ("s/a/b/ i e" has the flags i and e).
const sedSPlainFlags = "gpiImM0123456789 \t"

// findPrims are GNU find's primaries (find --help lists them; a test
// holds the table to it).
var findPrims = []findPrim{
	{"-o -or ! -not ( ) ,", findOperator, 0},
	{"-a -and", findTest, 0},
	{"-name", findName, 1},
	{"-iname", findIName, 1},
	{"-type", findType, 1},
	{"-maxdepth", findMaxDepth, 1},
	{"-print", findPrint, 0},
	{"-print0", findPrint0, 0},
	{"-printf", findOutput, 1},
	{"-ls -quit", findOutput, 0},
	{"-newer -anewer -cnewer -samefile", findRead, 1},
	{"-files0-from", findList0, 1},
	{"-fprint -fprint0 -fls", findWrite, 1},
	{"-fprintf", findWrite, 2}, // FILE FORMAT
	{"-delete", findDelete, 0},
	{"-exec -execdir", findExec, 0},
	{"-ok -okdir", findAsk, 0},
	{"-follow", findFollow, 0},
	// Tests and options that only look at the entries, and -prune.
	{"-amin -atime -cmin -ctime -mmin -mtime -used -newerat -newerct -newermt -newerBt", findTest, 1},
	{"-context -fstype -gid -group -ilname -inum -ipath -iregex -iwholename -links -lname", findTest, 1},
	{"-path -perm -regex -size -uid -user -wholename -xtype -mindepth -regextype", findTest, 1},
	{"-empty -executable -false -true -nogroup -nouser -readable -writable -prune", findTest, 0},
	{"-daystart -depth -d -ignore_readdir_race -noignore_readdir_race -mount -xdev -noleaf", findTest, 0},
	{"-warn -nowarn -help --help -version --version", findTest, 0},
}

// findNewer is -newerXY, which compares with a reference file unless Y
// is t (a time: -newermt; those are rows of their own).
var findNewer = findPrim{"-newerXY", findRead, 1}

// lineFilters are the filters: grep with one pattern, head and tail
// with a count, sort and uniq with the options that keep lines whole.
var lineFilters = []lineFilterRow{
	{name: "grep", flags: "viEFGwx", valOpt: "-e", pattern: true},
	{name: "head", valOpt: "-n", value: isDecimal, digits: true}, // a count, "+N" too
	{name: "tail", valOpt: "-n", value: isDecimal, digits: true},
	{name: "sort", flags: "urfVnbd"},
	{name: "uniq", flags: "udi"},
}

package bashguard

import "sync"

// The safe commands that take options, as data: each prints what its
// options and operands ask for (names, numbers, the user, the system) and
// reads no file its operands name. Every option their --help lists is
// here, each harmless; an option that is not (a new one, a misspelling,
// an abbreviation of more than one) asks. Their operands are words
// (operands: kWord); which's are command names, and it looks at those
// that are paths (kCmdName). test and [ have a model in place of options; echo and expr
// have no spec: their arguments may start with "-" without being options.

// safeSpecs are the safe commands' specs, by command name.
var safeSpecs = sync.OnceValue(func() map[string]*spec {
	return compileAll(map[string]*spec{
		"basename": {grammar: gnuGrammar, operands: kWord, rows: safeBasenameRows(),
			examples: []example{{"basename src/main.go .go", "allow"}, {"basename -s .go -a src/main.go a.go", "allow"}, {"basename --suf=.go src/main.go", "allow"}, {"basename -x a", "ask"}}},
		"dirname": {grammar: gnuGrammar, operands: kWord, rows: safeDirnameRows(),
			examples: []example{{"dirname src/main.go", "allow"}, {"dirname -z src/main.go", "allow"}, {"dirname --nosuch a", "ask"}}},
		"id": {grammar: gnuGrammar, operands: kWord, rows: safeIDRows(),
			examples: []example{{"id", "allow"}, {"id -un", "allow"}, {"id --gr", "ask"}, {"id -x", "ask"}}},
		"pwd": {grammar: gnuGrammar, operands: kWord, rows: safePwdRows(),
			examples: []example{{"pwd", "allow"}, {"pwd -P", "allow"}, {"pwd -x", "ask"}}},
		"seq": {grammar: grammar{abbrev: true, permute: true, digits: true}, operands: kWord, rows: safeSeqRows(),
			examples: []example{{"seq 3", "allow"}, {"seq -w 1 10", "allow"}, {"seq -f %03g 5", "allow"}, {"seq -s, 3", "allow"}, {"seq -1 1", "allow"}, {"seq -x 3", "ask"}}},
		"sleep": {grammar: gnuGrammar, operands: kWord, rows: gnuInfoRows, endless: "waits for the time it is given",
			examples: []example{{"sleep 0", "allow"}, {"sleep -x 1", "ask"}}},
		"tr": {grammar: gnuGrammar, operands: kWord, rows: safeTrRows(),
			examples: []example{{"tr a-z A-Z", "allow"}, {"tr -d 0-9", "allow"}, {"tr -cs a-z x", "allow"}, {"tr -x a b", "ask"}}},
		"uname": {grammar: gnuGrammar, operands: kWord, rows: safeUnameRows(),
			examples: []example{{"uname -a", "allow"}, {"uname -sr", "allow"}, {"uname --kernel-n", "allow"}, {"uname --kernel", "ask"}, {"uname -x", "ask"}}},
		"whoami": {grammar: gnuGrammar, operands: kWord, rows: gnuInfoRows,
			examples: []example{{"whoami", "allow"}, {"whoami -x", "ask"}}},
		// test and [ read an expression, not options: their model judges
		// the paths a file test probes (model_safe.go: testModel).
		"test": {own: true, check: testModel, examples: []example{{"test -f a.txt", "allow"}, {"test -n x", "allow"}, {"test -f .env", "ask"}, {"test -v 'a[$(id)]'", "ask"}}},
		"[":    {own: true, check: testModel, examples: []example{{"[ -d src ]", "allow"}, {"[ -f .env ]", "ask"}}},
		// which: debianutils' (getopts "as"), and GNU which's --all; an
		// operand with a "/" is a path it probes (kCmdName).
		"which": {grammar: gnuGrammar, operands: kCmdName, rows: safeWhichRows(),
			examples: []example{{"which ls", "allow"}, {"which -a git", "allow"}, {"which ./a.txt", "allow"}, {"which ./.env", "deny"}, {"which -x ls", "ask"}}},
	})
})

// gnuInfoRows are --help and --version, which every GNU program has.
var gnuInfoRows = []optRow{
	{"--help", kFlag, ""},
	{"--version", kFlag, ""},
}

// safeBasenameRows are the options of basename.
var safeBasenameRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"-a --multiple", kFlag, ""},
		{"-s= --suffix=", kWord, ""},
		{"-z --zero", kFlag, ""},
	}, gnuInfoRows)
})

// safeDirnameRows are the options of dirname.
var safeDirnameRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"-z --zero", kFlag, ""},
	}, gnuInfoRows)
})

// safeIDRows are the options of id.
var safeIDRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"-a", kFlag, ""},
		{"-Z --context", kFlag, ""},
		{"-g --group", kFlag, ""},
		{"-G --groups", kFlag, ""},
		{"-n --name", kFlag, ""},
		{"-r --real", kFlag, ""},
		{"-u --user", kFlag, ""},
		{"-z --zero", kFlag, ""},
	}, gnuInfoRows)
})

// safePwdRows are the options of pwd (bash's builtin takes -L and -P).
var safePwdRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"-L --logical", kFlag, ""},
		{"-P --physical", kFlag, ""},
	}, gnuInfoRows)
})

// safeSeqRows are the options of seq; -NUM is a negative number.
var safeSeqRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"-f= --format=", kWord, ""},
		{"-s= --separator=", kWord, ""},
		{"-w --equal-width", kFlag, ""},
	}, gnuInfoRows)
})

// safeTrRows are the options of tr.
var safeTrRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"-c -C --complement", kFlag, ""},
		{"-d --delete", kFlag, ""},
		{"-s --squeeze-repeats", kFlag, ""},
		{"-t --truncate-set1", kFlag, ""},
	}, gnuInfoRows)
})

// safeUnameRows are the options of uname.
var safeUnameRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"-a --all", kFlag, ""},
		{"-s --kernel-name", kFlag, ""},
		{"-n --nodename", kFlag, ""},
		{"-r --kernel-release", kFlag, ""},
		{"-v --kernel-version", kFlag, ""},
		{"-m --machine", kFlag, ""},
		{"-p --processor", kFlag, ""},
		{"-i --hardware-platform", kFlag, ""},
		{"-o --operating-system", kFlag, ""},
	}, gnuInfoRows)
})

// safeWhichRows are the options of which.
var safeWhichRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"-a --all", kFlag, ""},
		{"-s", kFlag, ""},
	}, gnuInfoRows)
})

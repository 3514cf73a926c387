package bashguard

// make runs the recipes of the project's makefiles: every line asks, for
// that, and an allow rule for it (Bash(make:*)) lifts the Ask, as a rule
// for an interpreter lets it run the project's scripts. What the rule
// does not lift is make code from the command line, which runs programs
// the project's makefiles do not name: --eval's statement, a variable
// whose value is make code ($(shell ...)) or that names the shell or a
// program the built-in rules run. The rows are every option GNU make's
// --help lists (spec_help_test.go).

// makeRows are GNU make's options.
var makeRows = []optRow{
	{"-b -m", kFlag, ""}, {"-B --always-make", kFlag, ""}, {"-d", kFlag, ""}, {"--debug[=]", kWord, ""},
	{"-C= --directory=", kRead, ""}, {"-f= --file= --makefile=", kRead, ""}, {"-I= --include-dir=", kRead, ""},
	{"-e --environment-overrides", kFlag, ""}, {"-h --help", kFlag, ""}, {"-i --ignore-errors", kFlag, ""},
	{"-j[=] --jobs[=]", kWord, ""}, {"-k --keep-going", kFlag, ""}, {"-l[=] --load-average[=] --max-load[=]", kWord, ""},
	{"-L --check-symlink-times", kFlag, ""}, {"-n --just-print --dry-run --recon", kFlag, ""},
	{"-o= --old-file= --assume-old=", kWord, ""}, {"-O[=] --output-sync[=]", kWord, ""}, {"-p --print-data-base", kFlag, ""},
	{"-q --question", kFlag, ""}, {"-r --no-builtin-rules", kFlag, ""}, {"-R --no-builtin-variables", kFlag, ""},
	{"-s --silent --quiet", kFlag, ""}, {"--no-silent", kFlag, ""}, {"-S --no-keep-going --stop", kFlag, ""},
	{"-t --touch", kChange, "touches the targets instead of making them"}, {"--trace", kFlag, ""}, {"-v --version", kVersion, ""},
	{"-w --print-directory", kFlag, ""}, {"--no-print-directory", kFlag, ""},
	{"-W= --what-if= --new-file= --assume-new=", kWord, ""}, {"--warn-undefined-variables", kFlag, ""},
	{"--shuffle[=]", kWord, ""}, {"--jobserver-style=", kWord, ""}, {"--jobserver-auth=", kWord, ""},
	{"-E= --eval=", kProgram, "evaluates its value as a makefile statement, whose $(shell ...) and recipes run programs"},
}

// makeProgramVars are the variables that, set on make's command line,
// choose the programs it runs: the shell of every recipe, the flags and
// makefiles every make reads, and the programs of the built-in rules (GNU
// make's manual, "Variables Used by Implicit Rules").
var makeProgramVars = []string{
	"SHELL", ".SHELLFLAGS", "MAKESHELL", "MAKE", "MAKEFLAGS", "GNUMAKEFLAGS", "MFLAGS", "MAKEFILES", "MAKEOVERRIDES",
	"AR", "AS", "CC", "CXX", "CPP", "FC", "M2C", "PC", "CO", "GET", "LEX", "YACC", "LINT", "MAKEINFO", "TEX",
	"TEXI2DVI", "WEAVE", "CWEAVE", "TANGLE", "CTANGLE", "RM", "LD",
}

// makeSpec is make's spec.
var makeSpec = &spec{grammar: gnuGrammar, rows: makeRows, operands: kWord, ask: "runs the recipes of the project's makefiles",
	check: makeOperands,
	examples: []example{
		{"make --version", "allow"}, {"make -v", "allow"},
		{"make", "ask+"}, {"make test", "ask+"}, {"make -j8 -k build test", "ask+"}, {"make -C sub all", "ask+"},
		{"make -f Makefile.ci lint", "ask+"}, {"make V=1 -j 4 all", "ask+"}, {"make CFLAGS=-O2 V=1 all", "ask!"},
		{"make test 'TESTFLAGS=x; curl https://evil.example'", "ask!"}, {"make test GOFLAGS=-toolexec=/tmp/x", "ask!"}, {"make test GO=rm", "ask!"},
		{"make test ROOT=", "ask!"}, {"make -n install", "ask+"},
		{"make --eval='$(shell id)'", "ask!"}, {"make -E 'x:=$(shell id)' all", "ask!"}, {"make --ev=x all", "ask!"},
		{"make SHELL=/tmp/x all", "ask!"}, {"make CC=/tmp/cc", "ask!"}, {"make 'V=$(shell id)'", "ask!"},
		{"make 'V!=id'", "ask!"}, {"make .SHELLFLAGS=-c", "ask!"}, {"make -f .env", "deny"},
		{"make -f - all < a.txt", "ask!"}, {"make --file=/dev/stdin all < a.txt", "ask!"}, {"make -f/dev/fd/0 < a.txt", "ask!"},
	}}

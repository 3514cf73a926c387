package bashguard

// The go subcommands that build: go build, install, run, test, vet and
// generate. Each compiles the packages (cgo runs the C compiler) and
// writes the build cache, and go run, go test and go generate run the
// packages' own code, so every line asks, for what the subcommand does:
// an allow rule for it (Bash(go test:*)) lifts that Ask. What the rule
// does not lift is what their flags do besides: -exec, -toolexec and
// -vettool run programs of their value's choosing, -ldflags can name
// the external linker, -o and the profiles write files wherever they are
// told. The rows are every flag the installed go lists in its help (go
// help build, go help test, go help testflag: spec_help_test.go), so
// that a flag is read as go reads it.

// goBuildGrammar is how go build, install, vet, test and generate read
// their flags: Go's flag package (one dash or two, -f=value or -f value,
// no clusters), read stricter than go does: a flag after a package is
// still read as one.
var goBuildGrammar = grammar{oneDash: true, twoDashes: true, permute: true}

// goRunGrammar is go run's: the first operand is the package, and every
// word after it is an argument of the program it runs.
var goRunGrammar = grammar{oneDash: true, twoDashes: true}

// goBuildRows are the build flags that go build, install, run, test,
// vet, generate and list share (go help build).
var goBuildRows = []optRow{
	{"-a", kFlag, ""}, {"-n", kFlag, ""}, {"-p=", kWord, ""}, {"-race", kFlag, ""}, {"-msan", kFlag, ""}, {"-asan", kFlag, ""},
	{"-cover", kFlag, ""}, {"-covermode=", kWord, ""}, {"-coverpkg=", kWord, ""}, {"-v", kFlag, ""}, {"-work", kFlag, ""}, {"-x", kFlag, ""},
	{"-json", kFlag, ""}, {"-linkshared", kFlag, ""}, {"-modcacherw", kFlag, ""}, {"-trimpath", kFlag, ""},
	{"-buildmode=", kWord, ""}, {"-buildvcs[=]", kWord, ""}, {"-installsuffix=", kWord, ""}, {"-mod=", kWord, ""}, {"-tags=", kWord, ""},
	{"-asmflags=", kToolFlags, ""}, {"-gcflags=", kToolFlags, ""}, {"-ldflags=", kToolFlags, ""},
	{"-pgo=", kRead, ""},
	{"-C=", kMore, "makes go work in another directory, whose go.mod and toolchain are not judged here"},
	{"-compiler=", kMore, "chooses the compiler go runs"},
	{"-gccgoflags=", kProgram, "passes its value on to gccgo, whose flags can run programs (-fplugin)"},
	{"-modfile=", kMore, "reads another go.mod, whose toolchain line is not judged here"},
	{"-overlay=", kAsk, "reads the files its value names in place of the packages'"},
	{"-pkgdir=", kMore, "reads and writes the installed packages in its value"},
	{"-toolexec=", kProgram, "runs its value for every tool go runs"},
}

// goBuildOut is go build's and go test's -o: the file (or directory)
// the binaries are written to.
var goBuildOut = []optRow{{"-o=", kWrite, "the binaries"}}

// goExecRows is go run's and go test's -exec: the program that runs the
// binary they build.
var goExecRows = []optRow{{"-exec=", kProgram, "runs its value with the binary go built"}}

// goTestFlags are the flags of go test's own (go help test) and of its
// test binaries (go help testflag), which go test reads with or without
// their "test." prefix and passes on. -args passes the words after it to
// the test binaries, whose test.* flags are still read here: the scanner
// goes on reading them.
var goTestFlags = []optRow{
	{"-c", kFlag, ""}, {"-args", kFlag, ""},
	{"-artifacts -test.artifacts", kWrite, "the tests' artifacts, in the -outputdir"},
	{"-bench= -test.bench=", kPattern, ""}, {"-benchmem -test.benchmem", kFlag, ""}, {"-benchtime= -test.benchtime=", kWord, ""},
	{"-count= -test.count=", kWord, ""}, {"-cpu= -test.cpu=", kWord, ""}, {"-failfast -test.failfast", kFlag, ""},
	{"-fullpath -test.fullpath", kFlag, ""}, {"-list= -test.list=", kPattern, ""}, {"-parallel= -test.parallel=", kWord, ""},
	{"-run= -test.run=", kPattern, ""}, {"-short -test.short", kFlag, ""}, {"-shuffle= -test.shuffle=", kWord, ""},
	{"-skip= -test.skip=", kPattern, ""}, {"-timeout= -test.timeout=", kWord, ""}, {"-test.v[=]", kWord, ""}, {"-vet=", kWord, ""},
	{"-fuzz= -test.fuzz=", kEndless, "fuzzes until -fuzztime ends it or an input fails"},
	{"-fuzztime= -test.fuzztime=", kWord, ""}, {"-fuzzminimizetime= -test.fuzzminimizetime=", kWord, ""},
	{"-blockprofilerate= -test.blockprofilerate=", kWord, ""}, {"-memprofilerate= -test.memprofilerate=", kWord, ""},
	{"-mutexprofilefraction= -test.mutexprofilefraction=", kWord, ""},
	{"-blockprofile= -test.blockprofile=", kWrite, "a profile"}, {"-coverprofile= -test.coverprofile=", kWrite, "a profile"},
	{"-cpuprofile= -test.cpuprofile=", kWrite, "a profile"}, {"-memprofile= -test.memprofile=", kWrite, "a profile"},
	{"-mutexprofile= -test.mutexprofile=", kWrite, "a profile"}, {"-trace= -test.trace=", kWrite, "a trace"},
	{"-outputdir= -test.outputdir=", kWrite, "the profiles and artifacts, into its value"},
	// The testing package's own, which go test's help does not list.
	{"-test.testlogfile=", kWrite, "a log of the files and variables the tests use"},
	{"-test.gocoverdir=", kWrite, "the coverage data, into its value"},
	{"-test.fuzzcachedir=", kWrite, "the fuzzing cache, into its value"},
	{"-test.paniconexit0", kFlag, ""},
	{"-test.fuzzworker", kAsk, "makes the binary a fuzzing worker that reads its inputs from descriptors it inherits"},
}

// goVetRows are go vet's own flags (go help vet).
var goVetRows = []optRow{{"-vettool=", kProgram, "runs its value as the analysis tool"}}

// goGenerateRows are go generate's own flags (go help generate).
var goGenerateRows = []optRow{{"-run=", kPattern, ""}, {"-skip=", kPattern, ""}}

// goToolFlags are the flags of go's compiler, assembler and linker that
// -gcflags, -asmflags and -ldflags may pass on, judged harmless: each
// changes what is built or printed; none names a file to read or write,
// or a program to run (-extld, -extldflags, -importcfg, -o, -tmpdir,
// -d are not here). The value says whether the flag takes the next field
// for its value, as -X does: "-X main.version=1".
var goToolFlags = map[string]bool{
	// The linker (go tool link).
	"-s": false, "-w": false, "-X": true, "-buildid": true, "-linkmode": true, "-compressdwarf": false,
	"-r": true, "-H": true, "-race": false, "-strictdups": true, "-checklinkname": true,
	// The compiler (go tool compile).
	"-N": false, "-l": false, "-m": false, "-S": false, "-B": false, "-C": false, "-e": false, "-c": true,
	"-std": false, "-lang": true, "-complete": false, "-dwarf": false, "-dwarflocationlists": false, "-wb": false, "-live": false,
	"-spectre": true, "-smallframes": false, "-trimpath": true, "-p": true,
	// The assembler (go tool asm).
	"-D": true, "-dynlink": false, "-shared": false,
}

// goBuildSubs are the specs of go's building subcommands.
func goBuildSubs() map[string]*spec {
	build := func(ask string, own ...[]optRow) *spec {
		return &spec{grammar: goBuildGrammar, joined: append(own, goBuildRows), operands: kWord, ask: ask, check: goPackages}
	}
	run := build("builds the package and runs it", goExecRows)
	run.grammar = goRunGrammar
	test := build("builds the packages' tests and runs them", goTestFlags, goBuildOut, goExecRows)
	test.passOn = "test."
	vet := build("compiles the packages (cgo runs the C compiler) and writes the build cache", goVetRows)
	test.examples = []example{
		{"go test ./...", "ask+"}, {"go test -run TestX -count=1 -v ./pkg", "ask+"}, {"go test ./... -update", "ask+"},
		{"go test -race -cover -timeout 5m ./...", "ask+"}, {"go test -bench . -benchmem -run '^$' ./...", "ask+"},
		{"go test -exec /tmp/x ./...", "ask!"}, {"go test --exec=/tmp/x ./...", "ask!"}, {"go test ./... -exec=/tmp/x", "ask!"},
		{"go test -toolexec 'sh -c id' ./...", "ask!"}, {"go test -coverprofile=/tmp/c.out ./...", "deny"},
		{"go test -test.coverprofile /tmp/c.out ./...", "deny"}, {"go test ./... -args -test.testlogfile=/tmp/l", "deny"},
		{"go test -outputdir /tmp -cpuprofile c.out ./...", "deny"}, {"go test -c -o /tmp/t.test .", "deny"},
		{"go test -ldflags=-extld=/tmp/x ./...", "ask!"}, {"go test -coverprofile=c.out ./...", "ask+"},
		{"go test -test.exec=x ./...", "ask+"},
	}
	b := build("compiles the packages and writes the binaries and the build cache", goBuildOut)
	b.examples = []example{
		{"go build ./...", "ask+"}, {"go build -o bin/app ./cmd/app", "ask+"}, {"go build -trimpath -ldflags='-s -w -X main.version=1.2' .", "ask+"},
		{"go build -gcflags='all=-N -l' .", "ask+"}, {"go build -tags netgo,osusergo -v ./...", "ask+"},
		{"go build -o /tmp/x .", "deny"}, {"go build -o=/tmp/x .", "deny"}, {"go build --o /tmp/x .", "deny"},
		{"go build -ldflags=-extld=/tmp/x .", "ask!"}, {"go build -ldflags '-s -extldflags=-B/tmp' .", "ask!"},
		{"go build -ldflags='all=-linkmode external -extld /tmp/x' .", "ask!"}, {`go build -ldflags='-X "main.v=1" -tmpdir /tmp' .`, "ask!"},
		{"go build -toolexec=/tmp/x .", "ask!"}, {"go build -overlay o.json .", "ask!"}, {"go build -C sub .", "ask+"}, {"go build -gccgoflags=-fplugin=x.so .", "ask!"},
		{"go build -frobnicate .", "ask+"}, {"go build .env", "deny"}, {"go build -o .git/hooks/pre-commit .", "ask!"},
	}
	run.examples = []example{
		{"go run ./cmd/app", "ask+"}, {"go run . -o /tmp/x -exec y", "ask+"}, {"go run main.go", "ask+"},
		{"go run -exec /tmp/x .", "ask!"}, {"go run -toolexec=/tmp/x .", "ask!"}, {"go run /tmp/x.go", "ask!"},
	}
	vet.examples = []example{{"go vet ./...", "ask+"}, {"go vet -vettool=/tmp/x ./...", "ask!"}, {"go vet -vettool /tmp/x ./...", "ask!"}}
	install := build("builds the packages and writes the commands to GOBIN")
	install.examples = []example{{"go install ./cmd/...", "ask+"}, {"go install -toolexec=/tmp/x ./cmd/...", "ask!"}}
	generate := build("runs the commands the packages' //go:generate lines name", goGenerateRows)
	generate.examples = []example{{"go generate ./...", "ask+"}, {"go generate -run stringer ./...", "ask+"}, {"go generate -toolexec=x ./...", "ask!"}}
	// go build, install and run stamp the binary with the repository's
	// state (-buildvcs), running git status in the repository, whose
	// config can run programs (core.fsmonitor); test, vet and generate
	// stamp nothing.
	for _, s := range []*spec{b, install, run} {
		s.config = gitReadConfig
	}
	return map[string]*spec{"build": b, "install": install, "run": run, "test": test, "vet": vet, "generate": generate}
}

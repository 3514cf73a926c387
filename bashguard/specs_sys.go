package bashguard

import "sync"

// The toolchains and shell queries whose read-only forms the guard
// allows, as data: "node --version", "go version", "go env GOPATH", "go
// list", "npm ls", "cargo --version", "rustc --print cfg", "pip freeze",
// gofmt without -w, yq, ulimit, hash and printenv. Most of these specs
// describe only the queries of a command that can also build, install or
// run code: they are marked byClass, and a line they do not read whole
// at the command's own level (another option, a subcommand they do not
// list, an operand they do not take) is judged by the command's class,
// as if it had no spec (the interpreter's model for node or python, the
// unlisted Ask an allow rule may lift for go or cargo). Inside a
// subcommand they list, an option they do not classify asks, naming it,
// and an allow rule may lift that Ask as it lifts the unlisted one. The
// code these kinds cannot say is in model_sys.go, behind each spec's check.

// versionRows are the spellings with which a toolchain only prints its
// version; versionVRows add -v, which means the version only to node,
// npm, deno, bun and mvn (elsewhere it is verbose output, or more).
var (
	versionRows  = []optRow{{"--version -version -V", kVersion, ""}}
	versionVRows = []optRow{{"--version -version -V -v", kVersion, ""}}
)

// versionGrammar reads a toolchain's own options as they are written,
// one a word and by their exact names: "-version" is java's, "-vV" is no
// cluster.
var versionGrammar = grammar{oneDash: true}

// goSubGrammar is how go's subcommands read their flags (Go's flag
// package: one dash or two, exact names, -f=value or -f value), read
// stricter than go does: a flag after an operand is still read as one.
var goSubGrammar = grammar{oneDash: true, twoDashes: true, permute: true}

// sysSpecs are the specs of the toolchains and queries, by command name.
var sysSpecs = sync.OnceValue(func() map[string]*spec {
	return compileAll(withVersions(withSpecs(rbpySpecs(), withSpecs(lintSpecs(), withSpecs(opsSpecs(), map[string]*spec{
		"sqlite3": sqliteSpec(),
		"go": {grammar: versionGrammar, rows: versionRows, byClass: true, state: goState, subs: withSpecs(goBuildSubs(), map[string]*spec{
			"version": {grammar: goSubGrammar, operands: kRead, rows: []optRow{{"-m", kFlag, ""}, {"-v", kFlag, ""}, {"-json", kFlag, ""}},
				allow: "go version prints the toolchain's version"},
			// Named variables only: the whole list includes GOPROXY and
			// GOAUTH, whose values may carry credentials.
			"env": {grammar: goSubGrammar, operands: kWord, allow: "go env prints the toolchain's settings",
				query: []cond{
					{test: cOperands, why: "without names prints every variable, GOPROXY and GOAUTH among them, which may hold credentials"},
					{test: cNoneIn, values: goEnvSecret, why: "%s may hold credentials"},
				},
				rows: []optRow{{"-json", kFlag, ""}, {"-w", kAsk, "changes the go environment file, outside the roots, which every later go command reads (GOFLAGS=-toolexec=PROGRAM)"},
					{"-u", kAsk, "changes the go environment file, outside the roots, which every later go command reads"},
					{"-changed", kFlag, ""}}},
			"doc": {grammar: goSubGrammar, operands: kWord, allow: "go doc prints documentation",
				rows: []optRow{{"-all", kFlag, ""}, {"-c", kFlag, ""}, {"-cmd", kFlag, ""}, {"-short", kFlag, ""}, {"-src", kFlag, ""}, {"-u", kFlag, ""},
					{"-http", kMore, "starts a documentation web server"}}},
			// -export and -compiled build, -u and -versions reach the module
			// proxy, -toolexec and -exec run programs: none is harmless.
			// -mod=mod may update go.mod.
			"list": {grammar: goSubGrammar, operands: kWord, allow: "go list prints packages", rows: goListRows, joined: join(goBuildRows),
				query: []cond{{test: cLastIn, opts: "-mod", values: []string{"readonly", "vendor"}, why: "%s may update go.mod"}}},
			"help": {grammar: goSubGrammar, operands: kWord, allow: "go help prints documentation"},
			"mod": {grammar: goSubGrammar, subs: map[string]*spec{
				// Like go list -m all: the module graph, read from go.mod
				// files (fetched into the module cache when missing).
				"graph": {grammar: goSubGrammar, operands: kWord, allow: "go mod graph prints the module graph",
					rows: []optRow{{"-go=", kWord, ""}, {"-x", kMore, "prints the commands it runs to fetch modules"}}},
				"why": {grammar: goSubGrammar, operands: kWord, allow: "go mod why prints the module graph",
					rows: []optRow{{"-m", kFlag, ""}, {"-vendor", kFlag, ""}}},
			}},
		}),
			examples: []example{{"go version", "allow"}, {"go version -m", "allow"}, {"go version -m a.txt", "allow"}, {"go version -m .env", "deny"}, {"go env GOPATH", "allow"}, {"go env -json GOOS GOARCH", "allow"},
				{"go env", "ask"}, {"go env GOPROXY", "ask"}, {"go doc fmt", "allow"}, {"go doc -http", "ask"},
				{"go list ./...", "allow"}, {"go list -f '{{.Dir}}' -m all", "allow"}, {"go list -mod=mod ./...", "ask"}, {"go list -export ./...", "ask"},
				{"go help build", "allow"}, {"go mod graph", "allow"}, {"go mod why -m golang.org/x/mod", "allow"}, {"go mod tidy", "ask"},
				{"go vet ./...", "ask"}, {"go build", "ask"}, {"go test", "ask"}, {"go list -toolexec=/tmp/x ./...", "ask!"},
				{"go list --exec=/tmp/x -export ./...", "ask!"}, {"go list -overlay=o.json ./...", "ask!"}, {"go list -ldflags=-s ./...", "allow"},
				{"go env -w GOFLAGS=-x", "ask!"}, {"go --version", "allow"}}},
		// npm's nopt reads "-la" as a shorthand of its own, not a cluster:
		// one option a word (versionGrammar's oneDash), anywhere.
		"npm": {grammar: versionGrammar, rows: versionVRows, byClass: true, subs: npmQuerySubs(true),
			// npm is a script node runs. Its ls and run write their logs
			// under ~/.npm and ask the registry whether a newer npm exists
			// (its update notifier): the effect test would refuse them, so
			// they are no allowed examples here (testdata holds them).
			helpers: []string{"node"},
			examples: []example{{"npm --version", "allow"}, {"npm -v", "allow"}, {"npm run build", "ask"}, {"npm ls --link", "ask"}, {"npm view react", "ask"},
				{"npm audit", "ask"}, {"npm config get registry", "ask"}, {"npm install", "ask"}}},
		"pnpm": {grammar: versionGrammar, rows: versionRows, byClass: true,
			subs: withSpecs(withSpecs(map[string]*spec{"run": pnpmRunSpec(), "run-script": pnpmRunSpec()}, pnpmLifeSubs()), npmQuerySubs(false)),
			examples: []example{{"pnpm ls --link", "ask"}, {"pnpm outdated", "ask"}, {"pnpm run build", "ask"}, {"pnpm test --config.script-shell=x", "ask"},
				{"pnpm build -C /tmp/o", "ask"}}},
		"yarn": {grammar: versionGrammar, rows: versionRows, byClass: true, subs: map[string]*spec{
			"outdated": {ask: "asks the package registry over the network"},
			"run":      yarnRunSpec(),
			"test":     jsLifeSpec("yarn", "test", "test", yarnOwnSpec()),
			"start":    jsLifeSpec("yarn", "start", "start", yarnOwnSpec()),
		}, anywhere: yarnAnywhere,
			examples: []example{{"yarn outdated", "ask"}, {"yarn test --cwd /tmp/o", "ask"},
				{"yarn --version --use-yarnrc /tmp/y", "ask!"}, {"yarn outdated --use-yarnrc /tmp/y", "ask!"},
				{"yarn test -- --use-yarnrc /tmp/y", "ask!"}, {"yarn run build x --use-yarnrc /tmp/y", "ask!"},
				{"yarn test --use-yarnrc=/tmp/y", "ask+"}, {"yarn test --use-yarnrc -x", "ask+"}}},
		"bun": {grammar: versionGrammar, rows: versionVRows, byClass: true, subs: bunScriptSubs(),
			// bun is not installed where the effect test runs: its
			// version lines are in testdata/cases.jsonl.
			examples: []example{{"bun install", "ask"}, {"bun x.ts", "ask"}}},
		"cargo": {grammar: versionGrammar, rows: versionRows, byClass: true, subs: withSpecs(cargoBuildSubs(), map[string]*spec{
			"tree":     {ask: "runs the rustc that the repository's .cargo/config.toml or rust-toolchain.toml may name, and may update the index"},
			"metadata": {ask: "runs the rustc that the repository's .cargo/config.toml or rust-toolchain.toml may name, and may update the index"},
		}), examples: []example{{"cargo --version", "allow"}, {"cargo -V", "allow"}, {"cargo tree", "ask"}, {"cargo -v", "ask"}, {"cargo build", "ask"}}},
		"rustup": {grammar: versionGrammar, rows: versionRows, byClass: true, subs: map[string]*spec{
			"toolchain": {grammar: gnuGrammar, subs: map[string]*spec{
				"list": {grammar: grammar{permute: true}, allow: "rustup toolchain list lists the installed toolchains",
					rows: []optRow{{"-v --verbose", kFlag, ""}, {"-q --quiet", kFlag, ""}, {"-h --help", kFlag, ""}}},
			}},
			"show": {ask: "may install the toolchain that the repository's rust-toolchain.toml names, and runs it"},
		}, examples: []example{{"rustup toolchain list -v", "allow"}, {"rustup toolchain install stable", "ask"}, {"rustup show", "ask"}}},
		// rustc --print VALUE: the values of rustcPrints print without
		// compiling anything; any other line is rustc's class's.
		"rustc": {grammar: versionGrammar, joined: join(versionRows, []optRow{{"--print=", kWord, ""}}), byClass: true,
			query:    []cond{{test: cNeeds, opts: "--print", fail: fClass}, {test: cEachIn, opts: "--print", values: rustcPrints, fail: fClass}},
			allow:    "rustc --print prints the compiler's settings",
			examples: []example{{"rustc --version", "allow"}, {"rustc --print cfg", "allow"}, {"rustc --print=sysroot", "allow"}, {"rustc --print link-args", "ask"}, {"rustc a.rs", "ask"}}},
		"make": makeSpec, "pytest": pytestSpec(), "py.test": pytestSpec(),
		"mvn": mvnSpec, "gradle": gradleSpec,
		"pip":  pipQuerySpec("pip"),
		"pip3": pipQuerySpec("pip3"),
		// gofmt prints the formatting, or the files that need it, of the
		// files and the trees it is given (standard input without), every
		// file below a directory, hidden names too (its tree): -w
		// rewrites the files and -cpuprofile writes one. Go's flags end at
		// the first operand.
		"gofmt": {grammar: grammar{oneDash: true}, operands: kRead, tree: treeDefaults{recursive: true}, state: goState,
			allow: "gofmt prints the formatting of files inside the allowed roots",
			rows: []optRow{{"-l", kFlag, ""}, {"-d", kFlag, ""}, {"-e", kFlag, ""}, {"-s", kFlag, ""}, {"-r=", kWord, ""},
				{"-w", kAsk, "rewrites the files it formats"}, {"-cpuprofile=", kAsk, "writes a CPU profile"}},
			examples: []example{{"gofmt -l src", "allow"}, {"gofmt -d -s src/main.go", "allow"}, {"gofmt -w src/main.go", "ask"}, {"gofmt .env", "deny"}}},
		// yq in both of its kinds, mikefarah's (Go, pflag) and kislyuk's
		// (Python, around jq): -i writes the file in place, -s splits the
		// output into files (mikefarah; kislyuk's slurp), -f and --from-file
		// read the expression from a file, --rawfile and --slurpfile read
		// files, --front-matter and the preprocessors change what is read:
		// none is here, and each asks. The expression and the files are
		// judged by yqOperands.
		// kislyuk's yq runs jq.
		"yq": {grammar: grammar{permute: true}, operands: kRead, check: yqOperands, helpers: []string{"jq"}, allow: "yq prints a query of files inside the allowed roots",
			joined: join([]optRow{{"-r --raw-output", kFlag, ""}, {"-e --exit-status", kFlag, ""}, {"-P --prettyPrint", kFlag, ""}, {"-C --colors", kFlag, ""},
				{"-M --no-colors", kFlag, ""}, {"-n --null-input", kFlag, ""}, {"-y --yaml-output", kFlag, ""}, {"-j --tojson", kFlag, ""},
				{"-c --compact-output", kFlag, ""}, {"-N --no-doc", kFlag, ""}, {"--unwrapScalar", kFlag, ""}, {"--help", kFlag, ""}, {"--version", kFlag, ""},
				{"-o= --output-format=", kWord, ""}, {"-p= --input-format=", kWord, ""}, {"-I= --indent=", kWord, ""},
				{"-i --inplace", kAsk, "writes the file in place"}, {"-s= --split-exp=", kAsk, "writes the output into files (mikefarah's), or slurps (kislyuk's)"},
				{"-f= --from-file=", kAsk, "reads the expression from a file"}, {"--rawfile= --slurpfile=", kAsk, "reads files that are not operands"},
				{"--front-matter=", kAsk, "changes what is read"}}),
			examples: []example{{"yq .a a.txt", "allow"}, {"yq -o json '.x' a.txt", "allow"}, {"yq eval .a a.txt", "allow"}, {"yq -i .a=1 a.txt", "ask"},
				{"yq 'load(\"x\")' a.txt", "ask"}, {"yq .a .env", "deny"}}},
		// ulimit: options alone print limits; a value sets one.
		"ulimit": {grammar: posixGrammar, byClass: true, allow: "ulimit without a value prints the limits", rows: []optRow{
			{"-S", kFlag, ""}, {"-H", kFlag, ""}, {"-a", kFlag, ""}, {"-b", kFlag, ""}, {"-c", kFlag, ""}, {"-d", kFlag, ""}, {"-e", kFlag, ""},
			{"-f", kFlag, ""}, {"-i", kFlag, ""}, {"-k", kFlag, ""}, {"-l", kFlag, ""}, {"-m", kFlag, ""}, {"-n", kFlag, ""}, {"-p", kFlag, ""},
			{"-q", kFlag, ""}, {"-r", kFlag, ""}, {"-s", kFlag, ""}, {"-t", kFlag, ""}, {"-u", kFlag, ""}, {"-v", kFlag, ""}, {"-x", kFlag, ""},
			{"-P", kFlag, ""}, {"-R", kFlag, ""}, {"-T", kFlag, ""}},
			examples: []example{{"ulimit", "allow"}, {"ulimit -n", "allow"}, {"ulimit -Sa", "allow"}, {"ulimit -n 10", "ask"}}},
		// hash without names, or with -t and names, prints where commands
		// were found; with names and no -t it adds them to the table, and
		// -r, -p and -d change it: the class judges those.
		"hash": {grammar: posixGrammar, byClass: true, operands: kWord, allow: "hash without names prints where commands were found",
			query:    []cond{{test: cForms, values: []string{"[-l]", "[-l] -t [WORD...]"}, fail: fClass}},
			rows:     []optRow{{"-l", kFlag, ""}, {"-t", kFlag, ""}},
			examples: []example{{"hash", "allow"}, {"hash -l", "allow"}, {"hash -t ls", "allow"}, {"hash -lt ls", "allow"}, {"hash ls", "ask"}, {"hash -l ls", "ask"}, {"hash -r", "ask"}}},
		// printenv of named variables that hold no secret; the class
		// judges the rest, which prints the environment.
		"printenv": {grammar: gnuGrammar, byClass: true, operands: kWord, allow: "printenv prints variables that hold no secret",
			query:    []cond{{test: cForms, values: []string{"VAR..."}, fail: fClass}},
			examples: []example{{"printenv HOME", "allow"}, {"printenv PATH LANG", "allow"}, {"printenv -- HOME", "allow"}, {"printenv", "ask"}, {"printenv GITHUB_TOKEN", "ask"}}},
	})))))
})

// withSpecs adds the specs of more to m, and returns m.
func withSpecs(more, m map[string]*spec) map[string]*spec {
	for n, s := range more {
		m[n] = s
	}
	return m
}

// goListRows are the flags of go list of its own: the harmless ones, and
// those that build, reach the network or run programs; the build flags
// (goBuildRows) follow them.
var goListRows = []optRow{
	{"-json[=]", kWord, ""}, {"-e", kFlag, ""}, {"-find", kFlag, ""}, {"-deps", kFlag, ""}, {"-test", kFlag, ""}, {"-m", kFlag, ""},
	{"-f=", kWord, ""},
	{"-export", kMore, "compiles the packages"}, {"-compiled", kMore, "compiles the packages"},
	{"-u", kMore, "asks the module proxy over the network"}, {"-versions", kMore, "asks the module proxy over the network"},
	{"-retracted", kMore, "asks the module proxy over the network"}, {"-reuse=", kMore, "asks the module proxy over the network"},
	{"-exec=", kProgram, "runs its value"},
}

// npmQuerySubs are the subcommands of npm (with views, the registry's
// queries) and pnpm.
func npmQuerySubs(views bool) map[string]*spec {
	ls := func() *spec {
		return &spec{grammar: grammar{oneDash: true, permute: true}, operands: kWord, allow: "npm ls lists the installed packages", rows: npmLsRows}
	}
	// Without a script name, npm run lists the scripts of package.json.
	run := func() *spec {
		return &spec{grammar: grammar{oneDash: true, permute: true}, allow: "npm run lists the package's scripts"}
	}
	subs := map[string]*spec{"ls": ls(), "list": ls(), "run": run(), "run-script": run(),
		"outdated": {ask: "asks the package registry over the network"}}
	if views {
		for n, sub := range npmScriptSubs() {
			subs[n] = sub
		}
		for _, n := range []string{"view", "info", "show", "search"} {
			subs[n] = &spec{ask: "asks the package registry over the network"}
		}
		subs["audit"] = &spec{ask: "sends the dependency tree to the registry"}
		subs["config"] = &spec{ask: "prints or changes npm's configuration, which can hold registry tokens"}
	} else {
		for _, s := range subs {
			if s.allow != "" {
				s.allow = "p" + s.allow
			}
		}
	}
	return subs
}

// npmLsRows are the options of npm ls the guard has judged harmless;
// --omit and --include take a value.
var npmLsRows = []optRow{
	{"--all -a", kFlag, ""}, {"--depth[=]", kWord, ""}, {"--json[=]", kWord, ""}, {"--long[=] -l", kWord, ""}, {"--parseable[=] -p", kWord, ""},
	{"--prod", kFlag, ""}, {"--dev", kFlag, ""}, {"--global -g", kFlag, ""},
	{"--omit=", kMore, "is not among the options judged"}, {"--include=", kMore, "is not among the options judged"},
	{"--link", kMore, "is not among the options judged"}, {"--package-lock-only", kMore, "is not among the options judged"},
	{"--unicode --no-unicode", kMore, "is not among the options judged"}, {"-w= --workspace=", kMore, "is not among the options judged"},
	{"--workspaces", kMore, "is not among the options judged"}, {"--include-workspace-root", kMore, "is not among the options judged"},
	{"--install-links", kMore, "is not among the options judged"},
}

// pipQuerySpec is pip's queries, installed as name: its global options -v, -q and
// --no-color, then a subcommand that reads the installed packages'
// metadata and prints it. pip list (not freeze or show) asks the package
// index whether a newer pip exists unless told not to; its
// --outdated and --uptodate reach the index, and --path, -r, --python and
// --log read or write files or run another interpreter: none is here.
// optparse's clusters and abbreviations are not read: one option a word,
// by its exact name.
func pipQuerySpec(name string) *spec {
	g := grammar{oneDash: true, permute: true}
	return &spec{grammar: versionGrammar, byClass: true, joined: join(versionRows, []optRow{{"-v", kFlag, ""}, {"-q", kFlag, ""}, {"--no-color", kFlag, ""}}),
		subs: map[string]*spec{
			"freeze": {grammar: g, operands: kWord, allow: "pip freeze prints the installed packages",
				rows: []optRow{{"--all", kFlag, ""}, {"-l --local", kFlag, ""}, {"--user", kFlag, ""}, {"--exclude-editable", kFlag, ""}}},
			"show": {grammar: g, operands: kWord, allow: "pip show prints the installed packages",
				rows: []optRow{{"-f --files", kFlag, ""}, {"--verbose", kFlag, ""}}},
			// A --format that is not one of these is pip's class's.
			"list": {grammar: g, operands: kWord, allow: "pip list prints the installed packages",
				query: []cond{
					{test: cLastIn, opts: "--format", values: []string{"columns", "freeze", "json"}, fail: fClass},
					{test: cNeeds, opts: "--no-index --disable-pip-version-check", fail: fPlain,
						why: "pip list asks the package index over the network whether a newer pip exists (add --disable-pip-version-check)"},
				},
				rows: []optRow{{"-l --local", kFlag, ""}, {"--user", kFlag, ""}, {"-e --editable", kFlag, ""}, {"--not-required", kFlag, ""},
					{"--exclude-editable", kFlag, ""}, {"--include-editable", kFlag, ""}, {"--format=", kWord, ""},
					{"--no-index", kFlag, ""}, {"--disable-pip-version-check", kFlag, ""}}},
		},
		examples: []example{{name + " freeze", "allow"}, {name + " -q show -f " + name, "allow"}, {name + " list --disable-pip-version-check", "allow"},
			{name + " list", "ask"}, {name + " list --outdated --no-index", "ask"}, {name + " install x", "ask"}}}
}

// withVersions gives every toolchain of versionTools a spec that allows
// its version alone, and returns m.
func withVersions(m map[string]*spec) map[string]*spec {
	for n, vRows := range versionTools() {
		if m[n] == nil {
			m[n] = &spec{grammar: versionGrammar, rows: vRows, byClass: true}
		}
	}
	return m
}

// yqWords are the operators of either yq's expression language that
// read a file (load, load_str, import, include, input), the environment
// (env, strenv, envsubst, $ENV) or evaluate a string as an expression
// (mikefarah's eval): an expression that names one is asked.
var yqWords = []string{"load", "import", "include", "input", "env", "ENV", "eval", "modulemeta", "getpath"}

// yqSubcommands are mikefarah's yq subcommands that take an expression
// and files, as the bare command does.
var yqSubcommands = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"eval": true, "e": true, "eval-all": true, "ea": true}
})

// goState is where the Go toolchain's programs count their own use (Go
// telemetry's local mode, on by default) and where go creates its module
// cache, empty, before it reads the modules (the default GOMODCACHE),
// whatever they are asked.
var goState = []string{".config/go/telemetry", "go/pkg/mod"}

// plainEnvVars are environment variables that name places, the user, the
// terminal or the locale, never a secret: printenv may print them.
var plainEnvVars = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"HOME": true, "PATH": true, "SHELL": true, "USER": true, "LOGNAME": true, "PWD": true, "OLDPWD": true,
		"LANG": true, "LANGUAGE": true, "TERM": true, "TZ": true, "HOSTNAME": true, "EDITOR": true, "VISUAL": true,
		"PAGER": true, "TMPDIR": true, "SHLVL": true, "COLUMNS": true, "LINES": true, "DISPLAY": true,
		"GOPATH": true, "GOROOT": true, "GOBIN": true, "JAVA_HOME": true, "CARGO_HOME": true, "RUSTUP_HOME": true,
		"VIRTUAL_ENV": true, "CONDA_DEFAULT_ENV": true, "PYENV_VERSION": true, "NVM_DIR": true, "XDG_RUNTIME_DIR": true,
		"XDG_CONFIG_HOME": true, "XDG_DATA_HOME": true, "XDG_CACHE_HOME": true, "XDG_STATE_HOME": true,
	}
})

// versionTools are the toolchains whose version option alone only prints
// the version, with the rows that spell it: no code runs, nothing is read
// or written.
var versionTools = sync.OnceValue(func() map[string][]optRow {
	return map[string][]optRow{
		"node": versionVRows, "npm": versionVRows, "npx": versionRows, "yarn": versionRows, "pnpm": versionRows, "deno": versionVRows,
		"bun": versionVRows, "tsc": versionRows, "python": versionRows, "python3": versionRows, "pip": versionRows, "pip3": versionRows,
		"pipx": versionRows, "poetry": versionRows, "uv": versionRows, "ruby": versionRows, "gem": versionRows, "bundle": versionRows,
		"perl": versionRows, "php": versionRows, "composer": versionRows, "cargo": versionRows, "rustc": versionRows, "rustup": versionRows,
		"go": versionRows, "java": versionRows, "javac": versionRows, "mvn": versionVRows, "gradle": versionRows, "kotlin": versionRows,
		"scala": versionRows, "dotnet": versionRows, "swift": versionRows, "gcc": versionRows, "g++": versionRows, "cc": versionRows,
		"c++": versionRows, "clang": versionRows, "clang++": versionRows, "make": versionRows, "cmake": versionRows, "ninja": versionRows,
		"bazel": versionRows, "docker": versionRows, "terraform": versionRows, "helm": versionRows, "protoc": versionRows,
		"elixir": versionRows, "erl": versionRows, "ghc": versionRows, "stack": versionRows, "zig": versionRows,
	}
})

// goEnvSecret are the go env variables whose values may hold credentials.
var goEnvSecret = []string{"GOPROXY", "GOAUTH", "GONOPROXY", "GOPRIVATE", "GONOSUMDB", "GOFLAGS", "GOINSECURE", "GOSUMDB"}

// rustcPrints are the values of rustc --print that print without
// compiling anything.
var rustcPrints = []string{"cfg", "sysroot", "target-list", "target-cpus", "target-features", "target-libdir",
	"host-tuple", "crate-name", "file-names", "code-models", "relocation-models", "tls-models", "split-debuginfo",
	"stack-protector-strategies", "calling-conventions", "all-target-specs-json", "target-spec-json", "deployment-target"}

// launcherFiles are, for each launcher, the files that can make it run
// code of the project's choosing, and the text in them that does (""
// when the file alone does).
var launcherFiles = sync.OnceValue(func() map[string][][2]string {
	return map[string][][2]string{
		"cargo": rustToolchainFiles, "rustc": rustToolchainFiles, "rustup": rustToolchainFiles, "rustdoc": rustToolchainFiles,
		"mvn": {{".mvn/jvm.config", ""}, {".mvn/extensions.xml", ""}, {".mvn/maven.config", ""}},
		// yarn runs the script its configuration names in its place,
		// for every command, --version too (classic's yarn-path,
		// berry's yarnPath).
		"yarn": {{".yarnrc", "yarn-path"}, {".yarnrc.yml", "yarnPath"}},
		// bun loads the modules bunfig.toml's preload names before
		// what it runs.
		"bun": {{"bunfig.toml", "preload"}},
		// global.json's sdk.paths (.NET 10) lists the directories the SDK
		// is looked for in, the repository's own among them.
		"dotnet": {{"global.json", "\"paths\""}},
	}
})

var rustToolchainFiles = [][2]string{{"rust-toolchain.toml", "path"}, {"rust-toolchain", "path"}}

// goModuleEnv are the variables by which a go command's environment
// chooses another cache, toolchain, module or proxy.
var goModuleEnv = []string{"GOFLAGS", "GOMODCACHE", "GOTOOLCHAIN", "GOPATH", "GOENV", "GOWORK", "GOPROXY"}

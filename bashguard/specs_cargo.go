package bashguard

import "sync"

// cargo's building subcommands: build, check, test, bench, run, doc and
// clippy compile the package (its build scripts and procedural macros
// run), and test, bench and run run it, so every line asks, for what the
// subcommand does, and an allow rule for it (Bash(cargo test:*)) lifts
// that Ask. What the rule does not lift is what their options do
// besides: --config names the programs cargo runs (build.rustc-wrapper,
// target.<triple>.runner and .linker), -Z's unstable flags are not read
// here, a target specification file names the linker, clippy passes the
// words after "--" on to clippy-driver, which takes rustc's flags (-C
// linker=...). The rows are every option cargo's --help lists for each
// (spec_help_test.go).

// cargoGrammar is clap's, as cargo configures it: clusters of short
// options, values attached or the next word, exact long names, options
// after operands.
var cargoGrammar = grammar{permute: true}

// cargoRunGrammar is cargo run's: its first operand begins the
// program's arguments.
var cargoRunGrammar = grammar{}

// cargoBuildRows are the options cargo's building subcommands share.
var cargoBuildRows = []optRow{
	{"--message-format=", kWord, ""}, {"-v --verbose", kFlag, ""}, {"-q --quiet", kFlag, ""}, {"--color=", kWord, ""},
	{"-h --help", kFlag, ""}, {"-p= --package=", kWord, ""}, {"--workspace --all", kFlag, ""}, {"--exclude=", kWord, ""},
	{"--lib", kFlag, ""}, {"--bins", kFlag, ""}, {"--examples", kFlag, ""}, {"--tests", kFlag, ""}, {"--benches", kFlag, ""},
	{"--all-targets", kFlag, ""}, {"--bin[=]", kWord, ""}, {"--example[=]", kWord, ""}, {"--test[=]", kWord, ""}, {"--bench[=]", kWord, ""},
	{"-F= --features=", kWord, ""}, {"--all-features", kFlag, ""}, {"--no-default-features", kFlag, ""}, {"-r --release", kFlag, ""},
	{"--profile=", kWord, ""}, {"-j= --jobs=", kWord, ""}, {"--keep-going", kFlag, ""}, {"--target=", kWord, ""},
	{"--unit-graph", kFlag, ""}, {"--timings[=]", kWord, ""}, {"--ignore-rust-version", kFlag, ""}, {"--locked", kFlag, ""},
	{"--offline", kFlag, ""}, {"--frozen", kFlag, ""}, {"--future-incompat-report", kFlag, ""},
	{"--manifest-path= --lockfile-path=", kRead, ""},
	{"--target-dir=", kWrite, "the build, into its value"}, {"--artifact-dir=", kWrite, "the artifacts, into its value"},
	{"--config=", kProgram, "sets cargo's configuration, which names the programs it runs (build.rustc-wrapper, target.<triple>.runner)"},
	{"-Z=", kAsk, "enables unstable flags, which are not judged here"},
}

// cargoTestRows are cargo test's and cargo bench's own options.
var cargoTestRows = []optRow{{"--no-run", kFlag, ""}, {"--no-fail-fast", kFlag, ""}, {"--doc", kFlag, ""}}

// cargoDocRows are cargo doc's own options.
var cargoDocRows = []optRow{{"--no-deps", kFlag, ""}, {"--document-private-items", kFlag, ""},
	{"--open", kProgram, "opens the documentation in a browser"}}

// cargoClippyRows are cargo clippy's own options; it passes the rest on
// to cargo check.
var cargoClippyRows = []optRow{{"--no-deps", kFlag, ""}, {"--fix", kChange, "applies the lints' suggestions to the files"},
	{"-V --version", kFlag, ""}, {"--explain[=]", kWord, ""}, {"-W= -A= -D=", kWord, ""}}

// clippyLintFlags are the words clippy-driver takes after "--" that only
// set the level of a lint, each with the lint name after it or attached.
var clippyLintFlags = []string{"-W", "-A", "-D", "-F", "--warn", "--allow", "--deny", "--forbid"}

// cargoBuildSubs are the specs of cargo's building subcommands, an
// alias (b, c, t, r, d) a spec of its own.
func cargoBuildSubs() map[string]*spec {
	build := func(ask string, check func(*cmdCall, *verdictAcc, *spec, *argv, *specFacts), own ...[]optRow) func() *spec {
		return func() *spec {
			return &spec{grammar: cargoGrammar, joined: append(own, cargoBuildRows), operands: kWord, ask: ask, check: check}
		}
	}
	b := build("compiles the package, whose build scripts and procedural macros run, and writes the target directory", cargoOperands)
	check := build("compiles the package's dependencies, whose build scripts and procedural macros run", cargoOperands)
	test := build("compiles the package's tests and runs them", cargoTestOperands, cargoTestRows)
	bench := build("compiles the package's benchmarks and runs them", cargoTestOperands, cargoTestRows)
	run := func() *spec {
		s := build("compiles the package and runs it", cargoOperands)()
		s.grammar = cargoRunGrammar
		return s
	}
	doc := build("compiles the package's documentation, whose build scripts and procedural macros run", cargoOperands, cargoDocRows)
	clippy := build("lints the package, whose build scripts and procedural macros run", cargoClippyOperands, cargoClippyRows)
	subs := map[string]*spec{"build": b(), "b": b(), "check": check(), "c": check(), "test": test(), "t": test(), "bench": bench(),
		"run": run(), "r": run(), "doc": doc(), "d": doc(), "clippy": clippy()}
	subs["build"].examples = []example{
		{"cargo build", "ask+"}, {"cargo build --release -p core --features serde", "ask+"}, {"cargo build -rq", "ask+"},
		{"cargo build --target x86_64-unknown-linux-musl", "ask+"}, {"cargo build --target-dir target/ci", "ask+"},
		{"cargo build --config 'build.rustc-wrapper=\"/tmp/x\"'", "ask!"}, {"cargo build --config=x.toml", "ask!"},
		{"cargo build -Zbuild-std", "ask!"}, {"cargo build --target ./evil.json", "ask!"}, {"cargo build --target-dir /tmp/t", "deny"},
		{"cargo build --manifest-path .env", "deny"}, {"cargo b --config x=1", "ask!"},
	}
	subs["test"].examples = []example{
		{"cargo test", "ask+"}, {"cargo test parse -- --nocapture", "ask+"}, {"cargo test --no-run --workspace", "ask+"},
		{"cargo test --config target.x86_64-unknown-linux-gnu.runner=/tmp/x", "ask!"}, {"cargo test -- --logfile /tmp/l", "deny"},
		{"cargo test -- --logfile=/tmp/l", "deny"}, {"cargo t -- --logfile /tmp/l", "deny"},
	}
	subs["run"].examples = []example{{"cargo run --bin app -- --config x", "ask+"}, {"cargo run --release serve --config y", "ask+"},
		{"cargo run --config 'target.x.runner=\"sh\"' --bin app", "ask!"}}
	subs["doc"].examples = []example{{"cargo doc --no-deps", "ask+"}, {"cargo doc --open", "ask!"}}
	subs["clippy"].examples = []example{
		{"cargo clippy --all-targets -- -D warnings", "ask+"}, {"cargo clippy -- -Wclippy::pedantic -A clippy::needless_return", "ask+"},
		{"cargo clippy -- -C linker=/tmp/x", "ask!"}, {"cargo clippy -- --cfg x", "ask!"}, {"cargo clippy --config x=1", "ask!"},
	}
	return subs
}

// cargoHostRows are the options of cargo and of the subcommands the host
// reader judges (netTools: cargo --help, and cargo install, add, search,
// publish, tree, vendor, owner, yank, login, info, update, metadata and
// package --help), read by clap's grammar: exact long names, values
// attached or the next word. One table serves every subcommand; where
// two spell a letter otherwise (-f is install's --force and tree's
// --format, -r build's --release and owner's --remove), the letter is
// the flag and the other's long name takes the value, so that a misread
// leaves a word an operand, judged, never a value skipped.
var cargoHostRows = rows(cargoBuildRows, cargoTestRows, cargoDocRows,
	each(kFlag, "", "-V --version[=]", "-l --list", "-f --force", "-n --dry-run", "--no-verify", "--allow-dirty",
		"--debug", "--no-track", "--dev", "--build", "--optional", "--no-optional", "--public", "--no-public",
		"--default-features", "-d --duplicates", "--no-dedupe", "--all", "--recursive", "-b --breaking",
		"--exclude-lockfile", "--no-delete", "--respect-source-config", "--versioned-dirs", "--no-metadata", "--undo",
		"-w"),
	each(kWord, "", "--git=", "--branch=", "--tag=", "--rev=", "--index=", "--registry=", "--vers=", "--rename=",
		"--limit=", "--token=", "-a= --add=", "--remove=", "--format=", "--charset=", "-e= --edges=", "-i[=] --invert[=]",
		"--prune=", "--depth=", "--prefix=", "--precise=", "--base=", "--format-version=", "--filter-platform=",
		"--publish-time=", "--explain="),
	each(kDir, "", "--root=", "--path=", "-C="),
	each(kRead, "", "-s= --sync="),
)

// cargoHostSpec is cargo's, for the host reader.
var cargoHostSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "cargo", grammar: cargoGrammar, rows: cargoHostRows}).compile()
})

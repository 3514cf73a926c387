package bashguard

// The script runners of the JavaScript package managers besides npm
// (specs_npm.go): pnpm run, yarn run, bun run and bun test run a script
// of the package's package.json, or its tests, which is what an allow
// rule for one of them (Bash(pnpm run:*), Bash(bun test:*)) lets run.
// Their options before the script's name also choose what else runs: the
// shell the script runs in (pnpm's --config.script-shell, a yarnrc named
// by yarn's --use-yarnrc), variables loaded from a file (--env-file, in
// which NODE_OPTIONS or BUN_OPTIONS can require a module), another
// directory's package. Those ask, and an allow rule for the subcommand
// alone does not lift them. A module loaded before the tests (bun's
// --preload) is read as a file: the workspace's own, or a read outside
// the roots the path judge asks about. pnpm test and start pass every
// word after them to the script, reading no option; yarn classic's test,
// start and run read its own options before the first "--" of a line that
// has one (pkgScript.own), and --use-yarnrc and --cwd wherever they stand
// (yarnAnywhere). A script named in the subcommand's place (pnpm build)
// is the class's. The rows are
// every option each installed tool's --help lists (spec_help_test.go,
// against the versions .ci/setup installs).

// jsRunGrammar is the grammar of the script runners' own options: clap
// (pnpm), commander (yarn classic) and bun's parser alike take clusters of
// letters, a value attached (clap drops an "=" after the letter) or as the
// next word, exact long names, and end their options at the script's
// name, after which every word is the script's.
var jsRunGrammar = grammar{shortEq: true}

// jsRunWhy is what a script run asks for, "%s" the script's name.
const jsRunWhy = "runs the package's script %s"

// pnpmRunRows are pnpm run's options.
var pnpmRunRows = []optRow{
	{"--if-present -s --sequential --dry-run --json -y --yes --ignore-workspace --no-progress --stream --aggregate-output " +
		"--use-stderr -r --recursive -w --workspace-root --fail-if-no-match --no-fail-if-no-match --include-workspace-root " +
		"--no-include-workspace-root --sort --no-sort --reverse --parallel -h --help", kFlag, ""},
	{"--registry= --https-proxy= --http-proxy= --no-proxy= --color[=] --reporter= --loglevel= -F= --filter= --filter-prod= " +
		"--test-pattern= --changed-files-ignore-pattern= --workspace-concurrency=", kWord, ""},
	{"--config.*=", kProgram, "sets pnpm's configuration, which names the shell the script runs in (script-shell) and the options of every node it starts (node-options)"},
	{"--env-file=", kProgram, "loads variables from a file into the script's environment, where NODE_OPTIONS can require a module"},
	{"-C= --dir=", kProgram, "runs the scripts of the package in another directory"},
	{"--workspace-packages=", kProgram, "chooses, by patterns, the projects whose scripts run"},
	{"--store-dir= --state-dir=", kWrite, "pnpm's store and state, into its value"},
	{"--npmrc-auth-file= --userconfig=", kRead, ""},
}

// yarnRunRows are yarn run's options, yarn classic's global ones.
var yarnRunRows = []optRow{
	{"-v --version --no-default-rc --verbose --offline --prefer-offline --enable-pnp --pnp --disable-pnp --strict-semver --json " +
		"--ignore-scripts --har --ignore-platform --ignore-engines --ignore-optional --force --skip-integrity-check --check-files " +
		"--no-bin-links --flat --no-lockfile --pure-lockfile --frozen-lockfile --update-checksums --link-duplicates -s --silent " +
		"--no-progress --non-interactive --no-node-version-check --focus -h --help", kFlag, ""},
	{"--prod[=] --production[=] --emoji[=] --scripts-prepend-node-path[=] --proxy= --https-proxy= --registry= " +
		"--network-concurrency= --network-timeout= --otp=", kWord, ""},
	{"--cwd=", kProgram, "runs the scripts of the package in another directory"},
	{"--use-yarnrc=", kProgram, "reads a yarnrc, which can name the shell the script runs in and the yarn that runs (yarn-path)"},
	{"--modules-folder= --link-folder= --global-folder=", kProgram, "names a directory whose programs the script finds on its PATH"},
	{"--cache-folder= --preferred-cache-folder=", kWrite, "yarn's cache, into its value"},
	{"--mutex=", kAsk, "takes a lock in a file it names or on a port it listens on"},
}

// yarnAnywhere are the options yarn classic reads wherever they stand:
// its rc loader looks for the word --use-yarnrc in the whole line, after
// the script's name and after "--" too, and reads the file the next word
// names unless that begins with "-" (lib/cli.js, getRcConfigForCwd).
var yarnAnywhere = []optRow{
	{"--use-yarnrc", kProgram, "reads a yarnrc, which can name the yarn that runs (yarn-path) and the shell scripts run in"},
	// Its rc loader takes the first --cwd before "--" for the directory
	// whose yarnrc chain gives the command options of its own.
	{"--cwd", kProgram, "names the directory whose yarnrc files give yarn options of their own"},
}

// bunRuntimeRows are the options of bun's runtime, which bun run and bun
// test take alike (bun test's --help lists only its own).
var bunRuntimeRows = []optRow{
	{"-b --bun --no-orphans --watch --hot --no-clear-screen --check --smol --cpu-prof --cpu-prof-md --heap-prof --heap-prof-md " +
		"--if-present --no-install --prefer-offline --experimental-http2-fetch --experimental-http3-fetch --insecure-http-parser " +
		"--experimental-stream-iter --expose-gc --no-deprecation --throw-deprecation --no-warnings --trace-warnings " +
		"--trace-deprecation --pending-deprecation --zero-fill-buffers --use-system-ca --use-openssl-ca --use-bundled-ca " +
		"--tls-min-v1.0 --tls-min-v1.1 --tls-min-v1.2 --tls-min-v1.3 --tls-max-v1.2 --tls-max-v1.3 --redis-preconnect " +
		"--sql-preconnect --no-addons --no-ffi-cc --preserve-symlinks --preserve-symlinks-main --no-macros --jsx-side-effects " +
		"--ignore-dce-annotations --no-env-file -h --help", kFlag, ""},
	{"--watch-kill-signal= --cpu-prof-interval= --heap-prof-interval= --port= --conditions= --fetch-preconnect= " +
		"--max-http-header-size= --dns-result-order= --disable-warning= --title= --unhandled-rejections= --console-depth= " +
		"--user-agent= --cron-title= --cron-period= --main-fields= --extension-order= -d= --define= --drop= --feature= " +
		"-l= --loader= --jsx-factory= --jsx-fragment= --jsx-import-source= --jsx-runtime=", kWord, ""},
	// A module or a configuration (which can preload modules) inside
	// the roots is the workspace's own code; elsewhere, the path judge
	// asks (specs_lint.go).
	{"-r= --preload= --require= --import= -c= --config=", kRead, ""},
	{"-e= --eval= -p= --print=", kProgram, "runs the code it is given"},
	{"--env-file=", kProgram, "loads variables from a file into the environment, where BUN_OPTIONS can preload a module"},
	{"--cwd=", kProgram, "runs the package of another directory"},
	{"--inspect[=] --inspect-wait[=] --inspect-brk[=]", kProgram, "opens a debugger, through which whatever connects to it runs code"},
	{"--install= -i --prefer-latest", kAsk, "installs the packages the program imports from the registry"},
	{"--interactive", kAsk, "starts a prompt that waits for input"},
	{"--cpu-prof-name= --cpu-prof-dir= --heap-prof-name= --heap-prof-dir= --redirect-warnings=", kWrite, "a profile or the warnings, into its value"},
	{"--tsconfig-override=", kRead, ""},
}

// bunRunRows are bun run's own options.
var bunRunRows = []optRow{
	{"--silent --workspaces --parallel --sequential --no-exit-on-error", kFlag, ""},
	{"--elide-lines= -F= --filter= --shell=", kWord, ""},
}

// bunTestRows are bun test's own options.
var bunTestRows = []optRow{
	{"-u --update-snapshots --todo --only --pass-with-no-tests --concurrent --randomize --coverage --dots --only-failures " +
		"--isolate --no-isolate --test-worker --update-timings", kFlag, ""},
	{"--timeout= --rerun-each= --retry= --seed= --coverage-reporter= --bail[=] -t= --test-name-pattern= --reporter= " +
		"--max-concurrency= --path-ignore-patterns= --parallel[=] --parallel-delay= --shard=", kWord, ""},
	// --changed runs git, whose configuration in the repository can name
	// programs: no more than the tests bun runs from it already are.
	{"--changed[=]", kWord, ""},
	{"--coverage-dir= --reporter-outfile= --timings=", kWrite, "the coverage, a report or the timings, into its value"},
}

// pnpmRunSpec is pnpm run (and run-script): without a script's name it
// lists the package's scripts.
func pnpmRunSpec() *spec {
	return &spec{grammar: jsRunGrammar, rows: pnpmRunRows, operands: kWord, allow: "pnpm run lists the package's scripts",
		script: &pkgScript{others: "-r --recursive -F --filter --filter-prod -w --workspace-root --include-workspace-root"},
		query:  []cond{{test: cMaxOps, n: 0, why: jsRunWhy}},
		examples: []example{
			{"pnpm run build", "ask+"}, {"pnpm run -r --if-present lint", "ask+"}, {"pnpm run test --config.script-shell=x", "ask+"},
			{"pnpm run build --dir /tmp/o", "ask+"}, {"pnpm run --filter web build", "ask+"},
			{"pnpm run --config.script-shell=/bin/echo build", "ask!"}, {"pnpm run --config.node-options=--require=./x.js test", "ask!"},
			{"pnpm run --env-file /tmp/x.env test", "ask!"}, {"pnpm run --env-file=.env.test test", "ask!"},
			{"pnpm run -C /tmp/other build", "ask!"}, {"pnpm run -C/tmp/other build", "ask!"}, {"pnpm run -rC /tmp/other build", "ask!"},
			{"pnpm run --dir=../other build", "ask!"}, {"pnpm run --store-dir /tmp/s build", "deny"},
		}}
}

// yarnRunSpec is yarn run: without a script's name, yarn classic lists
// the scripts and prompts for one.
func yarnRunSpec() *spec {
	return &spec{grammar: jsRunGrammar, rows: yarnRunRows, operands: kWord, ask: "runs a script of the package",
		script: &pkgScript{own: yarnOwnSpec()},
		examples: []example{
			{"yarn run build", "ask+"}, {"yarn run build x --cache-folder /tmp/c -- y", "deny"}, {"yarn run build -s -- x", "ask+"}, {"yarn run -s lint --fix", "ask+"}, {"yarn run build --cwd /tmp/o", "ask!"}, {"yarn run build --cwd /tmp/o -- x", "ask!"},
			{"yarn run --use-yarnrc=/tmp/yrc build", "ask!"}, {"yarn run --use-yarnrc /tmp/yrc build", "ask!"},
			{"yarn run --cwd=/tmp/other test", "ask!"}, {"yarn run --modules-folder=/tmp/m build", "ask!"},
			{"yarn run --cache-folder /tmp/c build", "deny"}, {"yarn run --mutex file:/tmp/l build", "ask!"},
		}}
}

// yarnOwnSpec is yarn classic's own options where it reads them after the
// script's name: before the first "--" of a line that has one, the
// operands among them passed on to the script (yarn test x --verbose -- y
// gives the script x y).
func yarnOwnSpec() *spec {
	return &spec{name: "yarn", grammar: grammar{shortEq: true, permute: true}, rows: yarnRunRows, operands: kWord}
}

// jsLifeSpec is pnpm's and yarn's subcommand that runs the package's
// script of that name (test, start), passing it every word after the
// subcommand as it is, an option's spelling too (pnpm test -C DIR gives
// the script -C DIR): it reads no option of its own
// (TestScriptRunsPassTheirWords runs the installed pnpm and yarn).
func jsLifeSpec(tool, sub, script string, own *spec) *spec {
	line := tool + " " + sub
	return &spec{ask: "runs the package's " + script + " script", script: &pkgScript{name: script, own: own},
		examples: []example{{line, "ask+"}, {line + " --watch -C /tmp/o", "ask+"}}}
}

// pnpmLifeSubs are pnpm's subcommands that run a script of the package by
// its own name.
func pnpmLifeSubs() map[string]*spec {
	return map[string]*spec{"test": jsLifeSpec("pnpm", "test", "test", nil), "t": jsLifeSpec("pnpm", "t", "test", nil),
		"tst": jsLifeSpec("pnpm", "tst", "test", nil), "start": jsLifeSpec("pnpm", "start", "start", nil)}
}

// bunScriptSubs are bun's subcommands that run the package's scripts, files or
// tests.
func bunScriptSubs() map[string]*spec {
	return map[string]*spec{
		"run": {grammar: jsRunGrammar, joined: [][]optRow{bunRunRows, bunRuntimeRows}, operands: kWord,
			ask: "runs a script of the package, or a file", script: &pkgScript{leadDashes: true},
			examples: []example{
				{"bun run build", "ask+"}, {"bun run --silent lint -- --fix", "ask+"}, {"bun run dev --preload /tmp/x.js", "ask+"},
				{"bun run --preload /tmp/x.js build", "ask!"}, {"bun run -r./x.js build", "ask+"}, {"bun run --env-file=/tmp/e build", "ask!"},
				{"bun run --cwd /tmp/other build", "ask!"}, {"bun run -e 'require(\"fs\")'", "ask!"}, {"bun run --inspect build", "ask!"},
				{"bun run --cpu-prof-dir /tmp/p build", "deny"},
			}},
		"test": {grammar: grammar{permute: true, shortEq: true}, joined: [][]optRow{bunTestRows, bunRuntimeRows}, operands: kWord,
			ask: "runs the package's tests",
			examples: []example{
				{"bun test", "ask+"}, {"bun test src/parse --timeout 2000 -t 'parses'", "ask+"}, {"bun test --coverage", "ask+"},
				{"bun test --preload /tmp/x.js", "ask!"}, {"bun test --preload=/tmp/x.js", "ask!"}, {"bun test -r /tmp/x.js", "ask!"},
				{"bun test src --require=./setup.js", "ask+"}, {"bun test --preload .env", "deny"}, {"bun test --env-file /tmp/e", "ask!"}, {"bun test -c /tmp/bunfig.toml", "ask!"},
				{"bun test --changed", "ask+"}, {"bun test --coverage-dir /tmp/c", "deny"}, {"bun test --reporter-outfile=/tmp/r.xml", "deny"},
			}},
	}
}

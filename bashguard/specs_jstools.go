package bashguard

import (
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// The JavaScript linter, formatter and test runner: eslint, prettier and
// jest run the repository's own configuration, which is code
// (eslint.config.js, prettier.config.js, jest.config.js, the plugins and
// modules it names), so every line asks, for what the command does, and
// an allow rule for it (Bash(eslint:*), Bash(npx jest:*) through npx's
// spec) lifts that Ask. Their options also name code to load (a
// configuration, a plugin, a parser, a formatter, a setup module, a test
// runner): a file inside the roots is the workspace's own, which that
// rule lets run; one outside them is a read the path judge asks about,
// which no rule for the command lifts, and a secret one is denied. They
// also write reports and caches, judged as writes. The rows are every
// option each installed tool's --help lists (spec_help_test.go, against
// the versions .ci/setup installs).

// optionatorGrammar is eslint's option parser (optionator): clusters of
// letters, a value attached (with "=" too) or as the next word, --no-X
// for a flag X, options anywhere until "--".
var optionatorGrammar = grammar{permute: true, negate: true, shortEq: true}

// eslintRows are eslint's options.
var eslintRows = []optRow{
	{"--no-config-lookup --fix-dry-run --no-ignore --stdin --quiet --color --no-color --no-inline-config " +
		"--report-unused-disable-directives --cache --suppress-all --prune-suppressions --pass-on-unpruned-suppressions " +
		"--env-info --no-error-on-unmatched-pattern --exit-on-fatal-error --no-warn-ignored --pass-on-no-patterns --debug " +
		"-h --help -v --version --stats", kFlag, ""},
	{"--ext= --global= --parser-options= --rule= --fix-type= --ignore-pattern= --stdin-filename= --max-warnings= " +
		"--report-unused-disable-directives-severity= --report-unused-inline-configs= --cache-strategy= --suppress-rule= " +
		"--flag= --concurrency=", kWord, ""},
	{"-c= --config= --parser= --plugin= -f= --format= --print-config=", kRead, ""},
	{"--fix", kChange, "rewrites the files it lints"},
	{"-o= --output-file= --cache-file= --cache-location= --suppressions-location=", kWrite, "the report, the cache or the suppressions, into its value"},
	{"--inspect-config", kAsk, "opens the configuration inspector, a web server"},
	{"--mcp", kAsk, "starts a server that waits for requests"},
	{"--init", kAsk, "runs a wizard that installs packages and waits for answers"},
}

// prettierGrammar is prettier's option parser (minimist's): as
// optionator's.
var prettierGrammar = grammar{permute: true, negate: true, shortEq: true}

// prettierRows are prettier's options.
var prettierRows = []optRow{
	{"-c --check -l --list-different -u --ignore-unknown --bracket-same-line --no-bracket-spacing --no-experimental-ternaries " +
		"--jsx-single-quote --no-semi --single-attribute-per-line --single-quote --use-tabs --vue-indent-script-and-style " +
		"--no-config --no-editorconfig --with-node-modules --cache --check-ignore-pragma --no-color " +
		"--no-error-on-unmatched-pattern --insert-pragma --require-pragma --support-info -v --version", kFlag, ""},
	{"--arrow-parens= --embedded-language-formatting= --end-of-line= --experimental-operator-position= " +
		"--html-whitespace-sensitivity= --object-wrap= --parser= --print-width= --prose-wrap= --quote-props= --tab-width= " +
		"--trailing-comma= --config-precedence= --cursor-offset= --range-end= --range-start= --cache-strategy= --log-level= " +
		"--stdin-filepath= -h[=] --help[=]", kWord, ""},
	{"--config= --plugin= --ignore-path=", kRead, ""},
	{"--find-config-path= --file-info=", kProbe, ""},
	{"-w --write", kChange, "rewrites the files it formats"},
	{"--cache-location=", kWrite, "its cache, into its value"},
}

// yargsGrammar is jest's option parser (yargs-parser): options anywhere,
// --no-X for a flag X, clusters of letters, a value attached with "=" or
// as the next word. An array option takes every word after it up to the
// next option; those words are read as operands here, which are judged as
// files read, so that a module named there is judged as one.
var yargsGrammar = grammar{permute: true, negate: true, shortEq: true}

// jestRows are jest's options, each also spelled in kebab case, as
// yargs-parser reads --setup-files for --setupFiles (withKebab).
var jestRows = withKebab([]optRow{
	{"--all --automock --cache --changedFilesWithAncestor --ci --clearMocks --collectCoverage --collectTests --color --colors " +
		"--coverage --debug --detectLeaks --detectOpenHandles --errorOnDeprecated --findRelatedTests --forceExit --injectGlobals " +
		"--json --lastCommit --listTests --logHeapUsage --noStackTrace --notify --passWithNoTests --randomize --resetMocks " +
		"--resetModules --restoreMocks --runTestsByPath --showConfig --showSeed --silent --skipFilter --testLocationInResults " +
		"--useStderr --verbose --version --waitForUnhandledRejections --watchman --workerThreads -b --bail -e --expand " +
		"-f --onlyFailures -h --help -i --runInBand -o --onlyChanged -u --updateSnapshot", kFlag, ""},
	{"--maxConcurrency= --openHandlesTimeout= --seed= --testTimeout= --workerGracefulExitTimeout= --changedSince= " +
		"--collectCoverageFrom= --coverageThreshold= --globals= --shard= --testEnvironmentOptions= --testFailureExitCode= " +
		"-t= --testNamePattern= -w= --maxWorkers= --coverageProvider= --notifyMode= --coveragePathIgnorePatterns= " +
		"--coverageReporters= --ignoreProjects= --moduleDirectories= --moduleFileExtensions= --modulePathIgnorePatterns= " +
		"--selectProjects= --testMatch= --testPathIgnorePatterns= --testPathPatterns= --testRegex= --transformIgnorePatterns= " +
		"--unmockedModulePathPatterns= --watchPathIgnorePatterns= --globals.*= --coverageThreshold.*= --testEnvironmentOptions.*=", kWord, ""},
	// Modules jest loads and runs, and the directories whose tests run:
	// read as files (the workspace's own, or a read the path judge asks
	// about).
	{"-c= --config= --globalSetup= --globalTeardown= --filter= --prettierPath= --preset= --reporters= --resolver= --runner= " +
		"--setupFiles= --setupFilesAfterEnv= --snapshotSerializers= --testEnvironment= --env= --testResultsProcessor= " +
		"--testRunner= --testSequencer= --modulePaths= --rootDir= --roots= --projects=", kRead, ""},
	{"--transform= --moduleNameMapper= --haste= --transform.*= --moduleNameMapper.*= --haste.*=", kProgram,
		"maps files to the modules that load them, by a JSON object the command line gives"},
	{"--cacheDirectory= --coverageDirectory= --outputFile=", kWrite, "the cache, the coverage or the results, into its value"},
	{"--clearCache", kChange, "removes jest's cache directory"},
	{"--watch --watchAll", kEndless, "runs the tests again whenever a file changes, until it is stopped"},
})

// jestConfig asks for a jest --config given as JSON ('{"setupFiles":
// [...]}'), which names the modules jest loads: judged as a file, it would
// name none.
func jestConfig(m *cmdCall, c *verdictAcc, s *spec, v *argv, f *specFacts) {
	for _, e := range f.seen {
		if e.opt != nil && e.opt.name == "-c" && strings.HasPrefix(strings.TrimSpace(e.val), "{") {
			c.addNamed(e.spell, permission.Ask, ArgsRule("jest"), "uses the jest option ", optWritten(&e),
				", whose JSON configuration names the modules jest loads")
		}
	}
}

// withKebab adds to each long camelCase spelling of rows its kebab-case
// one (--setupFiles: --setup-files).
func withKebab(rows []optRow) []optRow {
	out := make([]optRow, len(rows))
	for i, r := range rows {
		var b strings.Builder
		for w := range strings.FieldsSeq(r.spell) {
			b.WriteString(w + " ")
			if k := kebab(w); k != w {
				b.WriteString(k + " ")
			}
		}
		out[i] = optRow{strings.TrimSpace(b.String()), r.kind, r.why}
	}
	return out
}

// kebab is the kebab case of a long option's camelCase name.
func kebab(w string) string {
	if !strings.HasPrefix(w, "--") {
		return w
	}
	var b strings.Builder
	for _, r := range w {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('-')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// lintSpecs are the specs of the linter, the formatter and the test
// runner.
func lintSpecs() map[string]*spec {
	return map[string]*spec{
		"jest": {grammar: yargsGrammar, rows: jestRows, operands: kRead, check: jestConfig,
			ask: "runs the package's tests, and the configuration and modules the repository names",
			examples: []example{
				{"jest", "ask+"}, {"jest src/parse --coverage", "ask+"}, {"jest -t 'parses' --ci -i", "ask+"},
				{"jest --setupFiles ./setup.js", "ask+"}, {"jest --config jest.ci.config.js", "ask+"}, {"jest --no-cache -u", "ask+"},
				{"jest --config /tmp/j.js", "ask!"}, {"jest -c=/tmp/j.js", "ask!"}, {"jest --setupFiles ./ok.js /tmp/x.js", "ask!"},
				{"jest --setup-files-after-env=/tmp/x.js", "ask!"}, {"jest --testRunner /tmp/r.js", "ask!"},
				{"jest --rootDir /tmp/other", "ask!"}, {"jest --config '{\"setupFiles\":[\"/tmp/x.js\"]}'", "ask!"},
				{"jest --transform '{\"js\":\"/tmp/t.js\"}'", "ask!"}, {"jest --moduleNameMapper.x=/tmp/m.js", "ask!"},
				{"jest --outputFile /tmp/r.json --json", "deny"}, {"jest --coverage-directory=/tmp/c", "deny"}, {"jest -c .env", "deny"},
			}},
		"eslint": {grammar: optionatorGrammar, rows: eslintRows, operands: kWord,
			ask: "runs the repository's eslint configuration and the plugins it names, which are code",
			examples: []example{
				{"eslint .", "ask+"}, {"eslint src --ext .ts --max-warnings 0", "ask+"}, {"eslint -f json -o report.json src", "ask+"},
				{"eslint --fix src/a.js", "ask+"}, {"eslint -c eslint.ci.config.js .", "ask+"}, {"eslint --no-color --cache .", "ask+"},
				{"eslint -c /tmp/x.js .", "ask!"}, {"eslint --config=/tmp/x.js .", "ask!"}, {"eslint -f /tmp/fmt.js .", "ask!"},
				{"eslint --plugin /tmp/p.js .", "ask!"}, {"eslint . --quiet -c /tmp/x.js", "ask!"}, {"eslint -o /tmp/r.txt .", "deny"},
				{"eslint --cache-location /tmp/c .", "deny"}, {"eslint -c .env .", "deny"}, {"eslint --mcp", "ask!"},
			}},
		"prettier": {grammar: prettierGrammar, rows: prettierRows, operands: kRead,
			ask: "runs the repository's prettier configuration and the plugins it names, which are code",
			examples: []example{
				{"prettier --check .", "ask+"}, {"prettier -l src", "ask+"}, {"prettier --write src/a.ts", "ask+"},
				{"prettier --single-quote --print-width 100 --check src", "ask+"}, {"prettier --config .prettierrc.ci --check .", "ask+"},
				{"prettier --plugin=/tmp/p.js --check .", "ask!"}, {"prettier --config /tmp/c.js -c .", "ask!"},
				{"prettier -c --plugin /tmp/p.js .", "ask!"}, {"prettier .env", "deny"}, {"prettier --cache-location=/tmp/c -c .", "deny"},
			}},
	}
}

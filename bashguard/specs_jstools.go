package bashguard

import "strings"

// The JavaScript linter, formatter and test runners: eslint, prettier,
// jest and vitest run the repository's own configuration, which is code
// (eslint.config.js, prettier.config.js, jest.config.js, vitest.config.ts, the plugins and
// modules it names), so every line asks, for what the command does, and
// an allow rule for it (Bash(eslint:*), Bash(npx jest:*) through npx's
// spec) lifts that Ask. Their options also name code to load (a
// configuration, a plugin, a parser, a formatter, a setup module, a test
// runner): a file inside the roots is the workspace's own, which that
// rule lets run; one outside them is a read the path judge asks about,
// which no rule for the command lifts, and a secret one is denied. They
// also write reports and caches, judged as writes. The rows are every
// option each installed tool's --help lists (spec_help_test.go, against
// the versions .ci/setup installs). They are not installed where the
// effect test runs, so their allowed lines (--version) are in
// testdata/cases.jsonl, not among the examples.

// optionatorGrammar is eslint's option parser (optionator): clusters of
// letters, a value attached (with "=" too) or as the next word, --no-X
// for a flag X, options anywhere until "--".
var optionatorGrammar = grammar{permute: true, negate: true, shortEq: true}

// eslintRows are eslint's options.
var eslintRows = []optRow{
	{"--no-config-lookup --fix-dry-run --no-ignore --stdin --quiet --color --no-color --no-inline-config " +
		"--report-unused-disable-directives --cache --suppress-all --prune-suppressions --pass-on-unpruned-suppressions " +
		"--env-info --no-error-on-unmatched-pattern --exit-on-fatal-error --no-warn-ignored --pass-on-no-patterns --debug " +
		"-h --help --stats", kFlag, ""},
	{"-v --version", kVersion, ""},
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
		"--no-error-on-unmatched-pattern --insert-pragma --require-pragma --support-info", kFlag, ""},
	{"-v --version", kVersion, ""},
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

// jestOpts are jest's options, spelled in kebab case too by lintSpecs, as
// yargs-parser reads --setup-files for --setupFiles (withKebab).
var jestOpts = []optRow{
	{"--all --automock --cache --changedFilesWithAncestor --ci --clearMocks --collectCoverage --collectTests --color --colors " +
		"--coverage --debug --detectLeaks --detectOpenHandles --errorOnDeprecated --findRelatedTests --forceExit --injectGlobals " +
		"--json --lastCommit --listTests --logHeapUsage --noStackTrace --notify --passWithNoTests --randomize --resetMocks " +
		"--resetModules --restoreMocks --runTestsByPath --showConfig --showSeed --silent --skipFilter --testLocationInResults " +
		"--useStderr --verbose --waitForUnhandledRejections --watchman --workerThreads -b --bail -e --expand " +
		"-f --onlyFailures -h --help -i --runInBand -o --onlyChanged -u --updateSnapshot", kFlag, ""},
	{"--version", kVersion, ""},
	{"--maxConcurrency= --openHandlesTimeout= --seed= --testTimeout= --workerGracefulExitTimeout= --changedSince= " +
		"--collectCoverageFrom= --coverageThreshold= --globals= --shard= --testEnvironmentOptions= --testFailureExitCode= " +
		"-t= --testNamePattern= -w= --maxWorkers= --coverageProvider= --notifyMode= --coveragePathIgnorePatterns= " +
		"--coverageReporters= --ignoreProjects= --moduleDirectories= --moduleFileExtensions= --modulePathIgnorePatterns= " +
		"--selectProjects= --testMatch= --testPathIgnorePatterns= --testPathPatterns= --testRegex= --transformIgnorePatterns= " +
		"--unmockedModulePathPatterns= --watchPathIgnorePatterns= --globals.*= --coverageThreshold.*= --testEnvironmentOptions.*=", kWord, ""},
	// Modules jest loads and runs, and the directories whose tests run:
	// read as files (the workspace's own, or a read the path judge asks
	// about).
	{"-c= --config=", kReadOrJSON, ""},
	{"--globalSetup= --globalTeardown= --filter= --prettierPath= --preset= --reporters= --resolver= --runner= " +
		"--setupFiles= --setupFilesAfterEnv= --snapshotSerializers= --testEnvironment= --env= --testResultsProcessor= " +
		"--testRunner= --testSequencer= --modulePaths= --rootDir= --roots= --projects=", kRead, ""},
	{"--transform= --moduleNameMapper= --haste= --transform.*= --moduleNameMapper.*= --haste.*=", kProgram,
		"maps files to the modules that load them, by a JSON object the command line gives"},
	{"--cacheDirectory= --coverageDirectory= --outputFile=", kWrite, "the cache, the coverage or the results, into its value"},
	{"--clearCache", kChange, "removes jest's cache directory"},
	{"--watch --watchAll", kEndless, "runs the tests again whenever a file changes, until it is stopped"},
}

// cacGrammar is vitest's option parser (cac, over mri): as yargs-parser,
// with every option's sub-keys spelled after a dot (--coverage.enabled).
var cacGrammar = grammar{permute: true, negate: true, shortEq: true}

// vitestOpts are vitest's options, spelled in kebab case too by lintSpecs, as
// cac reads --output-file for --outputFile (withKebab).
var vitestOpts = []optRow{
	{"-v --version", kVersion, ""},
	{"--hideSkippedTests --coverage --isolate --globals --injectCjsGlobals --dom --fileParallelism " +
		"--passWithNoTests --logHeapUsage --detectAsyncLeaks --allowOnly --dangerouslyIgnoreUnhandledErrors --sinceLastRun " +
		"--lastFailed --expandSnapshotDiff --disableConsoleIntercept --typecheck --cache --fsModuleCache --expect " +
		"--printConsoleTrace --includeTaskLocation --run --no-color --clearScreen --strictTags --sharedViteServer -h --help", kFlag, ""},
	{"-u[=] --update[=] -t= --testNamePattern= --silent[=] --mode= --pool= --vmMemoryLimit= --maxWorkers= --shard= " +
		"--changed[=] --sequence= --testTimeout= --hookTimeout= --bail[=] --retry= --repeats= --exclude= -p= --project= " +
		"--slowTestThreshold= --teardownTimeout= --maxConcurrency= --configLoader= --listTags[=] --tagsFilter= --experimental= " +
		"--browser= --coverage.*= --browser.*= --sequence.*= --expect.*= --experimental.*= --typecheck.*=", kWord, ""},
	// The configuration, the directories whose tests run, and the
	// modules it loads by name or path (a reporter, an environment, the
	// diff's options): read as files.
	{"-r= --root= -c= --config= --dir= --environment= --reporter= --diff= --mergeReports= --typecheck.tsconfig=", kRead, ""},
	{"--outputFile= --outputFile.*= --fsModuleCachePath= --attachmentsDir= --coverage.reportsDirectory=", kWrite,
		"the results, a cache or the coverage, into its value"},
	{"--execArgv=", kProgram, "passes arguments to the node processes that run the tests (--require loads a module)"},
	{"--inspect[=] --inspectBrk[=]", kProgram, "opens a debugger, through which whatever connects to it runs code"},
	{"--typecheck.checker=", kProgram, "names the program that checks the types"},
	{"--ui --open --api[=]", kAsk, "serves a web interface or an API on a port"},
	{"--clearCache", kChange, "removes vitest's caches"},
	{"-w --watch --standalone", kEndless, "runs the tests again whenever a file changes, until it is stopped"},
}

// tscGrammar is tsc's: every option one word, with one dash or two, its
// name in any case (--OUTDIR), its value the next word; options anywhere.
var tscGrammar = grammar{oneDash: true, twoDashes: true, foldCase: true, permute: true}

// tscBooleans are tsc's boolean options: "true" or "false" after one is
// its value, any other word an operand (read as a file, as operands are).
const tscBooleans = "-allowArbitraryExtensions -allowImportingTsExtensions -allowJs -allowSyntheticDefaultImports " +
	"-allowUmdGlobalAccess -allowUnreachableCode -allowUnusedLabels -alwaysStrict -assumeChangesOnlyAffectDirectDependencies " +
	"-checkJs -composite -declaration -d -declarationMap -deduplicatePackages -diagnostics -disableReferencedProjectLoad " +
	"-disableSizeLimit -disableSolutionSearching -disableSourceOfProjectReferenceRedirect -downlevelIteration -emitBOM " +
	"-emitDeclarationOnly -emitDecoratorMetadata -erasableSyntaxOnly -esModuleInterop -exactOptionalPropertyTypes " +
	"-experimentalDecorators -explainFiles -extendedDiagnostics -forceConsistentCasingInFileNames -importHelpers -incremental -i " +
	"-inlineSourceMap -inlineSources -isolatedDeclarations -isolatedModules -libReplacement -listEmittedFiles -listFiles " +
	"-noCheck -noEmit -noEmitHelpers -noEmitOnError -noErrorTruncation -noFallthroughCasesInSwitch -noImplicitAny " +
	"-noImplicitOverride -noImplicitReturns -noImplicitThis -noLib -noPropertyAccessFromIndexSignature -noResolve " +
	"-noUncheckedIndexedAccess -noUncheckedSideEffectImports -noUnusedLocals -noUnusedParameters -preserveConstEnums " +
	"-preserveSymlinks -preserveWatchOutput -pretty -removeComments -resolveJsonModule -resolvePackageJsonExports " +
	"-resolvePackageJsonImports -rewriteRelativeImportExtensions -skipDefaultLibCheck -skipLibCheck -sourceMap " +
	"-stableTypeOrdering -strict -strictBindCallApply -strictBuiltinIteratorReturn -strictFunctionTypes -strictNullChecks " +
	"-strictPropertyInitialization -stripInternal -synchronousWatchDirectory -traceResolution -useDefineForClassFields " +
	"-useUnknownInCatchVariables -verbatimModuleSyntax"

// tscRows are tsc's options.
var tscRows = []optRow{
	{tscBooleans + " -all -build -b -clean -dry -force -f -help -h -? -ignoreConfig -listFilesOnly -quiet -q -showConfig " +
		"-singleThreaded -stopBuildOnErrors -verbose -v", kFlag, ""},
	// -v is --version, or --verbose after -b: only --version prints the
	// version alone.
	{"-version", kVersion, ""},
	{"-maxNodeModuleJsDepth= -jsxFactory= -jsxFragmentFactory= -jsxImportSource= -reactNamespace= -builders= -checkers= " +
		"-customConditions= -excludeDirectories= -excludeFiles= -fallbackPolling= -jsx= -lib= -locale= -module= -m= " +
		"-moduleDetection= -moduleResolution= -moduleSuffixes= -newLine= -paths= -plugins= -target= -t= -types= " +
		"-watchDirectory= -watchFile= -watchInterval= -mapRoot= -sourceRoot=", kWord, ""},
	{"-p= -project= -rootDir= -rootDirs= -baseUrl= -typeRoots=", kRead, ""},
	{"-outDir= -outFile= -declarationDir= -tsBuildInfoFile= -generateTrace= -generateCpuProfile= -pprofDir=", kWrite,
		"the compiled files, a trace or a profile, into its value"},
	{"-init", kChange, "writes a tsconfig.json"},
	{"-w -watch", kEndless, "compiles again whenever a file changes, until it is stopped"},
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

// lintSpecs are the specs of the linter, the formatter, the test runners
// and the compiler.
func lintSpecs() map[string]*spec {
	return map[string]*spec{
		"jest": {grammar: yargsGrammar, rows: withKebab(jestOpts), operands: kRead,
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
		"vitest": {grammar: cacGrammar, rows: withKebab(vitestOpts), operands: kWord,
			ask: "runs the package's tests, and the configuration and modules the repository names",
			examples: []example{
				{"vitest run", "ask+"}, {"vitest run src/parse --coverage --reporter=verbose", "ask+"}, {"vitest --config vitest.ci.ts run", "ask+"},
				{"vitest run -t parses --coverage.enabled --coverage.provider=v8", "ask+"}, {"vitest --no-file-parallelism run", "ask+"},
				{"vitest run --config /tmp/v.ts", "ask!"}, {"vitest run -c=/tmp/v.ts", "ask!"}, {"vitest run --root /tmp/other", "ask!"},
				{"vitest run --reporter /tmp/r.js", "ask!"}, {"vitest run --execArgv=--require=/tmp/x.js", "ask!"},
				{"vitest run --exec-argv --require", "ask!"}, {"vitest --typecheck.checker=/tmp/x run", "ask!"}, {"vitest --ui", "ask!"},
				{"vitest run --outputFile /tmp/r.json", "deny"}, {"vitest run --output-file.junit=/tmp/j.xml", "deny"},
				{"vitest run --coverage.reports-directory=/tmp/c", "deny"}, {"vitest run -c .env", "deny"},
			}},
		// tsc runs no code of the repository's; it reads the sources and
		// the configuration (which may extend files anywhere) and writes
		// the compiled files.
		"tsc": {grammar: tscGrammar, rows: tscRows, operands: kRead,
			ask: "compiles the project, writing its output where the configuration says",
			examples: []example{
				{"tsc", "ask+"}, {"tsc --noEmit", "ask+"}, {"tsc -p tsconfig.build.json --outDir dist", "ask+"}, {"tsc -b --verbose", "ask+"},
				{"tsc --strict false src/a.ts", "ask+"}, {"tsc --outDir /tmp/o", "deny"}, {"tsc --OUTDIR /tmp/o", "deny"},
				{"tsc -outdir /tmp/o", "deny"}, {"tsc --tsBuildInfoFile /tmp/b", "deny"}, {"tsc -P /tmp/tsconfig.json", "ask!"},
				{"tsc .env", "deny"}, {"tsc --generateTrace /tmp/t", "deny"}, {"tsc -b -v", "ask+"},
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

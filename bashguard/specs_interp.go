package bashguard

import "sync"

import "github.com/toolgate/toolgate/permission"

// The interpreters' command lines as data: python (python2, python3 and
// the names that begin alike, python3.12, pypy3), node, perl and ruby,
// each read from its own --help (python3 --help, node --help, perl -h,
// ruby --help), and php, lua, Rscript and deno, known only by the
// options that take program text. The one scanner reads them; the
// interpreter's model (model_code.go) judges what it found. An interpreter runs
// a program, so no line of one is allowed here: the model says which of
// what it found decides (interactive prompt, program read from the input,
// inline text, an option not known harmless, the program or module run),
// and judges the files the options read and write.

// interpSpecs are the specs of the interpreters, by command name.
var interpSpecs = sync.OnceValue(func() map[string]*spec {
	return compileAll(map[string]*spec{
		"python": pythonSpec(), "python2": pythonSpec(), "python3": pythonSpec(),
		"node": nodeSpec(), "nodejs": nodeSpec(),
		"perl": {grammar: perlGrammar, rows: perlRows, examples: []example{
			{"perl -e 'print 1'", "ask"}, {"perl -lne 'print' a.txt", "ask"}, {"perl -pi -e 's/a/b/' a.txt", "ask"},
			{"perl -Mstrict script.pl", "ask"}, {"perl -e 1 .env", "deny"}}},
		"ruby": {rows: rubyRows, examples: []example{{"ruby -e 'puts 1'", "ask"}, {"ruby -rjson script.rb", "ask"}}},
		// Known by the letters that take program text only (none installed
		// here to read a help from): every other option asks, naming it, and
		// -i is denied as an interactive prompt, as before these specs (lua's
		// is one; php's -i prints phpinfo(), the environment with it).
		"php":     lettersSpec("-r="),
		"lua":     lettersSpec("-e="),
		"Rscript": lettersSpec("-e="),
		"deno":    lettersSpec(""),
	})
})

// interpFinds is the factor each finding records: its decision, rule
// (ArgsRule of the command where empty), and its reason, pre + the word
// it names + post + the option that gave it.
var interpFinds = [...]struct {
	dec       permission.Decision
	rule      permission.RuleID
	pre, post string
	over      bool
}{
	ifNone:     {permission.Ask, RuleUnlisted, "not on the safe list", "", true},
	ifPreload:  {permission.Ask, RuleUnlisted, "loads the module ", " before the program; not on the safe list", true},
	ifProgram:  {permission.Ask, RuleUnlisted, "runs the program ", "; not on the safe list", true},
	ifOption:   {permission.Ask, "", "uses the ", "", true},
	ifInline:   {permission.Ask, RuleCodeInline, "runs inline program text, which is not analysed", "", true},
	ifStdinRdr: {permission.Ask, RuleCodeInline, interpStdinRdr, "", true},
	ifStdin:    {permission.Ask, RuleCodePipeToShell, "runs a program read from its input, which is not analysed", "", false},
	ifPrompt:   {permission.Deny, RuleDangerousInteractive, "starts an interactive interpreter that would hang waiting for a person", "", false},
}

const interpStdinRdr = "runs the program its input is redirected from (a here-document, a here-string or a file), which is not analysed"

// interpPrefixes are the interpreters known by how their names begin, and
// the spec that reads them.
var interpPrefixes = []struct{ prefix, spec string }{{"python", "python3"}, {"pypy", "python3"}}

// pythonSpec is CPython's command line (python3 --help): clusters of
// letters, a value attached or the next word, long options spelled out;
// -c and -m end the options, the words after them being the program's.
func pythonSpec() *spec {
	return &spec{rows: pythonRows, endOpts: "-c -m", examples: []example{
		{"python3 -c 'print(1)'", "ask"}, {"python3 -Bc 'print(1)'", "ask"}, {"python3 -m json.tool a.txt", "ask"},
		{"python3 -i", "deny"}, {"python3 -u script.py", "ask"}, {"python3 -W ignore script.py", "ask"},
		{"python3 -c 'print(1)' -i", "ask"}, {"python3 -", "ask"}}}
}

// pythonRows are CPython's options (3.8 to 3.13; -R and -3 of older ones).
var pythonRows = []optRow{
	{"-c=", kInline, ""},
	{"-m=", kModule, ""},
	{"-i", kInteractive, ""},
	{"-b -B -d -E -I -O -P -q -s -S -u -v -x -R -3", kFlag, ""},
	{"-W= -X= --check-hash-based-pycs=", kWord, ""},
	{"-h -? --help --help-env --help-xoptions --help-all", kFlag, ""},
	{"-V --version", kVersion, ""},
}

// nodeSpec is node's command line (node --help): its options one a word,
// read here as clusters too (node has -pe), a value attached with "=" or
// the next word, --no-X for X; the first operand is the script, whose
// words follow it.
func nodeSpec() *spec {
	return &spec{grammar: grammar{negate: true}, rows: nodeRows, examples: []example{
		{"node -e 'console.log(1)'", "ask"}, {"node -pe 1", "ask"}, {"node --eval=1", "ask"}, {"node app.js", "ask"},
		{"node -i", "deny"}, {"node --env-file=.env app.js", "deny"}, {"node -r ./hook.js app.js", "ask"}}}
}

// nodeRows are node's options (node 20 and 22), and the V8 options most
// used with it.
var nodeRows = []optRow{
	{"-e= --eval=", kInline, ""},
	{"-p --print[=]", kInline, ""}, // the script is -e's value, or the first operand
	{"-i --interactive", kInteractive, ""},
	{"-r= --require= --import= --loader= --experimental-loader= --test-reporter=", kModule, ""},
	{"--env-file= --env-file-if-exists= --icu-data-dir= --openssl-config= --experimental-policy= --snapshot-blob= --build-snapshot-config=", kRead, ""},
	{"--cpu-prof --heap-prof --prof --report-on-fatalerror --report-on-signal --report-uncaught-exception", kWrite, "writes a profile or a diagnostic report"},
	{"--cpu-prof-dir= --cpu-prof-name= --heap-prof-dir= --heap-prof-name= --diagnostic-dir= --redirect-warnings= --report-directory= --report-dir=", kWrite, "writes a profile, a report or the warnings"},
	{"--report-filename= --test-reporter-destination= --tls-keylog= --trace-event-file-pattern=", kWrite, "writes a report, the keys of TLS sessions or a trace"},
	{"--heapsnapshot-near-heap-limit= --heapsnapshot-signal=", kWrite, "writes heap snapshots"},
	{"--inspect[=] --inspect-brk[=] --inspect-wait[=]", kAsk, "starts a debugger that listens for connections, through which code runs"},
	{"--test", kAsk, "runs the test files it finds"},
	{"--watch --watch-path=", kAsk, "runs the program again whenever files change, and never exits"},
	{"--prof-process", kAsk, "processes a V8 profiler log"},
	{"--build-snapshot", kAsk, "writes a snapshot blob of the program"},
	{"--experimental-sea-config=", kAsk, "builds a single executable application's blob"},
	{"-c --check --completion-bash -h --help --v8-options", kFlag, ""},
	{"-v --version", kVersion, ""},
	{"-C= --conditions= --cpu-prof-interval= --disable-proto= --disable-warning= --dns-result-order= --experimental-default-type=", kWord, ""},
	{"--heap-prof-interval= --input-type= --debug-port= --inspect-port= --inspect-publish-uid= --max-http-header-size=", kWord, ""},
	{"--network-family-autoselection-attempt-timeout= --policy-integrity= --report-signal= --secure-heap= --secure-heap-min=", kWord, ""},
	{"--test-concurrency= --test-shard= --test-timeout= --title= --tls-cipher-list= --trace-event-categories=", kWord, ""},
	{"--trace-require-module= --unhandled-rejections= --use-largepages= --v8-pool-size= --test-name-pattern= --test-skip-pattern=", kWord, ""},
	{"--allow-fs-read= --allow-fs-write= --max-old-space-size= --max-semi-space-size= --stack-size= --stack-trace-limit=", kWord, ""},
	{"--abort-on-uncaught-exception --allow-addons --allow-child-process --allow-wasi --allow-worker --disable-wasm-trap-handler", kFlag, ""},
	{"--disallow-code-generation-from-strings --enable-etw-stack-walking --enable-fips --enable-source-maps --experimental-eventsource", kFlag, ""},
	{"--experimental-import-meta-resolve --experimental-network-imports --experimental-network-inspection --experimental-permission", kFlag, ""},
	{"--experimental-print-required-tla --experimental-test-coverage --experimental-test-module-mocks --experimental-vm-modules", kFlag, ""},
	{"--experimental-wasm-modules --experimental-websocket --expose-gc --force-context-aware --force-fips --frozen-intrinsics", kFlag, ""},
	{"--force-node-api-uncaught-exceptions-policy --huge-max-old-generation-size --insecure-http-parser --interpreted-frames-native-stack", kFlag, ""},
	{"--jitless --no-addons --no-deprecation --no-experimental-detect-module --no-experimental-fetch --no-experimental-global-customevent", kFlag, ""},
	{"--no-experimental-global-webcrypto --no-experimental-repl-await --no-experimental-require-module --no-extra-info-on-fatal-exception", kFlag, ""},
	{"--no-force-async-hooks-checks --no-global-search-paths --enable-network-family-autoselection --no-network-family-autoselection", kFlag, ""},
	{"--no-warnings --node-memory-debug --openssl-legacy-provider --openssl-shared-config --pending-deprecation --preserve-symlinks", kFlag, ""},
	{"--preserve-symlinks-main --report-compact --report-exclude-network --test-force-exit --test-only --throw-deprecation", kFlag, ""},
	{"--tls-max-v1.2 --tls-max-v1.3 --tls-min-v1.0 --tls-min-v1.1 --tls-min-v1.2 --tls-min-v1.3 --trace-atomics-wait --trace-deprecation", kFlag, ""},
	{"--trace-exit --trace-promises --trace-sigint --trace-sync-io --trace-tls --trace-uncaught --trace-warnings --track-heap-objects", kFlag, ""},
	{"--use-bundled-ca --use-openssl-ca --watch-preserve-output --zero-fill-buffers --experimental-detect-module --experimental-require-module", kFlag, ""},
}

// perlGrammar is perl's: clusters of letters ("-lane"), a value attached
// or the next word (-e CODE, -I DIR), and the letters whose value is only
// ever attached taking the rest of the cluster (-i.bak, -F:, -MData::Dumper)
// or, for -0 and -l, only the digits after them ("-lne" is -l -n -e).
var perlGrammar = grammar{}

// perlRows are perl's switches (perl -h, perlrun(1)).
var perlRows = []optRow{
	{"-e= -E=", kInline, ""},
	{"-m[=] -M[=]", kModule, ""},
	{"-i[=]", kChange, "edits the files it reads in place"},
	{"-d", kAsk, "runs the program under the debugger, which waits for a person, or a Devel:: module"},
	{"-0[#] -l[#]", kWord, ""},
	{"-C[=] -D[=] -V[=] -x[=]", kWord, ""},
	{"-F[=]", kPattern, ""},
	{"-I=", kWord, ""}, // a directory modules are looked for in; the program is judged for itself
	{"-a -c -f -n -p -s -S -t -T -u -U -w -W -X -h --help", kFlag, ""},
	{"-v --version", kVersion, ""},
}

// rubyRows are ruby's options (ruby --help, ruby 3).
var rubyRows = []optRow{
	{"-e=", kInline, ""},
	{"-r=", kModule, ""},
	{"-i[=]", kChange, "edits the files it reads in place"},
	{"-C= -x[=]", kDir, ""},
	{"-0[#] -E= -W[=] -K[=] -I= --encoding= --external-encoding= --internal-encoding= --enable= --disable= --backtrace-limit= --dump= --parser=", kWord, ""},
	{"-F[=]", kPattern, ""},
	{"--crash-report=", kWrite, "writes a crash report"},
	{"-a -c -d -l -n -p -s -S -w -y -U -h --help --copyright --verbose --jit --yjit --rjit --disable-gems --debug", kFlag, ""},
	// Ruby 3.1's JIT tuning (Debian 12's ruby); --mjit compiles with the
	// C compiler, as --jit does.
	{"--mjit --mjit-warnings --mjit-wait --mjit-save-temps --yjit-greedy-versioning", kFlag, ""},
	{"--mjit-debug[=] --mjit-verbose= --mjit-max-cache= --mjit-min-calls= --yjit-exec-mem-size= --yjit-call-threshold[=] " +
		"--yjit-max-versions[=]", kWord, ""},
	{"-v --version", kVersion, ""},
}

// lettersSpec is the spec of an interpreter known only by the options
// that take program text (inline, "-r=" for php): every other option
// asks, naming it.
func lettersSpec(inline string) *spec {
	r := []optRow{{"--eval= --print= --command=", kInline, ""}, {"-i", kInteractive, ""}}
	if inline != "" {
		r = append(r, optRow{inline, kInline, ""})
	}
	return &spec{rows: r}
}

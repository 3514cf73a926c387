package bashguard

// Ruby's linter and test runner, and Python's formatter: rubocop and
// rspec load Ruby files (the configuration's requires, the spec files,
// -r FILE), so every line asks, for what the command does, and an allow
// rule for it (Bash(rspec:*)) lifts that Ask; a file they load by an
// option is judged as a read (the workspace's own passes under the rule,
// one outside the roots is the path judge's Ask no rule for the command
// lifts, a secret is denied), their reports and caches as writes. black
// rewrites the files it is given unless --check or --diff: its operands
// are judged as writes, with those options too (black --check on a file
// outside the roots is denied, not asked). The rows are every option each installed tool's
// --help lists (spec_help_test.go; .ci/setup installs Debian's rubocop,
// ruby-rspec and black).

// optparseGrammar is Ruby's OptionParser: clusters of letters, a value
// attached or as the next word, a unique prefix of a long option for it,
// --[no-]X, options anywhere until "--".
var optparseGrammar = grammar{abbrev: true, permute: true, negate: true}

// rubocopRows are rubocop's options.
var rubocopRows = []optRow{
	{"-l --lint --safe --only-guide-cops -F --fail-fast --disable-pending-cops --enable-pending-cops --ignore-disable-comments " +
		"--force-exclusion --only-recognized-file-types --ignore-parent-exclusion --ignore-unrecognized-cops " +
		"--force-default-config -P --parallel --raise-cop-error --stop-server --server-status -D --display-cop-names " +
		"-E --extra-details -S --display-style-guide --stderr --display-time --display-only-failed " +
		"--display-only-fail-level-offenses --display-only-correctable --display-only-safe-correctable --no-exclude-limit " +
		"--offense-counts --auto-gen-only-exclude --auto-gen-timestamp -L --list-target-files -d --debug --color " +
		"-h --help -V --verbose-version", kFlag, ""},
	{"-v --version", kVersion, ""},
	{"--except[=] --only[=] --fail-level= -C= --cache= --exclude-limit= --show-cops[=] --show-docs-url[=] -s= --stdin= " +
		"-f= --format=", kWord, ""},
	// The configuration (whose require: loads Ruby files) and the files
	// it loads by name or path.
	{"-c= --config= -r= --require=", kRead, ""},
	{"-o= --out= --cache-root=", kWrite, "the report or the cache, into its value"},
	{"-a --autocorrect --auto-correct --safe-auto-correct -A --autocorrect-all --auto-correct-all -x --fix-layout " +
		"--disable-uncorrectable --auto-gen-config --regenerate-todo --init", kChange, "rewrites the files it inspects, or its configuration"},
	{"--server --restart-server --start-server", kAsk, "starts a server process that outlives the command"},
}

// rspecRows are rspec's options.
var rspecRows = []optRow{
	{"--bisect[=] -b --backtrace --force-color --force-colour --no-color --no-colour --dry-run -w --warnings --only-failures " +
		"-n --next-failure --no-drb -h --help", kFlag, ""},
	{"-v --version", kVersion, ""},
	{"--order= --seed= --fail-fast[=] --no-fail-fast --failure-exit-code= --error-exit-code= -f= --format= -e= --example= " +
		"-E= --example-matches= -t= --tag= -p[=] --profile[=] --no-profile --exclude-pattern=", kWord, ""},
	// The load path, the files it requires or loads as examples, and
	// the options file (more of these options): read as files.
	{"-I= -r= --require= -O= --options= --default-path= -P= --pattern=", kRead, ""},
	{"-o= --out= --deprecation-out=", kWrite, "the output, into its value"},
	{"-X --drb --drb-port=", kAsk, "runs the examples through a DRb server, which runs what it is sent"},
	{"--init", kChange, "writes the project's .rspec and spec helper"},
}

// clickGrammar is black's option parser (click): options anywhere, a value
// attached or as the next word, no abbreviations.
var clickGrammar = grammar{permute: true}

// blackRows are black's options.
var blackRows = []optRow{
	{"--pyi --ipynb -x --skip-source-first-line -S --skip-string-normalization -C --skip-magic-trailing-comma --preview " +
		"--check --diff --color --no-color --fast --safe -q --quiet -v --verbose -h --help", kFlag, ""},
	{"--version", kVersion, ""},
	{"-c= --code= -l= --line-length= -t= --target-version= --python-cell-magics= --required-version= --include= --exclude= " +
		"--extend-exclude= --force-exclude= --stdin-filename= -W= --workers=", kWord, ""},
	{"--config=", kRead, ""},
}

// rbpySpecs are the specs of rubocop, rspec and black.
func rbpySpecs() map[string]*spec {
	return map[string]*spec{
		"rubocop": {grammar: optparseGrammar, rows: rubocopRows, operands: kRead,
			ask: "runs the repository's rubocop configuration and the extensions it requires, which are code",
			examples: []example{
				{"rubocop", "ask+"}, {"rubocop -a app lib", "ask+"}, {"rubocop -c .rubocop_ci.yml --format json", "ask+"},
				{"rubocop -r rubocop-rails", "ask+"}, {"rubocop -r /tmp/x.rb", "ask!"}, {"rubocop --requ=/tmp/x.rb", "ask!"},
				{"rubocop -c /tmp/c.yml", "ask!"}, {"rubocop -lr/tmp/x.rb", "ask!"}, {"rubocop -o /tmp/out.txt", "deny"},
				{"rubocop --cache-root /tmp/c", "deny"}, {"rubocop .env", "deny"}, {"rubocop --start-server", "ask!"},
			}},
		"rspec": {grammar: optparseGrammar, rows: rspecRows, operands: kRead,
			ask: "runs the package's examples and the files they require",
			examples: []example{
				{"rspec", "ask+"}, {"rspec spec/models --format documentation", "ask+"}, {"rspec -r ./spec/support/x.rb", "ask+"},
				{"rspec --seed 1234 -t '~slow'", "ask+"}, {"rspec -r /tmp/x.rb", "ask!"}, {"rspec -I /tmp/lib", "ask!"},
				{"rspec --req=/tmp/x.rb", "ask!"}, {"rspec -O /tmp/opts", "ask!"}, {"rspec /tmp/evil_spec.rb", "ask!"},
				{"rspec --pattern '/tmp/**/*_spec.rb'", "ask!"}, {"rspec -o /tmp/out", "deny"}, {"rspec --drb", "ask!"},
			}},
		"black": {grammar: clickGrammar, rows: blackRows, operands: kWrite,
			ask: "reformats the files it is given, in place",
			examples: []example{
				{"black .", "ask+"}, {"black --check --diff src", "ask+"}, {"black -l 100 src/a.py", "ask+"},
				{"black /tmp/other.py", "deny"}, {"black --config /tmp/p.toml .", "ask!"}, {"black .env", "deny"},
			}},
	}
}

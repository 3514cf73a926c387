package bashguard

// Ruby's linter and test runner, and Python's formatter and type checker
// (mypy, below, runs the plugins its configuration names): rubocop and
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
// ruby-rspec, black and mypy).

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

// argparseGrammar is Python's argparse, as mypy configures it: a unique
// prefix of a long option for it, clusters of letters, a value attached
// or as the next word, options anywhere until "--".
var argparseGrammar = grammar{abbrev: true, permute: true}

// mypyRows are mypy's options.
var mypyRows = []optRow{
	{"-h --help -v --verbose --warn-unused-configs --no-namespace-packages --namespace-packages --ignore-missing-imports " +
		"--no-site-packages --no-silence-site-packages -2 --py2 --disallow-any-unimported --disallow-any-expr " +
		"--disallow-any-decorated --disallow-any-explicit --disallow-any-generics --allow-any-generics --disallow-subclassing-any " +
		"--allow-subclassing-any --disallow-untyped-calls --allow-untyped-calls --disallow-untyped-defs --allow-untyped-defs " +
		"--disallow-incomplete-defs --allow-incomplete-defs --check-untyped-defs --no-check-untyped-defs " +
		"--disallow-untyped-decorators --allow-untyped-decorators --implicit-optional --no-implicit-optional --no-strict-optional " +
		"--strict-optional --warn-redundant-casts --no-warn-redundant-casts --warn-unused-ignores --no-warn-unused-ignores " +
		"--no-warn-no-return --warn-no-return --warn-return-any --no-warn-return-any --warn-unreachable --no-warn-unreachable " +
		"--allow-untyped-globals --disallow-untyped-globals --allow-redefinition --disallow-redefinition --no-implicit-reexport " +
		"--implicit-reexport --strict-equality --no-strict-equality --strict-concatenate --no-strict-concatenate --strict " +
		"--show-error-context --hide-error-context --show-column-numbers --hide-column-numbers --show-error-end --hide-error-end " +
		"--hide-error-codes --show-error-codes --pretty --no-pretty --no-color-output --color-output --no-error-summary " +
		"--error-summary --show-absolute-path --hide-absolute-path --no-incremental --incremental --sqlite-cache --no-sqlite-cache " +
		"--cache-fine-grained --skip-version-check --skip-cache-mtime-checks --show-traceback --tb --raise-exceptions " +
		"--disable-recursive-aliases --warn-incomplete-stub --no-warn-incomplete-stub --scripts-are-modules --non-interactive " +
		"--interactive --explicit-package-bases --no-explicit-package-bases", kFlag, ""},
	{"-V --version", kVersion, ""},
	{"--enable-incomplete-feature= --follow-imports= --python-version= --platform= --always-true= --always-false= " +
		"--disable-error-code= --enable-error-code= --custom-typing-module= --find-occurrences= --exclude= -m= --module= " +
		"-p= --package= -c= --command=", kWord, ""},
	// The configuration (whose plugins are Python modules mypy runs),
	// the stubs and the file read in place of another.
	{"--config-file= --custom-typeshed-dir= --shadow-file=", kRead, ""},
	{"--cache-dir= --any-exprs-report= --cobertura-xml-report= --html-report= --linecount-report= --linecoverage-report= " +
		"--lineprecision-report= --txt-report= --xml-report= --xslt-html-report= --xslt-txt-report= --junit-xml=", kWrite,
		"the cache or a report, into its value"},
	{"--python-executable=", kProgram, "runs that python to find its packages"},
	{"--install-types", kAsk, "installs the missing stub packages with pip"},
	{"--pdb", kAsk, "starts the debugger on an error, which waits for input"},
}

// rbpySpecs are the specs of rubocop, rspec, black and mypy.
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
		// mypy reads more arguments from the file an @FILE word names
		// (fromfile_prefix_chars), which are not analysed: it asks.
		"mypy": {grammar: argparseGrammar, rows: mypyRows, operands: kRead, atFiles: true,
			ask: "runs the plugins the repository's mypy configuration names, which are code",
			examples: []example{
				{"mypy src", "ask+"}, {"mypy --strict -p mypkg", "ask+"}, {"mypy --config-file setup.cfg src", "ask+"},
				{"mypy --config-file /tmp/m.ini src", "ask!"}, {"mypy --config /tmp/m.ini src", "ask!"},
				{"mypy --python-executable /tmp/py src", "ask!"}, {"mypy --python-exec=/tmp/py src", "ask!"},
				{"mypy --html-report /tmp/r src", "deny"}, {"mypy --junit-xml=/tmp/j.xml src", "deny"}, {"mypy @/tmp/args", "ask"},
				{"mypy @a.txt", "ask!"}, {"mypy src @a.txt", "ask!"},
				{"mypy --install-types", "ask!"}, {"mypy .env", "deny"},
			}},
		"black": {grammar: clickGrammar, rows: blackRows, operands: kWrite,
			ask: "reformats the files it is given, in place",
			examples: []example{
				{"black .", "ask+"}, {"black --check --diff src", "ask+"}, {"black -l 100 src/a.py", "ask+"},
				{"black /tmp/other.py", "deny"}, {"black --config /tmp/p.toml .", "ask!"}, {"black .env", "deny"},
			}},
	}
}

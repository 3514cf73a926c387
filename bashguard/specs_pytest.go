package bashguard

// pytest runs the project's tests, its conftest.py files and the plugins
// they load, so every line asks, for that, and an allow rule for it
// (Bash(pytest:*)) lifts the Ask. What the rule does not lift is what
// its options do besides: --basetemp removes the tree its value names
// and makes it again (--basetemp=src empties the project's src), and
// --pastebin sends the failures to bpaste.net; the files it writes
// (--junit-xml, --log-file, --debug) are judged as paths. The rows are
// every option the installed pytest's --help lists (spec_help_test.go).

// pytestRows are pytest's options, as argparse reads them: exact long
// names, a value after "=" or as the next word, clusters of short ones.
var pytestRows = []optRow{
	{"-k= -m=", kPattern, ""}, {"--markers", kFlag, ""}, {"-x --exitfirst", kFlag, ""}, {"--fixtures --funcargs", kFlag, ""},
	{"--fixtures-per-test", kFlag, ""}, {"--pdb --trace", kMore, "starts the debugger, which waits for a person"}, {"--pdbcls=", kWord, ""},
	{"--capture=", kWord, ""}, {"-s", kFlag, ""}, {"--runxfail", kFlag, ""}, {"--lf --last-failed", kFlag, ""},
	{"--ff --failed-first", kFlag, ""}, {"--nf --new-first", kFlag, ""}, {"--cache-show[=]", kWord, ""},
	{"--cache-clear", kChange, "removes the cache of the last runs"}, {"--lfnf= --last-failed-no-failures=", kWord, ""},
	{"--sw --stepwise", kFlag, ""}, {"--sw-skip --stepwise-skip", kFlag, ""}, {"--durations=", kWord, ""}, {"--durations-min=", kWord, ""},
	{"-v --verbose", kFlag, ""}, {"--no-header", kFlag, ""}, {"--no-summary", kFlag, ""}, {"-q --quiet", kFlag, ""},
	{"--verbosity=", kWord, ""}, {"-r=", kWord, ""}, {"--disable-warnings --disable-pytest-warnings", kFlag, ""},
	{"-l --showlocals", kFlag, ""}, {"--no-showlocals", kFlag, ""}, {"--tb=", kWord, ""}, {"--show-capture=", kWord, ""},
	{"--full-trace", kFlag, ""}, {"--color=", kWord, ""}, {"--code-highlight=", kWord, ""},
	{"--pastebin=", kAsk, "sends the failures to bpaste.net"},
	{"--junit-xml=", kWrite, "a report"}, {"--junit-prefix=", kWord, ""}, {"-W= --pythonwarnings=", kWord, ""}, {"--maxfail=", kWord, ""},
	{"--strict-config", kFlag, ""}, {"--strict-markers --strict", kFlag, ""}, {"-c=", kRead, ""},
	{"--continue-on-collection-errors", kFlag, ""}, {"--rootdir=", kRead, ""}, {"--collect-only --co", kFlag, ""},
	{"--pyargs", kFlag, ""}, {"--ignore= --ignore-glob= --deselect=", kWord, ""}, {"--confcutdir=", kRead, ""},
	{"--noconftest", kFlag, ""}, {"--keep-duplicates", kFlag, ""}, {"--collect-in-virtualenv", kFlag, ""}, {"--import-mode=", kWord, ""},
	{"--doctest-modules", kFlag, ""}, {"--doctest-report=", kWord, ""}, {"--doctest-glob=", kWord, ""},
	{"--doctest-ignore-import-errors", kFlag, ""}, {"--doctest-continue-on-failure", kFlag, ""},
	{"--basetemp=", kAsk, "removes the tree its value names and makes it again"},
	{"-V --version", kFlag, ""}, {"-h --help", kFlag, ""}, {"-p=", kWord, ""}, {"--trace-config", kFlag, ""},
	{"--debug[=]", kWrite, "a debug log"}, {"-o= --override-ini=", kMore, "overrides the configuration, which can add options (addopts) and move the cache"},
	{"--assert=", kWord, ""}, {"--setup-only --setup-show --setup-plan", kFlag, ""},
	{"--log-level= --log-format= --log-date-format= --log-cli-level= --log-cli-format= --log-cli-date-format=", kWord, ""},
	{"--log-file=", kWrite, "the log"}, {"--log-file-level= --log-file-format= --log-file-date-format= --log-auto-indent=", kWord, ""},
}

// pytestSpec returns pytest's spec (each name a spec of its own, which
// its reasons name); its operands are the tests' files and directories,
// read.
func pytestSpec() *spec {
	return &spec{grammar: grammar{permute: true}, rows: pytestRows, operands: kRead, ask: "runs the project's tests and conftest.py files",
		examples: []example{
			{"pytest", "ask"}, {"pytest -q tests", "ask+"}, {"pytest -x -k 'parse and not slow' tests/test_a.py", "ask+"},
			{"pytest -p no:cacheprovider -o log_cli=true tests", "ask+"}, {"pytest --junit-xml=report.xml tests", "ask+"},
			{"pytest --basetemp=src tests", "ask!"}, {"pytest --basetemp src", "ask!"}, {"pytest --pastebin=all", "ask!"},
			{"pytest --junit-xml=/tmp/r.xml", "deny"}, {"pytest -c .env", "deny"}, {"pytest --log-file /tmp/log", "deny"},
			{"python3 -m pytest -q tests", "ask+"}, {"python3 -m pytest --basetemp=src", "ask!"}, {"python3 -mpytest --pastebin=all", "ask!"},
			{"python3 -m pytest --junit-xml=/tmp/r.xml", "deny"},
		}}
}

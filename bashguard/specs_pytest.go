package bashguard

import (
	"slices"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// pytest runs the project's tests, its conftest.py files and the plugins
// they load, so every line asks, for that, and an allow rule for it
// (Bash(pytest:*)) lifts the Ask. What the rule does not lift is what
// its options do besides: --basetemp removes the tree its value names
// and makes it again (--basetemp=src empties the project's src), and
// --pastebin sends the failures to bpaste.net; the files it writes
// (--junit-xml, --log-file, --debug) are judged as paths. The rows are
// every option the installed pytest's --help lists, and every name its
// parser takes, which the help does not all show (--junitxml beside
// --junit-xml; spec_help_test.go).

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
	{"--full-trace --fulltrace", kFlag, ""}, {"--color=", kWord, ""}, {"--code-highlight=", kWord, ""},
	{"--pastebin=", kAsk, "sends the failures to bpaste.net"},
	{"--junit-xml= --junitxml=", kWrite, "a report"}, {"--junit-prefix= --junitprefix=", kWord, ""}, {"-W= --pythonwarnings=", kWord, ""}, {"--maxfail=", kWord, ""},
	{"--strict-config", kFlag, ""}, {"--strict-markers --strict", kFlag, ""}, {"-c=", kRead, ""},
	{"--continue-on-collection-errors", kFlag, ""}, {"--rootdir=", kRead, ""}, {"--collect-only --co --collectonly", kFlag, ""},
	{"--pyargs", kFlag, ""}, {"--ignore= --ignore-glob= --deselect=", kWord, ""}, {"--confcutdir=", kRead, ""},
	{"--noconftest", kFlag, ""}, {"--keep-duplicates --keepduplicates", kFlag, ""}, {"--collect-in-virtualenv", kFlag, ""}, {"--import-mode=", kWord, ""},
	{"--doctest-modules", kFlag, ""}, {"--doctest-report=", kWord, ""}, {"--doctest-glob=", kWord, ""},
	{"--doctest-ignore-import-errors", kFlag, ""}, {"--doctest-continue-on-failure", kFlag, ""},
	{"--basetemp=", kAsk, "removes the tree its value names and makes it again"},
	{"-V --version", kFlag, ""}, {"-h --help", kFlag, ""}, {"-p=", kWord, ""}, {"--trace-config --traceconfig", kFlag, ""},
	{"--debug[=]", kWrite, "a debug log"}, {"-o= --override-ini=", kWord, ""}, // pytestIni, read by pytestLine
	{"--assert=", kWord, ""}, {"--setup-only --setup-show --setup-plan --setuponly --setupshow --setupplan", kFlag, ""},
	{"--log-level= --log-format= --log-date-format= --log-cli-level= --log-cli-format= --log-cli-date-format=", kWord, ""},
	{"--log-file=", kWrite, "the log"}, {"--log-file-level= --log-file-format= --log-file-date-format= --log-auto-indent=", kWord, ""},
	// pytest-cov: --cov's value is what to measure; --cov-report's may
	// name where a report is written (html:DIR), judged by pytestLine;
	// a coverage configuration may load coverage plugins, read as a file.
	{"--cov[=]", kWord, ""}, {"--cov-reset --no-cov-on-fail --no-cov --cov-append --cov-branch", kFlag, ""},
	{"--cov-report=", kWord, ""}, {"--cov-config=", kRead, ""}, {"--cov-fail-under= --cov-context=", kWord, ""},
	// pytest-timeout.
	{"--timeout= --timeout_method= --timeout-method=", kWord, ""},
	// pytest-xdist: -n starts local workers of the same python; --tx
	// names the environments itself: any python (popen//python=PATH),
	// a host over ssh or a socket.
	{"-n= --numprocesses= --maxprocesses= --max-worker-restart= --dist= --testrunuid= --rsyncignore=", kWord, ""},
	{"-d", kFlag, ""}, {"--rsyncdir=", kRead, ""},
	{"--tx=", kAsk, "starts the test environments it names: a python of its choice, or one on another host over ssh or a socket"},
	{"-f --looponfail", kEndless, "runs the tests again on every change until they pass"},
}

// pytestReports are the kinds of pytest-cov's --cov-report that take a
// destination after ":", a file or directory the report is written to.
var pytestReports = []string{"html", "xml", "json", "lcov", "annotate"}

// pytestSpec returns pytest's spec (each name a spec of its own, which
// its reasons name); its operands are the tests' files and directories,
// read.
func pytestSpec() *spec {
	return &spec{grammar: grammar{permute: true}, rows: pytestRows, operands: kRead, ask: "runs the project's tests and conftest.py files", check: pytestLine,
		examples: []example{
			{"pytest", "ask"}, {"pytest -q tests", "ask+"}, {"pytest -x -k 'parse and not slow' tests/test_a.py", "ask+"},
			{"pytest -p no:cacheprovider -o log_cli=true tests", "ask+"}, {"pytest --junit-xml=report.xml tests", "ask+"},
			{"pytest --basetemp=src tests", "ask!"}, {"pytest --basetemp src", "ask!"}, {"pytest --pastebin=all", "ask!"},
			{"pytest --junit-xml=/tmp/r.xml", "deny"}, {"pytest -c .env", "deny"}, {"pytest --log-file /tmp/log", "deny"},
			{"python3 -m pytest -q tests", "ask+"}, {"python3 -m pytest --basetemp=src", "ask!"}, {"python3 -mpytest --pastebin=all", "ask!"},
			{"python3 -m pytest --junit-xml=/tmp/r.xml", "deny"}, {"pytest --junitxml=/tmp/r.xml", "deny"},
			{"pytest -o log_cli=true -o xfail_strict=1 tests", "ask+"}, {"pytest -o addopts=--basetemp=src", "ask!"},
			{"pytest -o cache_dir=/tmp/c", "ask!"}, {"pytest --override-ini=pythonpath=/tmp/evil -p evil", "ask!"},
			{"pytest -o testpaths=/tmp/evil", "ask!"}, {"pytest -o log_cli_level=$(id)", "ask"},
			// The plugins' options: pytest-cov's, pytest-xdist's, pytest-timeout's.
			{"pytest --cov=src -q", "ask+"}, {"pytest --cov=src --basetemp=src", "ask!"}, {"pytest --cov=src --junitxml=/tmp/r.xml", "deny"},
			{"pytest --cov=src -o addopts=-x", "ask!"}, {"pytest --cov src --cov-report=term-missing:skip-covered tests", "ask+"},
			{"pytest --cov=src --cov-report html:htmlcov --cov-report=xml", "ask+"}, {"pytest --cov-report=html:/tmp/cov", "deny"},
			{"pytest --cov-report xml:/tmp/c.xml", "deny"}, {"pytest --cov-report=lcov:.git/hooks/pre-commit", "ask!"},
			{"pytest --cov-config=.coveragerc --cov-fail-under=80 --cov-branch", "ask+"}, {"pytest --cov-config=.env", "deny"},
			{"pytest -n auto --dist loadscope --maxprocesses=4 tests", "ask+"}, {"pytest -n4 -q", "ask+"},
			{"pytest --tx popen//python=/tmp/evil -n1", "ask!"}, {"pytest -d --tx=ssh=me@host//chdir=/tmp", "ask!"},
			{"pytest -f tests", "ask+"}, {"pytest --timeout=30 --timeout-method=thread", "ask+"}, {"pytest --rsyncdir=.env", "deny"},
		}}
}

// pytestIni are the configuration keys pytest -o KEY=VALUE may set
// without asking, with a plain value (plainPropValue): how the output
// looks, which names are collected as tests, which warnings fail. Any
// other key may add options (addopts: --basetemp, -p), put a directory on
// the import path (pythonpath, from which -p loads a plugin), collect
// tests elsewhere (testpaths), or move what it writes (cache_dir,
// log_file).
var pytestIni = []string{
	"log_cli", "log_cli_level", "log_level", "log_format", "log_date_format", "log_cli_format", "log_cli_date_format",
	"console_output_style", "junit_family", "junit_suite_name", "junit_logging", "junit_log_passing_tests",
	"junit_duration_report", "xfail_strict", "empty_parameter_set_mark", "faulthandler_timeout", "verbosity_assertions",
	"verbosity_test_cases", "python_files", "python_classes", "python_functions", "doctest_optionflags",
	"doctest_encoding", "tmp_path_retention_count", "tmp_path_retention_policy", "minversion", "timeout", "timeout_method", "timeout_func_only", "asyncio_mode",
}

// pytestLine judges pytest's configuration overrides (-o KEY=VALUE):
// one of pytestIni with a plain value is the project's run; any other asks,
// and only a rule naming -o lifts it. A coverage report's destination
// (--cov-report html:DIR) is a path written.
func pytestLine(m *cmdCall, c *verdictAcc, s *spec, v *argv, f *specFacts) {
	for i := range f.seen {
		e := &f.seen[i]
		if e.opt.name == "--cov-report" && e.hasVal {
			if kind, dest, ok := strings.Cut(e.val, ":"); ok && dest != "" && slices.Contains(pytestReports, kind) {
				c.addf(permission.Ask, WriteRule("pytest"), "pytest "+optWritten(e)+" writes ", "a coverage report", "", true)
				m.writePath(c, dest, v.flags[e.at], "pytest")
			}
			continue
		}
		if e.opt.name != "-o" || !e.hasVal {
			continue
		}
		key, val, _ := strings.Cut(e.val, "=")
		if slices.Contains(pytestIni, strings.TrimSpace(key)) && plainPropValue(val) {
			continue
		}
		c.addNamed(e.spell, permission.Ask, ArgsRule("pytest"), "pytest "+optWritten(e)+" "+e.val+" overrides the configuration key "+key,
			", which can add options (addopts), put a directory on the import path (pythonpath), or move what it writes (cache_dir)", "")
	}
}

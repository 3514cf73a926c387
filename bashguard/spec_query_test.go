package bashguard

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The query rows of the specs (spec.query, read by judgeQuery): one line
// for each test and each way a line fails it, with its decision, rule,
// reason, and whether an allow rule may lift the Ask.
func TestQueryRows(t *testing.T) {
	dir, paths := specRepo(t)
	g := New(DefaultPolicy())
	for _, tc := range []struct {
		line, want, rule, reason string
		lifts                    bool
	}{
		// cNeeds, fUnlisted; a version option meets it.
		{"lsof -p 1", "ask", "unlisted", "lsof: not on the safe list (lsof without -n looks network addresses up in the DNS)", true},
		{"lsof -n -p 1", "allow", "safe", "every command is read-only and on the safe list", false},
		{"lsof -v", "allow", "safe", "every command is read-only and on the safe list", false},
		// Two cNeeds rows: the first failed decides, and the check is
		// not run; with both met, tar's check is.
		{"tar -t", "ask", "unlisted", "tar: not on the safe list (tar without -t and -f ARCHIVE does not list an archive)", true},
		{"tar -tf host:a.tar", "ask", "unlisted", "tar: not on the safe list (tar -f host:a.tar names an archive on another host, reached with rsh)", true},
		// cOneOf.
		{"dpkg -l -L bash", "ask", "unlisted", "dpkg: not on the safe list (dpkg without exactly one of its query actions)", true},
		{"dpkg bash", "ask", "unlisted", "dpkg: not on the safe list (dpkg without exactly one of its query actions)", true},
		{"dpkg -L bash", "allow", "safe", "every command is read-only and on the safe list", false},
		// cLastIn: the value the option ends with.
		{"go list -mod=mod ./...", "ask", "unlisted", "go: not on the safe list (go list -mod=mod may update go.mod)", true},
		{"go list -mod=mod -mod=readonly ./...", "allow", "safe", "every command is read-only and on the safe list", false},
		// cLastIn and cEachIn, fClass: the line is the class's.
		{"pip list --format=xml --no-index", "ask", "unlisted", "pip: not on the safe list (pip list --format=xml --no-index)", true},
		{"rustc --print cfg --print link-args", "ask", "unlisted", "rustc: not on the safe list", true},
		{"rustc --print cfg", "allow", "safe", "every command is read-only and on the safe list", false},
		// cNeeds, fPlain.
		{"pip list", "ask", "unlisted", "pip: pip list asks the package index over the network whether a newer pip exists (add --disable-pip-version-check)", true},
		{"git clean -f", "ask", "unlisted", "git: git clean without -n removes the untracked files", true},
		// cFirstIn, fClass.
		{"ip addr add 10.0.0.1/24 dev lo", "ask", "unlisted", "ip: not on the safe list (ip addr add 10.0.0.1/24 dev lo)", true},
		{"ip addr show", "allow", "safe", "every command is read-only and on the safe list", false},
		// cOperands and cNoneIn.
		{"go env", "ask", "unlisted", "go: not on the safe list (go env without names prints every variable, GOPROXY and GOAUTH among them, which may hold credentials)", true},
		{"go env GOPROXY", "ask", "unlisted", "go: not on the safe list (go env GOPROXY may hold credentials)", true},
		// cMaxOps and cPlainOps: "%s" is the line after the name.
		{"ifconfig lo down", "ask", "unlisted", "ifconfig: not on the safe list (ifconfig lo down configures an interface)", true},
		{"ifconfig -- -x", "ask", "unlisted", "ifconfig: not on the safe list (ifconfig -- -x configures an interface)", true},
		{"ifconfig lo", "allow", "safe", "every command is read-only and on the safe list", false},
		// cNeeds and cOperands (unless -v); a line that fails them has
		// no archive operand (leadOps).
		{"unzip a.zip", "ask", "unlisted", "unzip: not on the safe list (unzip without -l, -v or -t extracts the archive)", true},
		{"unzip -l", "ask", "unlisted", "unzip: not on the safe list (unzip without -l, -v or -t extracts the archive)", true},
		{"unzip -v", "allow", "safe", "every command is read-only and on the safe list", false},
		{"unzip -l a.txt", "allow", "safe", "every command is read-only and on the safe list", false},
		// leadOps: xxd IN OUT writes OUT.
		{"xxd a.txt out.txt", "ask", "write:xxd", "xxd: writes out.txt (inside the allowed roots)", true},
		// cPrefixed, fArgs: no allow rule lifts it.
		{"date 0101", "ask", "args:date", "date: sets the system clock from 0101", false},
		{"date +%s", "allow", "safe", "every command is read-only and on the safe list", false},
		// cForms, fUnlisted: service's two forms; "%s" is the line after
		// the name. A version option without operands meets them.
		{"service --status-all", "allow", "safe", "every command is read-only and on the safe list", false},
		{"service nginx status", "allow", "safe", "every command is read-only and on the safe list", false},
		{"service --version", "allow", "safe", "every command is read-only and on the safe list", false},
		{"service ../x status", "ask", "unlisted", "service: not on the safe list (service ../x status is not --status-all or NAME status)", true},
		{"service --version nginx status", "ask", "unlisted", "service: not on the safe list (service --version nginx status is not --status-all or NAME status)", true},
		// cForms, fArgsByRule: hostname's one form is the bare line.
		{"hostname", "allow", "safe", "every command is read-only and on the safe list", false},
		{"hostname -V", "allow", "safe", "every command is read-only and on the safe list", false},
		{"hostname -f evil", "ask", "args:hostname", "hostname: hostname with arguments sets the name or looks it up in the DNS", true},
		{"hostname -V x", "ask", "args:hostname", "hostname: hostname with arguments sets the name or looks it up in the DNS", true},
		// cForms, fClass: printenv VAR..., hash's [-l] -t [WORD...].
		{"printenv HOME LANG", "allow", "safe", "every command is read-only and on the safe list", false},
		{"printenv HOME GITHUB_TOKEN", "ask", "secret:environment", "printenv: prints the environment: the environment holds secrets", false},
		{"hash -lt ls", "allow", "safe", "every command is read-only and on the safe list", false},
		{"hash -l ls", "ask", "state", "hash: changes where later commands are found", false},
		// firstOperand and patternBy: getconf's first operand is a name,
		// unless -a lists every name; the operands after it are probed.
		{"getconf NAME_MAX .env", "ask", "path:secret", "getconf: reads .env: secret file " + dir + "/.env", false},
		{"getconf -a .env", "ask", "path:secret", "getconf: reads .env: secret file " + dir + "/.env", false},
		{"getconf .env", "allow", "safe", "every command is read-only and on the safe list", false},
	} {
		v := g.Judge(context.Background(), dir, paths, tc.line)
		assert.Equal(t, tc.want, v.Decision.String(), "%q (%s)", tc.line, v.Reason)
		assert.Equal(t, tc.rule, string(v.Rule), "%q", tc.line)
		assert.Equal(t, tc.reason, v.Reason, "%q", tc.line)
		if tc.want == "ask" {
			require.Len(t, v.Commands, 1, "%q", tc.line)
			assert.Equal(t, tc.lifts, v.Commands[0].Overridable, "%q: may an allow rule lift it", tc.line)
		}
	}
}

// A query row without a test fails closed: the line asks.
func TestQueryRowWithoutTestAsks(t *testing.T) {
	s := (&spec{name: "x", query: []cond{{why: "is not known"}}}).compile()
	v := argv{vals: []string{"x", "a"}, flags: make([]wordFlags, 2)}
	f := specFacts{dashes: -1, ops: []int{1}}
	var c verdictAcc
	assert.False(t, judgeQuery(&c, s, &v, 1, &f), "a row without a test is not met")
	assert.Equal(t, "ask", c.dec.String())
	assert.Equal(t, "not on the safe list (x is not known)", c.why[0]+c.why[1]+c.why[2])
}

// The forms of a cForms row read as a synopsis does: options given as
// spelt, every one given listed, those outside brackets required;
// operands in order, each the word or of its placeholder, "..." for one
// or more.
func TestQueryForms(t *testing.T) {
	opt := func(spell string, k kind) scanned { return scanned{spell: spell, opt: &option{name: spell, kind: k}} }
	for _, tc := range []struct {
		forms []string
		opts  []scanned
		ops   []string
		meets bool
	}{
		{forms: []string{""}, meets: true},
		{forms: []string{""}, ops: []string{"x"}, meets: false},
		{forms: []string{""}, opts: []scanned{opt("-f", kFlag)}, meets: false},
		{forms: []string{""}, opts: []scanned{opt("-V", kVersion)}, meets: true},
		{forms: []string{""}, opts: []scanned{opt("-V", kVersion), opt("-f", kFlag)}, meets: false},
		{forms: []string{"--status-all", "NAME status"}, meets: false},
		{forms: []string{"--status-all", "NAME status"}, opts: []scanned{opt("--status-all", kFlag)}, meets: true},
		{forms: []string{"--status-all", "NAME status"}, opts: []scanned{opt("--status-all", kFlag), opt("--version", kVersion)}, meets: true},
		{forms: []string{"--status-all", "NAME status"}, opts: []scanned{opt("--version", kVersion)}, ops: []string{"a", "status"}, meets: false},
		{forms: []string{"--status-all", "NAME status"}, ops: []string{"a@b.c_d-e", "status"}, meets: true},
		{forms: []string{"--status-all", "NAME status"}, ops: []string{"a/b", "status"}, meets: false},
		{forms: []string{"--status-all", "NAME status"}, ops: []string{"-a", "status"}, meets: false},
		{forms: []string{"--status-all", "NAME status"}, ops: []string{"a", "status", "b"}, meets: false},
		{forms: []string{"--status-all", "NAME status"}, ops: []string{"a", "stop"}, meets: false},
		{forms: []string{"VAR..."}, meets: false},
		{forms: []string{"VAR..."}, ops: []string{"HOME", "LANG"}, meets: true},
		{forms: []string{"VAR..."}, ops: []string{"HOME", "GITHUB_TOKEN"}, meets: false},
		{forms: []string{"[-l]", "[-l] -t [WORD...]"}, meets: true},
		{forms: []string{"[-l]", "[-l] -t [WORD...]"}, opts: []scanned{opt("-l", kFlag)}, meets: true},
		{forms: []string{"[-l]", "[-l] -t [WORD...]"}, opts: []scanned{opt("-l", kFlag)}, ops: []string{"ls"}, meets: false},
		{forms: []string{"[-l]", "[-l] -t [WORD...]"}, opts: []scanned{opt("-t", kFlag)}, meets: true},
		{forms: []string{"[-l]", "[-l] -t [WORD...]"}, opts: []scanned{opt("-l", kFlag), opt("-t", kFlag)}, ops: []string{"ls", "cat"}, meets: true},
		{forms: []string{"[-l]", "[-l] -t [WORD...]"}, opts: []scanned{opt("-r", kFlag)}, meets: false},
		// Read from the left, without going back: the optional NAME
		// takes "status", and the form's status is missing.
		{forms: []string{"[NAME] status"}, ops: []string{"x", "status"}, meets: true},
		{forms: []string{"[NAME] status"}, ops: []string{"status"}, meets: false},
	} {
		v := argv{vals: append([]string{"x"}, tc.ops...)}
		v.flags = make([]wordFlags, len(v.vals))
		f := specFacts{dashes: -1, seen: tc.opts}
		for i := range tc.ops {
			f.ops = append(f.ops, i+1)
		}
		assert.Equal(t, tc.meets, f.meetsForms(tc.forms, &v), "forms %q, options %v, operands %q", tc.forms, tc.opts, tc.ops)
	}
}

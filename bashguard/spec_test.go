package bashguard

import (
	"context"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
)

// allSpecs lists every spec of the table with its command (the program
// whose name starts the command line) and the words that select it
// ("git", "stash", "show"), in a fixed order.
func allSpecs() []specAt {
	var out []specAt
	var walk func(cmd string, words []string, s *spec)
	walk = func(cmd string, words []string, s *spec) {
		out = append(out, specAt{cmd: cmd, words: words, s: s})
		names := make([]string, 0, len(s.subs))
		for n := range s.subs {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			walk(cmd, append(append([]string(nil), words...), n), s.subs[n])
		}
	}
	walk("git", []string{"git"}, gitSpec())
	for _, m := range commandSpecs() {
		for _, n := range sortedNames(m) {
			walk(n, []string{commandWord(n)}, m[n])
		}
	}
	for _, n := range sortedNames(subWrappers()) {
		words := strings.Fields(n) // "pnpm exec"
		walk(words[0], words, subWrappers()[n])
	}
	return out
}

// commandWord is how a command line names the command n: quoted where
// bash would read n as its keyword (time), so that the program runs.
func commandWord(n string) string {
	if n == "time" {
		return `\time`
	}
	return n
}

// commandSpecs are the tables of specs by command name, besides git's.
func commandSpecs() []map[string]*spec {
	return []map[string]*spec{readerSpecs(), safeSpecs(), toolSpecs(), writerSpecs(), wrapperSpecs(), sysSpecs(), assignerSpecs(), interpSpecs()}
}

// sortedNames returns the names of m in order.
func sortedNames(m map[string]*spec) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

type specAt struct {
	cmd   string
	words []string
	s     *spec
}

// specRepo makes a git repository for the specs' examples: a.txt and
// src/main.go tracked, .env present but not tracked, one commit, a tag
// v1, and a branch f1.
func specRepo(t *testing.T) (string, PathJudge) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP: git is not installed, so the git specs' examples cannot be judged in a repository: " + err.Error())
	}
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "src"), 0o755))
	for name, text := range map[string]string{"a.txt": "hello\nworld\n", "src/main.go": "package main\n", ".env": "TOKEN=secret\n"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	gitIn(t, dir, "init", "-q", "-b", "main")
	gitIn(t, dir, "add", "a.txt", "src/main.go")
	gitIn(t, dir, "commit", "-qm", "first")
	gitIn(t, dir, "tag", "v1")
	gitIn(t, dir, "branch", "f1")
	return dir, CheckerJudge(rootChecker{dir: dir, roots: []string{dir}})
}

// Every row of every spec compiles to a classified option: the zero kind
// would ask for every use, which is a row someone forgot to finish.
func TestSpecRowsClassified(t *testing.T) {
	n := 0
	for _, at := range allSpecs() {
		for r := range at.s.eachRow {
			n++
			assert.NotEqual(t, kUnknown, r.kind, "%s: row %q has no kind", at.s.name, r.spell)
			switch r.kind {
			case kProgram, kChange, kMore, kAsk, kSetProgram:
				assert.NotEmpty(t, r.why, "%s: row %q refuses, and must say why", at.s.name, r.spell)
			}
		}
	}
	// Every git spec that reads a command line says why it allows it or
	// why it asks: one that says neither asks (specAllows).
	for _, at := range allSpecs() {
		if at.cmd == "git" && at.s.subs == nil {
			assert.True(t, at.s.allow != "" || at.s.ask != "", "%s says neither why it allows nor why it asks", at.s.name)
		}
	}
	for _, at := range allSpecs() {
		for _, r := range at.s.anywhere {
			// readAnywhere refuses each as an option that runs a program.
			n++
			assert.Equal(t, kProgram, r.kind, "%s: anywhere row %q must be kProgram", at.s.name, r.spell)
			assert.NotEmpty(t, r.why, "%s: anywhere row %q must say why", at.s.name, r.spell)
		}
	}
	t.Logf("%d specs, %d rows", len(allSpecs()), n)
	assert.Greater(t, n, 500)
}

// Every example of every spec is judged as it says, in a real repository,
// with a reason.
func TestSpecExamples(t *testing.T) {
	dir, paths := specRepo(t)
	pol := DefaultPolicy()
	pol.Home = t.TempDir() // known, and empty: git config's reading forms print the user's config
	g := New(pol)
	n := 0
	for _, at := range allSpecs() {
		for _, ex := range at.s.examples {
			n++
			v := g.Judge(context.Background(), dir, paths, ex.line)
			want, lift := strings.CutSuffix(ex.want, "+")
			want, final := strings.CutSuffix(want, "!")
			assert.Equal(t, want, v.Decision.String(), "%s: %q (%s)", at.s.name, ex.line, v.Reason)
			if (lift || final) && assert.NotEmpty(t, v.Commands, ex.line) {
				// "ask+": an allow rule for the command lifts the Ask;
				// "ask!": no rule for the command alone does.
				assert.Equal(t, lift, v.Commands[0].Overridable && len(v.Commands[0].LiftedBy) == 0,
					"%s: %q: an allow rule for the command lifts it: %v (%s)", at.s.name, ex.line, lift, v.Reason)
			}
			assert.NotEmpty(t, v.Reason, "%s: %q has no reason", at.s.name, ex.line)
		}
	}
	assert.Greater(t, n, 80, "examples in the specs")
}

// For every option that reads a file, writes one, runs a program, changes
// state or asks, every spelling the program accepts is refused, and the
// reason names the option: exact, attached (-Xv, --long=v), as the next
// word, a value that begins with "-", after a cluster of harmless short
// options (-iXv), and abbreviated where the grammar takes prefixes. Where
// a letter takes its value from the next word and its cluster goes on
// (nextValues), the clusters -iX v and -Xi v take the attached forms'
// place.
func TestSpecSpellingsRefused(t *testing.T) {
	dir, paths := specRepo(t)
	g := New(DefaultPolicy())
	tried := 0
	for _, at := range allSpecs() {
		s := at.s
		if s.tables().short == nil { // never nil: tables builds it
			continue
		}
		flag := harmlessShortFlag(s)
		for _, sp := range spellingsOf(s) {
			val, ok := refusedValue(sp.opt.kind)
			if !ok {
				continue
			}
			for _, line := range spellingLines(s, sp, val, flag) {
				if sp.opt.kind == kSetProgram && len(line) == 2 {
					continue // without a value it only prints
				}
				cmdline := strings.Join(append(append([]string(nil), at.words...), line...), " ")
				tried++
				assertSpellingRefused(t, s.name, sp, cmdline, g.Judge(context.Background(), dir, paths, cmdline))
			}
		}
	}
	t.Logf("%d spellings refused", tried)
	assert.Greater(t, tried, 300)
}

// refusedValue is the value TestSpecSpellingsRefused gives an option of
// kind k, and whether the kind is one every spelling of must refuse: a
// secret for the kinds that read a file, and any value for those refused
// for what the option does.
func refusedValue(k kind) (string, bool) {
	switch k {
	case kRangeFile:
		return "1,2:.env", true
	case kRead, kStore:
		return ".env", true // a secret: a read of it is denied
	case kWrite, kProgram, kChange, kAsk, kSetProgram, kRepo, kEnv, kInline, kModule, kInteractive:
		return "-x", true
	}
	return "", false
}

// assertSpellingRefused checks the verdict v of cmdline, a spelling of
// sp in the spec named name: not allowed, and its reason names the file
// read or the option.
func assertSpellingRefused(t *testing.T, name string, sp *spelling, cmdline string, v Verdict) {
	t.Helper()
	if !assert.NotEqual(t, permission.Allow, v.Decision, "%s: %q is allowed (%s)", name, cmdline, v.Reason) {
		return
	}
	switch sp.opt.kind {
	case kEnv:
		assert.Equal(t, RuleSecretEnvironment, v.Rule, "%s: %q: refused as a print of the environment (%s)", name, cmdline, v.Reason)
		assert.Contains(t, v.Reason, sp.text, "%s: %q: the reason names the option", name, cmdline)
	case kRead, kStore, kRangeFile:
		assert.Contains(t, v.Reason, ".env", "%s: %q: the reason names the file read", name, cmdline)
	default:
		assert.Contains(t, v.Reason, sp.text, "%s: %q: the reason names the option", name, cmdline)
	}
}

// spellingsOf lists the spellings of s, short ones first, in a fixed order.
func spellingsOf(s *spec) []*spelling {
	var out []*spelling
	var letters []byte
	for ch := range s.tables().short {
		letters = append(letters, ch)
	}
	sort.Slice(letters, func(i, j int) bool { return letters[i] < letters[j] })
	for _, ch := range letters {
		out = append(out, s.tables().short[ch])
	}
	for i := range s.tables().long {
		out = append(out, &s.tables().long[i])
	}
	for _, p := range s.tables().prefixes {
		out = append(out, &spelling{text: p.text + "key", arg: p.arg, opt: p.opt}) // --config.key
	}
	for _, w := range slices.Sorted(maps.Keys(s.tables().words)) {
		out = append(out, s.tables().words[w]) // -gs, a word of its own
	}
	letters = letters[:0]
	for ch := range s.tables().bsd {
		letters = append(letters, ch)
	}
	sort.Slice(letters, func(i, j int) bool { return letters[i] < letters[j] })
	for _, ch := range letters {
		out = append(out, s.tables().bsd[ch])
	}
	return out
}

// bsdLines writes the BSD option sp (a letter without a dash) of s with
// the value val: alone, after a harmless BSD letter, and dashed after one
// the short options do not have, which the program reads again as BSD
// options ("ps -xe").
func bsdLines(s *spec, sp *spelling, val string) [][]string {
	word := func(w string) []string {
		if sp.arg == argRequired {
			return []string{w, quoteWord(val)}
		}
		return []string{w}
	}
	lines := [][]string{word(sp.text)}
	for _, ch := range []byte("axufjlvwcnrST") {
		if b := s.tables().bsd[ch]; b == nil || b.arg != argNone || b.opt.kind != kFlag || ch == sp.text[0] {
			continue
		}
		lines = append(lines, word(string(ch)+sp.text))
		if s.tables().short[ch] == nil {
			lines = append(lines, word("-"+string(ch)+sp.text))
		}
	}
	return lines
}

// harmlessShortFlag returns a short option of s that takes no value and
// does nothing, for clusters, or 0.
func harmlessShortFlag(s *spec) byte {
	for _, ch := range []byte("vqzrlainswt") {
		if sp := s.tables().short[ch]; sp != nil && sp.arg == argNone && sp.opt.kind == kFlag {
			return ch
		}
	}
	return 0
}

// goFlagLines are the spellings of an option of Go's flag package: one
// dash or two, its value the next word or after "=", never attached
// ("-ovalue" is the flag "ovalue").
func goFlagLines(sp *spelling, val string) [][]string {
	var lines [][]string
	for _, name := range []string{sp.text, "-" + sp.text} {
		switch sp.arg {
		case argNone:
			lines = append(lines, []string{name})
		case argRequired:
			lines = append(lines, []string{name, quoteWord(val)}, []string{name + "=" + quoteWord(val)})
		case argOptional:
			lines = append(lines, []string{name + "=" + quoteWord(val)}, []string{name})
		}
	}
	return lines
}

// spellingLines writes the option sp of s with the value val in every way
// the grammar of s accepts.
func spellingLines(s *spec, sp *spelling, val string, flag byte) [][]string {
	if sp.text[0] != '-' {
		return bsdLines(s, sp, val)
	}
	if s.grammar.twoDashes {
		return goFlagLines(sp, val)
	}
	if s.tables().words[sp.text] == sp {
		// A word of its own, its value the next word (commons-cli).
		line := []string{sp.text}
		if sp.arg == argRequired {
			line = append(line, quoteWord(val))
		}
		if o, ok := spellingOperands[s.name]; ok {
			return [][]string{append(line, o)}
		}
		return [][]string{append(line, "a.txt")}
	}
	var lines [][]string
	long := strings.HasPrefix(sp.text, "--")
	if s.grammar.oneDash {
		flag = 0 // one word, one option: -vr is no cluster to xxd
	}
	switch sp.arg {
	case argNone:
		lines = append(lines, []string{sp.text})
		if !long && flag != 0 {
			lines = append(lines, []string{"-" + string(flag) + sp.text[1:]})
		}
	case argRequired:
		lines = append(lines, []string{sp.text, quoteWord(val)})
		switch {
		case long:
			lines = append(lines, []string{sp.text + "=" + quoteWord(val)})
		case s.grammar.nextValues:
			// The value is the next word, never the rest of the
			// cluster, which goes on (tree -Lo 1 out.txt).
			if flag != 0 {
				lines = append(lines, []string{"-" + string(flag) + sp.text[1:], quoteWord(val)},
					[]string{sp.text[:2] + string(flag), quoteWord(val)})
			}
		default:
			lines = append(lines, []string{sp.text + quoteWord(val)})
			if flag != 0 {
				lines = append(lines, []string{"-" + string(flag) + sp.text[1:] + quoteWord(val)})
			}
		}
	case argOptional:
		if long {
			lines = append(lines, []string{sp.text + "=" + quoteWord(val)}, []string{sp.text})
		} else {
			lines = append(lines, []string{sp.text + quoteWord(val)}, []string{sp.text})
			if flag != 0 {
				lines = append(lines, []string{"-" + string(flag) + sp.text[1:] + quoteWord(val)})
			}
		}
	}
	if long && s.grammar.abbrev {
		if p := uniquePrefix(s, sp.text); p != "" {
			switch sp.arg {
			case argNone:
				lines = append(lines, []string{p})
			case argRequired:
				lines = append(lines, []string{p, quoteWord(val)}, []string{p + "=" + quoteWord(val)})
			case argOptional:
				lines = append(lines, []string{p + "=" + quoteWord(val)})
			}
		}
	}
	if long && s.grammar.longOnly {
		// getopt_long_only: the long option with one dash (nmap -oN F).
		one := sp.text[1:]
		switch sp.arg {
		case argNone:
			lines = append(lines, []string{one})
		case argRequired:
			lines = append(lines, []string{one, quoteWord(val)}, []string{one + "=" + quoteWord(val)})
		case argOptional:
			lines = append(lines, []string{one + "=" + quoteWord(val)})
		}
	}
	// Operands after the option keep the command line whole.
	op := "a.txt"
	if o, ok := spellingOperands[s.name]; ok {
		op = o
	}
	for i := range lines {
		lines[i] = append(lines[i], op)
	}
	return lines
}

// spellingOperands are the harmless operands of the commands whose
// operands are not files: a goal of Maven's that is the project's own.
var spellingOperands = map[string]string{"mvn": "test"}

// uniquePrefix returns the shortest prefix of the long option name that
// names it alone in s (no other option, nor --no-X where s negates), or
// "" when there is none shorter than the name.
func uniquePrefix(s *spec, name string) string {
	for n := 3; n < len(name); n++ {
		p := name[:n]
		sp, negated, problem := resolveLong(s, p)
		if problem == "" && !negated && sp != nil && sp.text == name {
			return p
		}
	}
	return ""
}

func quoteWord(s string) string {
	if strings.ContainsAny(s, " '\"$`\\*?[]|;&<>()") {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return s
}

// The scanner resolves abbreviations as getopt_long and git's
// parse-options do: an exact name first, else a unique prefix; two
// options sharing the prefix is a problem that names itself.
func TestScanAbbreviations(t *testing.T) {
	cfg := gitSpec().subs["config"]
	for _, tc := range []struct {
		word, spell, problem string
		negated              bool
	}{
		{"--unset", "--unset", "", false},
		{"--unset-a", "--unset-all", "", false},
		{"--un", "", "is an abbreviation of more than one option", false},
		{"--remove-sec", "--remove-section", "", false},
		{"--no-includes", "--includes", "", true},
		{"--no-incl", "--includes", "", true},
		{"--nosuch", "", "is not known to be harmless", false},
	} {
		sp, negated, problem := resolveLong(cfg, tc.word)
		assert.Equal(t, tc.problem, problem, tc.word)
		assert.Equal(t, tc.negated, negated, tc.word)
		if tc.spell != "" && assert.NotNil(t, sp, tc.word) {
			assert.Equal(t, tc.spell, sp.text, tc.word)
		}
	}
	// git log reads its options exactly: no prefix names --output.
	sp, _, problem := resolveLong(gitSpec().subs["log"], "--outp")
	assert.Nil(t, sp)
	assert.Equal(t, "is not known to be harmless", problem)
}

// getopt_long_only, as nmap reads its line: a one-dash word is a long
// option, exact or a unique prefix, before it is a cluster of letters;
// one letter alone is the letter.
func TestScanLongOnly(t *testing.T) {
	for _, tc := range []struct {
		line, spell, val, problem string
	}{
		{"-oN out.txt", "--oN", "out.txt", ""},
		{"-oN=out.txt", "--oN", "out.txt", ""},
		{"--oN out.txt", "--oN", "out.txt", ""},
		{"-o out.txt", "-o", "out.txt", ""},
		{"-oNout.txt", "-o", "Nout.txt", ""}, // no long option is named oNout.txt: -o with its value
		{"-script=x.nse", "--script", "x.nse", ""},
		{"-script-h x", "--script-help", "x", ""},
		{"-scrip x", "", "", "is an abbreviation of more than one option"},
		{"-sV", "-s", "V", ""},
		{"-iL hosts", "-i", "hosts", ""}, // --iL, an alias of -i
		{"-iLhosts", "-i", "Lhosts", ""},
		{"-p-", "-p", "-", ""},
		{"-vv", "--vv", "", ""},
	} {
		words := append([]string{"nmap"}, strings.Fields(tc.line)...)
		v := argv{vals: words, flags: make([]wordFlags, len(words))}
		var first *scanned
		scanSpec(nmapSpec(), &v, 1, false, func(e *scanned) {
			if first == nil {
				c := *e
				first = &c
			}
		})
		require.NotNil(t, first, tc.line)
		assert.Equal(t, tc.problem, first.problem, tc.line)
		if tc.problem == "" && assert.NotNil(t, first.opt, tc.line) {
			assert.Equal(t, tc.spell, first.opt.name, tc.line)
			assert.Equal(t, tc.val, first.val, tc.line)
		}
	}
}

// Every spec of the package has tables of its own, built from its rows
// without a panic, and so has every listing: the tables are built on
// first use, so a malformed row would otherwise panic only when a command
// line first reaches it.
func TestSpecTablesBuild(t *testing.T) {
	roots := []*spec{shellInvocation(), awkSpec(), sedSpec(), findLeadingSpec(),
		gitRemoteAddSpec(), gitRemoteSetURLSpec(), gitSubmoduleAddSpec(),
		curlSpec(), wgetSpec(), sshSpec(), scpSpec(), sftpSpec(), ncSpec(), ncatSpec(), telnetSpec(), ftpSpec(),
		goFlagSpec(), pipSpec(), pipInstallSpec()}
	for _, n := range slices.Sorted(maps.Keys(netToolSpecs())) {
		roots = append(roots, netToolSpecs()[n]())
	}
	for _, n := range slices.Sorted(maps.Keys(gitIndexOnlySubs())) {
		roots = append(roots, gitIndexOnlySubs()[n].spec)
	}
	for _, at := range allSpecs() {
		roots = append(roots, at.s)
	}
	seen := map[*spec]bool{}
	var build func(s *spec)
	build = func(s *spec) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		require.NotNilf(t, s.lazy, "spec %q was never compiled: it would know no option", s.name)
		require.NotPanicsf(t, func() {
			s.tables()
			if s.lists != nil {
				s.lists.rows()
			}
		}, "spec %q", s.name)
		for _, n := range sortedNames(s.subs) {
			build(s.subs[n])
		}
		build(s.other)
	}
	for _, s := range roots {
		build(s)
	}
	// A spec with rows has spellings; one the guard never compiled
	// would have none (noTables) and ask for every option.
	for s := range seen {
		tab := s.tables()
		if s.hasRows() {
			assert.Truef(t, len(tab.short)+len(tab.long)+len(tab.bsd) > 0, "spec %q: rows, no spellings", s.name)
		}
	}
	// The options a query row reads are spellings of its spec: a row
	// that names one the spec does not have could never be met.
	for s := range seen {
		tab := s.tables()
		for _, q := range s.query {
			assert.NotZerof(t, q.test, "spec %q: a query row without a test", s.name)
			for w := range strings.FieldsSeq(q.opts) {
				known := len(w) == 2 && tab.short[w[1]] != nil ||
					slices.ContainsFunc(tab.long, func(sp spelling) bool { return sp.text == w })
				assert.Truef(t, known, "spec %q: a query row reads %s, which is no spelling of the spec", s.name, w)
			}
		}
	}
	t.Logf("%d specs built", len(seen))
}

// The scanner ends the options after an option of endOpts, and reads a
// letter of digits (-l, -0) without the rest of its cluster.
func TestScanEndsAndDigits(t *testing.T) {
	read := func(s *spec, words ...string) []string {
		v := argv{vals: append([]string{"x"}, words...), flags: make([]wordFlags, len(words)+1)}
		var out []string
		scanSpec(s, &v, 1, false, func(e *scanned) {
			switch {
			case e.problem != "":
				out = append(out, "?"+e.spell)
			case e.opt == nil:
				out = append(out, "op:"+e.word)
			default:
				out = append(out, e.spell+"="+e.val)
			}
		})
		return out
	}
	py := interpSpecs()["python3"]
	assert.Equal(t, []string{"-B=", "-c=code", "op:-i", "op:-Z"}, read(py, "-Bc", "code", "-i", "-Z"))
	assert.Equal(t, []string{"-m=json.tool", "op:-i"}, read(py, "-mjson.tool", "-i"))
	perl := interpSpecs()["perl"]
	assert.Equal(t, []string{"-l=", "-n=", "-e=print", "op:a.txt"}, read(perl, "-lne", "print", "a.txt"))
	assert.Equal(t, []string{"-0=777", "-n=", "-e=1"}, read(perl, "-0777ne", "1"))
	assert.Equal(t, []string{"-p=", "-i=e", "op:code"}, read(perl, "-pie", "code"))
}

// Every kind has a name of its own, so a reason or a failing test that
// prints one names it.
func TestKindNames(t *testing.T) {
	seen := map[string]kind{}
	for k := kUnknown; k <= kReadOrJSON; k++ {
		n := k.String()
		assert.NotContains(t, n, "kind(", "kind %d has no name", k)
		if prev, dup := seen[n]; dup {
			t.Errorf("kinds %d and %d are both named %q", prev, k, n)
		}
		seen[n] = k
	}
	assert.Equal(t, "kind(250)", kind(250).String())
}

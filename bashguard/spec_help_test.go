package bashguard

import (
	"bufio"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/testenv"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The specs are checked against the programs they describe: every option
// a program's own help lists must be classified by its spec, or an
// abbreviation the spec resolves could name an option the program has and
// the spec does not (see spec.go). git's subcommands that use
// parse-options list their options with -h; git log, show and diff read
// the revision and diff options by hand and list them only in their
// manuals (git-log(1), git-diff(1), ...), which Debian's git-man installs
// beside git.

// gitHelpSource says where the options of a git subcommand are listed:
// "-h" for its own usage, or the manual pages (without ".1.gz") that list
// them.
var gitHelpSource = map[string][]string{
	"log": {"git-log"}, "whatchanged": {"git-log"}, "show": {"git-show"}, "diff": {"git-diff"},
	"diff-tree": {"git-diff-tree"}, "diff-index": {"git-diff-index"}, "diff-files": {"git-diff-files"},
	"rev-list": {"git-rev-list"}, "rev-parse": {"git-rev-parse"},
	"shortlog": {"-h", "git-rev-list"}, "blame": {"-h"}, "range-diff": {"-h"}, "var": {"git-var"},
}

// gitManDirs are where the manual pages are looked for.
var gitManDirs = []string{"/usr/share/man/man1", "/usr/local/share/man/man1"}

// TestSpecsAgreeWithHelp reads the options of every spec'd git subcommand
// from the installed git and fails on any the spec does not classify.
func TestSpecsAgreeWithHelp(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		if os.Getenv("TOOLGATE_REQUIRE_EFFECTS") != "" {
			t.Fatal("git is not installed, so the git specs cannot be checked against it")
		}
		t.Skip("SKIP: git is not installed, so the git specs cannot be checked against its help: " + err.Error())
	}
	out, _ := exec.Command(git, "version").Output()
	t.Logf("checked against %s", strings.TrimSpace(string(out)))
	var missingMan []string
	checked, options := 0, 0
	subs := make([]string, 0, len(gitSpec().subs))
	for n := range gitSpec().subs {
		subs = append(subs, n)
	}
	sort.Strings(subs)
	for _, sub := range subs {
		s := gitSpec().subs[sub]
		if s.subs != nil {
			continue // a spec of subcommands (stash, remote, submodule), whose own usage lists no options
		}
		sources := gitHelpSource[sub]
		if sources == nil {
			sources = []string{"-h"}
		}
		var listed []string
		for _, src := range sources {
			if src == "-h" {
				cmd := exec.Command(git, sub, "-h")
				cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "GIT_CONFIG_NOSYSTEM=1", "LANG=C"}
				cmd.Dir = t.TempDir()
				b, _ := cmd.CombinedOutput() // git exits 129 after usage
				listed = append(listed, usageOptions(string(b))...)
				continue
			}
			text, err := readMan(src)
			if err != nil {
				missingMan = append(missingMan, src)
				continue
			}
			listed = append(listed, manOptions(text)...)
		}
		require.NotEmpty(t, listed, "git %s lists no options in %v", sub, sources)
		checked++
		for _, o := range listed {
			options++
			assert.True(t, specClassifies(s, o), "git %s: the option %s that git lists is not in its spec", sub, o)
		}
	}
	if len(missingMan) > 0 {
		msg := "the manual pages " + strings.Join(missingMan, ", ") + " are not installed (Debian's git-man), so the options they list were not checked"
		if os.Getenv("TOOLGATE_REQUIRE_EFFECTS") != "" {
			t.Error(msg)
		} else {
			t.Log("SKIPPED PART: " + msg)
		}
	}
	t.Logf("%d git subcommands, %d listed options, every one classified", checked, options)
	assert.Greater(t, checked, 30)
}

// specClassifies reports whether the spec s has the option o ("-x",
// "--long", "--no-long") by its exact name, as the program's help lists
// it.
func specClassifies(s *spec, o string) bool {
	if s.grammar.nopt {
		// nopt: a shorthand, or --no-X for any key X.
		if _, ok := s.shorthands[strings.TrimLeft(o, "-")]; ok {
			return true
		}
		if rest, ok := strings.CutPrefix(o, "--no-"); ok && s.longExact("--"+rest) != nil {
			return true
		}
	}
	if s.tables().words[o] != nil {
		return true // -ntp, a word of its own (commons-cli)
	}
	if len(o) == 1 {
		return s.tables().bsd[o[0]] != nil
	}
	if len(o) == 2 {
		return s.tables().short[o[1]] != nil
	}
	if s.longExact(o) != nil {
		return true
	}
	if s.grammar.longOnly && !strings.HasPrefix(o, "--") {
		// getopt_long_only: -oN is --oN, and -sS the letter s with the
		// value S.
		return s.longExact("-"+o) != nil || s.tables().short[o[1]] != nil
	}
	if rest, ok := strings.CutPrefix(o, "--no-"); ok && s.grammar.negate {
		return s.longExact("--"+rest) != nil
	}
	return false
}

// usageRow is a line of parse-options' usage that lists an option:
// "    -x, --long[=<v>]   help", "    --long <v>", "    -x <v>".
var usageRow = regexp.MustCompile(`^\s{4}(-[A-Za-z0-9#], )?(--?(?:\[no-\])?[A-Za-z0-9][-A-Za-z0-9]*)`)

// usageOptions lists the options parse-options' usage text prints.
func usageOptions(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		m := usageRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if m[1] != "" {
			out = append(out, strings.TrimSuffix(m[1], ", "))
		}
		name := m[2]
		if name == "-NUM" {
			continue // a count, which the grammar's digits read
		}
		if rest, ok := strings.CutPrefix(name, "--[no-]"); ok {
			out = append(out, "--"+rest, "--no-"+rest)
			continue
		}
		out = append(out, name)
	}
	return out
}

// manOption is an option at the start of a roff line of a manual's
// OPTIONS list: "\-\-long", "\-x", "\-\-[no\-]long".
var manOption = regexp.MustCompile(`^(--?(?:\[no-\])?[A-Za-z0-9][-A-Za-z0-9]*)`)

// manOptions lists the options a manual page's roff source defines: the
// lines that start with an option, each option of a line separated by
// ", ".
func manOptions(text string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<20)
	clean := strings.NewReplacer(`\-`, "-", `\fR`, "", `\fI`, "", `\fB`, "", `\&`, "", `\(em`, "")
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, `\-`) {
			continue
		}
		for _, part := range strings.Split(clean.Replace(line), ", ") {
			m := manOption.FindString(strings.TrimSpace(part))
			switch {
			case m == "", regexp.MustCompile(`^-[0-9]$`).MatchString(m):
				continue // -1, -2, -3 of git diff: counts the grammar reads
			case strings.HasPrefix(m, "--[no-]"):
				out = append(out, "--"+m[len("--[no-]"):], "--no-"+m[len("--[no-]"):])
			case len(m) == 2 || strings.HasPrefix(m, "--"):
				out = append(out, m)
			}
		}
	}
	return out
}

// readMan reads the roff source of the manual page name.
func readMan(name string) (string, error) {
	var last error
	for _, d := range gitManDirs {
		text, err := readManPage(d + "/" + name + ".1.gz")
		if err == nil || !os.IsNotExist(err) {
			return text, err
		}
		last = err
	}
	return "", last
}

// The readers of help text find what they should: a test of the test.
func TestHelpReaders(t *testing.T) {
	usage := "usage: git grep [<options>]\n\n    --cached              search\n    -O, --open-files-in-pager[=<pager>]\n    -NUM                  shortcut\n    --[no-]textconv       textconv\n  not an option\n"
	assert.Equal(t, []string{"--cached", "-O", "--open-files-in-pager", "--textconv", "--no-textconv"}, usageOptions(usage))
	man := ".PP\n\\-\\-follow\n.RS 4\ntext\n.RE\n\\-p, \\-u, \\-\\-patch\n\\-1 \\-\\-base\n\\-\\-[no\\-]mailmap\nnot one\n"
	assert.Equal(t, []string{"--follow", "-p", "-u", "--patch", "--mailmap", "--no-mailmap"}, manOptions(man))
}

// TestReaderSpecsAgreeWithHelp reads the options of every reader the
// guard has a spec for from the installed tool's own --help and fails on
// any the spec does not classify; it lists the tools not installed here.
func TestReaderSpecsAgreeWithHelp(t *testing.T) {
	checked := specsAgreeWithHelp(t, readerSpecs(), "readers")
	assert.Greater(t, checked, 25)
}

// TestSafeSpecsAgreeWithHelp is TestReaderSpecsAgreeWithHelp for the safe
// commands that take options.
func TestSafeSpecsAgreeWithHelp(t *testing.T) {
	checked := specsAgreeWithHelp(t, safeSpecs(), "safe commands")
	assert.Greater(t, checked, 7)
}

// TestToolSpecsAgreeWithHelp is TestReaderSpecsAgreeWithHelp for the
// read-only tools with options of their own.
func TestToolSpecsAgreeWithHelp(t *testing.T) {
	checked := specsAgreeWithHelp(t, toolSpecs(), "tools")
	assert.Greater(t, checked, 15)
	interpSpecsAgreeWithHelp(t)
}

// interpHelp says how each interpreter the guard has a spec for prints
// its options, and which reader lists them; the interpreters known only
// by their inline letters (lettersSpec) are not here.
// attached: the help shows a value attached to its letter ("-Idirectory")
// where the program takes the next word too, so only a value shown apart
// is held to the spec.
var interpHelp = map[string]struct {
	args     []string
	reader   func(string) map[string]arity
	attached bool
}{
	"python": {[]string{"--help"}, pythonHelpOptions, false}, "python2": {[]string{"--help"}, pythonHelpOptions, false},
	"python3": {[]string{"--help"}, pythonHelpOptions, false},
	"node":    {[]string{"--help"}, nodeHelpOptions, false}, "nodejs": {[]string{"--help"}, nodeHelpOptions, false},
	"perl": {[]string{"-h"}, lettersHelpOptions, true}, "ruby": {[]string{"--help"}, lettersHelpOptions, true},
}

// interpSpecsAgreeWithHelp reads the options of every interpreter of
// interpHelp from the installed one's help and fails on any its spec does
// not classify, and on an option the help shows with a value that the
// spec does not give the next word to, or the reverse.
func interpSpecsAgreeWithHelp(t *testing.T) {
	t.Helper()
	var missing, letters []string
	checked, options := 0, 0
	for _, n := range sortedNames(interpSpecs()) {
		h, ok := interpHelp[n]
		if !ok {
			letters = append(letters, n)
			continue
		}
		bin, err := exec.LookPath(n)
		if err != nil {
			missing = append(missing, n)
			continue
		}
		cmd := exec.Command(bin, h.args...)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "LANG=C", "HOME=" + t.TempDir()}
		b, _ := cmd.CombinedOutput()
		listed := h.reader(string(b))
		if len(listed) == 0 {
			missing = append(missing, n+" (its help lists no options: "+strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0])+")")
			continue
		}
		checked++
		for o, ar := range listed {
			options++
			sp := specSpelling(interpSpecs()[n], o)
			if !assert.NotNil(t, sp, "%s: the option %s that %s %v lists is not in its spec", n, o, n, h.args) {
				continue
			}
			if ar == argRequired || sp.arg == argRequired && !h.attached {
				assert.Equal(t, ar, sp.arg, "%s: its help shows %s %s, the spec %s", n, o, arityText(ar), arityText(sp.arg))
			}
		}
	}
	if len(missing) > 0 {
		t.Logf("interpreters not installed here, so not checked: %s", strings.Join(missing, ", "))
	}
	t.Logf("known only by their inline options, with no help read: %s", strings.Join(letters, ", "))
	t.Logf("%d interpreters, %d listed options, every one classified with the arity its help shows", checked, options)
}

// pythonHelpRow is a row of python3 --help: "-c cmd : program passed in
// as string", "-OO    : ...", "--check-hash-based-pycs always|default|never:".
var pythonHelpRow = regexp.MustCompile(`^(-[A-Za-z?]+|--[a-z][-a-z]*)( [^ :]+)?\s*:`)

// pythonHelpOptions lists the options python --help shows, with their
// arity: a word after the option is its value.
func pythonHelpOptions(text string) map[string]arity {
	out := map[string]arity{}
	for _, line := range strings.Split(text, "\n") {
		m := pythonHelpRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		ar := argNone
		if m[2] != "" {
			ar = argRequired
		}
		o := m[1]
		if len(o) > 2 && o[1] != '-' {
			o = o[:2] // -OO is -O twice
		}
		out[o] = ar
	}
	return out
}

// nodeOption is an option at the start of a part of a row of node --help,
// dots and all (--tls-max-v1.2), and what follows it.
var nodeOption = regexp.MustCompile(`^(--?[A-Za-z0-9](?:[-A-Za-z0-9.]*[A-Za-z0-9])?)(=|\[=)?`)

// nodeHelpOptions lists the options node --help shows: "  -e, --eval=...
// evaluate script", "  --inspect[=[host:]port]  activate"; "=..." is a
// value that is required, "[=...]" one only attached.
func nodeHelpOptions(text string) map[string]arity {
	out := map[string]arity{}
	for _, line := range strings.Split(text, "\n") {
		m := gnuHelpRow.FindStringSubmatch(line)
		if m == nil || !strings.HasPrefix(line, "  -") {
			continue
		}
		var opts []string
		row := argNone
		for _, part := range strings.Split(m[1], ", ") {
			om := nodeOption.FindStringSubmatch(strings.TrimSpace(part))
			if om == nil {
				continue // "-" and "--" alone
			}
			opts = append(opts, om[1])
			switch om[2] {
			case "=":
				row = argRequired
			case "[=":
				row = argOptional
			}
		}
		for _, o := range opts {
			out[o] = row
		}
	}
	return out
}

// lettersRow is a row of perl -h or ruby --help: "  -e commandline  one
// line", "  -[mM][-]module  execute", "  -Idirectory  specify", "
// --copyright  print".
var lettersRow = regexp.MustCompile(`^\s{1,4}(-\[[A-Za-z]+\]|--[a-z][-a-z]*|-[A-Za-z0-9])(\S*)( [a-z'][^ ]*)?`)

// lettersHelpOptions lists the options perl -h or ruby --help shows; a
// word after the letter, apart from it, is a value it requires.
func lettersHelpOptions(text string) map[string]arity {
	out := map[string]arity{}
	for _, line := range strings.Split(text, "\n") {
		m := lettersRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		ar := argNone
		if m[2] == "" && m[3] != "" || strings.HasPrefix(m[2], "=") {
			ar = argRequired
		}
		if strings.HasPrefix(m[1], "-[") {
			for _, ch := range strings.Trim(m[1], "-[]") {
				out["-"+string(ch)] = ar
			}
			continue
		}
		out[m[1]] = ar
	}
	return out
}

// TestWriterSpecsAgreeWithHelp is TestReaderSpecsAgreeWithHelp for the
// commands that change files.
func TestWriterSpecsAgreeWithHelp(t *testing.T) {
	checked := specsAgreeWithHelp(t, writerSpecs(), "writers")
	assert.Greater(t, checked, 10)
}

// TestWrapperSpecsAgreeWithHelp is TestReaderSpecsAgreeWithHelp for the
// wrappers (bash's builtins command, builtin and exec have no --help, and
// are listed as not installed).
func TestWrapperSpecsAgreeWithHelp(t *testing.T) {
	checked := specsAgreeWithHelp(t, wrapperSpecs(), "wrappers")
	assert.Greater(t, checked, 6)
}

// specsAgreeWithHelp checks every spec of m against the installed tool's
// --help, logs the tools not installed, and returns how many it checked.
func specsAgreeWithHelp(t *testing.T, m map[string]*spec, what string) int {
	t.Helper()
	names := sortedNames(m)
	var missing []string
	checked, options, valued := 0, 0, 0
	for _, n := range names {
		if m[n].own {
			continue // it reads its own command line (test): its spec has no rows
		}
		if m[n].grammar.nopt {
			// npx: its rows are npm's configuration keys, which
			// TestNpmScriptSpecsAgreeWithNpm holds to npm's own
			// definitions; its --help lists a few of them in npm's form.
			t.Logf("%s: held to npm's definitions by TestNpmScriptSpecsAgreeWithNpm, not to its --help", n)
			continue
		}
		bin, err := helpTool(n)
		if err != nil {
			missing = append(missing, n)
			continue
		}
		args := []string{"--help"}
		if m[n].grammar.bsd {
			args = append(args, "all") // procps ps: the whole list
		}
		cmd := exec.Command(bin, args...)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "LANG=C", "HOME=" + t.TempDir()}
		b, _ := cmd.CombinedOutput()
		listed := gnuHelpOptions(string(b))
		if m[n].grammar.bsd {
			listed = append(listed, bsdHelpOptions(string(b))...)
		}
		if len(listed) == 0 {
			t.Logf("%s --help lists no options this reader understands", n)
			continue
		}
		checked++
		for _, o := range listed {
			options++
			assert.True(t, specClassifies(m[n], o), "%s: the option %s that %s --help lists is not in its spec", n, o, n)
		}
		for o, ar := range gnuHelpArities(string(b)) {
			// The spec takes the next word for the option's value only
			// where the tool does: otherwise that word, an operand to
			// the tool, would never be judged.
			if sp := specSpelling(m[n], o); sp != nil && sp.arg == argRequired && !helpHidesValue[n+" "+o] {
				valued++
				assert.Equal(t, argRequired, ar, "%s: the spec gives %s the next word, but %s --help shows it %s", n, o, n, arityText(ar))
			}
		}
	}
	if len(missing) > 0 {
		t.Logf("not installed here, so not checked (.ci/setup installs the ones the tests need): %s", strings.Join(missing, ", "))
	}
	t.Logf("%d %s, %d listed options, every one classified; %d the spec gives the next word, each shown with a value", checked, what, options, valued)
	return checked
}

// gnuHelpRow is a line of a GNU --help that lists options: "  -x, --long=ARG
// text", "      --long[=ARG]  text".
var gnuHelpRow = regexp.MustCompile(`^\s{1,8}(-[^ ].*?)(?:\s{2,}|\t|$)`)

// gnuHelpOption is one option at the start of a part of such a row.
var gnuHelpOption = regexp.MustCompile(`^(--?[A-Za-z0-9][-A-Za-z0-9]*(?:\.[0-9]+)*|-[A-Za-z0-9.])`)

// gnuHelpOptions lists the options a GNU --help text lists (-NUM and
// digits aside, which the grammar's digits read).
func gnuHelpOptions(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		m := gnuHelpRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for _, part := range strings.Split(m[1], ",") {
			o := gnuHelpOption.FindString(strings.TrimSpace(part))
			if o == "" || o == "-NUM" || regexp.MustCompile(`^-[0-9]+$`).MatchString(o) {
				continue
			}
			out = append(out, o)
		}
	}
	return out
}

// bsdHelpRow is a line of procps ps's --help that lists options, BSD
// ones (a letter without a dash) among them: "  a   all with tty",
// " -p, p, --pid <PID>", "  k,    --sort   specify sort order".
var bsdHelpRow = regexp.MustCompile(`^\s{1,8}((?:-{0,2}[A-Za-z][-A-Za-z]*,\s*)*-{0,2}[A-Za-z][-A-Za-z]*)(?:\s<[^>]*>)?(?:\s{2,}|$)`)

// bsdHelpOptions lists the BSD options (single letters without a dash)
// such a text lists; gnuHelpOptions lists the dashed ones.
func bsdHelpOptions(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		m := bsdHelpRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for _, part := range strings.Split(m[1], ",") {
			if o := strings.TrimSpace(part); len(o) == 1 {
				out = append(out, o)
			}
		}
	}
	return out
}

// helpHidesValue are the options whose value a tool's --help does not
// show, each checked against the tool's source or manual.
var helpHidesValue = map[string]bool{
	// file(1): "-P, --parameter name=value"; --help shows no value.
	"file -P": true, "file --parameter": true,
	// ps(1): "k spec" and "--sort spec"; --help shows no value.
	"ps k": true, "ps --sort": true,
	// stat's --help prints "-c  --format=FORMAT": two spaces end the
	// row's spellings before the value.
	"stat -c": true,
	// ss(8): "-N NSNAME, --net=NSNAME" (getopt's "N:"); --help shows no
	// value.
	"ss -N": true, "ss --net": true,
	// hostname(1): "-F, --file  read host name ... from given file"; --help
	// shows no value.
	"hostname -F": true, "hostname --file": true,
}

// specSpelling returns the spelling o ("-x", "--long", a word of its own
// such as -ntp) of s, or nil.
func specSpelling(s *spec, o string) *spelling {
	if sp := s.tables().words[o]; sp != nil {
		return sp
	}
	if len(o) == 1 {
		return s.tables().bsd[o[0]]
	}
	if len(o) == 2 {
		return s.tables().short[o[1]]
	}
	return s.longExact(o)
}

func arityText(a arity) string {
	return [...]string{"without a value", "with a value", "with a value only attached", "with digits only attached"}[a]
}

// gnuHelpArities says, for each option a GNU --help row lists, whether
// the row shows it with a value: "[=ARG]" (only attached), "=ARG" or
// " ARG" (required), or none. The options of one row share its arity
// ("-s, --suffix=SUFFIX").
func gnuHelpArities(text string) map[string]arity {
	out := map[string]arity{}
	for _, line := range strings.Split(text, "\n") {
		m := gnuHelpRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		// An option shows its own value ("-C NUM, --context[=NUM]"), or
		// takes the row's ("-s, --suffix=SUFFIX": -s too).
		row, rowShown := argNone, false
		own := map[string]arity{}
		var opts []string
		words := strings.Fields(strings.ReplaceAll(m[1], ",", " "))
		for i, w := range words {
			o := gnuHelpOption.FindString(w)
			if o == "" {
				continue
			}
			opts = append(opts, o)
			rest := w[len(o):]
			switch {
			case strings.HasPrefix(rest, "["):
				own[o] = argOptional
			case strings.HasPrefix(rest, "="):
				own[o] = argRequired
			case rest == "" && i+1 < len(words) && !strings.HasPrefix(words[i+1], "-"):
				own[o] = argRequired
			default:
				continue
			}
			if !rowShown {
				row, rowShown = own[o], true
			}
		}
		for _, o := range opts {
			ar, ok := own[o]
			if !ok {
				ar = row
			}
			if _, seen := out[o]; !seen {
				out[o] = ar
			}
		}
	}
	return out
}

// The arity reader reads what GNU, util-linux and clap help rows show.
func TestHelpArities(t *testing.T) {
	help := "  -s, --suffix=SUFFIX  remove\n  -z, --zero   end\n -L, --color[=<mode>]  colour\n -d, --delimiter <string>  d\n" +
		"  -C NUM, --context[=NUM]  context\n"
	assert.Equal(t, map[string]arity{"-s": argRequired, "--suffix": argRequired, "-z": argNone, "--zero": argNone,
		"-L": argOptional, "--color": argOptional, "-d": argRequired, "--delimiter": argRequired,
		"-C": argRequired, "--context": argOptional}, gnuHelpArities(help))
}

// netHelp says how to make each network client print its options, and
// which reader lists them: "gnu" for a GNU --help (curl, wget), "usage"
// for a BSD usage synopsis, "[-46A] [-B bind_interface]", with nc's
// summary lines ("\t\t-x addr[:port]\tSpecify ..."); "angle" for curl's
// and pip's, whose rows end the option at one space and show a value as
// "<name>" or "[protocol://]host".
var netHelp = map[string]struct {
	args   []string
	reader string
}{
	"curl": {[]string{"--help", "all"}, "angle"}, "wget": {[]string{"--help"}, "gnu"},
	"netcat": {[]string{"-h"}, "usage"}, "ssh": {nil, "usage"}, "scp": {nil, "usage"}, "sftp": {[]string{"-?"}, "usage"}, "nc": {[]string{"-h"}, "usage"},
}

// TestNetSpecsAgreeWithHelp reads the options of every network client
// the guard has a spec for from the installed tool's own help and fails
// on any the spec does not classify, or gives another arity; it lists
// the tools not installed here.
func TestNetSpecsAgreeWithHelp(t *testing.T) {
	var missing []string
	checked, options := 0, 0
	for _, n := range sortedNames(netSpecs()) {
		h, ok := netHelp[n]
		bin, err := exec.LookPath(n)
		if !ok || err != nil {
			missing = append(missing, n)
			continue
		}
		cmd := exec.Command(bin, h.args...)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "LANG=C", "HOME=" + t.TempDir()}
		cmd.Stdin = strings.NewReader("")
		b, _ := cmd.CombinedOutput() // ssh, scp, sftp and nc exit non-zero after their usage
		listed := netHelpArities(h.reader, string(b))
		if !assert.NotEmpty(t, listed, "%s %v lists no options this reader understands:\n%s", n, h.args, b) {
			continue
		}
		checked++
		s := netSpecs()[n]
		for o, ar := range listed {
			options++
			sp := specSpelling(s, o)
			if !assert.NotNil(t, sp, "%s: the option %s that its help lists is not in its spec", n, o) {
				continue
			}
			if (ar == argRequired || sp.arg == argRequired) && !netHelpValue[n+" "+o] {
				assert.Equal(t, ar, sp.arg, "%s: its help shows %s %s, the spec %s", n, o, arityText(ar), arityText(sp.arg))
			}
		}
	}
	if len(missing) > 0 {
		t.Logf("not installed here, so not checked (.ci/setup installs the ones the tests need): %s", strings.Join(missing, ", "))
	}
	t.Logf("%d network clients, %d listed options, every one classified with the arity its help shows", checked, options)
	assert.GreaterOrEqual(t, checked, 1)
}

// netHelpValue are the options whose help shows a value the spec does
// not take, each checked against the tool: curl -h CATEGORY prints the
// help and exits, whatever the next word is, so the spec reads that word
// as the URL it would be otherwise (and judges its host).
var netHelpValue = map[string]bool{"curl -h": true, "curl --help": true}

// gnuDotted is a long option with a dot in its name (curl's --http1.1),
// which gnuHelpOption does not read whole.
var gnuDotted = regexp.MustCompile(`(--[A-Za-z0-9-]+[0-9])\.([0-9])`)

// curlHelpRow is a row of curl --help all: " -x, --proxy [protocol://]host[:port] Use this proxy".
var curlHelpRow = regexp.MustCompile(`(?m)^ {1,5}(?:-([A-Za-z0-9:#]), )?(--[A-Za-z0-9][-A-Za-z0-9.]*)( [<\[])?`)

var (
	usageFlags  = regexp.MustCompile(`\[-([A-Za-z0-9]+)\]`)
	usageValued = regexp.MustCompile(`\[-([A-Za-z0-9]) [^\]]`)
	ncSummary   = regexp.MustCompile(`(?m)^\t\t-([A-Za-z0-9])( [^\t]+)?\t`)
)

// netHelpArities lists the options a client's help text shows, each with
// whether it takes a value. wget's "-nv, --no-verbose" is -n with the
// value v.
func netHelpArities(reader, text string) map[string]arity {
	out := map[string]arity{}
	if reader == "angle" {
		for _, m := range curlHelpRow.FindAllStringSubmatch(text, -1) {
			ar := argNone
			if m[3] != "" {
				ar = argRequired
			}
			if m[1] != "" {
				out["-"+m[1]] = ar
			}
			out[m[2]] = ar
		}
		return out
	}
	if reader == "gnu" {
		text = strings.ReplaceAll(text, ",  --", ", --") // wget's "-e,  --execute=COMMAND"
		text = gnuDotted.ReplaceAllString(text, "${1}DOT$2")
		for o, ar := range gnuHelpArities(text) {
			o = strings.ReplaceAll(o, "DOT", ".")
			if len(o) > 2 && o[1] == 'n' && o[1] != '-' {
				o, ar = "-n", argRequired
			}
			out[o] = ar
		}
		return out
	}
	for _, m := range usageFlags.FindAllStringSubmatch(text, -1) {
		for _, ch := range m[1] {
			out["-"+string(ch)] = argNone
		}
	}
	for _, m := range usageValued.FindAllStringSubmatch(text, -1) {
		out["-"+m[1]] = argRequired
	}
	for _, m := range ncSummary.FindAllStringSubmatch(text, -1) {
		if m[2] != "" {
			out["-"+m[1]] = argRequired
		} else if _, seen := out["-"+m[1]]; !seen {
			out["-"+m[1]] = argNone
		}
	}
	return out
}

// The help readers of the network clients read what they should.
func TestNetHelpReaders(t *testing.T) {
	usage := "usage: ssh [-46A] [-B bind_interface]\n           [-D [bind_address:]port] [-s subsystem | sftp_server]\n\t\t-b\t\tAllow broadcast\n\t\t-I length\tTCP\n"
	assert.Equal(t, map[string]arity{"-4": argNone, "-6": argNone, "-A": argNone, "-B": argRequired, "-D": argRequired,
		"-s": argRequired, "-b": argNone, "-I": argRequired}, netHelpArities("usage", usage))
	gnu := "  -e,  --execute=COMMAND           execute\n  -nv, --no-verbose                turn off\n     --anyauth            Pick\n"
	assert.Equal(t, map[string]arity{"-e": argRequired, "--execute": argRequired, "-n": argRequired, "--no-verbose": argNone,
		"--anyauth": argNone}, netHelpArities("gnu", gnu))
	curl := "     --abstract-unix-socket <path> Connect\n -a, --append             Append\n     --http2-prior-knowledge Use HTTP 2\n" +
		" -x, --proxy [protocol://]host[:port] Use this proxy\n     --http1.1            Use HTTP 1.1\n"
	assert.Equal(t, map[string]arity{"--abstract-unix-socket": argRequired, "-a": argNone, "--append": argNone,
		"--http2-prior-knowledge": argNone, "-x": argRequired, "--proxy": argRequired, "--http1.1": argNone}, netHelpArities("angle", curl))
}

// TestPipSpecsAgreeWithHelp holds pip's specs, the general options and
// those of install, download, wheel and index, to the installed pip's
// help.
func TestPipSpecsAgreeWithHelp(t *testing.T) {
	pip, err := exec.LookPath("pip3")
	if err != nil {
		t.Skip("SKIP: pip is not installed, so pip's specs cannot be checked against its help: " + err.Error())
	}
	options := 0
	for _, c := range []struct {
		args []string
		s    *spec
	}{{[]string{"--help"}, pipSpec()}, {[]string{"install", "--help"}, pipInstallSpec()}, {[]string{"download", "--help"}, pipInstallSpec()},
		{[]string{"wheel", "--help"}, pipInstallSpec()}, {[]string{"index", "--help"}, pipInstallSpec()}} {
		cmd := exec.Command(pip, c.args...)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "LANG=C", "HOME=" + t.TempDir(), "PIP_DISABLE_PIP_VERSION_CHECK=1"}
		b, _ := cmd.CombinedOutput()
		listed := netHelpArities("angle", string(b))
		require.NotEmpty(t, listed, "pip %v lists no options:\n%s", c.args, b)
		for o, ar := range listed {
			options++
			sp := specSpelling(c.s, o)
			if assert.NotNil(t, sp, "pip %v: the option %s that its help lists is not in its spec", c.args, o) {
				assert.Equal(t, ar == argRequired, sp.arg == argRequired, "pip %v: %s: its help shows it %s", c.args, o, arityText(ar))
			}
		}
	}
	out, _ := exec.Command(pip, "--version").Output()
	t.Logf("checked against %s: %d listed options, every one classified", strings.TrimSpace(string(out)), options)
}

// sysHelp says where the installed toolchains list the options of the
// subcommands sysSpecs allows: the words that select the spec, and the
// command line that prints its help.
var sysHelp = []struct {
	words []string
	help  []string
}{
	{[]string{"go", "version"}, []string{"go", "help", "version"}},
	{[]string{"go", "env"}, []string{"go", "help", "env"}},
	{[]string{"go", "doc"}, []string{"go", "help", "doc"}},
	{[]string{"go", "mod", "graph"}, []string{"go", "help", "mod", "graph"}},
	{[]string{"go", "mod", "why"}, []string{"go", "help", "mod", "why"}},
	{[]string{"go", "list"}, []string{"go", "help", "list"}},
	{[]string{"go", "list"}, []string{"go", "help", "build"}},
	{[]string{"go", "build"}, []string{"go", "help", "build"}},
	{[]string{"go", "install"}, []string{"go", "help", "build"}},
	{[]string{"go", "run"}, []string{"go", "help", "run"}},
	{[]string{"go", "run"}, []string{"go", "help", "build"}},
	{[]string{"go", "test"}, []string{"go", "help", "test"}},
	{[]string{"go", "test"}, []string{"go", "help", "testflag"}},
	{[]string{"go", "test"}, []string{"go", "help", "build"}},
	{[]string{"go", "vet"}, []string{"go", "help", "vet"}},
	{[]string{"go", "vet"}, []string{"go", "help", "build"}},
	{[]string{"go", "generate"}, []string{"go", "help", "generate"}},
	{[]string{"go", "generate"}, []string{"go", "help", "build"}},
	{[]string{"npm", "ls"}, []string{"npm", "ls", "--help"}},
	{[]string{"rustup", "toolchain", "list"}, []string{"rustup", "toolchain", "list", "--help"}},
	{[]string{"docker", "ps"}, []string{"docker", "ps", "--help"}},
	{[]string{"docker", "images"}, []string{"docker", "images", "--help"}},
	{[]string{"netstat"}, []string{"netstat", "--help"}},
	{[]string{"sqlite3"}, []string{"sqlite3", "-help"}},
	{[]string{"make"}, []string{"make", "--help"}},
	{[]string{"pytest"}, []string{"pytest", "--help"}},
	{[]string{"cargo", "build"}, []string{"cargo", "build", "--help"}},
	{[]string{"cargo", "check"}, []string{"cargo", "check", "--help"}},
	{[]string{"cargo", "test"}, []string{"cargo", "test", "--help"}},
	{[]string{"cargo", "bench"}, []string{"cargo", "bench", "--help"}},
	{[]string{"cargo", "run"}, []string{"cargo", "run", "--help"}},
	{[]string{"cargo", "doc"}, []string{"cargo", "doc", "--help"}},
	{[]string{"cargo", "clippy"}, []string{"cargo", "clippy", "--help"}},
	{[]string{"cargo", "clippy"}, []string{"cargo", "check", "--help"}},
	{[]string{"pnpm", "run"}, []string{"pnpm", "run", "--help"}},
	{[]string{"yarn", "run"}, []string{"yarn", "run", "--help"}},
	{[]string{"bun", "run"}, []string{"bun", "run", "--help"}},
	{[]string{"bun", "test"}, []string{"bun", "test", "--help"}},
	{[]string{"eslint"}, []string{"eslint", "--help"}},
	{[]string{"prettier"}, []string{"prettier", "--help"}},
	{[]string{"jest"}, []string{"jest", "--help"}},
	{[]string{"vitest"}, []string{"vitest", "--help"}},
	{[]string{"tsc"}, []string{"tsc", "--help", "--all"}},
	{[]string{"rubocop"}, []string{"rubocop", "--help"}},
	{[]string{"rspec"}, []string{"rspec", "--help"}},
	{[]string{"black"}, []string{"black", "--help"}},
	{[]string{"mypy"}, []string{"mypy", "--help"}},
	{[]string{"mvn"}, []string{"mvn", "--help"}},
	{[]string{"gradle"}, []string{"gradle", "--help"}},
}

// mvnHelpOption is an option Maven's (commons-cli's) help lists: " -am,--also-make",
// "    --color <arg>", with " <arg>" after one that takes a value.
var mvnHelpOption = regexp.MustCompile(`^ (?:(-[A-Za-z?]+),)?(--[a-z][-a-z]*)( <arg>)?`)

// PnpmVersion is the version of pnpm the help test reads, as .ci/setup
// installs it from npm (its npm_packages rows read these constants), under
// the e2e cache as pnpm-<version>.
const PnpmVersion = "12.24.0"

// YarnVersion is yarn classic's, as PnpmVersion is pnpm's.
const YarnVersion = "1.22.22"

// BunVersion is bun's, as PnpmVersion is pnpm's.
const BunVersion = "1.4.5"

// EslintVersion is eslint's, as PnpmVersion is pnpm's.
const EslintVersion = "10.16.0"

// PrettierVersion is prettier's, as PnpmVersion is pnpm's.
const PrettierVersion = "3.10.1"

// JestVersion is jest's, as PnpmVersion is pnpm's.
const JestVersion = "30.5.2"

// VitestVersion is vitest's, as PnpmVersion is pnpm's.
const VitestVersion = "5.1.2"

// TypescriptVersion is typescript's (tsc's), as PnpmVersion is pnpm's.
const TypescriptVersion = "7.0.2"

// MongoshVersion is mongosh's, as PnpmVersion is pnpm's.
const MongoshVersion = "2.12.0"

// HelmVersion is the version of helm the help test reads, as .ci/setup
// builds it with go install from the Go module proxy (its go_tools rows
// read these constants), under the e2e cache as go/helm-<version>.
const HelmVersion = "v4.3.2"

// goToolVersions are the versions of the programs .ci/setup builds with
// go install for the help test, by name.
var goToolVersions = map[string]string{"helm": HelmVersion}

// jsToolVersions are the versions of the JavaScript tools .ci/setup
// installs for the help test, by name (each the name of its package and
// of its program).
var jsToolVersions = map[string]string{"pnpm": PnpmVersion, "yarn": YarnVersion, "bun": BunVersion,
	"eslint": EslintVersion, "prettier": PrettierVersion, "jest": JestVersion, "vitest": VitestVersion,
	"typescript": TypescriptVersion, "mongosh": MongoshVersion}

// jsToolPackages are the packages of the programs whose name is not their
// package's.
var jsToolPackages = map[string]string{"pnpx": "pnpm", "bunx": "bun", "tsc": "typescript"}

// systemTools are the programs the help test reads where .ci/setup's
// Debian package puts them, before any other on PATH (a pyenv shim of
// aws-cli 1).
var systemTools = map[string]string{"aws": "/usr/bin/aws"}

// debTools are the programs .ci/setup unpacks from their Debian package
// without installing it (redis-tools' maintainer script leaves an
// /etc/redis only its group reads, which the walks of /etc would meet),
// by name, each with its package.
var debTools = map[string]string{"redis-cli": "redis-tools"}

// helpTool finds the program the help test runs: on PATH, or, for a
// JavaScript package manager or a program of goToolVersions or
// debTools, where .ci/setup put it.
func helpTool(name string) (string, error) {
	if p, ok := systemTools[name]; ok {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	bin, err := exec.LookPath(name)
	if err == nil {
		return bin, nil
	}
	if v, ok := goToolVersions[name]; ok {
		cache, why := testenv.Lookup("TOOLGATE_E2E_CACHE")
		if cache == "" {
			return "", fmt.Errorf("not on PATH, and the e2e cache is not prepared: %s", why)
		}
		bin = filepath.Join(cache, "go", name+"-"+v, name)
		if _, err := os.Stat(bin); err != nil {
			return "", fmt.Errorf("not on PATH, and %s@%s not built by .ci/setup: %w", name, v, err)
		}
		return bin, nil
	}
	if deb, ok := debTools[name]; ok {
		cache, why := testenv.Lookup("TOOLGATE_E2E_CACHE")
		if cache == "" {
			return "", fmt.Errorf("not on PATH, and the e2e cache is not prepared: %s", why)
		}
		bin = filepath.Join(cache, "deb", deb, "usr", "bin", name)
		if _, err := os.Stat(bin); err != nil {
			return "", fmt.Errorf("not on PATH, and %s not unpacked by .ci/setup: %w", deb, err)
		}
		return bin, nil
	}
	pkg := name
	if p, ok := jsToolPackages[name]; ok {
		pkg = p
	}
	v, ok := jsToolVersions[pkg]
	if !ok {
		return "", err
	}
	cache, why := testenv.Lookup("TOOLGATE_E2E_CACHE")
	if cache == "" {
		return "", fmt.Errorf("not on PATH, and the e2e cache is not prepared: %s", why)
	}
	bin = filepath.Join(cache, pkg+"-"+v, "node_modules", ".bin", name)
	if _, err := os.Stat(bin); err != nil {
		return "", fmt.Errorf("not on PATH, and %s@%s not installed by .ci/setup: %w", name, v, err)
	}
	return bin, nil
}

// goHelpOption is a flag go's help lists: "[-m]", "[-go=version]",
// "[-exec xprog]" in its usage line, or at the start of a line indented
// once ("\t-all", "\t-C dir", "\t-run=\"\"").
var goHelpOption = regexp.MustCompile(`\[(-[a-z]+)[]= ]|^\t(-[a-z][a-z0-9]*)(?:[ =]|$)`)

// npmHelpOption is an option npm's usage lists: "[-a|--all]", "[--depth <depth>]".
var npmHelpOption = regexp.MustCompile(`(?:\[|\|)(--?[a-z][-a-z]*)`)

// TestSysSpecsAgreeWithHelp reads the options of the toolchains'
// subcommands that sysSpecs allows from the installed tools' help and
// fails on any the spec does not classify.
func TestSysSpecsAgreeWithHelp(t *testing.T) {
	checked, options := 0, 0
	for _, h := range sysHelp {
		bin, err := helpTool(h.help[0])
		if err != nil {
			t.Logf("SKIPPED PART: %s is not installed, so %v is not checked: %v", h.help[0], h.words, err)
			continue
		}
		s := sysSpecs()[h.words[0]]
		for _, w := range h.words[1:] {
			s = s.subs[w]
		}
		require.NotNil(t, s, "%v has no spec", h.words)
		cmd := exec.Command(bin, h.help[1:]...)
		cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "LANG=C", "HOME=" + t.TempDir()}, rustupEnv()...)
		b, _ := cmd.CombinedOutput()
		var listed []string
		for _, line := range strings.Split(string(b), "\n") {
			switch h.help[0] {
			case "go":
				if strings.HasPrefix(line, "usage: go build") && h.words[1] != "build" {
					continue // go build's own -o: the other subcommands share its build flags only
				}
				for _, m := range goHelpOption.FindAllStringSubmatch(line, -1) {
					listed = append(listed, m[1]+m[2])
				}
			case "mvn":
				if m := mvnHelpOption.FindStringSubmatch(line); m != nil {
					for _, o := range m[1:3] {
						if o == "" {
							continue
						}
						listed = append(listed, o)
						sp := specSpelling(s, o)
						assert.True(t, sp == nil || (sp.arg == argRequired) == (m[3] != ""), "mvn: %s takes a value: %v, as the help says", o, m[3] != "")
					}
				}
			case "npm":
				for _, m := range npmHelpOption.FindAllStringSubmatch(line, -1) {
					listed = append(listed, m[1])
				}
			case "tsc":
				// "--outDir", "--project, -p": at the start of a line,
				// read with one dash and in any case, as tsc reads them.
				if strings.HasPrefix(line, "-") {
					for part := range strings.SplitSeq(line, ", ") {
						if f := strings.Fields(part); len(f) > 0 {
							listed = append(listed, "-"+strings.ToLower(strings.TrimLeft(f[0], "-")))
						}
					}
				}
			default:
				listed = append(listed, gnuHelpOptions(line)...)
			}
		}
		require.NotEmpty(t, listed, "%v lists no options", h.help)
		checked++
		for _, o := range listed {
			options++
			assert.True(t, specClassifies(s, o), "%s: the option %s that %v lists is not in its spec", s.name, o, h.help)
		}
	}
	t.Logf("%d toolchain and inspection subcommands, %d listed options, every one classified", checked, options)
	assert.Greater(t, checked, 5)
}

// TestIndexOnlySpecsAgreeWithHelp holds the options of the index-only
// subcommands' specs (gitIndexOnlySubs), by which their lines are read,
// to the installed git's own usage: an option git has and the spec lacks
// would make an abbreviation resolve otherwise than git resolves it.
func TestIndexOnlySpecsAgreeWithHelp(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		if os.Getenv("TOOLGATE_REQUIRE_EFFECTS") != "" {
			t.Fatal("git is not installed, so the index-only specs cannot be checked against it")
		}
		t.Skip("SKIP: git is not installed, so the index-only specs cannot be checked against its help: " + err.Error())
	}
	options := 0
	subs := slices.Sorted(maps.Keys(gitIndexOnlySubs()))
	for _, sub := range subs {
		cmd := exec.Command(git, sub, "-h")
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "GIT_CONFIG_NOSYSTEM=1", "LANG=C"}
		cmd.Dir = t.TempDir()
		b, _ := cmd.CombinedOutput() // git exits 129 after usage
		listed := usageOptions(string(b))
		require.NotEmpty(t, listed, "git %s -h lists no options", sub)
		for _, o := range listed {
			options++
			assert.True(t, specClassifies(gitIndexOnlySubs()[sub].spec, o), "git %s: the option %s that git lists is not in its spec", sub, o)
		}
	}
	t.Logf("%d subcommands, %d listed options, every one classified", len(gitIndexOnlySubs()), options)
}

// The interpreters' help readers read what they should.
func TestInterpHelpReaders(t *testing.T) {
	py := "usage: python3 [option] ...\n-b     : issue warnings\n-c cmd : program passed in as string\n-OO    : do -O changes\n" +
		"--check-hash-based-pycs always|default|never:\n         control\nArguments:\nfile   : program read from script file\n"
	assert.Equal(t, map[string]arity{"-b": argNone, "-c": argRequired, "-O": argNone, "--check-hash-based-pycs": argRequired}, pythonHelpOptions(py))
	node := "Options:\n  -                           script read from stdin\n  -e, --eval=...              evaluate script\n" +
		"  --inspect[=[host:]port]     activate\n  --tls-max-v1.2              set\n  --loader, --experimental-loader=...\n"
	assert.Equal(t, map[string]arity{"-e": argRequired, "--eval": argRequired, "--inspect": argOptional, "--tls-max-v1.2": argNone,
		"--loader": argRequired, "--experimental-loader": argRequired}, nodeHelpOptions(node))
	perl := "Usage: perl [switches]\n  -0[octal/hexadecimal] specify\n  -a                    autosplit\n  -e commandline        one line\n" +
		"  -Idirectory           specify\n  -[mM][-]module        execute\n  --copyright     print\n"
	assert.Equal(t, map[string]arity{"-0": argNone, "-a": argNone, "-e": argRequired, "-I": argNone, "-m": argNone, "-M": argNone,
		"--copyright": argNone}, lettersHelpOptions(perl))
}

// testBinaryFlag is a flag a test binary's -h lists: "  -test.run regexp".
var testBinaryFlag = regexp.MustCompile(`(?m)^\s+(-test\.[a-z0-9]+)`)

// TestGoTestBinaryFlagsClassified holds go test's spec to the flags of a
// real test binary, built here: go test passes on any flag it does not
// know (spec.passOn), except those the testing package reads, which the
// spec must classify, every one.
func TestGoTestBinaryFlagsClassified(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("SKIP: go is not installed, so go test's spec cannot be checked against a test binary: " + err.Error())
	}
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module tb\n\ngo 1.22\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a_test.go"), []byte("package tb\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n"), 0o644))
	build := exec.Command(goBin, "test", "-c", "-o", "tb.test", ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOFLAGS=", "GOTOOLCHAIN=local")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go test -c: %s", out)
	help, _ := exec.Command(filepath.Join(dir, "tb.test"), "-h").CombinedOutput() // exits 2 after its usage
	s := sysSpecs()["go"].subs["test"]
	listed := testBinaryFlag.FindAllStringSubmatch(string(help), -1)
	require.NotEmpty(t, listed, "the test binary lists no flags:\n%s", help)
	for _, m := range listed {
		assert.True(t, specClassifies(s, m[1]), "go test: the test binary's flag %s is not in its spec, and would be passed on unjudged", m[1])
	}
	// A flag of the package's own is passed on; one of the testing
	// package's that the spec lacks is not.
	sc := func(w string) *scanned {
		var got *scanned
		words := []string{"go", "test", w}
		v := argv{vals: words, flags: make([]wordFlags, len(words))}
		scanSpec(s, &v, 2, false, func(e *scanned) {
			if got == nil {
				c := *e
				got = &c
			}
		})
		return got
	}
	assert.Equal(t, &passedOnOpt, sc("-update").opt, "a flag of the package's own is the test binary's")
	assert.Equal(t, problemUnknown, sc("-test.nosuch").problem, "a test.* flag the spec lacks asks")
	assert.Equal(t, problemUnknown, sc("--test.nosuch=1").problem, "a test.* flag the spec lacks asks")
	t.Logf("%d flags of the test binary, every one classified", len(listed))
}

// npmDefinitions prints, as JSON, the configuration keys of the npm
// installed under root (each with whether it takes a value other than a
// boolean) and its shorthands, from npm's own definitions.
const npmDefinitions = `const d = require(process.argv[1] + "/npm/node_modules/@npmcli/config/lib/definitions/index.js");
const keys = {};
for (const [k, v] of Object.entries(d.definitions)) {
	const t = [].concat(v.type);
	keys[k] = !(t.length === 1 && t[0] === Boolean);
}
console.log(JSON.stringify({keys, shorthands: d.shorthands}));`

// TestNpmScriptSpecsAgreeWithNpm holds the specs of npm's script
// subcommands to the installed npm's own definitions: every key npm
// knows is a row, and no row names a key npm lacks, so that a prefix
// resolves as nopt resolves it; a row that refuses takes a value where
// npm's key does; the shorthands are npm's.
func TestNpmScriptSpecsAgreeWithNpm(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("SKIP: node is not installed, so npm's script specs cannot be checked against npm: " + err.Error())
	}
	root, err := exec.Command("npm", "root", "-g").Output()
	if err != nil {
		t.Skip("SKIP: npm is not installed, so npm's script specs cannot be checked against it: " + err.Error())
	}
	out, err := exec.Command(node, "-e", npmDefinitions, strings.TrimSpace(string(root))).Output()
	require.NoError(t, err, "reading npm's definitions")
	var defs struct {
		Keys       map[string]bool     `json:"keys"`
		Shorthands map[string][]string `json:"shorthands"`
	}
	require.NoError(t, json.Unmarshal(out, &defs))
	require.Greater(t, len(defs.Keys), 100, "npm's definitions")
	for _, s := range []*spec{sysSpecs()["npm"].subs["test"], wrapperSpecs()["npx"]} {
		for k, takes := range defs.Keys {
			sp := s.longExact("--" + k)
			if assert.NotNil(t, sp, "%s: npm's key %s is not in the spec", s.name, k) && sp.opt.kind != kWord && sp.opt.kind != kShellCode {
				assert.Equal(t, takes, sp.arg == argRequired, "%s: --%s takes a value in npm: %v", s.name, k, takes)
			}
		}
		for _, sp := range s.tables().long {
			_, ok := defs.Keys[strings.TrimPrefix(sp.text, "--")]
			assert.True(t, ok, "%s: the spec's %s is no key of the installed npm", s.name, sp.text)
		}
	}
	assert.Equal(t, defs.Shorthands, sysSpecs()["npm"].subs["test"].shorthands, "npm's shorthands")
	npmHostSpecsAgreeWithNpm(t, node, strings.TrimSpace(string(root)))
	// npx reads -p as its --package (npm's bin/npx-cli.js), the rest as npm.
	npx := maps.Clone(defs.Shorthands)
	npx["p"] = []string{"--package"}
	assert.Equal(t, npx, wrapperSpecs()["npx"].shorthands, "npx's shorthands")
	v, _ := exec.Command("npm", "--version").Output()
	t.Logf("checked against npm %s: %d keys, %d shorthands", strings.TrimSpace(string(v)), len(defs.Keys), len(defs.Shorthands))
}

// npmTypes prints, for each key of npm's definitions, how nopt reads its
// value: "none" (Boolean), "attached" (Boolean among other types: a next
// word only as true or false), "next" (any other type).
const npmTypes = `const d = require(process.argv[1] + "/npm/node_modules/@npmcli/config/lib/definitions/index.js");
const out = {};
for (const [k, v] of Object.entries(d.definitions)) {
	const t = [].concat(v.type);
	out[k] = t.length === 1 && t[0] === Boolean ? "none" : t.includes(Boolean) ? "attached" : "next";
}
console.log(JSON.stringify(out));`

// npmHostSpecsAgreeWithNpm holds the host reader's specs of npm and npx
// to the installed npm's definitions: every key is a row with the value
// nopt gives it, and no row names a key npm lacks.
func npmHostSpecsAgreeWithNpm(t *testing.T, node, root string) {
	t.Helper()
	out, err := exec.Command(node, "-e", npmTypes, root).Output()
	require.NoError(t, err, "reading npm's definitions")
	var types map[string]string
	require.NoError(t, json.Unmarshal(out, &types))
	want := map[string]arity{"none": argNone, "attached": argOptional, "next": argRequired}
	for _, s := range []*spec{npmHostSpec(), npxHostSpec()} {
		for k, ty := range types {
			if sp := s.longExact("--" + k); assert.NotNil(t, sp, "%s: npm's key %s is not in the spec", s.name, k) {
				assert.Equal(t, want[ty], sp.arg, "%s: --%s: nopt reads its value %s", s.name, k, ty)
			}
		}
		for _, sp := range s.tables().long {
			_, ok := types[strings.TrimPrefix(sp.text, "--")]
			assert.True(t, ok, "%s: the spec's %s is no key of the installed npm", s.name, sp.text)
		}
	}
	t.Logf("the host reader's npm and npx specs: %d keys, each with the arity nopt gives it", len(types))
}

// rustupEnv is where rustup's proxies (cargo) find their toolchains when
// the home is a throwaway one: the user's own RUSTUP_HOME and CARGO_HOME.
func rustupEnv() []string {
	home, _ := os.UserHomeDir()
	var env []string
	for _, v := range [][2]string{{"RUSTUP_HOME", ".rustup"}, {"CARGO_HOME", ".cargo"}} {
		dir := os.Getenv(v[0])
		if dir == "" && home != "" {
			dir = filepath.Join(home, v[1])
		}
		if dir != "" {
			env = append(env, v[0]+"="+dir)
		}
	}
	return env
}

// pytestParserScript prints the options of the installed pytest's own
// parser (its core plugins' pytest_addoption and the installed plugins',
// loaded from their entry points as pytest loads them), one a line: its
// names, its argparse action and its nargs, tab-separated; then a line
// "plugins" with the plugins' distributions. pytest's --help drops a long
// name that differs from another only in hyphens (--junitxml beside
// --junit-xml): its parser takes both.
const pytestParserScript = `import _pytest.config as c
cfg = c.get_config()
cfg.pluginmanager.load_setuptools_entrypoints("pytest11")
p = cfg._parser
print("plugins", *sorted({d.project_name + "-" + d.version for _, d in cfg.pluginmanager.list_plugin_distinfo()}), sep="\t")
for o in [o for g in p._groups for o in g.options] + list(p._anonymous.options):
    a = o._attrs
    print(" ".join(o.names()), a.get("action", "store") if isinstance(a.get("action", "store"), str) else "other", a.get("nargs", ""), sep="\t")
`

// Every option the installed pytest's parser defines is classified by the
// spec, with a value where the parser takes one: the names its --help
// does not show (--junitxml, --collectonly) too, and the options of the
// plugins .ci/setup installs (pytest-cov, pytest-xdist, pytest-timeout).
func TestPytestSpecAgreesWithItsParser(t *testing.T) {
	bin, err := helpTool("pytest")
	if err != nil {
		t.Skip("SKIP: pytest is not installed, so its parser's options are not checked: " + err.Error())
	}
	python := "python3"
	if f, err := os.ReadFile(bin); err == nil {
		if line, _, _ := strings.Cut(string(f), "\n"); strings.HasPrefix(line, "#!") {
			python = strings.Fields(line[2:])[0] // the python pytest runs under
		}
	}
	cmd := exec.Command(python, "-c", pytestParserScript)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "LANG=C"}
	cmd.Dir = t.TempDir()
	out, err := cmd.Output()
	require.NoError(t, err, "%s cannot list pytest's parser: %s", python, out)
	s := sysSpecs()["pytest"]
	n := 0
	plugins, opts, _ := strings.Cut(strings.TrimRight(string(out), "\n"), "\n")
	require.True(t, strings.HasPrefix(plugins, "plugins"), "the plugins line: %q", plugins)
	t.Logf("pytest's plugins: %s", strings.Fields(plugins)[1:])
	if !strings.Contains(plugins, "pytest-cov") || !strings.Contains(plugins, "pytest-xdist") || !strings.Contains(plugins, "pytest-timeout") {
		t.Errorf("pytest-cov, pytest-xdist and pytest-timeout, whose options the spec lists, are not all installed (.ci/setup installs them): %s", plugins)
	}
	for _, line := range strings.Split(opts, "\n") {
		f := strings.Split(line, "\t")
		require.Len(t, f, 3, "line %q", line)
		flag := slices.Contains([]string{"store_true", "store_false", "count", "help", "version", "store_const"}, f[1])
		for _, o := range strings.Fields(f[0]) {
			n++
			sp := specSpelling(s, o)
			if !assert.NotNil(t, sp, "pytest: the option %s that pytest's parser defines is not in its spec", o) {
				continue
			}
			switch {
			case f[1] == "other":
				// An action of pytest's own class (-q's count, -h's
				// help): its --help rows are held by TestSysSpecsAgreeWithHelp.
			case flag:
				assert.Equal(t, argNone, sp.arg, "pytest: %s takes no value (%s)", o, f[1])
			case f[2] == "?":
				assert.Equal(t, argOptional, sp.arg, "pytest: %s takes a value only attached (nargs ?)", o)
			default:
				assert.Equal(t, argRequired, sp.arg, "pytest: %s takes a value (%s)", o, f[1])
			}
		}
	}
	t.Logf("%d options of pytest's parser, every one classified", n)
	assert.Greater(t, n, 80)
}

// TestSubWrapperSpecsAgreeWithHelp is TestWrapperSpecsAgreeWithHelp for
// the subcommands that run a program (subWrappers), each held to its own
// help ("poetry run --help") where the tool is installed.
func TestSubWrapperSpecsAgreeWithHelp(t *testing.T) {
	checked := 0
	var missing []string
	for _, n := range sortedNames(subWrappers()) {
		s := subWrappers()[n]
		words := strings.Fields(n)
		if s.grammar.nopt || !subWrapperHelped[n] {
			continue // npm's keys, held to npm's definitions; or read by a test of its own
		}
		bin, err := helpTool(words[0])
		if err != nil {
			missing = append(missing, n)
			continue
		}
		cmd := exec.Command(bin, append(words[1:], "--help")...)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "LANG=C", "HOME=" + t.TempDir()}
		b, _ := cmd.CombinedOutput()
		listed := gnuHelpOptions(string(b))
		require.NotEmpty(t, listed, "%s --help lists no options", n)
		for _, o := range listed {
			assert.True(t, specClassifies(s, o), "%s: the option %s that its help lists is not in its spec", n, o)
		}
		for _, f := range specSpellings(s) {
			if subWrapperUnlisted[n+" "+f] {
				continue
			}
			re := regexp.MustCompile(`(^|[\s,\[|(])` + regexp.QuoteMeta(f) + `($|[\s,=\]|)<.[])`)
			assert.True(t, re.MatchString(string(b)), "%s: the flag %s of its spec is not an option its help lists", n, f)
		}
		checked++
	}
	t.Logf("checked %d subcommands that run a program against their help", checked)
	logSkipped(t, "not installed here, so not checked", missing)
}

// subWrapperHelped are the subWrappers rows whose help that test reads.
var subWrapperHelped = map[string]bool{"poetry run": true, "pipenv run": true, "pipx run": true}

// subWrapperUnlisted are the spellings of those rows their help does not
// list: poetry 2's -P (--project), which Debian's poetry 1.3 lacks, and
// the -v, -q and --quiet of pipx after 1.1.
var subWrapperUnlisted = map[string]bool{"poetry run -P": true, "poetry run --project": true, "pipx run -v": true,
	"pipx run -q": true, "pipx run --quiet": true}

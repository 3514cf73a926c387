package bashguard

import (
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// Options are an allowlist: a safe command is auto-allowed only with the
// options listed for it here, which read and print and do nothing else.
// An option that is not listed (a new one, one that runs a program, writes
// a file or reads a list of names) needs a person, whatever the command's
// other arguments. Options with effects that the checks of readers.go
// judge on their own (sort -o, rg --pre, tail -f, ...) are listed too:
// those checks still apply.
//
// A long option may be abbreviated as GNU getopt allows: an abbreviation
// of a listed option is allowed, since getopt refuses one that is also the
// start of another option (an exact name is that option, even where it
// starts another: see longMeans).

// optAllow lists the options of one command known to be harmless.
type optAllow struct {
	short  string   // option letters
	long   []string // long options, spelled out
	digits bool     // -NUM is a count ("head -20", "grep -3")
}

func (o *optAllow) allows(name string) bool {
	if len(name) == 2 {
		ch := name[1]
		return hasByte(o.short, ch) || o.digits && ch >= '0' && ch <= '9'
	}
	return longIs(name, o.long...)
}

var gnuInfo = []string{"--help", "--version"}

func withInfo(l ...string) []string { return append(l, gnuInfo...) }

// safeOpts are the options of the readers and of the safe commands that
// take options.
var safeOpts = map[string]*optAllow{
	// Safe commands without file operands.
	"pwd":      {short: "LP", long: withInfo("--logical", "--physical")},
	"basename": {short: "asz", long: withInfo("--multiple", "--suffix", "--zero")},
	"dirname":  {short: "z", long: withInfo("--zero")},
	"which":    {short: "as", long: withInfo("--all")},
	"df":       {short: "aBhHiklPtTvx", long: withInfo("--all", "--block-size", "--human-readable", "--si", "--inodes", "--local", "--no-sync", "--output", "--portability", "--print-type", "--sync", "--total", "--type", "--exclude-type")},
	"seq":      {short: "fsw", digits: true, long: withInfo("--format", "--separator", "--equal-width")},
	"id":       {short: "aZgGnrzu", long: withInfo("--context", "--group", "--groups", "--name", "--real", "--user", "--zero")},
	"uname":    {short: "asnrvmpio", long: withInfo("--all", "--kernel-name", "--nodename", "--kernel-release", "--kernel-version", "--machine", "--processor", "--hardware-platform", "--operating-system")},
	"whoami":   {long: gnuInfo},
	"tr":       {short: "cCdst", long: withInfo("--complement", "--delete", "--squeeze-repeats", "--truncate-set1")},
	"sleep":    {long: gnuInfo},
}

// checkOpt records an Ask for an option of name that is not known to be
// harmless. Commands without an entry are not checked here.
func checkOpt(c *verdictAcc, name string, o opt) {
	spec := safeOpts[name]
	if spec == nil || spec.allows(o.name) {
		return
	}
	c.addf(permission.Ask, ArgsRule(name), "uses the "+name+" option ", o.name, ", which is not known to be harmless", false)
}

// safeCmdOpts judges the options of a safe command without file operands
// against its allowlist. Commands whose arguments may start with "-"
// without being options (echo, test, expr, ...) have no entry.
func safeCmdOpts(c *verdictAcc, name string, v *argv) {
	spec := safeOpts[name]
	if spec == nil {
		return
	}
	val := safeValShort[name]
	scanOpts(v, val, nil, nil, func(o opt) { checkOpt(c, name, o) })
}

// safeValShort gives the short options of the safe commands that take a
// value.
var safeValShort = map[string]string{"basename": "s", "seq": "fs"}

// probePaths judges the operands of v from i on that name a path (hold a
// "/") as reads: which and command -v tell whether such a file exists and
// is executable.
func probePaths(a *analyzer, c *verdictAcc, v *argv, i int, who string) {
	for ; i < v.len(); i++ {
		if strings.IndexByte(v.vals[i], '/') >= 0 || !v.literal(i) {
			a.readPath(c, v.vals[i], v.flags[i], who)
		}
	}
}

// optionWord reports whether the glob word s could expand to a word that
// starts with "-": it starts with a glob character or a "-" (a literal
// prefix such as "./" or "src/" keeps every match from it).
func optionWord(s string) bool {
	return s != "" && strings.IndexByte("-*?[", s[0]) >= 0
}

// globDir is the directory bash lists first to expand the glob word s:
// the part before the first component with a glob character.
func globDir(s string) string {
	k := strings.IndexAny(s, "*?[")
	if k < 0 {
		k = len(s)
	}
	j := strings.LastIndexByte(s[:k], '/')
	switch {
	case j < 0:
		return "."
	case j == 0:
		return "/"
	}
	return s[:j]
}

// globOptions checks that no glob in an option position of v expands to
// an option: with a file named "--pre=sh", "rg TODO *" runs every file
// through sh. A glob after "--", or one that starts with a literal other
// than "-", cannot. echo is left out: its options only change how it
// prints. Every glob also reads the directory bash lists for it.
func (a *analyzer) globOptions(c *verdictAcc, name string, v *argv) {
	dashes := name == "echo" // its options only change how it prints
	for i := 1; i < v.len(); i++ {
		s := v.vals[i]
		if v.flags[i]&wGlob == 0 || !v.literal(i) {
			dashes = dashes || s == "--" && v.literal(i)
			continue
		}
		// bash lists a directory to expand a glob: "echo ~/.ssh/*"
		// prints the names of the files there, whatever the command.
		a.readPath(c, globDir(s), 0, name)
		if dashes || !optionWord(s) {
			continue
		}
		dir := a.dir
		if dir == "" {
			c.addf(permission.Ask, RuleArgsGlob, "glob ", s, " may expand to an option, and no working directory is configured to tell", false)
			continue
		}
		matches, err := expandGlob(dir, s)
		if err != nil {
			c.addf(permission.Ask, RuleArgsGlob, "glob ", s, " may expand to an option: the files it names cannot be checked: "+err.Error(), false)
			continue
		}
		if len(matches) == 0 && s[0] == '-' {
			continue // passed as it is, and judged as the option it spells
		}
		for _, m := range matches {
			if strings.HasPrefix(m, "-") {
				c.addf(permission.Ask, RuleArgsGlob, "glob ", s, " expands to "+m+", which "+name+" takes as an option (put -- or ./ before it)", false)
				break
			}
		}
	}
}

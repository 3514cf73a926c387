package bashguard

import (
	"slices"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// Read-only tools with options of their own, each checked against its
// manual: tree(1), fd(1) (fdfind on Debian), xxd(1), hexdump(1), ps(1)
// and hostname(1). What they read goes through the path judge; an option
// that writes, runs a program, follows links out of the tree or reads a
// list of names is not among the allowed ones.

// toolOpts are the options of one tool: short letters without and with
// a value, long options without and with a value. Options of fileOpts
// name a file the tool reads.
type toolOpts struct {
	short, shortVal string
	long, longVal   []string
	fileOpts        []string
}

var toolSpecs = map[string]*toolOpts{
	// tree: -o writes, -R reruns with -o 00Tree.html, -l follows links,
	// -H, -T, --hintro and --houtro make HTML, --fromfile reads lists of
	// names, --info prints .info files: none is here.
	"tree": {short: "adfixqNQpugshDFvtcUrniASCXJ", shortVal: "LPI",
		long:     []string{"--gitignore", "--matchdirs", "--metafirst", "--ignore-case", "--prune", "--noreport", "--inodes", "--device", "--dirsfirst", "--filesfirst", "--si", "--du", "--version", "--help"},
		longVal:  []string{"--filelimit", "--charset", "--timefmt", "--sort", "--gitfile", "--infofile"},
		fileOpts: []string{"--gitfile", "--infofile"}},
	// fd: -x and -X run commands, -l runs ls, -L follows links,
	// --base-directory moves the search: none is here.
	"fd": fdOpts, "fdfind": fdOpts,
	// xxd: -r turns a dump back into a file (and patches an output file).
	"xxd": {short: "abCEehidupv", shortVal: "cglnos",
		long:    []string{"-ps", "-postscript", "-plain", "-autoskip", "-bits", "-capitalize", "-EBCDIC", "-include", "-version", "-help", "-uppercase"},
		longVal: []string{"-cols", "-groupsize", "-len", "-name", "-seek"}},
	// hexdump: -f reads a format file.
	"hexdump": {short: "bcCdoxvL", shortVal: "efns",
		long: []string{"--one-byte-octal", "--one-byte-char", "--canonical", "--two-bytes-decimal", "--two-bytes-octal", "--two-bytes-hex",
			"--no-squeezing", "--help", "--version"},
		longVal: []string{"--format", "--format-file", "--color", "--length", "--skip"}, fileOpts: []string{"-f", "--format-file"}},
}

var fdOpts = &toolOpts{short: "HIusigFap01qhV", shortVal: "dEteSoocj",
	long: []string{"--hidden", "--no-hidden", "--no-ignore", "--ignore", "--no-ignore-vcs", "--ignore-vcs", "--no-ignore-parent", "--unrestricted",
		"--case-sensitive", "--ignore-case", "--glob", "--regex", "--fixed-strings", "--absolute-path", "--relative-path", "--full-path",
		"--print0", "--prune", "--quiet", "--show-errors", "--strip-cwd-prefix", "--one-file-system", "--no-require-git", "--require-git",
		"--no-follow", "--help", "--version"},
	longVal: []string{"--max-depth", "--min-depth", "--exact-depth", "--exclude", "--type", "--extension", "--size", "--changed-within",
		"--changed-before", "--change-newer-than", "--change-older-than", "--newer", "--older", "--owner", "--color", "--threads",
		"--max-results", "--batch-size", "--path-separator", "--and", "--search-path", "--ignore-file", "--format", "--hyperlink"},
	fileOpts: []string{"--ignore-file"}}

// moreTools judges the tools of toolSpecs, ps and hostname. It reports
// whether it decided.
func (a *analyzer) moreTools(c *verdictAcc, name string, v *argv) bool {
	switch name {
	case "ps":
		a.ps(c, v)
		return true
	case "hostname":
		if v.len() == 1 {
			c.allow("safe", "hostname prints the host's name")
		} else {
			c.add(permission.Ask, "args:hostname", "hostname with arguments sets the name or looks it up in the DNS", true)
		}
		return true
	}
	spec := toolSpecs[name]
	sys := sysToolSpecs[name]
	if sys != nil {
		spec = &sys.opts
	}
	if spec == nil {
		return false
	}
	var ops []int
	longDash := "--"
	if name == "xxd" {
		longDash = "-" // xxd spells its long options with one dash
	}
	for i := 1; i < v.len(); i++ {
		s := v.vals[i]
		if !v.literal(i) || s == "-" || !strings.HasPrefix(s, "-") {
			ops = append(ops, i)
			continue
		}
		if s == "--" {
			for k := i + 1; k < v.len(); k++ {
				ops = append(ops, k)
			}
			break
		}
		lname, lval, has := strings.Cut(s, "=")
		if len(s) > 2 && strings.HasPrefix(s, longDash) && (longDash == "--" || !strings.Contains(spec.short+spec.shortVal, s[1:2]) || slices.Contains(spec.long, lname) || slices.Contains(spec.longVal, lname)) {
			switch {
			case slices.Contains(spec.long, lname) && !has:
			case slices.Contains(spec.longVal, lname):
				at := i
				if !has && i+1 < v.len() {
					i++
					lval, at = v.vals[i], i
				}
				if slices.Contains(spec.fileOpts, lname) {
					a.readPath(c, lval, v.flags[at], name)
				}
				if lname == "--search-path" {
					a.probePath(c, lval, v.flags[at], name)
				}
			default:
				c.addf(permission.Ask, ArgsRule(name), "uses the "+name+" option ", lname, ", which is not known to be harmless", false)
			}
			continue
		}
		for j := 1; j < len(s); j++ {
			ch := s[j]
			if strings.IndexByte(spec.shortVal, ch) >= 0 {
				val, at := s[j+1:], i
				if val == "" && i+1 < v.len() {
					i++
					val, at = v.vals[i], i
				}
				if slices.Contains(spec.fileOpts, "-"+string(ch)) {
					a.readPath(c, val, v.flags[at], name)
				}
				break
			}
			if strings.IndexByte(spec.short, ch) < 0 {
				c.addf(permission.Ask, ArgsRule(name), "uses the "+name+" option -", string(ch), ", which is not known to be harmless", false)
				break
			}
		}
	}
	switch name {
	case "tree":
		if len(ops) == 0 {
			a.probePath(c, ".", 0, name)
		}
		for _, k := range ops {
			a.probePath(c, v.vals[k], v.flags[k], name)
		}
		c.allow("safe", "tree lists names inside the allowed roots")
	case "fd", "fdfind":
		// fd PATTERN PATH...: the pattern is data.
		if len(ops) <= 1 {
			a.probePath(c, ".", 0, name)
		}
		for _, k := range ops[min(1, len(ops)):] {
			a.probePath(c, v.vals[k], v.flags[k], name)
		}
		c.allow("safe", name+" lists names inside the allowed roots")
	case "xxd":
		if len(ops) > 1 {
			// xxd IN OUT writes its dump to OUT.
			a.writePath(c, v.vals[ops[1]], v.flags[ops[1]], name)
		}
		for _, k := range ops[:min(1, len(ops))] {
			a.readPath(c, v.vals[k], v.flags[k], name)
		}
		c.allow("safe", "xxd reads only inside the allowed roots")
	case "hexdump":
		for _, k := range ops {
			a.readPath(c, v.vals[k], v.flags[k], name)
		}
		c.allow("safe", "hexdump reads only inside the allowed roots")
	default:
		a.sysOperands(c, name, sys, ops, v)
	}
	return true
}

// psUnixFlags are procps ps's UNIX options that take no value, and
// psUnixValued those that take one.
const (
	psUnixFlags  = "AacdeFfHjLlMmPTVwyZ"
	psUnixValued = "CGgNOopqstUu"
)

// psUnixCluster reports a cluster of UNIX options that procps surely reads
// as such: flags, and at most a last option whose value is the next word.
// Any other (an unknown letter, an attached value that may not parse) may
// be read again as BSD options.
func psUnixCluster(w string) bool {
	for j := 0; j < len(w); j++ {
		if strings.IndexByte(psUnixValued, w[j]) >= 0 {
			return j == len(w)-1
		}
		if strings.IndexByte(psUnixFlags, w[j]) < 0 {
			return false
		}
	}
	return true
}

// ps judges ps: it lists processes and writes nothing, but its BSD "e"
// prints every process's environment, which holds secrets.
func (a *analyzer) ps(c *verdictAcc, v *argv) {
	valueNext := false
	for i := 1; i < v.len(); i++ {
		s := v.vals[i]
		if valueNext {
			valueNext = false
			continue
		}
		if !v.literal(i) {
			continue // asked as a dynamic argument
		}
		switch {
		case strings.HasPrefix(s, "--"):
			name, _, has := strings.Cut(s, "=")
			if !has && slices.Contains([]string{"--sort", "--format", "--pid", "--ppid", "--user", "--User", "--group", "--Group",
				"--tty", "--sid", "--cols", "--columns", "--width", "--lines", "--rows", "--quick-pid"}, name) {
				valueNext = true
			}
		case strings.HasPrefix(s, "-"):
			if strings.ContainsRune(s[1:], 'e') && !psUnixCluster(s[1:]) {
				// procps reads a dashed word it cannot read as UNIX
				// options as BSD ones ("-axe", "-auxe"): e prints the
				// environment.
				environ(c, "ps "+s+" is read as BSD options, whose e prints the environment of the processes")
				return
			}
			if len(s) >= 2 && strings.Contains("oOpuUgGtsCqN", s[len(s)-1:]) {
				valueNext = true
			}
		default:
			// BSD options, without a dash.
			if strings.ContainsRune(s, 'e') {
				environ(c, "ps "+s+" prints the environment of the processes")
				return
			}
			if strings.ContainsAny(s[len(s)-1:], "oOpUtkq") {
				valueNext = true
			}
		}
	}
	c.allow("safe", "ps lists processes")
}

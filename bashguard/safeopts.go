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

// sumOpts are the options of the coreutils checksum programs without
// -c/--check and the options that only apply to it.
// -c checks the files a list names, each judged as a read (sumlist.go).
var sumOpts = &optAllow{short: "btzcw", long: withInfo("--binary", "--text", "--tag", "--zero", "--check", "--ignore-missing", "--quiet", "--status", "--strict", "--warn")}

func withInfo(l ...string) []string { return append(l, gnuInfo...) }

// safeOpts are the options of the readers and of the safe commands that
// take options.
var safeOpts = map[string]*optAllow{
	"cat":  {short: "AbeEnstTuv", long: withInfo("--show-all", "--number-nonblank", "--show-ends", "--number", "--squeeze-blank", "--show-tabs", "--show-nonprinting")},
	"head": {short: "cnqvz", digits: true, long: withInfo("--bytes", "--lines", "--quiet", "--silent", "--verbose", "--zero-terminated")},
	"tail": {short: "cfFnqsvz", digits: true, long: withInfo("--bytes", "--follow", "--lines", "--quiet", "--silent", "--verbose", "--zero-terminated", "--retry", "--pid", "--sleep-interval", "--max-unchanged-stats")},
	"grep": grepOpts, "egrep": grepOpts, "fgrep": grepOpts,
	"wc":     {short: "cmlLw", long: withInfo("--bytes", "--chars", "--lines", "--max-line-length", "--words", "--files0-from", "--total")},
	"cut":    {short: "bcdfnsz", long: withInfo("--bytes", "--characters", "--delimiter", "--fields", "--complement", "--only-delimited", "--output-delimiter", "--zero-terminated")},
	"jq":     {short: "nrjascCMSefLhVR", long: withInfo("--null-input", "--raw-input", "--raw-output", "--raw-output0", "--join-output", "--ascii-output", "--slurp", "--compact-output", "--color-output", "--monochrome-output", "--sort-keys", "--exit-status", "--from-file", "--arg", "--argjson", "--args", "--jsonargs", "--tab", "--indent", "--seq", "--stream", "--stream-errors", "--unbuffered", "--run-tests", "--build-configuration")},
	"diff":   {short: "qscCuUenyWpFtTrNxXSiEZbwBIaDLdv", long: withInfo("--brief", "--report-identical-files", "--context", "--unified", "--ed", "--normal", "--rcs", "--side-by-side", "--width", "--left-column", "--suppress-common-lines", "--show-c-function", "--show-function-line", "--label", "--expand-tabs", "--initial-tab", "--tabsize", "--suppress-blank-empty", "--recursive", "--no-dereference", "--new-file", "--unidirectional-new-file", "--ignore-file-name-case", "--no-ignore-file-name-case", "--exclude", "--exclude-from", "--starting-file", "--from-file", "--to-file", "--ignore-case", "--ignore-tab-expansion", "--ignore-trailing-space", "--ignore-space-change", "--ignore-all-space", "--ignore-blank-lines", "--ignore-matching-lines", "--text", "--strip-trailing-cr", "--ifdef", "--old-group-format", "--new-group-format", "--unchanged-group-format", "--changed-group-format", "--line-format", "--old-line-format", "--new-line-format", "--unchanged-line-format", "--minimal", "--horizon-lines", "--speed-large-files", "--color", "--palette")},
	"file":   {short: "bcEeFfhiklLmnNrsSvC0", long: withInfo("--brief", "--checking-printout", "--exclude", "--exclude-quiet", "--extension", "--files-from", "--separator", "--no-dereference", "--dereference", "--mime", "--mime-type", "--mime-encoding", "--apple", "--keep-going", "--list", "--magic-file", "--no-pad", "--no-buffer", "--parameter", "--raw", "--special-files", "--print0", "--compile")},
	"stat":   {short: "cfLt", long: withInfo("--dereference", "--file-system", "--format", "--printf", "--terse", "--cached")},
	"du":     {short: "0aAbBcDdHhklLmPsStxX", long: withInfo("--null", "--all", "--apparent-size", "--block-size", "--bytes", "--total", "--dereference-args", "--max-depth", "--human-readable", "--inodes", "--kibibytes", "--dereference", "--count-links", "--no-dereference", "--separate-dirs", "--si", "--summarize", "--threshold", "--time", "--time-style", "--exclude", "--exclude-from", "--one-file-system", "--files0-from")},
	"ls":     {short: "aAbBcCdDfFgGhHiIklLmnNopqQrRsStTuUvwxXZ1", long: withInfo("--all", "--almost-all", "--author", "--escape", "--block-size", "--ignore-backups", "--color", "--colour", "--directory", "--dired", "--classify", "--file-type", "--format", "--full-time", "--group-directories-first", "--no-group", "--human-readable", "--si", "--dereference-command-line", "--dereference-command-line-symlink-to-dir", "--hide", "--hyperlink", "--indicator-style", "--inode", "--ignore", "--kibibytes", "--dereference", "--numeric-uid-gid", "--literal", "--hide-control-chars", "--show-control-chars", "--quote-name", "--quoting-style", "--reverse", "--recursive", "--size", "--sort", "--time", "--time-style", "--tabsize", "--width", "--context", "--zero")},
	"nl":     {short: "bdfhilnpsvw", long: withInfo("--body-numbering", "--section-delimiter", "--footer-numbering", "--header-numbering", "--line-increment", "--join-blank-lines", "--number-format", "--no-renumber", "--number-separator", "--starting-line-number", "--number-width")},
	"tac":    {short: "brs", long: withInfo("--before", "--regex", "--separator")},
	"paste":  {short: "dsz", long: withInfo("--delimiters", "--serial", "--zero-terminated")},
	"rev":    {short: "0hV", long: withInfo("--zero")},
	"base64": {short: "diwo", long: withInfo("--decode", "--ignore-garbage", "--wrap", "--output")},
	"md5sum": sumOpts, "sha1sum": sumOpts, "sha224sum": sumOpts, "sha256sum": sumOpts, "sha384sum": sumOpts, "sha512sum": sumOpts,
	"b2sum":    {short: "btzlcw", long: withInfo("--binary", "--text", "--tag", "--zero", "--length", "--check", "--ignore-missing", "--quiet", "--status", "--strict", "--warn")},
	"cksum":    {short: "alzcw", long: withInfo("--algorithm", "--length", "--tag", "--untagged", "--base64", "--raw", "--zero", "--check", "--ignore-missing", "--quiet", "--status", "--strict", "--warn")},
	"cmp":      {short: "bilns", long: withInfo("--print-bytes", "--ignore-initial", "--verbose", "--bytes", "--quiet", "--silent")},
	"comm":     {short: "123z", long: withInfo("--check-order", "--nocheck-order", "--output-delimiter", "--total", "--zero-terminated")},
	"od":       {short: "AjNSstvwabcdfilox", long: withInfo("--address-radix", "--endian", "--skip-bytes", "--read-bytes", "--strings", "--format", "--output-duplicates", "--width", "--traditional")},
	"column":   {short: "csoNRTWHOEnlJtxerLd", long: withInfo("--columns", "--separator", "--output-separator", "--table", "--table-columns", "--table-right", "--table-truncate", "--table-wrap", "--table-hide", "--table-order", "--table-noextreme", "--table-noheadings", "--table-name", "--table-columns-limit", "--json", "--fillrows", "--keep-empty-lines", "--use-spaces")},
	"sort":     {short: "bdfgiMhnRrVcCkmsStuzoT", long: withInfo("--ignore-leading-blanks", "--dictionary-order", "--ignore-case", "--general-numeric-sort", "--ignore-nonprinting", "--month-sort", "--human-numeric-sort", "--numeric-sort", "--random-sort", "--reverse", "--version-sort", "--sort", "--check", "--key", "--merge", "--stable", "--buffer-size", "--field-separator", "--unique", "--zero-terminated", "--parallel", "--debug", "--batch-size", "--output", "--temporary-directory", "--random-source", "--files0-from")},
	"uniq":     {short: "cdDfisuwz", long: withInfo("--count", "--repeated", "--all-repeated", "--skip-fields", "--ignore-case", "--skip-chars", "--unique", "--check-chars", "--zero-terminated", "--group")},
	"rg":       rgOpts,
	"date":     {short: "dfIRrsu", long: withInfo("--date", "--file", "--iso-8601", "--rfc-email", "--rfc-3339", "--reference", "--set", "--universal", "--utc", "--debug", "--resolution")},
	"realpath": {short: "emLPqsz", long: withInfo("--canonicalize-existing", "--canonicalize-missing", "--logical", "--physical", "--quiet", "--relative-to", "--relative-base", "--strip", "--no-symlinks", "--zero")},
	"readlink": {short: "femnqsvz", long: withInfo("--canonicalize", "--canonicalize-existing", "--canonicalize-missing", "--no-newline", "--quiet", "--silent", "--verbose", "--zero")},
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

var grepOpts = &optAllow{short: "EFGPefiywxcLlmoqsbHhnTZzABCaDdrRUVvI", digits: true, long: withInfo(
	"--extended-regexp", "--fixed-strings", "--basic-regexp", "--perl-regexp", "--regexp", "--file", "--ignore-case",
	"--no-ignore-case", "--word-regexp", "--line-regexp", "--null-data", "--no-messages", "--invert-match", "--max-count",
	"--byte-offset", "--line-number", "--no-line-number", "--line-buffered", "--with-filename", "--no-filename", "--label",
	"--only-matching", "--quiet", "--silent", "--binary-files", "--text", "--devices", "--directories", "--exclude",
	"--exclude-from", "--exclude-dir", "--include", "--recursive", "--dereference-recursive", "--files-without-match",
	"--files-with-matches", "--count", "--initial-tab", "--null", "--before-context", "--after-context", "--context",
	"--group-separator", "--no-group-separator", "--color", "--colour", "--binary")}

var rgOpts = &optAllow{short: "eEfgjmMtTABCrdiIsSwxvnNlcoFHhuUPaqzLbp0V.", long: withInfo(
	"--regexp", "--file", "--glob", "--iglob", "--glob-case-insensitive", "--threads", "--max-count", "--max-columns",
	"--max-columns-preview", "--type", "--type-not", "--type-add", "--type-clear", "--type-list", "--after-context",
	"--before-context", "--context", "--replace", "--encoding", "--max-depth", "--max-filesize", "--colors", "--color",
	"--sort", "--sortr", "--path-separator", "--ignore-file", "--ignore-file-case-insensitive", "--engine",
	"--dfa-size-limit", "--regex-size-limit", "--context-separator", "--no-context-separator", "--field-match-separator",
	"--field-context-separator", "--pre", "--pre-glob", "--hostname-bin", "--search-zip", "--files", "--hidden",
	"--no-ignore", "--no-ignore-vcs", "--no-ignore-parent", "--no-ignore-dot", "--no-ignore-global", "--no-ignore-exclude",
	"--no-ignore-files", "--no-ignore-messages", "--no-require-git", "--count", "--count-matches", "--files-with-matches",
	"--files-without-match", "--fixed-strings", "--ignore-case", "--smart-case", "--case-sensitive", "--word-regexp",
	"--line-regexp", "--invert-match", "--line-number", "--no-line-number", "--only-matching", "--json", "--vimgrep",
	"--heading", "--no-heading", "--with-filename", "--no-filename", "--column", "--no-column", "--stats", "--null",
	"--null-data", "--multiline", "--multiline-dotall", "--pcre2", "--pcre2-version", "--text", "--quiet", "--trim",
	"--passthru", "--no-messages", "--follow", "--unrestricted", "--one-file-system", "--byte-offset", "--crlf",
	"--mmap", "--no-mmap", "--binary", "--no-binary", "--block-buffered", "--line-buffered", "--include-zero",
	"--no-unicode", "--auto-hybrid-regex", "--debug", "--trace", "--pretty", "--no-config", "--maxdepth", "--sort-files",
	"--no-pcre2-unicode", "--no-fixed-strings", "--no-hidden", "--no-follow", "--no-text", "--no-search-zip", "--no-pre")}

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

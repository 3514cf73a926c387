package bashguard

import "sync"

// The readers' knowledge, as data: every command that reads the files its
// operands name (cat, grep, sort, ...), with every option its --help lists
// (and the few the guard knew that --help does not list, marked so), each
// classified. An option --help lists that the guard has not judged asks
// ("is not known to be harmless"); it is listed so that an abbreviation
// resolves as getopt_long resolves it. spec_help_test.go reads the
// installed tools' --help and fails on an option these tables do not
// classify.

// readerSpecs are the readers' specs, by command name.
var readerSpecs = sync.OnceValue(func() map[string]*spec {
	return compileAll(map[string]*spec{
		"b2sum":     {grammar: gnuGrammar, rows: readerB2sumRows},
		"base64":    {grammar: gnuGrammar, rows: readerBase64Rows, examples: []example{{"base64 a.txt", "allow"}, {"base64 -o x a.txt", "ask"}}},
		"cat":       {grammar: gnuGrammar, rows: readerCatRows, examples: []example{{"cat a.txt", "allow"}, {"cat -n src/main.go", "allow"}, {"cat .env", "deny"}}},
		"cksum":     {grammar: gnuGrammar, rows: readerCksumRows},
		"cmp":       {grammar: gnuGrammar, rows: readerCmpRows, examples: []example{{"cmp a.txt src/main.go", "allow"}}},
		"column":    {grammar: gnuGrammar, rows: readerColumnRows, examples: []example{{"column -t a.txt", "allow"}}},
		"comm":      {grammar: gnuGrammar, rows: readerCommRows},
		"cut":       {grammar: gnuGrammar, rows: readerCutRows, examples: []example{{"cut -c1-3 a.txt", "allow"}, {"cut -d, -f1 a.txt", "allow"}}},
		"date":      {grammar: gnuGrammar, rows: readerDateRows, operands: kWord, examples: []example{{"date +%s", "allow"}, {"date -s 2020-01-01", "ask"}}, query: dateQuery},
		"df":        {grammar: gnuGrammar, rows: readerDfRows, operands: kProbe},
		"diff":      {grammar: gnuGrammar, rows: readerDiffRows, examples: []example{{"diff a.txt src/main.go", "allow"}, {"diff -u a.txt .env", "deny"}, {"diff -l a.txt src/main.go", "ask"}}, tree: treeDefaults{follow: true}},
		"du":        {grammar: gnuGrammar, rows: readerDuRows, operands: kProbe, bareDot: true, examples: []example{{"du -sh src", "allow"}}, tree: treeDefaults{listing: true}},
		"file":      {grammar: gnuGrammar, rows: readerFileRows, examples: []example{{"file a.txt", "allow"}, {"file -C -m x", "ask"}}},
		"grep":      {grammar: grammar{abbrev: true, permute: true, digits: true}, rows: readerGrepRows, firstOperand: kPattern, patternBy: grepPatternBy, examples: []example{{"grep -rn hello src", "allow"}, {"grep -e world a.txt", "allow"}, {"grep -f.env a.txt", "deny"}, {"grep -rn TOKEN", "ask"}, {"grep -r --exclude=.env TOKEN .", "allow"}}, lists: grepListing},
		"head":      {grammar: grammar{abbrev: true, permute: true, digits: true}, rows: readerHeadRows, examples: []example{{"head -n 1 a.txt", "allow"}, {"head -1 a.txt", "allow"}, {"head --lin=1 a.txt", "allow"}}},
		"jq":        {grammar: ownGrammar, rows: readerJqRows, firstOperand: kPattern, patternBy: []string{"-f", "--from-file"}, examples: []example{{"jq -n 1", "allow"}, {"jq -n '$ ENV'", "ask"}, {"jq -f .env", "deny"}, {"jq --run-tests a.txt", "ask"}}, check: (*cmdCall).readerJq},
		"ls":        {grammar: gnuGrammar, rows: readerLsRows, operands: kProbe, bareDot: true, examples: []example{{"ls -la src", "allow"}, {"ls -R", "allow"}}, tree: treeDefaults{listing: true}, lists: lsListing},
		"md5sum":    {grammar: gnuGrammar, rows: readerMd5sumRows, examples: []example{{"md5sum a.txt", "allow"}, {"md5sum -c .env", "deny"}}},
		"nl":        {grammar: gnuGrammar, rows: readerNlRows, examples: []example{{"nl a.txt", "allow"}}},
		"od":        {grammar: gnuGrammar, rows: readerOdRows, examples: []example{{"od -c a.txt", "allow"}}},
		"paste":     {grammar: gnuGrammar, rows: readerPasteRows},
		"readlink":  {grammar: gnuGrammar, rows: readerReadlinkRows, operands: kProbe},
		"realpath":  {grammar: gnuGrammar, rows: readerRealpathRows, operands: kProbe, examples: []example{{"realpath a.txt", "allow"}}},
		"rev":       {grammar: gnuGrammar, rows: readerRevRows, examples: []example{{"rev a.txt", "allow"}}},
		"rg":        {grammar: ownGrammar, rows: readerRgRows, firstOperand: kPattern, patternBy: grepPatternBy, examples: []example{{"rg --pre=sh x", "ask"}, {"rg -z x", "ask"}}, tree: treeDefaults{recursive: true, skipHidden: true}, lists: rgListing},
		"sort":      {grammar: gnuGrammar, rows: readerSortRows, examples: []example{{"sort -u a.txt", "allow"}, {"sort -o out.txt a.txt", "ask"}, {"sort --compress-program=sh a.txt", "ask"}}},
		"stat":      {grammar: gnuGrammar, rows: readerStatRows, operands: kProbe, examples: []example{{"stat a.txt", "allow"}, {"stat -c %s a.txt", "allow"}}},
		"tac":       {grammar: gnuGrammar, rows: readerTacRows, examples: []example{{"tac a.txt", "allow"}}},
		"tail":      {grammar: grammar{abbrev: true, permute: true, digits: true}, rows: readerTailRows, examples: []example{{"tail -n1 a.txt", "allow"}, {"tail -f a.txt", "ask"}, {"tail --fol a.txt", "ask"}}},
		"uniq":      {grammar: gnuGrammar, rows: readerUniqRows, leadOps: []kind{kRead, kWrite}, examples: []example{{"uniq -c a.txt", "allow"}, {"uniq a.txt out.txt", "ask"}}},
		"wc":        {grammar: gnuGrammar, rows: readerWcRows, examples: []example{{"wc -l a.txt src/main.go", "allow"}, {"wc --files0-from=.env", "deny"}}},
		"egrep":     {grammar: grammar{abbrev: true, permute: true, digits: true}, rows: readerGrepRows, firstOperand: kPattern, patternBy: grepPatternBy},
		"fgrep":     {grammar: grammar{abbrev: true, permute: true, digits: true}, rows: readerGrepRows, firstOperand: kPattern, patternBy: grepPatternBy},
		"sha1sum":   {grammar: gnuGrammar, rows: readerMd5sumRows},
		"sha224sum": {grammar: gnuGrammar, rows: readerMd5sumRows},
		"sha256sum": {grammar: gnuGrammar, rows: readerMd5sumRows},
		"sha384sum": {grammar: gnuGrammar, rows: readerMd5sumRows},
		"sha512sum": {grammar: gnuGrammar, rows: readerMd5sumRows},
	})
})

// grepPatternBy are the options of grep and rg that give the pattern, so
// that the first operand is a file.
var grepPatternBy = []string{"-e", "--regexp", "-f", "--file"}

// ownGrammar is the grammar of a tool that parses its own command line
// (jq, ripgrep): clusters of short options, long options by their exact
// names only, options after operands.
var ownGrammar = grammar{permute: true}

// compileAll names and compiles the specs of m.
func compileAll(m map[string]*spec) map[string]*spec {
	for n, s := range m {
		s.name = n
		s.compile()
	}
	return m
}

// dateQuery is what a date line must be to print the date: an operand
// that is not a +FORMAT sets the clock.
var dateQuery = []cond{{test: cPrefixed, values: []string{"+"}, fail: fArgs, why: "sets the system clock from %s"}}

// readerB2sumRows are the options of b2sum.
var readerB2sumRows = []optRow{
	{"-b --binary", kFlag, ""},
	{"-c --check", kSumList, ""},
	{"-l= --length=", kWord, ""},
	{"--tag", kFlag, ""},
	{"-t --text", kFlag, ""},
	{"-z --zero", kFlag, ""},
	{"--ignore-missing", kFlag, ""},
	{"--quiet", kFlag, ""},
	{"--status", kFlag, ""},
	{"--strict", kFlag, ""},
	{"-w --warn", kFlag, ""},
	{"--help", kFlag, ""},
	{"--version", kFlag, ""},
}

// readerBase64Rows are the options of base64.
var readerBase64Rows = []optRow{
	{"-d --decode", kFlag, ""},
	{"-i --ignore-garbage", kFlag, ""},
	{"-w= --wrap=", kWord, ""},
	{"--help", kFlag, ""},
	{"--version", kFlag, ""},
	{"-o=", kWrite, "its output to a file"},       // not in --help
	{"--output=", kWrite, "its output to a file"}, // not in --help
}

// readerCatRows are the options of cat.
var readerCatRows = []optRow{
	{"-A --show-all", kFlag, ""},
	{"-b --number-nonblank", kFlag, ""},
	{"-e", kFlag, ""},
	{"-E --show-ends", kFlag, ""},
	{"-n --number", kFlag, ""},
	{"-s --squeeze-blank", kFlag, ""},
	{"-t", kFlag, ""},
	{"-T --show-tabs", kFlag, ""},
	{"-u", kFlag, ""},
	{"-v --show-nonprinting", kFlag, ""},
	{"--help", kFlag, ""},
	{"--version", kFlag, ""},
}

// readerCksumRows are the options of cksum.
var readerCksumRows = []optRow{
	{"-a= --algorithm=", kWord, ""},
	{"-c --check", kSumList, ""},
	{"-l= --length=", kWord, ""},
	{"--tag", kFlag, ""},
	{"--untagged", kFlag, ""},
	{"-z --zero", kFlag, ""},
	{"--ignore-missing", kFlag, ""},
	{"--quiet", kFlag, ""},
	{"--status", kFlag, ""},
	{"--strict", kFlag, ""},
	{"-w --warn", kFlag, ""},
	{"--debug", kAsk, "is not known to be harmless"},
	{"--help", kFlag, ""},
	{"--version", kFlag, ""},
	{"--base64", kFlag, ""}, // not in --help
	{"--raw", kFlag, ""},    // not in --help
}

// readerCmpRows are the options of cmp.
var readerCmpRows = []optRow{
	{"-b --print-bytes", kFlag, ""},
	{"-i= --ignore-initial=", kWord, ""},
	{"-l --verbose", kFlag, ""},
	{"-n= --bytes=", kWord, ""},
	{"-s --quiet --silent", kFlag, ""},
	{"--help", kFlag, ""},
	{"-v --version", kFlag, ""},
}

// readerColumnRows are the options of column.
var readerColumnRows = []optRow{
	{"-t --table", kFlag, ""},
	{"-n= --table-name=", kWord, ""},
	{"-O= --table-order=", kWord, ""},
	{"-N= --table-columns=", kWord, ""},
	{"-l= --table-columns-limit=", kWord, ""},
	{"-E= --table-noextreme=", kWord, ""},
	{"-d --table-noheadings", kFlag, ""},
	{"-e --table-header-repeat", kFlag, ""},
	{"-H= --table-hide=", kWord, ""},
	{"-R= --table-right=", kWord, ""},
	{"-T= --table-truncate=", kWord, ""},
	{"-W= --table-wrap=", kWord, ""},
	{"-L --keep-empty-lines", kFlag, ""},
	{"-J --json", kFlag, ""},
	{"-r --tree=", kFlag, ""},
	{"-i= --tree-id=", kAsk, "is not known to be harmless"},
	{"-p= --tree-parent=", kAsk, "is not known to be harmless"},
	{"-c= --output-width=", kWord, ""},
	{"-o= --output-separator=", kWord, ""},
	{"-s= --separator=", kWord, ""},
	{"-x --fillrows", kFlag, ""},
	{"-h --help", kFlag, ""},
	{"-V --version", kFlag, ""},
	{"--columns=", kWord, ""},   // not in --help
	{"--use-spaces", kFlag, ""}, // not in --help
}

// readerCommRows are the options of comm.
var readerCommRows = []optRow{
	{"--check-order", kFlag, ""},
	{"--nocheck-order", kFlag, ""},
	{"--output-delimiter=", kWord, ""},
	{"--total", kFlag, ""},
	{"-z --zero-terminated", kFlag, ""},
	{"--help", kFlag, ""},
	{"--version", kFlag, ""},
	{"-1", kFlag, ""}, // not in --help
	{"-2", kFlag, ""}, // not in --help
	{"-3", kFlag, ""}, // not in --help
}

// readerCutRows are the options of cut.
var readerCutRows = []optRow{
	{"-b= --bytes=", kWord, ""},
	{"-c= --characters=", kWord, ""},
	{"-d= --delimiter=", kWord, ""},
	{"-f= --fields=", kWord, ""},
	{"-n", kFlag, ""},
	{"--complement", kFlag, ""},
	{"-s --only-delimited", kFlag, ""},
	{"--output-delimiter=", kWord, ""},
	{"-z --zero-terminated", kFlag, ""},
	{"--help", kFlag, ""},
	{"--version", kFlag, ""},
	{"-M", kAsk, "is not known to be harmless"},
}

// readerDateRows are the options of date.
var readerDateRows = []optRow{
	{"-d= --date=", kWord, ""},
	{"--debug", kFlag, ""},
	{"-f= --file=", kRead, ""},
	{"-I[=] --iso-8601[=]", kFlag, ""},
	{"--resolution", kFlag, ""},
	{"-R --rfc-email", kFlag, ""},
	{"--rfc-3339=", kWord, ""},
	{"-r= --reference=", kRead, ""},
	{"-s= --set=", kAsk, "sets the system clock"},
	{"-u --utc --universal", kFlag, ""},
	{"--help", kFlag, ""},
	{"--version", kFlag, ""},
}

// readerDfRows are the options of df.
var readerDfRows = []optRow{
	{"-a --all", kFlag, ""},
	{"-B= --block-size=", kWord, ""},
	{"-h --human-readable", kFlag, ""},
	{"-H --si", kFlag, ""},
	{"-i --inodes", kFlag, ""},
	{"-k", kFlag, ""},
	{"-l --local", kFlag, ""},
	{"--no-sync", kFlag, ""},
	{"--output[=]", kFlag, ""},
	{"-P --portability", kFlag, ""},
	{"--sync", kFlag, ""},
	{"--total", kFlag, ""},
	{"-t= --type=", kWord, ""},
	{"-T --print-type", kFlag, ""},
	{"-x= --exclude-type=", kWord, ""},
	{"-v", kFlag, ""},
	{"--help", kFlag, ""},
	{"--version", kFlag, ""},
}

// readerDiffRows are the options of diff.
var readerDiffRows = []optRow{
	{"--normal", kFlag, ""},
	{"-q --brief", kFlag, ""},
	{"-s --report-identical-files", kFlag, ""},
	{"-c -C= --context", kFlag, ""},
	{"-u -U= --unified", kFlag, ""},
	{"-e --ed", kFlag, ""},
	{"-n --rcs", kFlag, ""},
	{"-y --side-by-side", kFlag, ""},
	{"-W= --width=", kWord, ""},
	{"--left-column", kFlag, ""},
	{"--suppress-common-lines", kFlag, ""},
	{"-p --show-c-function", kFlag, ""},
	{"-F= --show-function-line=", kWord, ""},
	{"--label=", kWord, ""},
	{"-t --expand-tabs", kFlag, ""},
	{"-T --initial-tab", kFlag, ""},
	{"--tabsize=", kWord, ""},
	{"--suppress-blank-empty", kFlag, ""},
	{"-l --paginate", kProgram, "runs pr on its output"},
	{"-r --recursive", kRecurse, ""},
	{"--no-dereference", kNoFollow, ""},
	{"-N --new-file", kFlag, ""},
	{"--unidirectional-new-file", kFlag, ""},
	{"--ignore-file-name-case", kFlag, ""},
	{"--no-ignore-file-name-case", kFlag, ""},
	{"-x= --exclude=", kWord, ""},
	{"-X= --exclude-from=", kRead, ""},
	{"-S= --starting-file", kFlag, ""},
	{"--from-file=", kRead, ""},
	{"--to-file=", kRead, ""},
	{"-i --ignore-case", kFlag, ""},
	{"-E --ignore-tab-expansion", kFlag, ""},
	{"-Z --ignore-trailing-space", kFlag, ""},
	{"-b --ignore-space-change", kFlag, ""},
	{"-w --ignore-all-space", kFlag, ""},
	{"-B --ignore-blank-lines", kFlag, ""},
	{"-I= --ignore-matching-lines=", kWord, ""},
	{"-a --text", kFlag, ""},
	{"--strip-trailing-cr", kFlag, ""},
	{"-D= --ifdef", kFlag, ""},
	{"--GTYPE-group-format=", kAsk, "is not known to be harmless"},
	{"--line-format=", kWord, ""},
	{"--LTYPE-line-format=", kAsk, "is not known to be harmless"},
	{"-d --minimal", kFlag, ""},
	{"--horizon-lines=", kWord, ""},
	{"--speed-large-files", kFlag, ""},
	{"--color[=]", kFlag, ""},
	{"--palette=", kWord, ""},
	{"--help", kFlag, ""},
	{"-v --version", kFlag, ""},
	{"-L=", kWord, ""},                      // not in --help
	{"--old-group-format", kFlag, ""},       // not in --help
	{"--new-group-format", kFlag, ""},       // not in --help
	{"--unchanged-group-format", kFlag, ""}, // not in --help
	{"--changed-group-format", kFlag, ""},   // not in --help
	{"--old-line-format", kFlag, ""},        // not in --help
	{"--new-line-format", kFlag, ""},        // not in --help
	{"--unchanged-line-format", kFlag, ""},  // not in --help
}

// readerDuRows are the options of du.
var readerDuRows = []optRow{
	{"--null", kFlag, ""},
	{"-a --all", kFlag, ""},
	{"--apparent-size", kFlag, ""},
	{"-B= --block-size=", kWord, ""},
	{"-b --bytes", kFlag, ""},
	{"-c --total", kFlag, ""},
	{"-D --dereference-args", kFlag, ""},
	{"-d= --max-depth=", kWord, ""},
	{"--files0-from=", kList0, ""},
	{"-H", kFlag, ""},
	{"-h --human-readable", kFlag, ""},
	{"--inodes", kFlag, ""},
	{"-k", kFlag, ""},
	{"-L --dereference", kFollow, ""},
	{"-l --count-links", kFlag, ""},
	{"-m", kFlag, ""},
	{"-P --no-dereference", kFlag, ""},
	{"-S --separate-dirs", kFlag, ""},
	{"--si", kFlag, ""},
	{"-s --summarize", kFlag, ""},
	{"-t= --threshold=", kWord, ""},
	{"--time", kFlag, ""},
	{"--time-style=", kWord, ""},
	{"-X= --exclude-from=", kRead, ""},
	{"--exclude=", kWord, ""},
	{"-x --one-file-system", kFlag, ""},
	{"--help", kFlag, ""},
	{"--version", kFlag, ""},
	{"-0", kFlag, ""},          // not in --help
	{"-A", kFlag, ""},          // not in --help
	{"--kibibytes", kFlag, ""}, // not in --help
}

// readerFileRows are the options of file.
var readerFileRows = []optRow{
	{"--help", kFlag, ""},
	{"-v --version", kFlag, ""},
	{"-m= --magic-file=", kRead, ""},
	{"-z --uncompress", kAsk, "is not known to be harmless"},
	{"-Z --uncompress-noreport", kAsk, "is not known to be harmless"},
	{"-b --brief", kFlag, ""},
	{"-c --checking-printout", kFlag, ""},
	{"-e= --exclude=", kWord, ""},
	{"--exclude-quiet=", kWord, ""},
	{"-f= --files-from=", kList, ""},
	{"-F= --separator=", kWord, ""},
	{"-i --mime", kFlag, ""},
	{"--apple", kFlag, ""},
	{"--extension", kFlag, ""},
	{"--mime-type", kFlag, ""},
	{"--mime-encoding", kFlag, ""},
	{"-k --keep-going", kFlag, ""},
	{"-l --list", kFlag, ""},
	{"-L --dereference", kFlag, ""},
	{"-h --no-dereference", kFlag, ""},
	{"-n --no-buffer", kFlag, ""},
	{"-N --no-pad", kFlag, ""},
	{"--print0", kFlag, ""},
	{"-p --preserve-date", kAsk, "is not known to be harmless"},
	{"-P= --parameter=", kWord, ""},
	{"-r --raw", kFlag, ""},
	{"-s --special-files", kFlag, ""},
	{"-S --no-sandbox", kFlag, ""},
	{"-C --compile", kWrite, "a compiled magic file"},
	{"-d --debug", kAsk, "is not known to be harmless"},
	{"-E", kFlag, ""}, // not in --help
	{"-0", kFlag, ""}, // not in --help
}

// readerGrepRows are the options of grep.
var readerGrepRows = []optRow{
	{"-E --extended-regexp", kFlag, ""},
	{"-F --fixed-strings", kFlag, ""},
	{"-G --basic-regexp", kFlag, ""},
	{"-P --perl-regexp", kFlag, ""},
	{"-e= --regexp=", kPattern, ""},
	{"-f= --file=", kRead, ""},
	{"-i --ignore-case", kFlag, ""},
	{"--no-ignore-case", kFlag, ""},
	{"-w --word-regexp", kFlag, ""},
	{"-x --line-regexp", kFlag, ""},
	{"-z --null-data", kFlag, ""},
	{"-s --no-messages", kFlag, ""},
	{"-v --invert-match", kFlag, ""},
	{"-V --version", kFlag, ""},
	{"--help", kFlag, ""},
	{"-m= --max-count=", kWord, ""},
	{"-b --byte-offset", kFlag, ""},
	{"-n --line-number", kFlag, ""},
	{"--line-buffered", kFlag, ""},
	{"-H --with-filename", kFlag, ""},
	{"-h --no-filename", kFlag, ""},
	{"--label=", kWord, ""},
	{"-o --only-matching", kFlag, ""},
	{"-q --quiet --silent", kFlag, ""},
	{"--binary-files=", kWord, ""},
	{"-a --text", kFlag, ""},
	{"-I", kFlag, ""},
	{"-d= --directories=", kDirectories, ""},
	{"-D= --devices=", kWord, ""},
	{"-r --recursive", kRecurse, ""},
	{"-R --dereference-recursive", kRecurseFollow, ""},
	{"--include=", kInclude, ""},
	{"--exclude=", kExclude, ""},
	{"--exclude-from=", kRead, ""},
	{"--exclude-dir=", kExcludeDir, ""},
	{"-L --files-without-match", kFlag, ""},
	{"-l --files-with-matches", kFlag, ""},
	{"-c --count", kFlag, ""},
	{"-T --initial-tab", kFlag, ""},
	{"-Z --null", kFlag, ""},
	{"-B= --before-context=", kWord, ""},
	{"-A= --after-context=", kWord, ""},
	{"-C= --context=", kWord, ""},
	{"--group-separator=", kWord, ""},
	{"--no-group-separator", kFlag, ""},
	{"--color[=]", kFlag, ""},
	{"--colour[=]", kFlag, ""},
	{"-U --binary", kFlag, ""},
	{"-y", kFlag, ""},               // not in --help
	{"--no-line-number", kFlag, ""}, // not in --help
}

// readerHeadRows are the options of head.
var readerHeadRows = []optRow{
	{"-c= --bytes=", kWord, ""},
	{"-n= --lines=", kWord, ""},
	{"-q --quiet --silent", kFlag, ""},
	{"-v --verbose", kFlag, ""},
	{"-z --zero-terminated", kFlag, ""},
	{"--help", kFlag, ""},
	{"--version", kFlag, ""},
}

// readerJqRows are the options of jq.
var readerJqRows = []optRow{
	{"-c", kFlag, ""},
	{"-n", kFlag, ""},
	{"-e", kFlag, ""},
	{"-s", kFlag, ""},
	{"-r", kFlag, ""},
	{"-R", kFlag, ""},
	{"-C", kFlag, ""},
	{"-M", kFlag, ""},
	{"-S", kFlag, ""},
	{"--tab", kFlag, ""},
	{"--arg", kFlag, ""},
	{"--argjson", kFlag, ""},
	{"--slurpfile", kAsk, "is not known to be harmless"},
	{"--rawfile", kAsk, "is not known to be harmless"},
	{"--args", kFlag, ""},
	{"--jsonargs", kFlag, ""},
	{"-j", kFlag, ""},                  // not in --help
	{"-a", kFlag, ""},                  // not in --help
	{"-f=", kRead, ""},                 // not in --help
	{"-L=", kRead, ""},                 // not in --help
	{"-h", kFlag, ""},                  // not in --help
	{"-V", kFlag, ""},                  // not in --help
	{"--null-input", kFlag, ""},        // not in --help
	{"--raw-input", kFlag, ""},         // not in --help
	{"--raw-output", kFlag, ""},        // not in --help
	{"--raw-output0", kFlag, ""},       // not in --help
	{"--join-output", kFlag, ""},       // not in --help
	{"--ascii-output", kFlag, ""},      // not in --help
	{"--slurp", kFlag, ""},             // not in --help
	{"--compact-output", kFlag, ""},    // not in --help
	{"--color-output", kFlag, ""},      // not in --help
	{"--monochrome-output", kFlag, ""}, // not in --help
	{"--sort-keys", kFlag, ""},         // not in --help
	{"--exit-status", kFlag, ""},       // not in --help
	{"--from-file=", kRead, ""},        // not in --help
	{"--indent=", kWord, ""},           // not in --help
	{"--seq", kFlag, ""},               // not in --help
	{"--stream", kFlag, ""},            // not in --help
	{"--stream-errors", kFlag, ""},     // not in --help
	{"--unbuffered", kFlag, ""},        // not in --help
	{"--run-tests", kAsk, "runs the jq tests in a file, which are not analysed"}, // not in --help
	{"--build-configuration", kFlag, ""},                                         // not in --help
	{"--help", kFlag, ""},                                                        // not in --help
	{"--version", kFlag, ""},                                                     // not in --help
}

// readerLsRows are the options of ls.
var readerLsRows = []optRow{
	{"-a --all", kFlag, ""},
	{"-A --almost-all", kFlag, ""},
	{"--author", kFlag, ""},
	{"-b --escape", kFlag, ""},
	{"--block-size=", kWord, ""},
	{"-B --ignore-backups", kFlag, ""},
	{"-c", kFlag, ""},
	{"-C", kFlag, ""},
	{"--color[=]", kFlag, ""},
	{"-d --directory", kFlag, ""},
	{"-D --dired", kFlag, ""},
	{"-f", kFlag, ""},
	{"-F --classify[=]", kFlag, ""},
	{"--file-type", kFlag, ""},
	{"--format=", kWord, ""},
	{"--full-time", kFlag, ""},
	{"-g", kFlag, ""},
	{"--group-directories-first", kFlag, ""},
	{"-G --no-group", kFlag, ""},
	{"-h --human-readable", kFlag, ""},
	{"--si", kFlag, ""},
	{"-H --dereference-command-line", kFlag, ""},
	{"--dereference-command-line-symlink-to-dir", kFlag, ""},
	{"--hide=", kWord, ""},
	{"--hyperlink[=]", kFlag, ""},
	{"--indicator-style=", kWord, ""},
	{"-i --inode", kFlag, ""},
	{"-I= --ignore=", kWord, ""},
	{"-k --kibibytes", kFlag, ""},
	{"-l", kFlag, ""},
	{"-L --dereference", kFollow, ""},
	{"-m", kFlag, ""},
	{"-n --numeric-uid-gid", kFlag, ""},
	{"-N --literal", kFlag, ""},
	{"-o", kFlag, ""},
	{"-p", kFlag, ""},
	{"-q --hide-control-chars", kFlag, ""},
	{"--show-control-chars", kFlag, ""},
	{"-Q --quote-name", kFlag, ""},
	{"--quoting-style=", kWord, ""},
	{"-r --reverse", kFlag, ""},
	{"-R --recursive", kRecurse, ""},
	{"-s --size", kFlag, ""},
	{"-S", kFlag, ""},
	{"--sort=", kWord, ""},
	{"--time=", kWord, ""},
	{"--time-style=", kWord, ""},
	{"-t", kFlag, ""},
	{"-T= --tabsize=", kWord, ""},
	{"-u", kFlag, ""},
	{"-U", kFlag, ""},
	{"-v", kFlag, ""},
	{"-w= --width=", kWord, ""},
	{"-x", kFlag, ""},
	{"-X", kFlag, ""},
	{"-Z --context", kFlag, ""},
	{"--zero", kFlag, ""},
	{"--help", kFlag, ""},
	{"--version", kFlag, ""},
	{"-1", kFlag, ""},       // not in --help
	{"--colour", kFlag, ""}, // not in --help
}

// readerMd5sumRows are the options of md5sum.
var readerMd5sumRows = []optRow{
	{"-b --binary", kFlag, ""},
	{"-c --check", kSumList, ""},
	{"--tag", kFlag, ""},
	{"-t --text", kFlag, ""},
	{"-z --zero", kFlag, ""},
	{"--ignore-missing", kFlag, ""},
	{"--quiet", kFlag, ""},
	{"--status", kFlag, ""},
	{"--strict", kFlag, ""},
	{"-w --warn", kFlag, ""},
	{"--help", kFlag, ""},
	{"--version", kFlag, ""},
}

// readerNlRows are the options of nl.
var readerNlRows = []optRow{
	{"-b= --body-numbering", kFlag, ""},
	{"-d= --section-delimiter", kFlag, ""},
	{"-f= --footer-numbering", kFlag, ""},
	{"-h= --header-numbering", kFlag, ""},
	{"-i= --line-increment", kFlag, ""},
	{"-l= --join-blank-lines", kFlag, ""},
	{"-n= --number-format", kFlag, ""},
	{"-p --no-renumber", kFlag, ""},
	{"-s= --number-separator", kFlag, ""},
	{"-v= --starting-line-number", kFlag, ""},
	{"-w= --number-width", kFlag, ""},
	{"--help", kFlag, ""},
	{"--version", kFlag, ""},
}

// readerOdRows are the options of od.
var readerOdRows = []optRow{
	{"-A= --address-radix=", kWord, ""},
	{"--endian=", kWord, ""},
	{"-j= --skip-bytes=", kWord, ""},
	{"-N= --read-bytes=", kWord, ""},
	{"-S= --strings", kFlag, ""},
	{"-t= --format=", kWord, ""},
	{"-v --output-duplicates", kFlag, ""},
	{"-w[=] --width[=]", kFlag, ""},
	{"--traditional", kFlag, ""},
	{"--help", kFlag, ""},
	{"--version", kFlag, ""},
	{"-a", kFlag, ""},
	{"-b", kFlag, ""},
	{"-c", kFlag, ""},
	{"-d", kFlag, ""},
	{"-f", kFlag, ""},
	{"-i", kFlag, ""},
	{"-l", kFlag, ""},
	{"-o", kFlag, ""},
	{"-s", kFlag, ""},
	{"-x", kFlag, ""},
}

// readerPasteRows are the options of paste.
var readerPasteRows = []optRow{
	{"-d= --delimiters=", kWord, ""},
	{"-s --serial", kFlag, ""},
	{"-z --zero-terminated", kFlag, ""},
	{"--help", kFlag, ""},
	{"--version", kFlag, ""},
}

// readerReadlinkRows are the options of readlink.
var readerReadlinkRows = []optRow{
	{"-f --canonicalize", kFlag, ""},
	{"-e --canonicalize-existing", kFlag, ""},
	{"-m --canonicalize-missing", kFlag, ""},
	{"-n --no-newline", kFlag, ""},
	{"-q --quiet", kFlag, ""},
	{"-s --silent", kFlag, ""},
	{"-v --verbose", kFlag, ""},
	{"-z --zero", kFlag, ""},
	{"--help", kFlag, ""},
	{"--version", kFlag, ""},
}

// readerRealpathRows are the options of realpath.
var readerRealpathRows = []optRow{
	{"-e --canonicalize-existing", kFlag, ""},
	{"-m --canonicalize-missing", kFlag, ""},
	{"-L --logical", kFlag, ""},
	{"-P --physical", kFlag, ""},
	{"-q --quiet", kFlag, ""},
	{"--relative-to=", kRead, ""},
	{"--relative-base=", kRead, ""},
	{"-s --strip --no-symlinks", kFlag, ""},
	{"-z --zero", kFlag, ""},
	{"--help", kFlag, ""},
	{"--version", kFlag, ""},
}

// readerRevRows are the options of rev.
var readerRevRows = []optRow{
	{"-h --help", kFlag, ""},
	{"-V --version", kFlag, ""},
	{"-0", kFlag, ""},     // not in --help
	{"--zero", kFlag, ""}, // not in --help
}

// readerRgRows are the options of rg.
var readerRgRows = []optRow{
	{"-e=", kPattern, ""},     // not in --help
	{"-E=", kWord, ""},        // not in --help
	{"-f=", kRead, ""},        // not in --help
	{"-g=", kWord, ""},        // not in --help
	{"-j=", kWord, ""},        // not in --help
	{"-m=", kWord, ""},        // not in --help
	{"-M=", kWord, ""},        // not in --help
	{"-t=", kWord, ""},        // not in --help
	{"-T=", kWord, ""},        // not in --help
	{"-A=", kWord, ""},        // not in --help
	{"-B=", kWord, ""},        // not in --help
	{"-C=", kWord, ""},        // not in --help
	{"-r=", kWord, ""},        // not in --help
	{"-d=", kWord, ""},        // not in --help
	{"-i", kFlag, ""},         // not in --help
	{"-I", kFlag, ""},         // not in --help
	{"-s", kFlag, ""},         // not in --help
	{"-S", kFlag, ""},         // not in --help
	{"-w", kFlag, ""},         // not in --help
	{"-x", kFlag, ""},         // not in --help
	{"-v", kFlag, ""},         // not in --help
	{"-n", kFlag, ""},         // not in --help
	{"-N", kFlag, ""},         // not in --help
	{"-l", kFlag, ""},         // not in --help
	{"-c", kFlag, ""},         // not in --help
	{"-o", kFlag, ""},         // not in --help
	{"-F", kFlag, ""},         // not in --help
	{"-H", kFlag, ""},         // not in --help
	{"-h", kFlag, ""},         // not in --help
	{"-u", kUnrestricted, ""}, // not in --help
	{"-U", kFlag, ""},         // not in --help
	{"-P", kFlag, ""},         // not in --help
	{"-a", kFlag, ""},         // not in --help
	{"-q", kFlag, ""},         // not in --help
	{"-z", kProgram, "runs decompression programs"},                   // not in --help
	{"-L", kFollow, ""},                                               // not in --help
	{"-b", kFlag, ""},                                                 // not in --help
	{"-p", kFlag, ""},                                                 // not in --help
	{"-0", kFlag, ""},                                                 // not in --help
	{"-V", kFlag, ""},                                                 // not in --help
	{"-.", kHidden, ""},                                               // not in --help
	{"--regexp=", kPattern, ""},                                       // not in --help
	{"--file=", kRead, ""},                                            // not in --help
	{"--glob=", kWord, ""},                                            // not in --help
	{"--iglob=", kWord, ""},                                           // not in --help
	{"--glob-case-insensitive", kFlag, ""},                            // not in --help
	{"--threads=", kWord, ""},                                         // not in --help
	{"--max-count=", kWord, ""},                                       // not in --help
	{"--max-columns=", kWord, ""},                                     // not in --help
	{"--max-columns-preview", kFlag, ""},                              // not in --help
	{"--type=", kWord, ""},                                            // not in --help
	{"--type-not=", kWord, ""},                                        // not in --help
	{"--type-add=", kWord, ""},                                        // not in --help
	{"--type-clear=", kWord, ""},                                      // not in --help
	{"--type-list", kFlag, ""},                                        // not in --help
	{"--after-context=", kWord, ""},                                   // not in --help
	{"--before-context=", kWord, ""},                                  // not in --help
	{"--context=", kWord, ""},                                         // not in --help
	{"--replace=", kWord, ""},                                         // not in --help
	{"--encoding=", kWord, ""},                                        // not in --help
	{"--max-depth=", kWord, ""},                                       // not in --help
	{"--max-filesize=", kWord, ""},                                    // not in --help
	{"--colors=", kWord, ""},                                          // not in --help
	{"--color=", kWord, ""},                                           // not in --help
	{"--sort=", kWord, ""},                                            // not in --help
	{"--sortr=", kWord, ""},                                           // not in --help
	{"--path-separator=", kWord, ""},                                  // not in --help
	{"--ignore-file=", kRead, ""},                                     // not in --help
	{"--ignore-file-case-insensitive", kFlag, ""},                     // not in --help
	{"--engine=", kWord, ""},                                          // not in --help
	{"--dfa-size-limit=", kWord, ""},                                  // not in --help
	{"--regex-size-limit=", kWord, ""},                                // not in --help
	{"--context-separator=", kWord, ""},                               // not in --help
	{"--no-context-separator", kFlag, ""},                             // not in --help
	{"--field-match-separator=", kWord, ""},                           // not in --help
	{"--field-context-separator=", kWord, ""},                         // not in --help
	{"--pre=", kProgram, "runs a preprocessor program on every file"}, // not in --help
	{"--pre-glob=", kWord, ""},                                        // not in --help
	{"--hostname-bin=", kProgram, "runs a program for the host name"}, // not in --help
	{"--search-zip", kProgram, "runs decompression programs"},         // not in --help
	{"--files", kFlag, ""},                                            // not in --help
	{"--hidden", kHidden, ""},                                         // not in --help
	{"--no-ignore", kFlag, ""},                                        // not in --help
	{"--no-ignore-vcs", kFlag, ""},                                    // not in --help
	{"--no-ignore-parent", kFlag, ""},                                 // not in --help
	{"--no-ignore-dot", kFlag, ""},                                    // not in --help
	{"--no-ignore-global", kFlag, ""},                                 // not in --help
	{"--no-ignore-exclude", kFlag, ""},                                // not in --help
	{"--no-ignore-files", kFlag, ""},                                  // not in --help
	{"--no-ignore-messages", kFlag, ""},                               // not in --help
	{"--no-require-git", kFlag, ""},                                   // not in --help
	{"--count", kFlag, ""},                                            // not in --help
	{"--count-matches", kFlag, ""},                                    // not in --help
	{"--files-with-matches", kFlag, ""},                               // not in --help
	{"--files-without-match", kFlag, ""},                              // not in --help
	{"--fixed-strings", kFlag, ""},                                    // not in --help
	{"--ignore-case", kFlag, ""},                                      // not in --help
	{"--smart-case", kFlag, ""},                                       // not in --help
	{"--case-sensitive", kFlag, ""},                                   // not in --help
	{"--word-regexp", kFlag, ""},                                      // not in --help
	{"--line-regexp", kFlag, ""},                                      // not in --help
	{"--invert-match", kFlag, ""},                                     // not in --help
	{"--line-number", kFlag, ""},                                      // not in --help
	{"--no-line-number", kFlag, ""},                                   // not in --help
	{"--only-matching", kFlag, ""},                                    // not in --help
	{"--json", kFlag, ""},                                             // not in --help
	{"--vimgrep", kFlag, ""},                                          // not in --help
	{"--heading", kFlag, ""},                                          // not in --help
	{"--no-heading", kFlag, ""},                                       // not in --help
	{"--with-filename", kFlag, ""},                                    // not in --help
	{"--no-filename", kFlag, ""},                                      // not in --help
	{"--column", kFlag, ""},                                           // not in --help
	{"--no-column", kFlag, ""},                                        // not in --help
	{"--stats", kFlag, ""},                                            // not in --help
	{"--null", kFlag, ""},                                             // not in --help
	{"--null-data", kFlag, ""},                                        // not in --help
	{"--multiline", kFlag, ""},                                        // not in --help
	{"--multiline-dotall", kFlag, ""},                                 // not in --help
	{"--pcre2", kFlag, ""},                                            // not in --help
	{"--pcre2-version", kFlag, ""},                                    // not in --help
	{"--text", kFlag, ""},                                             // not in --help
	{"--quiet", kFlag, ""},                                            // not in --help
	{"--trim", kFlag, ""},                                             // not in --help
	{"--passthru", kFlag, ""},                                         // not in --help
	{"--no-messages", kFlag, ""},                                      // not in --help
	{"--follow", kFollow, ""},                                         // not in --help
	{"--unrestricted", kUnrestricted, ""},                             // not in --help
	{"--one-file-system", kFlag, ""},                                  // not in --help
	{"--byte-offset", kFlag, ""},                                      // not in --help
	{"--crlf", kFlag, ""},                                             // not in --help
	{"--mmap", kFlag, ""},                                             // not in --help
	{"--no-mmap", kFlag, ""},                                          // not in --help
	{"--binary", kFlag, ""},                                           // not in --help
	{"--no-binary", kFlag, ""},                                        // not in --help
	{"--block-buffered", kFlag, ""},                                   // not in --help
	{"--line-buffered", kFlag, ""},                                    // not in --help
	{"--include-zero", kFlag, ""},                                     // not in --help
	{"--no-unicode", kFlag, ""},                                       // not in --help
	{"--auto-hybrid-regex", kFlag, ""},                                // not in --help
	{"--debug", kFlag, ""},                                            // not in --help
	{"--trace", kFlag, ""},                                            // not in --help
	{"--pretty", kFlag, ""},                                           // not in --help
	{"--no-config", kFlag, ""},                                        // not in --help
	{"--maxdepth", kFlag, ""},                                         // not in --help
	{"--sort-files", kFlag, ""},                                       // not in --help
	{"--no-pcre2-unicode", kFlag, ""},                                 // not in --help
	{"--no-fixed-strings", kFlag, ""},                                 // not in --help
	{"--no-hidden", kFlag, ""},                                        // not in --help
	{"--no-follow", kFlag, ""},                                        // not in --help
	{"--no-text", kFlag, ""},                                          // not in --help
	{"--no-search-zip", kFlag, ""},                                    // not in --help
	{"--no-pre", kFlag, ""},                                           // not in --help
	{"--help", kFlag, ""},                                             // not in --help
	{"--version", kFlag, ""},                                          // not in --help
}

// readerSortRows are the options of sort.
var readerSortRows = []optRow{
	{"-b --ignore-leading-blanks", kFlag, ""},
	{"-d --dictionary-order", kFlag, ""},
	{"-f --ignore-case", kFlag, ""},
	{"-g --general-numeric-sort", kFlag, ""},
	{"-i --ignore-nonprinting", kFlag, ""},
	{"-M --month-sort", kFlag, ""},
	{"-h --human-numeric-sort", kFlag, ""},
	{"-n --numeric-sort", kFlag, ""},
	{"-R --random-sort", kFlag, ""},
	{"--random-source=", kRead, ""},
	{"-r --reverse", kFlag, ""},
	{"--sort=", kWord, ""},
	{"-V --version-sort", kFlag, ""},
	{"--batch-size=", kWord, ""},
	{"-c --check", kFlag, ""},
	{"-C", kFlag, ""},
	{"--compress-program=", kProgram, "runs a compression program"},
	{"--debug", kFlag, ""},
	{"--files0-from=", kList0, ""},
	{"-k= --key=", kWord, ""},
	{"-m --merge", kFlag, ""},
	{"-o= --output=", kWrite, "its output to a file"},
	{"-s --stable", kFlag, ""},
	{"-S= --buffer-size=", kWord, ""},
	{"-t= --field-separator=", kWord, ""},
	{"-T= --temporary-directory=", kWrite, "its temporary files into a directory"},
	{"--parallel=", kWord, ""},
	{"-u --unique", kFlag, ""},
	{"-z --zero-terminated", kFlag, ""},
	{"--help", kFlag, ""},
	{"--version", kFlag, ""},
}

// readerStatRows are the options of stat.
var readerStatRows = []optRow{
	{"-L --dereference", kFlag, ""},
	{"-f --file-system", kFlag, ""},
	{"--cached=", kWord, ""},
	{"-c=", kWord, ""},
	{"--printf=", kWord, ""},
	{"-t --terse", kFlag, ""},
	{"--help", kFlag, ""},
	{"--version", kFlag, ""},
	{"--format=", kWord, ""}, // not in --help
}

// readerTacRows are the options of tac.
var readerTacRows = []optRow{
	{"-b --before", kFlag, ""},
	{"-r --regex", kFlag, ""},
	{"-s= --separator=", kWord, ""},
	{"--help", kFlag, ""},
	{"--version", kFlag, ""},
}

// readerTailRows are the options of tail.
var readerTailRows = []optRow{
	{"-c= --bytes=", kWord, ""},
	{"-f --follow[=]", kEndless, "follows a file forever"},
	{"-F", kEndless, "follows a file forever"},
	{"-n= --lines=", kWord, ""},
	{"--max-unchanged-stats=", kWord, ""},
	{"--pid=", kWord, ""},
	{"-q --quiet --silent", kFlag, ""},
	{"--retry", kFlag, ""},
	{"-s= --sleep-interval=", kWord, ""},
	{"-v --verbose", kFlag, ""},
	{"-z --zero-terminated", kFlag, ""},
	{"--help", kFlag, ""},
	{"--version", kFlag, ""},
}

// readerUniqRows are the options of uniq.
var readerUniqRows = []optRow{
	{"-c --count", kFlag, ""},
	{"-d --repeated", kFlag, ""},
	{"-D", kFlag, ""},
	{"--all-repeated[=]", kFlag, ""},
	{"-f= --skip-fields=", kWord, ""},
	{"--group[=]", kFlag, ""},
	{"-i --ignore-case", kFlag, ""},
	{"-s= --skip-chars=", kWord, ""},
	{"-u --unique", kFlag, ""},
	{"-z --zero-terminated", kFlag, ""},
	{"-w= --check-chars=", kWord, ""},
	{"--help", kFlag, ""},
	{"--version", kFlag, ""},
}

// readerWcRows are the options of wc.
var readerWcRows = []optRow{
	{"-c --bytes", kFlag, ""},
	{"-m --chars", kFlag, ""},
	{"-l --lines", kFlag, ""},
	{"--files0-from=", kList0, ""},
	{"-L --max-line-length", kFlag, ""},
	{"-w --words", kFlag, ""},
	{"--help", kFlag, ""},
	{"--version", kFlag, ""},
	{"--total", kFlag, ""}, // not in --help
}

// findLeadingSpec is find's leading options, before its starting points
// (find(1)): -L follows links, -H only those of the starting points, -P
// none; -D's debug options and -O's level change nothing it reaches.
var findLeadingSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "find", grammar: grammar{whole: true}, rows: []optRow{
		{"-L", kFollow, ""},
		{"-H -P", kNoFollow, ""},
		{"-D= -O[=]", kWord, ""},
	}}).compile()
})

// listedArgReaders are the readers that read every operand as a file,
// whatever its place: an operand that is "$(LISTING)" gives them the
// paths the listing prints, each read ("wc -l $(git ls-files src)").
// grep's first operand is its pattern and uniq's second its output: the
// place of a name decides there, and the order in which the listing
// prints its names is not modelled, so they are not here.
var listedArgReaders = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"cat": true, "wc": true, "head": true, "tail": true, "nl": true, "tac": true, "rev": true, "file": true, "stat": true,
		"ls": true, "du": true, "md5sum": true, "sha1sum": true, "sha224sum": true, "sha256sum": true, "sha384sum": true,
		"sha512sum": true, "b2sum": true, "cksum": true,
	}
})

package bashguard

// The listers' knowledge, as data: for each command whose output a loop
// or xargs may read as names (model_list.go), what each option it takes does
// to what it prints. Every spelling is one of the command's spec; the
// scanner resolves abbreviations, clusters and attached values to it. An
// option not named here makes the command no lister, and what reads its
// output stays asked.

// gitListing names git's own options a lister may follow.
var gitListing = &listModel{opts: []listOpt{
	{"--no-pager", lPlain, ""},
}}

// gitLsFilesListing is git ls-files: the names of the index, or of the
// work tree with -o, -i, -k.
var gitLsFilesListing = &listModel{repo: true, index: true, operands: opInside | opNoMagic | opPathStarts, opts: []listOpt{
	{"-z", lPrint0, ""},
	{"--others --ignored --killed --directory --recurse-submodules", lBeyondIndex, ""},
	{"--cached --deleted --modified --exclude --exclude-from --exclude-per-directory --exclude-standard", lPlain, ""},
	{"--no-empty-directory --full-name --deduplicate --error-unmatch --sparse", lPlain, ""},
}}

// gitGrepListing is git grep -l: the tracked files that match.
var gitGrepListing = &listModel{repo: true, index: true, needs: []listEffect{lNames}, pattern: patRequired,
	operands: opInside | opNoMagic | opExists, opts: []listOpt{
		{"--files-with-matches --files-without-match --name-only", lNames, ""},
		{"--null", lPrint0, ""},
		{"-e -f", lPattern, ""},
		{"--untracked", lBeyondIndex, ""},
		{"--ignore-case --word-regexp --invert-match --extended-regexp --fixed-strings --basic-regexp --perl-regexp", lPlain, ""},
		{"-I --text --cached --full-name --recursive --no-recursive --all-match --and --or --not", lPlain, ""},
		{"--exclude-standard --no-exclude-standard --max-depth --max-count --threads", lPlain, ""},
	}}

// gitDiffListing is git diff --name-only: the names of the changed files.
var gitDiffListing = &listModel{repo: true, needs: []listEffect{lNames}, operands: opInside | opNoColon | opInTop, opts: []listOpt{
	{"--name-only", lNames, ""},
	{"-z", lPrint0, ""},
	{"-R --text --cached --no-renames --no-ext-diff --no-color --relative --no-relative --diff-filter", lPlain, ""},
	{"--find-renames --find-copies --break-rewrites --ignore-submodules --minimal --patience --histogram", lPlain, ""},
	{"--ignore-all-space --ignore-space-change --ignore-blank-lines --ignore-cr-at-eol --ignore-space-at-eol", lPlain, ""},
}}

// rgListing is rg -l (the files that match) and rg --files (every file it
// would search).
var rgListing = &listModel{needs: []listEffect{lNames | lFiles}, pattern: patRequired, operands: opStarts, skipHidden: true, opts: []listOpt{
	{"-l --files-with-matches --files-without-match", lNames, ""},
	{"--files", lFiles, ""},
	{"-. --hidden", lHidden, ""},
	{"-u --unrestricted", lUnrestricted, ""},
	{"-L --follow", lFollow, ""},
	{"-0 --null", lPrint0, ""},
	{"-e -f --regexp --file", lPattern, ""},
	{"--color", lPlain, "never"},
	{"-i -S -s -w -x -F -v -U -P -H -a -j -m -d -t -T -g", lPlain, ""},
	{"--max-depth --type --type-not --glob --iglob --max-count --threads --sort --sortr --max-filesize --ignore-file --type-add", lPlain, ""},
	{"--ignore-case --smart-case --case-sensitive --word-regexp --line-regexp --fixed-strings --invert-match --multiline", lPlain, ""},
	{"--pcre2 --text --no-ignore --no-ignore-vcs --no-ignore-dot --no-ignore-parent --no-ignore-global --no-ignore-exclude", lPlain, ""},
	{"--no-messages --no-config --one-file-system --no-require-git --binary --with-filename", lPlain, ""},
}}

// grepListing is grep -rl: the files below its operands that match.
var grepListing = &listModel{needs: []listEffect{lNames, lRecursive}, pattern: patRequired, operands: opStarts, opts: []listOpt{
	{"--recursive", lRecursive, ""},
	{"--dereference-recursive", lRecursive | lFollow, ""},
	{"--files-with-matches --files-without-match", lNames, ""},
	{"--null", lPrint0, ""},
	{"--regexp --file", lPattern, ""},
	{"--color --colour", lPlain, "never"},
	{"--ignore-case --no-ignore-case -y --word-regexp --line-regexp --fixed-strings --extended-regexp --basic-regexp", lPlain, ""},
	{"--perl-regexp --invert-match --no-messages -I --text --with-filename", lPlain, ""},
	{"--include --exclude --exclude-dir --exclude-from --max-count --binary-files", lPlain, ""},
}}

// fdListRows are fd's (and fdfind's): the names below its starting
// points, without -x, -X, -l or --format.
var fdListRows = []listOpt{
	{"--hidden --unrestricted", lHidden, ""},
	{"--follow", lFollow, ""},
	{"--print0", lPrint0, ""},
	{"--search-path", lStart, ""},
	{"--color", lPlain, "never auto"},
	{"--no-ignore --no-ignore-vcs --no-ignore-parent --case-sensitive --ignore-case --glob --regex --fixed-strings", lPlain, ""},
	{"--absolute-path --full-path --prune --show-errors --one-file-system --strip-cwd-prefix -1", lPlain, ""},
	{"--max-depth --min-depth --exact-depth --type --extension --exclude --size --changed-within --changed-before", lPlain, ""},
	{"--owner --max-results --ignore-file --threads", lPlain, ""},
}

// lsListing is ls of the working directory, one name a line.
var lsListing = &listModel{skipHidden: true, depth: 1, operands: opDot, opts: []listOpt{
	{"--almost-all", lHidden, ""},
	{"--color", lPlain, "never"},
	{"--sort", lPlain, "none size time version extension name width"},
	{"-1 --reverse -t -S -U -X -v -c -u --group-directories-first", lPlain, ""},
}}

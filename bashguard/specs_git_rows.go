package bashguard

// git's knowledge, as data: every subcommand the guard allows (or judges
// before asking), with every option its own -h lists (git-log(1),
// git-diff(1) and git-rev-list(1) for the revision and diff options, which
// -h does not list), each classified by what it does. spec_help_test.go
// reads the options of the installed git and fails on one these tables do
// not classify.
//
// The arity of an option matters as much as its kind: an option the table
// took to require a value would hide the next word, which git reads as a
// pathspec. Where git reads a value only attached (the revision options'
// --pretty=FORMAT), the table says so ("[=]"); a value git takes as the
// next word too is "=" (--since DATE). Each was tried on git itself.

// gitDiffRows are the diff options, shared by every git command that prints a diff (git-diff(1), DIFF OPTIONS)
var gitDiffRows = []optRow{
	{"-p --patch", kContent, ""},
	{"-s --no-patch", kFormat, ""},
	{"-u", kContent, ""},
	{"-U[=] --unified[=]", kContent, ""},
	{"-W --function-context", kContent, ""},
	{"--raw", kFormat, ""},
	{"--patch-with-raw", kContent, ""},
	{"--patch-with-stat", kContent, ""},
	{"--numstat", kFormat, ""},
	{"--shortstat", kFormat, ""},
	{"-X[=] --dirstat[=]", kFormat, ""},
	{"--cumulative", kFlag, ""},
	{"--dirstat-by-file[=]", kFormat, ""},
	{"--check", kContent, ""},
	{"--summary", kFormat, ""},
	{"--name-only", kFormat, ""},
	{"--name-status", kFormat, ""},
	{"--stat[=]", kFormat, ""},
	{"--stat-width=", kWord, ""},
	{"--stat-name-width=", kWord, ""},
	{"--stat-graph-width=", kWord, ""},
	{"--stat-count=", kWord, ""},
	{"--compact-summary", kFormat, ""},
	{"--binary", kContent, ""},
	{"--full-index", kFlag, ""},
	{"--color[=]", kWord, ""},
	{"--ws-error-highlight=", kWord, ""},
	{"-z", kFlag, ""},
	{"--abbrev[=]", kWord, ""},
	{"--src-prefix=", kWord, ""},
	{"--dst-prefix=", kWord, ""},
	{"--line-prefix=", kWord, ""},
	{"--no-prefix", kFlag, ""},
	{"--inter-hunk-context=", kWord, ""},
	{"--output-indicator-new=", kWord, ""},
	{"--output-indicator-old=", kWord, ""},
	{"--output-indicator-context=", kWord, ""},
	{"-B[=] --break-rewrites[=]", kWord, ""},
	{"-M[=] --find-renames[=]", kWord, ""},
	{"-D --irreversible-delete", kFlag, ""},
	{"-C[=] --find-copies[=]", kWord, ""},
	{"--find-copies-harder", kFlag, ""},
	{"--no-renames", kFlag, ""},
	{"--rename-empty", kFlag, ""},
	{"--follow", kRenames, ""},
	{"-l=", kWord, ""},
	{"--minimal", kFlag, ""},
	{"-w --ignore-all-space", kFlag, ""},
	{"-b --ignore-space-change", kFlag, ""},
	{"--ignore-space-at-eol", kFlag, ""},
	{"--ignore-cr-at-eol", kFlag, ""},
	{"--ignore-blank-lines", kFlag, ""},
	{"-I= --ignore-matching-lines=", kPattern, ""},
	{"--indent-heuristic", kFlag, ""},
	{"--patience", kFlag, ""},
	{"--histogram", kFlag, ""},
	{"--diff-algorithm=", kWord, ""},
	{"--anchored=", kWord, ""},
	{"--word-diff[=]", kContent, ""},
	{"--word-diff-regex=", kContent, ""},
	{"--color-words[=]", kContent, ""},
	{"--color-moved[=]", kWord, ""},
	{"--color-moved-ws=", kWord, ""},
	{"--relative[=]", kWord, ""},
	{"-a --text", kFlag, ""},
	{"-R", kFlag, ""},
	{"--ext-diff", kProgram, "runs the repository's external diff program"},
	{"--textconv", kProgram, "runs the repository's textconv filters"},
	{"--ignore-submodules[=]", kWord, ""},
	{"--submodule[=]", kContent, ""},
	{"--ita-invisible-in-index", kFlag, ""},
	{"--ita-visible-in-index", kFlag, ""},
	{"-S=", kPattern, ""},
	{"-G=", kPattern, ""},
	{"--pickaxe-all", kFlag, ""},
	{"--pickaxe-regex", kFlag, ""},
	{"-O=", kRead, ""},
	{"--rotate-to=", kWord, ""},
	{"--skip-to=", kWord, ""},
	{"--find-object=", kWord, ""},
	{"--diff-filter=", kWord, ""},
	{"--output=", kWrite, "its output to a file"},
	{"--no-color", kFlag, ""},
	{"--no-color-moved", kFlag, ""},
	{"--no-color-moved-ws", kFlag, ""},
	{"--no-ext-diff", kFlag, ""},
	{"--no-indent-heuristic", kFlag, ""},
	{"--no-relative", kFlag, ""},
	{"--no-rename-empty", kFlag, ""},
	{"--no-textconv", kFlag, ""},
}

// gitRevRows are the revision options, shared by git log, show, rev-list and shortlog (git-rev-list(1))
var gitRevRows = []optRow{
	{"--quiet", kFlag, ""},
	{"--abbrev-commit", kFlag, ""},
	{"--after=", kWord, ""},
	{"--all", kFlag, ""},
	{"--all-match", kFlag, ""},
	{"--alternate-refs", kFlag, ""},
	{"--ancestry-path[=]", kWord, ""},
	{"--author=", kPattern, ""},
	{"--author-date-order", kFlag, ""},
	{"--basic-regexp", kFlag, ""},
	{"--before=", kWord, ""},
	{"--bisect", kFlag, ""},
	{"--bisect-all", kFlag, ""},
	{"--bisect-vars", kFlag, ""},
	{"--boundary", kFlag, ""},
	{"--branches[=]", kWord, ""},
	{"--cherry", kFlag, ""},
	{"--cherry-mark", kFlag, ""},
	{"--cherry-pick", kFlag, ""},
	{"--children", kFlag, ""},
	{"--commit-header", kFlag, ""},
	{"--committer=", kPattern, ""},
	{"--count", kFlag, ""},
	{"--date=", kWord, ""},
	{"--date-order", kFlag, ""},
	{"--dense", kFlag, ""},
	{"--disk-usage[=]", kWord, ""},
	{"--do-walk", kFlag, ""},
	{"--encoding=", kWord, ""},
	{"--exclude=", kWord, ""},
	{"--exclude-first-parent-only", kFlag, ""},
	{"--exclude-hidden=", kWord, ""},
	{"--exclude-promisor-objects", kFlag, ""},
	{"--expand-tabs[=]", kWord, ""},
	{"--extended-regexp", kFlag, ""},
	{"--filter[=]", kWord, ""},
	{"--filter-print-omitted", kFlag, ""},
	{"--filter-provided-objects", kFlag, ""},
	{"--first-parent", kFlag, ""},
	{"--fixed-strings", kFlag, ""},
	{"--format[=]", kWord, ""},
	{"--full-history", kFlag, ""},
	{"--glob=", kWord, ""},
	{"--graph", kFlag, ""},
	{"--grep=", kPattern, ""},
	{"--grep-reflog=", kPattern, ""},
	{"--header", kFlag, ""},
	{"--ignore-missing", kFlag, ""},
	{"--in-commit-order", kFlag, ""},
	{"--indexed-objects", kFlag, ""},
	{"--invert-grep", kFlag, ""},
	{"--left-only", kFlag, ""},
	{"--left-right", kFlag, ""},
	{"--max-age=", kWord, ""},
	{"--max-count=", kWord, ""},
	{"--max-parents[=]", kWord, ""},
	{"--merge", kFlag, ""},
	{"--merges", kFlag, ""},
	{"--min-age=", kWord, ""},
	{"--min-parents[=]", kWord, ""},
	{"--missing[=]", kWord, ""},
	{"--no-abbrev-commit", kFlag, ""},
	{"--no-commit-header", kFlag, ""},
	{"--no-expand-tabs", kFlag, ""},
	{"--no-filter", kFlag, ""},
	{"--no-max-parents", kFlag, ""},
	{"--no-merges", kFlag, ""},
	{"--no-min-parents", kFlag, ""},
	{"--no-object-names", kFlag, ""},
	{"--no-walk[=]", kWord, ""},
	{"--not", kFlag, ""},
	{"--object-names", kFlag, ""},
	{"--objects", kFlag, ""},
	{"--objects-edge", kFlag, ""},
	{"--objects-edge-aggressive", kFlag, ""},
	{"--oneline", kFlag, ""},
	{"--parents", kFlag, ""},
	{"--perl-regexp", kFlag, ""},
	{"--pretty[=]", kWord, ""},
	{"--progress[=]", kWord, ""},
	{"--reflog", kFlag, ""},
	{"--regexp-ignore-case", kFlag, ""},
	{"--relative-date", kFlag, ""},
	{"--remotes[=]", kWord, ""},
	{"--remove-empty", kFlag, ""},
	{"--reverse", kFlag, ""},
	{"--right-only", kFlag, ""},
	{"--show-linear-break[=]", kWord, ""},
	{"--show-pulls", kFlag, ""},
	{"--show-signature", kFlag, ""},
	{"--simplify-by-decoration", kFlag, ""},
	{"--simplify-merges", kFlag, ""},
	{"--since=", kWord, ""},
	{"--since-as-filter=", kWord, ""},
	{"--single-worktree", kFlag, ""},
	{"--skip=", kWord, ""},
	{"--sparse", kFlag, ""},
	{"--stdin", kFlag, ""},
	{"--tags[=]", kWord, ""},
	{"--timestamp", kFlag, ""},
	{"--topo-order", kFlag, ""},
	{"--unpacked", kFlag, ""},
	{"--until=", kWord, ""},
	{"--use-bitmap-index", kFlag, ""},
	{"--walk-reflogs", kFlag, ""},
	{"-E", kFlag, ""},
	{"-F", kFlag, ""},
	{"-P", kFlag, ""},
	{"-g", kFlag, ""},
	{"-i", kFlag, ""},
	{"-n=", kWord, ""},
}

// gitLogRows are the options git log has beyond the revision and diff options (git-log(1))
var gitLogRows = []optRow{
	{"--cc", kContent, ""},
	{"--clear-decorations", kFlag, ""},
	{"--combined-all-paths", kFlag, ""},
	{"--decorate[=]", kWord, ""},
	{"--decorate-refs=", kWord, ""},
	{"--decorate-refs-exclude=", kWord, ""},
	{"--diff-merges=", kContent, ""},
	{"--follow", kRenames, ""},
	{"--full-diff", kFlag, ""},
	{"--log-size", kFlag, ""},
	{"--mailmap", kFlag, ""},
	{"--no-decorate", kFlag, ""},
	{"--no-diff-merges", kFlag, ""},
	{"--no-mailmap", kFlag, ""},
	{"--no-notes", kFlag, ""},
	{"--no-standard-notes", kFlag, ""},
	{"--no-use-mailmap", kFlag, ""},
	{"--notes[=]", kWord, ""},
	{"--remerge-diff", kContent, ""},
	{"--show-notes[=]", kWord, ""},
	{"--source", kFlag, ""},
	{"--standard-notes", kFlag, ""},
	{"--use-mailmap", kFlag, ""},
	{"-L=", kRangeFile, ""},
	{"-c", kContent, ""},
	{"-m", kContent, ""},
	{"-t", kFlag, ""},
}

// gitStatusRows are the options git status -h lists.
var gitStatusRows = []optRow{
	{"-v --verbose", kContent, ""},
	{"-s --short", kFlag, ""},
	{"-b --branch", kFlag, ""},
	{"--show-stash", kFlag, ""},
	{"--ahead-behind", kFlag, ""},
	{"--porcelain[=]", kWord, ""},
	{"--long", kFlag, ""},
	{"-z --null", kFlag, ""},
	{"-u[=] --untracked-files[=]", kWord, ""},
	{"--ignored[=]", kWord, ""},
	{"--ignore-submodules[=]", kWord, ""},
	{"--column[=]", kWord, ""},
	{"--no-renames", kFlag, ""},
	{"-M[=] --find-renames[=]", kWord, ""},
}

// gitGrepRows are the options git grep -h lists.
var gitGrepRows = []optRow{
	{"--cached", kFlag, ""},
	{"--no-index", kFlag, ""},
	{"--untracked", kFlag, ""},
	{"--exclude-standard", kFlag, ""},
	{"--recurse-submodules", kFlag, ""},
	{"-v --invert-match", kFlag, ""},
	{"-i --ignore-case", kFlag, ""},
	{"-w --word-regexp", kFlag, ""},
	{"-a --text", kFlag, ""},
	{"-I", kFlag, ""},
	{"--textconv", kProgram, "runs the repository's textconv filters"},
	{"-r --recursive", kFlag, ""},
	{"--max-depth=", kWord, ""},
	{"-E --extended-regexp", kFlag, ""},
	{"-G --basic-regexp", kFlag, ""},
	{"-F --fixed-strings", kFlag, ""},
	{"-P --perl-regexp", kFlag, ""},
	{"-n --line-number", kFlag, ""},
	{"--column", kFlag, ""},
	{"-h", kFlag, ""},
	{"-H", kFlag, ""},
	{"--full-name", kFlag, ""},
	{"-l --files-with-matches", kFlag, ""},
	{"--name-only", kFlag, ""},
	{"-L --files-without-match", kFlag, ""},
	{"-z --null", kFlag, ""},
	{"-o --only-matching", kFlag, ""},
	{"-c --count", kFlag, ""},
	{"--color[=]", kWord, ""},
	{"--break", kFlag, ""},
	{"--heading", kFlag, ""},
	{"-C= --context=", kWord, ""},
	{"-B= --before-context=", kWord, ""},
	{"-A= --after-context=", kWord, ""},
	{"--threads=", kWord, ""},
	{"-p --show-function", kFlag, ""},
	{"-W --function-context", kFlag, ""},
	{"-f=", kRead, ""},
	{"-e=", kPattern, ""},
	{"--and", kFlag, ""},
	{"--or", kFlag, ""},
	{"--not", kFlag, ""},
	{"-q --quiet", kFlag, ""},
	{"--all-match", kFlag, ""},
	{"-O[=] --open-files-in-pager[=]", kProgram, "opens the matching files in a program"},
	{"--ext-grep", kProgram, "runs grep(1)"},
	{"-m= --max-count=", kWord, ""},
}

// gitBlameRows are the options git blame -h lists.
var gitBlameRows = []optRow{
	{"--incremental", kFlag, ""},
	{"-b", kFlag, ""},
	{"--root", kFlag, ""},
	{"--show-stats", kFlag, ""},
	{"--progress", kFlag, ""},
	{"--score-debug", kFlag, ""},
	{"-f --show-name", kFlag, ""},
	{"-n --show-number", kFlag, ""},
	{"-p --porcelain", kFlag, ""},
	{"--line-porcelain", kFlag, ""},
	{"-c", kFlag, ""},
	{"-t", kFlag, ""},
	{"-l", kFlag, ""},
	{"-s", kFlag, ""},
	{"-e --show-email", kFlag, ""},
	{"-w", kFlag, ""},
	{"--ignore-rev=", kWord, ""},
	{"--ignore-revs-file=", kRead, ""},
	{"--color-lines", kFlag, ""},
	{"--color-by-age", kFlag, ""},
	{"--minimal", kFlag, ""},
	{"-S=", kRead, ""},
	{"--contents=", kRead, ""},
	{"-C[=]", kWord, ""},
	{"-M[=]", kWord, ""},
	{"-L=", kWord, ""},
	{"--abbrev[=]", kWord, ""},
}

// gitLsFilesRows are the options git ls-files -h lists.
var gitLsFilesRows = []optRow{
	{"-z", kFlag, ""},
	{"-t", kFlag, ""},
	{"-v", kFlag, ""},
	{"-f", kFlag, ""},
	{"-c --cached", kFlag, ""},
	{"-d --deleted", kFlag, ""},
	{"-m --modified", kFlag, ""},
	{"-o --others", kFlag, ""},
	{"-i --ignored", kFlag, ""},
	{"-s --stage", kFlag, ""},
	{"-k --killed", kFlag, ""},
	{"--directory", kFlag, ""},
	{"--eol", kFlag, ""},
	{"--empty-directory", kFlag, ""},
	{"-u --unmerged", kFlag, ""},
	{"--resolve-undo", kFlag, ""},
	{"-x= --exclude=", kPattern, ""},
	{"-X= --exclude-from=", kRead, ""},
	{"--exclude-per-directory=", kWord, ""},
	{"--exclude-standard", kFlag, ""},
	{"--full-name", kFlag, ""},
	{"--recurse-submodules", kFlag, ""},
	{"--error-unmatch", kFlag, ""},
	{"--with-tree=", kWord, ""},
	{"--abbrev[=]", kWord, ""},
	{"--debug", kFlag, ""},
	{"--deduplicate", kFlag, ""},
	{"--sparse", kFlag, ""},
	{"--format=", kWord, ""},
}

// gitLsTreeRows are the options git ls-tree -h lists.
var gitLsTreeRows = []optRow{
	{"-d", kFlag, ""},
	{"-r", kFlag, ""},
	{"-t", kFlag, ""},
	{"-z", kFlag, ""},
	{"-l --long", kFlag, ""},
	{"--name-only", kFlag, ""},
	{"--name-status", kFlag, ""},
	{"--object-only", kFlag, ""},
	{"--full-name", kFlag, ""},
	{"--full-tree", kFlag, ""},
	{"--format=", kWord, ""},
	{"--abbrev[=]", kWord, ""},
}

// gitConfigRows are the options git config -h lists.
var gitConfigRows = []optRow{
	{"--global", kFlag, ""},
	{"--system", kFlag, ""},
	{"--local", kFlag, ""},
	{"--worktree", kFlag, ""},
	{"-f= --file=", kStore, ""},
	{"--blob=", kWord, ""},
	{"--get", kFlag, ""},
	{"--get-all", kFlag, ""},
	{"--get-regexp", kFlag, ""},
	{"--get-urlmatch", kFlag, ""},
	{"--replace-all", kChange, "changes the configuration"},
	{"--add", kChange, "changes the configuration"},
	{"--unset", kChange, "changes the configuration"},
	{"--unset-all", kChange, "changes the configuration"},
	{"--rename-section", kChange, "changes the configuration"},
	{"--remove-section", kChange, "changes the configuration"},
	{"-l --list", kFlag, ""},
	{"--fixed-value", kFlag, ""},
	{"-e --edit", kProgram, "opens the configuration in an editor"},
	{"--get-color", kFlag, ""},
	{"--get-colorbool", kFlag, ""},
	{"-t= --type=", kWord, ""},
	{"--bool", kFlag, ""},
	{"--int", kFlag, ""},
	{"--bool-or-int", kFlag, ""},
	{"--bool-or-str", kFlag, ""},
	{"--path", kFlag, ""},
	{"--expiry-date", kFlag, ""},
	{"-z --null", kFlag, ""},
	{"--name-only", kFlag, ""},
	{"--includes", kFlag, ""},
	{"--show-origin", kFlag, ""},
	{"--show-scope", kFlag, ""},
	{"--default=", kWord, ""},
}

// gitBranchRows are the options git branch -h lists.
var gitBranchRows = []optRow{
	{"-v --verbose", kFlag, ""},
	{"-q --quiet", kFormat, ""},
	{"-t[=] --track[=]", kChange, "sets a branch's upstream"},
	{"-u= --set-upstream-to=", kChange, "sets a branch's upstream"},
	{"--unset-upstream", kChange, "changes a branch's upstream"},
	{"--color[=]", kWord, ""},
	{"-r --remotes", kFlag, ""},
	{"--contains=", kWord, ""},
	{"--no-contains=", kWord, ""},
	{"--abbrev[=]", kWord, ""},
	{"-a --all", kFlag, ""},
	{"-d --delete", kChange, "deletes branches"},
	{"-D", kChange, "deletes branches"},
	{"-m --move", kChange, "renames a branch"},
	{"-M", kChange, "renames a branch"},
	{"-c --copy", kChange, "copies a branch"},
	{"-C", kChange, "copies a branch"},
	{"-l --list", kFlag, ""},
	{"--show-current", kFlag, ""},
	{"--create-reflog", kChange, "creates a reflog"},
	{"--edit-description", kProgram, "opens a branch's description in an editor"},
	{"-f --force", kChange, "forces a change of branches"},
	{"--merged=", kWord, ""},
	{"--no-merged=", kWord, ""},
	{"--column[=]", kWord, ""},
	{"--sort=", kWord, ""},
	{"--points-at=", kWord, ""},
	{"-i --ignore-case", kFlag, ""},
	{"--recurse-submodules", kFlag, ""},
	{"--format=", kWord, ""},
}

// gitTagRows are the options git tag -h lists.
var gitTagRows = []optRow{
	{"-l --list", kFlag, ""},
	{"-n[=]", kWord, ""},
	{"-d --delete", kChange, "deletes tags"},
	{"-v --verify", kProgram, "runs gpg to verify tags"},
	{"-a --annotate", kChange, "creates a tag"},
	{"-m= --message=", kChange, "creates a tag"},
	{"-F= --file=", kChange, "creates a tag"},
	{"-e --edit", kProgram, "opens the tag message in an editor"},
	{"-s --sign", kProgram, "runs gpg to sign a tag"},
	{"--cleanup=", kChange, "creates a tag"},
	{"-u= --local-user=", kProgram, "runs gpg to sign a tag"},
	{"-f --force", kChange, "replaces a tag"},
	{"--create-reflog", kChange, "creates a reflog"},
	{"--column[=]", kWord, ""},
	{"--contains=", kWord, ""},
	{"--no-contains=", kWord, ""},
	{"--merged=", kWord, ""},
	{"--no-merged=", kWord, ""},
	{"--sort=", kWord, ""},
	{"--points-at=", kWord, ""},
	{"--format=", kWord, ""},
	{"--color[=]", kWord, ""},
	{"-i --ignore-case", kFlag, ""},
}

// gitDescribeRows are the options git describe -h lists.
var gitDescribeRows = []optRow{
	{"--contains", kFlag, ""},
	{"--debug", kFlag, ""},
	{"--all", kFlag, ""},
	{"--tags", kFlag, ""},
	{"--long", kFlag, ""},
	{"--first-parent", kFlag, ""},
	{"--abbrev[=]", kWord, ""},
	{"--exact-match", kFlag, ""},
	{"--candidates=", kWord, ""},
	{"--match=", kWord, ""},
	{"--exclude=", kWord, ""},
	{"--always", kFlag, ""},
	{"--dirty[=]", kWord, ""},
	{"--broken[=]", kWord, ""},
}

// gitShortlogRows are the options git shortlog -h lists.
var gitShortlogRows = []optRow{
	{"-c --committer", kFlag, ""},
	{"-n --numbered", kFlag, ""},
	{"-s --summary", kFlag, ""},
	{"-e --email", kFlag, ""},
	{"-w[=]", kWord, ""},
	{"--group=", kWord, ""},
}

// gitCatFileRows are the options git cat-file -h lists.
var gitCatFileRows = []optRow{
	{"-e", kFlag, ""},
	{"-p", kContent, ""},
	{"-t", kFlag, ""},
	{"-s", kFlag, ""},
	{"--allow-unknown-type", kFlag, ""},
	{"--use-mailmap", kFlag, ""},
	{"--mailmap", kFlag, ""},
	{"--batch[=]", kAsk, "prints the objects its input names, which cannot be known here"},
	{"--batch-check[=]", kWord, ""},
	{"-z", kFlag, ""},
	{"--batch-command[=]", kAsk, "prints the objects its input names, which cannot be known here"},
	{"--batch-all-objects", kAsk, "prints every object of the repository"},
	{"--buffer", kFlag, ""},
	{"--follow-symlinks", kFlag, ""},
	{"--unordered", kFlag, ""},
	{"--textconv", kProgram, "runs the repository's textconv filters"},
	{"--filters", kProgram, "runs the repository's filter programs"},
	{"--path", kFlag, ""},
}

// gitNameRevRows are the options git name-rev -h lists.
var gitNameRevRows = []optRow{
	{"--name-only", kFormat, ""},
	{"--tags", kFlag, ""},
	{"--refs=", kWord, ""},
	{"--exclude=", kWord, ""},
	{"--all", kFlag, ""},
	{"--stdin", kFlag, ""},
	{"--annotate-stdin", kFlag, ""},
	{"--undefined", kFlag, ""},
	{"--always", kFlag, ""},
}

// gitMergeBaseRows are the options git merge-base -h lists.
var gitMergeBaseRows = []optRow{
	{"-a --all", kFlag, ""},
	{"--octopus", kFlag, ""},
	{"--independent", kFlag, ""},
	{"--is-ancestor", kFlag, ""},
	{"--fork-point", kFlag, ""},
}

// gitShowRefRows are the options git show-ref -h lists.
var gitShowRefRows = []optRow{
	{"--tags", kFlag, ""},
	{"--heads", kFlag, ""},
	{"--verify", kFlag, ""},
	{"--head", kFlag, ""},
	{"-d --dereference", kFlag, ""},
	{"-s[=] --hash[=]", kFormat, ""},
	{"--abbrev[=]", kWord, ""},
	{"-q --quiet", kFormat, ""},
	{"--exclude-existing[=]", kWord, ""},
}

// gitCountObjectsRows are the options git count-objects -h lists.
var gitCountObjectsRows = []optRow{
	{"-v --verbose", kFlag, ""},
	{"-H --human-readable", kFlag, ""},
}

// gitForEachRefRows are the options git for-each-ref -h lists.
var gitForEachRefRows = []optRow{
	{"-s --shell", kFormat, ""},
	{"-p --perl", kFlag, ""},
	{"--python", kFlag, ""},
	{"--tcl", kFlag, ""},
	{"--count=", kWord, ""},
	{"--format=", kWord, ""},
	{"--color[=]", kWord, ""},
	{"--sort=", kWord, ""},
	{"--points-at=", kWord, ""},
	{"--merged=", kWord, ""},
	{"--no-merged=", kWord, ""},
	{"--contains=", kWord, ""},
	{"--no-contains=", kWord, ""},
	{"--ignore-case", kFlag, ""},
}

// gitCheckIgnoreRows are the options git check-ignore -h lists.
var gitCheckIgnoreRows = []optRow{
	{"-q --quiet", kFormat, ""},
	{"-v --verbose", kFlag, ""},
	{"--stdin", kFlag, ""},
	{"-z", kFlag, ""},
	{"-n --non-matching", kFlag, ""},
	{"--no-index", kFlag, ""},
}

// gitCheckAttrRows are the options git check-attr -h lists.
var gitCheckAttrRows = []optRow{
	{"-a --all", kFlag, ""},
	{"--cached", kFlag, ""},
	{"--stdin", kFlag, ""},
	{"-z", kFlag, ""},
}

// gitCherryRows are the options git cherry -h lists.
var gitCherryRows = []optRow{
	{"--abbrev[=]", kWord, ""},
	{"-v --verbose", kFlag, ""},
}

// gitSymbolicRefRows are the options git symbolic-ref -h lists.
var gitSymbolicRefRows = []optRow{
	{"-q --quiet", kFormat, ""},
	{"-d --delete", kChange, "deletes a ref"},
	{"--short", kFlag, ""},
	{"--recurse", kFlag, ""},
	{"-m=", kChange, "changes a ref"},
}

// gitShowBranchRows are the options git show-branch -h lists.
var gitShowBranchRows = []optRow{
	{"-a --all", kFlag, ""},
	{"-r --remotes", kFlag, ""},
	{"--color[=]", kWord, ""},
	{"--more[=]", kWord, ""},
	{"--list", kFlag, ""},
	{"--no-name", kFlag, ""},
	{"--current", kFlag, ""},
	{"--sha1-name", kFlag, ""},
	{"--merge-base", kFlag, ""},
	{"--independent", kFlag, ""},
	{"--topo-order", kFlag, ""},
	{"--topics", kFlag, ""},
	{"--sparse", kFlag, ""},
	{"--date-order", kFlag, ""},
	{"-g[=] --reflog[=]", kWord, ""},
}

// gitFsckRows are the options git fsck -h lists.
var gitFsckRows = []optRow{
	{"-v --verbose", kFlag, ""},
	{"--unreachable", kFlag, ""},
	{"--dangling", kFlag, ""},
	{"--tags", kFlag, ""},
	{"--root", kFlag, ""},
	{"--cache", kFlag, ""},
	{"--reflogs", kFlag, ""},
	{"--full", kFlag, ""},
	{"--connectivity-only", kFlag, ""},
	{"--strict", kFlag, ""},
	{"--lost-found", kChange, "writes the dangling objects into .git/lost-found"},
	{"--progress", kFlag, ""},
	{"--name-objects", kFlag, ""},
}

// gitHelpRows are the options git help -h lists.
var gitHelpRows = []optRow{
	{"-a --all", kFlag, ""},
	{"--external-commands", kFlag, ""},
	{"--aliases", kFlag, ""},
	{"-m --man", kFlag, ""},
	{"-w --web", kProgram, "opens a web browser"},
	{"-i --info", kProgram, "runs the info reader"},
	{"-v --verbose", kFlag, ""},
	{"-g --guides", kFlag, ""},
	{"--user-interfaces", kFlag, ""},
	{"--developer-interfaces", kFlag, ""},
	{"-c --config", kFlag, ""},
}

// gitVersionRows are the options git version -h lists.
var gitVersionRows = []optRow{
	{"--build-options", kFlag, ""},
}

// gitLsRemoteRows are the options git ls-remote -h lists.
var gitLsRemoteRows = []optRow{
	{"-q --quiet", kFormat, ""},
	{"--upload-pack=", kProgram, "runs the program it names as git-upload-pack"},
	{"-t --tags", kFlag, ""},
	{"-h --heads", kFlag, ""},
	{"--refs", kFlag, ""},
	{"--get-url", kFlag, ""},
	{"--sort=", kWord, ""},
	{"--exit-code", kFlag, ""},
	{"--symref", kFlag, ""},
	{"-o= --server-option=", kWord, ""},
}

// gitFetchRows are the options git fetch -h lists.
var gitFetchRows = []optRow{
	{"-v --verbose", kFlag, ""},
	{"-q --quiet", kFormat, ""},
	{"--all", kFlag, ""},
	{"--set-upstream", kFlag, ""},
	{"-a --append", kFlag, ""},
	{"--atomic", kFlag, ""},
	{"--upload-pack=", kProgram, "runs the program it names as git-upload-pack"},
	{"-f --force", kFlag, ""},
	{"-m --multiple", kFlag, ""},
	{"-t --tags", kFlag, ""},
	{"-n", kFlag, ""},
	{"-j= --jobs=", kWord, ""},
	{"--prefetch", kFlag, ""},
	{"-p --prune", kContent, ""},
	{"-P --prune-tags", kFlag, ""},
	{"--recurse-submodules[=]", kWord, ""},
	{"--dry-run", kFlag, ""},
	{"--write-fetch-head", kFlag, ""},
	{"-k --keep", kFlag, ""},
	{"-u --update-head-ok", kContent, ""},
	{"--progress", kFlag, ""},
	{"--depth=", kWord, ""},
	{"--shallow-since=", kWord, ""},
	{"--shallow-exclude=", kWord, ""},
	{"--deepen=", kWord, ""},
	{"--unshallow", kFlag, ""},
	{"--refetch", kFlag, ""},
	{"--update-shallow", kFlag, ""},
	{"--refmap=", kWord, ""},
	{"-o= --server-option=", kWord, ""},
	{"-4 --ipv4", kFlag, ""},
	{"-6 --ipv6", kFlag, ""},
	{"--negotiation-tip=", kWord, ""},
	{"--negotiate-only", kFlag, ""},
	{"--filter=", kWord, ""},
	{"--auto-maintenance", kFlag, ""},
	{"--auto-gc", kFlag, ""},
	{"--show-forced-updates", kFlag, ""},
	{"--write-commit-graph", kFlag, ""},
	{"--stdin", kFlag, ""},
}

// gitCloneRows are the options git clone -h lists.
var gitCloneRows = []optRow{
	{"-v --verbose", kFlag, ""},
	{"-q --quiet", kFormat, ""},
	{"--progress", kFlag, ""},
	{"--reject-shallow", kFlag, ""},
	{"-n --no-checkout", kFlag, ""},
	{"--bare", kFlag, ""},
	{"--mirror", kFlag, ""},
	{"-l --local", kFlag, ""},
	{"--no-hardlinks", kFlag, ""},
	{"-s --shared", kFormat, ""},
	{"--recurse-submodules[=]", kWord, ""},
	{"--recursive[=]", kWord, ""},
	{"-j= --jobs=", kWord, ""},
	{"--template=", kProgram, "installs the hooks of a template directory, which later git commands run"},
	{"--reference=", kRead, ""},
	{"--reference-if-able=", kRead, ""},
	{"--dissociate", kFlag, ""},
	{"-o= --origin=", kWord, ""},
	{"-b= --branch=", kWord, ""},
	{"-u= --upload-pack=", kProgram, "runs the program it names as git-upload-pack"},
	{"--depth=", kWord, ""},
	{"--shallow-since=", kWord, ""},
	{"--shallow-exclude=", kWord, ""},
	{"--single-branch", kFlag, ""},
	{"--no-tags", kFlag, ""},
	{"--shallow-submodules", kFlag, ""},
	{"--separate-git-dir=", kWrite, "the repository into another directory"},
	{"-c= --config=", kProgram, "sets configuration in the new repository, which can run programs"},
	{"--server-option=", kWord, ""},
	{"-4 --ipv4", kFlag, ""},
	{"-6 --ipv6", kFlag, ""},
	{"--filter=", kWord, ""},
	{"--also-filter-submodules", kFlag, ""},
	{"--remote-submodules", kFlag, ""},
	{"--sparse", kFlag, ""},
	{"--bundle-uri=", kWord, ""},
}

// gitPullRows are the options git pull -h lists.
var gitPullRows = []optRow{
	{"-v --verbose", kFlag, ""},
	{"-q --quiet", kFormat, ""},
	{"--progress", kFlag, ""},
	{"--recurse-submodules[=]", kWord, ""},
	{"-r[=] --rebase[=]", kWord, ""},
	{"-n", kFlag, ""},
	{"--stat", kFormat, ""},
	{"--log[=]", kWord, ""},
	{"--signoff[=]", kWord, ""},
	{"--squash", kFlag, ""},
	{"--commit", kFlag, ""},
	{"--edit", kProgram, "opens the merge message in an editor"},
	{"--cleanup=", kWord, ""},
	{"--ff", kFlag, ""},
	{"--ff-only", kFlag, ""},
	{"--verify", kFlag, ""},
	{"--verify-signatures", kProgram, "runs gpg to verify signatures"},
	{"--autostash", kFlag, ""},
	{"-s= --strategy=", kProgram, "runs the merge strategy program it names"},
	{"-X= --strategy-option=", kFormat, ""},
	{"-S[=] --gpg-sign[=]", kProgram, "runs gpg to sign the merge"},
	{"--allow-unrelated-histories", kFlag, ""},
	{"--all", kFlag, ""},
	{"-a --append", kFlag, ""},
	{"--upload-pack=", kProgram, "runs the program it names as git-upload-pack"},
	{"-f --force", kFlag, ""},
	{"-t --tags", kFlag, ""},
	{"-p --prune", kContent, ""},
	{"-j[=] --jobs[=]", kWord, ""},
	{"--dry-run", kFlag, ""},
	{"-k --keep", kFlag, ""},
	{"--depth=", kWord, ""},
	{"--shallow-since=", kWord, ""},
	{"--shallow-exclude=", kWord, ""},
	{"--deepen=", kWord, ""},
	{"--unshallow", kFlag, ""},
	{"--update-shallow", kFlag, ""},
	{"--refmap=", kWord, ""},
	{"-o= --server-option=", kWord, ""},
	{"-4 --ipv4", kFlag, ""},
	{"-6 --ipv6", kFlag, ""},
	{"--negotiation-tip=", kWord, ""},
	{"--show-forced-updates", kFlag, ""},
	{"--set-upstream", kFlag, ""},
}

// gitPushRows are the options git push -h lists.
var gitPushRows = []optRow{
	{"-v --verbose", kFlag, ""},
	{"-q --quiet", kFormat, ""},
	{"--repo=", kWord, ""},
	{"--all", kFlag, ""},
	{"--mirror", kFlag, ""},
	{"-d --delete", kFlag, ""},
	{"--tags", kFlag, ""},
	{"-n --dry-run", kFlag, ""},
	{"--porcelain", kFlag, ""},
	{"-f --force", kFlag, ""},
	{"--force-with-lease[=]", kWord, ""},
	{"--force-if-includes", kFlag, ""},
	{"--recurse-submodules=", kWord, ""},
	{"--thin", kFlag, ""},
	{"--receive-pack=", kProgram, "runs the program it names as git-receive-pack"},
	{"--exec=", kProgram, "runs the program it names as git-receive-pack"},
	{"-u --set-upstream", kContent, ""},
	{"--progress", kFlag, ""},
	{"--prune", kFlag, ""},
	{"--no-verify", kFlag, ""},
	{"--follow-tags", kFlag, ""},
	{"--signed[=]", kProgram, "runs gpg to sign the push"},
	{"--atomic", kFlag, ""},
	{"-o= --push-option=", kWord, ""},
	{"-4 --ipv4", kFlag, ""},
	{"-6 --ipv6", kFlag, ""},
}

// gitArchiveRows are the options git archive -h lists.
var gitArchiveRows = []optRow{
	{"--format=", kWord, ""},
	{"--prefix=", kWord, ""},
	{"--add-file=", kRead, ""},
	{"--add-virtual-file=", kWord, ""},
	{"-o= --output=", kWrite, "the archive to a file"},
	{"--worktree-attributes", kFlag, ""},
	{"-v --verbose", kFlag, ""},
	{"-l --list", kFlag, ""},
	{"--remote=", kProgram, "fetches the archive from another repository, whose server runs git-upload-archive"},
	{"--exec=", kProgram, "runs the program it names as git-upload-archive"},
}

// gitGlobalRows are git's own options, before the subcommand (git(1)).
// git reads them exactly, one a word.
var gitGlobalRows = []optRow{
	{"-v --version", kFlag, ""},
	{"-h --help", kFlag, ""},
	{"-C=", kDir, ""},
	{"-c= --config-env=", kProgram, "sets configuration on the command line, which can run programs"},
	{"--exec-path[=]", kSetProgram, "changes where git finds its programs"},
	{"--html-path --man-path --info-path", kFlag, ""},
	{"-p --paginate", kProgram, "runs a pager"},
	{"-P --no-pager", kFlag, ""},
	{"--git-dir= --work-tree= --namespace= --super-prefix=", kRepo, ""},
	{"--bare", kRepo, ""},
	{"--attr-source=", kWord, ""},
	{"--no-replace-objects --no-lazy-fetch --literal-pathspecs --glob-pathspecs --noglob-pathspecs --icase-pathspecs --no-optional-locks --no-advice", kFlag, ""},
	{"--list-cmds=", kWord, ""},
}

// gitDiffOnlyRows are the options of git diff beyond the diff options.
var gitDiffOnlyRows = []optRow{
	{"--cached --staged --merge-base", kCommit, ""},
	{"--no-index", kFlag, ""}, // its operands are files, each judged as a read
	{"--exit-code", kFlag, ""},
	{"--quiet", kFormat, ""},
	{"--base --ours --theirs", kFlag, ""},
	{"-c --cc", kContent, ""},
	{"--combined-all-paths", kFlag, ""},
}

// gitDiffTreeRows are the options of git diff-tree, diff-index and
// diff-files beyond the diff options.
var gitDiffTreeRows = []optRow{
	{"-r -t --root --stdin --no-commit-id -v --always --merge-base --cached -q --base --ours --theirs", kFlag, ""},
	{"--exit-code --combined-all-paths", kFlag, ""},
	{"--quiet", kFormat, ""},
	{"-m -c --cc", kContent, ""},
	{"--pretty[=] --format[=] --encoding[=] --notes[=] --show-notes[=] --expand-tabs[=]", kWord, ""},
	{"--abbrev-commit --no-abbrev-commit --oneline --no-notes --standard-notes --no-standard-notes --no-expand-tabs --show-signature", kFlag, ""},
}

// gitRangeDiffOwnRows are the options of git range-diff beyond the diff
// options.
var gitRangeDiffOwnRows = []optRow{
	{"--creation-factor=", kWord, ""},
	{"--no-dual-color --left-only --right-only", kFlag, ""},
	{"--notes[=]", kWord, ""},
	{"--exit-code", kFlag, ""},
	{"--quiet", kFormat, ""},
}

// gitBlameRevRows are the revision options git blame hands on to the
// revision walk.
var gitBlameRevRows = []optRow{
	{"--reverse --first-parent", kFlag, ""},
	{"--date= --encoding= --since=", kWord, ""},
}

// gitRevParseRows are git rev-parse's options (git-rev-parse(1)): it
// prints names, paths and revisions, and runs nothing. It reads its
// options exactly, and prints an option it does not know as a revision.
var gitRevParseRows = []optRow{
	{"--parseopt --sq-quote --keep-dashdash --stop-at-non-option --stuck-long", kFlag, ""},
	{"--revs-only --no-revs --flags --no-flags --verify -q --quiet --sq --not --symbolic --symbolic-full-name --all", kFlag, ""},
	{"--abbrev-ref[=] --short[=] --branches[=] --tags[=] --remotes[=] --show-object-format[=]", kWord, ""},
	{"--default= --prefix= --git-path=", kWord, ""},
	{"--glob[=] --exclude[=] --exclude-hidden[=] --disambiguate[=] --path-format[=] --since[=] --after[=] --until[=] --before[=]", kWord, ""},
	{"--local-env-vars --absolute-git-dir --git-common-dir --git-dir --is-bare-repository --is-inside-git-dir --is-inside-work-tree --is-shallow-repository", kFlag, ""},
	{"--resolve-git-dir=", kProbe, ""},
	{"--shared-index-path --show-cdup --show-prefix --show-superproject-working-tree --show-toplevel", kFlag, ""},
}

// gitStashShowRows are git stash show's options beyond the diff options.
var gitStashShowRows = []optRow{
	{"-u --include-untracked --only-untracked --no-include-untracked", kFlag, ""},
}

// gitReflogChangeRows are the options of git reflog's subcommands that
// change the reflog; git reflog show takes git log's.
var gitReflogChangeRows = []optRow{
	{"--all --dry-run -n --rewrite --single-worktree --stale-fix --updateref --verbose", kFlag, ""},
	{"--expire= --expire-unreachable=", kWord, ""},
}

// gitWorktreeListRows are git worktree list's options.
var gitWorktreeListRows = []optRow{
	{"--porcelain -v --verbose -z", kFlag, ""},
	{"--expire=", kWord, ""},
}

// gitSubmoduleRows are the options of git submodule status and summary,
// and of git submodule itself.
var gitSubmoduleRows = []optRow{
	{"-q --quiet --cached --recursive --files", kFlag, ""},
	{"-n= --summary-limit=", kWord, ""},
}

// gitNotesRows are the options of git notes itself.
var gitNotesRows = []optRow{
	{"--ref=", kWord, ""},
}

// gitRemoteRows are the options of git remote itself and of its listing
// subcommands (get-url, show).
var gitRemoteRows = []optRow{
	{"-v --verbose", kFlag, ""},
}

// gitRemoteGetURLRows and gitRemoteShowRows are the options of git
// remote get-url and git remote show.
var (
	gitRemoteGetURLRows = []optRow{{"--push --all", kFlag, ""}}
	gitRemoteShowRows   = []optRow{{"-n", kFlag, ""}}
)

// gitVarRows are git var's options.
var gitVarRows = []optRow{{"-l", kFlag, ""}}

package bashguard

import "sync"

// gitSpec is git: its own options, then a subcommand, each with a spec of
// its own. A subcommand without a spec here is not read-only: it asks, and
// an allow rule may lift that (Bash(git commit:*)).
var gitSpec = sync.OnceValue(func() *spec {
	return (&spec{
		name: "git", grammar: posixGrammar, rows: gitGlobalRows, lists: gitListing,
		subs: map[string]*spec{
			"status": {scans: true, grammar: gitGrammar, rows: gitStatusRows, operands: kPathspec, allow: "read-only git status", config: gitReadConfig,
				examples: []example{{"git status -sb", "allow"}, {"git status --porc", "allow"}, {"git status -v", "allow"}, {"git status --porcelain=v2 -uno", "allow"}},
			},
			"log": {history: histAlways, grammar: gitRevGrammar, joined: join(gitRevRows, gitDiffRows, gitLogRows), operands: kPathspec,
				allow: "read-only git log", config: gitReadConfig,
				examples: []example{{"git log --oneline -5", "allow"}, {"git log -n 3 --author someone --stat", "allow"}, {"git log -p -- a.txt", "allow"}, {"git log -L1,2:a.txt", "allow"}, {"git log -L1,2:.env", "deny"}, {"git log --output=out.txt", "ask"}, {"git log --ext-diff -p", "ask"}, {"git log --outp=x", "ask"}},
			},
			"whatchanged": {history: histAlways, grammar: gitRevGrammar, joined: join(gitRevRows, gitDiffRows, gitLogRows), operands: kPathspec,
				allow: "read-only git whatchanged", config: gitReadConfig},
			"show": {history: histAlways, grammar: gitRevGrammar, joined: join(gitRevRows, gitDiffRows, gitLogRows), operands: kPathspec, content: true,
				allow: "read-only git show", config: gitReadConfig,
				examples: []example{{"git show --stat HEAD", "allow"}, {"git show HEAD:a.txt", "allow"}, {"git show HEAD:.env", "deny"}, {"git show --textconv HEAD", "ask"}},
			},
			"diff": {history: histRevs, scans: true, grammar: gitRevGrammar, joined: join(gitDiffRows, gitDiffOnlyRows), operands: kPathspec, content: true, lists: gitDiffListing,
				allow: "read-only git diff", config: gitReadConfig,
				examples: []example{{"git diff", "allow"}, {"git diff --stat HEAD", "allow"}, {"git diff -- a.txt", "allow"}, {"git diff -U5 HEAD a.txt", "allow"}, {"git diff .env", "deny"}, {"git diff -pO.env", "deny"}, {"git diff --ext-diff", "ask"}, {"git diff --no-index a.txt .env", "deny"}},
			},
			"diff-tree": {history: histAlways, grammar: gitRevGrammar, joined: join(gitDiffRows, gitDiffTreeRows), operands: kPathspec,
				allow: "read-only git diff-tree", config: gitReadConfig},
			"diff-index": {history: histAlways, scans: true, grammar: gitRevGrammar, joined: join(gitDiffRows, gitDiffTreeRows), operands: kPathspec,
				allow: "read-only git diff-index", config: gitReadConfig},
			"diff-files": {scans: true, grammar: gitRevGrammar, joined: join(gitDiffRows, gitDiffTreeRows), operands: kPathspec,
				allow: "read-only git diff-files", config: gitReadConfig},
			"range-diff": {history: histAlways, grammar: gitRevGrammar, joined: join(gitRangeDiffOwnRows, gitDiffRows), operands: kPathspec, content: true,
				allow: "read-only git range-diff", config: gitReadConfig},
			"rev-list": {grammar: gitRevGrammar, rows: gitRevRows, operands: kPathspec, allow: "read-only git rev-list", config: gitReadConfig},
			"shortlog": {grammar: gitGrammar, joined: join(gitShortlogRows, gitRevRows), operands: kPathspec,
				allow: "read-only git shortlog", config: gitReadConfig},
			"blame": {grammar: gitGrammar, joined: join(gitBlameRows, gitBlameRevRows), operands: kPathspec,
				allow: "read-only git blame", config: gitReadConfig,
				examples: []example{{"git blame a.txt", "allow"}, {"git blame -L 1,2 -w a.txt", "allow"}, {"git blame -S.env a.txt", "deny"}, {"git blame --contents .env a.txt", "deny"}, {"git blame --cont=.env a.txt", "deny"}},
			},
			"grep": {grammar: grammar{abbrev: true, permute: true, negate: true, digits: true}, rows: gitGrepRows, operands: kPathspec,
				allow: "read-only git grep", config: gitReadConfig, search: gitGrepSearch, lists: gitGrepListing,
				examples: []example{{"git grep -n hello", "allow"}, {"git grep -e hello -- src", "allow"}, {"git grep -iOcat hello", "ask"}, {"git grep --open-f=cat hello", "ask"}, {"git grep -O hello", "ask"}, {"git grep -f.env a.txt", "deny"}, {"git grep --textconv hello", "ask"}, {"git grep --no-textconv hello", "allow"},
					{"git grep -- hello", "allow"}, {"git grep -e hello --", "allow"}, {"git grep --cached hello -- src", "allow"}, {"git grep --untracked -- TOKEN", "ask"}},
			},
			"ls-files": {grammar: gitGrammar, rows: gitLsFilesRows, operands: kPathspec, allow: "read-only git ls-files", config: gitReadConfig,
				namesProbe: true, lists: gitLsFilesListing,
				examples: []example{{"git ls-files", "allow"}, {"git ls-files -s src", "allow"}, {"git ls-files -X.env", "deny"}, {"git ls-files --exclude-from=.env", "deny"}},
			},
			// git clean -n prints the untracked names it would remove, and
			// removes nothing; without -n it removes them (its query row).
			"clean": {scans: true, grammar: gitGrammar, rows: gitCleanRows, operands: kProbe, allow: "git clean -n only prints what it would remove",
				config: gitReadConfig,
				// Without -n (whatever -f says) it removes the untracked files.
				query: []cond{{test: cNeeds, opts: "-n --dry-run", fail: fPlain, why: "git clean without -n removes the untracked files"}},
				examples: []example{{"git clean -n", "allow"}, {"git clean -nd src", "allow"}, {"git clean --dry-run -x", "allow"}, {"git clean -f", "ask"},
					{"git clean -fd", "ask"}, {"git clean -d", "ask"}, {"git clean -ni", "ask"}},
			},
			"ls-tree": {grammar: gitGrammar, rows: gitLsTreeRows, operands: kProbe, allow: "read-only git ls-tree", config: gitReadConfig},
			"cat-file": {grammar: gitGrammar, rows: gitCatFileRows, operands: kPathspec, allow: "read-only git cat-file",
				config: gitReadConfig, history: histNamed, typeOps: gitObjectTypes,
				examples: []example{{"git cat-file -t HEAD", "allow"}, {"git cat-file -p HEAD:a.txt", "allow"}, {"git cat-file -p HEAD:.env", "deny"}, {"git cat-file blob 0123abcd", "ask"}, {"git cat-file --batch", "ask"}, {"git cat-file --filters HEAD:a.txt", "ask"},
					{"git cat-file blob HEAD:a.txt", "allow"}, {"git cat-file blob HEAD:.env", "deny"}},
			},
			"rev-parse": {grammar: grammar{permute: true}, rows: gitRevParseRows, operands: kPathspec, allow: "read-only git rev-parse", config: gitReadConfig,
				examples: []example{{"git rev-parse --show-toplevel", "allow"}, {"git rev-parse --abbrev-ref HEAD", "allow"}},
			},
			"describe":      {scans: true, grammar: gitGrammar, rows: gitDescribeRows, operands: kWord, allow: "read-only git describe", config: gitReadConfig},
			"name-rev":      {grammar: gitGrammar, rows: gitNameRevRows, operands: kWord, allow: "read-only git name-rev", config: gitReadConfig},
			"merge-base":    {grammar: gitGrammar, rows: gitMergeBaseRows, operands: kWord, allow: "read-only git merge-base", config: gitReadConfig},
			"show-ref":      {grammar: gitGrammar, rows: gitShowRefRows, operands: kWord, allow: "read-only git show-ref", config: gitReadConfig},
			"count-objects": {grammar: gitGrammar, rows: gitCountObjectsRows, operands: kWord, allow: "read-only git count-objects", config: gitReadConfig},
			"for-each-ref":  {grammar: gitGrammar, rows: gitForEachRefRows, operands: kWord, allow: "read-only git for-each-ref", config: gitReadConfig},
			"check-ignore":  {grammar: gitGrammar, rows: gitCheckIgnoreRows, operands: kProbe, allow: "read-only git check-ignore", config: gitReadConfig},
			"check-attr":    {grammar: gitGrammar, rows: gitCheckAttrRows, operands: kProbe, allow: "read-only git check-attr", config: gitReadConfig},
			"cherry":        {grammar: gitGrammar, rows: gitCherryRows, operands: kWord, allow: "read-only git cherry", config: gitReadConfig},
			"show-branch":   {grammar: gitGrammar, rows: gitShowBranchRows, operands: kWord, allow: "read-only git show-branch", config: gitReadConfig},
			"fsck":          {grammar: gitGrammar, rows: gitFsckRows, operands: kWord, allow: "read-only git fsck", config: gitReadConfig},
			"help":          {grammar: gitGrammar, rows: gitHelpRows, operands: kWord, allow: "git help prints documentation"},
			"version":       {grammar: gitGrammar, rows: gitVersionRows, operands: kWord, allow: "read-only git version"},
			"var": {grammar: gitGrammar, rows: gitVarRows, operands: kWord, allow: "read-only git var", config: gitReadConfig,
				keys:     gitVarKeys,
				examples: []example{{"git var -l", "allow"}, {"git var GIT_AUTHOR_IDENT", "allow"}}},
			"symbolic-ref": {grammar: gitGrammar, rows: gitSymbolicRefRows, operands: kWord, allow: "read-only git symbolic-ref",
				config: gitReadConfig, maxOps: 1, tooMany: "with a target changes a ref"},
			"branch": {grammar: gitGrammar, rows: gitBranchRows, operands: kWord, allow: "read-only git branch", config: gitReadConfig,
				listing: []string{"-l", "--list", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at"}, tooMany: "with a name creates a branch",
				examples: []example{{"git branch -vv", "allow"}, {"git branch --list 'f*'", "allow"}, {"git branch --show-current", "allow"}, {"git branch topic", "ask"}, {"git branch -vD topic", "ask"}, {"git branch --edit-description", "ask"}},
			},
			"tag": {grammar: gitGrammar, rows: gitTagRows, operands: kWord, allow: "read-only git tag", config: gitReadConfig,
				listing: []string{"-l", "--list", "-n", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at"}, tooMany: "with a name creates a tag",
				examples: []example{{"git tag -l", "allow"}, {"git tag -n5", "allow"}, {"git tag v9", "ask"}, {"git tag -v v1", "ask"}},
			},
			"config": {grammar: gitGrammar, rows: gitConfigRows, operands: kWord, allow: "read-only git config", config: gitReadConfig,
				listing: []string{"--get", "--get-all", "--get-regexp", "--get-urlmatch", "-l", "--get-color", "--get-colorbool"},
				maxOps:  1, tooMany: "with a name and a value sets it", keys: gitConfigKeysPrinted,
				examples: []example{{"git config user.name", "allow"}, {"git config --get-regexp ^user", "allow"}, {"git config -l", "allow"}, {"git config --unset-a x.y", "ask"}, {"git config --remove-sec x", "ask"}, {"git config -f.b.txt a.b c", "ask"}, {"git config -e", "ask"}, {"git config --file=.env --list", "deny"}},
			},
			"stash": {grammar: posixGrammar, allow: "read-only git stash", config: gitReadConfig,
				bareWhy: "changes the working tree and the stash", otherWhy: "changes the working tree and the stash",
				subs: map[string]*spec{
					"list": {grammar: gitRevGrammar, joined: join(gitRevRows, gitDiffRows, gitLogRows), operands: kWord, allow: "read-only git stash list"},
					"show": {history: histAlways, grammar: gitRevGrammar, joined: join(gitDiffRows, gitStashShowRows), operands: kWord, content: true, allow: "read-only git stash show"},
				},
				examples: []example{{"git stash list", "allow"}, {"git stash show --stat", "allow"}, {"git stash", "ask"}, {"git stash pop", "ask"}},
			},
			"reflog": {grammar: posixGrammar, allow: "read-only git reflog", config: gitReadConfig,
				other: &spec{name: "git reflog show", history: histAlways, grammar: gitRevGrammar, joined: join(gitRevRows, gitDiffRows, gitLogRows), operands: kWord, allow: "read-only git reflog"},
				subs: map[string]*spec{
					"show":   {history: histAlways, grammar: gitRevGrammar, joined: join(gitRevRows, gitDiffRows, gitLogRows), operands: kWord, allow: "read-only git reflog"},
					"exists": {grammar: gitGrammar, operands: kWord, allow: "read-only git reflog exists"},
					"expire": gitReflogChange(), "delete": gitReflogChange(), "drop": gitReflogChange(),
				},
				examples: []example{{"git reflog -5", "allow"}, {"git reflog show --oneline", "allow"}, {"git reflog expire --all", "ask"}},
			},
			"remote": {grammar: posixGrammar, rows: gitRemoteRows, allow: "read-only git remote", config: gitReadConfig,
				otherWhy: "changes the remotes or reaches the network", keys: gitRemoteVerboseKeys,
				subs: map[string]*spec{
					"get-url": {grammar: gitGrammar, rows: gitRemoteGetURLRows, operands: kWord, allow: "read-only git remote get-url", keys: gitRemoteURLKeys},
					"show": {grammar: gitGrammar, rows: gitRemoteShowRows, operands: kWord, allow: "read-only git remote show", keys: gitRemoteURLKeys,
						tooMany: "with a name reaches the remote (unless -n is given)", listing: []string{"-n"}},
				},
				examples: []example{{"git remote", "allow"}, {"git remote -v", "allow"}, {"git remote get-url origin", "allow"}},
			},
			"worktree": {grammar: posixGrammar, allow: "read-only git worktree list", config: gitReadConfig,
				bareWhy: "without list changes the worktrees", otherWhy: "changes the worktrees",
				subs: map[string]*spec{"list": {grammar: gitGrammar, rows: gitWorktreeListRows, operands: kWord, allow: "read-only git worktree list"}}},
			"submodule": {grammar: posixGrammar, rows: gitSubmoduleRows, allow: "read-only git submodule status", config: gitReadConfig,
				otherWhy: "changes the submodules, reaches the network or runs commands",
				subs: map[string]*spec{
					"status":  {grammar: gitGrammar, rows: gitSubmoduleRows, operands: kPathspec, allow: "read-only git submodule status"},
					"summary": {grammar: gitGrammar, rows: gitSubmoduleRows, operands: kPathspec, allow: "read-only git submodule summary"},
				}},
			"notes": {grammar: posixGrammar, rows: gitNotesRows, allow: "read-only git notes list", config: gitReadConfig,
				otherWhy: "changes the notes",
				subs: map[string]*spec{
					"list": {grammar: gitGrammar, operands: kWord, allow: "read-only git notes list"},
					"show": {grammar: gitGrammar, operands: kWord, allow: "read-only git notes show"},
				}},
			// Commands that reach the network are never read-only; their
			// specs keep an allow rule for the command (Bash(git fetch:*))
			// from lifting an option that runs a program.
			"ls-remote": {grammar: gitGrammar, rows: gitLsRemoteRows, operands: kWord, ask: "is not a read-only git subcommand", config: gitNetConfig(),
				examples: []example{{"git ls-remote --upload-pack=sh .", "ask"}, {"git ls-remote --upload-p=sh .", "ask"}},
			},
			"fetch": {grammar: gitGrammar, rows: gitFetchRows, operands: kWord, ask: "is not a read-only git subcommand", config: gitNetConfig(),
				examples: []example{{"git fetch --upload-pack 'sh -c id' .", "ask"}},
			},
			"pull": {grammar: gitGrammar, rows: gitPullRows, operands: kWord, ask: "is not a read-only git subcommand", config: gitNetConfig()},
			"push": {grammar: gitGrammar, rows: gitPushRows, operands: kWord, ask: "is not a read-only git subcommand", config: gitNetConfig()},
			"clone": {grammar: gitGrammar, rows: gitCloneRows, operands: kWord, ask: "is not a read-only git subcommand", config: gitNetConfig(),
				examples: []example{{"git clone --template=fixtures/evil.git . x", "ask"}, {"git clone -cx=y . x", "ask"}},
			},
			"archive": {history: histAlways, grammar: grammar{abbrev: true, permute: true, negate: true, digits: true}, rows: gitArchiveRows, operands: kPathspec,
				content: true, allow: "read-only git archive", config: gitReadConfig,
				examples: []example{{"git archive HEAD a.txt", "allow"}, {"git archive -o x.tar HEAD", "ask"}, {"git archive --remote=. HEAD", "ask"}},
			},
		},
	}).withHelp().compile()
})

// gitGrepSearch is what git grep searches (git grep -h): --untracked
// and --no-index search the files the index does not track too, and
// --recurse-submodules those of the submodules, which it does not hold;
// -e and -f give the pattern, which the first operand is otherwise;
// --cached searches what the index holds, which the working tree may no
// longer.
var gitGrepSearch = &treeSearch{beyond: "--untracked --no-index --recurse-submodules", pattern: "-e -f", index: "--cached"}

// gitObjectTypes are the object types git cat-file TYPE OBJECT takes: a
// blob's content is a file's.
var gitObjectTypes = map[string]kind{"blob": kContent, "tree": kWord, "commit": kWord, "tag": kWord}

// gitConfigKeysPrinted are the keys git config's reading forms print:
// every key with -l or "list"; those --get-regexp's pattern matches;
// those of --get-urlmatch's section; else the key the first operand
// names. -f and --blob print another file's keys; --name-only prints the
// names alone; --system, --global, --local and --worktree choose the
// configs.
var gitConfigKeysPrinted = &keysPrinted{
	picks: []keyPick{
		{opts: "-l --list", keys: keysAll},
		{op: "list", keys: keysAll},
		{opts: "--get-regexp", keys: keysMatching},
		{opts: "--get-urlmatch", keys: keysOfSection},
		{keys: keysNamed},
	},
	elsewhere: "-f --file --blob", nameOnly: "--name-only",
	system: "--system", global: "--global", local: "--local --worktree",
}

// gitVarKeys are the keys git var prints: with -l, every key of every
// config, as git config --list does.
var gitVarKeys = &keysPrinted{picks: []keyPick{{opts: "-l", keys: keysAll}}}

// gitRemoteVerboseKeys are the keys git remote prints: with -v, every
// remote's URLs, made from the keys remoteURLKey reports; without, the
// remotes' names alone.
var gitRemoteVerboseKeys = &keysPrinted{picks: []keyPick{{opts: "-v --verbose", keys: keysRemoteURLs}}}

// gitRemoteURLKeys are the keys git remote get-url NAME and git remote
// show NAME print: the remote's URLs. Without a name, show prints the
// remotes' names, or after git remote's own -v their URLs (git remote -v
// show), which this spec does not see: so every line of it is judged as
// printing them.
var gitRemoteURLKeys = &keysPrinted{picks: []keyPick{{always: true, keys: keysRemoteURLs}}}

// gitReflogChange is git reflog expire, delete or drop.
func gitReflogChange() *spec {
	return &spec{grammar: gitGrammar, rows: gitReflogChangeRows, operands: kWord, ask: "changes the reflog"}
}

// gitCleanRows are the options of git clean: -f removes, and is read
// for what it is only without -n (clean's query row); -i asks at the terminal.
var gitCleanRows = []optRow{
	{"-n --dry-run", kFlag, ""}, {"-q --quiet", kFlag, ""}, {"-d", kFlag, ""}, {"-x", kFlag, ""}, {"-X", kFlag, ""},
	{"-e= --exclude=", kPattern, ""}, {"-f --force", kFlag, ""},
	{"-i --interactive", kAsk, "asks at the terminal which files to remove, and removes them"},
}

// gitReadConfig are the configuration keys (section.key, section.*.key
// for any subsection) that make a read-only git command run a program, or
// read another file as configuration, when the repository's own config
// sets them: core.fsmonitor on every refresh of the index, diff.external
// and the diff drivers on every patch, the filters on every file compared
// with the index, gpg on every signature shown. The repository's config is
// as much the workspace as its files are, and so are its submodules'
// (model_git_submodules.go).
var gitReadConfig = []string{
	"core.fsmonitor", "core.pager", "pager.*", "core.alternaterefscommand", "core.worktree",
	"diff.external", "diff.*.textconv", "diff.*.command",
	"filter.*.clean", "filter.*.smudge", "filter.*.process",
	"gpg.program", "gpg.*.program",
	"include.path", "includeif.*.path",
	"blame.ignorerevsfile",
}

// harmlessConfigValues are, for a key that can name a program, the
// values with which it names none: core.fsmonitor as a boolean (git's own
// daemon, or none).
var harmlessConfigValues = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"core.fsmonitor": {"", "false", "no", "off", "0", "true", "yes", "on", "1"},
	}
})

// gitNetConfig are gitReadConfig and the keys that make the commands that
// reach the network run a program.
var gitNetConfig = sync.OnceValue(func() []string {
	return append(append([]string(nil), gitReadConfig...),
		"core.sshcommand", "core.askpass", "core.gitproxy", "credential.helper", "credential.*.helper",
		"remote.*.uploadpack", "remote.*.receivepack", "remote.*.vcs", "protocol.allow", "protocol.*.allow",
		"uploadpack.packobjectshook", "url.*.insteadof", "url.*.pushinsteadof")
})

// gitRemoteAddSpec is git remote add's (git remote add -h).
var gitRemoteAddSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "git remote add", grammar: gitGrammar, rows: []optRow{
		{"-f --fetch --tags", kFlag, ""},
		{"-t= --track= -m= --master=", kWord, ""},
		{"--mirror[=]", kWord, ""},
	}}).compile()
})

// gitRemoteSetURLSpec is git remote set-url's (git remote set-url -h).
var gitRemoteSetURLSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "git remote set-url", grammar: gitGrammar, rows: []optRow{
		{"--push --add --delete", kFlag, ""},
	}}).compile()
})

// gitSubmoduleAddSpec is git submodule add's (git submodule -h, and
// git-submodule(1) for --depth).
var gitSubmoduleAddSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "git submodule add", grammar: gitGrammar, rows: []optRow{
		{"-f --force -q --quiet --progress --dissociate", kFlag, ""},
		{"-b= --branch= --name= --reference= --depth=", kWord, ""},
	}}).compile()
})

// gitFetchSubs are git's subcommands that reach a remote by a command
// line of gitFetchLine, each as a row of gitFetchRow.
var gitFetchSubs = sync.OnceValue(func() map[string]gitFetchRow {
	return map[string]gitFetchRow{
		"clone": {newRepo: true, opts: map[string]remoteOpt{
			"--recurse-submodules": roRecurse, "--recursive": roRecurse, "--no-recurse-submodules": roNoRecurse, "--no-recursive": roNoRecurse,
			"--bundle-uri": roRemote, "-c": roConfig,
		}},
		"fetch": {onDemand: true, opts: map[string]remoteOpt{
			"--recurse-submodules": roRecurse, "--no-recurse-submodules": roNoRecurse, "--all": roAll, "-m": roAll,
		}},
		"pull": {onDemand: true, opts: map[string]remoteOpt{
			"--recurse-submodules": roRecurse, "--no-recurse-submodules": roNoRecurse, "--all": roAll,
		}},
		// push --all pushes every branch, to the one remote.
		"push": {opts: map[string]remoteOpt{
			"--recurse-submodules": roRecurse, "--no-recurse-submodules": roNoRecurse, "--repo": roRepo,
		}},
		"ls-remote": {},
	}
})

// gitIndexOnlySubs are git's subcommands whose path operands can name
// index entries only (see gitIndexOnly): git rm --cached; git restore
// --staged without --worktree; git reset [rev] [--] paths, whose --hard,
// --merge and --keep refuse paths (their operand is a commit, which names
// no file); git update-index with only the options that set or clear an
// entry's flags or remove it. Each row's spec lists every option of the
// subcommand (git SUB -h, TestIndexOnlySpecsAgreeWithHelp), so that an
// abbreviation resolves as git's parse-options resolves it.
var gitIndexOnlySubs = sync.OnceValue(func() map[string]gitIndexOnlyRow {
	return map[string]gitIndexOnlyRow{
		"rm": {any: []string{"--cached"}, spec: gitIndexSpec("git rm", []optRow{
			{"-n --dry-run", kFlag, ""}, {"-q --quiet", kFlag, ""}, {"--cached", kFlag, ""}, {"-f --force", kFlag, ""},
			{"-r", kFlag, ""}, {"--ignore-unmatch", kFlag, ""}, {"--sparse", kFlag, ""},
			{"--pathspec-file-nul", kFlag, ""}, {"--pathspec-from-file=", kList, ""},
		})},
		"restore": {any: []string{"-S"}, none: []string{"-W"}, spec: gitIndexSpec("git restore", []optRow{
			{"-S --staged", kFlag, ""}, {"-W --worktree", kFlag, ""}, {"--ignore-unmerged", kFlag, ""},
			{"--overlay", kFlag, ""}, {"-q --quiet", kFlag, ""}, {"--progress", kFlag, ""}, {"-m --merge", kFlag, ""},
			{"-2 --ours", kFlag, ""}, {"-3 --theirs", kFlag, ""}, {"-p --patch", kFlag, ""},
			{"--ignore-skip-worktree-bits", kFlag, ""}, {"--pathspec-file-nul", kFlag, ""}, {"-s= --source=", kWord, ""},
			{"--conflict=", kWord, ""}, {"--recurse-submodules[=]", kWord, ""}, {"--pathspec-from-file=", kList, ""},
		})},
		"reset": {none: []string{"-p"}, spec: gitIndexSpec("git reset", []optRow{
			{"-q --quiet", kFlag, ""}, {"--refresh", kFlag, ""}, {"--mixed", kFlag, ""}, {"--soft", kFlag, ""},
			{"--hard", kFlag, ""}, {"--merge", kFlag, ""}, {"--keep", kFlag, ""}, {"-p --patch", kFlag, ""},
			{"-N --intent-to-add", kFlag, ""}, {"--pathspec-file-nul", kFlag, ""},
			{"--recurse-submodules[=]", kWord, ""}, {"--pathspec-from-file=", kList, ""},
		})},
		"update-index": {only: []string{"--assume-unchanged", "--no-assume-unchanged", "--skip-worktree", "--no-skip-worktree", "--force-remove", "-q"},
			spec: gitIndexSpec("git update-index", []optRow{
				{"--assume-unchanged", kFlag, ""}, {"--no-assume-unchanged", kFlag, ""}, {"--skip-worktree", kFlag, ""},
				{"--no-skip-worktree", kFlag, ""}, {"--force-remove", kFlag, ""}, {"-q", kFlag, ""},
				{"--ignore-submodules", kChange, ""}, {"--add", kChange, ""}, {"--replace", kChange, ""},
				{"--remove", kChange, ""}, {"--unmerged", kChange, ""}, {"--refresh", kChange, ""},
				{"--really-refresh", kChange, ""}, {"--ignore-skip-worktree-entries", kChange, ""},
				{"--info-only", kChange, ""}, {"-z", kChange, ""}, {"--stdin", kChange, ""}, {"--index-info", kChange, ""},
				{"--unresolve", kChange, ""}, {"-g --again", kChange, ""}, {"--ignore-missing", kChange, ""},
				{"--verbose", kChange, ""}, {"--clear-resolve-undo", kChange, ""}, {"--split-index", kChange, ""},
				{"--untracked-cache", kChange, ""}, {"--test-untracked-cache", kChange, ""},
				{"--force-untracked-cache", kChange, ""}, {"--force-write-index", kChange, ""}, {"--fsmonitor", kChange, ""},
				{"--fsmonitor-valid", kChange, ""}, {"--no-fsmonitor-valid", kChange, ""}, {"--cacheinfo=", kChange, ""},
				{"--chmod=", kChange, ""}, {"--index-version=", kChange, ""},
			})},
	}
})

// gitIndexSpec compiles the options of an index-only subcommand.
func gitIndexSpec(name string, rows []optRow) *spec {
	return (&spec{name: name, grammar: gitGrammar, rows: rows}).compile()
}

// gitRemoteSubs are the git remote subcommands that reach a remote, now
// or in later fetches.
var gitRemoteSubs = sync.OnceValue(func() map[string]gitRemoteRow {
	return map[string]gitRemoteRow{
		"update":  {allRemotes: true},
		"add":     {url: gitRemoteAddSpec()},
		"set-url": {url: gitRemoteSetURLSpec()},
	}
})

// objectIDPrinters are the git subcommands that print git object names
// alone, in full hexadecimal, one a line (or nothing, when there is
// none): each with the options that keep it so. git merge-base prints the
// best common ancestors; git rev-parse --verify the one object its
// operand names (without --verify, rev-parse echoes what it does not
// take as a revision).
var objectIDPrinters = sync.OnceValue(func() map[string]struct {
	opts []string // the options it may be given
	need string   // an option it must be given, or ""
} {
	return map[string]struct {
		opts []string // the options it may be given
		need string   // an option it must be given, or ""
	}{
		"merge-base": {opts: []string{"--all", "--octopus", "--independent", "--fork-point"}},
		"rev-parse":  {opts: []string{"--verify", "-q", "--quiet"}, need: "--verify"},
	}
})

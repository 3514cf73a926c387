package bashguard

import (
	"os"
	"path"
	"slices"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// reader judges the commands that read the files named by their operands,
// with the argument checks of the commands whose safety depends on flags.
func (a *analyzer) reader(c *verdictAcc, name string, s *readerSpec, v *argv) {
	valShort, valLong := s.valShort, s.valLong
	patDone := false
	var tree walkOpts
	tree.recursive = name == "rg"
	tree.content, tree.hidden, tree.follow = true, name != "rg", name == "diff"
	unrestricted := 0
	check := false // a checksum program's -c
	ops := scanOptsOpt(v, valShort, s.optShort, valLong, nil, func(o opt) {
		check = check || sumCommands[name] && sumCheckOpt(o.name)
		defer checkOpt(c, name, o) // after the checks that explain an option better
		isShort := len(o.name) == 2
		ch := byte(0)
		if isShort {
			ch = o.name[1]
		}
		tree.option(name, o, &unrestricted)
		if isShort && hasByte(s.patShort, ch) || !isShort && longIs(o.name, s.patLong...) {
			patDone = true
		}
		if isShort && hasByte(s.fileShort, ch) || !isShort && longMeans(name, o.name, s.fileLong...) {
			switch {
			case !isShort && longIs(o.name, "--files0-from"):
				a.listFile(c, o.val, o.vf, name, 0)
			case name == "file" && (o.name == "-f" || longIs(o.name, "--files-from")):
				a.listFile(c, o.val, o.vf, name, '\n')
			default:
				a.readPath(c, o.val, o.vf, name)
			}
		}
		switch name {
		case "sort", "base64":
			if o.name == "-o" || longIs(o.name, "--output") {
				a.writePath(c, o.val, o.vf, name)
				c.add(permission.Ask, ArgsRule(name), "writes its output to a file (-o)", true)
			}
			if longIs(o.name, "--compress-program") {
				c.add(permission.Ask, ArgsRule("sort"), "runs a compression program", false)
			}
			if o.name == "-T" || longIs(o.name, "--temporary-directory") {
				a.writePath(c, o.val, o.vf, name)
			}
		case "date":
			if o.name == "-s" || longIs(o.name, "--set") {
				c.add(permission.Ask, ArgsRule("date"), "sets the system clock", false)
			}
		case "rg":
			switch {
			case longIs(o.name, "--pre"):
				c.add(permission.Ask, ArgsRule("rg"), "runs a preprocessor program (--pre)", false)
			case longIs(o.name, "--hostname-bin"):
				c.add(permission.Ask, ArgsRule("rg"), "runs a program (--hostname-bin)", false)
			case o.name == "-z" || longIs(o.name, "--search-zip"):
				c.add(permission.Ask, ArgsRule("rg"), "runs decompression programs (-z)", false)
			}
		case "jq":
			if o.name == "--run-tests" {
				// jq --run-tests FILE runs the jq programs in FILE (the
				// operand that otherwise holds the program), which may
				// import modules.
				c.add(permission.Ask, ArgsRule("jq"), "runs the jq tests in a file (--run-tests), which are not analysed", false)
			}
		case "file":
			if o.name == "-C" || longIs(o.name, "--compile") {
				c.add(permission.Ask, ArgsRule("file"), "writes a compiled magic file (-C)", true)
			}
		case "tail":
			if o.name == "-f" || o.name == "-F" || longIs(o.name, "--follow") {
				c.add(permission.Ask, ArgsRule("tail"), "follows a file forever (-f)", true)
			}
		}
	})
	if name == "ls" || name == "du" {
		// A listing is walked only where it follows links: with -L, du
		// and ls -R list (and ls -L without -R stats) the entries behind
		// every link in the tree, which may lead out of the roots.
		tree.recursive, tree.content, tree.hidden = tree.follow, false, true
	}
	if name == "jq" && patDone {
		c.add(permission.Ask, ArgsRule("jq"), "runs a jq program from a file, which is not analysed (it may import files outside the roots)", false)
	}
	if name == "jq" {
		// Options such as --arg name value move the program to a later
		// operand: look at every one.
		for _, i := range ops {
			f := v.vals[i]
			if jqWord(f, "import") || jqWord(f, "include") || jqWord(f, "modulemeta") {
				c.add(permission.Ask, ArgsRule("jq"), "loads modules or data files (import, include), which can read files outside the roots", false)
				break
			}
			if jqReadsEnv(f) {
				environ(c, "jq program "+f+" reads the environment (env, $ENV)")
				break
			}
		}
	}
	if name == "date" {
		for _, i := range ops {
			if !strings.HasPrefix(v.vals[i], "+") {
				c.add(permission.Ask, ArgsRule("date"), "sets the system clock from "+v.vals[i], false)
			}
		}
	}
	if s.noFiles {
		c.allow(RuleSafe, "on the safe list")
		return
	}
	if name == "uniq" && len(ops) == 1 && v.flags[ops[0]]&wGlob != 0 && v.literal(ops[0]) {
		// uniq IN OUT writes OUT: a glob that names two files makes the
		// second one the output.
		if m, err := expandGlob(a.dir, v.vals[ops[0]]); err != nil || len(m) > 1 || a.dir == "" {
			c.addf(permission.Ask, ArgsRule("uniq"), "glob ", v.vals[ops[0]], " may name two files, and uniq writes its output to the second", true)
		}
	}
	if name == "uniq" && len(ops) > 1 {
		out := ops[1]
		a.writePath(c, v.vals[out], v.flags[out], "uniq")
		c.add(permission.Ask, ArgsRule("uniq"), "writes its output to a file", true)
		ops = ops[:1]
	}
	if check {
		if len(ops) == 0 {
			a.sumList(c, "-", 0, name)
		}
		for _, i := range ops {
			a.sumList(c, v.vals[i], v.flags[i], name)
		}
	}
	roots := 0
	for k, i := range ops {
		if k == 0 && s.pattern && !patDone {
			continue
		}
		if name == "ls" || name == "stat" || name == "realpath" || name == "readlink" || name == "du" {
			if a.probePath(c, v.vals[i], v.flags[i], name) && tree.recursive {
				a.walkRoot(c, v.vals[i], v.flags[i], name, tree)
			}
		} else if a.readPath(c, v.vals[i], v.flags[i], name) && tree.recursive {
			a.walkRoot(c, v.vals[i], v.flags[i], name, tree)
		}
		roots++
	}
	if tree.recursive && roots == 0 {
		// grep -r and rg without a file search the working directory.
		a.walkRoot(c, ".", 0, name, tree)
	}
	c.allow(RuleSafe, "reads only inside the allowed roots")
}

// find allows searches that neither run commands nor write; -exec and
// friends have their command judged.
func (a *analyzer) find(c *verdictAcc, v *argv, x execCtx) {
	i := 1
	follow := false
	for i < v.len() {
		s := v.vals[i]
		if s == "-H" || s == "-L" || s == "-P" || strings.HasPrefix(s, "-O") {
			follow = s == "-L" || follow && s != "-P" && s != "-H"
			i++
		} else if s == "-D" {
			i += 2
		} else {
			if s == "--" {
				i++ // ends the leading options; starting points follow
			}
			break
		}
	}
	var starts []int
	for ; i < v.len(); i++ {
		s := v.vals[i]
		if v.literal(i) && (len(s) > 1 && s[0] == '-' || s == "(" || s == "!" || s == ")" || s == ",") {
			break
		}
		starts = append(starts, i)
	}
	del, execRead := false, false
	expr := i
	for ; i < v.len(); i++ {
		if s := v.vals[i]; len(s) == 8 && strings.HasPrefix(s, "-newer") && s[7] != 't' && i+1 < v.len() {
			// -newerXY compares with a reference file unless Y is t.
			a.readPath(c, v.vals[i+1], v.flags[i+1], "find")
			i++
			continue
		}
		switch s := v.vals[i]; s {
		case "-exec", "-execdir", "-ok", "-okdir":
			k := i + 1
			for k < v.len() && v.vals[k] != ";" && !(v.vals[k] == "+" && v.vals[k-1] == "{}") {
				k++
			}
			if k == i+1 {
				c.add(permission.Ask, ArgsRule("find"), s+" without a command", false)
				i = k
				continue
			}
			execArgs := argv{v.vals[i+1 : k], v.flags[i+1 : k]}
			var sub verdictAcc
			asFiles := false
			if s == "-exec" && foundArgs(&execArgs) {
				sub, asFiles = a.judgeOnFound(c, s+" ", &execArgs, "{}", execCtx{fork: x.fork})
			} else {
				sub = a.wrapped(c, s+" ", &execArgs, execCtx{fork: x.fork})
			}
			if s == "-ok" || s == "-okdir" {
				c.add(permission.Ask, ArgsRule("find"), s+" asks on the terminal for every file and would hang", false)
			}
			if s == "-exec" && !sub.decided && !asFiles && foundArgs(&execArgs) {
				c.addf(permission.Ask, WrapperRule("find"), "find -exec passes the names it finds to ", v.vals[i+1],
					" as something other than files it reads (a program, a script, a pattern or an option value), and any name may be found", false)
			} else if s == "-exec" && !sub.decided && foundArgs(&execArgs) {
				execRead = true // the files it runs on are judged below
			} else {
				c.add(permission.Ask, WrapperRule("find"), "find "+s+" runs "+v.vals[i+1]+" for every file found", !sub.nonOver)
			}
			i = k
		case "-delete":
			del = true
		case "-follow":
			// The old spelling of -L, among the expressions: it applies
			// to the whole search.
			follow = true
		case "-newer", "-anewer", "-cnewer", "-samefile":
			// A reference file is read.
			if i+1 < v.len() {
				a.readPath(c, v.vals[i+1], v.flags[i+1], "find")
			}
			i++
		case "-files0-from":
			// The starting points are the names the file holds.
			if i+1 < v.len() {
				a.listFile(c, v.vals[i+1], v.flags[i+1], "find", 0)
			}
			i++
		case "-fprint", "-fprint0", "-fls", "-fprintf":
			if i+1 < v.len() {
				a.writePath(c, v.vals[i+1], v.flags[i+1], "find")
				c.add(permission.Ask, ArgsRule("find"), s+" writes to a file", true)
			}
			i++
			if s == "-fprintf" {
				i++
			}
		}
	}
	if len(starts) == 0 && follow && !del {
		a.walkRoot(c, ".", 0, "find", walkOpts{recursive: true, hidden: true, follow: true})
	}
	if len(starts) == 0 && del {
		a.writePath(c, ".", 0, "find")
	}
	for _, k := range starts {
		if del {
			if v.literal(k) && (path.IsAbs(v.vals[k]) || strings.HasPrefix(v.vals[k], "~")) && a.critical(v.vals[k]) {
				c.add(permission.Deny, RuleDangerousRmCritical, "deletes everything under the critical path "+v.vals[k], false)
			}
			a.writePath(c, v.vals[k], v.flags[k], "find")
		} else if a.probePath(c, v.vals[k], v.flags[k], "find") && follow {
			// find -L follows the links in the tree: one out of the roots
			// lists (and -exec runs on) what lies outside.
			a.walkRoot(c, v.vals[k], v.flags[k], "find", walkOpts{recursive: true, hidden: true, follow: true})
		}
	}
	if del {
		c.add(permission.Ask, ArgsRule("find"), "-delete removes the files found", true)
	}
	fi := a.scanFind(v, starts, expr, follow)
	if execRead {
		a.readFound(c, fi, "find", 0)
		c.allow(RuleSafe, "find -exec runs a read-only command on files inside the allowed roots")
	}
	a.lastFind = fi
	c.allow(RuleSafe, "find without actions that run commands or write")
}

// gitReadOnly maps the read-only subcommands to the reason they are
// allowed.
var gitReadOnly = map[string]string{
	"status": "read-only git status", "log": "read-only git log", "diff": "read-only git diff",
	"show": "read-only git show", "branch": "read-only git branch", "blame": "read-only git blame",
	"rev-parse": "read-only git rev-parse",
	"describe":  "read-only git describe", "shortlog": "read-only git shortlog", "reflog": "read-only git reflog",
	"ls-files": "read-only git ls-files", "cat-file": "read-only git cat-file", "grep": "read-only git grep",
	"remote": "read-only git remote", "tag": "read-only git tag", "stash": "read-only git stash",
	"config": "read-only git config", "ls-tree": "read-only git ls-tree", "name-rev": "read-only git name-rev",
	"merge-base": "read-only git merge-base", "rev-list": "read-only git rev-list", "show-ref": "read-only git show-ref",
	"count-objects": "read-only git count-objects", "whatchanged": "read-only git whatchanged",
}

// gitNoPathspec are the read-only subcommands whose operands are names
// (of remotes, tags, keys, revisions), never pathspecs: a glob among them
// is a pattern of names ("git tag -l 'v*'").
var gitNoPathspec = map[string]bool{"remote": true, "tag": true, "stash": true, "config": true, "reflog": true,
	"describe": true, "name-rev": true, "merge-base": true, "show-ref": true, "count-objects": true}

// gitListingOnly says why a call of one of the git subcommands that also
// write (remote, tag, stash, config, reflog) is not one of their read-only
// forms, and returns "" for a read-only one: git remote (-v), remote
// get-url; tag with no name or a listing option; stash list and show;
// config reading a key or listing; reflog (show). ops are the operands and
// opts the options, in order.
func gitListingOnly(sub string, ops, opts []string) string {
	has := func(names ...string) bool { return hasOpt(opts, names...) }
	switch sub {
	case "remote":
		if len(ops) == 0 || ops[0] == "get-url" && len(ops) == 2 || ops[0] == "show" && len(ops) == 1 {
			return ""
		}
		return "git remote " + ops[0] + " changes the remotes or reaches the network"
	case "tag":
		if has("-d", "--delete", "-a", "--annotate", "-s", "--sign", "-u", "--local-user", "-f", "--force", "-m", "--message", "-F", "--file", "-v", "--verify", "-e", "--edit", "--cleanup", "--create-reflog") {
			return "git tag with that option creates, deletes or verifies a tag"
		}
		if len(ops) > 0 && !has("-l", "--list", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at") {
			return "git tag " + ops[0] + " creates a tag"
		}
		return ""
	case "stash":
		if len(ops) > 0 && (ops[0] == "list" || ops[0] == "show") {
			return ""
		}
		return "git stash changes the working tree and the stash"
	case "config":
		if has("--unset", "--unset-all", "--add", "--replace-all", "--rename-section", "--remove-section", "-e", "--edit", "--set", "--unset") ||
			len(ops) > 0 && slices.Contains([]string{"set", "unset", "rename-section", "remove-section", "edit"}, ops[0]) {
			return "git config changes the configuration"
		}
		reading := has("--get", "--get-all", "--get-regexp", "--get-urlmatch", "-l", "--list") || len(ops) > 0 && (ops[0] == "get" || ops[0] == "list")
		if reading || len(ops) == 1 {
			return ""
		}
		return "git config with a name and a value sets it"
	case "reflog":
		if len(ops) > 0 && slices.Contains([]string{"expire", "delete", "drop"}, ops[0]) {
			return "git reflog " + ops[0] + " changes the reflog"
		}
	case "grep":
		if has("-O", "--open-files-in-pager", "--textconv", "--ext-grep") {
			return "git grep with that option runs a program"
		}
	case "cat-file":
		if has("--textconv", "--filters") {
			return "git cat-file with that option runs the repository's filter programs"
		}
	}
	return ""
}

// git allows read-only subcommands and refuses every flag that can run a
// program or write a file.
func (a *analyzer) git(c *verdictAcc, v *argv) {
	var dirs []string // the values of -C
	dirLit := true
	i := 1
	for ; i < v.len() && strings.HasPrefix(v.vals[i], "-"); i++ {
		s := v.vals[i]
		name, val, has := strings.Cut(s, "=")
		switch {
		case s == "-C" || strings.HasPrefix(s, "-C"):
			// Another directory may be another repository, whose config
			// (core.fsmonitor, diff.external, core.pager) runs programs:
			// judged after the options, against the workspace's own.
			d := s[2:]
			if s == "-C" {
				i++
				if i < v.len() {
					d = v.vals[i]
					dirLit = dirLit && v.literal(i)
				}
			}
			dirs = append(dirs, d)
		case s == "-c" || strings.HasPrefix(s, "-c") || longIs(name, "--config-env"):
			c.add(permission.Ask, ArgsRule("git"), "sets configuration on the command line (-c), which can run programs", false)
			if s == "-c" || !has && name == "--config-env" {
				i++
			}
		case s == "-p" || longIs(name, "--paginate"):
			c.add(permission.Ask, ArgsRule("git"), "runs a pager", false)
		case longIs(name, "--git-dir", "--work-tree", "--namespace", "--super-prefix"):
			c.addf(permission.Ask, RuleGitRepository, "uses ", name, ", so git works on another repository than the workspace's, whose config can run programs", false)
			if !has {
				i++
			}
			_ = val
		case longIs(name, "--bare"):
			c.add(permission.Ask, RuleGitRepository, "uses --bare, so git works on a bare repository, whose config can run programs", false)
		case longIs(name, "--exec-path") && has:
			c.add(permission.Ask, ArgsRule("git"), "changes where git finds its programs", false)
		case slices.Contains([]string{"--no-pager", "--no-replace-objects", "--literal-pathspecs", "--no-optional-locks",
			"--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs", "--no-advice", "--version", "--help", "--exec-path", "--html-path", "--man-path", "--info-path"}, name):
		default:
			c.addf(permission.Ask, ArgsRule("git"), "uses the git option ", s, ", which is not known to be harmless", false)
		}
	}
	if i >= v.len() {
		c.allow(RuleSafe, "git without a subcommand prints help")
		return
	}
	if len(dirs) > 0 {
		a.gitDirOption(c, dirs, dirLit)
	}
	sub := v.vals[i]
	if why := a.gitRepo(); why != "" {
		c.add(permission.Ask, RuleGitRepository, why, false)
	}
	allowWhy, ok := gitReadOnly[sub]
	if !ok {
		allowWhy, ok = gitMoreReadOnly[sub]
	}
	if !ok && gitSubHelp(v.vals[i+1:]) && v.literal(i+1) {
		c.allow(RuleSafe, "git "+sub+" --help prints its manual")
		return
	}
	if !ok {
		c.addf(permission.Ask, RuleUnlisted, "git ", sub, " is not a read-only git subcommand", true)
		return
	}
	var ops, opts []string
	for k := i + 1; k < v.len(); k++ {
		if s := v.vals[k]; strings.HasPrefix(s, "-") && s != "-" {
			opts = append(opts, s)
		} else {
			ops = append(ops, s)
		}
	}
	why, more := gitMoreListing(sub, ops, opts)
	if !more {
		why = gitListingOnly(sub, ops, opts)
	}
	if why != "" {
		c.add(permission.Ask, ArgsRule("git"), why, true)
		return
	}
	grepPatterns := map[int]bool{} // pattern pathspecs of git grep judged by a walk of the tracked files
	if sub == "grep" {
		// git grep prints matching lines of the files in the tree below
		// the working directory, or below the pathspecs after "--": a
		// recursive read. Without "--" the operands may be the pattern,
		// revisions or paths, which cannot be told apart here, so the
		// whole working tree is walked (as well as each operand).
		tree := walkOpts{recursive: true, content: true, hidden: true}
		dashes := slices.Index(v.vals[i+1:], "--")
		if !slices.ContainsFunc(opts, func(o string) bool {
			return longIs(o, "--untracked") || longIs(o, "--no-index") || longIs(o, "--recurse-submodules")
		}) && !a.gitGrepMaySearchRevision(v, i, dashes) {
			// Only the files the index tracks: an untracked .env is not
			// searched.
			tree.index, tree.indexTop = a.trackedScope()
		}
		walked := dashes < 0
		if walked {
			a.walkRoot(c, ".", 0, "git grep", tree)
		}
		for k := i + 1; k < v.len(); k++ {
			if s := v.vals[k]; !strings.HasPrefix(s, "-") && (dashes < 0 || k > i+1+dashes) {
				if tree.index != nil && v.literal(k) && gitPattern(s, v.flags[k], a.dir) && gitPlainPattern(s) {
					// A pattern git matches itself against the tracked
					// files below the working directory: every one of
					// them is judged, whichever the pattern names.
					grepPatterns[k] = true
					if !walked {
						walked = true
						a.walkRoot(c, ".", 0, "git grep", tree)
					}
					continue
				}
				a.walkRoot(c, s, v.flags[k], "git grep", tree)
			}
		}
	}
	listing := false
	var names []string
	dashes := false
	namesOnly := sub == "ls-files" && a.gitNamesOnly(v, i)
	for k := i + 1; k < v.len(); k++ {
		s := v.vals[k]
		if dashes || s == "-" || !strings.HasPrefix(s, "-") {
			if sub == "branch" {
				names = append(names, s)
				continue
			}
			// Any operand may be a pathspec: git log -p .env, git blame
			// .env and git diff HEAD .env print the file, from history
			// or the working tree, and git diff compares two files
			// without an index when one is outside the working tree. So
			// every operand goes through the path judge as a read (a
			// revision names no file, and passes); a pattern git expands
			// itself (a glob, which bash passes on as it is when it
			// matches nothing, or pathspec magic) may name any file.
			if grepPatterns[k] {
				continue // every tracked file it may name was judged
			}
			if p, ok := gitBlobPath(s); ok && !dashes {
				// <rev>:<path> names a file in history or the index, which
				// git show and git diff print: the path it names (taken
				// from the working directory) goes through the judge,
				// so that a secret file is not read from history.
				a.readPath(c, p, v.flags[k], "git")
			} else if v.literal(k) && !gitNoPathspec[sub] && !gitMoreNoPathspec[sub] && !namesOnly && gitPattern(s, v.flags[k], a.dir) {
				c.addf(permission.Ask, RuleGitPathspec, "pathspec ", s, " is a pattern git matches itself, which can name secret files", false)
			} else if gitProbeOnly[sub] || namesOnly {
				a.probePath(c, s, v.flags[k], "git")
			} else {
				a.readPath(c, s, v.flags[k], "git")
			}
			continue
		}
		if !strings.HasPrefix(s, "--") && len(s) == 2 && strings.IndexByte(gitValShort, s[1]) >= 0 && sub != "blame" ||
			slices.Contains(gitValLong, s) {
			k++ // the option's value is not a path
			continue
		}
		if s == "--" {
			dashes = true
			continue
		}
		name, val, has := strings.Cut(s, "=")
		// Options whose value is a file that git reads: blame's
		// --contents (shown line by line), -S and --ignore-revs-file
		// (quoted in errors), the diff order file -O, and
		// --pathspec-from-file.
		fileOpt := sub == "blame" && (s == "-S" || longIs(name, "--contents", "--ignore-revs-file")) ||
			longIs(name, "--pathspec-from-file") || sub == "rev-parse" && longIs(name, "--resolve-git-dir") ||
			sub == "config" && (s == "-f" || longIs(name, "--file")) || sub == "ls-files" && (s == "-X" || longIs(name, "--exclude-from")) ||
			strings.HasPrefix(s, "-O") && sub != "branch"
		if sub == "log" && strings.HasPrefix(s, "-L") {
			// -L<range>:<path> prints the history of lines of a file,
			// like <rev>:<path>: the path goes through the checker.
			val, fl := s[2:], v.flags[k]
			if val == "" && k+1 < v.len() {
				k++
				val, fl = v.vals[k], v.flags[k]
			}
			if j := strings.LastIndexByte(val, ':'); j >= 0 {
				val = val[j+1:]
			}
			a.readPath(c, val, fl, "git")
			continue
		}
		if fileOpt {
			if strings.HasPrefix(s, "-O") && len(s) > 2 {
				val, has = s[2:], true
			}
			fl := v.flags[k]
			if !has && k+1 < v.len() {
				k++
				val, fl = v.vals[k], v.flags[k]
			}
			a.readPath(c, val, fl, "git")
			continue
		}
		switch {
		case longIs(name, "--output", "--ext-diff", "--textconv", "--exec", "--upload-pack", "--paginate", "--open-files-in-pager", "--no-index", "--output-directory", "--receive-pack"):
			c.add(permission.Ask, ArgsRule("git"), "uses "+name+", which can run a program, write a file or read outside the repository", false)
		case sub == "branch" && (s == "-l" || longIs(name, "--list") || longIs(name, "--contains", "--no-contains", "--merged", "--no-merged", "--points-at")):
			listing = true
		case sub == "branch" && (slices.Contains([]string{"-d", "-D", "-m", "-M", "-c", "-C", "-f", "-u", "-t"}, s) ||
			len(s) > 2 && s[1] != '-' && strings.ContainsAny(s[1:], "dDmMcCfut") ||
			longIs(name, "--delete", "--move", "--copy", "--force", "--set-upstream-to", "--unset-upstream", "--edit-description", "--track", "--no-track", "--create-reflog")):
			c.add(permission.Ask, ArgsRule("git"), "git branch "+s+" changes branches", true)
		}
	}
	if len(names) > 0 && !listing {
		c.add(permission.Ask, ArgsRule("git"), "git branch "+names[0]+" creates a branch", true)
	}
	c.allow(RuleSafe, allowWhy)
}

// gitPattern reports an operand that reaches git as a pattern it matches
// itself: pathspec magic, quoted glob characters, or an unquoted glob that
// matches no file here (bash then passes it on as it is). A glob that
// matches files names those files, which go through the judge.
func gitPattern(s string, fl wordFlags, dir string) bool {
	if strings.HasPrefix(s, ":(") || strings.HasPrefix(s, ":!") || strings.HasPrefix(s, ":^") {
		return true
	}
	if !strings.ContainsAny(s, "*?[") {
		return false
	}
	if fl&wGlob == 0 {
		return true
	}
	matches, err := expandGlob(dir, s)
	return err == nil && len(matches) == 0
}

// gitValShort and gitValLong are the options of the read-only git
// subcommands (blame's -S and -L aside) whose value may follow as the next
// word and is not a path: -n 5, -S text, --author name.
const gitValShort = "nSG"

var gitValLong = []string{"--author", "--committer", "--grep", "--since", "--until", "--after", "--before",
	"--skip", "--max-count", "--min-parents", "--max-parents", "--format", "--encoding"}

// gitBlobPath returns the path of a <rev>:<path> or :[<stage>:]<path>
// operand, and false for operands without one (no colon, an empty path,
// or ":/<text>", which searches commit messages).
func gitBlobPath(s string) (string, bool) {
	i := strings.IndexByte(s, ':')
	if i < 0 {
		return "", false
	}
	p := s[i+1:]
	if i == 0 {
		if strings.HasPrefix(p, "/") {
			return "", false
		}
		if len(p) >= 2 && '0' <= p[0] && p[0] <= '3' && p[1] == ':' {
			p = p[2:] // :<stage>:<path>
		}
	}
	return p, p != ""
}

// jqWord reports whether the jq program f uses the keyword or function w:
// an occurrence that is not part of a longer name, a field (.w) or a
// variable ($w).
func jqWord(f, w string) bool {
	for i := 0; ; {
		k := strings.Index(f[i:], w)
		if k < 0 {
			return false
		}
		k += i
		end := k + len(w)
		if (k == 0 || !isWordByte(f[k-1]) && f[k-1] != '.' && f[k-1] != '$') && (end == len(f) || !isWordByte(f[end])) {
			return true
		}
		i = end
	}
}

// gitPlainPattern reports a pathspec pattern without magic (":(top)",
// ":/"), "..", or a leading "/": git matches it against the paths below
// the working directory only.
func gitPlainPattern(s string) bool {
	return s != "" && s[0] != ':' && s[0] != '/' && !strings.Contains(s, "..")
}

// gitGrepMaySearchRevision reports a git grep (the subcommand at i, with
// "--" at dashes after it, or -1) that may search a revision's tree: a
// word before "--", other than the pattern, that names no existing path
// may be a revision (git grep TOKEN HEAD), whose files are those of the
// commit, not of the index.
func (a *analyzer) gitGrepMaySearchRevision(v *argv, i, dashes int) bool {
	end := v.len()
	if dashes >= 0 {
		end = i + 1 + dashes
	}
	patternGiven := false
	var words []int
	for k := i + 1; k < end; k++ {
		s := v.vals[k]
		switch {
		case s == "-e" || s == "-f" || strings.HasPrefix(s, "-e") || strings.HasPrefix(s, "-f") && !strings.HasPrefix(s, "--") ||
			longIs(strings.SplitN(s, "=", 2)[0], "--regexp", "--file"):
			patternGiven = true
			if s == "-e" || s == "-f" || !strings.Contains(s, "=") && strings.HasPrefix(s, "--") {
				k++ // the pattern, or the file of patterns, is the next word
			}
		case !strings.HasPrefix(s, "-") || s == "-":
			words = append(words, k)
		}
	}
	if !patternGiven && len(words) > 0 {
		words = words[1:]
	}
	for _, k := range words {
		if !v.literal(k) || a.dir == "" {
			return true
		}
		p := v.vals[k]
		if !path.IsAbs(p) {
			p = a.dir + "/" + p
		}
		if _, err := os.Lstat(p); err != nil {
			return true
		}
	}
	return false
}

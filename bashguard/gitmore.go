package bashguard

import (
	"slices"
	"strings"
)

// The read-only git subcommands beyond the everyday porcelain, each
// checked against its manual (git-worktree(1), git-submodule(1),
// git-for-each-ref(1), git-check-ignore(1), git-check-attr(1),
// git-notes(1), git-var(1), git-diff-tree(1), git-diff-files(1),
// git-diff-index(1), git-cherry(1), git-range-diff(1),
// git-symbolic-ref(1), git-show-branch(1), git-version(1), git-help(1)),
// and the subcommands whose pathspecs name entries of the index only.

// gitMoreReadOnly are read-only git subcommands, in their listing forms
// (gitMoreListing says which forms are): the allow reason of each.
var gitMoreReadOnly = map[string]string{
	"worktree": "read-only git worktree list", "submodule": "read-only git submodule status",
	"for-each-ref": "read-only git for-each-ref", "check-ignore": "read-only git check-ignore",
	"check-attr": "read-only git check-attr", "notes": "read-only git notes list",
	"var": "read-only git var", "diff-tree": "read-only git diff-tree", "diff-files": "read-only git diff-files",
	"diff-index": "read-only git diff-index", "cherry": "read-only git cherry", "range-diff": "read-only git range-diff",
	"symbolic-ref": "read-only git symbolic-ref", "show-branch": "read-only git show-branch",
	"version": "read-only git version", "help": "git help prints documentation", "fsck": "read-only git fsck",
}

// gitMoreNoPathspec are those of gitMoreReadOnly whose operands are names
// (refs, patterns of refs, notes, variables, revisions), never pathspecs.
var gitMoreNoPathspec = map[string]bool{"worktree": true, "for-each-ref": true, "notes": true, "var": true,
	"cherry": true, "symbolic-ref": true, "show-branch": true, "version": true, "help": true, "fsck": true}

// gitProbeOnly are the subcommands whose path operands git only matches
// against the ignore and attribute rules: it reads no file they name, so
// "git check-ignore .env" asks nothing of the file itself.
var gitProbeOnly = map[string]bool{"check-ignore": true, "check-attr": true}

// gitMoreListing says why a call of one of gitMoreReadOnly is not one of
// its read-only forms, or returns "": worktree list; submodule with no
// subcommand, status or summary (foreach runs commands, the others clone,
// fetch or change the working tree); notes with no subcommand, list or
// show; symbolic-ref reading one ref (two operands, -d or -m change it);
// help in its manual or listing forms (--web starts a browser, --info an
// interactive reader); fsck without --lost-found, which writes. ok reports whether sub is one of them.
func gitMoreListing(sub string, ops, opts []string) (why string, ok bool) {
	if _, ok = gitMoreReadOnly[sub]; !ok {
		return "", false
	}
	has := func(names ...string) bool { return hasOpt(opts, names...) }
	switch sub {
	case "worktree":
		if len(ops) == 0 || ops[0] != "list" {
			return "git worktree without list changes the worktrees", true
		}
	case "submodule":
		if len(ops) > 0 && ops[0] != "status" && ops[0] != "summary" {
			return "git submodule " + ops[0] + " changes the submodules, reaches the network or runs commands", true
		}
	case "notes":
		if len(ops) > 0 && ops[0] != "list" && ops[0] != "show" {
			return "git notes " + ops[0] + " changes the notes", true
		}
	case "symbolic-ref":
		if len(ops) > 1 || has("-d", "--delete", "-m") {
			return "git symbolic-ref with a target, -d or -m changes a ref", true
		}
	case "fsck":
		if has("--lost-found") {
			return "git fsck --lost-found writes the dangling objects into .git/lost-found", true
		}
	case "help":
		for _, o := range opts {
			n, _, _ := strings.Cut(o, "=")
			if !slices.Contains([]string{"-a", "--all", "-g", "--guides", "-c", "--config", "-m", "--man", "--verbose", "--no-verbose",
				"--no-external-commands", "--no-aliases", "--user-interfaces", "--developer-interfaces"}, n) {
				return "git help " + o + " opens a browser or an interactive reader, or is not known to be harmless", true
			}
		}
	}
	return "", true
}

// gitIndexOnly reports an unlisted git subcommand whose path operands name
// entries of the index, never files it reads: "git rm --cached" removes
// the entries, "git restore --staged" (without --worktree) and "git reset
// [rev] [--] paths" set them from a commit, and "git update-index" with
// only the options that set or clear an entry's flags or remove it. Such a
// command writes the repository (asked, as an unlisted git subcommand) but
// touches no file a path names, so a secret among its operands is no read
// of it ("git rm --cached .env" is how a committed secret is taken out of
// the index). v is the command line, whose subcommand is at sub.
func gitIndexOnly(v *argv, sub int) bool {
	if sub >= v.len() {
		return false
	}
	var opts []string
	for k := sub + 1; k < v.len(); k++ {
		if s := v.vals[k]; s == "--" {
			break
		} else if strings.HasPrefix(s, "-") && s != "-" {
			opts = append(opts, s)
		}
	}
	short := func(ch byte) bool {
		for _, o := range opts {
			if len(o) > 1 && o[1] != '-' && strings.IndexByte(o[1:], ch) >= 0 {
				return true
			}
		}
		return false
	}
	long := func(name string) bool {
		for _, o := range opts {
			n, _, _ := strings.Cut(o, "=")
			if len(n) > 2 && longIs(n, name) {
				return true
			}
		}
		return false
	}
	switch v.vals[sub] {
	case "rm":
		return long("--cached")
	case "restore":
		return (short('S') || long("--staged")) && !short('W') && !long("--worktree")
	case "reset":
		// --hard, --merge and --keep refuse paths; their operand is a
		// commit, which names no file.
		return !short('p') && !long("--patch")
	case "update-index":
		for _, o := range opts {
			if !slices.Contains([]string{"--assume-unchanged", "--no-assume-unchanged", "--skip-worktree", "--no-skip-worktree", "--force-remove", "-q"}, o) {
				return false
			}
		}
		return len(opts) > 0
	}
	return false
}

// gitSubIndex returns the index of git's subcommand in v: the first word
// after git's own options, skipping the values of -C, -c and the long
// options given the value as the next word.
func gitSubIndex(v *argv) int {
	i := 1
	for ; i < v.len() && strings.HasPrefix(v.vals[i], "-"); i++ {
		switch v.vals[i] {
		case "-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--attr-source":
			i++
		}
	}
	return i
}

// gitSubHelp reports "git SUB --help" (or -h): git prints the manual or
// the usage of SUB, whatever SUB does otherwise.
func gitSubHelp(rest []string) bool {
	return len(rest) == 1 && (rest[0] == "--help" || rest[0] == "-h")
}

// hasOpt reports whether one of opts, each "--name" or "--name=value",
// is one of names.
func hasOpt(opts []string, names ...string) bool {
	for _, o := range opts {
		n, _, _ := strings.Cut(o, "=")
		if slices.Contains(names, n) {
			return true
		}
	}
	return false
}

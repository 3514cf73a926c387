package bashguard

import (
	"slices"
	"strings"
)

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

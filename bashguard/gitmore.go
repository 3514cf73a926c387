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
	row, ok := gitIndexOnlySubs[v.vals[sub]]
	if !ok {
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
	given := func(names []string) bool {
		return slices.ContainsFunc(names, func(name string) bool { return gitOptGiven(opts, name) })
	}
	if len(row.any) > 0 && !given(row.any) || given(row.none) {
		return false
	}
	if row.only == nil {
		return true
	}
	for _, o := range opts {
		if !slices.Contains(row.only, o) {
			return false
		}
	}
	return len(opts) > 0
}

// gitIndexOnlyRow says when the path operands of a git subcommand name
// index entries only, a row of gitIndexOnlySubs: one of any is given
// (when any names some), none of none is, and, when only is set, there
// are options and each is spelled as one of only. An option of any and
// none is -X (the letter, alone or in a cluster) or --long (a prefix of
// it too).
type gitIndexOnlyRow struct {
	any, none, only []string
}

// gitOptGiven reports whether name (-X or --long) is among opts.
func gitOptGiven(opts []string, name string) bool {
	for _, o := range opts {
		if len(name) == 2 {
			if len(o) > 1 && o[1] != '-' && strings.IndexByte(o[1:], name[1]) >= 0 {
				return true
			}
			continue
		}
		if n, _, _ := strings.Cut(o, "="); len(n) > 2 && longIs(n, name) {
			return true
		}
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

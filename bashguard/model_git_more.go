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
	row, ok := gitIndexOnlySubs()[v.vals[sub]]
	if !ok {
		return false
	}
	var given []*option
	readable := true
	scanSpec(row.spec, v, sub+1, false, func(e *scanned) {
		switch {
		case e.problem != "":
			readable = false // as git would not: asked for as a read
		case e.negated:
			// The last spelling wins: --cached --no-cached is no --cached.
			base := row.spec.optionNamed("--" + strings.TrimPrefix(e.spell, "--no-"))
			given = append(slices.DeleteFunc(given, func(o *option) bool { return o == base }), e.opt)
		case e.opt != nil && e.opt != &dashDashOpt:
			given = append(given, e.opt)
		}
	})
	has := func(names []string) bool {
		return slices.ContainsFunc(names, func(n string) bool { return slices.Contains(given, row.spec.optionNamed(n)) })
	}
	switch {
	case !readable, len(row.any) > 0 && !has(row.any), has(row.none):
		return false
	case row.only == nil:
		return true
	}
	for _, o := range given {
		if !slices.ContainsFunc(row.only, func(n string) bool { return row.spec.optionNamed(n) == o }) {
			return false
		}
	}
	return len(given) > 0
}

// gitIndexOnlyRow says when the path operands of a git subcommand name
// index entries only, a row of gitIndexOnlySubs: an option of any is given
// (when any names some), none of none is, and, when only is set, there
// are options and each is one of only. Each names an option by one of its
// spellings in spec, the subcommand's options, by which the line is read.
type gitIndexOnlyRow struct {
	any, none, only []string
	spec            *spec
}

// optionNamed returns the option of s spelled name ("-S", "--staged").
func (s *spec) optionNamed(name string) *option {
	if len(name) == 2 {
		if sp := s.tables().short[name[1]]; sp != nil {
			return sp.opt
		}
		return nil
	}
	if sp := s.longExact(name); sp != nil {
		return sp.opt
	}
	return nil
}

// gitSubIndex returns the index of git's subcommand in v: the first word
// after git's own options, read by gitSpec as the git model reads them.
func gitSubIndex(v *argv) int {
	return scanSpec(gitSpec(), v, 1, true, func(*scanned) {})
}

// gitSubHelp reports "git SUB --help" (or -h): git prints the manual or
// the usage of SUB, whatever SUB does otherwise.
func gitSubHelp(rest []string) bool {
	return len(rest) == 1 && (rest[0] == "--help" || rest[0] == "-h")
}

package bashguard

import (
	"path"
	"strings"
)

// grep's name filters in a recursive search: --include=GLOB searches only
// the files whose base name matches, --exclude=GLOB skips those that
// match, --exclude-dir=GLOB does not descend into the directories that
// match. GNU grep's manual: "If contradictory --include and --exclude
// options are given, the last matching one wins. If no --include or
// --exclude options match, a file is included unless the first such
// option is --include."
//
// The walk skips an entry only where grep surely skips it: a pattern is
// understood only when it holds no '[' and no backslash (fnmatch's
// bracket expressions and escapes are not path.Match's); any other
// pattern is taken to match for --include and not to match for
// --exclude, so the file is judged. A file that matches both an
// --include and an --exclude is judged too.

// nameKind is what a name filter does.
type nameKind uint8

const (
	includeFile nameKind = iota + 1
	excludeFile
	excludeDir
)

// nameFilter is one of grep's name options with its pattern.
type nameFilter struct {
	kind    nameKind
	pattern string
}

// matches reports whether the base name surely matches f's pattern
// (sure is false when the pattern is not understood).
func (f nameFilter) matches(name string) (match, sure bool) {
	if strings.ContainsAny(f.pattern, "[\\") {
		return false, false
	}
	m, err := path.Match(f.pattern, name)
	return m, err == nil
}

// skipsByName reports whether grep surely skips the entry name of a tree
// it searches (dir: the entry is a directory it would descend into).
func skipsByName(filters []nameFilter, name string, dir bool) bool {
	if len(filters) == 0 {
		return false
	}
	if dir {
		for _, f := range filters {
			if f.kind == excludeDir {
				if m, sure := f.matches(name); m && sure {
					return true
				}
			}
		}
		return false
	}
	first := nameKind(0)
	included, excluded := false, false
	for _, f := range filters {
		if f.kind == excludeDir {
			continue
		}
		if first == 0 {
			first = f.kind
		}
		m, sure := f.matches(name)
		switch {
		case f.kind == includeFile && (m || !sure):
			included = true
		case f.kind == excludeFile && m && sure:
			excluded = true
		}
	}
	switch {
	case included:
		return false
	case excluded:
		return true
	}
	return first == includeFile
}

package hooks

import (
	"regexp"
	"strings"
)

// A matcher selects tool names as Claude Code's hook matchers do: empty or
// "*" matches every tool; a name made only of letters, digits, '_' and
// '|' is an exact name or a '|'-separated list of exact names; anything
// else is a regular expression (RE2 syntax) that must match the whole
// name, so "Notebook.*" matches "NotebookEdit" but "Edit" does not match
// "NotebookEdit".
type matcher struct {
	all   bool
	names []string
	re    *regexp.Regexp
}

func compileMatcher(s string) (matcher, error) {
	if s == "" || s == "*" {
		return matcher{all: true}, nil
	}
	plain := true
	for _, r := range s {
		if !(r == '_' || r == '|' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			plain = false
			break
		}
	}
	if plain {
		return matcher{names: strings.Split(s, "|")}, nil
	}
	re, err := regexp.Compile(`^(?:` + s + `)$`)
	if err != nil {
		return matcher{}, err
	}
	return matcher{re: re}, nil
}

func (m matcher) match(name string) bool {
	switch {
	case m.all:
		return true
	case m.re != nil:
		return m.re.MatchString(name)
	}
	for _, n := range m.names {
		if n == name {
			return true
		}
	}
	return false
}

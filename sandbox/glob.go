package sandbox

import (
	"errors"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// GlobBase checks a glob pattern (doublestar syntax, "**" included) before
// any walk: the pattern's fixed base directory, everything before the
// first component with a wildcard, must resolve inside a root, and the
// wildcard part may not contain "." or ".." components. It returns the
// resolved base and the wildcard part, relative to it.
//
// A relative pattern is taken against the configured working directory.
func (s *Sandbox) GlobBase(pattern string) (base, rest string, err error) {
	if s == nil {
		s = none
	}
	if err := validate(pattern); err != nil {
		return "", "", err
	}
	abs := pattern
	if abs[0] != '/' {
		if s.workDir == "" {
			return "", "", pathErr(ErrInvalidPath, pattern, "", "relative pattern and no working directory configured", nil)
		}
		abs = s.workDir + "/" + abs
	}
	b, rest := doublestar.SplitPattern(abs)
	rest = strings.Trim(rest, "/")
	if rest == "" {
		rest = "."
	}
	for e := range strings.SplitSeq(rest, "/") {
		if e == ".." || e == "." && rest != "." {
			return "", "", pathErr(ErrInvalidPath, pattern, "", "the wildcard part of a pattern may not contain \".\" or \"..\"", nil)
		}
	}
	if !doublestar.ValidatePattern(rest) {
		return "", "", pathErr(ErrInvalidPath, pattern, "", "malformed pattern", doublestar.ErrBadPattern)
	}
	if b == "" {
		b = "/"
	}
	var w walker
	r, err := s.resolve(&w, b)
	if err != nil {
		var pe *PathError
		if errors.As(err, &pe) {
			pe.Path = pattern
			pe.Reason = "base directory " + pe.Reason
		}
		return "", "", err
	}
	return r, rest, nil
}

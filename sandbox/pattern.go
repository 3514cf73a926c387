package sandbox

import (
	"path"
	"strings"
)

// pattern is one compiled protected or secret pattern.
//
// Syntax: components separated by "/", each matched with [path.Match]
// (so "*", "?" and "[...]" work within a component), and "**" as a whole
// component matching any number of components. Matching ignores case, so
// that ".GIT/config" on a case-insensitive file system is still caught; a
// false match only makes a decision stricter. A pattern ending in "/" names
// a directory and matches it and everything beneath it. A pattern beginning
// with "/" is matched against the whole absolute path; any other pattern
// matches the trailing components at any depth.
type pattern struct {
	src      string
	anchored bool
	dir      bool
	double   bool // has a "**" component
	elems    []string
}

func compilePattern(s string) (pattern, error) {
	p := pattern{src: s}
	t := strings.ToLower(s)
	if strings.HasPrefix(t, "/") {
		p.anchored = true
		t = strings.TrimLeft(t, "/")
	}
	if strings.HasSuffix(t, "/") {
		p.dir = true
		t = strings.TrimRight(t, "/")
	}
	if t == "" || strings.IndexByte(t, 0) >= 0 {
		return p, pathErr(ErrInvalidPath, s, "", "empty or malformed pattern", nil)
	}
	for e := range strings.SplitSeq(t, "/") {
		if e == "" || e == "." || e == ".." {
			return p, pathErr(ErrInvalidPath, s, "", "pattern has an empty, \".\" or \"..\" component", nil)
		}
		if _, err := path.Match(e, ""); err != nil {
			return p, pathErr(ErrInvalidPath, s, "", "malformed pattern component "+e, err)
		}
		p.double = p.double || e == "**"
		p.elems = append(p.elems, e)
	}
	return p, nil
}

// match reports whether the lower-cased components of an absolute path
// match the pattern.
func (p *pattern) match(comps []string) bool {
	if p.anchored {
		return matchElems(p.elems, comps, p.dir)
	}
	if !p.double && !p.dir {
		// Without "**" a file pattern can only match the last components.
		i := len(comps) - len(p.elems)
		return i >= 0 && matchElems(p.elems, comps[i:], false)
	}
	for i := range comps {
		if matchElems(p.elems, comps[i:], p.dir) {
			return true
		}
	}
	return false
}

// matchElems matches elems against the start of comps. Unless prefix is
// set, the match must use up every component.
func matchElems(elems, comps []string, prefix bool) bool {
	for len(elems) > 0 {
		if elems[0] == "**" {
			for k := 0; k <= len(comps); k++ {
				if matchElems(elems[1:], comps[k:], prefix) {
					return true
				}
			}
			return false
		}
		if len(comps) == 0 {
			return false
		}
		if ok, _ := path.Match(elems[0], comps[0]); !ok {
			return false
		}
		elems, comps = elems[1:], comps[1:]
	}
	return prefix || len(comps) == 0
}

// patternSet is an ordered list of compiled patterns.
type patternSet []pattern

func compilePatterns(src []string) (patternSet, error) {
	set := make(patternSet, 0, len(src))
	for _, s := range src {
		p, err := compilePattern(s)
		if err != nil {
			return nil, err
		}
		set = append(set, p)
	}
	return set, nil
}

// first returns the first pattern matching any of the absolute paths.
func (set patternSet) first(paths ...string) (string, bool) {
	if len(set) == 0 {
		return "", false
	}
	for _, p := range paths {
		if p == "" {
			continue
		}
		comps := strings.Split(strings.Trim(strings.ToLower(p), "/"), "/")
		for i := range set {
			if set[i].match(comps) {
				return set[i].src, true
			}
		}
	}
	return "", false
}

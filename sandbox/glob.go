package sandbox

import (
	"errors"
	"strconv"
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
		if dotLike(e) {
			return "", "", pathErr(ErrInvalidPath, pattern, "", "the wildcard part of a pattern may not contain "+strconv.Quote(e)+", which a glob engine reads as \".\" or \"..\" (node-glob and minimatch take an escaped character or a one-character class for the character itself)", nil)
		}
	}
	if why := checkAlternatives(rest); why != "" {
		return "", "", pathErr(ErrInvalidPath, pattern, "", why, nil)
	}
	if !doublestar.ValidatePattern(rest) {
		return "", "", pathErr(ErrInvalidPath, pattern, "", "malformed pattern", doublestar.ErrBadPattern)
	}
	if b == "" {
		b = "/"
	}
	var w walker
	r, err := s.resolve(&w, b)
	if err == nil && strings.ContainsRune(b, '\\') {
		// An engine that unescapes the fixed part ("\\.\\./x" is "../x" to
		// node-glob) walks another directory: that one must be inside too.
		var w2 walker
		_, err = s.resolve(&w2, unescapeGlob(b))
	}
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

// maxAlternatives bounds the brace expansion of a pattern's wildcard part.
const maxAlternatives = 1024

// checkAlternatives expands the brace alternatives of a pattern's wildcard
// part ("{..,src}/*" is "../*" or "src/*" to a glob that expands braces
// before it walks, as bash and the glob libraries of other languages do)
// and says why the part is refused: an alternative that is an absolute
// path or starts with "~" ("{/etc,src}/*" is "/etc/*" once expanded, and
// "{~,src}/*" the home directory to bash), an alternative with a "." or ".."
// component, a brace group holding ".." (a range such as "{-../}" in some
// dialects), or too many alternatives to check. It returns "" when none
// applies.
func checkAlternatives(rest string) string {
	if !strings.Contains(rest, "{") {
		return ""
	}
	var alts []string
	why := expandAlternatives(rest, &alts)
	if why != "" {
		return why
	}
	for _, a := range alts {
		// The part is relative to the base; an alternative that is not,
		// once the braces are expanded, names a directory of its own.
		switch {
		case strings.HasPrefix(a, "/"):
			return "an alternative of the wildcard part is an absolute path (" + strconv.Quote(a) + ")"
		case strings.HasPrefix(a, "~"):
			return "an alternative of the wildcard part starts with \"~\" (" + strconv.Quote(a) + "), which a shell expands to a home directory"
		}
		for e := range strings.SplitSeq(a, "/") {
			if e == ".." || e == "." || dotLike(e) {
				return "an alternative of the wildcard part names \".\" or \"..\" (" + strconv.Quote(a) + ")"
			}
		}
	}
	return ""
}

// expandAlternatives appends to out every expansion of the first brace
// group of p, each expanded in turn, as doublestar reads braces (a
// backslash escapes, a character class is skipped, groups nest).
func expandAlternatives(p string, out *[]string) string {
	open := -1
scan:
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '[':
			for i++; i < len(p) && p[i] != ']'; i++ {
				if p[i] == '\\' {
					i++
				}
			}
		case '{':
			open = i
			break scan
		}
	}
	if open < 0 {
		if len(*out) >= maxAlternatives {
			return "the wildcard part has more than " + strconv.Itoa(maxAlternatives) + " alternatives"
		}
		*out = append(*out, p)
		return ""
	}
	inner := p[open+1:]
	end := closingBrace(inner)
	if end < 0 {
		return "malformed pattern: a \"{\" without its \"}\""
	}
	inner = inner[:end]
	if strings.Contains(inner, "..") {
		return "a brace group of the wildcard part holds \"..\" (a range in some glob dialects)"
	}
	prefix, suffix := p[:open], p[open+1+end+1:]
	depth, start := 0, 0
	for i := 0; i <= len(inner); i++ {
		if i < len(inner) {
			switch inner[i] {
			case '\\':
				i++
				continue
			case '[':
				for i++; i < len(inner) && inner[i] != ']'; i++ {
					if inner[i] == '\\' {
						i++
					}
				}
				continue
			case '{':
				depth++
				continue
			case '}':
				depth--
				continue
			case ',':
				if depth > 0 {
					continue
				}
			default:
				continue
			}
		}
		if why := expandAlternatives(prefix+inner[start:min(i, len(inner))]+suffix, out); why != "" {
			return why
		}
		start = i + 1
	}
	return ""
}

// closingBrace returns the index in s of the "}" closing a group opened
// just before s, or -1.
func closingBrace(s string) int {
	depth := 1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			for i++; i < len(s) && s[i] != ']'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// dotLike reports whether a pattern component without "*" matches "." or
// "..": "[.][.]", ".[.]", "\\.\\.", "?.", "??". Glob engines differ on
// such components (minimatch turns a one-character class and an escape
// into the literal character, and then joins the component to the path
// as written, so "[.][.]/x" lists the parent's x), so each is refused. A
// component with a "*" ("*", ".*") is matched against directory entries
// only, which never hold "." or "..".
func dotLike(e string) bool {
	if e == "" || e == "." || e == ".." || strings.Contains(e, "*") || !strings.ContainsAny(e, `?[\`) {
		return false
	}
	for _, name := range [...]string{".", ".."} {
		if ok, _ := doublestar.Match(e, name); ok {
			return true
		}
	}
	return false
}

// unescapeGlob removes a glob's backslash escapes: "\\." is ".".
func unescapeGlob(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '\\' && i+1 < len(p) {
			i++
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

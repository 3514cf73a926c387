package content

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/toolgate/toolgate/permission"
)

// pathText denies a path or pattern that a tool may read as another one
// and reports whether it may be checked. The checks resolve it as written,
// while a tool may first trim white space from its ends, as Claude Code's
// tools (JavaScript's trim) and Python's strip do, and bring it to Unicode
// normalisation form C, as Claude Code's tools do: " /etc/passwd" would be
// a name in the working directory to the checks and /etc/passwd to the
// tool, and "\u212Aeys" (with the Kelvin sign) is "Keys" in NFC.
func (c *stage) pathText(field, p string) bool {
	first, _ := utf8.DecodeRuneInString(p)
	last, _ := utf8.DecodeLastRuneInString(p)
	var rule permission.RuleID
	why := ""
	switch {
	case trimmedSpace(first) || trimmedSpace(last):
		rule, why = RulePathSpace, "has white space at its start or end, which a tool may trim: write the path without it"
	case !isASCII(p) && !norm.NFC.IsNormalString(p):
		rule, why = RulePathNFC, "is not in Unicode normalisation form C, to which a tool may bring it: write the path in NFC"
	default:
		return true
	}
	c.InsideRoots = false
	// Written with escapes for what is not ASCII, so that a reader sees
	// the characters that differ.
	c.guardDeny(permission.LayerTraits, rule, fmt.Sprintf("%s %+q %s", field, p, why))
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// trimmedSpace reports whether r is white space that a common trim
// removes: Unicode white space (Go's unicode.IsSpace), the byte order mark
// (JavaScript's trim) and the separators U+001C to U+001F (Python's strip).
func trimmedSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return r == ' ' || '\t' <= r && r <= '\r' || 0x1c <= r && r <= 0x1f
	}
	return unicode.IsSpace(r) || r == '\ufeff'
}

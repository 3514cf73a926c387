package permission

import (
	"strings"
	"unicode/utf8"
)

// Rule is one permission rule in Claude Code's syntax: a tool name or
// name pattern, optionally followed by a specifier in parentheses.
//
//	Bash                    every Bash call
//	*                       every tool
//	mcp__github             every tool of the MCP server github
//	mcp__github__*          every tool whose name matches the glob
//	Bash(npm run test:*)    a shell command with the words "npm run test" as its prefix
//	Bash(git * main)        a shell command; * matches any words
//	Read(./src/**)          a path, gitignore-style with **
//	WebFetch(domain:x.com)  a domain
//
// A Rule does not carry a decision: the list it appears in (allow, ask or
// deny) does. Parse a rule with [ParseRule]; [Rule.String] prints it back
// in the same syntax.
type Rule struct {
	// Tool is a tool name, "*", or a name pattern in which * matches any
	// run of characters.
	Tool string
	// Specifier is the text inside the parentheses, without them. It is
	// empty for a rule that applies to every call of the tool.
	Specifier string
}

// maxRuleLen bounds a rule's length; longer input is refused.
const maxRuleLen = 4096

// ParseRule parses one rule. Surrounding white space is ignored. A rule
// whose specifier is "*" (Bash(*)) is the same as the bare tool name.
//
// A malformed rule is an *Error with the byte offset of the problem.
func ParseRule(s string) (Rule, error) {
	lead := len(s) - len(strings.TrimLeft(s, " \t\r\n"))
	t := strings.TrimSpace(s)
	fail := func(off int, reason string) (Rule, error) {
		return Rule{}, &Error{Index: -1, Offset: lead + off, Input: s, Reason: reason}
	}
	if t == "" {
		return Rule{}, &Error{Index: -1, Input: s, Reason: "empty rule"}
	}
	if len(s) > maxRuleLen {
		return fail(0, "rule longer than 4096 bytes")
	}
	if !utf8.ValidString(t) {
		return fail(0, "rule is not valid UTF-8")
	}
	name, spec, hasSpec := t, "", false
	if i := strings.IndexByte(t, '('); i >= 0 {
		if t[len(t)-1] != ')' {
			return fail(len(t)-1, "specifier not closed: a rule with '(' must end with ')'")
		}
		name, spec, hasSpec = t[:i], t[i+1:len(t)-1], true
	} else if j := strings.IndexByte(t, ')'); j >= 0 {
		return fail(j, "')' without '('")
	}
	if name == "" {
		return fail(0, "missing tool name")
	}
	for i := 0; i < len(name); i++ {
		if !isToolNameByte(name[i]) {
			return fail(i, "invalid character "+quoteByte(name[i])+" in tool name")
		}
	}
	if hasSpec {
		if strings.TrimSpace(spec) == "" {
			return fail(len(name)+1, "empty specifier: write the bare tool name to match every call")
		}
		if spec != strings.TrimSpace(spec) {
			return fail(len(name)+1, "specifier has leading or trailing white space")
		}
		if strings.ContainsAny(spec, "\x00\n\r") {
			return fail(len(name)+1+strings.IndexAny(spec, "\x00\n\r"), "control character in specifier")
		}
	}
	if spec == "*" {
		spec = ""
	}
	return Rule{Tool: name, Specifier: spec}, nil
}

// MustParseRule is like [ParseRule] but panics on error. It is meant for
// rules written in Go source, which are known to be valid.
func MustParseRule(s string) Rule {
	r, err := ParseRule(s)
	if err != nil {
		panic(err)
	}
	return r
}

// String prints the rule in the syntax ParseRule accepts.
func (r Rule) String() string {
	if r.Specifier == "" {
		return r.Tool
	}
	return r.Tool + "(" + r.Specifier + ")"
}

func isToolNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '-' || c == '*' || c == '.' || c == ':' || c == '/' || c == '@'
}

func quoteByte(c byte) string {
	const hex = "0123456789abcdef"
	if c >= 0x20 && c < 0x7f {
		return "'" + string(rune(c)) + "'"
	}
	return "0x" + string([]byte{hex[c>>4], hex[c&15]})
}

// CoversTool reports whether r's tool part names the tool called name, as
// a [Checker] matches it: the same name, a name pattern whose '*' matches
// it, or a whole MCP server ("mcp__github") naming one of its tools
// ("mcp__github__create_issue"). The specifier is not looked at.
func (r Rule) CoversTool(name string) bool {
	switch {
	case r.Tool == name:
		return true
	case hasStar(r.Tool):
		return matchStar(r.Tool, name)
	case strings.HasPrefix(r.Tool, "mcp__") && !strings.Contains(r.Tool[len("mcp__"):], "__"):
		return strings.HasPrefix(name, r.Tool+"__")
	}
	return false
}

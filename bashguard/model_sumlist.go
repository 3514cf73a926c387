package bashguard

import (
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// md5sum -c LIST (and the other checksum programs') reads LIST and every
// file its lines name: "HASH  NAME", "HASH *NAME", or with --tag "ALGO
// (NAME) = HASH". Each name, taken from the working directory as the
// program takes it, is a read through the path judge; a line of another
// form (an escaped name starting with "\", or a malformed line) is asked.

// sumList judges the checksum list p and the files it names.
func (m *cmdCall) sumList(c *verdictAcc, p string, fl wordFlags, who string) {
	if fl&wDynamic == 0 && (p == "-" || p == "/dev/stdin" || p == "/dev/fd/0") {
		c.add(permission.Ask, RulePathList, "checks the files named on its standard input, which is only known at run time", false)
		return
	}
	if fl&wProcIn != 0 {
		c.addf(permission.Ask, RulePathList, "checks the files named in the output of ", p, ", which is only known at run time", false)
		return
	}
	if !m.readPath(c, p, fl, who) || fl&wGlob != 0 {
		return
	}
	if m.paths == nil {
		c.addf(permission.Ask, RulePathList, "checks the files named in ", p, " and no path checker is configured", false)
		return
	}
	lines, why := m.readList(p, '\n')
	if why != "" {
		c.addf(permission.Ask, RulePathList, "checks the files named in ", p, ", which "+why, false)
		return
	}
	for _, l := range lines {
		name, ok := sumLineName(strings.TrimSuffix(l, "\r"))
		if !ok {
			c.addf(permission.Ask, RulePathList, "checks the files named in ", p, ", whose line "+l+" is not a plain checksum line", false)
			return
		}
		m.readPath(c, name, 0, who)
	}
}

// sumLineName returns the file name of one checksum line.
func sumLineName(l string) (string, bool) {
	if l == "" || l[0] == '\\' {
		return "", false
	}
	if h, rest, ok := strings.Cut(l, " "); ok && isHexWord(h) {
		if len(rest) > 1 && (rest[0] == ' ' || rest[0] == '*') {
			return rest[1:], true
		}
		return "", false
	}
	// ALGO (NAME) = HASH
	i, j := strings.Index(l, " ("), strings.LastIndex(l, ") = ")
	if i <= 0 || j < i+2 || !isHexWord(l[j+4:]) && !isBase64Word(l[j+4:]) {
		return "", false
	}
	return l[i+2 : j], true
}

func isHexWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if !('0' <= s[i] && s[i] <= '9' || 'a' <= s[i] && s[i] <= 'f' || 'A' <= s[i] && s[i] <= 'F') {
			return false
		}
	}
	return s != ""
}

func isBase64Word(s string) bool {
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if !('0' <= ch && ch <= '9' || 'a' <= ch && ch <= 'z' || 'A' <= ch && ch <= 'Z' || ch == '+' || ch == '/' || ch == '=') {
			return false
		}
	}
	return s != ""
}

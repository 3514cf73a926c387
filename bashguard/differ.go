package bashguard

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/toolgate/toolgate/permission"
)

// The guard judges the syntax tree of mvdan.cc/sh, not bash's own reading
// of the text. Where the two are known to part (found by running scripts
// under real bash and comparing, see differential_test.go), the construct
// is refused rather than trusted:
//
//   - a carriage return is an ordinary character to bash and a blank to
//     the parser ("LC_ALL=C\rrm -rf ~");
//   - a NUL byte ends the text that bash is given;
//   - "$" followed by a backslash-newline is an expansion to bash, which
//     joins the lines first ("$\\\n#" is "$#", "$\\\n(id)" runs id), and a
//     plain "$" to the parser;
//   - a backslash that ends the script is dropped by bash and kept by the
//     parser;
//   - a comment that ends in a backslash ends at the newline in bash, while
//     the parser continues it onto the next line, hiding that line;
//   - a here-document delimiter with characters other than letters, digits
//     and "_", or an unquoted here-document whose body joins lines with a
//     backslash, may end the body at another line in bash.
func (a *analyzer) ambiguous(text string, f *syntax.File) {
	if i := strings.IndexByte(text, '\r'); i >= 0 {
		a.refuse(text, i, "carriage return: bash reads it as part of a word and the parser as a blank, so they see different commands")
	}
	if i := strings.IndexByte(text, 0); i >= 0 {
		a.refuse(text, i, "NUL byte: bash stops reading the script there")
	}
	if i := strings.Index(text, "$\\\n"); i >= 0 {
		a.refuse(text, i, "$ followed by a backslash-newline: bash joins the lines first and reads an expansion ($#, $(...)), the parser a plain $")
	}
	if n := len(text) - len(strings.TrimRight(text, "\\")); n%2 == 1 {
		a.refuse(text, len(text)-1, "backslash at the end of the script: bash drops it, the parser keeps it")
	}
	if f == nil || strings.IndexByte(text, '#') < 0 || !strings.Contains(text, "\\\n") {
		return
	}
	done := false
	syntax.Walk(f, func(n syntax.Node) bool {
		if done {
			return false
		}
		if cm, ok := n.(*syntax.Comment); ok && (strings.IndexByte(cm.Text, '\n') >= 0 || strings.HasSuffix(cm.Text, "\\")) {
			a.refuse(text, int(cm.Pos().Offset()), "comment ending in a backslash: bash ends it at the newline, the parser continues it onto the next line")
			done = true
		}
		return true
	})
}

// refuse records an Ask for the construct at offset off of text.
func (a *analyzer) refuse(text string, off int, why string) {
	if !a.count() {
		return
	}
	line, col := 1, 1
	for i := 0; i < off && i < len(text); i++ {
		if text[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	c := newAcc()
	c.add(permission.Ask, RuleSyntaxAmbiguous, why, false)
	a.emit([]string{}, syntax.NewPos(uint(off), uint(line), uint(col)), &c, false, false)
}

// heredocAmbiguous explains why bash may end the here-document of r at
// another line than the parser did, or returns "".
func (a *analyzer) heredocAmbiguous(r *syntax.Redirect) string {
	delim := a.source(r.Word)
	quoted := false
	name := delim
	if len(name) >= 2 && (name[0] == '\'' || name[0] == '"') && name[len(name)-1] == name[0] {
		name, quoted = name[1:len(name)-1], true
	}
	if !isHeredocName(name) {
		return "here-document delimiter " + delim + ": bash and the parser may end the body at different lines"
	}
	if !quoted && r.Hdoc != nil && strings.Contains(a.bodySource(r.Hdoc), "\\\n") {
		return "here-document body joins lines with a backslash: bash and the parser may end it at different lines"
	}
	return ""
}

// bodySource is the text of the here-document body h with the two bytes
// before it: the parser leaves a backslash-newline that opens the body out
// of the body's span (bash joins it to the next line, and ends the body
// there when that line is the delimiter).
func (a *analyzer) bodySource(h *syntax.Word) string {
	s, e := int(h.Pos().Offset())-2, int(h.End().Offset())
	if s < 0 || e > len(a.src) || s > e {
		return "?\\\n" // not where the parser says: ambiguous
	}
	return a.src[s:e]
}

// isHeredocName reports a delimiter made of letters, digits and "_" only.
func isHeredocName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isWordByte(s[i]) {
			return false
		}
	}
	return true
}

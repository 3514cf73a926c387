package bashguard

import (
	"strings"

	"github.com/toolgate/toolgate/internal/shword"
	"mvdan.cc/sh/v3/syntax"
)

// scriptEnd returns the words of the simple command shell code text ends
// with, as sh runs them: the last command of its last list (jest in
// "tsc && jest", true in "jest || true"), where the words a package
// manager appends to a script land. It reports false for code that does
// not parse, that ends with another kind of command (a loop, a group, a
// subshell), or whose last command has a word sh expands (a variable, a
// substitution, a glob or a brace outside quotes): what such a word
// becomes is not read here.
func (a *analyzer) scriptEnd(text string) ([]string, bool) {
	if len(text) > a.g.pol.MaxScriptBytes {
		return nil, false
	}
	f, err := a.sc.parse(text)
	if err != nil || len(f.Stmts) == 0 {
		return nil, false
	}
	st := f.Stmts[len(f.Stmts)-1]
	for {
		switch cmd := st.Cmd.(type) {
		case *syntax.BinaryCmd:
			st = cmd.Y
			continue
		case *syntax.CallExpr:
			if len(cmd.Args) == 0 {
				return nil, false
			}
			words := make([]string, len(cmd.Args))
			for i, w := range cmd.Args {
				s, ok := shword.Literal(w)
				if !ok || expands(w) {
					return nil, false
				}
				words[i] = s
			}
			return words, true
		}
		return nil, false
	}
}

// expands reports whether a literal word has a part sh expands: a glob
// character, a brace (bash, as sh, expands braces) or a leading tilde
// outside quotes.
func expands(w *syntax.Word) bool {
	for i, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && (strings.ContainsAny(l.Value, "*?[{") || i == 0 && strings.HasPrefix(l.Value, "~")) {
			return true
		}
	}
	return false
}

package bashguard

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// posixPlain reports shell code that every POSIX shell reads as bash does,
// so that "sh -c" (dash on Debian) runs what the guard judges: simple
// commands of plain words (literal text, single quotes, double quotes
// around literal text), joined by ; && || | and newlines, grouped by
// ( ) and { }, with the redirections > >> < 2>&1. Anything bash reads
// otherwise ($'...', brace expansion, [[ ]], here-strings, &>, |&, time,
// functions, arithmetic, process substitution) and every expansion is
// left out: such code is asked as before.
func posixPlain(f *syntax.File) bool {
	ok := true
	syntax.Walk(f, func(n syntax.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case nil:
			return true // the end of a node's children
		case *syntax.File, *syntax.Stmt, *syntax.CallExpr, *syntax.Subshell, *syntax.Block, *syntax.Word, *syntax.Comment:
			if s, isStmt := n.(*syntax.Stmt); isStmt && (s.Coprocess || s.Disown) {
				ok = false
			}
			if ce, isCall := n.(*syntax.CallExpr); isCall && len(ce.Assigns) > 0 {
				ok = false
			}
		case *syntax.BinaryCmd:
			ok = n.Op == syntax.AndStmt || n.Op == syntax.OrStmt || n.Op == syntax.Pipe
		case *syntax.Lit:
			// A brace would be expanded by bash and kept by dash.
			ok = !strings.ContainsAny(n.Value, "{}")
		case *syntax.SglQuoted:
			ok = !n.Dollar
		case *syntax.DblQuoted:
			if n.Dollar {
				ok = false
			}
			for _, p := range n.Parts {
				if _, lit := p.(*syntax.Lit); !lit {
					ok = false
				}
			}
		case *syntax.Redirect:
			switch n.Op {
			case syntax.RdrOut, syntax.AppOut, syntax.RdrIn:
			case syntax.DplOut, syntax.DplIn:
				ok = n.Word != nil && isFdWord(n.Word.Lit())
			default:
				ok = false
			}
			if n.N != nil && !isFdWord(n.N.Value) {
				ok = false
			}
		default:
			ok = false
		}
		return ok
	})
	return ok
}

// zshPlain reports zsh code that zsh reads as bash does, whatever options
// the user's .zshenv sets: simple commands of plain words joined by ; &&
// || | and newlines, with no redirection but 2>&1. A plain word is literal
// text in single quotes, in double quotes, or bare of the characters zsh
// treats otherwise: glob characters and qualifiers (* ? [ ] ( ) < > and
// EXTENDED_GLOB's ^ # ~), braces, "=" at the start of a word (=cmd
// expands to the path of cmd) or after "=" or ":", backslashes, adjacent
// single-quoted strings and every expansion. cd,
// pushd and popd are left out: zsh's "cd OLD NEW" replaces text in the
// working directory. Anything else is asked as before.
func zshPlain(f *syntax.File) bool {
	ok := true
	syntax.Walk(f, func(n syntax.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case nil:
			return true
		case *syntax.File, *syntax.Comment:
		case *syntax.Stmt:
			ok = !n.Coprocess && !n.Disown && !n.Background && !n.Negated
		case *syntax.CallExpr:
			ok = len(n.Assigns) == 0 && len(n.Args) > 0
			if ok {
				switch n.Args[0].Lit() {
				case "cd", "pushd", "popd", "":
					ok = false
				}
			}
		case *syntax.Word:
			// With RC_QUOTES, zsh reads 'a''b' as a'b.
			for i := 1; i < len(n.Parts) && ok; i++ {
				_, q0 := n.Parts[i-1].(*syntax.SglQuoted)
				_, q1 := n.Parts[i].(*syntax.SglQuoted)
				ok = !(q0 && q1)
			}
		case *syntax.BinaryCmd:
			ok = n.Op == syntax.AndStmt || n.Op == syntax.OrStmt || n.Op == syntax.Pipe
		case *syntax.Lit:
			// With MAGIC_EQUAL_SUBST, "x==cmd" and "x=a:=cmd" expand
			// =cmd as an assignment would.
			ok = !strings.HasPrefix(n.Value, "=") && !strings.Contains(n.Value, "==") && !strings.Contains(n.Value, ":=")
			for i := 0; i < len(n.Value) && ok; i++ {
				ch := n.Value[i]
				ok = 'a' <= ch && ch <= 'z' || 'A' <= ch && ch <= 'Z' || '0' <= ch && ch <= '9' || strings.IndexByte("_./,:=+-@%", ch) >= 0
			}
		case *syntax.SglQuoted:
			ok = !n.Dollar && !strings.Contains(n.Value, "'")
		case *syntax.DblQuoted:
			ok = !n.Dollar
			for _, p := range n.Parts {
				if l, lit := p.(*syntax.Lit); !lit || strings.ContainsAny(l.Value, "\\!") {
					ok = false
				}
			}
			return false // its text is checked here, not as a bare word
		case *syntax.Redirect:
			ok = n.Op == syntax.DplOut && n.Word != nil && n.Word.Lit() == "1" && n.N != nil && n.N.Value == "2"
			return false
		default:
			ok = false
		}
		return ok
	})
	return ok
}

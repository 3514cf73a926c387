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

package bashguard

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// plainDialect is what another shell reads as bash does: one row per
// dialect, read by plainCode. Code is plain when every node of its
// syntax tree passes the row; anything else is asked as before.
type plainDialect struct {
	// groups: ( ) and { } are read as bash reads them.
	groups bool
	// bareStmts: a statement may not run in the background nor be
	// negated (coprocesses and disown are left out in every dialect).
	bareStmts bool
	// named: a command must have a literal name, not one of leftOut.
	named   bool
	leftOut map[string]bool
	// noAdjacentSingle: 'a''b' is read otherwise (zsh's RC_QUOTES).
	noAdjacentSingle bool
	// litOnly, when set, are the only bytes besides ASCII letters and
	// digits that bare literal text may hold; litBanned, those it may not
	// hold; litBannedPrefix and litBannedInside, text it may not begin
	// with or hold.
	litOnly         string
	litBanned       string
	litBannedPrefix string
	litBannedInside []string
	// dblBanned are the bytes double-quoted text may not hold;
	// dblOpaque: double-quoted text is checked as a whole, not again as
	// bare literal text.
	dblBanned string
	dblOpaque bool
	// redirects are the redirections read as bash reads them;
	// redirOpaque: a redirection's words are not checked again as words.
	redirects   []plainRedirect
	redirOpaque bool
}

// plainRedirect is a redirection a dialect reads as bash does: its
// operator, the descriptor before it (plainAnyFd: none or any number) and
// the word after it (plainAnyWord: any word; plainFdWord: a descriptor).
type plainRedirect struct {
	op   syntax.RedirOperator
	fd   string
	word string
}

const (
	plainAnyFd   = ""
	plainAnyWord = ""
	plainFdWord  = "&fd"
)

// posixPlain reports shell code that every POSIX shell reads as bash
// does (posixPlainCode).
func posixPlain(f *syntax.File) bool { return plainCode(f, &posixPlainCode) }

// zshPlain reports zsh code that zsh reads as bash does (zshPlainCode).
func zshPlain(f *syntax.File) bool { return plainCode(f, &zshPlainCode) }

// plainCode reports whether every node of f passes the dialect d.
func plainCode(f *syntax.File, d *plainDialect) bool {
	ok := true
	syntax.Walk(f, func(n syntax.Node) bool {
		if !ok {
			return false
		}
		var descend bool
		ok, descend = d.node(n)
		return ok && descend
	})
	return ok
}

// node reports whether n passes the dialect, and whether its children
// are to be checked too.
func (d *plainDialect) node(n syntax.Node) (ok, descend bool) {
	switch n := n.(type) {
	case nil:
		return true, true // the end of a node's children
	case *syntax.File, *syntax.Comment:
		return true, true
	case *syntax.Subshell, *syntax.Block:
		return d.groups, true
	case *syntax.Stmt:
		return !n.Coprocess && !n.Disown && !(d.bareStmts && (n.Background || n.Negated)), true
	case *syntax.CallExpr:
		return d.call(n), true
	case *syntax.Word:
		return !d.noAdjacentSingle || !adjacentSingle(n), true
	case *syntax.BinaryCmd:
		return n.Op == syntax.AndStmt || n.Op == syntax.OrStmt || n.Op == syntax.Pipe, true
	case *syntax.Lit:
		return d.lit(n.Value), true
	case *syntax.SglQuoted:
		return !n.Dollar && !strings.Contains(n.Value, "'"), true
	case *syntax.DblQuoted:
		return d.dblQuoted(n), !d.dblOpaque
	case *syntax.Redirect:
		return d.redirect(n), !d.redirOpaque
	}
	return false, false
}

func (d *plainDialect) call(n *syntax.CallExpr) bool {
	if len(n.Assigns) > 0 {
		return false
	}
	return !d.named || len(n.Args) > 0 && !d.leftOut[n.Args[0].Lit()]
}

// adjacentSingle reports two single-quoted strings side by side in w.
func adjacentSingle(w *syntax.Word) bool {
	for i := 1; i < len(w.Parts); i++ {
		_, q0 := w.Parts[i-1].(*syntax.SglQuoted)
		_, q1 := w.Parts[i].(*syntax.SglQuoted)
		if q0 && q1 {
			return true
		}
	}
	return false
}

func (d *plainDialect) lit(s string) bool {
	if strings.ContainsAny(s, d.litBanned) || d.litBannedPrefix != "" && strings.HasPrefix(s, d.litBannedPrefix) {
		return false
	}
	for _, bad := range d.litBannedInside {
		if strings.Contains(s, bad) {
			return false
		}
	}
	if d.litOnly == "" {
		return true
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if !('a' <= ch && ch <= 'z' || 'A' <= ch && ch <= 'Z' || '0' <= ch && ch <= '9' || strings.IndexByte(d.litOnly, ch) >= 0) {
			return false
		}
	}
	return true
}

func (d *plainDialect) dblQuoted(n *syntax.DblQuoted) bool {
	if n.Dollar {
		return false
	}
	for _, p := range n.Parts {
		if l, lit := p.(*syntax.Lit); !lit || strings.ContainsAny(l.Value, d.dblBanned) {
			return false
		}
	}
	return true
}

func (d *plainDialect) redirect(n *syntax.Redirect) bool {
	for _, r := range d.redirects {
		if r.op == n.Op && r.fdMatches(n.N) && r.wordMatches(n.Word) {
			return true
		}
	}
	return false
}

func (r plainRedirect) fdMatches(n *syntax.Lit) bool {
	if r.fd == plainAnyFd {
		return n == nil || isFdWord(n.Value)
	}
	return n != nil && n.Value == r.fd
}

func (r plainRedirect) wordMatches(w *syntax.Word) bool {
	switch r.word {
	case plainAnyWord:
		return true
	case plainFdWord:
		return w != nil && isFdWord(w.Lit())
	}
	return w != nil && w.Lit() == r.word
}

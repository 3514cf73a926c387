package bashguard

import (
	"errors"
	"os"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/toolgate/toolgate/internal/passwd"
	"github.com/toolgate/toolgate/internal/shword"
)

// wordFlags describe what a word holds beyond plain text.
type wordFlags uint8

const (
	// wDynamic: the value is only known at run time (an expansion, a
	// substitution, brace expansion, ANSI-C or locale quoting, an unknown
	// "~").
	wDynamic wordFlags = 1 << iota
	// wGlob: unquoted glob characters; bash may replace the word with
	// file names.
	wGlob
	// wEffect: an expansion with side effects (prompt expansion,
	// indirection, arithmetic with subscripts or assignments, assigning
	// defaults).
	wEffect
	// wData (with wDynamic): the unknown part of the value is only the
	// output of command substitutions, whose commands are judged (see
	// subst.go).
	wData
	// wUnquoted (with wData): such output is unquoted, so split and
	// globbed.
	wUnquoted
	// wKnown: the value holds expansions whose value the guard knows
	// ($PWD, $(pwd), a bound loop variable).
	wKnown
	// wProcIn: the word is "<(list)", a pipe from list.
	wProcIn
	// wObjectIDs (with wData): the word is only an unquoted command
	// substitution that prints git object names alone (objectIDs), so
	// it splits into hexadecimal words, or none.
	wObjectIDs
)

// wordRes is the result of evaluating one word.
type wordRes struct {
	val    string
	flags  wordFlags
	effect string // why wEffect is set
}

// word evaluates w after quote removal and walks every command hidden in
// it (command and process substitutions, parameter expansion words,
// arithmetic), which are judged as commands of their own.
func (a *analyzer) word(w *syntax.Word, assign bool) wordRes {
	var r wordRes
	if w == nil || len(w.Parts) == 0 {
		return r
	}
	if len(w.Parts) == 1 {
		if v, fl, ok := a.plainWord(w, assign); ok {
			r.val, r.flags = v, fl
			return r
		}
		if ps, ok := procIn(w); ok {
			a.nested(ps.Stmts)
			r.val, r.flags = a.source(w), wProcIn
			return r
		}
	}
	src := ""
	brace := false
	// Brace expansion only happens in unquoted literal text.
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.IndexByte(l.Value, '{') >= 0 {
			src = a.source(w)
			if hasBraceExp(w) {
				r.flags |= wDynamic
				brace = true
			}
			break
		}
	}
	a.walkParts(w.Parts, &r, false)
	if r.flags&(wDynamic|wEffect) == wDynamic && !brace {
		if v, fl, ok := a.evalWord(w); ok {
			r.val, r.flags = v, fl
			return r
		}
	}
	if r.flags&wDynamic != 0 {
		if src == "" {
			src = a.source(w)
		}
		r.val = src
		return r
	}
	// Fast path: one literal part without escapes or tilde.
	if len(w.Parts) == 1 {
		switch p := w.Parts[0].(type) {
		case *syntax.Lit:
			if strings.IndexByte(p.Value, '\\') < 0 && !strings.HasPrefix(p.Value, "~") && !strings.Contains(p.Value, ":~") && !strings.Contains(p.Value, "=~") {
				r.val = p.Value
				if strings.ContainsAny(p.Value, "*?[") {
					r.flags |= wGlob
				}
				return r
			}
		case *syntax.SglQuoted:
			r.val = p.Value
			return r
		}
	}
	var b strings.Builder
	for i, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			if i == 0 && strings.HasPrefix(v, "~") {
				end := strings.IndexByte(v, '/')
				if end < 0 {
					end = len(v)
				}
				home, ok := a.tildeHome(v[1:end])
				if end == len(v) && len(w.Parts) > 1 {
					// ~"", ~'x', ~"/x", ~$y, or a tilde the parser split
					// off at a backslash-newline: bash expands a tilde
					// prefix only when no character of it is quoted, and
					// the prefix runs to the first unquoted "/".
					ok = false
				}
				if !ok {
					r.flags |= wDynamic
					r.val = a.source(w)
					return r
				}
				b.WriteString(home)
				v = v[end:]
			}
			if strings.Contains(v, "=~") || strings.Contains(v, ":~") {
				// bash expands a tilde after "=" in words that look like
				// assignments.
				r.flags |= wDynamic
				r.val = a.source(w)
				return r
			}
			if strings.ContainsAny(v, "*?[") {
				r.flags |= wGlob
			}
			unescape(&b, v, false)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					unescape(&b, l.Value, true)
				}
			}
		}
	}
	r.val = b.String()
	return r
}

// litSpecial marks the bytes that plainWord looks at.
var litSpecial = [256]bool{'\\': true, '{': true, '~': true, '*': true, '?': true, '[': true}

// plainWord evaluates the most common words without building a string:
// one literal part without escapes, tilde or braces, one single-quoted
// part, or one double-quoted part holding one such literal. Its value is
// then a substring of the script. ok is false for any other word, which
// word evaluates in full.
func (a *analyzer) plainWord(w *syntax.Word, assign bool) (val string, fl wordFlags, ok bool) {
	switch p := w.Parts[0].(type) {
	case *syntax.Lit:
		v := p.Value
		if v == "" || v[0] == '~' {
			return "", 0, false
		}
		for i := 0; i < len(v); i++ {
			if !litSpecial[v[i]] {
				continue
			}
			switch v[i] {
			case '\\', '{':
				return "", 0, false
			case '~':
				// "=~", and ":~" in a word that looks like an assignment
				// (an argument too: "x=a:~"), are expanded by bash.
				if v[i-1] == '=' || v[i-1] == ':' {
					return "", 0, false
				}
			case '*', '?', '[':
				fl = wGlob
			}
		}
		return v, fl, true
	case *syntax.SglQuoted:
		if p.Dollar {
			return "", 0, false
		}
		return p.Value, 0, true
	case *syntax.DblQuoted:
		if p.Dollar || len(p.Parts) > 1 {
			return "", 0, false
		}
		if len(p.Parts) == 0 {
			return "", 0, true
		}
		l, isLit := p.Parts[0].(*syntax.Lit)
		if !isLit || strings.IndexByte(l.Value, '\\') >= 0 {
			return "", 0, false
		}
		return l.Value, 0, true
	}
	return "", 0, false
}

// unescape appends v to b with backslash quoting removed ([shword.Unescape]).
func unescape(b *strings.Builder, v string, dq bool) { shword.Unescape(b, v, dq) }

// source returns the text of n in the script being analysed.
func (a *analyzer) source(n syntax.Node) string {
	s, e := int(n.Pos().Offset()), int(n.End().Offset())
	if s < 0 || e > len(a.src) || s > e {
		return "?"
	}
	return a.src[s:e]
}

func (r *wordRes) setEffect(why string) {
	r.flags |= wEffect | wDynamic
	if r.effect == "" {
		r.effect = why
	}
}

// walkParts marks r for every part that is not plain text and walks the
// commands hidden inside.
func (a *analyzer) walkParts(parts []syntax.WordPart, r *wordRes, inDQ bool) {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
		case *syntax.SglQuoted:
			if p.Dollar {
				r.flags |= wDynamic // ANSI-C quoting: decoded only at run time here
			}
		case *syntax.DblQuoted:
			if p.Dollar {
				r.flags |= wDynamic
			}
			a.walkParts(p.Parts, r, true)
		case *syntax.CmdSubst:
			r.flags |= wDynamic
			a.nested(p.Stmts)
		case *syntax.ProcSubst:
			r.flags |= wDynamic
			a.nested(p.Stmts)
		case *syntax.ArithmExp:
			r.flags |= wDynamic
			a.arith(p.X, r)
		case *syntax.ParamExp:
			r.flags |= wDynamic
			a.param(p, r)
		case *syntax.ExtGlob:
			r.flags |= wDynamic | wGlob
			if extGlobExpands(p) {
				// The parser keeps an extended glob's pattern as text; where
				// bash reads it (extglob on, as a shell snapshot may set it)
				// the substitutions inside run: case x in @($(id))) ...
				r.setEffect("an extended glob's pattern " + p.Op.String() + p.Pattern.Value + ") holds an expansion, which is not analysed and runs where extglob is on")
			}
		case *syntax.BraceExp:
			r.flags |= wDynamic
			for _, e := range p.Elems {
				a.walkParts(e.Parts, r, inDQ)
			}
		default:
			r.flags |= wDynamic
		}
	}
}

func (a *analyzer) param(p *syntax.ParamExp, r *wordRes) {
	if p.Excl {
		r.setEffect("indirect expansion ${!...} can run commands through the named variable")
	}
	if p.Index != nil {
		r.setEffect("array subscript is evaluated as arithmetic, which can run commands")
		a.arith(p.Index, r)
	}
	if p.Slice != nil {
		r.setEffect("substring offsets are evaluated as arithmetic, which can run commands")
		a.arith(p.Slice.Offset, r)
		a.arith(p.Slice.Length, r)
	}
	if p.Repl != nil {
		if p.Repl.Orig != nil {
			a.walkParts(p.Repl.Orig.Parts, r, false)
		}
		if p.Repl.With != nil {
			a.walkParts(p.Repl.With.Parts, r, false)
		}
	}
	if p.NestedParam != nil {
		a.walkParts([]syntax.WordPart{p.NestedParam}, r, false)
	}
	if e := p.Exp; e != nil {
		switch e.Op {
		case syntax.OtherParamOps:
			if e.Word != nil && strings.Contains(e.Word.Lit(), "P") {
				r.setEffect("prompt expansion ${...@P} can run commands")
				a.killAll() // its arithmetic may assign any variable
			} else if e.Word == nil || e.Word.Lit() != "Q" {
				r.setEffect("parameter transformation ${...@op} is not analysed")
			}
		case syntax.AssignUnset, syntax.AssignUnsetOrNull:
			r.setEffect("expansion assigns a default value to a variable")
			if p.Excl || p.Param == nil {
				a.killAll()
			} else {
				a.killVar(p.Param.Value)
			}
		}
		if e.Word != nil {
			a.walkParts(e.Word.Parts, r, false)
		}
	}
}

// arith walks an arithmetic expression: subscripts and assignments have
// side effects, and words inside may hide command substitutions.
func (a *analyzer) arith(x syntax.ArithmExpr, r *wordRes) {
	switch x := x.(type) {
	case nil:
	case *syntax.Word:
		for _, p := range x.Parts {
			if l, ok := p.(*syntax.Lit); ok && strings.IndexByte(l.Value, '[') >= 0 {
				a.arithEffect(r, "arithmetic with an array subscript can run commands")
			}
		}
		a.walkParts(x.Parts, r, false)
		if !isArithNumber(x) {
			// A name or an expansion: bash evaluates its value as
			// arithmetic again, and a value such as 'a[$(cmd)]' runs cmd.
			a.arithEffect(r, "arithmetic evaluates "+a.source(x)+", whose value can run commands (a[$(cmd)])")
		}
	case *syntax.BinaryArithm:
		if isAssignOp(x.Op) {
			a.arithEffect(r, "arithmetic assignment changes a variable")
		}
		a.arith(x.X, r)
		a.arith(x.Y, r)
	case *syntax.UnaryArithm:
		if x.Op == syntax.Inc || x.Op == syntax.Dec {
			a.arithEffect(r, "arithmetic increment changes a variable")
		}
		a.arith(x.X, r)
	case *syntax.ParenArithm:
		a.arith(x.X, r)
	case *syntax.FlagsArithm:
		a.arithEffect(r, "arithmetic flags are not analysed")
		a.arith(x.X, r)
	default:
		a.arithEffect(r, "arithmetic is not analysed")
	}
}

// arithEffect records arithmetic that may assign: it may assign any
// variable, since a name's value is evaluated again, and "y=1" in it
// assigns y.
func (a *analyzer) arithEffect(r *wordRes, why string) {
	r.setEffect(why)
	a.killAll()
}

// isArithNumber reports an arithmetic operand that is a literal number
// ("10", "0x1f", "2#101"): the only operand whose evaluation reads no
// variable.
func isArithNumber(w *syntax.Word) bool {
	if len(w.Parts) != 1 {
		return false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok || l.Value == "" || l.Value[0] < '0' || l.Value[0] > '9' {
		return false
	}
	for i := 0; i < len(l.Value); i++ {
		if ch := l.Value[i]; !isWordByte(ch) && ch != '#' && ch != '@' {
			return false
		}
	}
	return true
}

func isAssignOp(op syntax.BinAritOperator) bool {
	switch op {
	case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn,
		syntax.RemAssgn, syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn,
		syntax.ShrAssgn, syntax.AndBoolAssgn, syntax.OrBoolAssgn, syntax.XorBoolAssgn, syntax.PowAssgn:
		return true
	}
	return false
}

// hasBraceExp reports whether bash would brace-expand w. It works on a
// copy, since syntax.SplitBraces rewrites the word it is given.
func hasBraceExp(w *syntax.Word) bool {
	cp := &syntax.Word{Parts: append([]syntax.WordPart(nil), w.Parts...)}
	if !syntax.SplitBraces(cp) {
		return false
	}
	for _, p := range cp.Parts {
		if _, ok := p.(*syntax.BraceExp); ok {
			return true
		}
	}
	return false
}

// tildeHome returns the directory bash puts for "~name" (name empty: the
// home directory), and false when it is not known before run time: an
// unknown home or user, or "~+" and "~-", which name $PWD and $OLDPWD.
func (a *analyzer) tildeHome(name string) (string, bool) {
	if name == "" {
		return a.g.pol.Home, a.g.pol.Home != ""
	}
	if !userName(name) {
		return "", false
	}
	lookup := a.g.pol.LookupHome
	if lookup == nil {
		lookup = lookupHome
	}
	home, err := lookup(name)
	if err != nil || !strings.HasPrefix(home, "/") {
		return "", false
	}
	return home, true
}

// userName reports a name that bash looks up as a user for "~name": the
// characters of portable user names.
func userName(s string) bool {
	if len(s) > 32 || s[0] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if !(ch == '_' || ch == '-' || ch == '.' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9') {
			return false
		}
	}
	return true
}

// lookupHome finds a user's home directory in /etc/passwd, as os/user
// does without cgo. It never asks NSS (which may reach the network): a
// user that only NSS knows is not found, and a word naming one is never
// auto-allowed.
func lookupHome(name string) (string, error) {
	f, err := os.Open(passwd.File)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if e, ok := passwd.Find(f, func(e passwd.Entry) bool { return e.Name == name }); ok {
		return e.Home, nil
	}
	return "", errors.New("no user " + strconv.Quote(name) + " in " + passwd.File)
}

// extGlobExpands reports whether the pattern of the extended glob g holds
// an expansion bash performs in it: a parameter, an arithmetic or a
// command substitution, or a process substitution.
func extGlobExpands(g *syntax.ExtGlob) bool {
	v := g.Pattern.Value
	return strings.ContainsAny(v, "$`") || strings.Contains(v, "<(") || strings.Contains(v, ">(")
}

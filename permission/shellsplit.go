package permission

import (
	"errors"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/toolgate/toolgate/internal/shword"
)

// splitSpecifier splits a shell rule's specifier (its ":*" already cut)
// into the words of one simple command, with the grammar the shell guard
// reads commands with (mvdan.cc/sh, bash) and the literal text the guard
// gives their words ([shword.Literal]): a rule and the command it is
// matched against are split alike. It refuses what is not one simple
// command of literal words, with the offset in spec and why: operators
// (a rule matches one command), redirections, expansions ($x, $(...),
// `...`: a rule's words are matched literally), assignments before the
// command, and bash keywords whose command the guard judges on its own
// (time, !, [[ ]], (( )), let, compound commands). A comment ends the
// words, as it ends the command's.
func splitSpecifier(spec string) (words []string, off int, why string) {
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	f, err := p.Parse(strings.NewReader(spec), "")
	if err != nil {
		var pe syntax.ParseError
		if errors.As(err, &pe) {
			off = int(pe.Pos.Offset())
		}
		if syntax.IsIncomplete(err) {
			return nil, off, "cannot split specifier into words: unbalanced quote or parenthesis"
		}
		if errors.As(err, &pe) {
			return nil, off, "cannot split specifier into words: " + pe.Text
		}
		return nil, off, "cannot split specifier into words: " + err.Error()
	}
	const operator = "shell operator in specifier: a rule matches one simple command; write one rule per command"
	switch {
	case len(f.Stmts) == 0:
		return nil, 0, "specifier has no words"
	case len(f.Stmts) > 1:
		return nil, int(f.Stmts[0].End().Offset()) - 1, operator
	}
	st := f.Stmts[0]
	switch {
	case st.Background || st.Coprocess || st.Disown:
		return nil, int(st.End().Offset()) - 1, operator
	case st.Negated:
		return nil, int(st.Pos().Offset()), "'!' in specifier: the guard judges the command it negates; write the rule for that command"
	case len(st.Redirs) > 0:
		return nil, int(st.Redirs[0].OpPos.Offset()), "redirection in specifier: a rule matches a command's words; the guard judges the redirection's file itself"
	}
	var ws []*syntax.Word
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Assigns) > 0 {
			return nil, int(c.Assigns[0].Pos().Offset()), "assignment in specifier: the guard matches the command after its assignments; write the rule for that command"
		}
		ws = c.Args
	case *syntax.DeclClause:
		// declare, export, local, readonly, typeset, nameref: words, as
		// the guard reads them.
		words = append(words, c.Variant.Value)
		for _, as := range c.Args {
			w, ok := declWord(as)
			if !ok {
				return nil, int(as.Pos().Offset()), "expansion in specifier: a rule's words are matched literally; quote the word ('$HOME')"
			}
			words = append(words, w)
		}
		return words, -1, ""
	case *syntax.BinaryCmd:
		return nil, int(c.OpPos.Offset()), operator
	default:
		return nil, int(st.Pos().Offset()), "bash keyword in specifier: a rule matches a simple command; the guard judges the commands inside " + keyword(spec, st)
	}
	for _, w := range ws {
		t, ok := shword.Literal(w)
		if !ok {
			return nil, int(w.Pos().Offset()), "expansion in specifier: a rule's words are matched literally; quote the word ('$HOME')"
		}
		words = append(words, t)
	}
	return words, -1, ""
}

// declWord is the text of one word of a declare-like builtin, as the
// guard gives it: NAME, NAME=VALUE or an option, each literal.
func declWord(as *syntax.Assign) (string, bool) {
	if as.Array != nil || as.Index != nil {
		return "", false
	}
	if as.Naked && as.Name == nil {
		return shword.Literal(as.Value)
	}
	if as.Naked {
		return as.Name.Value, true
	}
	v := ""
	if as.Value != nil {
		var ok bool
		if v, ok = shword.Literal(as.Value); !ok {
			return "", false
		}
	}
	op := "="
	if as.Append {
		op = "+="
	}
	return as.Name.Value + op + v, true
}

// keyword names the keyword a statement begins with, for the reason.
func keyword(spec string, st *syntax.Stmt) string {
	s := spec[st.Pos().Offset():]
	if i := strings.IndexAny(s, " \t\n"); i >= 0 {
		s = s[:i]
	}
	return "(" + s + ")"
}

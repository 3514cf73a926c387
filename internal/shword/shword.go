// Package shword holds what the shell guard and the rule specifiers share
// about bash's words: the text bash gives a word without expansions. The
// guard reads commands with it and package permission splits a rule's
// specifier with it, both on mvdan.cc/sh's bash grammar, so that a rule
// and the command it is matched against are split alike.
package shword

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Literal is the text bash gives a word without expansions: quotes and
// backslash escapes removed as bash removes them ("gre\p" is grep). ok is
// false for a word with an expansion ($x, $(...), `...`, $((...)), <(...))
// or a $'...' or $"..." quote, whose text depends on more than the word.
func Literal(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			Unescape(&b, p.Value, false)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false // $'...' has escapes of its own
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				Unescape(&b, l.Value, true)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// Unescape appends v to b with backslash quoting removed. Inside double
// quotes (dq) only \$ \` \" \\ and \newline are escapes.
func Unescape(b *strings.Builder, v string, dq bool) {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c != '\\' || i+1 == len(v) {
			b.WriteByte(c)
			continue
		}
		n := v[i+1]
		if n == '\n' {
			i++
			continue
		}
		if dq && !strings.ContainsRune("$`\"\\", rune(n)) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte(n)
		i++
	}
}

// Quote returns w in single quotes, each single quote in it written as
// a quote that ends the quoted part, an escaped quote and a quote that
// begins the next: the word sh reads back as w, whatever it holds.
func Quote(w string) string {
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

package shword

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"mvdan.cc/sh/v3/syntax"
)

// Quote's word reads back, as bash parses it, as the text quoted: one
// word, whose Literal is the text, whatever the text holds.
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"", "x", "it's", "a b", "$HOME", "`id`", "'", "''", "\\", "a\nb", "{a,b}", "*", "!x", "--a=b"} {
		f.Add(s)
	}
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsRune(s, 0) || !utf8.ValidString(s) || strings.Contains(s, "\r\n") {
			// No shell word holds a NUL; the parser reads UTF-8 only, and
			// reads a carriage return before a newline as the newline.
			return
		}
		q := Quote(s)
		file, err := p.Parse(strings.NewReader("x "+q), "")
		require.NoError(t, err, "%q", q)
		require.Len(t, file.Stmts, 1, "%q", q)
		call, ok := file.Stmts[0].Cmd.(*syntax.CallExpr)
		require.True(t, ok, "%q", q)
		require.Len(t, call.Args, 2, "%q is one word", q)
		got, ok := Literal(call.Args[1])
		assert.True(t, ok, "%q is literal", q)
		assert.Equal(t, s, got, "%q reads back", q)
	})
}

package bashguard

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"mvdan.cc/sh/v3/syntax"
)

// A kept tree is only read: judging every script of the cases table
// twice with one Guard gives the same verdict both times, the second from
// the kept tree, and leaves the kept tree as a fresh parse of the text.
func TestKeptParseIsOnlyRead(t *testing.T) {
	dump := func(f *syntax.File) string {
		var b strings.Builder
		require.NoError(t, syntax.DebugPrint(&b, f))
		return b.String()
	}
	fresh := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true))
	kept := 0
	for _, c := range loadCases(t) {
		if len(c.Files) > 0 || len(c.Home) > 0 || c.CDPath != "" {
			continue
		}
		pol, paths := casePolicy(c.Opts)
		g := New(pol)
		first := g.Judge(context.Background(), testWork, paths, c.Script)
		f := g.parses.get(c.Script)
		want, err := fresh.Parse(strings.NewReader(c.Script), "")
		if err != nil || len(c.Script) > maxParsedBytes {
			assert.Nil(t, f, "%q: a script that does not parse, or is long, is not kept", c.Script)
			continue
		}
		require.NotNil(t, f, "%q: its tree is kept", c.Script)
		kept++
		second := g.Judge(context.Background(), testWork, paths, c.Script)
		assert.Equal(t, first.Decision, second.Decision, "%q: decision from the kept tree (%s)", c.Script, second.Reason)
		assert.Equal(t, first.Rule, second.Rule, "%q: rule from the kept tree", c.Script)
		assert.Equal(t, first.Reason, second.Reason, "%q: reason from the kept tree", c.Script)
		assert.Same(t, f, g.parses.get(c.Script), "%q: the second Judge read the kept tree", c.Script)
		assert.Equal(t, dump(want), dump(f), "%q: two Judges left the kept tree as parsed", c.Script)
	}
	assert.Greater(t, kept, 300, "trees kept")
}

// The kept trees are bounded: past maxParsed scripts the oldest goes,
// and a script over maxParsedBytes is never kept.
func TestKeptParsesBounded(t *testing.T) {
	g := New(DefaultPolicy())
	judge := func(s string) Verdict { return g.Judge(context.Background(), testWork, nil, s) }
	for i := range maxParsed + 1 {
		v := judge("echo " + strings.Repeat("x", i+1))
		require.Equal(t, "allow", v.Decision.String(), v.Reason)
	}
	assert.Nil(t, g.parses.get("echo x"), "the oldest went")
	assert.NotNil(t, g.parses.get("echo xx"), "the second stays")
	assert.Len(t, g.parses.m, maxParsed)
	long := "echo " + strings.Repeat("y", maxParsedBytes)
	v := judge(long)
	assert.Equal(t, "allow", v.Decision.String(), v.Reason)
	assert.Nil(t, g.parses.get(long), "a long script is not kept")
	v = judge("echo 'unterminated")
	assert.Equal(t, "deny", v.Decision.String())
	assert.Contains(t, v.Reason, "cannot be analysed")
	assert.Nil(t, g.parses.get("echo 'unterminated"), "a script that does not parse is not kept")
}

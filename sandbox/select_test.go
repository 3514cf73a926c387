package sandbox_test

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgate/toolgate/sandbox"
)

// TestSelectsSecret judges the filters of testdata/filters.jsonl: those
// that could make a search print a secret file, and ordinary ones.
func TestSelectsSecret(t *testing.T) {
	sb, err := sandbox.New(sandbox.Config{Roots: []string{t.TempDir()}})
	require.NoError(t, err)
	f, err := os.Open("testdata/filters.jsonl")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c struct {
			Base, Filter, Pattern string
			Selects               bool
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &c))
		t.Run(c.Base+" "+c.Filter, func(t *testing.T) {
			pat, ok := sb.SelectsSecret(c.Base, c.Filter)
			assert.Equal(t, c.Selects, ok, "pattern %q", pat)
			assert.Contains(t, pat, c.Pattern)
		})
	}
	require.NoError(t, sc.Err())
	var nilSB *sandbox.Sandbox
	pat, ok := nilSB.SelectsSecret("", ".env")
	assert.False(t, ok, "a nil sandbox has no secret patterns (and denies every path)")
	assert.Empty(t, pat)
}

// FuzzSelectsSecret: the judgement is total and bounded, and a filter that
// names a secret file outright, alone or beside others, is caught.
func FuzzSelectsSecret(f *testing.F) {
	for _, s := range []string{".env", "*.go", "{a,b}", "**/*", "!x", "a b,c"} {
		f.Add(s)
	}
	sb, err := sandbox.New(sandbox.Config{Roots: []string{f.TempDir()}})
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, filter string) {
		if len(filter) > 256 {
			return
		}
		sb.SelectsSecret("", filter)
		if _, ok := sb.SelectsSecret("", filter+" .env"); !ok {
			t.Fatalf("%q with .env beside it does not select .env", filter)
		}
	})
}

package rgtypes

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	l, err := Parse("14.1.1", []byte("go: *.go\nsh: *.sh, .bashrc\n"))
	require.NoError(t, err)
	assert.Equal(t, map[string][]string{"go": {"*.go"}, "sh": {"*.sh", ".bashrc"}}, l.Types)
	for in, why := range map[string]string{
		"":                      `line 1 is not "name: glob, glob"`,
		"go *.go\n":             `line 1 is not "name: glob, glob"`,
		"go: *.go\ngo: *.x\n":   `lists type "go" twice`,
		"go: *.go\nbad name: x": `line 2 is not "name: glob, glob"`,
	} {
		_, err := Parse("v", []byte(in))
		require.Error(t, err, in)
		assert.Contains(t, err.Error(), why, in)
	}
}

func TestVersion(t *testing.T) {
	v, err := Version([]byte("ripgrep 14.1.1 (rev 358d8293c2)\n\nfeatures:+pcre2\n"))
	require.NoError(t, err)
	assert.Equal(t, "14.1.1", v)
	for _, in := range []string{"", "grep 3.8", "ripgrep ../x"} {
		_, err := Version([]byte(in))
		assert.Error(t, err, in)
	}
}

func TestUnion(t *testing.T) {
	a, err := Parse("1", []byte("sh: *.sh, .bashrc\ntf: *.tf\n"))
	require.NoError(t, err)
	b, err := Parse("2", []byte("sh: .env, *.sh\nnew: x\n"))
	require.NoError(t, err)
	assert.Equal(t, map[string][]string{"sh": {"*.sh", ".bashrc", ".env"}, "tf": {"*.tf"}, "new": {"x"}}, Union([]Listing{a, b}))
}

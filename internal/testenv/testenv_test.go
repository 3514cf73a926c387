package testenv

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Lookup takes the environment first, then the setup's file, and says
// where the value came from or why there is none.
func TestLookup(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "env")
	t.Setenv(FileEnv, file)
	const key = "TOOLGATE_TESTENV_PROBE"
	t.Setenv(key, "")

	v, from := Lookup(key)
	assert.Equal(t, "", v)
	assert.Equal(t, key+" is unset and .ci/setup has not run (no "+file+")", from)

	require.NoError(t, os.WriteFile(file, []byte("# Written by .ci/setup\n\n"+key+"='postgres://h:1/p?sslmode=disable&x=1'\nOTHER='o'\n"), 0o644))
	v, from = Lookup(key)
	assert.Equal(t, "postgres://h:1/p?sslmode=disable&x=1", v)
	assert.Equal(t, file, from)

	v, from = Lookup("TOOLGATE_TESTENV_ABSENT")
	assert.Equal(t, "", v)
	assert.Equal(t, "TOOLGATE_TESTENV_ABSENT is unset and not in "+file+" (written by an older .ci/setup?)", from)

	t.Setenv(key, "from-env")
	v, from = Lookup(key)
	assert.Equal(t, "from-env", v)
	assert.Equal(t, "$"+key, from)
}

// A line the setup would not write is an error, not a value read wrong.
func TestReadRefuses(t *testing.T) {
	for _, line := range []string{"K=unquoted", "K='a'b'", "K 'v'", "='v'", "K='open", `K="v"`} {
		file := filepath.Join(t.TempDir(), "env")
		require.NoError(t, os.WriteFile(file, []byte("A='ok'\n"+line+"\n"), 0o644))
		_, err := Read(file)
		assert.EqualError(t, err, "testenv: "+file+":2: not a KEY='VALUE' line: "+strconv.Quote(line), line)
	}
}

// The default place is the user's cache directory, where .ci/setup
// writes it.
func TestFileDefault(t *testing.T) {
	t.Setenv(FileEnv, "")
	t.Setenv("XDG_CACHE_HOME", "/cache")
	f, err := File()
	require.NoError(t, err)
	assert.Equal(t, "/cache/toolgate-test/env", f)
}

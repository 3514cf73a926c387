package content

import (
	"os"
	"os/exec"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/rgtypes"
)

// The committed table is what go generate writes from the kept listings.
func TestRipgrepTypesGenerated(t *testing.T) {
	ls, err := rgtypes.ReadDir("testdata/ripgrep")
	require.NoError(t, err)
	want, err := rgtypes.Source("content", ls)
	require.NoError(t, err)
	got, err := os.ReadFile("ripgrep_types_table.go")
	require.NoError(t, err)
	require.Equal(t, string(want), string(got),
		"ripgrep_types_table.go is not what the listings in testdata/ripgrep make: run go generate ./internal/content")
	assert.Equal(t, rgtypes.Union(ls), ripgrepTypes())
}

// The rg on PATH prints the listing kept for its release, and the table
// holds every type and glob it defines.
func TestRipgrepTypesAgreeWithRg(t *testing.T) {
	rg, err := exec.LookPath("rg")
	if err != nil {
		if os.Getenv("TOOLGATE_REQUIRE_EFFECTS") != "" {
			t.Fatalf("TOOLGATE_REQUIRE_EFFECTS is set, but there is no rg on PATH to hold the file-type table to: %v", err)
		}
		t.Skip("SKIPPED LOUDLY: no rg on PATH (.ci/setup installs ripgrep): the file-type table is not checked against ripgrep")
	}
	vout, err := exec.Command(rg, "--version").Output()
	require.NoError(t, err)
	v, err := rgtypes.Version(vout)
	require.NoError(t, err)
	out, err := exec.Command(rg, "--type-list").Output()
	require.NoError(t, err)
	kept, err := os.ReadFile("testdata/ripgrep/" + v + ".txt")
	require.NoError(t, err, "no listing kept for ripgrep %s: run go generate ./internal/content", v)
	require.Equal(t, string(kept), string(out), "ripgrep %s lists other types than testdata/ripgrep/%s.txt: run go generate ./internal/content", v, v)
	l, err := rgtypes.Parse(v, out)
	require.NoError(t, err)
	for name, globs := range l.Types {
		got, known := ripgrepType(name)
		require.True(t, known, "ripgrep %s defines type %q", v, name)
		for _, g := range globs {
			assert.True(t, slices.Contains(got, g), "ripgrep %s: type %q selects %q", v, name, g)
		}
	}
}

// What each kept release selects is in the table: a type is judged by
// the globs of every release (the union), and only a type no release
// defines is unknown.
func TestRipgrepTypeUnion(t *testing.T) {
	ls, err := rgtypes.ReadDir("testdata/ripgrep")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(ls), 2)
	for _, c := range []struct {
		name  string
		glob  string
		known bool
	}{
		{"sh", ".env", true},             // ripgrep 15
		{"sh", ".bashrc", true},          // every release
		{"tf", "terraform.tfvars", true}, // ripgrep 14.1.1 only
		{"tf", "*.tfvars", true},         // ripgrep 15
		{"py", "*.py", true},
		{"container", "*Containerfile*", true}, // ripgrep 15.2 only
		{"no-such-type", "", false},
	} {
		globs, known := ripgrepType(c.name)
		assert.Equal(t, c.known, known, c.name)
		if c.glob != "" {
			assert.Contains(t, globs, c.glob, c.name)
		}
	}
	all, known := ripgrepType("all")
	assert.True(t, known)
	assert.Contains(t, all, ".env")
	assert.Contains(t, all, "*.go")
	assert.True(t, slices.IsSorted(all))
}

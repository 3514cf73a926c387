package sandbox_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/sandbox"
)

// layout is testdata/layout.json: a repository and a home directory with
// an attacker's plantings.
type layout struct {
	Files     map[string]string `json:"files"`
	Links     map[string]string `json:"links"`
	Hardlinks map[string]string `json:"hardlinks"`
	After     map[string]string `json:"after"`
}

// pathCase is one line of testdata/cases.jsonl.
type pathCase struct {
	Name   string `json:"name"`
	Roots  string `json:"roots"` // "proj": the two projects; "home": the home directory as well
	Path   string `json:"path"`
	Write  bool   `json:"write"`
	Want   string `json:"want"`
	Reason string `json:"reason"`
}

// buildLayout lays out testdata/layout.json under a new directory and
// returns it; the links of "after" are made by plant, to be called once
// the sandboxes are built.
func buildLayout(t *testing.T) (base string, plant func()) {
	t.Helper()
	data, err := os.ReadFile("testdata/layout.json")
	require.NoError(t, err)
	var l layout
	require.NoError(t, json.Unmarshal(data, &l))
	base, err = filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	exp := func(s string) string { return strings.ReplaceAll(s, "$T", base) }
	for name, text := range l.Files {
		p := filepath.Join(base, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	link := func(m map[string]string) {
		for name, target := range m {
			p := filepath.Join(base, name)
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			require.NoError(t, os.Symlink(exp(target), p))
		}
	}
	link(l.Links)
	for name, target := range l.Hardlinks {
		p := filepath.Join(base, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.Link(filepath.Join(base, target), p))
	}
	return base, func() { link(l.After) }
}

// TestPathCases judges every case of testdata/cases.jsonl: protection by
// identity (links, second names, hard links, git's own pointers), the
// protected and secret lists, and ordinary work that must stay allowed.
// Some links are planted after the sandboxes are built, as a tool call
// would plant them.
func TestPathCases(t *testing.T) {
	base, plant := buildLayout(t)
	proj, home := filepath.Join(base, "proj"), filepath.Join(base, "home")
	roots := map[string][]string{
		"proj": {proj, filepath.Join(base, "proj2")},
		"home": {proj, filepath.Join(base, "proj2"), home},
	}
	sbs := map[string]*sandbox.Sandbox{}
	for k, r := range roots {
		sb, err := sandbox.New(sandbox.Config{Roots: r, WorkDir: proj, Home: home})
		require.NoError(t, err)
		sbs[k] = sb
		// Judged once before the plantings, so that what was found then
		// must be found stale.
		d, _ := sb.CheckPath("conf/settings.json", true)
		require.Equal(t, permission.Allow, d, "before the planting")
	}
	plant()

	f, err := os.Open("testdata/cases.jsonl")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		var c pathCase
		require.NoError(t, json.Unmarshal(sc.Bytes(), &c), "line %d", n+1)
		n++
		t.Run(c.Name, func(t *testing.T) {
			sb := sbs[c.Roots]
			require.NotNil(t, sb, "roots %q", c.Roots)
			d, reason := sb.CheckPath(strings.ReplaceAll(c.Path, "$T", base), c.Write)
			assert.Equal(t, c.Want, d.String(), reason)
			assert.Contains(t, reason, strings.ReplaceAll(c.Reason, "$T", base))
		})
	}
	require.NoError(t, sc.Err())
	require.GreaterOrEqual(t, n, 100)
}

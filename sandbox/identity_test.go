package sandbox_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

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
//
// Each case is judged three ways, which must agree: by the sandbox built
// before the plantings (which finds its search stale by the directories
// it watches); by that sandbox after Forget, as a host calls it after a
// command ran (the search is revalidated by everything it read); and by a
// new sandbox, as the next hook process builds it, that loads the search
// a sandbox built before the plantings kept in its facts file.
func TestPathCases(t *testing.T) {
	for _, mode := range []string{"watched", "forgotten", "facts-file"} {
		t.Run(mode, func(t *testing.T) { pathCases(t, mode) })
	}
}

func pathCases(t *testing.T, mode string) {
	base, plant := buildLayout(t)
	proj, home := filepath.Join(base, "proj"), filepath.Join(base, "home")
	roots := map[string][]string{
		"proj": {proj, filepath.Join(base, "proj2")},
		"home": {proj, filepath.Join(base, "proj2"), home},
	}
	state := filepath.Join(t.TempDir(), "state")
	require.NoError(t, os.Mkdir(state, 0o700))
	// A search is kept only once what it read is older than the racy
	// window (20ms): a change within it might not change a time.
	time.Sleep(50 * time.Millisecond)
	cfgs := map[string]sandbox.Config{}
	sbs := map[string]*sandbox.Sandbox{}
	for k, r := range roots {
		cfg := sandbox.Config{Roots: r, WorkDir: proj, Home: home}
		if mode == "facts-file" {
			cfg.FactsFile = filepath.Join(state, k+".facts")
		}
		sb, err := sandbox.New(cfg)
		require.NoError(t, err)
		cfgs[k], sbs[k] = cfg, sb
		// Judged once before the plantings, so that what was found then
		// must be found stale.
		d, _ := sb.CheckPath("conf/settings.json", true)
		require.Equal(t, permission.Allow, d, "before the planting")
	}
	plant()
	for k, sb := range sbs {
		switch mode {
		case "forgotten":
			sb.Forget()
		case "facts-file":
			_, err := os.Stat(cfgs[k].FactsFile)
			require.NoError(t, err, "the first sandbox kept its search")
			sb, err = sandbox.New(cfgs[k])
			require.NoError(t, err)
			sbs[k] = sb
		}
	}

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

// TestWriteThroughAnotherNameAsks plants, after the sandbox is built, a
// link to a protected directory, a second name for one (renamed, with a
// link where it was) and a hard link of a protected file, and writes
// through each: every write is asked, and the reason names the protected
// location.
func TestWriteThroughAnotherNameAsks(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	proj := filepath.Join(base, "proj")
	for _, d := range []string{"proj/.claude", "proj/.git/hooks", "proj/conf", "home"} {
		require.NoError(t, os.MkdirAll(filepath.Join(base, d), 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(proj, ".git/config"), []byte("[core]\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(base, "home/.bashrc"), []byte("alias x=y\n"), 0o644))
	sb, err := sandbox.New(sandbox.Config{Roots: []string{proj}, WorkDir: proj, Home: filepath.Join(base, "home")})
	require.NoError(t, err)
	for _, p := range []string{"conf/settings.json", "store/hooks/pre-commit", "notes.txt", "rc.txt"} {
		d, reason := sb.CheckPath(p, true)
		require.Equal(t, permission.Allow, d, "%s before the planting: %s", p, reason)
	}

	// A link: .claude now leads to conf.
	require.NoError(t, os.RemoveAll(filepath.Join(proj, ".claude")))
	require.NoError(t, os.Symlink("conf", filepath.Join(proj, ".claude")))
	// A second name: the git directory renamed, a link where it was.
	require.NoError(t, os.Rename(filepath.Join(proj, ".git"), filepath.Join(proj, "store")))
	require.NoError(t, os.Symlink("store", filepath.Join(proj, ".git")))
	// Hard links of the git config and of ~/.bashrc.
	require.NoError(t, os.Link(filepath.Join(proj, "store/config"), filepath.Join(proj, "notes.txt")))
	require.NoError(t, os.Link(filepath.Join(base, "home/.bashrc"), filepath.Join(proj, "rc.txt")))

	for _, c := range []struct{ path, reason string }{
		{"conf/settings.json", "protected path by identity: it is " + proj + "/.claude"},
		{"store/hooks/pre-commit", "protected path by identity: it is " + proj + "/.git"},
		{"store/config", "protected path by identity: it is " + proj + "/.git"},
		{"notes.txt", "is a hard link of " + proj + "/.git/config (protected"},
		{"rc.txt", "is a hard link of " + base + "/home/.bashrc (protected"},
	} {
		d, reason := sb.CheckPath(c.path, true)
		assert.Equal(t, permission.Ask, d, "%s: %s", c.path, reason)
		assert.Contains(t, reason, c.reason, c.path)
	}
	// Reading the hard link of a protected file that is no secret is
	// allowed: its provenance is known.
	d, reason := sb.CheckPath("rc.txt", false)
	assert.Equal(t, permission.Allow, d, reason)
	assert.Contains(t, reason, "inside root")
	// But a repository's config can hold a credential in its keys, which
	// the path judge reads only under the config's own name: under
	// another, reading it asks as for a secret.
	d, reason = sb.CheckPath("notes.txt", false)
	assert.Equal(t, permission.Ask, d, reason)
	assert.Contains(t, reason, "secret path: it is "+proj+"/.git/config reached under another name: a git config, whose keys may hold a credential")
}

// TestLargeToolCacheKeepsPackageReads: a secret directory with a large
// cache (kubectl's discovery cache) is searched without its cache, so the
// search stays complete and a pnpm-linked dependency is still read.
func TestLargeToolCacheKeepsPackageReads(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	cache := filepath.Join(base, "home/.kube/cache/discovery/x")
	require.NoError(t, os.MkdirAll(cache, 0o755))
	for i := range 4200 {
		require.NoError(t, os.WriteFile(filepath.Join(cache, strconv.Itoa(i)+".json"), nil, 0o644))
	}
	require.NoError(t, os.WriteFile(filepath.Join(base, "home/.kube/config"), []byte("apiVersion: v1\n"), 0o644))
	proj := filepath.Join(base, "proj")
	store := filepath.Join(proj, "node_modules/.pnpm/a@1/node_modules/a/index.js")
	require.NoError(t, os.MkdirAll(filepath.Dir(store), 0o755))
	require.NoError(t, os.WriteFile(store, []byte("module.exports = 1\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(proj, "node_modules/a"), 0o755))
	require.NoError(t, os.Link(store, filepath.Join(proj, "node_modules/a/index.js")))
	require.NoError(t, os.Link(filepath.Join(base, "home/.kube/config"), filepath.Join(proj, "node_modules/a/kube.txt")))

	sb, err := sandbox.New(sandbox.Config{Roots: []string{proj}, WorkDir: proj, Home: filepath.Join(base, "home")})
	require.NoError(t, err)
	d, reason := sb.CheckPath("node_modules/a/index.js", false)
	assert.Equal(t, permission.Allow, d, reason)
	assert.Contains(t, reason, "inside root")
	d, reason = sb.CheckPath("node_modules/a/kube.txt", false)
	assert.Equal(t, permission.Ask, d, reason)
	assert.Contains(t, reason, "is a hard link of "+base+"/home/.kube/config (secret")
}

// TestPinHoldsOneDecision: a view taken by Pin judges as its sandbox does,
// holds the locations found by identity from its first judgement on, and
// the next view sees what changed since.
func TestPinHoldsOneDecision(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	proj := filepath.Join(base, "proj")
	require.NoError(t, os.MkdirAll(filepath.Join(proj, ".git/hooks"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(proj, ".git/config"), []byte("[core]\n"), 0o644))
	sb, err := sandbox.New(sandbox.Config{Roots: []string{proj}, WorkDir: proj})
	require.NoError(t, err)
	view := sb.Pin()
	assert.Same(t, view, view.Pin(), "a view of a view is itself")
	assert.Nil(t, (*sandbox.Sandbox)(nil).Pin())
	for _, p := range []string{"notes.txt", ".git/config", "../x"} {
		for _, write := range []bool{false, true} {
			d, reason := sb.CheckPath(p, write)
			vd, vreason := view.CheckPath(p, write)
			assert.Equal(t, d, vd, "%s write=%v: the view judges as its sandbox", p, write)
			assert.Equal(t, reason, vreason, "%s write=%v", p, write)
		}
	}

	// A hard link of the git config under a name the view already
	// judged: the file's identity was recorded before the view's first
	// judgement, so the view sees the new name too, as do the next view
	// and the sandbox.
	require.NoError(t, os.Link(filepath.Join(proj, ".git/config"), filepath.Join(proj, "notes.txt")))
	d, reason := view.CheckPath("notes.txt", true)
	assert.Equal(t, permission.Ask, d, reason)
	assert.Contains(t, reason, "is a hard link of "+proj+"/.git/config (protected", "the view sees the link")
	d, reason = sb.Pin().CheckPath("notes.txt", true)
	assert.Equal(t, permission.Ask, d, reason)
	assert.Contains(t, reason, "is a hard link of "+proj+"/.git/config (protected", "the next view sees the link")
	d, reason = sb.CheckPath("notes.txt", true)
	assert.Equal(t, permission.Ask, d, reason)
	assert.Contains(t, reason, "is a hard link of "+proj+"/.git/config (protected", "and so does the sandbox")
}

// Every git config is read as a secret under another name, whichever one
// the link reaches: a worktree's config.worktree, a submodule's config,
// and the user's own ~/.gitconfig and ~/.config/git/config (a
// url.insteadOf can hold a token); a protected file that is no git
// config (~/.bashrc) is read under its second name as before.
func TestSecondNameOfAGitConfigIsSecret(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	proj, home := filepath.Join(base, "proj"), filepath.Join(base, "home")
	files := map[string]string{
		"proj/.git/HEAD": "ref: refs/heads/main\n", "proj/.git/config": "[core]\n",
		"proj/.git/config.worktree":    "[http]\n\textraHeader = x\n",
		"proj/.git/modules/sub/config": "[remote \"o\"]\n\turl = https://u:t@h/r\n",
		"home/.gitconfig":              "[url \"https://u:t@h/\"]\n\tinsteadOf = https://h/\n",
		"home/.config/git/config":      "[user]\n\tname = u\n",
		"home/.bashrc":                 "alias x=y\n",
	}
	for name, text := range files {
		p := filepath.Join(base, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	links := map[string]string{"wt.txt": "proj/.git/config.worktree", "sub.txt": "proj/.git/modules/sub/config",
		"home.txt": "home/.gitconfig", "xdg.txt": "home/.config/git/config", "rc.txt": "home/.bashrc"}
	for name, target := range links {
		require.NoError(t, os.Link(filepath.Join(base, target), filepath.Join(proj, name)))
	}
	sb, err := sandbox.New(sandbox.Config{Roots: []string{proj}, WorkDir: proj, Home: home})
	require.NoError(t, err)
	for name, target := range links {
		d, reason := sb.CheckPath(name, false)
		if name == "rc.txt" {
			assert.Equal(t, permission.Allow, d, "%s: %s", name, reason)
			assert.Contains(t, reason, "inside root", name)
			continue
		}
		assert.Equal(t, permission.Ask, d, "%s: %s", name, reason)
		assert.Contains(t, reason, "secret path: it is "+filepath.Join(base, target)+" reached under another name: a git config, whose keys may hold a credential", name)
	}
}

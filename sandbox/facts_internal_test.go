package sandbox

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
)

// factsTree makes a project with a secret deep in it and a state
// directory for the facts file, both older than the racy window.
func factsTree(t *testing.T) (proj, facts string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	proj = filepath.Join(base, "proj")
	for name, body := range map[string]string{"a.txt": "a", "svc/conf/.env.production": "K=v", "src/x/y/z.go": "package y"} {
		p := filepath.Join(proj, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	require.NoError(t, os.Mkdir(filepath.Join(base, "state"), 0o700))
	time.Sleep(50 * time.Millisecond) // older than the racy window: the search is kept
	return proj, filepath.Join(base, "state", "ids.facts")
}

// After Forget, a search is revalidated by what it read instead of made
// again while nothing changed, and made again after a change; a new
// sandbox takes the search from the facts file, revalidated the same way.
func TestFactsRevalidatedNotSearchedAgain(t *testing.T) {
	proj, facts := factsTree(t)
	cfg := Config{Roots: []string{proj}, WorkDir: proj, FactsFile: facts}
	s, err := New(cfg)
	require.NoError(t, err)
	first := s.ids.Load()
	require.False(t, first.racy)
	require.NotEmpty(t, first.reads, "the search records what it read")
	fi, err := os.Lstat(facts)
	require.NoError(t, err, "the search is kept in the facts file")
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())

	judge := func(s *Sandbox) {
		t.Helper()
		d, reason := s.CheckPath("a.txt", false)
		require.Equal(t, permission.Allow, d, reason)
		assert.Contains(t, reason, "inside root")
	}
	s.Forget()
	judge(s)
	assert.Equal(t, first.start, s.ids.Load().start, "nothing changed: the search is revalidated, not made again")
	assert.False(t, s.ids.Load().forgotten)

	s2, err := New(cfg)
	require.NoError(t, err)
	loaded := s2.ids.Load()
	assert.True(t, loaded.forgotten, "a loaded search is revalidated before use")
	assert.Equal(t, first.start, loaded.start)
	judge(s2)
	assert.Equal(t, first.start, s2.ids.Load().start, "the loaded search held")

	// A secret-named link made deep in the tree: svc/.env.staging ->
	// ../src/x/y/z.go makes z.go a secret (a tool reading .env.staging
	// reads it). Only the walk finds it; its directory's change time
	// says a new walk is due, in this sandbox after Forget and in the
	// next one.
	require.NoError(t, os.Symlink("../src/x/y/z.go", filepath.Join(proj, "svc/.env.staging")))
	for _, sb := range []*Sandbox{s, mustNew(t, cfg)} {
		sb.Forget()
		d, reason := sb.CheckPath("src/x/y/z.go", false)
		assert.Equal(t, permission.Ask, d, reason)
		assert.Contains(t, reason, "svc/.env.staging", "the read is of the secret the link names")
		assert.NotEqual(t, first.start, sb.ids.Load().start, "searched again after the change")
	}
}

func mustNew(t *testing.T, cfg Config) *Sandbox {
	t.Helper()
	s, err := New(cfg)
	require.NoError(t, err)
	return s
}

// A facts file is believed only where the agent could not have written
// it: one anyone else may write, in a directory anyone else may write,
// behind a link, with a second name, not a plain file, damaged, or made for other roots is ignored, and the
// roots are searched.
func TestFactsFileUntrustedIsIgnored(t *testing.T) {
	for _, c := range []struct {
		name string
		mess func(t *testing.T, facts string, cfg *Config)
	}{
		{"world-writable file", func(t *testing.T, f string, _ *Config) { require.NoError(t, os.Chmod(f, 0o666)) }},
		{"group-writable directory", func(t *testing.T, f string, _ *Config) { require.NoError(t, os.Chmod(filepath.Dir(f), 0o770)) }},
		{"a link", func(t *testing.T, f string, _ *Config) {
			require.NoError(t, os.Rename(f, f+".real"))
			require.NoError(t, os.Symlink(f+".real", f))
		}},
		{"a second hard link", func(t *testing.T, f string, _ *Config) {
			require.NoError(t, os.Link(f, filepath.Join(t.TempDir(), "second-name")))
		}},
		{"a FIFO", func(t *testing.T, f string, _ *Config) {
			require.NoError(t, os.Remove(f))
			require.NoError(t, syscall.Mkfifo(f, 0o600))
		}},
		{"damaged", func(t *testing.T, f string, _ *Config) {
			require.NoError(t, os.WriteFile(f, []byte(`{"version":1,`), 0o600))
		}},
		{"other roots", func(t *testing.T, _ string, cfg *Config) {
			cfg.Roots = append(cfg.Roots, filepath.Join(cfg.WorkDir, "src"))
		}},
		{"inside a root", func(t *testing.T, f string, cfg *Config) {
			cfg.FactsFile = filepath.Join(cfg.WorkDir, "ids.facts")
			b, err := os.ReadFile(f)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(cfg.FactsFile, b, 0o600))
		}},
		{"other lists", func(t *testing.T, _ string, cfg *Config) { cfg.Secret = append(DefaultSecret(), "notes/*.txt") }},
	} {
		t.Run(c.name, func(t *testing.T) {
			proj, facts := factsTree(t)
			cfg := Config{Roots: []string{proj}, WorkDir: proj, FactsFile: facts}
			first := mustNew(t, cfg).ids.Load()
			c.mess(t, facts, &cfg)
			s := mustNew(t, cfg)
			ids := s.ids.Load()
			assert.False(t, ids.forgotten, "the file was not loaded")
			assert.NotEqual(t, first.start, ids.start, "the roots were searched")
			d, reason := s.CheckPath("svc/conf/.env.production", false)
			assert.NotEqual(t, permission.Allow, d, reason)
		})
	}
}

// A file the host adds to one of its state directories (a hook's session
// snapshot) leaves the kept search standing, where it would make the next
// process search the workspace again; a name in the roots linked to that
// file later is still judged as the protected file it is.
func TestStateDirsKeepTheSearch(t *testing.T) {
	proj, facts := factsTree(t)
	home := filepath.Join(filepath.Dir(filepath.Dir(facts)), "home")
	sessions := filepath.Join(home, ".toolgate", "sessions")
	require.NoError(t, os.MkdirAll(sessions, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(sessions, "old.json"), []byte("{}"), 0o600))
	time.Sleep(50 * time.Millisecond) // older than the racy window
	judge := func(s *Sandbox) {
		t.Helper()
		d, reason := s.CheckPath("a.txt", false)
		require.Equal(t, permission.Allow, d, reason)
		assert.Contains(t, reason, "inside root")
	}
	kept := Config{Roots: []string{proj}, WorkDir: proj, Home: home, FactsFile: facts, StateDirs: []string{sessions}}
	plain := kept
	plain.StateDirs, plain.FactsFile = nil, filepath.Join(filepath.Dir(facts), "plain.facts")
	first, firstPlain := mustNew(t, kept).ids.Load().start, mustNew(t, plain).ids.Load().start

	added := filepath.Join(sessions, "new.json")
	require.NoError(t, os.WriteFile(added, []byte("{}"), 0o600))
	s := mustNew(t, kept)
	judge(s)
	assert.Equal(t, first, s.ids.Load().start, "a file the host added to its state directory: the next process keeps the search")
	p := mustNew(t, plain)
	judge(p)
	assert.NotEqual(t, firstPlain, p.ids.Load().start, "without StateDirs the same file calls for a new search")

	// The agent's name for the host's new file: a hard link in the roots.
	require.NoError(t, os.Link(added, filepath.Join(proj, "x.json")))
	s = mustNew(t, kept)
	d, reason := s.CheckPath("x.json", true)
	assert.NotEqual(t, permission.Allow, d, reason)
	assert.Contains(t, reason, ".toolgate", "the write is of the protected file the link is")

	// A state directory inside the roots is not taken: the agent writes
	// there.
	inside := kept
	inside.StateDirs = []string{filepath.Join(proj, "svc")}
	assert.Empty(t, mustNew(t, inside).stateDirs)
	// Nor the home directory or one holding it: the user's files there
	// (a dotfiles link made since) are searched for.
	for _, d := range []string{home, filepath.Dir(home)} {
		inside.StateDirs = []string{d}
		assert.Empty(t, mustNew(t, inside).stateDirs, "state directory %s", d)
	}
	_, err := New(Config{Roots: []string{proj}, StateDirs: []string{"rel"}})
	assert.ErrorIs(t, err, ErrInvalidPath, "a state directory must be absolute")
}

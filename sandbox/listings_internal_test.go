package sandbox

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// listingNames are the names trees are made of for the listings' test:
// names the default lists look up in a root or the home directory (files,
// directories and their insides), their neighbours in case and spelling,
// and plain names.
var listingNames = []string{".env", ".ENV", ".env.local", ".git", "config", "hooks", ".claude", "settings.json",
	".ssh", "id_rsa", ".npmrc", ".config", "git", ".aws", "credentials", ".vscode", "tasks.json", ".toolgate",
	".gitconfig", ".netrc", ".kube", "src", "a", "b.txt", "node_modules"}

// makeListingTree fills dir with a tree drawn by r: files, directories a
// few levels deep, links to other places of the tree (some dangling),
// and hard links.
func makeListingTree(t *testing.T, r *rand.Rand, dir string, depth int, made *[]string) {
	t.Helper()
	for range r.IntN(7) {
		p := filepath.Join(dir, listingNames[r.IntN(len(listingNames))])
		if _, err := os.Lstat(p); err == nil {
			continue
		}
		switch k := r.IntN(10); {
		case k < 4:
			require.NoError(t, os.WriteFile(p, []byte("x"), 0o644))
			*made = append(*made, p)
		case k < 7 && depth < 3:
			require.NoError(t, os.Mkdir(p, 0o755))
			makeListingTree(t, r, p, depth+1, made)
		case k < 9 && len(*made) > 0:
			require.NoError(t, os.Symlink((*made)[r.IntN(len(*made))], p))
		case len(*made) > 0:
			if err := os.Link((*made)[r.IntN(len(*made))], p); err != nil {
				continue
			}
		}
	}
}

// TestSearchListingsAgree holds the search to one property: with the
// listings that answer for names absent from a directory (absentIn), it
// finds and records exactly what it finds looking every name up — the
// same anchors, file identities, watches and reads, in the same order —
// over trees drawn at random in a root, the working directory and the
// home directory.
func TestSearchListingsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 200 {
		base, err := filepath.EvalSymlinks(t.TempDir())
		require.NoError(t, err)
		proj, home := filepath.Join(base, "proj"), filepath.Join(base, "home")
		require.NoError(t, os.Mkdir(proj, 0o755))
		require.NoError(t, os.Mkdir(home, 0o755))
		var made []string
		makeListingTree(t, r, proj, 0, &made)
		makeListingTree(t, r, home, 0, &made)
		s, err := New(Config{Roots: []string{proj}, WorkDir: proj, Home: home})
		require.NoError(t, err)
		listed := s.findIdentities()
		s.noListings = true
		looked := s.findIdentities()
		require.Equal(t, looked.moved, listed.moved, "tree %d: anchors reached through links", i)
		require.Equal(t, looked.files, listed.files, "tree %d: file identities", i)
		require.Equal(t, looked.complete, listed.complete, "tree %d: complete", i)
		require.Equal(t, looked.watches, listed.watches, "tree %d: watches", i)
		require.Equal(t, looked.reads, listed.reads, "tree %d: reads", i)
	}
}

// BenchmarkSearchListings times one search of a project and its home
// directory with the listings (absentIn, and the walk's kept listings of
// the directories unchanged since the last search) and with a lookup of
// every name and a listing of every directory, the two alternating in one
// loop, and reports both and their ratio: a small project, and one of
// 5,000 files in 50 directories.
func BenchmarkSearchListings(b *testing.B) {
	for _, size := range []struct {
		name  string
		files int
	}{{"small", 0}, {"5k", 5000}} {
		b.Run(size.name, func(b *testing.B) {
			base, err := filepath.EvalSymlinks(b.TempDir())
			require.NoError(b, err)
			proj, home := filepath.Join(base, "proj"), filepath.Join(base, "home")
			for _, p := range []string{"proj/src", "proj/.git/hooks", "proj/.git/refs/heads", "home/.config/git", "home/.ssh", "home/.cache"} {
				require.NoError(b, os.MkdirAll(filepath.Join(base, p), 0o755))
			}
			for _, p := range []string{"proj/README.md", "proj/go.mod", "proj/src/a.go", "proj/.git/config", "proj/.git/HEAD",
				"proj/.env", "home/.gitconfig", "home/.bashrc", "home/.ssh/id_ed25519", "home/.config/git/config"} {
				require.NoError(b, os.WriteFile(filepath.Join(base, p), []byte("x"), 0o600))
			}
			for i := range size.files {
				d := filepath.Join(proj, "pkg", fmt.Sprintf("d%02d", i%50))
				require.NoError(b, os.MkdirAll(d, 0o755))
				require.NoError(b, os.WriteFile(filepath.Join(d, fmt.Sprintf("f%d.go", i)), nil, 0o644))
			}
			time.Sleep(3 * racyWindow / 2)
			s, err := New(Config{Roots: []string{proj}, WorkDir: proj, Home: home})
			require.NoError(b, err)
			var listed, looked float64
			for b.Loop() {
				s.noListings = false
				t0 := time.Now()
				s.findIdentities()
				t1 := time.Now()
				s.noListings = true
				s.findIdentities()
				listed, looked = listed+float64(t1.Sub(t0)), looked+float64(time.Since(t1))
			}
			n := float64(b.N)
			b.ReportMetric(listed/n, "listed-ns/op")
			b.ReportMetric(looked/n, "looked-ns/op")
			b.ReportMetric(looked/listed, "looked/listed")
		})
	}
}

// walkNames are the names the walk's test makes trees of: secret names
// (including a certificate's, judged by its first bytes), links' names,
// and plain ones.
var walkNames = []string{".env", ".env.prod", "id_rsa", "server.pem", "credentials.json", "a", "b", "src", "lib", "node_modules"}

// mutateWalkTree changes the tree under root at random, as commands do
// between two searches: it makes files, directories and links (some
// dangling, some to secrets), hard links, removes and renames entries,
// and rewrites a certificate in place with a private key or back.
func mutateWalkTree(t *testing.T, r *rand.Rand, root string) {
	t.Helper()
	var dirs, files []string
	require.NoError(t, filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir():
			dirs = append(dirs, p)
		case d.Type().IsRegular():
			files = append(files, p)
		}
		return nil
	}))
	dir := dirs[r.IntN(len(dirs))]
	p := filepath.Join(dir, walkNames[r.IntN(len(walkNames))])
	switch k := r.IntN(8); {
	case k == 0:
		_ = os.WriteFile(p, []byte("x"), 0o644)
	case k == 1:
		_ = os.Mkdir(p, 0o755)
	case k == 2 && len(files) > 0:
		_ = os.Symlink(files[r.IntN(len(files))], p)
	case k == 3:
		_ = os.Symlink(filepath.Join(dir, "gone"), p)
	case k == 4 && len(files) > 0:
		_ = os.Link(files[r.IntN(len(files))], p)
	case k == 5 && len(files) > 0:
		_ = os.Remove(files[r.IntN(len(files))])
	case k == 6 && len(files) > 0:
		_ = os.Rename(files[r.IntN(len(files))], p)
	default:
		for _, f := range files {
			if filepath.Base(f) == "server.pem" {
				body := "-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----\n"
				if r.IntN(2) == 0 {
					body = "-----BEGIN PRIVATE KEY-----\nx\n"
				}
				require.NoError(t, os.WriteFile(f, []byte(body), 0o644)) // in place: its directory does not change
			}
		}
	}
}

// TestSearchKeptListingsAgree holds the walk's kept listings to the
// property that matters: a search that walks the directories unchanged
// since the last one from their kept listings finds and records exactly
// what a search that lists every directory and looks every name up finds,
// after each of a run of random changes to the tree, in one sandbox and
// in a new one that reads the listings from their file.
func TestSearchKeptListingsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for tree := range 8 {
		base, err := filepath.EvalSymlinks(t.TempDir())
		require.NoError(t, err)
		proj, home, state := filepath.Join(base, "proj"), filepath.Join(base, "home"), filepath.Join(base, "state")
		for _, d := range []string{proj, home, state} {
			require.NoError(t, os.Mkdir(d, 0o700))
		}
		var made []string
		makeListingTree(t, r, proj, 0, &made)
		cfg := Config{Roots: []string{proj}, WorkDir: proj, Home: home, FactsFile: filepath.Join(state, "f.facts")}
		s := mustNew(t, cfg)
		// Half the trees are walked within a bound they reach: where
		// the walk stops must not depend on how it listed.
		bound := 0
		if tree%2 == 1 {
			bound = 3 + r.IntN(10)
		}
		s.walkBound = bound
		kept := 0
		for step := range 25 {
			mutateWalkTree(t, r, proj)
			time.Sleep(3 * racyWindow / 2) // the last search's stamps are past the clock's tick
			sb := s
			if step%5 == 4 {
				sb = mustNew(t, cfg) // the listings from their file
				sb.Forget()
				sb.walkBound = bound
			}
			var prev map[string]*walkListing
			if last := sb.ids.Load(); last != nil {
				prev = sb.loadListings(last)
			}
			sb.noListings = false
			fast := sb.findIdentities()
			sb.ids.Store(fast)
			sb.saveFacts(fast)
			for path, l := range fast.listed {
				if prev[path] != nil && prev[path].st == l.st {
					kept++
				}
			}
			sb.noListings = true
			slow := sb.findIdentities()
			sb.noListings = false
			require.Equal(t, slow.moved, fast.moved, "tree %d step %d: anchors reached through links", tree, step)
			require.Equal(t, slow.files, fast.files, "tree %d step %d: file identities", tree, step)
			require.Equal(t, slow.complete, fast.complete, "tree %d step %d: complete", tree, step)
			require.Equal(t, slow.watches, fast.watches, "tree %d step %d: watches", tree, step)
			require.Equal(t, slow.reads, fast.reads, "tree %d step %d: reads", tree, step)
			s = sb
		}
		t.Logf("tree %d (bound %d, complete %v): %d listings kept from the search before", tree, bound, s.ids.Load().complete, kept)
	}
}

// asciiLower folds ASCII letters only, without a copy when there is none.
func TestASCIILower(t *testing.T) {
	for in, want := range map[string]string{".env": ".env", ".ENV": ".env", "Ünïcode.TXT": "Ünïcode.txt", "": "", "\u212a": "\u212a"} {
		require.Equal(t, want, asciiLower(in), in)
	}
}

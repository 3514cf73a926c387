package sandbox

import (
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

// BenchmarkSearchListings times one search of a small project and its
// home directory with the listings (absentIn) and with a lookup of every
// name, the two alternating in one loop, and reports both and their
// ratio.
func BenchmarkSearchListings(b *testing.B) {
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
	s, err := New(Config{Roots: []string{proj}, WorkDir: proj, Home: home})
	require.NoError(b, err)
	var listed, looked float64
	for b.Loop() {
		s.noListings = false
		t0 := time.Now().UnixNano()
		s.findIdentities()
		t1 := time.Now().UnixNano()
		s.noListings = true
		s.findIdentities()
		listed, looked = listed+float64(t1-t0), looked+float64(time.Now().UnixNano()-t1)
	}
	n := float64(b.N)
	b.ReportMetric(listed/n, "listed-ns/op")
	b.ReportMetric(looked/n, "looked-ns/op")
	b.ReportMetric(looked/listed, "looked/listed")
}

package bashguard

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The history reader agrees with git on generated repositories: random
// commits that add, change, remove and rename files and directories, on
// branches, with annotated tags, amended commits and resets (reachable
// from the reflogs only) and stashes (with their untracked files); the
// objects loose, packed by git gc (deltas at offsets), repacked with
// deltas named by id (REF_DELTA), and packed with loose objects beside.
// The paths it reads are those of the tree of every commit git rev-list
// --all --reflog lists, as git ls-tree -r prints them, and so include
// every path git log --all --name-only prints.
func TestGitHistoryAgreesWithGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP: no git to compare the history reader with: " + err.Error())
	}
	for seed := range uint64(5) {
		for _, pack := range []string{"loose", "gc", "ref-delta", "mixed"} {
			t.Run(fmt.Sprintf("seed%d/%s", seed, pack), func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				genHistory(t, dir, rand.New(rand.NewPCG(seed, 7)), pack)
				want := gitHistoryPaths(t, dir)
				h := readGitHistory(dir, nil, defaultHistBudget)
				require.Empty(t, h.why)
				assert.Equal(t, want, h.paths)
				if pack == "gc" || pack == "ref-delta" {
					assert.True(t, treeDeltas(t, dir), "the pack holds no tree stored as a delta")
				}
				for _, p := range strings.Split(gitIn(t, dir, "log", "--all", "--format=", "--name-only", "-z"), "\x00") {
					if p = strings.TrimSpace(p); p != "" {
						_, ok := slices.BinarySearch(h.paths, p)
						assert.True(t, ok, "git log --all --name-only prints %q, which the reader does not hold", p)
					}
				}
			})
		}
	}
}

// genHistory makes a repository in dir with a random history, its
// objects stored as pack says.
func genHistory(t *testing.T, dir string, rng *rand.Rand, pack string) {
	gitIn(t, dir, "init", "-q", "-b", "main")
	names := []string{"a.txt", "b.go", ".env", "id_rsa", "README.md", "x y.txt", "ü.txt"}
	dirs := []string{"", "src", "src/deep", "lib", "docs/a/b"}
	var files []string
	write := func(p string, n int) {
		full := filepath.Join(dir, p)
		require.NoError(t, os.MkdirAll(filepath.Dir(full), 0o755))
		var b strings.Builder
		for i := range 40 + n {
			fmt.Fprintf(&b, "line %d of %s\n", i, p)
		}
		require.NoError(t, os.WriteFile(full, []byte(b.String()), 0o644))
	}
	commit := func(msg string) {
		gitIn(t, dir, "add", "-A")
		gitIn(t, dir, "commit", "-q", "--allow-empty", "-m", msg)
	}
	branches := []string{"main"}
	for i := range 10 + rng.IntN(25) {
		for range 1 + rng.IntN(4) {
			switch op := rng.IntN(10); {
			case op < 4 || len(files) == 0:
				d := dirs[rng.IntN(len(dirs))]
				p := filepath.Join(d, fmt.Sprintf("f%d-%s", rng.IntN(30), names[rng.IntN(len(names))]))
				write(p, rng.IntN(20))
				if !slices.Contains(files, p) {
					files = append(files, p)
				}
			case op < 6:
				write(files[rng.IntN(len(files))], rng.IntN(50))
			case op < 8:
				k := rng.IntN(len(files))
				require.NoError(t, os.Remove(filepath.Join(dir, files[k])))
				files = slices.Delete(files, k, k+1)
			default:
				// Rename a directory whole: its tree stands at a new
				// place with the same id.
				from := dirs[1+rng.IntN(len(dirs)-1)]
				to := fmt.Sprintf("moved%d", rng.IntN(5))
				if _, err := os.Stat(filepath.Join(dir, from)); err == nil {
					if _, err := os.Stat(filepath.Join(dir, to)); err != nil {
						require.NoError(t, os.Rename(filepath.Join(dir, from), filepath.Join(dir, to)))
						files = listFiles(t, dir)
					}
				}
			}
		}
		commit(fmt.Sprintf("c%d", i))
		switch rng.IntN(12) {
		case 0:
			b := fmt.Sprintf("topic%d", i)
			gitIn(t, dir, "checkout", "-q", "-b", b)
			branches = append(branches, b)
		case 1:
			gitIn(t, dir, "checkout", "-q", branches[rng.IntN(len(branches))])
			files = listFiles(t, dir)
		case 2:
			gitIn(t, dir, "tag", "-a", "-m", "tag", fmt.Sprintf("v%d", i))
		case 3:
			// Amend: the commit before is in the reflog only.
			write(fmt.Sprintf("amended%d/.env", i), 1)
			commit("amend")
			gitIn(t, dir, "rm", "-rq", fmt.Sprintf("amended%d", i))
			gitIn(t, dir, "commit", "-q", "--allow-empty", "--amend", "-m", "amended")
			files = listFiles(t, dir)
		case 4:
			write(fmt.Sprintf("reset%d/secret.pem", i), 1)
			commit("to be reset")
			gitIn(t, dir, "reset", "-q", "--hard", "HEAD~1")
			files = listFiles(t, dir)
		case 5:
			write(fmt.Sprintf("stashed%d.txt", i), 1)
			if len(files) > 0 {
				write(files[0], 99)
			}
			gitIn(t, dir, "stash", "-q", "-u")
			files = listFiles(t, dir)
		}
	}
	switch pack {
	case "gc":
		gitIn(t, dir, "gc", "-q")
	case "ref-delta":
		gitIn(t, dir, "-c", "repack.usedeltabaseoffset=false", "repack", "-adfq", "--depth=50", "--window=50")
	case "mixed":
		gitIn(t, dir, "repack", "-adq")
		write("later/.env", 3)
		commit("after the pack")
	}
}

// treeDeltas reports a pack of dir that stores a tree as a delta.
func treeDeltas(t *testing.T, dir string) bool {
	idx, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.idx"))
	for _, x := range idx {
		for line := range strings.SplitSeq(gitIn(t, dir, "verify-pack", "-v", x), "\n") {
			if f := strings.Fields(line); len(f) == 7 && f[1] == "tree" {
				return true
			}
		}
	}
	return false
}

// listFiles lists the files of the work tree of dir, outside .git.
func listFiles(t *testing.T, dir string) []string {
	var out []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	}))
	return out
}

// gitHistoryPaths is what git says the history of dir holds: the paths of
// the tree of every commit a ref or a reflog reaches.
func gitHistoryPaths(t *testing.T, dir string) []string {
	set := map[string]bool{}
	for c := range strings.FieldsSeq(gitIn(t, dir, "rev-list", "--all", "--reflog")) {
		for p := range strings.SplitSeq(gitIn(t, dir, "ls-tree", "-r", "-z", "--name-only", "--full-tree", c), "\x00") {
			if p != "" {
				set[p] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// Over its budget, or where it cannot read the history plainly, the
// reader says why instead of a partial list.
func TestGitHistoryBounds(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP: no git for the repositories: " + err.Error())
	}
	dir := t.TempDir()
	genHistory(t, dir, rand.New(rand.NewPCG(1, 2)), "gc")
	for _, b := range []histBudget{
		{objects: 5, bytes: 1 << 30, paths: 1 << 20},
		{objects: 1 << 20, bytes: 2000, paths: 1 << 20},
		{objects: 1 << 20, bytes: 1 << 30, paths: 2},
	} {
		h := readGitHistory(dir, nil, b)
		assert.Nil(t, h.paths)
		assert.Equal(t, "the history is larger than the guard reads for one command", h.why, "%+v", b)
	}
	sha := t.TempDir()
	gitIn(t, sha, "init", "-q", "--object-format=sha256")
	gitIn(t, sha, "commit", "-q", "--allow-empty", "-m", "one")
	assert.Contains(t, readGitHistory(sha, nil, defaultHistBudget).why, "SHA-256")

	alt := t.TempDir()
	gitIn(t, alt, "clone", "-q", "--shared", dir, "c")
	assert.Contains(t, readGitHistory(filepath.Join(alt, "c"), nil, defaultHistBudget).why, "alternates")

	// An object the refs name that is not there.
	gone := t.TempDir()
	gitIn(t, gone, "init", "-q")
	gitIn(t, gone, "commit", "-q", "--allow-empty", "-m", "one")
	head := strings.TrimSpace(gitIn(t, gone, "rev-parse", "HEAD"))
	require.NoError(t, os.Remove(filepath.Join(gone, ".git", "objects", head[:2], head[2:])))
	assert.Contains(t, readGitHistory(gone, nil, defaultHistBudget).why, "is not in the repository")

	// A FIFO where packed-refs should be is not waited on.
	fifo := t.TempDir()
	gitIn(t, fifo, "init", "-q")
	gitIn(t, fifo, "commit", "-q", "--allow-empty", "-m", "one")
	require.NoError(t, syscall.Mkfifo(filepath.Join(fifo, ".git", "packed-refs"), 0o644))
	assert.Contains(t, readGitHistory(fifo, nil, defaultHistBudget).why, "packed-refs cannot be read")

	// A fresh repository has no history.
	fresh := t.TempDir()
	gitIn(t, fresh, "init", "-q")
	h := readGitHistory(fresh, nil, defaultHistBudget)
	assert.Empty(t, h.why)
	assert.Empty(t, h.paths)
}

// The delta and commit readers take any bytes: a planted pack neither
// panics them nor makes them build more than their bound.
func FuzzHistoryObjects(f *testing.F) {
	f.Add([]byte("hello world"), []byte{11, 5, 0x91, 0, 5}, []byte("tree 0123456789012345678901234567890123456789\nparent 0123456789012345678901234567890123456789\n\nmsg"))
	f.Add([]byte(""), []byte{0, 3, 3, 'a', 'b', 'c'}, []byte("tree x\n"))
	f.Add([]byte("ab"), []byte{2, 0xff, 0xff, 0x7f, 0x90}, []byte{})
	f.Fuzz(func(t *testing.T, base, delta, commit []byte) {
		const limit = 1 << 16
		if out, ok := applyDelta(base, delta, limit); ok && len(out) > limit {
			t.Fatalf("applyDelta built %d bytes, over %d", len(out), limit)
		}
		if tree, parents, ok := commitLinks(commit); ok {
			if len(tree) != 20 {
				t.Fatalf("a tree id of %d bytes", len(tree))
			}
			for _, p := range parents {
				if len(p) != 20 {
					t.Fatalf("a parent id of %d bytes", len(p))
				}
			}
		}
		tagTarget(commit)
	})
}

package bashguard

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gitIn runs git in dir with a clean configuration.
func gitIn(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return gitInput(t, dir, "", args...)
}

// gitInput runs git in dir with a clean configuration and input on its
// standard input.
func gitInput(t testing.TB, dir, input string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=dev", "-c", "user.email=dev@example.com"}, args...)...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(input)
	cmd.Env = []string{"HOME=" + dir, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1"}
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
	return string(out)
}

// The index reader agrees with git ls-files on every index form git
// writes: versions 2, 3 (intent-to-add entries carry extended flags) and 4
// (compressed names), SHA-256 object names, a sparse checkout; a split
// index is refused, so the work tree is walked instead.
func TestGitIndexAgreesWithGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP: no git to compare the index reader with: " + err.Error())
	}
	for _, tc := range []struct {
		name  string
		init  []string
		after [][]string
		fails string
	}{
		{name: "version 2", after: [][]string{{"update-index", "--index-version", "2"}}},
		{name: "version 3 with intent-to-add", after: [][]string{{"add", "-N", "later.txt"}, {"update-index", "--index-version", "3"}}},
		{name: "version 4", after: [][]string{{"update-index", "--index-version", "4"}}},
		{name: "sha256", init: []string{"--object-format=sha256"}},
		{name: "sha256 version 4", init: []string{"--object-format=sha256"}, after: [][]string{{"update-index", "--index-version", "4"}}},
		{name: "skip-worktree", after: [][]string{{"update-index", "--skip-worktree", "src/deep/c.go"}}},
		{name: "split", after: [][]string{{"update-index", "--split-index"}}, fails: "split"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range []string{"README.md", "src/a.go", "src/b.go", "src/deep/c.go", "src/deep/d.go", ".github/ci.yml", "later.txt", "untracked.env", "name with space.txt"} {
				p := filepath.Join(dir, f)
				require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
				require.NoError(t, os.WriteFile(p, []byte(f+"\n"), 0o644))
			}
			gitIn(t, dir, append([]string{"init", "-q"}, tc.init...)...)
			gitIn(t, dir, "add", "README.md", "src", ".github", "name with space.txt")
			gitIn(t, dir, "commit", "-qm", "first")
			for _, a := range tc.after {
				gitIn(t, dir, a...)
			}
			x, err := readGitIndex(dir)
			if tc.fails != "" {
				require.Error(t, err, "a %s index is not read", tc.fails)
				return
			}
			require.NoError(t, err)
			want := strings.Split(strings.TrimRight(gitIn(t, dir, "ls-files", "-z"), "\x00"), "\x00")
			sort.Strings(want)
			assert.Equal(t, want, x.paths, "the paths git ls-files prints")
			assert.False(t, x.tracked("untracked.env"), "an untracked file")
			assert.True(t, x.tracked("src/deep/c.go"))
			assert.True(t, x.holds("src/deep"), "a directory holding tracked files")
			assert.False(t, x.holds("src/dee"), "a prefix of a directory's name is not that directory")
		})
	}
}

// A fresh repository tracks nothing; a .git file leads to the linked work
// tree's own index.
func TestGitIndexFreshAndLinked(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP: no git for the repositories: " + err.Error())
	}
	dir := t.TempDir()
	gitIn(t, dir, "init", "-q")
	x, err := readGitIndex(dir)
	require.NoError(t, err)
	assert.Empty(t, x.paths, "a fresh repository")

	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644))
	gitIn(t, dir, "add", "a.txt")
	gitIn(t, dir, "commit", "-qm", "first")
	wt := filepath.Join(t.TempDir(), "wt")
	gitIn(t, dir, "worktree", "add", "-q", wt)
	require.NoError(t, os.WriteFile(filepath.Join(wt, "b.txt"), []byte("b\n"), 0o644))
	gitIn(t, wt, "add", "b.txt")
	x, err = readGitIndex(wt)
	require.NoError(t, err)
	assert.Equal(t, []string{"a.txt", "b.txt"}, x.paths, "the linked work tree's own index")
}

// FuzzParseGitIndex: any bytes either fail or give sorted, non-empty,
// relative paths, no more than the bound, in time linear in the input;
// the gitlinks' scan gives clean paths too, reads every index the whole
// reader reads, and reads what the reading by offsets into the whole
// file reads, streamed from a file or one byte at a time alike.
func FuzzParseGitIndex(f *testing.F) {
	if _, err := exec.LookPath("git"); err == nil {
		for _, tc := range []struct {
			init  []string
			after [][]string
		}{
			{after: [][]string{{"update-index", "--index-version", "2"}}},
			{after: [][]string{{"update-index", "--index-version", "3"}}},
			{after: [][]string{{"update-index", "--index-version", "4"}}},
			{init: []string{"--object-format=sha256"}, after: [][]string{{"update-index", "--index-version", "4"}}},
			{after: [][]string{{"update-index", "--split-index"}}},
		} {
			d := f.TempDir()
			require.NoError(f, os.MkdirAll(filepath.Join(d, "src"), 0o755))
			require.NoError(f, os.WriteFile(filepath.Join(d, "src", "a.go"), []byte("a"), 0o644))
			require.NoError(f, os.WriteFile(filepath.Join(d, "b"), []byte("b"), 0o644))
			gitIn(f, d, append([]string{"init", "-q"}, tc.init...)...)
			gitIn(f, d, "add", ".")
			head := strings.TrimSpace(gitIn(f, d, "hash-object", "-w", "b"))
			gitIn(f, d, "update-index", "--add", "--cacheinfo", "160000,"+head+",src/m")
			for _, a := range tc.after {
				gitIn(f, d, a...)
			}
			b, err := os.ReadFile(filepath.Join(d, ".git", "index"))
			require.NoError(f, err)
			f.Add(b, len(tc.init) > 0)
		}
	}
	f.Add([]byte("DIRC\x00\x00\x00\x04\x00\x00\x00\x01"), true)
	f.Add(indexV2("a.go", "src/b.go"), false)
	f.Fuzz(func(t *testing.T, b []byte, sha256 bool) {
		hashLen := 20
		if sha256 {
			hashLen = 32
		}
		links, shared, lerr := indexGitlinks(b, hashLen)
		want, wantShared, ok := gitlinksBySlice(b, hashLen)
		require.Equal(t, ok, lerr == nil, "the scan fails where the reading by offsets does: %v", lerr)
		if ok {
			require.Equal(t, want, links, "the gitlinks the reading by offsets finds")
			require.Equal(t, wantShared, shared, "the shared index the reading by offsets names")
		}
		bytewise, bshared, berr := scanGitlinks(iotest.OneByteReader(bytes.NewReader(b)), int64(len(b)), hashLen)
		require.Equal(t, lerr, berr, "one byte at a time")
		require.Equal(t, links, bytewise, "one byte at a time")
		require.Equal(t, shared, bshared, "one byte at a time")
		p := filepath.Join(t.TempDir(), "index")
		require.NoError(t, os.WriteFile(p, b, 0o644))
		streamed, sshared, serr := fileGitlinks(p, hashLen, newStampRec())
		require.Equal(t, lerr, serr, "streamed from a file")
		require.Equal(t, links, streamed, "streamed from a file")
		require.Equal(t, shared, sshared, "streamed from a file")
		for _, p := range links {
			require.True(t, cleanIndexName(p), "a gitlink's clean relative path: %q", p)
		}
		x, err := parseGitIndex(b, hashLen)
		if err != nil {
			return
		}
		// What the whole reader reads, the gitlinks' scan reads too.
		require.NoError(t, lerr, "an index parseGitIndex reads")
		require.LessOrEqual(t, len(x.paths), maxWalkEntries)
		require.True(t, sort.StringsAreSorted(x.paths))
		for _, p := range x.paths {
			require.True(t, cleanIndexName(p), "a clean relative path: %q", p)
		}
		for _, l := range links {
			require.True(t, x.tracked(l), "a gitlink is a tracked path: %q", l)
		}
	})
}

// indexV2 builds a version 2 index of the names given, as git lays one
// out, with a zero hash at the end.
func indexV2(names ...string) []byte {
	b := []byte("DIRC\x00\x00\x00\x02")
	b = binary.BigEndian.AppendUint32(b, uint32(len(names)))
	for _, n := range names {
		start := len(b)
		b = append(b, make([]byte, 40+20)...)
		b = binary.BigEndian.AppendUint16(b, uint16(len(n)))
		b = append(b, n...)
		for pad := (len(b) - start + 8) &^ 7; len(b)-start < pad; {
			b = append(b, 0)
		}
	}
	return append(b, make([]byte, 20)...)
}

// A planted index whose names git would never write ("src/../.env", an
// absolute path, a .git component, an empty component) is not read: the
// work tree is walked instead, and .env is judged.
func TestGitIndexRefusesUncleanNames(t *testing.T) {
	x, err := parseGitIndex(indexV2("a.go", "src/b.go"), 20)
	require.NoError(t, err, "the builder writes what git writes")
	assert.Equal(t, []string{"a.go", "src/b.go"}, x.paths)
	for _, bad := range []string{"src/../.env", "/etc/passwd", ".git/config", "src/.GIT/x", "a//b", "./a.go", "..", "src/./b"} {
		_, err := parseGitIndex(indexV2("a.go", bad), 20)
		assert.Error(t, err, "an index naming %q is not read", bad)
	}
}

package bashguard

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCDPathBash checks the directory the guard finds for "cd DIR" under
// a CDPATH against the one real bash enters, in a tree with links, files
// in the way and entries that do not exist.
func TestCDPathBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("SKIP: no bash on PATH to compare the CDPATH lookup with")
	}
	tmp := cdPathTree(t)
	work := filepath.Join(tmp, "w")
	cdpaths := []string{
		"", tmp + "/alt", ":" + tmp + "/alt", tmp + "/w/lib:" + tmp + "/alt", tmp + "/link", tmp + "/link/",
		tmp + "/nothere:" + tmp + "/alt", tmp + "/alt:", tmp + "/w/file:" + tmp + "/alt", "/", tmp + "/w/lib",
	}
	operands := []string{"src", "only", "src/..", "only/../src", "./src", "../alt", ".", "..", "nothere",
		"file", "lib", "deep/x", "jump/..", "alt", "w/lib", "src/", "lib/jump"}
	compared, asked := 0, 0
	for _, cdpath := range cdpaths {
		for _, op := range operands {
			for _, physical := range []bool{false, true} {
				if cdPathAgrees(t, bash, work, cdpath, op, physical) {
					compared++
				} else {
					asked++
				}
			}
		}
	}
	assert.Greater(t, compared, 100, "too few lookups compared with bash")
	t.Logf("%d lookups agree with bash, %d asked", compared, asked)
}

// The property of the lookup: whatever CDPATH and directory, where the
// guard does not ask, bash enters the directory the guard judges.
func FuzzCDPath(f *testing.F) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		f.Skip("SKIP: no bash on PATH to compare the CDPATH lookup with")
	}
	tmp := cdPathTree(f)
	for _, s := range [][2]string{{"$T/alt", "src"}, {":$T/alt", "only"}, {"$T/link/:$T/w/lib", "jump/.."}, {"/", "etc"}, {"$T/w/file:$T/alt", "deep/x/.."}} {
		f.Add(s[0], s[1], false)
	}
	f.Fuzz(func(t *testing.T, cdpath, op string, physical bool) {
		if strings.ContainsRune(cdpath+op, 0) || op == "" || op == "-" || strings.HasPrefix(op, "-") {
			t.Skip("SKIP: not a cd operand bash can be given as an argument")
		}
		cdpath = strings.ReplaceAll(cdpath, "$T", tmp)
		cdPathAgrees(t, bash, filepath.Join(tmp, "w"), cdpath, op, physical)
	})
}

// cdPathAgrees checks that bash, run in work with CDPATH=cdpath, enters
// the directory the guard finds for "cd op"; it reports false when the
// guard asks instead.
func cdPathAgrees(t *testing.T, bash, work, cdpath, op string, physical bool) bool {
	to, _, why := cdResolve(work, cdpath, op, physical)
	if why != "" {
		// The guard asks; bash may enter a directory or fail.
		return false
	}
	flag := "-L"
	if physical {
		flag = "-P"
	}
	cmd := exec.Command(bash, "--norc", "--noprofile", "-c", `cd "$1" -- "$2" >/dev/null 2>&1 && pwd`, "bash", flag, op)
	cmd.Dir = work
	cmd.Env = []string{"CDPATH=" + cdpath, "PATH=/usr/bin:/bin"}
	out, err := cmd.Output()
	what := "CDPATH=" + cdpath + " cd " + flag + " " + op
	if assert.NoError(t, err, "%s: bash fails, the guard judges %s", what, to) {
		assert.Equal(t, to, strings.TrimSuffix(string(out), "\n"), what)
	}
	return true
}

// cdPathTree makes a tree with directories of the same name in several
// places, a file in the way and links, and returns its directory.
func cdPathTree(t testing.TB) string {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	for _, d := range []string{"w/src", "w/lib/src", "w/lib/only", "alt/src", "alt/only", "alt/deep/x"} {
		require.NoError(t, os.MkdirAll(filepath.Join(tmp, d), 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(tmp, "w/file"), nil, 0o644))
	require.NoError(t, os.Symlink(filepath.Join(tmp, "alt"), filepath.Join(tmp, "link")))
	require.NoError(t, os.Symlink(filepath.Join(tmp, "alt/deep/x"), filepath.Join(tmp, "w/lib/jump")))
	return tmp
}

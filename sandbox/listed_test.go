//go:build unix

package sandbox_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/sandbox"
)

// CheckListed gives CheckPath's decision and reason for every entry of
// every directory of the identity layout (links, second names, hard
// links, git's pointers, the home directory's files), read and write,
// whether the directory is listed as it lies or through a link, and
// through a view as through the sandbox itself.
func TestCheckListedAgreesWithCheckPath(t *testing.T) {
	base, plant := buildLayout(t)
	plant()
	// Names a hostile repository may plant: a newline, a trailing space,
	// look-alike characters, a secret name in another case, a FIFO.
	for _, name := range []string{"a\nb", ".env ", ".еnv", ".ENV", "id_rsa\u200b", "-rf", "*"} {
		require.NoError(t, os.WriteFile(filepath.Join(base, "proj", name), []byte("x"), 0o644))
	}
	require.NoError(t, syscall.Mkfifo(filepath.Join(base, "proj", "fifo.pem"), 0o644))
	proj, home := filepath.Join(base, "proj"), filepath.Join(base, "home")
	sb, err := sandbox.New(sandbox.Config{Roots: []string{proj, filepath.Join(base, "proj2"), home}, WorkDir: proj, Home: home})
	require.NoError(t, err)
	view := sb.Pin()
	n := 0
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		ents, err := os.ReadDir(dir)
		if err != nil || depth > 12 {
			return
		}
		for _, e := range ents {
			for _, write := range []bool{false, true} {
				wantD, wantR := sb.CheckPath(dir+"/"+e.Name(), write)
				for _, c := range []*sandbox.Sandbox{view, sb} {
					d, r := c.CheckListed(dir, e.Name(), write)
					assert.Equal(t, wantD, d, "%s/%s write=%v", dir, e.Name(), write)
					assert.Equal(t, wantR, r, "%s/%s write=%v", dir, e.Name(), write)
				}
				n++
			}
			// Directories through links too: their entries are judged
			// by CheckPath, whatever the link leads to.
			if fi, err := os.Stat(dir + "/" + e.Name()); err == nil && fi.IsDir() {
				walk(dir+"/"+e.Name(), depth+1)
			}
		}
	}
	walk(base, 0)
	// Names that are not one entry.
	for _, name := range []string{"", ".", "..", "a/b", "../../etc/passwd"} {
		wantD, wantR := sb.CheckPath(proj+"/"+name, false)
		d, r := view.CheckListed(proj, name, false)
		assert.Equal(t, wantD, d, "%q", name)
		assert.Equal(t, wantR, r, "%q", name)
	}
	require.Greater(t, n, 100, "entries judged")
	t.Logf("%d judgements agree", n)
}

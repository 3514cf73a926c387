package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
)

// FuzzParseHooksPath: the parse is total, and a value set plainly in a
// [core] section is the one read, whatever text comes before it.
func FuzzParseHooksPath(f *testing.F) {
	for _, s := range []string{"", "[core]\n\thooksPath = x\n", "[Core]\nHOOKSPATH=\"a b\"", "[core] hooksPath = y ; c", "[user]\nhooksPath = z"} {
		f.Add(s, "hooks")
	}
	f.Fuzz(func(t *testing.T, prefix, val string) {
		parseHooksPath([]byte(prefix))
		if val == "" || strings.TrimSpace(val) != val || strings.ContainsAny(val, "\"#;\\\n\r") {
			return
		}
		got, ok := parseHooksPath([]byte(prefix + "\n[core]\n\thooksPath = " + val + "\n"))
		if !ok || got != val {
			t.Fatalf("after %q: got %q, %v, want %q", prefix, got, ok, val)
		}
	})
}

// A view looks each directory on the way of its paths, and each file, up
// once: the operands of one command that share directories share their
// lookups. Missing entries are looked up afresh, and the next view looks
// again: a directory replaced by a link to outside the roots after one
// view judged is refused by the next.
func TestPinLooksDirectoriesUpOnce(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	proj := filepath.Join(base, "proj")
	require.NoError(t, os.MkdirAll(filepath.Join(proj, "src"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(base, "out"), 0o755))
	for _, f := range []string{"src/a.go", "src/b.go"} {
		require.NoError(t, os.WriteFile(filepath.Join(proj, f), []byte("package src\n"), 0o644))
	}
	sb, err := New(Config{Roots: []string{proj}, WorkDir: proj})
	require.NoError(t, err)
	view := sb.Pin()
	names := func() []string {
		var out []string
		for _, e := range view.look.ents {
			out = append(out, string(view.look.names[e.off:e.end]))
		}
		return out
	}
	for _, p := range []string{proj + "/src/a.go", proj + "/src/b.go", proj + "/src/new.go", "src/a.go"} {
		d, reason := view.CheckPath(p, false)
		require.Equal(t, permission.Allow, d, "%s: %s", p, reason)
	}
	dirs := []string{}
	for d := proj + "/src"; d != "/"; d = filepath.Dir(d) {
		dirs = append([]string{d}, dirs...)
	}
	dirs = append(dirs, proj+"/src/a.go", proj+"/src/b.go")
	assert.Equal(t, dirs, names(), "each directory and file once (a relative path starts at the working directory), nothing missing")
	// Judgements of one view at once share its lookups.
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			p := filepath.Join(proj, "src", []string{"a.go", "b.go"}[i%2])
			d, reason := sb.Pin().CheckPath(p, false)
			assert.Equal(t, permission.Allow, d, reason)
			d, reason = view.CheckPath(p, false)
			assert.Equal(t, permission.Allow, d, reason)
		})
	}
	wg.Wait()
	assert.Equal(t, dirs, names())

	require.NoError(t, os.Rename(filepath.Join(proj, "src"), filepath.Join(base, "src.old")))
	require.NoError(t, os.Symlink(filepath.Join(base, "out"), filepath.Join(proj, "src")))
	d, reason := sb.Pin().CheckPath("src/a.go", false)
	assert.Equal(t, permission.Deny, d, reason)
	assert.Contains(t, reason, "outside", "the next view follows the new link")
	d, reason = sb.CheckPath("src/a.go", false)
	assert.Equal(t, permission.Deny, d, reason)
	assert.Contains(t, reason, "outside", "and so does the sandbox, which keeps no lookups")
	assert.Nil(t, sb.look)
}

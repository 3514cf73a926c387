package sandbox

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fswatch"
	"github.com/toolgate/toolgate/permission"
)

// A change to the file system between two views of one long-lived
// sandbox is seen by the second view, as a fresh sandbox sees it: with
// the views' lookups watched (inotify), and with the watcher closed
// (looked up each time).
func TestWatchedLookups(t *testing.T) {
	cases := []struct {
		name   string
		path   string
		change func(t *testing.T, dir, outside string)
		// missing names the path's first component that is missing
		// before the change, kept as missing (a watched sandbox).
		missing string
	}{
		{"a directory swapped for a link out of the roots", "src/a.go", func(t *testing.T, dir, outside string) {
			require.NoError(t, os.RemoveAll(filepath.Join(dir, "src")))
			require.NoError(t, os.Symlink(outside, filepath.Join(dir, "src")))
		}, ""},
		{"a file swapped for a link to a secret", "src/a.go", func(t *testing.T, dir, _ string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte("TOKEN=x\n"), 0o600))
			require.NoError(t, os.Remove(filepath.Join(dir, "src", "a.go")))
			require.NoError(t, os.Symlink("../.env", filepath.Join(dir, "src", "a.go")))
		}, ""},
		{"a hard link to a secret made under the file's name", "src/a.go", func(t *testing.T, dir, _ string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte("TOKEN=x\n"), 0o600))
			require.NoError(t, os.Remove(filepath.Join(dir, "src", "a.go")))
			require.NoError(t, os.Link(filepath.Join(dir, ".env"), filepath.Join(dir, "src", "a.go")))
		}, ""},
		{"a secret directory made on the way", "secrets/a.go", func(t *testing.T, dir, _ string) {
			require.NoError(t, os.Rename(filepath.Join(dir, "secrets"), filepath.Join(dir, "plain")))
			require.NoError(t, os.Symlink(filepath.Join(dir, ".ssh"), filepath.Join(dir, "secrets")))
			require.NoError(t, os.Mkdir(filepath.Join(dir, ".ssh"), 0o700))
			require.NoError(t, os.WriteFile(filepath.Join(dir, ".ssh", "a.go"), []byte("KEY\n"), 0o600))
		}, ""},
		{"a link with a secret's name made to the file", "src/a.go", func(t *testing.T, dir, _ string) {
			require.NoError(t, os.Symlink("src/a.go", filepath.Join(dir, ".env")))
		}, ""},
		{"a parent renamed and another put in its place", "src/a.go", func(t *testing.T, dir, outside string) {
			require.NoError(t, os.Rename(filepath.Join(dir, "src"), filepath.Join(dir, "src.old")))
			require.NoError(t, os.Symlink(outside, filepath.Join(dir, "src")))
		}, ""},
		{"a link out of the roots planted at a missing name", "src/new.go", func(t *testing.T, dir, outside string) {
			require.NoError(t, os.Symlink(filepath.Join(outside, "a.go"), filepath.Join(dir, "src", "new.go")))
		}, "src/new.go"},
		{"a link to a secret planted at a missing name", "src/new.go", func(t *testing.T, dir, _ string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte("TOKEN=x\n"), 0o600))
			require.NoError(t, os.Symlink("../.env", filepath.Join(dir, "src", "new.go")))
		}, "src/new.go"},
		{"a missing directory made a link out of the roots", "build/out/x.go", func(t *testing.T, dir, outside string) {
			require.NoError(t, os.Symlink(outside, filepath.Join(dir, "build")))
		}, "build"},
		{"a missing directory made a secret directory", "build/out/x.go", func(t *testing.T, dir, _ string) {
			require.NoError(t, os.MkdirAll(filepath.Join(dir, ".ssh", "out"), 0o700))
			require.NoError(t, os.Symlink(".ssh", filepath.Join(dir, "build")))
		}, "build"},
	}
	for _, mode := range []string{"inotify", "inotify-forget", "lookups"} {
		watched, forget := mode != "lookups", mode == "inotify-forget"
		for _, c := range cases {
			t.Run(mode+"/"+c.name, func(t *testing.T) {
				if watched {
					w, err := fswatch.New()
					if err != nil {
						t.Skip("SKIP: NOT TESTED: no inotify instance for the watcher: " + err.Error())
					}
					_ = w.Close()
				}
				base, err := filepath.EvalSymlinks(t.TempDir())
				require.NoError(t, err)
				dir, outside := filepath.Join(base, "proj"), filepath.Join(base, "outside")
				require.NoError(t, os.MkdirAll(filepath.Join(dir, "src"), 0o755))
				require.NoError(t, os.MkdirAll(outside, 0o755))
				require.NoError(t, os.WriteFile(filepath.Join(dir, "src", "a.go"), []byte("package a\n"), 0o644))
				require.NoError(t, os.WriteFile(filepath.Join(outside, "a.go"), []byte("package b\n"), 0o644))
				require.NoError(t, os.MkdirAll(filepath.Join(dir, "secrets"), 0o755))
				require.NoError(t, os.WriteFile(filepath.Join(dir, "secrets", "a.go"), []byte("package s\n"), 0o644))
				if watched {
					// Past the racy window: the search is kept, and
					// checked through the watcher.
					time.Sleep(3 * racyWindow)
				}
				cfg := Config{Roots: []string{dir}, WorkDir: dir}
				sb, err := New(cfg)
				require.NoError(t, err)
				defer sb.Close()
				if !watched {
					require.NoError(t, sb.Close())
				}
				// With forget, a command ran before each call (what the
				// pipeline tells the sandbox after one).
				view := func() *Sandbox {
					if forget {
						sb.Forget()
					}
					return sb.Pin()
				}
				var d permission.Decision
				for range 3 {
					_, d, _, err = view().Judge(c.path, false)
					require.NoError(t, err)
					require.Equal(t, permission.Allow, d)
				}
				if watched {
					assert.NotNil(t, sb.watch.watcher.Load(), "the sandbox watches its lookups")
					assert.NotEmpty(t, sb.watch.ents, "lookups are kept")
					if c.missing != "" {
						e, ok := sb.watch.ents[filepath.Join(dir, c.missing)]
						assert.True(t, ok && isNotExist(e.err) && e.deps.OK(), "the missing %s is kept, watched", c.missing)
					}
					if ids := sb.ids.Load(); assert.NotNil(t, ids) && assert.NotNil(t, ids.cover) {
						if forget {
							assert.NotNil(t, ids.cover.all.Load(), "the forgotten search is revalidated through the watcher")
						} else {
							assert.NotNil(t, ids.cover.watches.Load(), "the search is checked through the watcher")
						}
					}
				} else {
					assert.Nil(t, sb.watch.watcher.Load())
				}
				c.change(t, dir, outside)
				real, d, why, err := view().Judge(c.path, false)
				fresh, err2 := New(cfg)
				require.NoError(t, err2)
				defer fresh.Close()
				freal, fd, fwhy, ferr := fresh.Pin().Judge(c.path, false)
				assert.Equal(t, ferr, err)
				assert.Equal(t, freal, real)
				assert.Equal(t, fd, d, why)
				assert.Equal(t, fwhy, why)
				assert.NotEqual(t, permission.Allow, d, "the change matters: %s", why)
			})
		}
	}
}

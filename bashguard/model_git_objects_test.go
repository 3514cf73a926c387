package bashguard

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An object named by its id is judged by its type, read from the
// repository's own store as git reads it, loose or packed (and deltified):
// a blob (a secret's old content, say) asks; a commit, a tree and a tag
// are what their names say. The type reader agrees with git cat-file -t on
// every object of a repository, before and after git gc packs it.
func TestGitObjectsByID(t *testing.T) {
	dir, paths := specRepo(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte("TOKEN=old-secret\n"), 0o644))
	gitIn(t, dir, "add", "-f", ".env")
	gitIn(t, dir, "commit", "-qm", "oops")
	blob := strings.TrimSpace(gitIn(t, dir, "rev-parse", "HEAD:.env"))
	gitIn(t, dir, "rm", "-q", "--cached", ".env")
	gitIn(t, dir, "commit", "-qm", "untrack the secret")
	commit := strings.TrimSpace(gitIn(t, dir, "rev-parse", "HEAD"))
	tree := strings.TrimSpace(gitIn(t, dir, "rev-parse", "HEAD^{tree}"))
	g := New(DefaultPolicy())
	for _, packed := range []bool{false, true} {
		if packed {
			// Deltas too: a second version of a.txt.
			require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("hello\nworld\nagain\n"), 0o644))
			gitIn(t, dir, "commit", "-qam", "more")
			gitIn(t, dir, "gc", "-q", "--aggressive")
			m, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.idx"))
			require.NotEmpty(t, m, "git gc packed the objects")
		}
		for _, tc := range []struct {
			line, want, reason string
		}{
			{"git show " + blob, "ask", "a blob named by its id, whose file no name tells"},
			{"git show " + blob[:7], "ask", "a blob named by its id"},
			{"git cat-file -p " + blob, "ask", "a blob named by its id"},
			{"git cat-file blob " + blob[:10], "ask", "a blob named by its id"},
			{"git diff " + blob + " " + blob, "ask", "a blob named by its id"},
			{"git cat-file -p " + commit, "allow", "every command is read-only and on the safe list"},
			{"git cat-file -p " + tree[:8], "allow", "every command is read-only and on the safe list"},
			{"git show --stat " + commit[:8], "allow", "every command is read-only and on the safe list"},
			{"git cat-file -t " + blob, "allow", "every command is read-only and on the safe list"},
			{"git cat-file -p 0000deadbeef", "ask", "whose type cannot be read here"},
		} {
			v := g.Judge(context.Background(), dir, paths, tc.line)
			assert.Equal(t, tc.want, v.Decision.String(), "%q (packed %v): %s", tc.line, packed, v.Reason)
			assert.Contains(t, v.Reason, tc.reason, "%q (packed %v)", tc.line, packed)
			if tc.want == "ask" {
				assert.Equal(t, RuleGitContent, v.Rule, tc.line)
			}
		}
		// A pack index that cannot be read may hold the object: its type
		// is unknown, and git show of an id that names nothing else asks.
		bad := filepath.Join(dir, ".git", "objects", "pack", "pack-0000000000000000000000000000000000000000.idx")
		require.NoError(t, os.WriteFile(bad, []byte("not an index"), 0o644))
		v := g.Judge(context.Background(), dir, paths, "git show 0123abcd")
		assert.Equal(t, "ask", v.Decision.String(), v.Reason)
		assert.Contains(t, v.Reason, "git prints the object 0123abcd, named by its id, whose type cannot be read here")
		require.NoError(t, os.Remove(bad))
		// The reader agrees with git on every object.
		gitDir := filepath.Join(dir, ".git")
		for _, line := range strings.Split(strings.TrimSpace(gitIn(t, dir, "cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype)")), "\n") {
			id, typ, _ := strings.Cut(line, " ")
			got, found := gitObjectType(gitDir, id)
			assert.True(t, found, "%s (packed %v)", id, packed)
			assert.Equal(t, typ, got.String(), "type of %s (packed %v)", id, packed)
		}
	}
}

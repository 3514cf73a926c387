package sandbox_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/sandbox"
)

// ReadState is the same (==, as a host compares it) while the protected
// and secret locations found by identity are (after a Forget that nothing
// followed too, and for a view), and another once a link makes a new
// one: a kept answer for a file that is now a protected one is not used.
func TestReadStateFollowsTheSearch(t *testing.T) {
	ws, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("n\n"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(ws, "conf"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "conf", "settings.json"), []byte("{}\n"), 0o644))
	time.Sleep(50 * time.Millisecond) // older than the racy window: the search is kept
	sb, err := sandbox.New(sandbox.Config{Roots: []string{ws}, WorkDir: ws})
	require.NoError(t, err)
	first := sb.ReadState()
	require.NotNil(t, first)
	assert.True(t, first == sb.ReadState(), "nothing changed")
	assert.True(t, first == sb.Pin().ReadState(), "a view judges as the sandbox does")
	sb.Forget()
	assert.True(t, first == sb.ReadState(), "forgotten, and revalidated: the same search")

	// .claude -> conf makes conf/settings.json the agent's settings.
	require.NoError(t, os.Symlink("conf", filepath.Join(ws, ".claude")))
	sb.Forget()
	d, why := sb.CheckPath(filepath.Join(ws, "conf", "settings.json"), true)
	assert.Equal(t, permission.Ask, d, why)
	assert.Contains(t, why, "protected", why)
	assert.False(t, first == sb.ReadState(), "a new location was found")

	var none *sandbox.Sandbox
	assert.Nil(t, none.ReadState())
}

package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

// TestCloseReleasesTheWatchersAndChecksStayRight checks a pipeline Open
// built: its checks see a change made while it watched the workspace, and
// after Close (twice) a change made next is still seen, now by lookups.
func TestCloseReleasesTheWatchersAndChecksStayRight(t *testing.T) {
	dir := workspaceDir(t)
	p, err := runtime.Open(runtime.Workspace{Dir: dir, Home: t.TempDir(), Rules: permission.Config{Default: permission.Ask,
		DefaultFor: map[permission.Kind]permission.Decision{permission.KindRead: permission.Allow}}})
	require.NoError(t, err)
	ctx := context.Background()
	s, err := p.Session(ctx, runtime.SessionOptions{ID: "s", Cwd: dir})
	require.NoError(t, err)
	t.Cleanup(func() { s.End("done", "", nil) })
	n := 0
	check := func(command string) runtime.Verdict {
		n++ // a description of its own: layer 7 denies a call repeated as it is
		in, err := json.Marshal(map[string]string{"command": command, "description": fmt.Sprint("call ", n)})
		require.NoError(t, err)
		return p.Check(ctx, runtime.Call{Session: "s", Tool: "Bash", Input: in})
	}
	link := func(name string) {
		require.NoError(t, os.Remove(filepath.Join(dir, name)))
		require.NoError(t, os.Symlink(".env", filepath.Join(dir, name)))
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b.txt"), []byte("b\n"), 0o644))
	for range 3 { // the third check runs on watched facts
		v := check("cat a.txt b.txt")
		require.Equal(t, permission.Allow, v.Decision, v.Reason)
		assert.NotEmpty(t, v.Rule)
	}
	link("a.txt")
	v := check("cat a.txt b.txt")
	assert.Equal(t, permission.Deny, v.Decision, v.Reason)
	assert.Contains(t, v.Reason, ".env", "watched: the link to the secret is seen")

	require.NoError(t, p.Close())
	require.NoError(t, p.Close(), "Close may be called again")
	link("b.txt")
	v = check("cat b.txt")
	assert.Equal(t, permission.Deny, v.Decision, v.Reason)
	assert.Contains(t, v.Reason, ".env", "closed: the link made after Close is seen")
}

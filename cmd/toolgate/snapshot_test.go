package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/ccwire"
)

// TestHooksAreReadOncePerSession: a hook written into the settings in the
// middle of a session does not run until a new session starts, as Claude
// Code snapshots its hooks; a hook removed mid-session keeps running.
func TestHooksAreReadOncePerSession(t *testing.T) {
	tmp := workspace(t)
	cwd := filepath.Join(tmp, "proj")
	user := filepath.Join(tmp, "home", ".claude", "settings.json")
	event := func(session string) string {
		b, err := json.Marshal(map[string]any{"session_id": session, "cwd": cwd, "permission_mode": "default",
			"hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": map[string]string{"file_path": cwd + "/README.md"}})
		require.NoError(t, err)
		return string(b)
	}
	decide := func(session string) ccwire.Specific {
		out, stderr, code := runBinary(t, tmp, nil, event(session))
		require.Equal(t, 0, code, stderr)
		var a ccwire.Answer
		require.NoError(t, json.Unmarshal([]byte(out), &a), out)
		return a.SpecificOrZero()
	}
	canary := filepath.Join(tmp, "ran")
	hook := `{"toolgate": {"hooks": {"PreToolUse": [{"matcher": "", "hooks": [{"type": "command", "command": "touch ` + canary + `"}]}]}}}`

	a := decide("session-a")
	assert.Equal(t, "allow", a.PermissionDecision)
	assert.Contains(t, a.PermissionDecisionReason, "no rule matched; the default for read tools is allow")

	require.NoError(t, os.WriteFile(user, []byte(hook), 0o644))
	a = decide("session-a")
	assert.Equal(t, "allow", a.PermissionDecision)
	_, err := os.Stat(canary)
	assert.True(t, os.IsNotExist(err), "a hook written mid-session ran in that session")

	b := decide("session-b")
	assert.Equal(t, "allow", b.PermissionDecision)
	_, err = os.Stat(canary)
	assert.NoError(t, err, "a new session takes the hook")

	require.NoError(t, os.Remove(canary))
	require.NoError(t, os.WriteFile(user, []byte(`{}`), 0o644))
	b = decide("session-b")
	assert.Equal(t, "allow", b.PermissionDecision)
	_, err = os.Stat(canary)
	assert.NoError(t, err, "the session keeps the hooks it started with")

	// A damaged snapshot is refused, with the file named.
	state := filepath.Join(tmp, "home", ".local", "state", "toolgate")
	require.NoError(t, os.WriteFile(snapshotPath(state, "session-b"), []byte("garbage"), 0o600))
	b = decide("session-b")
	assert.Equal(t, "deny", b.PermissionDecision)
	assert.Contains(t, b.PermissionDecisionReason, "the session's hook snapshot "+snapshotPath(state, "session-b")+" is damaged")
	// A snapshot someone else could have placed is refused, not run: a
	// second name for it (a link planted from a place others write), or
	// one others may write.
	snap := snapshotPath(state, "session-c")
	require.NoError(t, os.WriteFile(filepath.Join(tmp, "planted.json"), []byte(`{"session":"session-c","hooks":[]}`), 0o600))
	require.NoError(t, os.Link(filepath.Join(tmp, "planted.json"), snap))
	c := decide("session-c")
	assert.Equal(t, "deny", c.PermissionDecision)
	assert.Contains(t, c.PermissionDecisionReason, "cannot read the session's hook snapshot "+snap+": not private to this user: it has 2 links")
	require.NoError(t, os.Remove(filepath.Join(tmp, "planted.json")))
	require.NoError(t, os.Chmod(snap, 0o666))
	c = decide("session-c")
	assert.Equal(t, "deny", c.PermissionDecision)
	assert.Contains(t, c.PermissionDecisionReason, "not private to this user: others may write the file (-rw-rw-rw-)")
	// The session id names no path: it is hashed.
	assert.Equal(t, filepath.Join(state, "sessions"), filepath.Dir(snapshotPath(state, "../../x")))
}

// TestPruneSnapshotsHourly holds the pruning of kept state to once an hour:
// a file past snapshotMaxAge is removed at the first prune, and one that
// ages past it later stays until the next prune is due, an hour on.
func TestPruneSnapshotsHourly(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	old := now.Add(-snapshotMaxAge - time.Hour)
	write := func(name string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte("{}"), 0o600))
		require.NoError(t, os.Chtimes(p, old, old))
		return p
	}
	first, kept := write("a.json"), write("keep.json")
	pruneSnapshots(dir, kept, now)
	assert.NoFileExists(t, first, "a file past the age is removed at the first prune")
	assert.FileExists(t, kept, "the session's own snapshot is kept")
	assert.FileExists(t, filepath.Join(dir, pruneMark), "the prune is marked")

	second := write("b.json")
	pruneSnapshots(dir, "", now.Add(10*time.Minute))
	assert.FileExists(t, second, "no prune within the hour: the directory is not listed again")
	pruneSnapshots(dir, "", now.Add(snapshotPruneEvery+time.Minute))
	assert.NoFileExists(t, second, "the next prune, due an hour on, removes it")
	assert.FileExists(t, filepath.Join(dir, pruneMark), "the mark is never pruned")
}

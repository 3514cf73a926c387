//go:build unix

package stattime_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/stattime"
)

// TestTimes reads back a modification time set on a file, and a change
// time that setting it moved past the modification time.
func TestTimes(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(p, []byte("x"), 0o600))
	mtime := time.Date(2001, 2, 3, 4, 5, 6, 7000, time.UTC)
	require.NoError(t, os.Chtimes(p, mtime, mtime))
	var st syscall.Stat_t
	require.NoError(t, syscall.Stat(p, &st))

	m, c := stattime.Times(&st)
	assert.Equal(t, mtime.Unix(), int64(m.Sec), "seconds of the modification time")
	assert.Equal(t, mtime.UnixNano(), m.Nano(), "the modification time to the nanosecond")
	assert.Greater(t, c.Nano(), m.Nano(),
		"the change time is when the times were set, after the modification time they set")
}

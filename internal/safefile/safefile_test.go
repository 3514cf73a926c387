//go:build unix

package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.json")
	require.NoError(t, os.WriteFile(plain, []byte(`{"a":1}`), 0o600))
	big := filepath.Join(dir, "big.json")
	require.NoError(t, os.WriteFile(big, make([]byte, 2048), 0o600))
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	linkFifo := filepath.Join(dir, "link-to-fifo")
	require.NoError(t, os.Symlink(fifo, linkFifo))
	linkZero := filepath.Join(dir, "link-to-zero")
	require.NoError(t, os.Symlink("/dev/zero", linkZero))
	linkPlain := filepath.Join(dir, "link-to-plain")
	require.NoError(t, os.Symlink(plain, linkPlain))

	data, err := Read(plain, 1024)
	require.NoError(t, err)
	assert.Equal(t, `{"a":1}`, string(data))
	data, err = Read(linkPlain, 1024)
	require.NoError(t, err, "a link to a regular file is read")
	assert.Equal(t, `{"a":1}`, string(data))

	_, err = Read(filepath.Join(dir, "missing"), 1024)
	assert.ErrorIs(t, err, fs.ErrNotExist)

	for _, c := range []struct {
		path string
		want error
		why  string
	}{
		{big, ErrTooLarge, "file too large"},
		{fifo, ErrNotRegular, "a FIFO"},
		{linkFifo, ErrNotRegular, "a FIFO"},
		{linkZero, ErrNotRegular, "a device"},
		{"/dev/null", ErrNotRegular, "a device"},
		{dir, ErrNotRegular, "a directory"},
	} {
		done := make(chan error, 1)
		go func() { _, err := Read(c.path, 1024); done <- err }()
		select {
		case err := <-done:
			assert.True(t, errors.Is(err, c.want), "%s: %v", c.path, err)
			assert.ErrorContains(t, err, c.why, c.path)
		case <-time.After(10 * time.Second):
			t.Fatalf("Read(%s) did not return: it waits on the file", c.path)
		}
	}
}

func TestReadProcFileIsBounded(t *testing.T) {
	// /proc files say size 0 and may be longer than the bound.
	if _, err := os.Stat("/proc/self/maps"); err != nil {
		t.Skip("no /proc on this system: the growing-file bound is not exercised")
	}
	_, err := Read("/proc/self/maps", 8)
	assert.ErrorIs(t, err, ErrTooLarge)
	assert.ErrorContains(t, err, "more than 8 bytes")
}

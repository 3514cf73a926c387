//go:build linux

package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A command run with Stream keeps its own streams and exit status, and is
// confined like any other.
func TestStreamKeepsStreamsAndStatus(t *testing.T) {
	confineTestABI(t)
	r, root := runTestRunner(t)
	outside := runTestDir(t)
	var stdout, stderr bytes.Buffer
	r.Stream = &Stream{Stdin: strings.NewReader("from stdin\n"), Stdout: &stdout, Stderr: &stderr}
	res, err := r.Run(context.Background(), `read -r line; echo "out: $line"; echo "err: $PWD" >&2
echo x > `+outside+`/escaped 2>/dev/null || echo "write outside refused" >&2
sleep 600 &
exit 7`)
	require.NoError(t, err)
	assert.Equal(t, 7, res.ExitCode)
	assert.Equal(t, "out: from stdin\n", stdout.String())
	assert.Equal(t, "err: "+root+"\n/bin/bash: line 2: "+outside+"/escaped: Permission denied\nwrite outside refused\n", stderr.String(),
		"the kernel refused the write outside the roots")
	assert.Empty(t, res.Output, "nothing is captured")
	confineTestEnforced(t, res, false)
	assert.NoFileExists(t, filepath.Join(outside, "escaped"))
	for _, p := range runTestProcs() {
		assert.NotContains(t, p.cmdline, "sleep\x00600", "the background job ended with the command")
	}
}

// With Stream a zero Timeout means none: the context bounds the run.
func TestStreamWithoutTimeoutEndsWithItsContext(t *testing.T) {
	confineTestABI(t)
	r, _ := runTestRunner(t)
	var stdout bytes.Buffer
	r.Stream = &Stream{Stdout: &stdout, Stderr: os.Stderr}
	cfg, err := r.config()
	require.NoError(t, err)
	assert.Zero(t, cfg.timeout, "no timeout of its own")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second) // long enough for a start under load
	defer cancel()
	res, err := r.Run(ctx, `echo started; sleep 30; echo never`)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.True(t, res.Cancelled)
	assert.Equal(t, 128+9, res.ExitCode, "killed")
	assert.Equal(t, "started\n", stdout.String())
}

func TestCanConfine(t *testing.T) {
	abi := confineTestABI(t)
	var r Shell
	ok, reason := r.CanConfine()
	assert.True(t, ok, reason)
	assert.Empty(t, reason)
	r.probe = func() confineSupport { return confineSupport{abi: 3} }
	ok, reason = r.CanConfine()
	assert.False(t, ok)
	assert.Equal(t, "Landlock ABI version 3 cannot refuse TCP connections (version 4 can), and the network is off", reason)
	r.Confinement.Network = true
	ok, reason = r.CanConfine()
	assert.True(t, ok, "ABI 3 confines the file system when the network may be used: %s", reason)
	r.probe = func() confineSupport { return confineSupport{reason: "the kernel has no Landlock (test)"} }
	ok, reason = r.CanConfine()
	assert.False(t, ok)
	assert.Equal(t, "the kernel has no Landlock (test)", reason)
	assert.Positive(t, abi)
}

// Writable locations are granted whole, without the walk for secrets; the
// places beside them stay closed.
func TestConfinedCommandWritesWritableLocations(t *testing.T) {
	confineTestABI(t)
	r, _ := runTestRunner(t)
	cache, other := runTestDir(t), runTestDir(t)
	r.Confinement.Writable = []string{cache, filepath.Join(cache, "missing")}
	res, err := r.Run(context.Background(), `echo built > `+cache+`/obj && cat `+cache+`/obj
{ echo x > `+other+`/obj; } 2>/dev/null || echo "other refused"`)
	require.NoError(t, err)
	assert.Equal(t, "built\nother refused\n", res.Output)
	assert.FileExists(t, filepath.Join(cache, "obj"))
	assert.NoFileExists(t, filepath.Join(other, "obj"))
}

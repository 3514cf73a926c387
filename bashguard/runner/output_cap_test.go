//go:build linux

package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const capTestBytes = 1 << 20

// capTestReason is the line a command the output cap killed ends with.
var capTestReason = "toolgate: the command was killed: it wrote more than " + strconv.Itoa(capTestBytes) +
	" bytes of output (the runner's MaxOutputBytes)\n"

// A streamed command that writes past the cap is killed: the streams
// carry exactly the cap's bytes, then the reason on stderr; nothing it
// started is left. Below or at the cap, everything passes. The command
// runs confined, and stdout is a real file, which the runner would
// otherwise hand to the command to write directly.
func TestOutputCapStreamed(t *testing.T) {
	confineTestABI(t)
	for _, tc := range []struct {
		name, command string
		exceeded      bool
		wantOut       int // bytes on stdout
		wantErr       string
		wantExit      int
	}{
		{"yes past the cap", "yes & wait", true, capTestBytes, capTestReason, 137},
		{"head below the cap", "head -c " + strconv.Itoa(capTestBytes-1) + " /dev/zero", false, capTestBytes - 1, "", 0},
		{"head at the cap", "head -c " + strconv.Itoa(capTestBytes) + " /dev/zero", false, capTestBytes, "", 0},
		{"head one byte past the cap, then exits", "head -c " + strconv.Itoa(capTestBytes+1) + " /dev/zero", true, capTestBytes, capTestReason, -1},
		{"stdout and stderr count together", "head -c 600000 /dev/zero; head -c 600000 /dev/zero >&2; sleep 30", true, 600000, "", 137},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := runTestRunner(t)
			r.MaxOutputBytes = capTestBytes
			r.Timeout = 30 * time.Second // a cap that failed would let yes run until then
			stdout, err := os.Create(filepath.Join(t.TempDir(), "stdout"))
			require.NoError(t, err)
			defer stdout.Close()
			var stderr bytes.Buffer
			r.Stream = &Stream{Stdout: stdout, Stderr: &stderr}
			res, err := r.Run(context.Background(), tc.command)
			require.NoError(t, err)
			confineTestEnforced(t, res, false)
			assert.Equal(t, tc.exceeded, res.OutputExceeded)
			fi, err := stdout.Stat()
			require.NoError(t, err)
			assert.EqualValues(t, tc.wantOut, fi.Size(), "bytes passed to stdout")
			switch {
			case tc.name == "stdout and stderr count together":
				assert.Equal(t, capTestBytes-600000, stderr.Len()-len(capTestReason), "stderr got the rest of the cap")
				assert.True(t, strings.HasSuffix(stderr.String(), capTestReason), "the reason ends stderr")
			default:
				assert.Equal(t, tc.wantErr, stderr.String())
			}
			assert.False(t, res.TimedOut, "the cap ended it, not the timeout")
			if tc.wantExit >= 0 {
				assert.Equal(t, tc.wantExit, res.ExitCode)
			} else {
				assert.Contains(t, []int{0, 1, 137, 141}, res.ExitCode, "head ended on its own, of SIGPIPE, or killed")
			}
			for _, p := range runTestProcs() {
				assert.NotEqual(t, "yes", strings.TrimRight(p.cmdline, "\x00"), "yes ended with the command")
			}
		})
	}
}

// A captured command that writes past the cap is killed too; its output
// ends with the reason.
func TestOutputCapCaptured(t *testing.T) {
	confineTestABI(t)
	r, _ := runTestRunner(t)
	r.MaxOutputBytes = capTestBytes
	res, err := r.Run(context.Background(), "yes")
	require.NoError(t, err)
	confineTestEnforced(t, res, false)
	assert.True(t, res.OutputExceeded)
	assert.Equal(t, 137, res.ExitCode, "killed")
	assert.False(t, res.TimedOut)
	assert.True(t, strings.HasSuffix(res.Output, "\n"+capTestReason), "the reason ends the output: %q", res.Output[max(len(res.Output)-200, 0):])
	assert.True(t, res.Truncated)
	assert.Equal(t, capTestBytes+1+len(capTestReason), res.CutChars+len(res.Output)-len(runCutMarker(res.CutChars)),
		"the cap's bytes were read, and no more, then the reason")

	res, err = r.Run(context.Background(), "head -c 1000 /dev/zero | tr '\\0' y")
	require.NoError(t, err)
	assert.False(t, res.OutputExceeded)
	assert.Equal(t, strings.Repeat("y", 1000), res.Output)
}

func TestOutputCapConfig(t *testing.T) {
	r, _ := runTestRunner(t)
	cfg, err := r.config()
	require.NoError(t, err)
	assert.EqualValues(t, DefaultMaxOutputBytes, cfg.maxBytes, "zero means the default")
	r.MaxOutputBytes = -1
	_, err = r.config()
	require.ErrorIs(t, err, ErrConfig)
	assert.ErrorContains(t, err, "MaxOutputBytes -1 is negative")
}

//go:build linux

package main

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The test binary plays noleftover itself (a subreaper is a property of
// the process, so it is never this one) and a daemon that listens on a
// UNIX socket.
func TestMain(m *testing.M) {
	switch os.Getenv("NOLEFTOVER_TEST_ROLE") {
	case "main":
		os.Exit(run(os.Args[1:], os.Stderr))
	case "listen":
		l, err := net.Listen("unix", os.Args[1])
		if err != nil {
			os.Exit(3)
		}
		defer l.Close()
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// noleftover runs the command under a fresh noleftover and returns its
// exit status and what it printed.
func noleftover(t *testing.T, args ...string) (int, string) {
	t.Helper()
	self, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(self, append([]string{"-grace", "2s", "--"}, args...)...)
	cmd.Env = append(os.Environ(), "NOLEFTOVER_TEST_ROLE=main")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return code, stderr.String()
}

func alive(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	return err == nil && !bytes.Contains(data, []byte(") Z "))
}

func TestNoleftover(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("SKIPPED LOUDLY: no /proc here, which noleftover reads; it is Linux only")
	}
	self, err := os.Executable()
	require.NoError(t, err)
	sock := filepath.Join(t.TempDir(), "daemon.sock")
	pidRE := regexp.MustCompile(`pid (\d+) \(`)
	cases := []struct {
		name   string
		args   []string
		code   int
		says   string
		killed bool
	}{
		{"a run that stops what it starts", []string{"sh", "-c", "sleep 0.2 & wait"}, 0, "", false},
		{"an orphan that ends within the grace", []string{"sh", "-c", "(sleep 0.5 &) ; exit 0"}, 0, "", false},
		{"the command's own failure is its status", []string{"sh", "-c", "exit 3"}, 3, "", false},
		{"a detached sleeper outlives the run", []string{"sh", "-c", "setsid sleep 60 >/dev/null 2>&1 & exit 0"}, 1,
			`outlived the run by 2s, listening on []: killed`, true},
		{"a daemon that listens", []string{"sh", "-c", "NOLEFTOVER_TEST_ROLE=listen setsid " + self + " " + sock + " >/dev/null 2>&1 & sleep 0.5; exit 0"}, 1,
			`outlived the run by 2s, listening on [unix ` + sock + `]: killed`, true},
		{"a leftover of a failed command keeps the failure's status", []string{"sh", "-c", "setsid sleep 60 >/dev/null 2>&1 & exit 4"}, 4,
			"the run left processes behind", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out := noleftover(t, c.args...)
			assert.Equal(t, c.code, code, out)
			if c.says == "" {
				assert.NotContains(t, out, "outlived", out)
				return
			}
			assert.Contains(t, out, c.says)
			assert.Contains(t, out, "the run left processes behind (above): a test must stop what it starts")
			m := pidRE.FindStringSubmatch(out)
			require.NotNil(t, m, out)
			pid, _ := strconv.Atoi(m[1])
			if c.killed {
				// Killed, and reaped by init once noleftover ended.
				deadline := time.Now().Add(5 * time.Second)
				for alive(pid) && time.Now().Before(deadline) {
					time.Sleep(50 * time.Millisecond)
				}
				if alive(pid) {
					_ = syscall.Kill(pid, syscall.SIGKILL)
					t.Errorf("pid %d is still running after noleftover killed it", pid)
				}
			}
		})
	}
}

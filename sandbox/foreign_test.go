package sandbox_test

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/sandbox"
)

// TestResolveForeignProcessLinks: the magic links of another process
// (its root, which may be another mount namespace's, its working
// directory, its descriptors) read like paths of this process but lead
// into that process's view: they are refused, whatever their text says
// and whether or not the path behind them is inside the roots. In the view
// for commands, /proc/self and /proc/thread-self (and /dev/fd, /dev/stdin
// through them) are the command, another process, and are refused too,
// while this process's own pid still is this process.
func TestResolveForeignProcessLinks(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("skipped: /proc magic links are Linux's")
	}
	tr := newTree(t)
	child := exec.Command("sleep", "60")
	child.Dir = tr.r("")
	require.NoError(t, child.Start())
	t.Cleanup(func() { _ = child.Process.Kill(); _ = child.Wait() })
	other := child.Process.Pid
	self := os.Getpid()
	in := tr.r("a.txt")
	foreign := fmt.Sprintf("belongs to process %d, not this one", other)
	cases := []resolveCase{
		{name: "root of another process, into the roots", path: fmt.Sprintf("/proc/%d/root%s", other, in), kind: sandbox.ErrForeignProcess, reason: foreign},
		{name: "root of another process, out", path: fmt.Sprintf("/proc/%d/root/etc/passwd", other), kind: sandbox.ErrForeignProcess, reason: foreign},
		{name: "cwd of another process", path: fmt.Sprintf("/proc/%d/cwd/a.txt", other), kind: sandbox.ErrForeignProcess, reason: foreign},
		{name: "descriptor of another process", path: fmt.Sprintf("/proc/%d/fd/1", other), kind: sandbox.ErrForeignProcess, reason: foreign},
		{name: "thread of another process", path: fmt.Sprintf("/proc/%d/task/%d/root%s", other, other, in), kind: sandbox.ErrForeignProcess, reason: foreign},
		{name: "pid 1", path: "/proc/1/root" + in, kind: sandbox.ErrForeignProcess, reason: "belongs to process 1"},
	}
	if self == 1 {
		cases = cases[:len(cases)-1]
	}
	require.NoError(t, os.Symlink("/proc/self", tr.r("to_self")))
	t.Run("host", func(t *testing.T) {
		runResolveCases(t, tr.sb, append(cases,
			// The host's own entries resolve in the host, not in the
			// client that opens the path: refused as well.
			resolveCase{name: "own root", path: "/proc/self/root" + in, kind: sandbox.ErrForeignProcess, reason: "names /proc/self, a process-relative location"},
			resolveCase{name: "own thread's root", path: "/proc/thread-self/root" + in, kind: sandbox.ErrForeignProcess, reason: "names /proc/thread-self"},
			resolveCase{name: "own pid's root", path: fmt.Sprintf("/proc/%d/root%s", self, in), kind: sandbox.ErrForeignProcess, reason: "goes through the magic link"},
			resolveCase{name: "a link to /proc/self", path: "to_self/root" + in, kind: sandbox.ErrForeignProcess, reason: "goes through the magic link"},
		))
	})
	command := "in a command names the command's own process, not this one"
	t.Run("commands", func(t *testing.T) {
		runResolveCases(t, tr.sb.Commands(), append(cases,
			resolveCase{name: "self root", path: "/proc/self/root" + in, kind: sandbox.ErrForeignProcess, reason: "names /proc/self"},
			resolveCase{name: "self cwd", path: "/proc/self/cwd/a.txt", kind: sandbox.ErrForeignProcess, reason: "names /proc/self"},
			resolveCase{name: "thread-self", path: "/proc/thread-self/root" + in, kind: sandbox.ErrForeignProcess, reason: "names /proc/thread-self"},
			resolveCase{name: "dev fd", path: "/dev/fd/0", kind: sandbox.ErrForeignProcess, reason: "names /dev/fd"},
			resolveCase{name: "dev stdin", path: "/dev/stdin", kind: sandbox.ErrForeignProcess, reason: "names /dev/stdin"},
			resolveCase{name: "a link to /proc/self in a command", path: "to_self/root" + in, kind: sandbox.ErrForeignProcess, reason: command},
			resolveCase{name: "this process by pid", path: fmt.Sprintf("/proc/%d/root%s", self, in), kind: sandbox.ErrForeignProcess, reason: "goes through the magic link"},
			resolveCase{name: "a plain path", path: "a.txt", want: in},
		))
	})
	d, reason := (*sandbox.Sandbox)(nil).Commands().CheckPath(in, false)
	require.Equal(t, permission.Deny, d, "a nil sandbox denies every path, for commands too")
	require.Contains(t, reason, "no roots are configured")
}

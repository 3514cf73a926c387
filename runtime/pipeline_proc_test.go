package runtime

import (
	"fmt"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
)

// TestPipelineForeignProcessLinks: a shell command or a file tool that
// reaches a file through another process's magic link (/proc/<pid>/root,
// which may be another mount namespace's root, its cwd, its descriptors)
// is denied, though the text behind the link names a file inside the
// roots. /proc/self names whichever process opens the path (in a command
// the command itself, in a hook the hook, not the client): denied too.
func TestPipelineForeignProcessLinks(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Allow, Allow: []string{"Bash(cat:*)"}}, nil)
	w.start(t, "s1", permission.ModeBypassPermissions)
	child := exec.Command("sleep", "60")
	require.NoError(t, child.Start())
	t.Cleanup(func() { _ = child.Process.Kill(); _ = child.Wait() })
	pid := child.Process.Pid
	readme := w.dir + "/README.md"
	foreign := fmt.Sprintf("belongs to process %d, not this one", pid)
	cases := []pcase{
		{"cat through another process's root", "Bash", in("command", fmt.Sprintf("cat /proc/%d/root%s", pid, readme)), permission.Deny, permission.LayerSandbox, "", foreign},
		{"redirect through another process's cwd", "Bash", in("command", fmt.Sprintf("cat < /proc/%d/cwd/x", pid)), permission.Deny, permission.LayerSandbox, "", foreign},
		{"write through another process's root", "Bash", in("command", fmt.Sprintf("echo x > /proc/%d/root%s/new.txt", pid, w.dir)), permission.Deny, permission.LayerSandbox, "", foreign},
		{"cat through the command's own /proc/self", "Bash", in("command", "cat /proc/self/root"+readme), permission.Deny, permission.LayerSandbox, "", "names /proc/self, a process-relative location"},
		{"cat through /proc/thread-self", "Bash", in("command", "cat /proc/thread-self/cwd/README.md"), permission.Deny, permission.LayerSandbox, "", "names /proc/thread-self, a process-relative location"},
		{"Read through another process's root", "Read", in("file_path", fmt.Sprintf("/proc/%d/root%s", pid, readme)), permission.Deny, permission.LayerSandbox, "sandbox:foreign-process", foreign},
		{"Read through the host's own root", "Read", in("file_path", "/proc/self/root"+readme), permission.Deny, permission.LayerSandbox, "sandbox:foreign-process", "names /proc/self, a process-relative location"},
		{"cat of a plain path", "Bash", in("command", "cat README.md"), permission.Allow, permission.LayerRules, "", "allowed by allow rule Bash(cat:*)"},
	}
	runCases(t, w, "s1", cases)
}

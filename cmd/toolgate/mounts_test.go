package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The cases of testdata/filetools/mounts.jsonl bind-mount a directory of
// the user's configuration (~/.aws, ~/.claude) or of another repository
// (its .git/hooks) into the workspace: a bind mount keeps the files'
// device and inode, so neither names nor identities tell them from the
// workspace's own, and a path on such a mount is judged as outside every
// root. Both front doors judge each case in a private mount namespace of
// their own: "toolgate check", and the test binary itself as
// runtime.Open (openVerdictMain).

// mountNamespace returns the unshare(1) command line that starts a
// process in a private mount namespace in which it may bind-mount: as
// root, a mount namespace; else a user namespace too, mapping the user to
// root in it, where the kernel allows one. Where neither works the test
// skips, saying why, or fails when TOOLGATE_REQUIRE_LANDLOCK is set, as
// the other confinement tests do.
func mountNamespace(t *testing.T) []string {
	t.Helper()
	unavailable := func(why string) []string {
		if os.Getenv("TOOLGATE_REQUIRE_LANDLOCK") != "" {
			t.Fatalf("TOOLGATE_REQUIRE_LANDLOCK is set but no private mount namespace can be made: %s", why)
		}
		t.Skipf("SKIPPED: no private mount namespace can be made here (%s); the bind-mount cases are untested", why)
		return nil
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		return unavailable("unshare(1) is not installed")
	}
	argv := []string{unshare, "--mount", "--propagation", "private"}
	if os.Geteuid() != 0 {
		argv = []string{unshare, "--user", "--map-root-user", "--mount", "--propagation", "private"}
	}
	a, b := t.TempDir(), t.TempDir()
	probe := exec.Command(argv[0], append(argv[1:], "sh", "-c", `mount --bind "$1" "$2"`, "sh", a, b)...)
	if out, err := probe.CombinedOutput(); err != nil {
		return unavailable(strings.TrimSpace(string(out)) + ": " + err.Error())
	}
	return argv
}

// mountList is the case's mounts as (source, mount point) pairs under
// tmp, the shallower mount points first.
func (c *fileToolCase) mountList(tmp string) [][2]string {
	var dsts []string
	for dst := range c.Mounts {
		dsts = append(dsts, dst)
	}
	sort.Strings(dsts)
	var out [][2]string
	for _, dst := range dsts {
		out = append(out, [2]string{filepath.Join(tmp, c.Mounts[dst]), filepath.Join(tmp, dst)})
	}
	return out
}

// runMounted runs argv with env and stdin in a private mount namespace
// (ns, from mountNamespace) in which each source is bound onto its mount
// point (which is made if missing) and nothing else differs.
func runMounted(t *testing.T, ns []string, mounts [][2]string, argv []string, stdin string, env []string) (stdout, stderr string, code int) {
	t.Helper()
	script := ""
	var args []string
	for i, m := range mounts {
		require.NoError(t, os.MkdirAll(m[1], 0o755))
		script += `mount --bind "$` + itoa(2*i+1) + `" "$` + itoa(2*i+2) + `" && `
		args = append(args, m[0], m[1])
	}
	script += "shift " + itoa(2*len(mounts)) + ` && exec "$@"`
	full := append(append(append(append([]string{}, ns[1:]...), "sh", "-c", script, "sh"), args...), argv...)
	cmd := exec.Command(ns[0], full...)
	cmd.Dir = "/"
	cmd.Env = env
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return out.String(), errb.String(), code
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// bothDoorsMounted judges the case's event through both front doors in
// the case's mount namespace: toolgate check's decision and reason, then
// runtime.Open's.
func bothDoorsMounted(t *testing.T, c *fileToolCase, tmp, stdin string, env []string) (check, checkWhy, open, openWhy string) {
	t.Helper()
	ns := mountNamespace(t)
	mounts := c.mountList(tmp)
	managed := filepath.Join(tmp, "managed.json")
	base := append([]string{"HOME=" + filepath.Join(tmp, "home"), "PATH=" + os.Getenv("PATH")}, env...)
	out, stderr, code := runMounted(t, ns, mounts, []string{bin, "check", "--managed", managed}, stdin, base)
	require.Equal(t, 0, code, "toolgate check: exit status (stderr %q)", stderr)
	var ans struct {
		HookSpecificOutput struct {
			PermissionDecision       string `json:"permissionDecision"`
			PermissionDecisionReason string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &ans), out)
	self, err := os.Executable()
	require.NoError(t, err)
	out, stderr, code = runMounted(t, ns, mounts, []string{self}, stdin, append(base, openVerdictEnv+"="+managed))
	require.Equal(t, 0, code, "runtime.Open: exit status (stderr %q)", stderr)
	var v struct{ Decision, Reason string }
	require.NoError(t, json.Unmarshal([]byte(out), &v), out)
	return ans.HookSpecificOutput.PermissionDecision, ans.HookSpecificOutput.PermissionDecisionReason, v.Decision, v.Reason
}

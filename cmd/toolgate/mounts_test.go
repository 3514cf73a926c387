package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBindMounts runs "toolgate check" in a private mount namespace in
// which a directory of the user's configuration (~/.aws, ~/.claude) or
// of another repository (its .git/hooks) is bind-mounted into the
// workspace: a bind mount keeps the files' device and inode, so neither
// names nor identities tell them from the workspace's own, and a path on
// such a mount is judged as outside every root. The namespace needs root
// and unshare(1); without them the test says so and skips.
func TestBindMounts(t *testing.T) {
	unshare, err := exec.LookPath("unshare")
	if err != nil || os.Geteuid() != 0 {
		t.Skip("SKIPPED: a private mount namespace needs root and unshare(1), which this run lacks")
	}
	cases := []struct {
		about, src, dst, tool, mode string
		input                       map[string]any
		decision, reason            string
	}{
		{"~/.aws bound into the workspace: read its credentials", "home/.aws", "proj/cloud", "Read", "default",
			map[string]any{"file_path": "$CWD/cloud/credentials"}, "deny", "lies on the mount at $CWD/cloud, which is not a root"},
		{"~/.claude bound into the workspace: write its settings", "home/.claude", "proj/conf", "Write", "acceptEdits",
			map[string]any{"file_path": "$CWD/conf/settings.json", "content": "{}"}, "deny", "lies on the mount at $CWD/conf"},
		{"another repository's hooks bound into the workspace", "outside/repo/.git/hooks", "proj/tools", "Write", "acceptEdits",
			map[string]any{"file_path": "$CWD/tools/pre-commit", "content": "#!/bin/sh\n"}, "deny", "lies on the mount at $CWD/tools"},
		{"grep of the directory above the mount", "home/.aws", "proj/cloud", "Grep", "default",
			map[string]any{"pattern": "x", "path": "$CWD/cloud"}, "deny", "lies on the mount at $CWD/cloud"},
	}
	for _, c := range cases {
		t.Run(c.about, func(t *testing.T) {
			tmp := workspace(t)
			for _, f := range []string{"home/.aws/credentials", "home/.claude/settings.json", "outside/repo/.git/hooks/pre-commit"} {
				p := filepath.Join(tmp, f)
				require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
				require.NoError(t, os.WriteFile(p, []byte("{}"), 0o644))
			}
			src, dst := filepath.Join(tmp, c.src), filepath.Join(tmp, c.dst)
			require.NoError(t, os.MkdirAll(dst, 0o755))
			input, err := json.Marshal(c.input)
			require.NoError(t, err)
			ev, err := json.Marshal(map[string]any{
				"session_id": "s-mount", "cwd": filepath.Join(tmp, "proj"), "permission_mode": c.mode,
				"hook_event_name": "PreToolUse", "tool_name": c.tool, "tool_input": json.RawMessage(expand(string(input), tmp)),
			})
			require.NoError(t, err)
			cmd := exec.Command(unshare, "--mount", "--propagation", "private", "sh", "-c", `mount --bind "$1" "$2" && shift 2 && exec "$@"`,
				"sh", src, dst, bin, "check", "--managed", filepath.Join(tmp, "managed.json"))
			cmd.Env = []string{"HOME=" + filepath.Join(tmp, "home"), "PATH=" + os.Getenv("PATH")}
			cmd.Stdin = strings.NewReader(string(ev))
			out, err := cmd.Output()
			require.NoError(t, err, "%s", out)
			var ans struct {
				HookSpecificOutput struct {
					PermissionDecision       string `json:"permissionDecision"`
					PermissionDecisionReason string `json:"permissionDecisionReason"`
				} `json:"hookSpecificOutput"`
			}
			require.NoError(t, json.Unmarshal(out, &ans), "%s", out)
			reason := unexpand(ans.HookSpecificOutput.PermissionDecisionReason, tmp)
			assert.Equal(t, c.decision, ans.HookSpecificOutput.PermissionDecision, reason)
			assert.Contains(t, reason, c.reason)
		})
	}
}

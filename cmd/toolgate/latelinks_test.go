package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLinksMadeDuringTheSession judges a call of a session through both
// front doors, then plants links deep in the workspace (in directories
// that existed before: nothing a search watches changes) and judges the
// same call again: the file is judged by what it is at that call.
func TestLinksMadeDuringTheSession(t *testing.T) {
	type plant struct{ kind, name, target string }
	cases := []struct {
		about            string
		plants           []plant
		tool             string
		input            map[string]any
		decision, reason string
	}{
		{"a link deep in the tree to the user's settings", []plant{{"symlink", "proj/a/b/c/settings.json", "$HOME/.claude/settings.json"}},
			"Write", map[string]any{"file_path": "$CWD/a/b/c/settings.json", "content": "{}"}, "deny", "outside every root"},
		{"a secret made deep, then a hard link to it in node_modules", []plant{
			{"file", "proj/deploy/.env.production", "TOKEN=y\n"}, {"hardlink", "proj/node_modules/pkg/dist/data.txt", "proj/deploy/.env.production"}},
			"Read", map[string]any{"file_path": "$CWD/node_modules/pkg/dist/data.txt"}, "ask", "it is a hard link of $CWD/deploy/.env.production (secret"},
		{"a secret-named link made deep: its target", []plant{{"symlink", "proj/svc/conf/.env.production", "../deploy/x"}, {"file", "proj/svc/deploy/x", "TOKEN=z\n"}},
			"Read", map[string]any{"file_path": "$CWD/svc/deploy/x"}, "ask", "it is $CWD/svc/conf/.env.production"},
	}
	for _, c := range cases {
		t.Run(c.about, func(t *testing.T) {
			tmp := workspace(t)
			require.NoError(t, os.WriteFile(filepath.Join(tmp, "home/.claude/settings.json"), []byte("{}"), 0o644))
			exp := strings.NewReplacer("$CWD", filepath.Join(tmp, "proj"), "$HOME", filepath.Join(tmp, "home")).Replace
			for _, p := range c.plants {
				require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(tmp, p.name)), 0o755))
			}
			input, err := json.Marshal(c.input)
			require.NoError(t, err)
			ev, err := json.Marshal(map[string]any{
				"session_id": "s-late", "cwd": filepath.Join(tmp, "proj"), "permission_mode": "acceptEdits",
				"hook_event_name": "PreToolUse", "tool_name": c.tool, "tool_input": json.RawMessage(exp(string(input))),
			})
			require.NoError(t, err)
			stdin := string(ev)
			judge := func() (check, checkWhy, open, openWhy string) {
				out, stderr, code := runBinary(t, tmp, nil, stdin)
				require.Equal(t, 0, code, "stderr %q", stderr)
				var ans struct {
					HookSpecificOutput struct{ PermissionDecision, PermissionDecisionReason string } `json:"hookSpecificOutput"`
				}
				require.NoError(t, json.Unmarshal([]byte(out), &ans), out)
				d, why := openVerdict(t, filepath.Join(tmp, "managed.json"), stdin, []string{"HOME=" + filepath.Join(tmp, "home")})
				names := strings.NewReplacer(filepath.Join(tmp, "proj"), "$CWD", filepath.Join(tmp, "home"), "$HOME")
				return ans.HookSpecificOutput.PermissionDecision, names.Replace(ans.HookSpecificOutput.PermissionDecisionReason), d, names.Replace(why)
			}
			// An ordinary file at the path first.
			last := filepath.Join(tmp, c.plants[len(c.plants)-1].name)
			require.NoError(t, os.WriteFile(last, []byte("{}"), 0o644))
			d, why, od, owhy := judge()
			require.Equal(t, "allow", d, why)
			require.Equal(t, "allow", od, owhy)
			require.NoError(t, os.Remove(last))
			for _, p := range c.plants {
				dst := filepath.Join(tmp, p.name)
				switch p.kind {
				case "symlink":
					require.NoError(t, os.Symlink(exp(p.target), dst))
				case "hardlink":
					require.NoError(t, os.Link(filepath.Join(tmp, p.target), dst))
				case "file":
					require.NoError(t, os.WriteFile(dst, []byte(p.target), 0o600))
				}
			}
			d, why, od, owhy = judge()
			assert.Equal(t, c.decision, d, why)
			assert.Contains(t, why, c.reason)
			assert.Equal(t, d, od, "runtime.Open: %s", owhy)
			assert.Contains(t, owhy, c.reason, "runtime.Open")
		})
	}
}

package runtime_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

// TestLinksMadeDuringASession plants links deep in the workspace after
// the pipeline and its session were opened — after the sandbox found the
// protected and secret locations — and judges a call through each: the
// file is judged by what it is at the time of the call. Each case first
// judges the same call on an ordinary file at that path, which the
// rules allow, so that the answer after the link is the link's doing.
func TestLinksMadeDuringASession(t *testing.T) {
	type plant struct{ kind, name, target string } // kind: "symlink", "hardlink", "file"
	cases := []struct {
		about string
		// byCommand: the plants are a command's doing (a Bash call the
		// pipeline allowed and ran); else nobody tells the pipeline.
		byCommand bool
		plants    []plant
		tool      string
		input     map[string]any
		decision  permission.Decision
		reason    string
	}{
		{"a link deep in the tree to the user's settings: Write", false, []plant{{"symlink", "a/b/c/settings.json", "$HOME/.claude/settings.json"}},
			"Write", map[string]any{"file_path": "$W/a/b/c/settings.json", "content": "{}"}, permission.Deny, "outside every root"},
		{"a link deep in the tree to the user's settings: Edit", false, []plant{{"symlink", "a/b/c/settings.json", "$HOME/.claude/settings.json"}},
			"Edit", map[string]any{"file_path": "$W/a/b/c/settings.json", "old_string": "{}", "new_string": "{\"hooks\":{}}"}, permission.Deny, "outside every root"},
		{"a link deep in the tree to the user's settings: Read", false, []plant{{"symlink", "a/b/c/settings.json", "$HOME/.claude/settings.json"}},
			"Read", map[string]any{"file_path": "$W/a/b/c/settings.json"}, permission.Deny, "outside every root"},
		{"a secret-named link made deep during the session: Read its target", true, []plant{{"symlink", "svc/conf/.env.production", "../deploy/x"}, {"file", "svc/deploy/x", "TOKEN=z\n"}},
			"Read", map[string]any{"file_path": "$W/svc/deploy/x"}, permission.Ask, "read $W/svc/deploy/x: secret path by identity: it is $W/svc/conf/.env.production (matches \".env.*\"), reached under another name"},
		{"a link deep in the tree to the workspace's .env: Read", false, []plant{{"symlink", "a/b/c/notes.txt", "../../../.env"}},
			"Read", map[string]any{"file_path": "$W/a/b/c/notes.txt"}, permission.Ask, "read $W/.env: secret path (matches \".env\")"},
		{"a hard link deep in node_modules to .env: Read", false, []plant{{"hardlink", "node_modules/pkg/dist/cache/data.txt", ".env"}},
			"Read", map[string]any{"file_path": "$W/node_modules/pkg/dist/cache/data.txt"}, permission.Ask, "secret path: it is a hard link of $W/.env (secret, matches \".env\")"},
		// A write of .env itself is allowed in acceptEdits, as Claude Code
		// allows it: its hard link is judged as .env, no wider.
		{"a hard link deep in node_modules to .env: Write", false, []plant{{"hardlink", "node_modules/pkg/dist/cache/data.txt", ".env"}},
			"Write", map[string]any{"file_path": "$W/node_modules/pkg/dist/cache/data.txt", "content": "x"}, permission.Allow, "secret path: it is a hard link of $W/.env (secret, matches \".env\")"},
		{"a hard link deep in the tree to the user's settings: Write", false, []plant{{"hardlink", "a/b/c/conf.json", "$HOME/.claude/settings.json"}},
			"Write", map[string]any{"file_path": "$W/a/b/c/conf.json", "content": "{}"}, permission.Ask, "protected path: it is a hard link of $HOME/.claude/settings.json (protected, matches \".claude/\")"},
		{"a hard link deep in the tree to an ssh key: Read", false, []plant{{"hardlink", "a/b/c/key.txt", "$HOME/.ssh/id_ed25519"}},
			"Read", map[string]any{"file_path": "$W/a/b/c/key.txt"}, permission.Ask, "secret path: it is a hard link of $HOME/.ssh/id_ed25519 (secret, matches \".ssh/\")"},
		{"a secret made deep during the session, then a hard link to it in node_modules", false, []plant{
			{"file", "deploy/.env.production", "TOKEN=y\n"}, {"hardlink", "node_modules/pkg/dist/cache/data.txt", "deploy/.env.production"}},
			"Read", map[string]any{"file_path": "$W/node_modules/pkg/dist/cache/data.txt"}, permission.Ask, "secret path: it is a hard link of $W/deploy/.env.production (secret, matches \".env.*\")"},
		{"a hook made during the session, then a hard link to it deep in the tree", false, []plant{
			{"file", ".git/hooks/pre-commit", "#!/bin/sh\n"}, {"hardlink", "a/b/c/tool.sh", ".git/hooks/pre-commit"}},
			"Write", map[string]any{"file_path": "$W/a/b/c/tool.sh", "content": "#!/bin/sh\nid\n"}, permission.Ask, "protected path: it is a hard link of $W/.git/hooks/pre-commit (protected, matches \".git/\")"},
	}
	for _, c := range cases {
		t.Run(c.about, func(t *testing.T) {
			root, err := filepath.EvalSymlinks(t.TempDir())
			require.NoError(t, err)
			w, home := filepath.Join(root, "w"), filepath.Join(root, "home")
			for name, body := range map[string]string{
				"w/main.go": "package main\n", "w/.env": "TOKEN=x\n", "w/.git/HEAD": "ref: refs/heads/main\n",
				"home/.claude/settings.json": "{}", "home/.ssh/id_ed25519": "KEY\n",
			} {
				p := filepath.Join(root, name)
				require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
				require.NoError(t, os.WriteFile(p, []byte(body), 0o600))
			}
			exp := strings.NewReplacer("$W", w, "$HOME", home).Replace
			input, err := json.Marshal(c.input)
			require.NoError(t, err)
			// The directories the plants go in exist before the session:
			// planting changes no directory the sandbox watches.
			for _, pl := range c.plants {
				require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(w, pl.name)), 0o755))
			}
			p, err := runtime.Open(runtime.Workspace{Dir: w, Home: home, Rules: permission.Config{Default: permission.Allow}})
			require.NoError(t, err)
			ctx := context.Background()
			mode := permission.ModeAcceptEdits
			sess, err := p.Session(ctx, runtime.SessionOptions{ID: "s", Mode: &mode})
			require.NoError(t, err)
			defer sess.End("done", "", nil)
			call := func(id string) runtime.Verdict {
				return p.Check(ctx, runtime.Call{Session: "s", ID: id, Tool: c.tool, Input: json.RawMessage(exp(string(input)))})
			}
			// An ordinary file at the path first: allowed.
			last := c.plants[len(c.plants)-1]
			lp := filepath.Join(w, last.name)
			require.NoError(t, os.MkdirAll(filepath.Dir(lp), 0o755))
			require.NoError(t, os.WriteFile(lp, []byte("{}"), 0o644))
			// Past the window in which the sandbox does not trust a change
			// time (it searches again on the next call): the search the
			// call makes is the last until something it watches changes.
			time.Sleep(50 * time.Millisecond)
			v := call("before")
			require.Equal(t, permission.Allow, v.Decision, "an ordinary file: %s", v.Reason)
			require.NoError(t, os.Remove(lp))
			for _, pl := range c.plants {
				dst := filepath.Join(w, pl.name)
				require.NoError(t, os.MkdirAll(filepath.Dir(dst), 0o755))
				switch pl.kind {
				case "symlink":
					require.NoError(t, os.Symlink(exp(pl.target), dst))
				case "hardlink":
					src := exp(pl.target)
					if !filepath.IsAbs(src) {
						src = filepath.Join(w, src)
					}
					require.NoError(t, os.Link(src, dst))
				case "file":
					require.NoError(t, os.WriteFile(dst, []byte(pl.target), 0o600))
				}
			}
			if c.byCommand {
				bash := runtime.Call{Session: "s", ID: "cmd", Tool: "Bash", Input: json.RawMessage(`{"command":"true"}`)}
				bv := p.Check(ctx, bash)
				require.Equal(t, permission.Allow, bv.Decision, bv.Reason)
				p.After(ctx, bash, bv, runtime.Run{})
			}
			v = call("after")
			assert.Equal(t, c.decision, v.Decision, v.Reason)
			assert.Contains(t, v.Reason, exp(c.reason))
		})
	}
}

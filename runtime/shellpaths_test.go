package runtime_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

// shellPathCase is one line of testdata/shell_paths.jsonl: a call in a
// workspace ($WS; $OUT is outside it, $HOME the home directory), with
// session rules added before it, and the verdict wanted.
type shellPathCase struct {
	Tool        string   `json:"tool"`
	Input       string   `json:"input"`
	SessionDeny []string `json:"session_deny,omitempty"`
	SessionAsk  []string `json:"session_ask,omitempty"`
	Decision    string   `json:"decision"`
	Layer       string   `json:"layer"`
	Rule        string   `json:"rule"`
	Reason      string   `json:"reason"` // a substring of the verdict's reason
}

// TestShellPathsAreJudgedLikeFileTools runs testdata/shell_paths.jsonl
// through a Pipeline: a path a shell command reaches goes through the
// same judge as a file tool's path field, with the rules of the
// configuration and of the session.
func TestShellPathsAreJudgedLikeFileTools(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	ws, out, home := filepath.Join(base, "ws"), filepath.Join(base, "outside"), filepath.Join(base, "home")
	for _, d := range []string{filepath.Join(ws, "sub"), out, filepath.Join(home, ".ssh")} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	for name, body := range map[string]string{
		"ws/notes.txt": "n\n", "ws/locked.txt": "l\n", "ws/ask.txt": "a\n", "ws/a.txt": "a\n", "ws/.env": "T=1\n",
		"ws/sub/x.go": "x\n", "ws/sub/session.txt": "s\n", "outside/secret.txt": "s\n", "outside/shared.txt": "s\n",
		"home/.ssh/id_rsa": "k\n",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(base, name), []byte(body), 0o644))
	}
	require.NoError(t, os.Symlink(filepath.Join(ws, "notes.txt"), filepath.Join(ws, "alias.txt")))
	require.NoError(t, os.Symlink(out, filepath.Join(ws, "out")))
	p, err := runtime.Open(runtime.Workspace{Dir: ws, Home: home, Rules: permission.Config{
		Deny:       []string{"Read(./notes.txt)", "Edit(./locked.txt)"},
		Ask:        []string{"Read(./ask.txt)"},
		Allow:      []string{"Read(/" + out + "/shared.txt)", "Bash(tee a.txt)"},
		Default:    permission.Ask,
		DefaultFor: map[permission.Kind]permission.Decision{permission.KindRead: permission.Allow},
	}})
	require.NoError(t, err)
	ctx := context.Background()
	subst := strings.NewReplacer("$WS", ws, "$OUT", out, "$HOME", home)
	back := strings.NewReplacer(ws, "$WS", out, "$OUT", home, "$HOME")

	f, err := os.Open("testdata/shell_paths.jsonl")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c shellPathCase
		require.NoError(t, json.Unmarshal(sc.Bytes(), &c), sc.Text())
		require.NotEmpty(t, c.Reason, "case %s %s must name a reason", c.Tool, c.Input)
		n++
		id := "s" + strconv.Itoa(n)
		sess, err := p.Session(ctx, runtime.SessionOptions{ID: id})
		require.NoError(t, err)
		rules := sess.Rules()
		require.NoError(t, rules.Add(permission.Deny, c.SessionDeny...))
		require.NoError(t, rules.Add(permission.Ask, c.SessionAsk...))
		fields := map[string]string{"command": subst.Replace(c.Input)}
		switch c.Tool {
		case "Read":
			fields = map[string]string{"file_path": subst.Replace(c.Input)}
		case "Write":
			fields = map[string]string{"file_path": subst.Replace(c.Input), "content": "x"}
		}
		input, err := json.Marshal(fields)
		require.NoError(t, err)
		v := p.Check(ctx, runtime.Call{Session: id, ID: id, Tool: c.Tool, Input: input})
		reason := back.Replace(v.Reason)
		what := c.Tool + " " + c.Input
		assert.Equal(t, c.Decision, v.Decision.String(), "decision for %s (%s)", what, reason)
		assert.Equal(t, c.Layer, v.Layer.String(), "layer for %s (%s)", what, reason)
		assert.Equal(t, string(c.Rule), back.Replace(string(v.Rule)), "rule for %s (%s)", what, reason)
		assert.Contains(t, reason, c.Reason, "reason for %s", what)
		sess.End("done", "", nil)
	}
	require.NoError(t, sc.Err())
	require.GreaterOrEqual(t, n, 20)
}

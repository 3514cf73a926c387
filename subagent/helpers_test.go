package subagent_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/tool"
	"github.com/toolgate/toolgate/sandbox"
	"github.com/toolgate/toolgate/subagent"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// world is a real workspace on disk with a pipeline over it: the sandbox
// confines paths to proj, the shell guard judges commands, and the tools are
// Claude Code's plus an interaction tool.
type world struct {
	dir string
	p   *runtime.Pipeline
}

func newWorld(t testing.TB, cfg permission.Config, extra ...hooks.Hook) *world {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	w := &world{dir: filepath.Join(tmp, "proj")}
	for _, d := range []string{w.dir, filepath.Join(w.dir, "src")} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	for name, body := range map[string]string{"src/main.go": "package main\n", ".env": "TOKEN=x\n", "README.md": "# hi\n"} {
		require.NoError(t, os.WriteFile(filepath.Join(w.dir, name), []byte(body), 0o644))
	}
	sb, err := sandbox.New(sandbox.Config{Roots: []string{w.dir}, WorkDir: w.dir})
	require.NoError(t, err)
	pol := bashguard.DefaultPolicy()
	pol.Home = filepath.Join(tmp, "home")
	cfg.WorkDir = w.dir
	checker, err := permission.New(cfg)
	require.NoError(t, err)
	set := hooks.NewSet(extra...)
	set.Timeout = hooks.NoTimeout // no worker goroutines: the tests run in synctest bubbles too
	t.Cleanup(set.Close)
	w.p, err = runtime.New(runtime.Config{Tools: tool.ClaudeCodeTools(), Checker: checker, Hooks: set, Sandbox: sb, Guard: bashguard.New(pol)})
	require.NoError(t, err)
	return w
}

// start starts a top-level session.
func (w *world) start(t testing.TB, id string, mode permission.Mode) *runtime.Session {
	t.Helper()
	s, err := w.p.Session(context.Background(), runtime.SessionOptions{ID: id, Mode: &mode, Cwd: w.dir})
	require.NoError(t, err)
	t.Cleanup(func() { s.End("test done", "", nil) })
	return s
}

// step begins the next step of the live session id.
func (w *world) step(t testing.TB, id string) {
	t.Helper()
	s, err := w.p.Session(context.Background(), runtime.SessionOptions{ID: id}) // live: a get
	require.NoError(t, err)
	s.BeginStep()
}

// live reports whether the pipeline still knows session id: a call of it
// is not refused as one of an unknown session.
func (w *world) live(id string) bool {
	return w.check(id, "Read", in("file_path", "README.md")).Rule != "runtime:unknown-session"
}

// check checks one call of session sess.
func (w *world) check(sess, tool string, input json.RawMessage) runtime.Verdict {
	return w.p.Check(context.Background(), runtime.Call{Session: sess, ID: "c", Tool: tool, Input: input})
}

func in(kv ...string) json.RawMessage {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	b, _ := json.Marshal(m)
	return b
}

// verdict is the part of a verdict a test asserts.
type verdict struct {
	Decision permission.Decision
	Layer    permission.Layer
	Rule     permission.RuleID
	Reason   string
}

func vOf(v runtime.Verdict) verdict { return verdict{v.Decision, v.Layer, v.Rule, v.Reason} }

// script is a scripted model: the calls of each step in turn, then the
// final answer.
func script(final string, steps ...[]runtime.Call) subagent.Model {
	return func(_ context.Context, turn subagent.Turn) ([]runtime.Call, string, error) {
		if turn.Step <= len(steps) {
			return steps[turn.Step-1], "", nil
		}
		return nil, final, nil
	}
}

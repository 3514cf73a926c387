package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/tool"
	"github.com/toolgate/toolgate/sandbox"
	"mvdan.cc/sh/v3/syntax"
)

// workspace is a real project on disk: a sandbox over it, a guard, and a
// whole pipeline.
type workspace struct {
	dir   string
	sb    *sandbox.Sandbox
	guard *bashguard.Guard
	p     *runtime.Pipeline
}

func newWorkspace(tb testing.TB) *workspace {
	tb.Helper()
	tmp, err := filepath.EvalSymlinks(tb.TempDir())
	require.NoError(tb, err)
	w := &workspace{dir: filepath.Join(tmp, "proj")}
	require.NoError(tb, os.MkdirAll(filepath.Join(w.dir, "src", "deep", "d4", "d5", "d6"), 0o755))
	for _, f := range []string{"a.go", "b.go", "c.go", "d.go", "deep/d4/d5/d6/f.txt"} {
		require.NoError(tb, os.WriteFile(filepath.Join(w.dir, "src", f), []byte("package src\n"), 0o644))
	}
	w.sb, err = sandbox.New(sandbox.Config{Roots: []string{w.dir}, WorkDir: w.dir})
	require.NoError(tb, err)
	pol := bashguard.DefaultPolicy()
	pol.Home = filepath.Join(tmp, "home")
	w.guard = bashguard.New(pol)
	checker, err := permission.New(permission.Config{
		Default: permission.Allow,
		WorkDir: w.dir,
		Allow:   []string{"Bash(go test:*)", "Bash(git status)", "TodoWrite"},
		Ask:     []string{"Bash(git push:*)"},
		Deny:    []string{"Bash(rm:*)", "Read(./secret/**)"},
	})
	require.NoError(tb, err)
	w.p, err = runtime.New(runtime.Config{Tools: tool.ClaudeCodeTools(), Checker: checker, Sandbox: w.sb, Guard: w.guard})
	require.NoError(tb, err)
	return w
}

func input(kv ...string) json.RawMessage {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return b
}

// pipelineCalls are the calls the pipeline benchmark cycles through, four
// of each tool so that layer 7 never sees a repeat or a short cycle.
var pipelineCalls = []struct {
	tool   string
	inputs []json.RawMessage
	want   permission.Decision
	layer  permission.Layer
	reason string
}{
	{"Read", []json.RawMessage{input("file_path", "src/a.go"), input("file_path", "src/b.go"), input("file_path", "src/c.go"), input("file_path", "src/d.go")},
		permission.Allow, permission.LayerRules, "no rule matched; the default for read tools is allow"},
	{"Bash", []json.RawMessage{input("command", "git status && go test ./a/..."), input("command", "git status && go test ./b/..."),
		input("command", "git status && go test ./c/..."), input("command", "git status && go test ./d/...")},
		permission.Allow, permission.LayerRules, "allowed by allow rule Bash(git status) (config)"},
	{"TodoWrite", []json.RawMessage{json.RawMessage(`{"todos":[{"content":"a","status":"pending"}]}`), json.RawMessage(`{"todos":[{"content":"b","status":"pending"}]}`),
		json.RawMessage(`{"todos":[{"content":"c","status":"pending"}]}`), json.RawMessage(`{"todos":[{"content":"d","status":"pending"}]}`)},
		permission.Allow, permission.LayerRules, "allowed by allow rule TodoWrite (config)"},
}

func startSession(tb testing.TB, w *workspace, id string) {
	tb.Helper()
	s, err := w.p.Session(context.Background(), runtime.SessionOptions{ID: id, Cwd: w.dir})
	require.NoError(tb, err)
	tb.Cleanup(func() { s.End("done", "", nil) })
}

// TestPipelineCalls asserts the verdicts the pipeline benchmark times.
func TestPipelineCalls(t *testing.T) {
	w := newWorkspace(t)
	for _, pc := range pipelineCalls {
		startSession(t, w, "t-"+pc.tool)
		for round := range 3 {
			for _, in := range pc.inputs {
				v := w.p.Check(context.Background(), runtime.Call{Session: "t-" + pc.tool, ID: "c", Tool: pc.tool, Input: in})
				assert.Equal(t, pc.want, v.Decision, "%s round %d: %s", pc.tool, round, v.Reason)
				assert.Equal(t, pc.layer, v.Layer, "%s: %s", pc.tool, v.Reason)
				assert.NotEmpty(t, v.Reason, pc.tool)
				assert.Contains(t, v.Reason, pc.reason, pc.tool)
			}
		}
	}
}

// BenchmarkPipeline times Pipeline.Check, every layer in order, for a Read,
// a Bash and a generic tool call.
func BenchmarkPipeline(b *testing.B) {
	w := newWorkspace(b)
	for _, pc := range pipelineCalls {
		b.Run("call="+pc.tool, func(b *testing.B) {
			id := fmt.Sprintf("b-%s-%d", pc.tool, b.N)
			startSession(b, w, id)
			ctx := context.Background()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				v := w.p.Check(ctx, runtime.Call{Session: id, ID: "c", Tool: pc.tool, Input: pc.inputs[i%len(pc.inputs)]})
				if v.Decision != pc.want {
					b.Fatal(v.Reason)
				}
				i++
			}
		})
	}
}

// shellScripts are judged by bashguard and parsed bare.
var shellScripts = []struct{ name, script string }{
	{"pipeline", "git status && go test ./... | tee out.txt"},
	{"1KiB", strings.Repeat("git status --short && git diff --stat HEAD~1 | head -n 20\n"+
		"grep -rn \"TODO\" src | sort | uniq -c | sort -rn | head\n"+
		"find . -name '*.go' -type f | wc -l\n"+
		"cat README.md | sed -n '1,5p'\n", 6)[:1000] + "\necho end\n"},
}

// TestShellScripts asserts that the scripts the shell benchmark times parse
// and are judged with a reason.
func TestShellScripts(t *testing.T) {
	w := newWorkspace(t)
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	for _, s := range shellScripts {
		_, err := p.Parse(strings.NewReader(s.script), "")
		require.NoError(t, err, s.name)
		v := w.guard.Judge(context.Background(), w.dir, bashguard.CheckerJudge(w.sb), s.script)
		assert.NotEqual(t, permission.Deny, v.Decision, "%s: %s", s.name, v.Reason)
		assert.NotEmpty(t, v.Rule, s.name)
		assert.NotEmpty(t, v.Reason, s.name)
	}
}

// BenchmarkShell times bashguard's Judge against the bare parse of the same
// script by mvdan.cc/sh/v3/syntax, which Judge starts with.
func BenchmarkShell(b *testing.B) {
	w := newWorkspace(b)
	ctx := context.Background()
	for _, s := range shellScripts {
		b.Run("script="+s.name+"/impl=syntax.Parse", func(b *testing.B) {
			p := syntax.NewParser(syntax.Variant(syntax.LangBash))
			b.ReportAllocs()
			b.SetBytes(int64(len(s.script)))
			for b.Loop() {
				if _, err := p.Parse(strings.NewReader(s.script), ""); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("script="+s.name+"/impl=bashguard.Judge", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(s.script)))
			for b.Loop() {
				if v := w.guard.Judge(ctx, w.dir, bashguard.CheckerJudge(w.sb), s.script); v.Rule == "" {
					b.Fatal("verdict without rule")
				}
			}
		})
	}
}

// TestResolve asserts that both ways of resolving the benchmark's path agree.
func TestResolve(t *testing.T) {
	w := newWorkspace(t)
	p := filepath.Join(w.dir, "src/deep/d4/d5/d6/f.txt")
	r, err := w.sb.Resolve(p)
	require.NoError(t, err)
	assert.Equal(t, p, r)
	e, err := filepath.EvalSymlinks(p)
	require.NoError(t, err)
	assert.Equal(t, p, e)
	_, err = w.sb.Resolve(filepath.Join(w.dir, "../outside"))
	assert.ErrorContains(t, err, "outside")
}

// BenchmarkResolve times sandbox.Resolve of a path six levels below the
// root against filepath.EvalSymlinks followed by os.Lstat of the result,
// the cheapest standard-library way to learn where an existing path leads.
func BenchmarkResolve(b *testing.B) {
	w := newWorkspace(b)
	p := filepath.Join(w.dir, "src/deep/d4/d5/d6/f.txt")
	b.Run("impl=sandbox.Resolve", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if r, err := w.sb.Resolve(p); err != nil || r != p {
				b.Fatal(r, err)
			}
		}
	})
	b.Run("impl=EvalSymlinks+Lstat", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r, err := filepath.EvalSymlinks(p)
			if err != nil || r != p {
				b.Fatal(r, err)
			}
			if _, err := os.Lstat(r); err != nil {
				b.Fatal(err)
			}
		}
	})
}

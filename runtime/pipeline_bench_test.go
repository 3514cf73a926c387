package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime/tool"
	"github.com/toolgate/toolgate/sandbox"
)

// benchPipeline is a pipeline over a real workspace with 50 rules and 3
// hooks that run inline (metrics, cancellation, and a pattern check), plus
// a no-op tool for the executor benchmark.
type benchPipeline struct {
	p     *Pipeline
	sb    *sandbox.Sandbox
	guard *bashguard.Guard
	dir   string
}

func newBenchPipeline(b *testing.B) *benchPipeline {
	b.Helper()
	dir, err := filepath.EvalSymlinks(b.TempDir())
	require.NoError(b, err)
	require.NoError(b, os.MkdirAll(filepath.Join(dir, "src", "pkg"), 0o755))
	require.NoError(b, os.WriteFile(filepath.Join(dir, "src", "pkg", "main.go"), []byte("package main\n"), 0o644))
	sb, err := sandbox.New(sandbox.Config{Roots: []string{dir}, WorkDir: dir})
	require.NoError(b, err)
	pol := bashguard.DefaultPolicy()
	pol.Home = filepath.Join(dir, "home")
	guard := bashguard.New(pol)

	var allow, ask, deny []string
	for i := range 50 {
		switch i % 5 {
		case 0:
			deny = append(deny, fmt.Sprintf("Read(./secret%d/**)", i))
		case 1:
			deny = append(deny, fmt.Sprintf("Bash(tool%d:*)", i))
		case 2:
			ask = append(ask, fmt.Sprintf("WebFetch(domain:site%d.example)", i))
		case 3:
			allow = append(allow, fmt.Sprintf("Bash(make target%d)", i))
		case 4:
			allow = append(allow, fmt.Sprintf("Edit(./gen%d/**)", i))
		}
	}
	checker, err := permission.New(permission.Config{Allow: allow, Ask: ask, Deny: deny, Default: permission.Allow, WorkDir: dir})
	require.NoError(b, err)

	metrics := &hooks.Metrics{SummaryEvery: -1}
	var cancel hooks.Cancellation
	set := hooks.NewSet(metrics.Hook(), cancel.Hook(), hooks.Hook{
		Name: "no-pastebin", Timeout: hooks.NoTimeout,
		PreToolUse: func(_ context.Context, e hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
			if bytes.Contains(e.Input, []byte("pastebin")) {
				return hooks.Block("no pastebin"), nil
			}
			return hooks.PreToolUseResult{}, nil
		},
	})
	b.Cleanup(set.Close)
	tools, err := tool.ClaudeCodeTools().With(&tool.Descriptor{ToolName: "noop", Base: tool.Traits{ConcurrencySafe: true, Kind: permission.KindOther}})
	require.NoError(b, err)
	p, err := New(Config{Tools: tools, Checker: checker, Hooks: set, Sandbox: sb, Guard: guard})
	require.NoError(b, err)
	sess, err := p.Session(context.Background(), SessionOptions{ID: "bench", Cwd: dir})
	require.NoError(b, err)
	b.Cleanup(func() { sess.End("done", "", nil) })
	return &benchPipeline{p: p, sb: sb, guard: guard, dir: dir}
}

// rotating returns n inputs that differ only in a field the tool does not
// declare, so that layer 7's repeat and cycle checks (periods up to 3) do
// not deny them while the layers' work stays the same.
func rotating(b *testing.B, field, value string, n int) []json.RawMessage {
	out := make([]json.RawMessage, n)
	for i := range out {
		m := map[string]any{field: value, "description": fmt.Sprintf("call %d", i)}
		var err error
		out[i], err = json.Marshal(m)
		require.NoError(b, err)
	}
	return out
}

// BenchmarkPipelineRead compares Check of a Read call (50 rules, 3 hooks)
// with the sandbox's resolution of the same path alone, and with
// Sandbox.Judge (resolution and classification, what Check asks of the
// sandbox). Target: Check at most 1.5 times the resolution; the
// check-vs-resolve run alternates the two and reports the ratio.
func BenchmarkPipelineRead(b *testing.B) {
	const path = "src/pkg/main.go"
	w := newBenchPipeline(b)
	b.Run("sandbox-resolve", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			real, err := w.sb.Resolve(path)
			if err != nil || real == "" {
				b.Fatal(err)
			}
		}
	})
	b.Run("sandbox-judge", func(b *testing.B) {
		// Resolution and the protected/secret classification, in one walk:
		// the sandbox's whole share of a Read check.
		b.ReportAllocs()
		for b.Loop() {
			if _, d, why, err := w.sb.Judge(path, false); err != nil || d != permission.Allow {
				b.Fatal(why, err)
			}
		}
	})
	checkVs(b, w, "Read", "file_path", path, "resolve", func() {
		if real, err := w.sb.Resolve(path); err != nil || real == "" {
			b.Fatal(err)
		}
	})
}

// checkVs runs Check of calls of tool whose field is value, alone
// ("pipeline-check") and alternating with base ("check-vs-"+baseName).
// The inputs differ only in a field the tool does not declare, so that
// layer 7's repeat and cycle checks do not deny them.
func checkVs(b *testing.B, w *benchPipeline, tool, field, value, baseName string, base func()) {
	inputs := rotating(b, field, value, 4)
	ctx := context.Background()
	i := 0
	check := func() {
		v := w.p.Check(ctx, Call{Session: "bench", ID: "c", Tool: tool, Input: inputs[i%4]})
		if v.Decision != permission.Allow {
			b.Fatal(v.Reason)
		}
		i++
	}
	b.Run("pipeline-check", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			check()
		}
	})
	b.Run("check-vs-"+baseName, func(b *testing.B) {
		alternate(b, baseName, base, "check", check)
	})
}

// alternate runs base and subject alternately within one loop, so that
// both see the same load on the machine, and reports each one's time per
// call and their ratio (subject/base). ns/op and allocs/op count one call
// of each.
func alternate(b *testing.B, baseName string, base func(), subjectName string, subject func()) {
	var tb, ts time.Duration
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		// Alternate which side goes first.
		if n%2 == 0 {
			t0 := time.Now()
			base()
			t1 := time.Now()
			subject()
			tb, ts = tb+t1.Sub(t0), ts+time.Since(t1)
		} else {
			t0 := time.Now()
			subject()
			t1 := time.Now()
			base()
			ts, tb = ts+t1.Sub(t0), tb+time.Since(t1)
		}
		n++
	}
	b.ReportMetric(float64(tb.Nanoseconds())/float64(n), baseName+"-ns")
	b.ReportMetric(float64(ts.Nanoseconds())/float64(n), subjectName+"-ns")
	b.ReportMetric(float64(ts)/float64(tb), subjectName+"/"+baseName)
}

// BenchmarkPipelineBash compares Check of a Bash call with the guard's
// judgement of the same command alone. Target: Check at most 1.5 times the
// judgement; the check-vs-judge run alternates the two and reports the
// ratio.
func BenchmarkPipelineBash(b *testing.B) {
	const command = "git status && ls -la src | grep main"
	w := newBenchPipeline(b)
	ctx := context.Background()
	b.Run("guard-judge", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if v := w.guard.Judge(ctx, w.dir, bashguard.CheckerJudge(w.sb), command); v.Decision != permission.Allow {
				b.Fatal(v.Reason)
			}
		}
	})
	checkVs(b, w, "Bash", "command", command, "judge", func() {
		if v := w.guard.Judge(ctx, w.dir, bashguard.CheckerJudge(w.sb), command); v.Decision != permission.Allow {
			b.Fatal(v.Reason)
		}
	})
}

// BenchmarkPipelineExecutor runs batches of 100 no-op calls through
// Pipeline.Executor (Check, the run, After) and reports the cost per call
// (ns/call). Target: under 5 µs a call. The bare executor (a Check that
// allows everything, no After) runs beside it.
func BenchmarkPipelineExecutor(b *testing.B) {
	w := newBenchPipeline(b)
	calls := make([]Call, 100)
	for i := range calls {
		calls[i] = Call{Session: "bench", ID: fmt.Sprintf("c%d", i), Tool: "noop", Input: json.RawMessage(fmt.Sprintf(`{"n":%d}`, i))}
	}
	noop := func(context.Context, Call) (string, error) { return "ok", nil }
	ctx := context.Background()
	run := func(b *testing.B, e *Executor) {
		b.ReportAllocs()
		for b.Loop() {
			res := e.Execute(ctx, calls)
			if !res[99].Ran {
				b.Fatal(res[99].Verdict.Reason)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(calls)), "ns/call")
	}
	b.Run("bare-executor", func(b *testing.B) {
		run(b, &Executor{Tools: w.p.Tools(), Check: allowAll, Run: noop})
	})
	b.Run("pipeline-executor", func(b *testing.B) {
		run(b, w.p.Executor(noop))
	})
}

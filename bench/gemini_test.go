package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgate/toolgate/internal/testenv"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

// frontDoor is toolgate's front door over a real project on disk (a git
// repository with a few files): runtime.Open with the defaults the
// toolgate check hook starts from — reads allowed, edits, commands and
// network asked — the default shell guard and the default sandbox.
type frontDoor struct {
	dir, home string
	p         *runtime.Pipeline
}

func newFrontDoor(tb testing.TB) *frontDoor {
	tb.Helper()
	tmp, err := filepath.EvalSymlinks(tb.TempDir())
	require.NoError(tb, err)
	makeProject(tb, tmp)
	return openFrontDoor(tb, tmp)
}

// makeProject makes the front door's project in tmp: proj, a git
// repository with a few files, and home.
func makeProject(tb testing.TB, tmp string) {
	tb.Helper()
	dir, home := filepath.Join(tmp, "proj"), filepath.Join(tmp, "home")
	require.NoError(tb, os.MkdirAll(filepath.Join(dir, "src"), 0o755))
	require.NoError(tb, os.MkdirAll(home, 0o755))
	for _, name := range []string{"README.md", "src/a.go", "src/b.go", "src/c.go", "src/d.go"} {
		require.NoError(tb, os.WriteFile(filepath.Join(dir, name), []byte("package src\n"), 0o644))
	}
	git := exec.Command("sh", "-c", "git init -q && git add -A && git -c user.name=bench -c user.email=bench@example.com commit -qm init")
	git.Dir = dir
	git.Env = append(os.Environ(), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1")
	out, err := git.CombinedOutput()
	require.NoError(tb, err, "%s", out)
}

// openFrontDoor opens the front door over the project makeProject made
// in tmp.
func openFrontDoor(tb testing.TB, tmp string) *frontDoor {
	tb.Helper()
	f := &frontDoor{dir: filepath.Join(tmp, "proj"), home: filepath.Join(tmp, "home")}
	var err error
	f.p, err = runtime.Open(runtime.Workspace{Dir: f.dir, Home: f.home, Rules: permission.Config{
		Default: permission.Ask,
		DefaultFor: map[permission.Kind]permission.Decision{
			permission.KindRead:    permission.Allow,
			permission.KindEdit:    permission.Ask,
			permission.KindExec:    permission.Ask,
			permission.KindNetwork: permission.Ask,
		},
	}})
	require.NoError(tb, err)
	return f
}

// session starts a session and returns inputs of a Bash call of the
// command that differ only in its description, so that layer 7's repeat
// and cycle checks (periods up to 3) never deny them.
func (f *frontDoor) session(tb testing.TB, id, command string) []json.RawMessage {
	tb.Helper()
	s, err := f.p.Session(context.Background(), runtime.SessionOptions{ID: id, Cwd: f.dir})
	require.NoError(tb, err)
	tb.Cleanup(func() { s.End("done", "", nil) })
	in := make([]json.RawMessage, 4)
	for i := range in {
		in[i], err = json.Marshal(map[string]string{"command": command, "description": fmt.Sprintf("call %d", i)})
		require.NoError(tb, err)
	}
	return in
}

// startGemini starts Gemini CLI's PolicyEngine over the front door's
// project, or fails: without the package there is nothing to compare. The
// package is $TOOLGATE_BENCH_GEMINI, or the one .ci/setup installed and
// wrote to its file (bench/run.sh installs it too); the tests install
// nothing.
func startGemini(tb testing.TB, f *frontDoor) *Gemini {
	tb.Helper()
	pkg, from := testenv.Lookup(GeminiEnv)
	if pkg == "" {
		tb.Skip(testenv.Missing("@google/gemini-cli-core@"+GeminiVersion, from) + "; NOT COMPARED")
	}
	g, err := StartGemini(pkg, f.dir, f.home)
	require.NoError(tb, err)
	tb.Cleanup(func() { g.Close() })
	return g
}

func loadCommands(tb testing.TB) []Command {
	tb.Helper()
	cmds, err := LoadCommands(filepath.Join("testdata", "commands.jsonl"))
	require.NoError(tb, err)
	require.Len(tb, cmds, 40)
	return cmds
}

// TestGeminiCommands asserts the decision each engine gives every command
// of the table, and that toolgate's explains itself, before the benchmark
// times them.
func TestGeminiCommands(t *testing.T) {
	cmds := loadCommands(t)
	f := newFrontDoor(t)
	g := startGemini(t, f)
	for i, c := range cmds {
		in := f.session(t, fmt.Sprintf("t%d", i), c.Command)
		v := f.p.Check(context.Background(), runtime.Call{Session: fmt.Sprintf("t%d", i), ID: "c", Tool: "Bash", Input: in[0]})
		assert.Equal(t, c.Toolgate, v.Decision.String(), "toolgate %q: %s", c.Command, v.Reason)
		assert.NotEmpty(t, v.Reason, c.Command)
		assert.NotEmpty(t, v.Rule, "%q: %s", c.Command, v.Reason)
		d, err := g.Decide(c.Command)
		require.NoError(t, err, c.Command)
		assert.Equal(t, c.Gemini, d, "gemini %q", c.Command)
	}
}

// BenchmarkGemini times Gemini CLI's PolicyEngine.check and toolgate's
// Pipeline.Check on each command of the table, alternating in one loop:
// each round the node driver checks the command geminiRound times in its
// own loop (timed inside node), then Pipeline.Check does the same in Go
// (timed here), the order swapped every round, so that both see the same
// load. It reports each side's time per check and their ratio,
// gemini/toolgate; ns/op counts a round of both sides and the pipe.
func BenchmarkGemini(b *testing.B) {
	const geminiRound = 4
	// A fresh driver past this much resident memory (see Gemini.RSS).
	const maxRSS = 1 << 30
	cmds := loadCommands(b)
	f := newFrontDoor(b)
	g := startGemini(b, f)
	b.Cleanup(func() { g.Close() })
	ctx := context.Background()
	// Warm node's JIT on every command, first and in every fresh driver.
	warm := func(b *testing.B) {
		for _, c := range cmds {
			if _, _, err := g.Time(c.Command, 200); err != nil {
				b.Fatal(err)
			}
		}
	}
	warm(b)
	for i, c := range cmds {
		b.Run(fmt.Sprintf("class=%s/cmd=%02d", c.Class, i), func(b *testing.B) {
			if g.RSS() > maxRSS {
				g.Close()
				var err error
				pkg, _ := testenv.Lookup(GeminiEnv)
				g, err = StartGemini(pkg, f.dir, f.home)
				require.NoError(b, err)
				warm(b)
			}
			// Warm this command, untimed: b.Loop times from its first call.
			if _, _, err := g.Time(c.Command, 100); err != nil {
				b.Fatal(err)
			}
			id := fmt.Sprintf("b%d-%d", i, b.N)
			in := f.session(b, id, c.Command)
			want, err := permission.ParseDecision(c.Toolgate)
			require.NoError(b, err)
			k := 0
			tg := func() time.Duration {
				t0 := time.Now()
				for range geminiRound {
					if v := f.p.Check(ctx, runtime.Call{Session: id, ID: "c", Tool: "Bash", Input: in[k%len(in)]}); v.Decision != want {
						b.Fatalf("%q: %s", c.Command, v.Reason)
					}
					k++
				}
				return time.Since(t0)
			}
			gem := func() time.Duration {
				ns, d, err := g.Time(c.Command, geminiRound)
				if err != nil || d != c.Gemini {
					b.Fatalf("%q: %s %v", c.Command, d, err)
				}
				return time.Duration(ns)
			}
			var tt, tgem time.Duration
			n := 0
			for b.Loop() {
				if n%2 == 0 {
					tgem += gem()
					tt += tg()
				} else {
					tt += tg()
					tgem += gem()
				}
				n++
			}
			ops := float64(n * geminiRound)
			b.ReportMetric(float64(tgem.Nanoseconds())/ops, "gemini-ns/op")
			b.ReportMetric(float64(tt.Nanoseconds())/ops, "toolgate-ns/op")
			b.ReportMetric(float64(tgem)/float64(tt), "gemini/toolgate")
		})
	}
}

// BenchmarkToolgateCommands times toolgate's side of BenchmarkGemini alone,
// one sub-benchmark per command of the table, with its allocations: the
// quick loop for work on Pipeline.Check, with no node process to start.
func BenchmarkToolgateCommands(b *testing.B) {
	cmds := loadCommands(b)
	f := newFrontDoor(b)
	// Let the files age past the timestamp granularity, as they have when
	// BenchmarkGemini's warm-up of node ends: younger stamps are not trusted.
	time.Sleep(2100 * time.Millisecond)
	ctx := context.Background()
	for i, c := range cmds {
		b.Run(fmt.Sprintf("class=%s/cmd=%02d", c.Class, i), func(b *testing.B) {
			id := fmt.Sprintf("b%d-%d", i, b.N)
			in := f.session(b, id, c.Command)
			want, err := permission.ParseDecision(c.Toolgate)
			require.NoError(b, err)
			b.ReportAllocs()
			k := 0
			for b.Loop() {
				if v := f.p.Check(ctx, runtime.Call{Session: id, ID: "c", Tool: "Bash", Input: in[k%len(in)]}); v.Decision != want {
					b.Fatalf("%q: %s", c.Command, v.Reason)
				}
				k++
			}
		})
	}
}

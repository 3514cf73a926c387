package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The hook as a process. Claude Code starts "toolgate check" once for every
// tool call, so its cost is a whole process: start-up, reading the
// settings and the session's files, the decision, the answer. Its small
// client toolgate-check hands the same call to a warm toolgate process
// instead; both are measured. The yardstick
// is the cheapest Go process there is, a static hello-world
// (CGO_ENABLED=0), run alternating with the hook in one loop so that both
// see the same load:
//
//	go test -run '^$' -bench '^BenchmarkHookProcess$' -benchtime 100x .
//
// reports, for the first call of a session (a new session each time: its
// snapshot, facts and probes are made) and for a later call (the session's
// files are there), the median of the pairs' check/hello ratios, each
// side's median wall time and the hook's peak resident set (KiB, the
// largest of the runs).
//
// The peak resident set is measured apart, through /usr/bin/time -f %M:
// the rusage a Go parent gets for its child counts the parent's own
// memory, which the child shares from its vfork until its exec replaces
// it (the kernel keeps that mm's high-water mark), so it would report
// this test binary's size. GNU time forks a copy of itself, a few
// hundred KiB, and reports the child's own peak.

// hookBuilds are the two programs, built once per test binary.
type hookBuilds struct {
	toolgate, client, hello string
	err                     error
}

var hookBuild = sync.OnceValue(func() hookBuilds {
	dir, err := os.MkdirTemp("", "toolgate-bench-hook-")
	if err != nil {
		return hookBuilds{err: err}
	}
	b := hookBuilds{toolgate: filepath.Join(dir, "toolgate"), client: filepath.Join(dir, "toolgate-check"), hello: filepath.Join(dir, "hello")}
	// toolgate and toolgate-check, side by side, as go install builds
	// them for the user.
	for out, pkg := range map[string]string{b.toolgate: "cmd/toolgate", b.client: "cmd/toolgate-check"} {
		build := exec.Command("go", "build", "-o", out, "github.com/toolgate/toolgate/"+pkg)
		if msg, err := build.CombinedOutput(); err != nil {
			return hookBuilds{err: fmt.Errorf("go build %s: %v\n%s", pkg, err, msg)}
		}
	}
	src := filepath.Join(dir, "hello.go")
	if err := os.WriteFile(src, []byte("package main\n\nfunc main() { println(\"hello\") }\n"), 0o644); err != nil {
		return hookBuilds{err: err}
	}
	build := exec.Command("go", "build", "-o", b.hello, src)
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		return hookBuilds{err: fmt.Errorf("go build hello: %v\n%s", err, out)}
	}
	return b
})

// hookRun runs the program path (with args) in dir with env and stdin,
// and returns its wall time.
func hookRun(tb testing.TB, path string, args []string, dir string, env []string, stdin []byte) time.Duration {
	cmd := exec.Command(path, args...)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin = bytes.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	require.NoError(tb, err, "%s", out.Bytes())
	return took
}

// timeBin is GNU time, which measures the peak resident set.
const timeBin = "/usr/bin/time"

// hookPeak runs the program as hookRun does, through GNU time, and
// returns its peak resident set in KiB, or 0 when GNU time is not
// installed (.ci/setup installs it).
func hookPeak(tb testing.TB, path string, args []string, dir string, env []string, stdin []byte) int64 {
	if _, err := os.Stat(timeBin); err != nil {
		return 0
	}
	report := filepath.Join(tb.TempDir(), "rss")
	hookRun(tb, timeBin, append([]string{"-f", "%M", "-o", report, path}, args...), dir, env, stdin)
	b, err := os.ReadFile(report)
	require.NoError(tb, err)
	kib, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	require.NoError(tb, err, "%s", b)
	return kib
}

func BenchmarkHookProcess(b *testing.B) {
	built := hookBuild()
	if built.err != nil {
		b.Fatal(built.err)
	}
	tmp, err := filepath.EvalSymlinks(b.TempDir())
	require.NoError(b, err)
	makeProject(b, tmp)
	dir, home := filepath.Join(tmp, "proj"), filepath.Join(tmp, "home")
	run := filepath.Join(tmp, "run")
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "XDG_RUNTIME_DIR=" + run}
	b.Cleanup(func() { stopWarm(filepath.Join(run, "toolgate-warm")) })
	event := func(session string) []byte {
		ev, err := json.Marshal(map[string]any{"session_id": session, "hook_event_name": "PreToolUse", "tool_name": "Bash",
			"tool_input": map[string]string{"command": "ls -la"}, "cwd": dir})
		require.NoError(b, err)
		return ev
	}
	// The answer is the one the comparison is about: an allowed command.
	hookRun(b, built.toolgate, []string{"check"}, dir, env, event("warm"))
	if _, err := os.Stat(timeBin); err != nil {
		b.Logf("SKIPPED LOUDLY: no %s, so the hook's peak resident set is not measured (.ci/setup installs the time package)", timeBin)
	}
	// The warm process toolgate-check starts: it answers from the call
	// after the one that starts it.
	for range 100 {
		hookRun(b, built.client, nil, dir, env, event("warm"))
		if socks, _ := filepath.Glob(filepath.Join(run, "toolgate-warm", "*.sock")); len(socks) > 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The calls: the first of a session, a later one, and a later one
	// after a file was made at the top of the project (as a build or an
	// editor's save makes one), which makes the sandbox search the
	// workspace again; each through toolgate check, a process of its
	// own, and through toolgate-check, answered by the warm process.
	for _, c := range []struct {
		name                 string
		fresh, changed, warm bool
	}{
		{"first", true, false, false}, {"later", false, false, false}, {"changed", false, true, false},
		{"warm-first", true, false, true}, {"warm-later", false, false, true}, {"warm-changed", false, true, true},
	} {
		hook, args := built.toolgate, []string{"check"}
		if c.warm {
			hook, args = built.client, nil
		}
		b.Run("call="+c.name, func(b *testing.B) {
			var ratios, checks, hellos []float64
			session := func(i int) string {
				if c.fresh {
					return fmt.Sprintf("first-%d-%d", time.Now().UnixNano(), i)
				}
				return "later"
			}
			for i := 0; b.Loop(); i++ {
				ev := event(session(i))
				h := hookRun(b, built.hello, nil, dir, env, nil)
				made := filepath.Join(dir, fmt.Sprintf("made-%d", i))
				if c.changed {
					require.NoError(b, os.WriteFile(made, nil, 0o644))
				}
				t := hookRun(b, hook, args, dir, env, ev)
				if c.changed {
					require.NoError(b, os.Remove(made))
				}
				if i == 0 && !c.fresh {
					continue // the session's files are made by its first call
				}
				ratios = append(ratios, float64(t)/float64(h))
				checks, hellos = append(checks, float64(t)), append(hellos, float64(h))
			}
			if len(ratios) == 0 {
				return
			}
			b.StopTimer()
			var peak, helloPeak int64
			for i := range 5 {
				peak = max(peak, hookPeak(b, hook, args, dir, env, event(session(-1-i))))
				helloPeak = max(helloPeak, hookPeak(b, built.hello, nil, dir, env, nil))
			}
			b.ReportMetric(medianOf(ratios), "check/hello")
			b.ReportMetric(medianOf(checks), "check-ns")
			b.ReportMetric(medianOf(hellos), "hello-ns")
			if peak > 0 {
				b.ReportMetric(float64(peak), "peak-KiB")
				b.ReportMetric(float64(helloPeak), "hello-peak-KiB")
			}
		})
	}
}

// stopWarm ends the warm processes serving the sockets in dir.
func stopWarm(dir string) {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		if b, err := os.ReadFile(p); err == nil && bytes.HasPrefix(b, []byte("toolgate\x00warm\x00"+dir+"\x00")) {
			if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(p))); err == nil {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}
}

// medianOf is the median of v.
func medianOf(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

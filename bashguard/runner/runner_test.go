//go:build linux

package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgate/toolgate/permission"
	"go.uber.org/goleak"
)

// runTestRoot is a real directory checker: it Allows a path whose symbolic
// links resolve to root or below, and Denies everything else.
type runTestRoot struct{ root string }

func (c runTestRoot) CheckPath(path string, write bool) (permission.Decision, string) {
	p, err := filepath.EvalSymlinks(path)
	if err != nil {
		return permission.Deny, "cannot resolve " + path
	}
	rel, err := filepath.Rel(c.root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return permission.Deny, p + " is outside the root " + c.root
	}
	return permission.Allow, p + " is inside the root"
}

// Secret names the secret paths anywhere, as sandbox.Sandbox.Secret does,
// by a small table of names: what the read-only grants' walk asks.
func (c runTestRoot) Secret(path string) (string, bool) {
	for _, pat := range []string{".env", "credentials.toml", "id_ed25519"} {
		if filepath.Base(path) == pat {
			return pat, true
		}
	}
	return "", false
}

// runTestDir returns a fresh temporary directory with its links resolved.
func runTestDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	return d
}

// runTestRunner returns a Shell confined to a fresh temporary root, and
// the root.
func runTestRunner(t *testing.T) (*Shell, string) {
	t.Helper()
	dir := runTestDir(t)
	return &Shell{Dir: dir, Checker: runTestRoot{root: dir}}, dir
}

// runTestMarker returns a sleep duration that is unique to this test, so
// that /proc shows whether such a sleep is still alive.
func runTestMarker() string {
	return fmt.Sprintf("30.%06d", rand.IntN(1000000))
}

// runTestProc is one live process as /proc shows it.
type runTestProc struct {
	pid, pgid, uid int
	cmdline        string
}

// runTestProcs lists the live (not zombie) processes.
func runTestProcs() []runTestProc {
	names, _ := filepath.Glob("/proc/[0-9]*")
	var procs []runTestProc
	for _, dir := range names {
		pid, err := strconv.Atoi(filepath.Base(dir))
		if err != nil {
			continue
		}
		state, pgid, ok := runProcStat(pid)
		if !ok || state == 'Z' || state == 'X' {
			continue
		}
		fi, err := os.Stat(dir)
		if err != nil {
			continue
		}
		cmd, _ := os.ReadFile(dir + "/cmdline")
		procs = append(procs, runTestProc{pid: pid, pgid: pgid,
			uid:     int(fi.Sys().(*syscall.Stat_t).Uid),
			cmdline: string(bytes.ReplaceAll(cmd, []byte{0}, []byte{' '}))})
	}
	return procs
}

// runTestSurvivors returns the live processes in group pgid or whose
// command line contains marker.
func runTestSurvivors(t *testing.T, pgid int, marker string) []runTestProc {
	t.Helper()
	var left []runTestProc
	for _, p := range runTestProcs() {
		if (pgid > 0 && p.pgid == pgid) || strings.Contains(p.cmdline, marker) {
			left = append(left, p)
		}
	}
	return left
}

// runTestPgid reads the process group that the command printed with
// "echo $$" as its first line.
func runTestPgid(t *testing.T, out string) int {
	t.Helper()
	first, _, _ := strings.Cut(out, "\n")
	pgid, err := strconv.Atoi(first)
	require.NoError(t, err, "first output line should be bash's pid, output %q", out)
	require.Greater(t, pgid, 1)
	return pgid
}

func TestRunnerRunsInDirWithCombinedOutput(t *testing.T) {
	r, dir := runTestRunner(t)
	res, err := r.Run(context.Background(), "pwd; echo out; echo err >&2; echo again; exit 3")
	require.NoError(t, err)
	assert.Equal(t, dir+"\nout\nerr\nagain\n", res.Output, "stdout and stderr in order")
	assert.Equal(t, 3, res.ExitCode)
	assert.False(t, res.TimedOut)
	assert.False(t, res.Cancelled)
	assert.False(t, res.Truncated)
	assert.Zero(t, res.CutChars)
	assert.Positive(t, res.Elapsed)
}

func TestRunnerCommandIsBashC(t *testing.T) {
	r, _ := runTestRunner(t)
	// $0 and $# are those of a plain "bash -c command"; the limit
	// prologue does not show.
	res, err := r.Run(context.Background(), `echo "$0|$#|$LINENO"; shopt -q login_shell || echo nologin; ulimit -u`)
	require.NoError(t, err)
	assert.Equal(t, DefaultBash+"|0|1\nnologin\n"+strconv.Itoa(runProcLimit(DefaultMaxProcs))+"\n", res.Output)
	assert.Equal(t, 0, res.ExitCode)
}

func TestRunnerRefusesDirOutsideRoots(t *testing.T) {
	root := runTestDir(t)
	outside := runTestDir(t)
	require.NoError(t, os.Symlink(outside, filepath.Join(root, "link")))
	for _, dir := range []string{outside, filepath.Join(root, "link"), filepath.Join(root, "..")} {
		r := &Shell{Dir: dir, Checker: runTestRoot{root: root}}
		res, err := r.Run(context.Background(), "touch ran")
		require.ErrorIs(t, err, ErrDirRefused, dir)
		var de *DirError
		require.ErrorAs(t, err, &de)
		assert.Equal(t, dir, de.Dir)
		assert.Equal(t, permission.Deny, de.Decision)
		assert.Contains(t, de.Reason, "is outside the root "+root)
		assert.Contains(t, err.Error(), "refused (deny)")
		assert.Equal(t, Result{}, res)
		assert.NoFileExists(t, filepath.Join(outside, "ran"), "the command must not run")
	}
}

func TestRunnerRefusesWithoutDirOrChecker(t *testing.T) {
	dir := runTestDir(t)
	var nilRunner *Shell
	cases := []struct {
		name   string
		r      *Shell
		reason string
	}{
		{"zero value", &Shell{}, "no working directory configured"},
		{"nil runner", nilRunner, "no working directory configured"},
		{"no checker", &Shell{Dir: dir}, "no directory checker configured"},
		{"relative dir", &Shell{Dir: "sub", Checker: runTestRoot{root: dir}}, "not an absolute path"},
		{"missing dir", &Shell{Dir: filepath.Join(dir, "nope"), Checker: runTestRoot{root: dir}}, "cannot resolve"},
		{"ask is not allow", &Shell{Dir: dir, Checker: runTestDecide{permission.Ask, "protected directory"}}, "protected directory"},
		{"invalid decision", &Shell{Dir: dir, Checker: runTestDecide{permission.Decision(9), "?"}}, "invalid decision deny(9)"},
		{"panicking checker", &Shell{Dir: dir, Checker: runTestPanic{}}, "directory checker panicked: boom"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.r.Run(context.Background(), "touch ran")
			require.ErrorIs(t, err, ErrDirRefused)
			var de *DirError
			require.ErrorAs(t, err, &de)
			assert.Contains(t, de.Reason, tc.reason)
			assert.NoFileExists(t, filepath.Join(dir, "ran"))
		})
	}
}

type runTestDecide struct {
	d      permission.Decision
	reason string
}

func (c runTestDecide) CheckPath(string, bool) (permission.Decision, string) { return c.d, c.reason }

type runTestPanic struct{}

func (runTestPanic) CheckPath(string, bool) (permission.Decision, string) { panic("boom") }

func TestRunnerRejectsInvalidConfiguration(t *testing.T) {
	dir := runTestDir(t)
	ok := runTestRoot{root: dir}
	cases := []struct {
		r    Shell
		want string
	}{
		{Shell{Dir: dir, Checker: ok, Timeout: -time.Second}, "Timeout -1s is negative"},
		{Shell{Dir: dir, Checker: ok, MaxOutput: 10}, "MaxOutput 10 is below the minimum 64"},
		{Shell{Dir: dir, Checker: ok, MaxOutput: -1}, "MaxOutput -1 is below the minimum 64"},
		{Shell{Dir: dir, Checker: ok, MaxProcs: -1}, "MaxProcs -1 is negative"},
		{Shell{Dir: dir, Checker: ok, Bash: "bash"}, `Bash "bash" is not an absolute path`},
		{Shell{Dir: dir, Checker: ok, Home: "home"}, `Home "home" is not an absolute path`},
		{Shell{Dir: dir, Checker: ok, Env: []string{"NOVALUE"}}, `Env entry "NOVALUE" is not NAME=value`},
		{Shell{Dir: dir, Checker: ok, Env: []string{"=x"}}, `Env entry "=x" is not NAME=value`},
		{Shell{Dir: dir, Checker: ok, PassEnv: []string{"A=B"}}, `PassEnv name "A=B" is not a variable name`},
	}
	for _, tc := range cases {
		_, err := tc.r.Run(context.Background(), "true")
		require.ErrorIs(t, err, ErrConfig, tc.want)
		assert.EqualError(t, err, ErrConfig.Error()+": "+tc.want)
	}

	r, _ := runTestRunner(t)
	_, err := r.Run(context.Background(), "echo a\x00b")
	assert.EqualError(t, err, "runner: command contains a NUL byte")

	r.Bash = filepath.Join(dir, "no-bash")
	_, err = r.Run(context.Background(), "true")
	require.ErrorIs(t, err, os.ErrNotExist)
	assert.Contains(t, err.Error(), "runner: run: start "+r.Bash)
}

func TestRunnerTimeoutDefaultsAndBounds(t *testing.T) {
	dir := runTestDir(t)
	for _, tc := range []struct{ set, want time.Duration }{
		{0, 60 * time.Second},
		{time.Second, time.Second},
		{120 * time.Second, 120 * time.Second},
		{10 * time.Minute, 120 * time.Second},
	} {
		r := Shell{Dir: dir, Checker: runTestRoot{root: dir}, Timeout: tc.set}
		c, err := r.config()
		require.NoError(t, err)
		assert.Equal(t, tc.want, c.timeout, "Timeout %v", tc.set)
		assert.Equal(t, DefaultMaxOutput, c.maxOutput)
		assert.Equal(t, DefaultMaxProcs, c.maxProcs)
		assert.Equal(t, DefaultBash, c.bash)
	}
}

func TestRunnerFromEnv(t *testing.T) {
	env := func(v string) func(string) string {
		return func(name string) string {
			if name == TimeoutEnv {
				return v
			}
			return "unexpected"
		}
	}
	for _, tc := range []struct {
		value string
		want  time.Duration
	}{
		{"", 0},
		{"30", 30 * time.Second},
		{" 45 ", 45 * time.Second},
		{"120", 120 * time.Second},
		{"500", 120 * time.Second},
		{"99999999999999999", 120 * time.Second},
	} {
		r, err := FromEnv(env(tc.value))
		require.NoError(t, err, tc.value)
		assert.Equal(t, tc.want, r.Timeout, tc.value)
	}
	r, err := FromEnv(nil)
	require.NoError(t, err)
	assert.Equal(t, Shell{}, r)

	for _, bad := range []string{"0", "-5", "1.5", "ten", "99999999999999999999999"} {
		_, err := FromEnv(env(bad))
		var pe *permission.Error
		require.ErrorAs(t, err, &pe, bad)
		assert.Equal(t, TimeoutEnv, pe.Source)
		assert.Equal(t, bad, pe.Input)
		assert.Equal(t, "want a positive whole number of seconds", pe.Reason)
	}

	// Run itself never reads the variable from the process environment.
	t.Setenv(TimeoutEnv, "1")
	rr, _ := runTestRunner(t)
	c, err := rr.config()
	require.NoError(t, err)
	assert.Equal(t, DefaultTimeout, c.timeout)
}

func TestRunnerTimeoutKillsProcessGroup(t *testing.T) {
	r, _ := runTestRunner(t)
	r.Timeout = time.Second
	m := runTestMarker()
	res, err := r.Run(context.Background(), "echo $$; sleep "+m+" & sleep "+m+"; echo not reached")
	require.NoError(t, err)
	assert.True(t, res.TimedOut)
	assert.False(t, res.Cancelled)
	assert.Equal(t, 128+int(syscall.SIGKILL), res.ExitCode)
	pgid := runTestPgid(t, res.Output)
	assert.Equal(t, strconv.Itoa(pgid)+"\n", res.Output)
	assert.Empty(t, runTestSurvivors(t, pgid, m), "no process of the command may survive")
}

func TestRunnerKillsBackgroundJobsWhenCommandEnds(t *testing.T) {
	r, _ := runTestRunner(t)
	m := runTestMarker()
	res, err := r.Run(context.Background(), "echo $$; sleep "+m+" & ( sleep "+m+" & ) ; echo done")
	require.NoError(t, err)
	assert.False(t, res.TimedOut)
	assert.Equal(t, 0, res.ExitCode)
	pgid := runTestPgid(t, res.Output)
	assert.Equal(t, strconv.Itoa(pgid)+"\ndone\n", res.Output)
	assert.Empty(t, runTestSurvivors(t, pgid, m))
}

func TestRunnerKillsProcessesThatLeftTheGroup(t *testing.T) {
	r, _ := runTestRunner(t)
	m := runTestMarker()
	// setsid and a double fork leave the process group; the run's token in
	// the environment still finds them.
	res, err := r.Run(context.Background(),
		"echo $$; setsid sleep "+m+" >/dev/null 2>&1 & (setsid sh -c 'sleep "+m+" & exec sleep "+m+"' >/dev/null 2>&1 &); sleep 0.2; echo done")
	require.NoError(t, err)
	assert.Equal(t, 0, res.ExitCode)
	pgid := runTestPgid(t, res.Output)
	assert.Equal(t, strconv.Itoa(pgid)+"\ndone\n", res.Output)
	assert.Empty(t, runTestSurvivors(t, pgid, m))
}

func TestRunnerCancelKillsProcessGroup(t *testing.T) {
	r, dir := runTestRunner(t)
	m := runTestMarker()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// Cancel once the command has started its background job.
		for {
			if _, err := os.Stat(filepath.Join(dir, "ready")); err == nil {
				cancel()
				return
			}
			if ctx.Err() != nil {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	res, err := r.Run(ctx, "echo $$; sleep "+m+" & touch ready; sleep "+m)
	require.ErrorIs(t, err, context.Canceled)
	assert.True(t, res.Cancelled)
	assert.False(t, res.TimedOut)
	assert.Equal(t, 128+int(syscall.SIGKILL), res.ExitCode)
	pgid := runTestPgid(t, res.Output)
	assert.Empty(t, runTestSurvivors(t, pgid, m))

	// A context that is already done starts nothing.
	res, err = r.Run(ctx, "touch again")
	require.ErrorIs(t, err, context.Canceled)
	assert.True(t, res.Cancelled)
	assert.NoFileExists(t, filepath.Join(dir, "again"))
}

func TestRunnerOutputCapKeepsHeadAndTail(t *testing.T) {
	r, _ := runTestRunner(t)
	res, err := r.Run(context.Background(), "seq 1 3000")
	require.NoError(t, err)
	var full strings.Builder
	for i := 1; i <= 3000; i++ {
		fmt.Fprintf(&full, "%d\n", i)
	}
	all := full.String() // 13893 characters
	marker := "\n[... 9924 characters cut ...]\n"
	keep := DefaultMaxOutput - len(marker) // 3966
	want := all[:keep/2] + marker + all[len(all)-(keep-keep/2):]
	assert.True(t, res.Truncated)
	assert.Equal(t, 9924, res.CutChars)
	assert.Equal(t, len(all)-keep, res.CutChars)
	assert.Equal(t, want, res.Output)
	assert.Len(t, res.Output, DefaultMaxOutput)
}

func TestRunnerOutputCapCountsCharacters(t *testing.T) {
	r, _ := runTestRunner(t)
	r.MaxOutput = 100
	res, err := r.Run(context.Background(), `for i in $(seq 1 50); do printf 'é日%02d\n' $i; done; printf '\377\n'`)
	require.NoError(t, err)
	var full []rune
	for i := 1; i <= 50; i++ {
		full = append(full, []rune(fmt.Sprintf("é日%02d\n", i))...)
	}
	full = append(full, '\uFFFD', '\n') // the invalid byte
	marker := "\n[... 182 characters cut ...]\n"
	keep := 100 - len(marker)
	want := string(full[:keep/2]) + marker + string(full[len(full)-(keep-keep/2):])
	assert.Equal(t, want, res.Output)
	assert.Equal(t, len(full)-keep, res.CutChars)
	assert.Equal(t, 100, len([]rune(res.Output)))
	assert.True(t, res.Truncated)

	// Under the cap nothing is cut.
	r.MaxOutput = 0
	res, err = r.Run(context.Background(), `printf 'é日\n'`)
	require.NoError(t, err)
	assert.Equal(t, "é日\n", res.Output)
	assert.False(t, res.Truncated)
	assert.Zero(t, res.CutChars)
}

func TestRunnerOutputMemoryIsBounded(t *testing.T) {
	r, _ := runTestRunner(t)
	const n = 64 << 20
	r.MaxOutputBytes = n + 16 // the default cap is n: room for the two lines after it
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, err := r.Run(context.Background(), "head -c "+strconv.Itoa(n)+" /dev/zero; echo; echo end")
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	assert.Equal(t, 0, res.ExitCode)
	assert.True(t, res.Truncated)
	// 67108869 characters; the 35-character marker leaves 3965 of them:
	// 1982 of head and 1983 of tail.
	const marker = "\n[... 67104904 characters cut ...]\n"
	assert.Equal(t, 67104904, res.CutChars)
	assert.Equal(t, strings.Repeat("\x00", 1982)+marker+strings.Repeat("\x00", 1978)+"\nend\n", res.Output)
	assert.Len(t, res.Output, DefaultMaxOutput)
	// 64 MiB went through; far less than that was allocated.
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(4<<20))
}

func TestRunnerEnvironmentIsExplicit(t *testing.T) {
	const secret = "s3cret-value-that-must-not-leak"
	t.Setenv("TOOLGATE_TEST_SECRET", secret)
	t.Setenv("TOOLGATE_TEST_PASSED", "passed-value")
	r, dir := runTestRunner(t)
	res, err := r.Run(context.Background(), "env")
	require.NoError(t, err)
	assert.NotContains(t, res.Output, secret)
	var names []string
	vars := map[string]string{}
	for line := range strings.SplitSeq(strings.TrimSuffix(res.Output, "\n"), "\n") {
		name, value, _ := strings.Cut(line, "=")
		names = append(names, name)
		vars[name] = value
	}
	slices.Sort(names)
	// HOME, LANG, PATH, the private TMPDIR and the run token from the
	// runner; PWD, SHLVL and _ from bash itself.
	assert.Equal(t, []string{"HOME", "LANG", "PATH", "PWD", "SHLVL", "TMPDIR", runMarkerEnv, "_"}, names)
	assert.True(t, strings.HasPrefix(filepath.Base(vars["TMPDIR"]), "toolgate-run-"), "TMPDIR %q", vars["TMPDIR"])
	assert.NoDirExists(t, vars["TMPDIR"], "the private temporary directory is removed after the run")
	assert.Equal(t, dir, vars["HOME"])
	assert.Equal(t, "C.UTF-8", vars["LANG"])
	assert.Equal(t, DefaultPath, vars["PATH"])
	assert.Len(t, vars[runMarkerEnv], 32)

	r.PassEnv = []string{"TOOLGATE_TEST_PASSED", "TOOLGATE_TEST_UNSET"}
	r.Env = []string{"PATH=/bin", "EXTRA=a=b"}
	r.Home = "/nonexistent-home"
	res, err = r.Run(context.Background(), `echo "$TOOLGATE_TEST_PASSED|${TOOLGATE_TEST_UNSET-unset}|$PATH|$EXTRA|$HOME|${TOOLGATE_TEST_SECRET-hidden}"`)
	require.NoError(t, err)
	assert.Equal(t, "passed-value|unset|/bin|a=b|/nonexistent-home|hidden\n", res.Output)
}

func TestRunnerStdinIsClosed(t *testing.T) {
	r, _ := runTestRunner(t)
	r.Timeout = 10 * time.Second
	res, err := r.Run(context.Background(), `readlink /proc/self/fd/0; cat; echo "cat=$?"; read -r x; echo "read=$?"`)
	require.NoError(t, err)
	assert.False(t, res.TimedOut, "a command reading stdin must see end of file, not wait")
	assert.Equal(t, "/dev/null\ncat=0\nread=1\n", res.Output)
}

func TestRunnerExitCodeOfSignal(t *testing.T) {
	r, _ := runTestRunner(t)
	res, err := r.Run(context.Background(), "kill -TERM $$")
	require.NoError(t, err)
	assert.Equal(t, 128+int(syscall.SIGTERM), res.ExitCode)
	assert.False(t, res.TimedOut)
}

func TestRunnerForkBombIsBounded(t *testing.T) {
	dir := runTestDir(t)
	const limit = 40
	r := &Shell{Dir: dir, Checker: runTestRoot{root: dir}, Timeout: 3 * time.Second, MaxProcs: limit}
	uid := os.Getuid()
	if uid == 0 {
		// The kernel does not apply RLIMIT_NPROC to root: run the bomb as
		// nobody, which needs to enter the directory.
		uid = 65534
		r.Credential = &Credential{UID: 65534, GID: 65534}
		for d := dir; d != filepath.Dir(d) && strings.HasPrefix(d, os.TempDir()+"/"); d = filepath.Dir(d) {
			require.NoError(t, os.Chmod(d, 0o755))
		}
	} else {
		// The limit counts every process of the user.
		n := 0
		for _, p := range runTestProcs() {
			if p.uid == uid {
				n++
			}
		}
		r.MaxProcs = n + limit
	}
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	require.NoError(t, os.Chmod(fifo, 0o666))

	// Count the user's live processes while the bomb runs.
	var peak atomic.Int64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			n := 0
			for _, p := range runTestProcs() {
				if p.uid == uid {
					n++
				}
			}
			if int64(n) > peak.Load() {
				peak.Store(int64(n))
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	// The top-level shell then blocks on the FIFO (without forking) until
	// the timeout.
	res, err := r.Run(context.Background(), "echo $$; :(){ :|:& };:; read x <> fifo")
	close(stop)
	<-sampled
	require.NoError(t, err)
	assert.True(t, res.TimedOut, "output %q", res.Output)
	pgid := runTestPgid(t, res.Output)
	assert.Contains(t, res.Output, "fork: retry: Resource temporarily unavailable", "the bomb hit the process limit")
	t.Logf("peak %d processes of uid %d (limit %d), %d characters of output", peak.Load(), uid, r.MaxProcs, res.CutChars+len([]rune(res.Output)))
	assert.LessOrEqual(t, peak.Load(), int64(r.MaxProcs))
	assert.Positive(t, peak.Load())
	assert.Empty(t, runTestSurvivors(t, pgid, "\x00none"), "the bomb is gone")

	// The machine is still usable.
	res, err = r.Run(context.Background(), "echo alive")
	require.NoError(t, err)
	assert.Equal(t, "alive\n", res.Output)
	assert.True(t, res.Confined.Enforced, "the launcher confined the command as uid %d: %v", uid, res.Confined)
}

func TestRunnerConcurrentRuns(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	r, _ := runTestRunner(t)
	errs := make(chan error, 8)
	for i := range 8 {
		go func() {
			res, err := r.Run(context.Background(), "echo "+strconv.Itoa(i))
			if err == nil && res.Output != strconv.Itoa(i)+"\n" {
				err = errors.New("run " + strconv.Itoa(i) + " printed " + strconv.Quote(res.Output))
			}
			errs <- err
		}()
	}
	for range 8 {
		assert.NoError(t, <-errs)
	}
}

// BenchmarkRunnerRun sets the runner's cost (directory check, the
// confining launcher's extra exec, the group kill and the /proc sweep)
// beside a bare exec of bash -c with the same command.
func BenchmarkRunnerRun(b *testing.B) {
	dir, err := filepath.EvalSymlinks(b.TempDir())
	require.NoError(b, err)
	r := &Shell{Dir: dir, Checker: runTestRoot{root: dir}}
	const command = "echo hello"
	b.Run("runner", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			res, err := r.Run(context.Background(), command)
			if err != nil || res.Output != "hello\n" {
				b.Fatalf("%q %v", res.Output, err)
			}
		}
	})
	b.Run("bare-exec", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			cmd := exec.Command(DefaultBash, "-c", command)
			cmd.Dir = dir
			cmd.Env = []string{"PATH=" + DefaultPath}
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			out, err := cmd.CombinedOutput()
			if err != nil || string(out) != "hello\n" {
				b.Fatalf("%q %v", out, err)
			}
		}
	})
	// A sweep that finds nothing: as after most commands (only processes
	// started after the command have their environment read), and with
	// every process's environment read.
	for _, tc := range []struct {
		name  string
		start uint64
	}{{"sweep", 1 << 62}, {"sweep-all-environs", 0}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				runSweep(1<<30, tc.start, "0123456789abcdef0123456789abcdef")
			}
		})
	}
}

package bashguard

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/sandbox"
)

// The system calls one Check makes, counted by strace in a helper process
// that judges each command of syscallTable three times with one Guard, as
// a session does, and marks the third judgement (the first reads the
// workspace's facts, the second has them watched where inotify is
// available and checks their stamps once more: both are logged, as the
// benchmark module's TestCommandSyscalls does). The watcher's poll at the
// start of a Judge is not a file-system call and is not counted; a read of
// its queue, when something changed, is. Only the calls that touch
// the file system count (the Go runtime's own, futex, mmap, signals, do
// not). Each command states its floor: the lstat/stat it needs to judge
// its operands and to revalidate the repository's facts, in a repository
// whose top has n components (/tmp/X/001: 3); the test fails above twice
// the floor.
var syscallTable = []struct {
	script   string
	decision permission.Decision
	floor    func(n int) int // of the number of components of the repository's top
	why      string
}{
	{"echo hello", permission.Allow, func(int) int { return 0 }, "no operand, no file"},
	{"ls", permission.Allow, func(n int) int { return n }, "the working directory: an lstat of each of its n components"},
	{"cat README.md", permission.Allow, func(n int) int { return n + 1 }, "one operand: an lstat of each of its n+1 components"},
	{"grep -n TODO src/a.go", permission.Allow, func(n int) int { return n + 2 }, "one operand: an lstat of each of its n+2 components"},
	{"git status", permission.Allow, func(n int) int { return n + 3 }, "the repository's facts: a stamp of each of the n components of its top, of .git, config and config.worktree"},
	{"git log -1", permission.Allow, func(n int) int { return n + 3 }, "the repository's facts, as git status"},
	{"wc -l README.md src/a.go src/main.go", permission.Allow, func(n int) int { return 3*n + 5 }, "three operands: an lstat of each of their n+1, n+2 and n+2 components"},
	{"git status && ls -la src | grep main", permission.Allow, func(n int) int { return n + 3 + n + 1 }, "git status, then an lstat of each of the n+1 components of src"},
}

const syscallHelperEnv = "TOOLGATE_SYSCALL_HELPER_DIR"

// coldMark and secondMark number the marks of the first and second
// judgements of each command, whose counts are logged, not held to the
// floor: a hook process judges once.
const (
	coldMark   = 1000
	secondMark = 2000
)

// syscallMark opens a path that does not exist: strace shows it, and it
// marks where a judgement begins and ends.
func syscallMark(what string, i int) {
	f, err := os.Open("/nonexistent/toolgate-mark-" + what + "-" + strconv.Itoa(i))
	if err == nil {
		f.Close()
	}
}

// TestSyscallFloorHelper is the process strace watches; it does nothing
// unless TestSyscallFloor starts it.
func TestSyscallFloorHelper(t *testing.T) {
	dir := os.Getenv(syscallHelperEnv)
	if dir == "" {
		t.Skip("SKIP: the helper of TestSyscallFloor runs only under it")
	}
	sb, err := sandbox.New(sandbox.Config{Roots: []string{dir}, WorkDir: dir})
	require.NoError(t, err)
	pol := DefaultPolicy()
	pol.Home = filepath.Join(dir, "home")
	g := New(pol)
	ctx := context.Background()
	for i, tc := range syscallTable {
		syscallMark("begin", coldMark+i)
		// A view of the sandbox for each call, as a pipeline takes one.
		g.Judge(ctx, dir, CheckerJudge(sb.Pin()), tc.script) // the session's earlier calls
		syscallMark("end", coldMark+i)
		syscallMark("begin", secondMark+i)
		g.Judge(ctx, dir, CheckerJudge(sb.Pin()), tc.script)
		syscallMark("end", secondMark+i)
		syscallMark("begin", i)
		v := g.Judge(ctx, dir, CheckerJudge(sb.Pin()), tc.script)
		syscallMark("end", i)
		require.Equal(t, tc.decision, v.Decision, "%s: %s", tc.script, v.Reason)
	}
}

// fsCalls are the system calls that touch the file system.
var fsCalls = map[string]bool{
	"openat": true, "open": true, "close": true, "read": true, "pread64": true,
	"newfstatat": true, "fstat": true, "lstat": true, "stat": true, "statx": true,
	"readlinkat": true, "readlink": true, "getdents64": true, "faccessat": true, "faccessat2": true, "access": true,
}

func TestSyscallFloor(t *testing.T) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		if os.Getenv(requireEffectsEnv) != "" {
			t.Fatal("strace is needed to count the system calls of a Check (" + requireEffectsEnv + " is set): " + err.Error())
		}
		t.Skip("SKIP: no strace to count the system calls of a Check: " + err.Error())
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP: no git for the repository: " + err.Error())
	}
	dir := wsRepo(t)
	for _, f := range []string{"README.md", "src/a.go", "src/main.go"} {
		p := filepath.Join(dir, f)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte("// TODO\n"), 0o644))
	}
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-qm", "second")
	// Let the files age past the timestamp granularity, as a session's
	// workspace has: younger stamps are not trusted.
	time.Sleep(2100 * time.Millisecond)
	out := filepath.Join(t.TempDir(), "strace.out")
	if d := os.Getenv("TOOLGATE_SYSCALL_TRACE"); d != "" {
		out = d
	}
	cmd := exec.Command(strace, "-f", "-qq", "-o", out, os.Args[0], "-test.run", "^TestSyscallFloorHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), syscallHelperEnv+"="+dir)
	b, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", b)

	f, err := os.Open(out)
	require.NoError(t, err)
	defer f.Close()
	counts := map[int]int{}
	cur := -1
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if i := strings.Index(line, "toolgate-mark-"); i >= 0 {
			what, n, _ := strings.Cut(line[i+len("toolgate-mark-"):], "-")
			if j := strings.IndexFunc(n, func(r rune) bool { return r < '0' || r > '9' }); j >= 0 {
				n = n[:j]
			}
			k, _ := strconv.Atoi(n)
			if what == "begin" {
				cur = k
				counts[k] = 0
			} else {
				cur = -1
			}
			continue
		}
		if cur < 0 {
			continue
		}
		// "PID name(args) = ret" or "PID <... name resumed>"
		fields := strings.Fields(line)
		if len(fields) < 2 {
			continue
		}
		name, _, _ := strings.Cut(fields[1], "(")
		if fsCalls[name] {
			counts[cur]++
		}
	}
	require.NoError(t, sc.Err())
	depth := strings.Count(filepath.Clean(dir), "/")
	for i, tc := range syscallTable {
		floor := tc.floor(depth)
		n, ok := counts[i]
		require.True(t, ok, "%s: no judgement marked in the trace", tc.script)
		t.Logf("%-40s %3d file-system calls (first %d, second %d), floor %d (%s)", tc.script, n, counts[coldMark+i], counts[secondMark+i], floor, tc.why)
		if n > 2*floor {
			t.Errorf("%s: %d file-system calls per Check, over twice its floor of %d (%s)", tc.script, n, floor, tc.why)
		}
	}
}

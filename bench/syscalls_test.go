package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgate/toolgate/runtime"
)

// The system calls one Pipeline.Check of a Bash call makes, for each
// command of the table (testdata/commands.jsonl), counted by strace in a
// helper process over the front door's project: each command is checked
// three times in a session of its own, and the third Check, a session's
// later call, is counted (the first reads the workspace's facts, the
// second may replace the stamps of directories that have aged since, and
// has the facts watched where inotify is available). Only the calls that
// touch the file system count (the Go runtime's own, futex, mmap, signals,
// do not; nor do the polls of the guard's and the sandbox's watchers, at
// most one each before the first kept fact a call trusts, though a read of
// a watcher's queue, when something changed, does).
//
// Each command's floor (testdata/syscall_floors.jsonl) is the lstat/open
// its judgement needs: an lstat of each component of every path it
// reads or writes, the working directory's for a command that reads it,
// the stamps of the repository's facts for a git command, the open,
// listing and close of each directory a recursive read walks; as a*n+c,
// where n is the number of components of the project's directory. The
// test fails above twice the floor, unless the row says why its command
// is known to be above it (over): then it reports the figures, and fails
// once the command is within twice its floor, so that the mark goes.

const syscallsHelperEnv = "TOOLGATE_BENCH_SYSCALLS_DIR"

// floorRow is a command's floor: a*n+c calls, for why. Over, when set,
// says what makes the command known to be above twice its floor.
type floorRow struct {
	Command string `json:"command"`
	A       int    `json:"a"`
	C       int    `json:"c"`
	Why     string `json:"why"`
	Over    string `json:"over,omitempty"`
}

func loadFloors(t *testing.T) map[string]floorRow {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "syscall_floors.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	out := map[string]floorRow{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r floorRow
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		require.NoError(t, dec.Decode(&r), sc.Text())
		require.NotContains(t, out, r.Command, "a floor given twice")
		require.NotEmpty(t, r.Why, "%q: a floor says why", r.Command)
		out[r.Command] = r
	}
	require.NoError(t, sc.Err())
	return out
}

// syscallsMark opens a path that does not exist: strace shows it, and it
// marks where a Check begins and ends.
func syscallsMark(what string, i int) {
	f, err := os.Open("/nonexistent/toolgate-mark-" + what + "-" + strconv.Itoa(i))
	if err == nil {
		f.Close()
	}
}

// coldMark and secondMark number the marks of each command's first and
// second Checks, whose counts are logged, not held to the floor.
const (
	coldMark   = 1000
	secondMark = 2000
)

// TestCommandSyscallsHelper is the process strace watches; it does
// nothing unless TestCommandSyscalls starts it.
func TestCommandSyscallsHelper(t *testing.T) {
	tmp := os.Getenv(syscallsHelperEnv)
	if tmp == "" {
		t.Skip("SKIP: the helper of TestCommandSyscalls runs only under it")
	}
	f := openFrontDoor(t, tmp)
	ctx := context.Background()
	for i, c := range loadCommands(t) {
		id := fmt.Sprintf("s%d", i)
		in := f.session(t, id, c.Command)
		syscallsMark("begin", coldMark+i)
		f.p.Check(ctx, runtime.Call{Session: id, ID: "c0", Tool: "Bash", Input: in[0]})
		syscallsMark("end", coldMark+i)
		syscallsMark("begin", secondMark+i)
		f.p.Check(ctx, runtime.Call{Session: id, ID: "c1", Tool: "Bash", Input: in[1]})
		syscallsMark("end", secondMark+i)
		syscallsMark("begin", i)
		v := f.p.Check(ctx, runtime.Call{Session: id, ID: "c2", Tool: "Bash", Input: in[2]})
		syscallsMark("end", i)
		require.Equal(t, c.Toolgate, v.Decision.String(), "%q: %s", c.Command, v.Reason)
	}
}

// fsCalls are the system calls that touch the file system.
var fsCalls = map[string]bool{
	"openat": true, "open": true, "close": true, "read": true, "pread64": true,
	"newfstatat": true, "fstat": true, "lstat": true, "stat": true, "statx": true,
	"readlinkat": true, "readlink": true, "getdents64": true, "faccessat": true, "faccessat2": true, "access": true,
}

// countMarked counts the file-system calls between each pair of marks in
// an strace -f log.
func countMarked(t *testing.T, log string) map[int]int {
	t.Helper()
	f, err := os.Open(log)
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
		// "PID name(args) = ret", "PID name(args <unfinished ...>" or
		// "PID <... name resumed>": each call counts once, by its start.
		fields := strings.Fields(line)
		if len(fields) < 2 || strings.HasPrefix(fields[1], "<...") {
			continue
		}
		name, _, _ := strings.Cut(fields[1], "(")
		if fsCalls[name] {
			counts[cur]++
		}
	}
	require.NoError(t, sc.Err())
	return counts
}

func TestCommandSyscalls(t *testing.T) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("SKIP: NOT COUNTED: no strace to count the system calls of a Check: " + err.Error())
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP: NOT COUNTED: no git for the project: " + err.Error())
	}
	cmds := loadCommands(t)
	floors := loadFloors(t)
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	makeProject(t, tmp)
	// Let the files age past the timestamp granularity, as a session's
	// workspace has: younger stamps are not trusted.
	time.Sleep(2100 * time.Millisecond)
	out := filepath.Join(t.TempDir(), "strace.out")
	if d := os.Getenv("TOOLGATE_SYSCALL_TRACE"); d != "" {
		out = d
	}
	cmd := exec.Command(strace, "-f", "-qq", "-o", out, os.Args[0], "-test.run", "^TestCommandSyscallsHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), syscallsHelperEnv+"="+tmp)
	b, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", b)
	counts := countMarked(t, out)

	n := strings.Count(filepath.Join(tmp, "proj"), "/")
	for i, c := range cmds {
		got, ok := counts[i]
		require.True(t, ok, "%q: no Check marked in the trace", c.Command)
		fl, ok := floors[c.Command]
		if !assert.True(t, ok, "%q: no floor in testdata/syscall_floors.jsonl (%d file-system calls per Check)", c.Command, got) {
			continue
		}
		floor := fl.A*n + fl.C
		t.Logf("%-50q %3d file-system calls (first %3d, second %3d), floor %2d = %d×%d+%d (%s)", c.Command, got, counts[coldMark+i], counts[secondMark+i], floor, fl.A, n, fl.C, fl.Why)
		switch over := got > 2*floor; {
		case over && fl.Over == "":
			t.Errorf("%q: %d file-system calls per Check, over twice its floor of %d (%s)", c.Command, got, floor, fl.Why)
		case over:
			t.Logf("KNOWN OVER TWICE THE FLOOR: %q: %d file-system calls per Check, %.1f× its floor of %d: %s", c.Command, got, float64(got)/float64(floor), floor, fl.Over)
		case fl.Over != "":
			t.Errorf("%q: %d file-system calls per Check, within twice its floor of %d: remove the row's over mark (%s)", c.Command, got, floor, fl.Over)
		}
	}
}

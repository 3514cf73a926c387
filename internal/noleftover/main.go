//go:build linux

// Command noleftover runs a command, such as go test, and fails if
// anything it started outlives it: a process still running when it has
// ended, or a socket such a process listens on. .ci/run runs the tests
// under it, so that "go test starts no daemon it leaves behind" is
// checked, not only promised.
//
//	noleftover [-grace 10s] -- go test ./...
//
// It makes itself a child subreaper (PR_SET_CHILD_SUBREAPER): every
// process the command starts, however it detaches (a double fork, setsid,
// nohup), is reparented to it when its parent ends, never to init. So
// when the command has ended, the processes of the run still alive are
// exactly noleftover's descendants: no snapshot of the machine's process
// table is needed, and nothing else running on the machine is mistaken
// for a leftover. It waits up to -grace for them to end on their own, then
// lists each with its command line and the TCP and UNIX sockets it
// listens on, kills it, and exits with status 1 (or the command's status,
// if that failed).
//
// It also compares the listening sockets of the machine (/proc/net/tcp,
// tcp6, unix) before and after. A new one a leftover holds is listed with
// it; a new one held by a process outside the run is printed as such and
// does not fail the run, since the run did not start it.
//
// Linux only.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// exempt are the processes that may outlive the command, each by what
// shows it in its environment, and why.
var exempt = []struct{ env, why string }{
	{"X_TELEMETRY_CHILD=1", "the go command's telemetry child, which go itself detaches to process its counters; it ends on its own and listens on nothing"},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

func run(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("noleftover", flag.ContinueOnError)
	fs.SetOutput(stderr)
	grace := fs.Duration("grace", 10*time.Second, "how long the run's processes may take to end after the command")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: noleftover [-grace d] -- command [arg...]")
		return 2
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		fmt.Fprintf(stderr, "noleftover: cannot become a child subreaper: %v\n", err)
		return 2
	}
	before := listeners()
	status, err := start(fs.Args())
	if err != nil {
		fmt.Fprintf(stderr, "noleftover: %v\n", err)
		return 2
	}
	left := wait(*grace)
	after := listeners()
	owners := socketOwners()
	failed := false
	for _, p := range left {
		if why := exemptWhy(p); why != "" {
			fmt.Fprintf(stderr, "noleftover: pid %d (%s) outlives the run, allowed: %s\n", p, cmdline(p), why)
			continue
		}
		failed = true
		var socks []string
		for inode, desc := range after {
			if slices.Contains(owners[inode], p) {
				socks = append(socks, desc)
			}
		}
		slices.Sort(socks)
		fmt.Fprintf(stderr, "noleftover: pid %d (%s) outlived the run by %v, listening on [%s]: killed\n",
			p, cmdline(p), *grace, strings.Join(socks, ", "))
		_ = syscall.Kill(p, syscall.SIGKILL)
	}
	for _, d := range newListeners(before, after) {
		mine := false
		for inode, desc := range after {
			if desc == d {
				for _, p := range owners[inode] {
					mine = mine || slices.Contains(left, p)
				}
			}
		}
		if !mine {
			fmt.Fprintf(stderr, "noleftover: %s is listening now and was not before, held by no process of the run: not counted\n", d)
		}
	}
	reap()
	if failed {
		fmt.Fprintln(stderr, "noleftover: the run left processes behind (above): a test must stop what it starts, and use what .ci/setup prepared for the rest")
		if status == 0 {
			return 1
		}
	}
	return status
}

// start runs the command to its end, forwarding SIGINT and SIGTERM, and
// returns its exit status. The orphans that end meanwhile are reaped.
func start(argv []string) (int, error) {
	path := argv[0]
	if !strings.Contains(path, "/") {
		p, err := lookPath(path)
		if err != nil {
			return 0, err
		}
		path = p
	}
	proc, err := os.StartProcess(path, argv, &os.ProcAttr{Files: []*os.File{os.Stdin, os.Stdout, os.Stderr}})
	if err != nil {
		return 0, err
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		for s := range sigs {
			_ = proc.Signal(s)
		}
	}()
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, 0, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("wait: %w", err)
		}
		if pid == proc.Pid {
			if ws.Signaled() {
				return 128 + int(ws.Signal()), nil
			}
			return ws.ExitStatus(), nil
		}
	}
}

func lookPath(name string) (string, error) {
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: not found on PATH", name)
}

// wait gives the run's remaining processes up to grace to end, reaping
// them, and returns those still alive.
func wait(grace time.Duration) []int {
	deadline := time.Now().Add(grace)
	for {
		reap()
		left := descendants()
		if len(left) == 0 || time.Now().After(deadline) || onlyExempt(left) {
			return left
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func onlyExempt(pids []int) bool {
	for _, p := range pids {
		if exemptWhy(p) == "" {
			return false
		}
	}
	return true
}

// reap collects every child that has ended.
func reap() {
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		if pid <= 0 || err != nil {
			return
		}
	}
}

// descendants are noleftover's living descendants, from /proc.
func descendants() []int {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
		if len(f) < 2 || f[0] == "Z" {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		children[ppid] = append(children[ppid], pid)
	}
	var out []int
	queue := []int{os.Getpid()}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	slices.Sort(out)
	return out
}

func exemptWhy(pid int) string {
	env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		return ""
	}
	vars := strings.Split(string(env), "\x00")
	for _, e := range exempt {
		if slices.Contains(vars, e.env) {
			return e.why
		}
	}
	return ""
}

func cmdline(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " "))
}

// listeners are the machine's listening sockets, by inode: "tcp
// 127.0.0.1:54329", "unix /tmp/x.sock".
func listeners() map[string]string {
	out := map[string]string{}
	for _, file := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		for _, f := range table(file) {
			// sl local rem st ... inode (the 10th field)
			if len(f) >= 10 && f[3] == "0A" {
				out[f[9]] = "tcp " + hexAddr(f[1])
			}
		}
	}
	for _, f := range table("/proc/net/unix") {
		// Num RefCount Protocol Flags Type St Inode [Path]; a listener
		// has __SO_ACCEPTCON (00010000) in Flags.
		if len(f) >= 7 && f[3] == "00010000" {
			path := "(unnamed)"
			if len(f) >= 8 {
				path = f[7]
			}
			out[f[6]] = "unix " + path
		}
	}
	return out
}

func table(file string) [][]string {
	fh, err := os.Open(file)
	if err != nil {
		return nil
	}
	defer fh.Close()
	var rows [][]string
	sc := bufio.NewScanner(fh)
	sc.Scan() // the heading
	for sc.Scan() {
		rows = append(rows, strings.Fields(sc.Text()))
	}
	return rows
}

// hexAddr turns /proc/net/tcp's "0100007F:D531" into "127.0.0.1:54577"
// (IPv6 stays in hex: only equality matters here).
func hexAddr(s string) string {
	ip, port, _ := strings.Cut(s, ":")
	p, _ := strconv.ParseUint(port, 16, 16)
	if len(ip) == 8 {
		n, _ := strconv.ParseUint(ip, 16, 32)
		return fmt.Sprintf("%d.%d.%d.%d:%d", byte(n), byte(n>>8), byte(n>>16), byte(n>>24), p)
	}
	return fmt.Sprintf("[%s]:%d", ip, p)
}

// socketOwners maps a socket's inode to the processes holding it.
func socketOwners() map[string][]int {
	out := map[string][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		fds, _ := os.ReadDir("/proc/" + e.Name() + "/fd")
		for _, fd := range fds {
			l, err := os.Readlink("/proc/" + e.Name() + "/fd/" + fd.Name())
			if inode, ok := strings.CutPrefix(l, "socket:["); err == nil && ok {
				inode = strings.TrimSuffix(inode, "]")
				if !slices.Contains(out[inode], pid) {
					out[inode] = append(out[inode], pid)
				}
			}
		}
	}
	return out
}

// newListeners are the descriptions listening after and not before.
func newListeners(before, after map[string]string) []string {
	was := map[string]bool{}
	for _, d := range before {
		was[d] = true
	}
	var out []string
	for _, d := range after {
		if !was[d] && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	slices.Sort(out)
	return out
}

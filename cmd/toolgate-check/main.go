// Command toolgate-check is "toolgate check" for a hook that runs once per
// tool call: the same arguments, the same event on standard input, the
// same answer, from a warm process.
//
// A hook command is a new process for every call, and starting the whole
// toolgate binary is most of a call's time. toolgate-check is small: it
// hands its arguments, standard input, environment and working directory
// to a "toolgate check" process already running for this user, this
// binary, this environment and this directory (over a UNIX socket in a
// directory only the user may enter), and prints its answer. When there
// is none, it starts one for the next call and runs the check itself by
// executing "toolgate check". Whatever goes wrong on the way (no socket,
// a peer of another user, a process that refuses the call, a broken
// answer), it executes "toolgate check" with the same input: the warm
// process saves a start, it never decides differently.
//
// toolgate-check runs the toolgate binary beside it (go install
// github.com/toolgate/toolgate/cmd/...@latest installs both). Set
// TOOLGATE_WARM=off to run every call in a process of its own.
//
// Usage, as the command of Claude Code's hooks:
//
//	toolgate-check [--settings FILE]... [--managed FILE] [--state-dir DIR]
package main

import (
	"io"
	"os"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/toolgate/toolgate/internal/warm"
)

func main() {
	bin, err := beside("toolgate")
	if err != nil {
		fail("cannot find the toolgate binary beside toolgate-check: " + err.Error())
	}
	env := os.Environ()
	if os.Getenv("TOOLGATE_WARM") == "off" {
		runWhole(bin, env, nil)
	}
	input, err := readInput()
	if err != nil {
		fail("cannot read the hook event: " + err.Error())
	}
	if a, ok := ask(bin, env, input); ok {
		_, _ = os.Stdout.Write(a.Stdout)
		_, _ = os.Stderr.Write(a.Stderr)
		os.Exit(a.Code)
	}
	runWhole(bin, env, input)
}

// ask hands the call to the warm process for it, starting one for the
// next call when there is none; false means the call is to be run here.
func ask(bin string, env []string, input []byte) (*warm.Answer, bool) {
	dir := warm.Dir(os.Getenv)
	if dir == "" || !warm.Private(dir) && !makePrivate(dir) {
		return nil, false
	}
	req := &warm.Request{Bin: bin, Env: env, Args: os.Args[1:], Input: input}
	var err error
	if req.BinID, err = warm.Stat(bin); err != nil {
		return nil, false
	}
	if req.Dir, err = syscall.Getwd(); err != nil {
		return nil, false
	}
	if req.DirID, err = warm.DirStat("."); err != nil {
		return nil, false
	}
	key := warm.Key(req)
	sock, ok := warm.Socket(dir, key)
	if !ok {
		return nil, false
	}
	a, err := call(sock, req)
	if err == syscall.ENOENT || err == syscall.ECONNREFUSED {
		start(bin, env, dir, key)
	}
	return a, err == nil
}

// call sends req to the socket and reads the answer, from a peer of this
// user only.
func call(sock string, req *warm.Request) (*warm.Answer, error) {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	if err := syscall.Connect(fd, &syscall.SockaddrUnix{Name: sock}); err != nil {
		return nil, err
	}
	cred, err := syscall.GetsockoptUcred(fd, syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	if err != nil || cred.Uid != uint32(os.Geteuid()) {
		return nil, syscall.EPERM
	}
	// A bound on a process that hangs: the whole binary runs instead.
	tv := syscall.Timeval{Sec: 60}
	_ = syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv)
	_ = syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_SNDTIMEO, &tv)
	msg := warm.AppendRequest(nil, req)
	for len(msg) > 0 {
		n, err := syscall.Write(fd, msg)
		if err != nil {
			return nil, err
		}
		msg = msg[n:]
	}
	return warm.ReadAnswer(fdReader(fd))
}

// fdReader reads a descriptor with read(2).
type fdReader int

func (r fdReader) Read(p []byte) (int, error) {
	n, err := syscall.Read(int(r), p)
	if err != nil {
		return 0, err
	}
	if n == 0 && len(p) > 0 {
		return 0, syscall.EPIPE
	}
	return n, nil
}

// start starts the warm process for key, detached in a session of its
// own with nothing open but /dev/null, for the next call. The process
// takes a lock on its key and leaves at once if one holds it already.
func start(bin string, env []string, dir, key string) {
	null, err := os.OpenFile("/dev/null", os.O_RDWR, 0)
	if err != nil {
		return
	}
	defer null.Close()
	fd := null.Fd()
	_, _ = syscall.ForkExec(bin, []string{"toolgate", "warm", dir, key}, &syscall.ProcAttr{
		Env:   env,
		Files: []uintptr{fd, fd, fd},
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
}

// runWhole executes "toolgate check" with this call's arguments, the
// input already read (when not nil) given again as its standard input.
func runWhole(bin string, env []string, input []byte) {
	if input != nil {
		if err := inputAsStdin(input); err != nil {
			fail("cannot pass the hook event on: " + err.Error())
		}
	}
	argv := append([]string{"toolgate", "check"}, os.Args[1:]...)
	err := syscall.Exec(bin, argv, env)
	fail("cannot run " + bin + ": " + err.Error())
}

// inputAsStdin makes a memory file holding input the standard input.
func inputAsStdin(input []byte) error {
	fd, err := unix.MemfdCreate("toolgate-check", 0)
	if err != nil {
		return err
	}
	for p := input; len(p) > 0; {
		n, err := syscall.Write(fd, p)
		if err != nil {
			return err
		}
		p = p[n:]
	}
	if _, err := syscall.Seek(fd, 0, 0); err != nil {
		return err
	}
	if err := syscall.Dup2(fd, 0); err != nil {
		return err
	}
	return syscall.Close(fd)
}

// readInput reads standard input up to warm.MaxInput bytes: one byte
// more than toolgate check takes, so that it refuses a larger event as
// it would from its own input.
func readInput() ([]byte, error) {
	buf := make([]byte, 0, 64<<10)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		end := min(cap(buf), warm.MaxInput)
		if len(buf) == end {
			return buf, nil
		}
		n, err := os.Stdin.Read(buf[len(buf):end])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// beside returns the path of the program name in this program's
// directory.
func beside(name string) (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	for i := len(self) - 1; i >= 0; i-- {
		if self[i] == '/' {
			return self[:i+1] + name, nil
		}
	}
	return "", syscall.ENOENT
}

// makePrivate makes the socket directory, its parent included, for this
// user alone, and reports whether it is private now.
func makePrivate(dir string) bool {
	for i := len(dir) - 1; i > 0; i-- {
		if dir[i] == '/' {
			_ = os.MkdirAll(dir[:i], 0o700)
			break
		}
	}
	_ = syscall.Mkdir(dir, 0o700)
	return warm.Private(dir)
}

// fail writes why to standard error and exits with status 2, which
// Claude Code, Codex and Gemini CLI take as a refusal of the call.
func fail(why string) {
	os.Stderr.WriteString("toolgate-check: " + why + "\n")
	os.Exit(2)
}

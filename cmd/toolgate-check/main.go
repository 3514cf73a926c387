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
	"syscall"
	"unsafe"

	"github.com/toolgate/toolgate/internal/warm"
)

// toolgate-check imports no package above syscall (not os, whose start-up
// and size cost a tenth of a hello-world's run, nor golang.org/x/sys/unix,
// which brings reflect and time): it reads its arguments from
// /proc/self/cmdline and its streams with read(2) and write(2).

func main() {
	args, err := cmdline()
	if err != nil {
		fail("cannot read the command line: " + err.Error())
	}
	bin, err := beside("toolgate")
	if err != nil {
		fail("cannot find the toolgate binary beside toolgate-check: " + err.Error())
	}
	env := syscall.Environ()
	if v, _ := syscall.Getenv("TOOLGATE_WARM"); v == "off" {
		runWhole(bin, args, env, nil)
	}
	input, err := readInput()
	if err != nil {
		fail("cannot read the hook event: " + err.Error())
	}
	if a, ok := ask(bin, args, env, input); ok {
		writeAll(1, a.Stdout)
		writeAll(2, a.Stderr)
		syscall.Exit(a.Code)
	}
	runWhole(bin, args, env, input)
}

// cmdline returns the arguments after the program's name, as the kernel
// keeps them in /proc/self/cmdline.
func cmdline() ([]string, error) {
	fd, err := syscall.Open("/proc/self/cmdline", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	var b []byte
	buf := make([]byte, 4096)
	for {
		n, err := syscall.Read(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n == 0 {
			break
		}
		b = append(b, buf[:n]...)
	}
	var args []string
	for start, i := 0, 0; i < len(b); i++ {
		if b[i] == 0 {
			args = append(args, string(b[start:i]))
			start = i + 1
		}
	}
	if len(args) == 0 {
		return nil, syscall.EINVAL
	}
	return args[1:], nil
}

// ask hands the call to the warm process for it, starting one for the
// next call when there is none; false means the call is to be run here.
func ask(bin string, args, env []string, input []byte) (*warm.Answer, bool) {
	dir := warm.Dir(getenv)
	if dir == "" || !warm.Private(dir) && !makePrivate(dir) {
		return nil, false
	}
	req := &warm.Request{Bin: bin, Env: env, Args: args, Input: input}
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

// getenv is the value of the variable key, "" when unset.
func getenv(key string) string {
	v, _ := syscall.Getenv(key)
	return v
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
	if err != nil || cred.Uid != uint32(syscall.Geteuid()) {
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
	null, err := syscall.Open("/dev/null", syscall.O_RDWR|syscall.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	defer syscall.Close(null)
	fd := uintptr(null)
	_, _ = syscall.ForkExec(bin, []string{"toolgate", "warm", dir, key}, &syscall.ProcAttr{
		Env:   env,
		Files: []uintptr{fd, fd, fd},
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
}

// runWhole executes "toolgate check" with this call's arguments, the
// input already read (when not nil) given again as its standard input.
func runWhole(bin string, args, env []string, input []byte) {
	if input != nil {
		if err := inputAsStdin(input); err != nil {
			fail("cannot pass the hook event on: " + err.Error())
		}
	}
	argv := append([]string{"toolgate", "check"}, args...)
	err := syscall.Exec(bin, argv, env)
	fail("cannot run " + bin + ": " + err.Error())
}

// inputAsStdin makes a memory file holding input the standard input.
func inputAsStdin(input []byte) error {
	name := []byte("toolgate-check\x00")
	r, _, errno := syscall.Syscall(sysMemfdCreate, uintptr(unsafe.Pointer(&name[0])), 0, 0)
	if errno != 0 {
		return errno
	}
	fd := int(r)
	for p := input; len(p) > 0; {
		n, err := syscall.Write(fd, p)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		p = p[n:]
	}
	if _, err := syscall.Seek(fd, 0, 0); err != nil {
		return err
	}
	if fd == 0 {
		return nil // standard input was closed: the memory file took its place
	}
	if err := syscall.Dup3(fd, 0, 0); err != nil {
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
		n, err := syscall.Read(0, buf[len(buf):end])
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			// A standard input left non-blocking: wait until it is
			// readable.
			waitFor(0, false)
			continue
		case err != nil:
			return nil, err
		case n == 0:
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}

// writeAll writes p to the descriptor fd whole, as far as it can.
func writeAll(fd int, p []byte) {
	for len(p) > 0 {
		n, err := syscall.Write(fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			waitFor(fd, true)
			continue
		case err != nil || n <= 0:
			return
		}
		p = p[n:]
	}
}

// waitFor waits until the descriptor fd is writable (or readable), for
// a stream the parent left non-blocking.
func waitFor(fd int, write bool) {
	var set syscall.FdSet
	set.Bits[fd/64] |= 1 << (uint(fd) % 64)
	if write {
		_, _ = syscall.Select(fd+1, nil, &set, nil, nil)
	} else {
		_, _ = syscall.Select(fd+1, &set, nil, nil, nil)
	}
}

// beside returns the path of the program name in this program's
// directory.
func beside(name string) (string, error) {
	buf := make([]byte, 4096)
	n, err := syscall.Readlink("/proc/self/exe", buf)
	if err != nil {
		return "", err
	}
	self := string(buf[:n])
	for i := len(self) - 1; i >= 0; i-- {
		if self[i] == '/' {
			return self[:i+1] + name, nil
		}
	}
	return "", syscall.ENOENT
}

// makePrivate makes the socket directory, its parents included, for
// this user alone, and reports whether it is private now.
func makePrivate(dir string) bool {
	for i := 1; i < len(dir); i++ {
		if dir[i] == '/' {
			_ = syscall.Mkdir(dir[:i], 0o700)
		}
	}
	_ = syscall.Mkdir(dir, 0o700)
	return warm.Private(dir)
}

// fail writes why to standard error and exits with status 2, which
// Claude Code, Codex and Gemini CLI take as a refusal of the call.
func fail(why string) {
	writeAll(2, []byte("toolgate-check: "+why+"\n"))
	syscall.Exit(2)
}

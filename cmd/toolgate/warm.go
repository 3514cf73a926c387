package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/toolgate/toolgate/internal/warm"
)

// How long a warm process lives: it leaves after warmIdle without a
// call, and after warmLife in any case, and gives a client warmRead to
// send its call.
const (
	warmIdle = 10 * time.Minute
	warmLife = 8 * time.Hour
	warmRead = 5 * time.Second
	warmTick = time.Second
)

// warmNamespaces are the namespaces a peer shares with the warm process,
// or is refused: a command toolgate confines runs in new ones, and must
// not have the unconfined process judge (and record) calls for it.
var warmNamespaces = []string{"user", "mnt", "pid", "net"}

// runWarm is "toolgate warm DIR KEY", the warm process toolgate-check
// starts: it answers "toolgate check" calls on the socket for KEY in
// DIR, one at a time, for peers of this user in these namespaces whose
// binary, working directory and environment are this process's own.
// It leaves when another process holds KEY, when DIR holds
// warm.MaxServers sockets already, and when idle.
func runWarm(args []string, e env) int {
	if len(args) != 2 || wantsHelp(args) {
		fmt.Fprintf(e.stderr, "usage: %s\n", synopses["warm"])
		return 2
	}
	dir, key := args[0], args[1]
	srv, err := newWarmServer(key, e)
	if err != nil {
		fmt.Fprintf(e.stderr, "toolgate warm: %v\n", err)
		return 1
	}
	ln, closeLn, err := warmListen(dir, key)
	if err != nil {
		fmt.Fprintf(e.stderr, "toolgate warm: %v\n", err)
		return 1
	}
	if ln < 0 {
		return 0 // another process answers for key, or there are enough
	}
	defer closeLn()
	// A signal to leave is obeyed at once, or when the call being
	// answered is, with the socket removed.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, unix.SIGTERM, unix.SIGINT, unix.SIGHUP)
	go func() {
		<-sig
		srv.mu.Lock()
		closeLn()
		os.Exit(0)
	}()
	srv.serve(ln, time.Now().Add(warmLife), nil)
	return 0
}

// warmListen takes the lock of key in dir and listens on its socket,
// returning the listening descriptor and what closes it, the socket
// removed, and the lock. It returns -1, and no error, when another
// process holds the lock or dir holds warm.MaxServers sockets.
func warmListen(dir, key string) (int, func(), error) {
	if !warm.Private(dir) {
		return -1, nil, fmt.Errorf("%s is not a directory of this user's alone", dir)
	}
	sock, ok := warm.Socket(dir, key)
	if !ok || key == "" || strings.ContainsAny(key, "/.") {
		return -1, nil, fmt.Errorf("bad key %q", key)
	}
	lock, err := unix.Open(filepath.Join(dir, key+".lock"), unix.O_RDWR|unix.O_CREAT|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return -1, nil, err
	}
	if err := unix.Flock(lock, unix.LOCK_EX|unix.LOCK_NB); err != nil {
		_ = unix.Close(lock)
		return -1, nil, nil
	}
	_ = os.Remove(sock) // a socket left by a process that died: the lock is ours
	if warmLive(dir) >= warm.MaxServers {
		_ = unix.Close(lock)
		return -1, nil, nil
	}
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err == nil {
		if err = unix.Bind(fd, &unix.SockaddrUnix{Name: sock}); err == nil {
			err = unix.Listen(fd, 16)
		}
		if err != nil {
			_ = unix.Close(fd)
		}
	}
	if err != nil {
		_ = unix.Close(lock)
		return -1, nil, err
	}
	return fd, func() {
		_ = os.Remove(sock)
		_ = unix.Close(fd)
		_ = unix.Close(lock)
	}, nil
}

// warmLive counts the sockets in dir whose process still holds its
// lock, and removes those of processes that died, and locks without a
// socket unused for a day (a binary or environment of the past).
func warmLive(dir string) int {
	locks, _ := filepath.Glob(filepath.Join(dir, "*.lock"))
	for _, l := range locks {
		st, err := os.Lstat(l)
		if err == nil && time.Since(st.ModTime()) > 24*time.Hour {
			if _, err := os.Lstat(strings.TrimSuffix(l, ".lock") + ".sock"); os.IsNotExist(err) {
				_ = os.Remove(l)
			}
		}
	}
	socks, _ := filepath.Glob(filepath.Join(dir, "*.sock"))
	live := 0
	for _, sock := range socks {
		lock, err := unix.Open(strings.TrimSuffix(sock, ".sock")+".lock", unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			live++ // a socket without a lock is not ours to judge: count it
			continue
		}
		if unix.Flock(lock, unix.LOCK_EX|unix.LOCK_NB) == nil {
			_ = os.Remove(sock) // its process died; its lock is free
		} else {
			live++
		}
		_ = unix.Close(lock)
	}
	return live
}

// warmServer is a warm process's identity, as a call must match it, and
// the check it runs.
type warmServer struct {
	// mu is held while a call is answered.
	mu    sync.Mutex
	key   string
	bin   warm.FileID
	dir   string
	dirID warm.FileID
	env   []string
	ns    []string
	e     env
	// check runs one call: runCheck, or a test's stand-in.
	check func(args []string, e env) int
	// cache is what the calls keep for the next (warmcache.go).
	cache warmCache
}

// newWarmServer records this process's identity: its binary, working
// directory, environment and namespaces.
func newWarmServer(key string, e env) (*warmServer, error) {
	s := &warmServer{key: key, env: os.Environ(), e: e, check: runCheck}
	var err error
	if s.bin, err = warm.Stat("/proc/self/exe"); err != nil {
		return nil, err
	}
	// The kernel's name of the directory, as the client reads it (not
	// os.Getwd, which may answer $PWD).
	if s.dir, err = syscall.Getwd(); err != nil {
		return nil, err
	}
	if s.dirID, err = warm.DirStat("."); err != nil {
		return nil, err
	}
	if s.ns, err = namespacesOf("self"); err != nil {
		return nil, err
	}
	return s, nil
}

// namespacesOf reads the namespace links of the process pid ("self" for
// this one).
func namespacesOf(pid string) ([]string, error) {
	ns := make([]string, len(warmNamespaces))
	for i, n := range warmNamespaces {
		l, err := os.Readlink("/proc/" + pid + "/ns/" + n)
		if err != nil {
			return nil, err
		}
		ns[i] = l
	}
	return ns, nil
}

// serve answers calls on the listening descriptor ln, one at a time,
// until it is idle for warmIdle, the deadline passes or stop (when not
// nil) receives.
func (s *warmServer) serve(ln int, until time.Time, stop <-chan os.Signal) {
	idleUntil := time.Now().Add(warmIdle)
	for {
		select {
		case <-stop:
			return
		default:
		}
		now, end := time.Now(), idleUntil
		if until.Before(end) {
			end = until
		}
		if !now.Before(end) {
			return
		}
		// Polls of at most warmTick, so that a signal is seen within one.
		fds := []unix.PollFd{{Fd: int32(ln), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, int(min(end.Sub(now), warmTick).Milliseconds())+1)
		if err == unix.EINTR || err == nil && n == 0 {
			continue
		}
		if err != nil {
			return
		}
		c, _, err := unix.Accept4(ln, unix.SOCK_CLOEXEC)
		if err != nil {
			continue
		}
		s.mu.Lock()
		s.answer(c)
		s.mu.Unlock()
		_ = unix.Close(c)
		idleUntil = time.Now().Add(warmIdle)
	}
}

// answer answers one connection: the call is run only when the peer and
// the request are this process's own (peerAllowed, refuse); otherwise
// the connection is closed unanswered and the client runs the check
// itself.
func (s *warmServer) answer(c int) {
	cred, err := unix.GetsockoptUcred(c, unix.SOL_SOCKET, unix.SO_PEERCRED)
	if err != nil || s.peerAllowed(cred) != nil {
		return
	}
	tv := unix.NsecToTimeval(warmRead.Nanoseconds())
	_ = unix.SetsockoptTimeval(c, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv)
	_ = unix.SetsockoptTimeval(c, unix.SOL_SOCKET, unix.SO_SNDTIMEO, &tv)
	req, err := warm.ReadRequest(fdConn(c))
	if err != nil || s.refuse(req) != nil {
		return
	}
	var out, errb bytes.Buffer
	code := s.check(req.Args, env{stdin: bytes.NewReader(req.Input), stdout: &out, stderr: &errb, getenv: s.e.getenv, warm: &s.cache})
	msg := warm.AppendAnswer(nil, &warm.Answer{Code: code, Stdout: out.Bytes(), Stderr: errb.Bytes()})
	for len(msg) > 0 {
		n, err := unix.Write(c, msg)
		if err != nil {
			return
		}
		msg = msg[n:]
	}
}

// fdConn reads a connected socket with read(2); the end of the stream
// before a message is whole is an error.
type fdConn int

func (c fdConn) Read(p []byte) (int, error) {
	n, err := unix.Read(int(c), p)
	if err != nil {
		return 0, err
	}
	if n == 0 && len(p) > 0 {
		return 0, unix.EPIPE
	}
	return n, nil
}

// errWarmRefused is why a warm process does not answer a call.
var errWarmRefused = errors.New("not this warm process's call")

// peerAllowed returns an error unless cred names a process of this user
// in this process's namespaces.
func (s *warmServer) peerAllowed(cred *unix.Ucred) error {
	if int(cred.Uid) != os.Geteuid() || cred.Pid <= 0 {
		return errWarmRefused
	}
	ns, err := namespacesOf(fmt.Sprint(cred.Pid))
	if err != nil || !slices.Equal(ns, s.ns) {
		return errWarmRefused
	}
	return nil
}

// refuse returns an error unless req is a call this process answers
// exactly as a process of its own would: the same key, binary, working
// directory and environment.
func (s *warmServer) refuse(req *warm.Request) error {
	if warm.Key(req) != s.key || req.BinID != s.bin || req.Dir != s.dir || req.DirID != s.dirID ||
		!slices.Equal(req.Env, s.env) {
		return errWarmRefused
	}
	// The working directory is still the one this process stands in.
	if id, err := warm.DirStat("."); err != nil || id != s.dirID {
		return errWarmRefused
	}
	return nil
}

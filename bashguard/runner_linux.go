//go:build linux

package bashguard

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// runDrainGrace is how long Run keeps reading output after every process
// of the command is gone; only a process that escaped the kill can keep
// the pipe open that long.
const runDrainGrace = 2 * time.Second

// runLimitScript runs first, in the outer bash: it sets RLIMIT_NPROC (soft
// and hard) and replaces itself with "bash -c command", so that the
// command is parsed exactly as bash -c would parse it. $0 is the bash
// path and $1 the command; neither is ever part of the script text.
const runLimitScript = `ulimit -u %d || exit 126; exec "$0" -c "$1"`

// runCommand starts bash, waits for the command, a timeout or ctx, and
// then kills whatever is left.
func runCommand(ctx context.Context, c runConfig, command string) (RunResult, error) {
	token, err := runToken()
	if err != nil {
		return RunResult{}, err
	}
	env := append(c.env[:len(c.env):len(c.env)], runMarkerEnv+"="+token)
	procs := runProcLimit(c.maxProcs)

	pr, pw, err := os.Pipe()
	if err != nil {
		return RunResult{}, fmt.Errorf("bashguard: run: %w", err)
	}
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if cr := c.credential; cr != nil {
		groups := cr.Groups
		if groups == nil {
			groups = []uint32{}
		}
		attr.Credential = &syscall.Credential{Uid: cr.UID, Gid: cr.GID, Groups: groups}
	}
	cmd := &exec.Cmd{
		Path: c.bash,
		Args: []string{c.bash, "-c", fmt.Sprintf(runLimitScript, procs), c.bash, command},
		Dir:  c.dir,
		Env:  env,
		// Stdin stays nil: the child reads /dev/null.
		Stdout:      pw,
		Stderr:      pw,
		SysProcAttr: attr,
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		pr.Close()
		pw.Close()
		return RunResult{}, fmt.Errorf("bashguard: run: start %s: %w", c.bash, err)
	}
	pw.Close()
	pid := cmd.Process.Pid

	out := newRunOutput(c.maxOutput)
	read := make(chan struct{})
	go func() {
		defer close(read)
		out.readFrom(pr)
	}()
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		runWaitExited(pid)
	}()

	timer := time.NewTimer(c.timeout)
	defer timer.Stop()
	var res RunResult
	select {
	case <-exited:
	case <-timer.C:
		res.TimedOut = true
	case <-ctx.Done():
		res.Cancelled = true
	}
	// bash is not reaped yet (runWaitExited leaves it a zombie), so its
	// process ID still names the process group and cannot be reused.
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	<-exited
	runSweep(pid, token)
	waitErr := cmd.Wait()
	res.ExitCode = runExitCode(cmd.ProcessState, waitErr)

	_ = pr.SetReadDeadline(time.Now().Add(runDrainGrace))
	<-read
	pr.Close()
	res.Elapsed = time.Since(start)
	res.Output, res.Truncated, res.CutChars = out.result()
	if res.Cancelled {
		return res, ctx.Err()
	}
	return res, nil
}

// runToken returns a random token that marks the processes of one run.
func runToken() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("bashguard: run: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// runProcLimit returns n, or the host's hard RLIMIT_NPROC when that is
// lower (an unprivileged process cannot raise it, and a child inherits
// it).
func runProcLimit(n int) int {
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NPROC, &lim); err == nil && lim.Max != unix.RLIM_INFINITY && lim.Max < uint64(n) {
		return int(lim.Max)
	}
	return n
}

// runWaitExited blocks until process pid has ended, without reaping it.
func runWaitExited(pid int) {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if !errors.Is(err, unix.EINTR) {
			return
		}
	}
}

// runExitCode returns the exit status as bash reports it: the status, or
// 128+N after signal N.
func runExitCode(ps *os.ProcessState, err error) int {
	if ps == nil {
		return -1
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

// runSweep kills, with SIGKILL, every live process that is in process
// group pgid or whose environment carries token, and scans /proc again
// until a scan finds none. A process that was killed but has not yet
// finished dying is found again and killed again, which is harmless.
func runSweep(pgid int, token string) {
	needle := []byte("\x00" + runMarkerEnv + "=" + token + "\x00")
	self := os.Getpid()
	for round := range 200 {
		if runSweepOnce(pgid, needle, self) == 0 {
			return
		}
		time.Sleep(time.Duration(min(round+1, 20)) * time.Millisecond)
	}
}

// runSweepOnce kills the processes it finds and returns how many.
func runSweepOnce(pgid int, needle []byte, self int) int {
	d, err := os.Open("/proc")
	if err != nil {
		return 0
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	found := 0
	env := make([]byte, 0, 4096)
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil || pid <= 1 || pid == self {
			continue
		}
		state, group, ok := runProcStat(pid)
		if !ok || state == 'Z' || state == 'X' || state == 'x' {
			continue
		}
		if group == pgid {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			found++
			continue
		}
		// Every entry of environ ends in a NUL; a leading NUL makes the
		// first entry match like the others.
		env = runReadFile("/proc/"+name+"/environ", append(env[:0], 0))
		if bytes.Contains(env, needle) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			found++
		}
	}
	return found
}

// runProcStat reads the state and process group of pid from
// /proc/pid/stat.
func runProcStat(pid int) (state byte, pgid int, ok bool) {
	var buf [512]byte
	b := runReadFile("/proc/"+strconv.Itoa(pid)+"/stat", buf[:0])
	// "pid (comm) state ppid pgrp ...": comm may hold spaces and ")".
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return 0, 0, false
	}
	fields := bytes.Fields(b[i+2:])
	if len(fields) < 3 || len(fields[0]) != 1 {
		return 0, 0, false
	}
	g, err := strconv.Atoi(string(fields[2]))
	if err != nil {
		return 0, 0, false
	}
	return fields[0][0], g, true
}

// runReadFile appends the contents of a /proc file to buf; errors give
// what was read so far (nothing, for a process that is gone).
func runReadFile(path string, buf []byte) []byte {
	f, err := os.Open(path)
	if err != nil {
		return buf
	}
	defer f.Close()
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err != nil || n == 0 {
			return buf
		}
	}
}

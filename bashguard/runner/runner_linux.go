//go:build linux

package runner

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
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
const runLimitScript = `ulimit -u %d -t %s -d %s -f %s || exit 126; exec "$0" -c "$1"`

// runCommand decides the command's confinement, starts it, waits for the
// command, a timeout or ctx, and then kills whatever is left.
func runCommand(ctx context.Context, c runConfig, command string) (Result, error) {
	if _, err := os.Stat(c.bash); err != nil {
		return Result{}, fmt.Errorf("runner: run: start %s: %w", c.bash, err)
	}
	support := confineAvailable(c)
	if support.abi == 0 {
		lvl := ConfineLevel{Reason: support.reason}
		if c.confine.Fallback != ConfineRunUnconfined {
			lvl.Reason += "; the command was refused"
			return Result{ExitCode: -1, Confined: lvl},
				fmt.Errorf("%w: %s (Confinement.Fallback is %v)", ErrConfineUnavailable, support.reason, c.confine.Fallback)
		}
		lvl.Reason += "; the command ran unconfined"
		if l := c.confine.Logger; l != nil {
			l.LogAttrs(ctx, slog.LevelWarn, "runner: running a command without kernel confinement",
				slog.String("reason", support.reason), slog.String("dir", c.dir))
		}
		res, err := runStart(ctx, c, command, nil, nil, nil)
		res.Confined = lvl
		return res, err
	}

	tmp, err := os.MkdirTemp("", "toolgate-run-")
	if err != nil {
		return Result{ExitCode: -1}, fmt.Errorf("%w: private temporary directory: %w", ErrConfineFailed, err)
	}
	defer os.RemoveAll(tmp)
	if tmp, err = filepath.EvalSymlinks(tmp); err != nil {
		return Result{ExitCode: -1}, fmt.Errorf("%w: private temporary directory: %w", ErrConfineFailed, err)
	}
	if cr := c.credential; cr != nil {
		if err := os.Chown(tmp, int(cr.UID), int(cr.GID)); err != nil {
			return Result{ExitCode: -1}, fmt.Errorf("%w: private temporary directory: %w", ErrConfineFailed, err)
		}
	}
	planned, shape, ruleset, err := runPlan(c, support.abi, tmp)
	if err != nil {
		return Result{ExitCode: -1, Confined: ConfineLevel{Reason: err.Error() + "; the command was refused"}}, err
	}
	if c.facts != nil {
		// The facts' slot must outlive the run, though the Shell may not.
		defer runtime.KeepAlive(c.facts)
	}
	if shape.TmpBind[1] != "" {
		defer os.Remove(shape.TmpBind[1])
	}
	var rulesetFile *os.File
	if ruleset >= 0 {
		rulesetFile = os.NewFile(uintptr(ruleset), "ruleset")
		defer rulesetFile.Close()
	}
	if !slices.ContainsFunc(c.env, func(kv string) bool { return strings.HasPrefix(kv, "TMPDIR=") }) {
		dir := tmp
		if shape.TmpBind[1] != "" {
			dir = shape.TmpBind[1] // where the mount namespace shows it
		}
		c.env = append(c.env[:len(c.env):len(c.env)], "TMPDIR="+dir)
	}
	res, err := runStart(ctx, c, command, &shape, rulesetFile, planned)
	// The prepare is over once the launcher's plan is written; it is over
	// here also when the launcher never started.
	plan, perr := planned.wait()
	plan.waitLate()
	if perr != nil {
		plan.plants.release()
		return Result{ExitCode: -1, Confined: ConfineLevel{Reason: perr.Error() + "; the command was refused"}}, perr
	}
	lvl := planned.lvl
	switch {
	case errors.Is(err, ErrConfineFailed):
		res.Confined = ConfineLevel{Reason: err.Error()}
	case res.Confined.Layers != nil:
		layers := res.Confined.Layers
		res.Confined = confineLevelOf(*plan, layers)
		res.Confined.Secrets, res.Confined.Dropped = lvl.Secrets, lvl.Dropped
	default:
		res.Confined = lvl // killed before the launcher reported
	}
	confineTellDropped(c, &res)
	// Every process of the run is gone: what it planted is moved aside.
	confinePlantRevert(c, plan, &res)
	return res, err
}

// runPlan starts preparing the plan of c's run, and returns the plan
// planned, its shape for the launcher's start, and the Landlock ruleset
// the launcher gets as descriptor 5 (-1: none). From the session's facts
// the plan is made here (their tree is current already); for a walk of
// this run's own, it is prepared while the launcher starts
// (confinePlanAsync), into a ruleset made for its shape.
func runPlan(c runConfig, abi int, tmp string) (planned *confinePlanned, shape confinePlan, ruleset int, err error) {
	perRun := c.facts == nil || c.confine.ReadSecrets || confineNeedNS(c, abi) == ""
	var plan confinePlan
	var lvl ConfineLevel
	if !perRun {
		plan, lvl, ruleset, perRun, err = c.facts.prepare(c, abi, tmp)
	}
	if perRun {
		shape = confinePlanShape(c, abi)
		fd, flags, err := confineRulesetMade(&shape)
		if err != nil {
			return nil, shape, -1, err
		}
		return confinePlanAsync(c, abi, tmp, fd, flags), shape, fd, nil
	}
	if err == nil && ruleset < 0 {
		ruleset, err = confineRulesetLate(&plan)
	}
	if err != nil {
		plan.plants.release()
		return nil, plan, -1, err
	}
	// The runner's rules go into the ruleset from now on, while the
	// launcher is started; they are in before the ruleset is closed.
	plan.startLate()
	return confinePlanReady(plan, lvl), plan, ruleset, nil
}

// runStart starts bash, directly or, with a plan, through the confining
// launcher; waits for the command, a timeout or ctx; and then kills
// whatever is left. The launcher is started with the plan's shape, and
// gets the plan planned once it is prepared.
func runStart(ctx context.Context, c runConfig, command string, plan *confinePlan, ruleset *os.File, planned *confinePlanned) (Result, error) {
	token, err := runToken()
	if err != nil {
		return Result{}, err
	}
	env := append(c.env[:len(c.env):len(c.env)], runMarkerEnv+"="+token)
	pr, pw, err := os.Pipe()
	if err != nil {
		return Result{}, fmt.Errorf("runner: run: %w", err)
	}
	cmd := runBashCmd(c, command, env, pw)
	bytesCap := newRunByteCap(c.maxBytes)
	runStreams(cmd, c.stream, bytesCap)
	launch, err := runStage(cmd, c, command, plan, ruleset)
	if launch != nil && launch.direct {
		defer runtime.UnlockOSThread() // once the stage is gone
	}
	if err != nil {
		pr.Close()
		pw.Close()
		launch.close()
		return Result{}, err
	}
	start := time.Now()
	if err := runStartCmd(cmd, launch, plan); err != nil {
		pr.Close()
		pw.Close()
		launch.close()
		return Result{}, err
	}
	pw.Close()
	launch.started(planned)
	pid := cmd.Process.Pid
	// bash cannot be reaped before cmd.Wait, so its stat is readable.
	var statBuf [512]byte
	st, ok := runParseStat(runReadProc("/proc/"+strconv.Itoa(pid)+"/stat", statBuf[:0]))
	if !ok {
		st.start = 0 // unknown: look at every process's environment
	}

	out := newRunOutput(c.maxOutput)
	read := make(chan struct{})
	go func() {
		defer close(read)
		if c.stream != nil {
			out.readFrom(pr) // the streams are capped where they are copied
			return
		}
		out.readFrom(&runCapReader{r: pr, c: bytesCap})
	}()
	exited := make(chan struct{})
	var byItself bool // the process ended by exiting, not by a signal
	go func() {
		defer close(exited)
		byItself = runWaitExited(pid)
	}()

	res, ended := runAwait(ctx, c.timeout, exited, bytesCap)
	// bash is not reaped yet (runWaitExited leaves it a zombie), so its
	// process ID still names the process group and cannot be reused.
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	<-exited
	if !(ended && byItself && launch.pidNSEnded()) {
		runSweep(pid, st.start, token)
	}
	waitErr := cmd.Wait()
	res.ExitCode = runExitCode(cmd.ProcessState, waitErr)

	_ = pr.SetReadDeadline(time.Now().Add(runDrainGrace))
	<-read
	pr.Close()
	res.Elapsed = time.Since(start)
	runCapped(&res, c.stream, out, bytesCap)
	res.Output, res.Truncated, res.CutChars = out.result()
	if launch != nil {
		if err := launch.finish(cmd.Path, res.TimedOut || res.Cancelled || res.OutputExceeded, res.ExitCode); err != nil {
			return res, err
		}
		res.Confined.Layers = launch.status.Layers
	}
	if res.Cancelled {
		return res, ctx.Err()
	}
	return res, nil
}

// runBashCmd is the command that runs bash with the limits of c on
// command, in its own process group, killed if the runner dies, as the
// user of c's credential when it names one, with the environment env and
// both output streams on the capture pipe pw.
func runBashCmd(c runConfig, command string, env []string, pw *os.File) *exec.Cmd {
	procs := runProcLimit(c.maxProcs)
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if cr := c.credential; cr != nil {
		groups := cr.Groups
		if groups == nil {
			groups = []uint32{}
		}
		attr.Credential = &syscall.Credential{Uid: cr.UID, Gid: cr.GID, Groups: groups}
	}
	return &exec.Cmd{
		Path: c.bash,
		Args: []string{c.bash, "-c", fmt.Sprintf(runLimitScript, procs, runUlimit(c.limits.cpu, 1), runUlimit(c.limits.data, 1024), runUlimit(c.limits.fileSize, 1024)), c.bash, command},
		Dir:  c.dir,
		Env:  env,
		// Stdin stays nil: the child reads /dev/null.
		Stdout:      pw,
		Stderr:      pw,
		SysProcAttr: attr,
	}
}

// runStreams gives cmd the caller's streams s, when there are any, in
// place of the capture pipe, both through the output cap bytesCap.
func runStreams(cmd *exec.Cmd, s *Stream, bytesCap *runByteCap) {
	if s == nil {
		return
	}
	// The command's own streams, through the output cap (so never a
	// file the command writes to directly); the capture pipe only tells
	// when every process that could write has gone.
	stdout := &runCapWriter{w: orDiscard(s.Stdout), c: bytesCap}
	stderr := stdout
	if !runSameWriter(s.Stdout, s.Stderr) {
		stderr = &runCapWriter{w: orDiscard(s.Stderr), c: bytesCap}
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = s.Stdin, stdout, stderr
	// Streams that are not files are copied by goroutines; one that a
	// process escaping the kill holds open is given up after a grace.
	cmd.WaitDelay = runDrainGrace
}

// runStage turns cmd into a run of the confining launcher with plan,
// when there is one, and sets up the launch's stage (startDirect). It
// returns the launch's pipes, nil without a plan or when the launcher
// could not be set up; on an error of the stage it has put the process
// bound back, and the caller closes the pipes it returns.
func runStage(cmd *exec.Cmd, c runConfig, command string, plan *confinePlan, ruleset *os.File) (*confineLaunchPipes, error) {
	if plan == nil {
		return nil, nil
	}
	launch, err := confineCommand(cmd, c, command, plan, ruleset)
	if err != nil {
		return nil, err
	}
	if err := launch.startDirect(plan); err != nil {
		launch.restoreBound()
		return launch, err
	}
	return launch, nil
}

// runStartCmd starts cmd, and puts the process bound launch lowered for
// the stage back. An error says why it could not start: for a direct
// launch, that the kernel gives no namespaces here, and what plan needs
// them for.
func runStartCmd(cmd *exec.Cmd, launch *confineLaunchPipes, plan *confinePlan) error {
	err := cmd.Start()
	launch.restoreBound()
	switch {
	case err == nil:
		return nil
	case launch != nil && launch.direct:
		return fmt.Errorf("%w: the kernel gives no user, PID and mount namespaces here (%v), and %s", ErrConfineFailed, err, plan.NeedNS)
	}
	return fmt.Errorf("runner: run: start %s: %w", cmd.Path, err)
}

// runAwait waits for the first of: the process ending (exited closed),
// the timeout (none when it is zero), ctx done, or the output past the
// cap of bytesCap. The result says which stopped it; ended says that the
// process ended before anything stopped it.
func runAwait(ctx context.Context, timeout time.Duration, exited <-chan struct{}, bytesCap *runByteCap) (res Result, ended bool) {
	var expired <-chan time.Time
	if timeout > 0 {
		timer := time.NewTimer(timeout)
		defer timer.Stop()
		expired = timer.C
	}
	select {
	case <-exited:
		ended = true
	case <-expired:
		res.TimedOut = true
	case <-ctx.Done():
		res.Cancelled = true
	case <-bytesCap.over:
	}
	return res, ended
}

// runCapped records in res whether the output went past the cap of
// bytesCap, whether or not the command had ended first, and if so says so
// at the end of the output too: on the caller's standard error s when
// there are streams, else at the end of the captured out.
func runCapped(res *Result, s *Stream, out *runOutput, bytesCap *runByteCap) {
	if res.OutputExceeded = bytesCap.exceeded(); !res.OutputExceeded {
		return
	}
	if s != nil {
		_, _ = io.WriteString(orDiscard(s.Stderr), bytesCap.reason())
		return
	}
	out.consume([]byte("\n"+bytesCap.reason()), true)
}

// runUlimit is v in bash ulimit's units of unit, or "unlimited" for 0.
func runUlimit(v, unit uint64) string {
	if v == 0 {
		return "unlimited"
	}
	return strconv.FormatUint(max(v/unit, 1), 10)
}

// runToken returns a random token that marks the processes of one run.
func runToken() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("runner: run: %w", err)
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

// runCldExited is CLD_EXITED, the si_code of a child that exited (not
// killed, not dumped), which golang.org/x/sys/unix does not name.
const runCldExited = 1

// runWaitExited blocks until process pid has ended, without reaping it,
// and reports whether it ended by exiting (not by a signal).
func runWaitExited(pid int) bool {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if !errors.Is(err, unix.EINTR) {
			return err == nil && info.Code == runCldExited
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
// group pgid, or that started no earlier than the command (start, in clock
// ticks after boot) and whose environment carries token. It scans /proc
// again until a scan finds none. A process that was killed but has not
// yet finished dying is found again and killed again, which is harmless.
func runSweep(pgid int, start uint64, token string) {
	needle := []byte("\x00" + runMarkerEnv + "=" + token + "\x00")
	self := os.Getpid()
	for round := range 200 {
		if runSweepOnce(pgid, start, needle, self) == 0 {
			return
		}
		time.Sleep(time.Duration(min(round+1, 20)) * time.Millisecond)
	}
}

// runSweepOnce kills the processes it finds and returns how many.
func runSweepOnce(pgid int, start uint64, needle []byte, self int) int {
	d, err := os.Open("/proc")
	if err != nil {
		return 0
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	found := 0
	var stat [512]byte
	env := make([]byte, 0, 8192)
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil || pid <= 1 || pid == self {
			continue
		}
		st, ok := runParseStat(runReadProc("/proc/"+name+"/stat", stat[:0]))
		if !ok || st.state == 'Z' || st.state == 'X' || st.state == 'x' || st.flags&runKernelThread != 0 {
			continue
		}
		if st.pgid == pgid {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			found++
			continue
		}
		if st.start < start {
			continue // older than the command: not one of its processes
		}
		// Every entry of environ ends in a NUL; a leading NUL makes the
		// first entry match like the others.
		env = runReadProc("/proc/"+name+"/environ", append(env[:0], 0))
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
	st, ok := runParseStat(runReadProc("/proc/"+strconv.Itoa(pid)+"/stat", buf[:0]))
	return st.state, st.pgid, ok
}

// runStat is what the sweep needs of /proc/pid/stat.
type runStat struct {
	state byte
	pgid  int
	flags uint64
	start uint64 // start time, in clock ticks after boot
}

// runKernelThread is PF_KTHREAD in the flags of /proc/pid/stat.
const runKernelThread = 0x00200000

// runParseStat parses the text of /proc/pid/stat: "pid (comm) state ppid
// pgrp session tty tpgid flags ... starttime ...", where comm may hold
// spaces and ")".
func runParseStat(b []byte) (st runStat, ok bool) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return st, false
	}
	var fields [20][]byte
	n := 0
	for f := range bytes.FieldsSeq(b[i+2:]) {
		fields[n] = f
		if n++; n == len(fields) {
			break
		}
	}
	if n < len(fields) || len(fields[0]) != 1 {
		return st, false
	}
	g, err1 := strconv.Atoi(string(fields[2]))
	fl, err2 := strconv.ParseUint(string(fields[6]), 10, 64)
	start, err3 := strconv.ParseUint(string(fields[19]), 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return st, false
	}
	return runStat{state: fields[0][0], pgid: g, flags: fl, start: start}, true
}

// runReadProc appends the contents of a /proc file to buf, growing it as
// needed; an error gives what was read so far (nothing, for a process
// that is gone).
func runReadProc(path string, buf []byte) []byte {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return buf
	}
	defer unix.Close(fd)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := unix.Read(fd, buf[len(buf):cap(buf)])
		if err == unix.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			return buf
		}
		buf = buf[:len(buf)+n]
	}
}

// orDiscard is w, or io.Discard when w is nil.
func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}

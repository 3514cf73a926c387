package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/permission"
)

// Limits and defaults of a [Shell], from the original design's execution
// constraints (timeout 60 s by default and 120 s at most, output cut to
// 4,000 characters, working directory inside the sandbox).
const (
	// DefaultTimeout is the time a command may run when
	// [Shell.Timeout] is zero.
	DefaultTimeout = 60 * time.Second
	// MaxTimeout is the longest time any command may run; a longer
	// [Shell.Timeout] or AGENT_TOOL_TIMEOUT_SECS is cut down to it.
	MaxTimeout = 120 * time.Second
	// DefaultMaxOutput is the output cap, in characters (runes), when
	// [Shell.MaxOutput] is zero.
	DefaultMaxOutput = 4000
	// MinOutput is the smallest output cap a [Shell] accepts: room for
	// the cut marker and a little of the head and tail.
	MinOutput = 64
	// DefaultMaxProcs is the process-count bound (RLIMIT_NPROC) when
	// [Shell.MaxProcs] is zero.
	DefaultMaxProcs = 1024
	// DefaultMaxCPU, DefaultMaxMemory and DefaultMaxFileSize are the
	// CPU-time, memory and file-size bounds of each process of a
	// command when [Shell.MaxCPU], [Shell.MaxMemory] and
	// [Shell.MaxFileSize] are zero. A limit above the host's own hard
	// limit is lowered to it.
	DefaultMaxCPU      = 30 * time.Minute
	DefaultMaxMemory   = 16 << 30
	DefaultMaxFileSize = 16 << 30
	// DefaultMaxOutputBytes bounds the bytes a command writes to its
	// standard output and standard error together when
	// [Shell.MaxOutputBytes] is zero: 64 MiB. An agent reads a few
	// thousand characters of it (Claude Code shows 30,000), the most
	// verbose real build and test logs run to a few MiB, and the host
	// that takes a streamed command's output (Claude Code) keeps it in
	// memory: 64 MiB leaves every real log ten times the room and still
	// stops "yes" within a second.
	DefaultMaxOutputBytes = 64 << 20
	// DefaultBash is the bash executable used when [Shell.Bash] is
	// empty. Bash is never looked up in PATH.
	DefaultBash = "/bin/bash"
	// DefaultPath is the PATH a command sees unless [Shell.Env] sets
	// another.
	DefaultPath = "/usr/local/bin:/usr/bin:/bin"
	// TimeoutEnv is the environment variable [FromEnv] reads the
	// timeout from, in whole seconds.
	TimeoutEnv = "AGENT_TOOL_TIMEOUT_SECS"
)

// runMarkerEnv names the variable that carries a random per-run token into
// the command's environment, so that processes which left the command's
// process group can still be found and killed.
const runMarkerEnv = "TOOLGATE_RUN_ID"

var (
	// ErrDirRefused is the error a [DirError] wraps: the working
	// directory is not one the command may run in.
	ErrDirRefused = errors.New("runner: working directory refused")
	// ErrConfig is wrapped by every error about an invalid [Shell]
	// field (a negative timeout, a relative bash path, a malformed
	// environment entry, ...).
	ErrConfig = errors.New("runner: invalid runner configuration")
	// ErrUnsupported is returned by [Shell.Run] on systems where the
	// runner cannot give its guarantees (every system but Linux).
	ErrUnsupported = errors.New("runner: running commands is only supported on Linux")
)

// DirError says why [Shell.Run] refused a working directory. It wraps
// [ErrDirRefused]; the command did not start.
type DirError struct {
	// Dir is the working directory as configured.
	Dir string
	// Decision is the checker's answer (Deny when no checker was asked).
	Decision permission.Decision
	// Reason says why the directory was refused.
	Reason string
}

// Error names the directory, the decision and the reason.
func (e *DirError) Error() string {
	return "runner: working directory " + strconv.Quote(e.Dir) + " refused (" + e.Decision.String() + "): " + e.Reason
}

// Unwrap returns [ErrDirRefused].
func (e *DirError) Unwrap() error { return ErrDirRefused }

// Credential is the user and groups a command runs as. The host process
// needs the privilege to switch to them (normally: it runs as root).
type Credential struct {
	// UID is the real and effective user ID of the command.
	UID uint32
	// GID is the real and effective group ID of the command.
	GID uint32
	// Groups are the supplementary groups; nil means none.
	Groups []uint32
}

// Result is what a command did. Output is the combined standard output
// and standard error, in the order the command wrote them, made valid UTF-8
// (each invalid byte becomes U+FFFD) and capped: when the command wrote more
// than the cap, Output holds its first and last characters with the line
//
//	[... N characters cut ...]
//
// between them (on a line of its own), and the whole of Output, marker
// included, is no longer than the cap.
type Result struct {
	// Output is the command's capped output.
	Output string
	// Truncated reports whether characters were cut from the output.
	Truncated bool
	// CutChars is how many characters (runes) were cut; 0 when not
	// Truncated.
	CutChars int
	// ExitCode is bash's exit status, or 128+N when it was killed by
	// signal N (137 after a timeout or cancellation), as bash reports it;
	// -1 when bash did not run.
	ExitCode int
	// TimedOut reports that the runner's timeout ended the command.
	TimedOut bool
	// Cancelled reports that the context ended the command (including the
	// context's own deadline).
	Cancelled bool
	// Elapsed is the time from start to the end of the command and of
	// every process it left behind.
	Elapsed time.Duration
	// OutputExceeded reports that the command wrote more than
	// [Shell.MaxOutputBytes] to its standard output and standard error
	// together, and that the runner therefore killed it (ExitCode is 137
	// then): the bytes past the cap were never passed on, and the reason
	// ends the output (the standard error of a streamed command).
	OutputExceeded bool
	// Confined is the kernel confinement the command ran under, or why
	// it had none (see [Shell.Confinement]); set whenever the runner
	// got as far as deciding it, including when it refused to run.
	Confined ConfineLevel
}

// Shell runs shell commands with bash under fixed limits. Its fields are
// configuration; the zero value is usable and refuses every command until
// Dir and Checker are set, because a command never runs in a directory
// that has not been checked.
//
// A Shell is safe for concurrent use as long as its fields are not
// changed while a Run is in progress. It keeps what it learns of the
// workspace between runs (see [Confinement], "Secret paths"): reuse one
// Shell for a session's commands.
//
// # What a run guarantees (Linux)
//
//   - bash is started from an explicit path (never looked up in PATH), as
//     "bash -c command", in its own process group, with standard input
//     connected to /dev/null, and with exactly the environment described
//     at [Shell.Env]: nothing of the host's environment is inherited.
//   - The working directory is Dir with its symbolic links resolved, and
//     only if Checker Allows it.
//   - The process count of the command's user is bounded by RLIMIT_NPROC
//     (set by the confining launcher, or, unconfined, with bash's ulimit,
//     before the command's own bash starts, so the host process's limits
//     do not change). The kernel does not enforce
//     this limit for root: to bound a command started by root, set
//     Credential to an unprivileged user.
//   - When the command ends, times out or is cancelled, every process in
//     its process group is killed with SIGKILL, so background jobs
//     ("sleep 100 &") do not outlive the command. The kernel delivers a
//     group kill to every member atomically with respect to fork, so a
//     process that is in the group then cannot leave a child behind.
//     Run then scans /proc and kills any process still in the group and
//     any process whose environment still carries the run's token (a
//     variable named TOOLGATE_RUN_ID): this also catches processes that
//     left the group with setsid or setpgid. Run returns only when no such
//     process is left alive (zombies waiting for their parent to reap
//     them are not counted; the killed processes whose parent died first
//     are reaped by init, or by the nearest subreaper, not by Run).
//   - A confined command runs, where the kernel gives the user
//     namespaces, as the child of process 1 of a PID namespace of its own
//     (see [Confinement]): when it ends, the kernel kills every process
//     left there, including one that both left the process group and
//     cleared its environment, and a SIGKILL of the launcher ends them
//     too. Without namespaces (or unconfined) such a process escapes the
//     scan; [Result.Confined] says which layers applied.
//   - The kernel confines what the command can reach (Linux Landlock):
//     the file system beyond the roots, the system locations and a
//     private temporary directory, and TCP unless the network is on; see
//     [Confinement]. The program must call [ConfineMain] first thing in
//     main. Where the kernel cannot confine it, the command is refused
//     unless [Confinement.Fallback] says to run it unconfined; every
//     result says which ([Result.Confined]).
type Shell struct {
	// Dir is the working directory. It must be absolute; its symbolic
	// links are resolved and the result must be Allowed by Checker as a
	// read (Checker.CheckPath(dir, false)). Empty: every Run is refused.
	Dir string
	// Checker judges Dir; *sandbox.Sandbox satisfies it. Only an Allow
	// lets the command run (an Ask is refused too). Nil: every Run is
	// refused. A checker that panics refuses.
	Checker bashguard.PathChecker
	// Bash is the absolute path of the bash executable. Empty:
	// [DefaultBash].
	Bash string
	// Timeout is how long a command may run. Zero: [DefaultTimeout];
	// above [MaxTimeout]: MaxTimeout; negative: an error.
	Timeout time.Duration
	// MaxOutput caps the output, in characters (runes). Zero:
	// [DefaultMaxOutput]; below [MinOutput] or negative: an error.
	// The output is read through buffers of bounded size whatever the
	// command prints.
	MaxOutput int
	// MaxProcs bounds the processes of the command's user (RLIMIT_NPROC,
	// soft and hard). Zero: [DefaultMaxProcs]; negative: an error.
	// When it is above the host's own hard limit, the host's limit is
	// used. RLIMIT_NPROC counts every process of the real user ID, not
	// only the command's.
	MaxProcs int
	// MaxCPU bounds the CPU time of each process of the command
	// (RLIMIT_CPU, whole seconds). Zero: [DefaultMaxCPU]; negative: an
	// error.
	MaxCPU time.Duration
	// MaxMemory bounds the data memory of each process of the command,
	// in bytes (RLIMIT_DATA: heap and private writable mappings; address
	// space a runtime only reserves is not counted). Zero:
	// [DefaultMaxMemory]; negative: an error.
	MaxMemory int64
	// MaxFileSize bounds the size of any file the command writes, in
	// bytes (RLIMIT_FSIZE; a larger write fails with EFBIG). Zero:
	// [DefaultMaxFileSize]; negative: an error.
	MaxFileSize int64
	// MaxOutputBytes bounds the bytes the command writes to its standard
	// output and standard error together, captured or streamed: once it
	// writes more, the runner passes nothing more on, kills every process
	// of the command as after a timeout, ends the output (the standard
	// error, with Stream) with a line that says why, and sets
	// [Result.OutputExceeded]. Zero: [DefaultMaxOutputBytes]; negative:
	// an error.
	MaxOutputBytes int64
	// Home is the command's HOME. Empty: the resolved working directory.
	Home string
	// PassEnv names variables of the host process's environment that the
	// command receives, when they are set there. By default none is
	// passed.
	PassEnv []string
	// Env is the command's environment, as "NAME=value" entries, on top
	// of the defaults PATH=[DefaultPath], HOME=Home and LANG=C.UTF-8
	// and of the variables of PassEnv; a later entry for the same name
	// wins. The runner adds TOOLGATE_RUN_ID, see above.
	Env []string
	// Credential, when not nil, is the user and groups the command runs
	// as. Nil: the host process's user.
	Credential *Credential
	// Confinement configures the kernel confinement of the command. The
	// zero value confines it to Dir and refuses to run it where the
	// kernel cannot.
	Confinement Confinement
	// Stream, when not nil, connects the command to these standard
	// streams instead of capturing its output, for a program that runs
	// one command on behalf of another (toolgate's launcher for Claude
	// Code): the result's Output stays empty and MaxOutput is not
	// applied (MaxOutputBytes is), and a zero Timeout means none (the
	// caller bounds the run with its context). Every other guarantee
	// holds.
	Stream *Stream
	// Namespaces, when not nil, answers in place of the namespace probe
	// whether the kernel gives this user the user, PID and mount
	// namespaces the launcher starts (and a network namespace of its own
	// with newNet): "" when it does, else why not. [ProbeNamespaces] is
	// the probe itself, which starts a process; a program that makes one
	// decision a process (toolgate check) keeps the probe's answer for a
	// session and hands it here. A kept answer that no longer holds fails
	// closed: the launcher, which needs the namespaces, refuses to run
	// the command.
	Namespaces func(newNet bool) string

	// probe, when not nil, replaces the kernel's Landlock probe (tests).
	probe func() confineSupport
	// nsProbe, when not nil, replaces the namespace probe (tests).
	nsProbe func(newNet bool) string
	// noStage runs without the namespaces where they are not needed, as
	// where the kernel refuses them (tests).
	noStage bool

	// facts, a *confineFacts made at the first run, are the workspace
	// facts kept between runs (see confine_facts_linux.go). A copy of the
	// Shell shares them; they hold what they were computed for, and are
	// computed again for another configuration.
	facts unsafe.Pointer
}

// namespaces is the namespace probe's replacement: the tests', else
// Namespaces, else nil (the probe, cached in the facts).
func (r *Shell) namespaces() func(newNet bool) string {
	if r.nsProbe != nil {
		return r.nsProbe
	}
	return r.Namespaces
}

// confineFacts returns the facts r keeps between runs.
func (r *Shell) confineFacts() *confineFacts {
	if p := atomic.LoadPointer(&r.facts); p != nil {
		return (*confineFacts)(p)
	}
	f := &confineFacts{}
	if atomic.CompareAndSwapPointer(&r.facts, nil, unsafe.Pointer(f)) {
		return f
	}
	return (*confineFacts)(atomic.LoadPointer(&r.facts))
}

// Stream is the standard streams of a command run with [Shell.Stream].
// A nil Stdin reads /dev/null; a nil Stdout or Stderr discards.
type Stream struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// FromEnv returns a Shell whose Timeout comes from
// AGENT_TOOL_TIMEOUT_SECS as read through getenv (a whole number of
// seconds, at most [MaxTimeout]; larger values are cut down to it).
// An unset or empty variable, or a nil getenv, leaves the default. Set the
// other fields on the result. A malformed value is a *permission.Error
// naming the variable.
//
// The runner never reads the process environment on its own: pass
// os.Getenv to use it.
func FromEnv(getenv func(string) string) (Shell, error) {
	var r Shell
	if getenv == nil {
		return r, nil
	}
	v := getenv(TimeoutEnv)
	if v == "" {
		return r, nil
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || n <= 0 {
		return Shell{}, &permission.Error{Source: TimeoutEnv, Index: -1, Offset: -1, Input: v,
			Reason: "want a positive whole number of seconds"}
	}
	if n > int64(MaxTimeout/time.Second) {
		n = int64(MaxTimeout / time.Second)
	}
	r.Timeout = time.Duration(n) * time.Second
	return r, nil
}

// Run runs command with bash -c in the working directory, under the limits
// of r, and returns its capped output and how it ended. A nil *Shell
// behaves as the zero Shell.
//
// A command that runs and fails, times out or is killed is not an error:
// see the result's ExitCode, TimedOut and Cancelled. Run returns an error
// when the command was not started (a refused working directory, a
// *DirError wrapping [ErrDirRefused]; an invalid configuration,
// wrapping [ErrConfig]; bash could not be started), and ctx.Err() when
// ctx ended the command, together with the result so far.
//
// Cancelling ctx kills the command and everything it started, as a
// timeout does; Run returns once they are gone.
func (r *Shell) Run(ctx context.Context, command string) (Result, error) {
	if r == nil {
		r = &Shell{}
	}
	cfg, err := r.config()
	if err != nil {
		return Result{}, err
	}
	if strings.IndexByte(command, 0) >= 0 {
		return Result{}, errors.New("runner: command contains a NUL byte")
	}
	if err := ctx.Err(); err != nil {
		return Result{ExitCode: -1, Cancelled: true}, err
	}
	return runCommand(ctx, cfg, command)
}

// runConfig is a Shell's configuration, checked and with defaults filled
// in.
type runConfig struct {
	bash       string
	dir        string
	timeout    time.Duration
	maxOutput  int
	maxBytes   int64 // MaxOutputBytes
	maxProcs   int
	limits     runLimits
	env        []string
	credential *Credential
	stream     *Stream

	confine Confinement
	roots   []string // resolved confinement roots
	checker bashguard.PathChecker
	probe   func() confineSupport
	nsProbe func(newNet bool) string
	noStage bool
	facts   *confineFacts // nil: walk per run
}

// runLimits are the resource limits besides the process count, in the
// kernel's units (seconds, bytes).
type runLimits struct {
	cpu, data, fileSize uint64
}

func runConfigError(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...)
}

// config checks r and fills in defaults; the working directory is checked
// last, so that a malformed configuration is reported as such.
func (r *Shell) config() (runConfig, error) {
	c := runConfig{
		bash:       r.Bash,
		timeout:    r.Timeout,
		maxOutput:  r.MaxOutput,
		maxProcs:   r.MaxProcs,
		credential: r.Credential,
		stream:     r.Stream,
		confine:    r.Confinement,
		checker:    r.Checker,
		probe:      r.probe,
		nsProbe:    r.namespaces(),
		noStage:    r.noStage,
		facts:      r.confineFacts(),
	}
	if c.bash == "" {
		c.bash = DefaultBash
	}
	if !filepath.IsAbs(c.bash) {
		return c, runConfigError("Bash %q is not an absolute path", c.bash)
	}
	switch {
	case c.timeout < 0:
		return c, runConfigError("Timeout %v is negative", c.timeout)
	case c.timeout == 0 && c.stream != nil:
		// No timeout of its own: the caller's context bounds the run.
	case c.timeout == 0:
		c.timeout = DefaultTimeout
	case c.timeout > MaxTimeout:
		c.timeout = MaxTimeout
	}
	switch {
	case c.maxOutput == 0:
		c.maxOutput = DefaultMaxOutput
	case c.maxOutput < MinOutput:
		return c, runConfigError("MaxOutput %d is below the minimum %d", c.maxOutput, MinOutput)
	}
	switch {
	case c.maxProcs == 0:
		c.maxProcs = DefaultMaxProcs
	case c.maxProcs < 0:
		return c, runConfigError("MaxProcs %d is negative", c.maxProcs)
	}
	switch {
	case r.MaxOutputBytes == 0:
		c.maxBytes = DefaultMaxOutputBytes
	case r.MaxOutputBytes < 0:
		return c, runConfigError("MaxOutputBytes %d is negative", r.MaxOutputBytes)
	default:
		c.maxBytes = r.MaxOutputBytes
	}
	if r.MaxCPU < 0 || r.MaxMemory < 0 || r.MaxFileSize < 0 {
		return c, runConfigError("MaxCPU %v, MaxMemory %d and MaxFileSize %d must not be negative", r.MaxCPU, r.MaxMemory, r.MaxFileSize)
	}
	c.limits = runLimits{cpu: uint64(DefaultMaxCPU / time.Second), data: DefaultMaxMemory, fileSize: DefaultMaxFileSize}
	if r.MaxCPU > 0 {
		c.limits.cpu = uint64(max(r.MaxCPU/time.Second, 1))
	}
	if r.MaxMemory > 0 {
		c.limits.data = uint64(r.MaxMemory)
	}
	if r.MaxFileSize > 0 {
		c.limits.fileSize = uint64(r.MaxFileSize)
	}
	if r.Home != "" && !filepath.IsAbs(r.Home) {
		return c, runConfigError("Home %q is not an absolute path", r.Home)
	}
	if err := checkConfinement(&r.Confinement); err != nil {
		return c, err
	}
	dir, err := r.checkDir()
	if err != nil {
		return c, err
	}
	c.dir = dir
	if c.roots, err = confineRoots(r.Confinement.Roots, dir); err != nil {
		return c, err
	}
	home := r.Home
	if home == "" {
		home = dir
	}
	c.env, err = runEnv(home, r.PassEnv, r.Env)
	if err != nil {
		return c, err
	}
	return c, nil
}

// checkDir resolves the working directory and asks the checker about it.
func (r *Shell) checkDir() (dir string, err error) {
	refuse := func(d permission.Decision, reason string) (string, error) {
		return "", &DirError{Dir: r.Dir, Decision: d, Reason: reason}
	}
	switch {
	case r.Dir == "":
		return refuse(permission.Deny, "no working directory configured")
	case r.Checker == nil:
		return refuse(permission.Deny, "no directory checker configured")
	case !filepath.IsAbs(r.Dir):
		return refuse(permission.Deny, "not an absolute path")
	}
	resolved, err := filepath.EvalSymlinks(filepath.Clean(r.Dir))
	if err != nil {
		return refuse(permission.Deny, "cannot resolve: "+err.Error())
	}
	fi, err := os.Stat(resolved)
	if err != nil {
		return refuse(permission.Deny, err.Error())
	}
	if !fi.IsDir() {
		return refuse(permission.Deny, "not a directory")
	}
	d, reason := runCheckPath(r.Checker, resolved)
	if d != permission.Allow {
		return refuse(d, reason)
	}
	return resolved, nil
}

// listedChecker is a checker that judges the entries of a directory it
// lists faster than whole paths, with the same answers
// ([sandbox.Sandbox.CheckListed]).
type listedChecker interface {
	CheckListed(dir, name string, write bool) (permission.Decision, string)
}

// runCheckEntry asks the checker about the entry name of dir, a read or a
// write, turning a panic into a Deny.
func runCheckEntry(c bashguard.PathChecker, dir, name string, write bool) (d permission.Decision, reason string) {
	l, ok := c.(listedChecker)
	if !ok {
		p := dir + "/" + name
		if dir == "/" {
			p = "/" + name
		}
		if write {
			return runCheckWrite(c, p)
		}
		return runCheckPath(c, p)
	}
	defer func() {
		if p := recover(); p != nil {
			d, reason = permission.Deny, fmt.Sprintf("path checker panicked: %v", p)
		}
	}()
	d, reason = l.CheckListed(dir, name, write)
	if !d.Valid() {
		return permission.Deny, "path checker returned an invalid decision " + d.String()
	}
	return d, reason
}

// runCheckPath calls the checker, turning a panic into a Deny.
func runCheckPath(c bashguard.PathChecker, path string) (d permission.Decision, reason string) {
	defer func() {
		if p := recover(); p != nil {
			d, reason = permission.Deny, fmt.Sprintf("directory checker panicked: %v", p)
		}
	}()
	d, reason = c.CheckPath(path, false)
	if !d.Valid() {
		return permission.Deny, "directory checker returned an invalid decision " + d.String()
	}
	return d, reason
}

// runCheckWrite asks the checker about a write of path, turning a panic
// into a Deny.
func runCheckWrite(c bashguard.PathChecker, path string) (d permission.Decision, reason string) {
	defer func() {
		if p := recover(); p != nil {
			d, reason = permission.Deny, fmt.Sprintf("path checker panicked: %v", p)
		}
	}()
	d, reason = c.CheckPath(path, true)
	if !d.Valid() {
		return permission.Deny, "path checker returned an invalid decision " + d.String()
	}
	return d, reason
}

// runEnv builds the command's environment: the defaults, then the passed
// through host variables, then the explicit entries.
func runEnv(home string, pass, extra []string) ([]string, error) {
	var names []string
	values := map[string]string{}
	set := func(name, value string) {
		if _, ok := values[name]; !ok {
			names = append(names, name)
		}
		values[name] = value
	}
	set("PATH", DefaultPath)
	set("HOME", home)
	set("LANG", "C.UTF-8")
	for _, name := range pass {
		if !runValidEnvName(name) {
			return nil, runConfigError("PassEnv name %q is not a variable name", name)
		}
		if v, ok := os.LookupEnv(name); ok {
			if strings.IndexByte(v, 0) >= 0 {
				return nil, runConfigError("host variable %s contains a NUL byte", name)
			}
			set(name, v)
		}
	}
	for _, kv := range extra {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || !runValidEnvName(name) || strings.IndexByte(value, 0) >= 0 {
			return nil, runConfigError("Env entry %q is not NAME=value", kv)
		}
		set(name, value)
	}
	env := make([]string, 0, len(names)+1)
	for _, n := range names {
		env = append(env, n+"="+values[n])
	}
	return env, nil
}

// runValidEnvName reports whether name can be passed in an environment
// (non-empty, no "=" and no NUL byte).
func runValidEnvName(name string) bool {
	return name != "" && !strings.ContainsAny(name, "=\x00")
}

// checkConfinement checks the fields of a Confinement that need no file
// system.
func checkConfinement(k *Confinement) error {
	if k.Fallback > ConfineRunUnconfined {
		return runConfigError("Confinement.Fallback %v is not a known fallback", k.Fallback)
	}
	if k.MaxWalk < 0 {
		return runConfigError("Confinement.MaxWalk %d is negative", k.MaxWalk)
	}
	if k.Launcher != "" && !filepath.IsAbs(k.Launcher) {
		return runConfigError("Confinement.Launcher %q is not an absolute path", k.Launcher)
	}
	for _, list := range []struct {
		name  string
		paths []string
	}{{"ReadOnly", k.ReadOnly}, {"Packages", k.Packages}, {"Devices", k.Devices}, {"Writable", k.Writable}} {
		for _, p := range list.paths {
			if !filepath.IsAbs(p) || strings.IndexByte(p, 0) >= 0 {
				return runConfigError("Confinement.%s entry %q is not an absolute path", list.name, p)
			}
		}
	}
	return nil
}

// confineRoots resolves the confinement roots; none means the working
// directory alone.
func confineRoots(roots []string, dir string) ([]string, error) {
	if len(roots) == 0 {
		return []string{dir}, nil
	}
	out := make([]string, 0, len(roots))
	for _, root := range roots {
		if !filepath.IsAbs(root) {
			return nil, runConfigError("Confinement.Roots entry %q is not an absolute path", root)
		}
		resolved, err := filepath.EvalSymlinks(filepath.Clean(root))
		if err != nil {
			return nil, runConfigError("Confinement.Roots entry %q: %v", root, err)
		}
		if fi, err := os.Stat(resolved); err != nil || !fi.IsDir() {
			return nil, runConfigError("Confinement.Roots entry %q is not a directory", root)
		}
		out = append(out, resolved)
	}
	return out, nil
}

//go:build linux

package runner

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// The namespace layer. Where the kernel lets the user have them, the
// launcher starts itself again (its second stage) in new user, PID, mount
// and network namespaces:
//
//   - PID: the second stage is process 1 of a namespace of its own and
//     bash its child; when bash ends, the stage ends and the kernel kills
//     every process left in the namespace, whatever it did to leave the
//     process group or its environment (setsid, env -i, a double fork).
//     The first stage keeps a parent-death signal on the second, so a
//     SIGKILL of the launcher ends the command too. A confined command
//     cannot name a process outside, so it cannot signal one even where
//     Landlock has no signal scoping (before ABI 6).
//   - Network: only a loopback interface, brought up; with the network off
//     no socket reaches anything anyway, and in loopback mode a command
//     can bind and connect on 127.0.0.1 and ::1 (its own test servers) and
//     nowhere else.
//   - Mount: the runtime sockets of the user and the system (Hidden: the
//     user's /run/user, X11, the D-Bus system bus, docker and podman) are
//     covered by empty read-only file systems or /dev/null.
//
// The stage keeps CAP_SYS_ADMIN and CAP_NET_ADMIN of the new user
// namespace (ambient, from the clone) only to make these mounts and bring
// the interface up; it drops every capability before it starts bash.

// confineStageEnv marks the second stage of the launcher.
const (
	confineStageEnv   = "TOOLGATE_CONFINE_STAGE"
	confineStageValue = "2"
)

// DefaultConfineHidden returns the locations the mount namespace hides
// from a confined command by default: the runtime directories of the
// user's session (ssh-agent, gpg-agent, the D-Bus session bus, keyrings,
// Wayland), the X11 and ICE sockets, the D-Bus system bus and the sockets
// of docker, podman and containerd. A location that does not exist is
// skipped. Each call returns a new slice.
func DefaultConfineHidden() []string {
	return []string{
		"/run/user", "/tmp/.X11-unix", "/tmp/.ICE-unix", "/run/dbus", "/var/run/dbus",
		"/run/docker.sock", "/var/run/docker.sock", "/run/docker", "/run/podman", "/run/containerd",
		"/run/systemd/private", "/run/snapd.socket",
	}
}

// ProbeNamespaces reports whether the kernel gives this user the user,
// PID and mount namespaces the confinement launcher starts (and a network
// namespace with newNet): "" when it does, else why not. It starts
// /bin/true in them, a process of a few milliseconds; see
// [Shell.Namespaces] to keep the answer.
func ProbeNamespaces(newNet bool) string { return confineNSProbe(newNet) }

// confineNSProbe starts /bin/true in the namespaces the second stage gets
// (a network namespace too with newNet), and says why it could not, or ""
// when it could.
func confineNSProbe(newNet bool) string {
	cmd := exec.Command("/bin/true")
	cmd.SysProcAttr = confineNSAttr(newNet)
	if err := cmd.Run(); err != nil {
		return "the kernel gives this user no user, PID and mount namespaces (" + err.Error() + ")"
	}
	return ""
}

// confineNSAttr is how the second stage is started: in new user, PID and
// mount namespaces (and network with newNet), as the same user and group,
// with the capabilities for its set-up, killed when the first stage's
// thread dies.
func confineNSAttr(newNet bool) *syscall.SysProcAttr {
	uid, gid := os.Getuid(), os.Getgid()
	flags := uintptr(syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID | syscall.CLONE_NEWNS)
	if newNet {
		flags |= syscall.CLONE_NEWNET
	}
	return &syscall.SysProcAttr{
		Cloneflags:                 flags,
		UidMappings:                []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
		GidMappings:                []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
		GidMappingsEnableSetgroups: false,
		AmbientCaps:                []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_NET_ADMIN},
		Pdeathsig:                  syscall.SIGKILL,
	}
}

// confineSpawnStage runs the second stage with the plan and waits for it;
// it returns the exit status to pass on, or an error when the stage could
// not start (the caller then goes on without namespaces, or fails).
func confineSpawnStage(p *confinePlan, argv, env []string, status *os.File, late func() (confineLateDone, error)) (int, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	defer pr.Close()
	defer pw.Close()
	cmd := &exec.Cmd{
		Path:        "/proc/self/exe",
		Args:        append([]string{confineArg0}, argv...),
		Env:         append(env[:len(env):len(env)], confineEnv+"="+confineEnvValue, confineStageEnv+"="+confineStageValue),
		Stdin:       os.Stdin,
		Stdout:      os.Stdout,
		Stderr:      os.Stderr,
		ExtraFiles:  []*os.File{pr, status},
		SysProcAttr: confineNSAttr(p.NetMode != confineNetOn),
	}
	if p.Ruleset {
		cmd.ExtraFiles = append(cmd.ExtraFiles, os.NewFile(confineRulesetFD, "ruleset"))
	}
	// The parent-death signal follows this thread: it must live as long
	// as the stage.
	runtime.LockOSThread()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	pr.Close()
	go func() {
		_ = sendPlan(pw, p)
		if p.Late {
			// Passed on once the runner sends it.
			d, err := late()
			if err != nil {
				d.Refuse = "reading the end of the ruleset: " + err.Error()
			}
			_ = sendLateDone(pw, d)
		}
		pw.Close()
	}()
	// Signals that end the launcher end the stage with it.
	err = cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal()), nil
	}
	if err != nil && cmd.ProcessState == nil {
		return 126, nil
	}
	return cmd.ProcessState.ExitCode(), nil
}

// confineStageSetup runs in the second stage, before Landlock: it hides
// the runtime sockets, brings the loopback interface up, and makes the
// stage impossible to trace. It returns the layers it applied.
func confineStageSetup(p *confinePlan) ([]string, error) {
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return nil, fmt.Errorf("prctl(PR_SET_DUMPABLE): %w", err)
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return nil, fmt.Errorf("making the mounts private: %w", err)
	}
	for _, path := range p.Hidden {
		if err := confineHide(path); err != nil {
			return nil, err
		}
	}
	for _, path := range p.Binds {
		if err := confineBindReadOnly(path); err != nil {
			return nil, err
		}
	}
	if err := confineCover(p.Covers); err != nil {
		return nil, err
	}
	if p.TmpBind[0] != "" {
		// The directory the ruleset grants holds only the one the run's
		// directory is bound onto: read-only, it keeps nothing from one
		// run for the next.
		if err := confineBindReadOnly(filepath.Dir(p.TmpBind[1])); err != nil {
			return nil, err
		}
		if err := unix.Mount(p.TmpBind[0], p.TmpBind[1], "", unix.MS_BIND, ""); err != nil {
			return nil, fmt.Errorf("binding the temporary directory %s onto %s: %w", p.TmpBind[0], p.TmpBind[1], err)
		}
	}
	if p.NetMode == confineNetOn {
		return []string{"pidns", "mountns"}, nil
	}
	if err := confineLoopbackUp(); err != nil {
		return nil, err
	}
	return []string{"pidns", "mountns", "netns"}, nil
}

// confineHide covers path: a directory with an empty read-only tmpfs, any
// other file with /dev/null. A path that does not exist is skipped.
func confineHide(path string) error {
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil {
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
			return nil
		}
		return fmt.Errorf("hiding %s: %w", path, err)
	}
	var err error
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		err = unix.Mount("toolgate-hidden", path, "tmpfs", unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "size=4k,mode=0555")
	case unix.S_IFLNK:
		return nil // what it leads to is hidden by its own entry, or not granted
	default:
		err = unix.Mount("/dev/null", path, "", unix.MS_BIND, "")
	}
	if err != nil {
		return fmt.Errorf("hiding %s: %w", path, err)
	}
	return nil
}

// confineBindReadOnly binds path read-only onto itself: the command can
// read it but not write, truncate, rename, remove or replace it, nor
// create anything below it. The path is opened without following any
// link, and bound through its descriptor, so a link put in its place
// since the walk is not followed. A path that is gone is skipped.
func confineBindReadOnly(path string) error {
	fd, err := unix.Openat2(unix.AT_FDCWD, path, &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_CLOEXEC | unix.O_NOFOLLOW,
		Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	})
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("binding %s read-only: %w", path, err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT == unix.S_IFLNK {
		return nil
	}
	// The remount keeps the flags of the mount below (a user namespace
	// may not clear them).
	var sfs unix.Statfs_t
	if err := unix.Fstatfs(fd, &sfs); err != nil {
		return fmt.Errorf("binding %s read-only: %w", path, err)
	}
	flags := uintptr(unix.MS_REMOUNT | unix.MS_BIND | unix.MS_RDONLY | unix.MS_NOSUID | unix.MS_NODEV)
	for st, ms := range map[int64]uintptr{unix.ST_NOEXEC: unix.MS_NOEXEC, unix.ST_NOATIME: unix.MS_NOATIME,
		unix.ST_NODIRATIME: unix.MS_NODIRATIME, unix.ST_RELATIME: unix.MS_RELATIME} {
		if sfs.Flags&st != 0 {
			flags |= ms
		}
	}
	proc := "/proc/self/fd/" + strconv.Itoa(fd)
	if err := unix.Mount(proc, proc, "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("binding %s read-only: %w", path, err)
	}
	if err := unix.Mount("", path, "", flags, ""); err != nil {
		return fmt.Errorf("binding %s read-only: %w", path, err)
	}
	return nil
}

// confineLoopbackUp brings up the loopback interface of the new network
// namespace.
func confineLoopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("bringing up lo: %w", err)
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return fmt.Errorf("bringing up lo: %w", err)
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("bringing up lo: %w", err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("bringing up lo: %w", err)
	}
	return nil
}

// confineDropCaps drops every capability of the calling thread (ambient,
// effective, permitted, inheritable), so that bash gets none.
func confineDropCaps() error {
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return fmt.Errorf("clearing the ambient capabilities: %w", err)
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("dropping the capabilities: %w", err)
	}
	return nil
}

// confineStartBash starts bash from the calling (confined) thread with
// the plan's limits. Bash starts traced, so that the kernel stops it at its
// first instruction; the limits are set on it there and the trace ends.
// Where the kernel refuses the trace, the limits are set on this process
// before bash starts, which bash inherits.
func confineStartBash(p *confinePlan, argv, env []string) (int, error) {
	attr := &syscall.ProcAttr{Env: env, Files: []uintptr{0, 1, 2}, Sys: &syscall.SysProcAttr{Ptrace: true}}
	pid, err := syscall.ForkExec(p.Bash, argv, attr)
	if err != nil {
		if err := confineSetLimits(0, p); err != nil {
			return 0, err
		}
		attr.Sys = nil
		return syscall.ForkExec(p.Bash, argv, attr)
	}
	stop := func(err error) (int, error) {
		_ = unix.Kill(pid, unix.SIGKILL)
		var ws unix.WaitStatus
		_, _ = unix.Wait4(pid, &ws, unix.WALL, nil)
		return 0, err
	}
	var ws unix.WaitStatus
	for {
		_, err = unix.Wait4(pid, &ws, unix.WALL, nil)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	switch {
	case err != nil:
		return stop(fmt.Errorf("waiting for bash to start: %w", err))
	case !ws.Stopped():
		return stop(fmt.Errorf("bash did not stop at its start (status %#x)", uint32(ws)))
	}
	// The seccomp filter of this thread refuses prlimit64 on another
	// process, as it does bash's; the launcher's other threads are not
	// filtered, and one of them sets the limits.
	limited := make(chan error, 1)
	go func() { limited <- confineSetLimits(pid, p) }()
	if err := <-limited; err != nil {
		return stop(err)
	}
	if err := unix.PtraceDetach(pid); err != nil {
		return stop(fmt.Errorf("releasing bash: %w", err))
	}
	return pid, nil
}

// confineReap, in process 1 of the PID namespace, reaps every child until
// bash (pid) has ended, and returns its status as bash would report it.
// Returning ends the namespace and every process left in it.
func confineReap(pid int) int {
	for {
		var ws unix.WaitStatus
		got, err := unix.Wait4(-1, &ws, 0, nil)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return 126
		}
		if got != pid {
			continue
		}
		if ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ws.ExitStatus()
	}
}

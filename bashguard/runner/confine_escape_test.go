//go:build linux

package runner

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/toolgate/toolgate/internal/testenv"
)

// The escapes of a command that a person allowed and the kernel confines:
// each test runs the real attack, confined, as an unprivileged user,
// against a target it starts itself outside the confinement, and fails if
// the attack reaches it. Run as root, the tests use nobody (65534) for the
// command and for its targets, so that a target of "the same user" is one.

// escapeUser is the unprivileged user the attacks run as, and whether the
// test has to switch to it.
type escapeUser struct {
	uid, gid int
	cred     *Credential // nil when the test is not root
}

// escapeTestUser returns the user the command and its targets run as, and
// opens the directories of dirs (and their parents in the temporary
// directory) to it.
func escapeTestUser(t *testing.T, dirs ...string) escapeUser {
	t.Helper()
	u := escapeUser{uid: os.Getuid(), gid: os.Getgid()}
	if u.uid == 0 {
		u = escapeUser{uid: 65534, gid: 65534, cred: &Credential{UID: 65534, GID: 65534}}
		for _, dir := range dirs {
			for d := dir; d != filepath.Dir(d) && strings.HasPrefix(d, os.TempDir()+"/"); d = filepath.Dir(d) {
				require.NoError(t, os.Chmod(d, 0o755))
			}
			require.NoError(t, os.Chown(dir, u.uid, u.gid))
		}
	}
	return u
}

// escapeNeed skips a test whose target .ci/setup did not install, saying
// so; under TOOLGATE_REQUIRE_LANDLOCK (as in CI) that is a failure.
func escapeNeed(t *testing.T, what, why string) {
	t.Helper()
	msg := testenv.Missing(what, why)
	if os.Getenv("TOOLGATE_REQUIRE_LANDLOCK") != "" {
		t.Fatalf("TOOLGATE_REQUIRE_LANDLOCK is set, but %s", msg)
	}
	t.Skip(msg)
}

// command is a process of the user, outside any confinement.
func (u escapeUser) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Env = []string{"PATH=" + DefaultPath, "HOME=/nonexistent", "LANG=C.UTF-8"}
	if u.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(u.uid), Gid: uint32(u.gid), Groups: []uint32{}}}
	}
	return cmd
}

// start starts a process of the user outside the confinement and ends it
// with the test.
func (u escapeUser) start(t *testing.T, name string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := u.command(name, args...)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return cmd
}

// escapeRunner is a confined runner in a fresh root, as the user.
func escapeRunner(t *testing.T) (*Shell, string, escapeUser) {
	t.Helper()
	confineTestABI(t)
	r, root := runTestRunner(t)
	u := escapeTestUser(t, root)
	r.Credential = u.cred
	return r, root, u
}

// escapeWaitFor waits until path exists.
func escapeWaitFor(t *testing.T, path string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		if _, err := os.Lstat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not appear", path)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestEscapeSSHAgentSocket(t *testing.T) {
	r, _, u := escapeRunner(t)
	if _, err := exec.LookPath("ssh-agent"); err != nil {
		escapeNeed(t, "ssh-agent (openssh-client)", err.Error())
	}
	outside := runTestDir(t)
	escapeTestUser(t, outside)
	sock := filepath.Join(outside, "agent.sock")
	u.start(t, "ssh-agent", "-D", "-a", sock)
	escapeWaitFor(t, sock)
	// Outside, the agent answers its user.
	agent := u.command("ssh-add", "-l")
	agent.Env = append(agent.Env, "SSH_AUTH_SOCK="+sock)
	out, _ := agent.CombinedOutput()
	require.Equal(t, "The agent has no identities.\n", string(out), "the agent works outside the confinement")

	res, err := r.Run(context.Background(), "SSH_AUTH_SOCK="+sock+" ssh-add -l; echo \"ssh-add=$?\"")
	require.NoError(t, err)
	assert.Equal(t, "Error connecting to agent: Permission denied\nssh-add=2\n", res.Output)
	confineTestEnforced(t, res, false)
	// Not even with the network on.
	r.Confinement.Network = true
	res, err = r.Run(context.Background(), "SSH_AUTH_SOCK="+sock+" ssh-add -l; echo \"ssh-add=$?\"")
	require.NoError(t, err)
	assert.Equal(t, "Error connecting to agent: Permission denied\nssh-add=2\n", res.Output)
	confineTestEnforced(t, res, true)
}

func TestEscapePostgreSQLUnixSocket(t *testing.T) {
	r, root, u := escapeRunner(t)
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(bins) == 0 {
		escapeNeed(t, "PostgreSQL's initdb (postgresql)", "no /usr/lib/postgresql/*/bin/initdb")
	}
	bin := filepath.Dir(bins[len(bins)-1])
	outside := runTestDir(t)
	escapeTestUser(t, outside)
	data, sockDir := filepath.Join(outside, "data"), outside
	out, err := u.command(filepath.Join(bin, "initdb"), "-D", data, "-A", "trust", "--no-locale", "-E", "UTF8").CombinedOutput()
	require.NoError(t, err, "%s", out)
	out, err = u.command(filepath.Join(bin, "pg_ctl"), "-D", data, "-w", "-l", filepath.Join(outside, "log"),
		"-o", "-k "+sockDir+" -c listen_addresses= -p 5432", "start").CombinedOutput()
	require.NoError(t, err, "%s", out)
	t.Cleanup(func() { _ = u.command(filepath.Join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "stop").Run() })
	// Outside, the server runs programs for its user.
	canaryOut := filepath.Join(outside, "canary-outside")
	out, err = u.command("psql", "-h", sockDir, "-p", "5432", "-d", "postgres", "-Atc",
		"copy (select 1) to program 'touch "+canaryOut+"'").CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.FileExists(t, canaryOut, "COPY TO PROGRAM works outside the confinement")

	canary := filepath.Join(root, "canary")
	res, err := r.Run(context.Background(), "psql -h "+sockDir+" -p 5432 -d postgres -Atc \"copy (select 1) to program 'touch "+canary+"'\"; echo \"psql=$?\"")
	require.NoError(t, err)
	assert.Equal(t, "psql: error: connection to server on socket \""+sockDir+"/.s.PGSQL.5432\" failed: could not create socket: Permission denied\npsql=2\n", res.Output)
	assert.NoFileExists(t, canary, "the server ran a program for the confined command")
	confineTestEnforced(t, res, false)
}

func TestEscapeDBusSessionBus(t *testing.T) {
	r, _, u := escapeRunner(t)
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		escapeNeed(t, "dbus-daemon (dbus-daemon)", err.Error())
	}
	outside := runTestDir(t)
	escapeTestUser(t, outside)
	sock := filepath.Join(outside, "bus")
	u.start(t, "dbus-daemon", "--session", "--nofork", "--address=unix:path="+sock)
	escapeWaitFor(t, sock)
	listNames := []string{"dbus-send", "--bus=unix:path=" + sock, "--print-reply", "--dest=org.freedesktop.DBus",
		"/org/freedesktop/DBus", "org.freedesktop.DBus.ListNames"}
	out, err := u.command(listNames[0], listNames[1:]...).CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Contains(t, string(out), `string "org.freedesktop.DBus"`, "the bus answers outside the confinement")

	res, err := r.Run(context.Background(), strings.Join(listNames, " ")+"; echo \"dbus-send=$?\"")
	require.NoError(t, err)
	assert.Equal(t, "Failed to open connection to \"unix:path="+sock+"\" message bus: Failed to open socket: Permission denied\ndbus-send=1\n", res.Output)
	confineTestEnforced(t, res, false)
}

func TestEscapeGPGAgentSocket(t *testing.T) {
	r, _, u := escapeRunner(t)
	if _, err := exec.LookPath("gpg-agent"); err != nil {
		escapeNeed(t, "gpg-agent (gpg-agent)", err.Error())
	}
	home := runTestDir(t)
	escapeTestUser(t, home)
	require.NoError(t, os.Chmod(home, 0o700))
	u.start(t, "gpg-agent", "--homedir", home, "--daemon", "--no-detach")
	out, err := u.command("gpgconf", "--homedir", home, "--list-dirs", "agent-socket").Output()
	require.NoError(t, err)
	sock := strings.TrimSpace(string(out))
	escapeWaitFor(t, sock)
	// Outside, the agent answers its user (and would sign with its keys).
	ask := "gpg-connect-agent --homedir " + home + " --no-autostart 'GETINFO version' /bye"
	out, err = u.command("/bin/sh", "-c", ask).CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Contains(t, string(out), "D 2.", "the agent answers outside the confinement")

	for _, network := range []bool{false, true} {
		r.Confinement.Network = network
		// (gpg-connect-agent exits 0 either way: its output tells.)
		res, err := r.Run(context.Background(), ask+" 2>&1 | sed 's/^gpg-connect-agent: //'")
		require.NoError(t, err)
		assert.NotContains(t, res.Output, "D 2.", "network %v", network)
		assert.Equal(t, "can't connect to the agent: Permission denied\nno gpg-agent running in this session\n", res.Output, "network %v", network)
		confineTestEnforced(t, res, network)
	}
}

// escapeProbe is a Python program that does what its arguments name and
// prints the outcome, one line each: "ok" or the errno.
const escapeProbe = `python3 -c '
import ctypes, errno, socket, sys
libc = ctypes.CDLL(None, use_errno=True)
def sys_(nr, *a):
    r = libc.syscall(nr, *[ctypes.c_long(x) for x in a])
    return "ok" if r >= 0 else errno.errorcode[ctypes.get_errno()]
for what in sys.argv[1:]:
    kind, _, arg = what.partition("=")
    try:
        if kind == "unix":
            s = socket.socket(socket.AF_UNIX); s.connect(arg); out = "ok " + s.recv(64).decode().strip()
        elif kind == "abstract":
            s = socket.socket(socket.AF_UNIX); s.connect("\0" + arg); out = "ok " + s.recv(64).decode().strip()
        elif kind == "udp":
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(b"leak", ("127.0.0.1", int(arg))); out = "ok"
        elif kind == "tcp":
            host, _, port = arg.rpartition(":"); s = socket.create_connection((host.strip("[]"), int(port)), timeout=5); out = "ok " + s.recv(64).decode().strip()
        elif kind == "tcp-listen":
            s = socket.socket(socket.AF_INET6 if ":" in arg else socket.AF_INET); s.bind((arg, 0)); s.listen(); out = "ok"
        elif kind == "mptcp":
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, 262); s.connect(("127.0.0.1", int(arg))); out = "ok " + s.recv(64).decode().strip()
        elif kind == "mptcp-listen":
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, 262); s.bind(("127.0.0.1", 0)); s.listen(); out = "ok"
        elif kind == "raw":
            socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP); out = "ok"
        elif kind == "packet":
            socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0); out = "ok"
        elif kind == "pair":
            a, b = socket.socketpair(); a.send(b"x"); out = "ok " + b.recv(1).decode()
        elif kind == "dgram-pair":
            socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM); out = "ok"
        elif kind == "syscall":
            out = sys_(*[int(x, 0) for x in arg.split(",")])
    except OSError as e:
        out = errno.errorcode[e.errno]
    print(what.partition("=")[0], out)
' `

func TestEscapeUnixSocketsByPathAndAbstract(t *testing.T) {
	r, _, _ := escapeRunner(t)
	outside := runTestDir(t)
	escapeTestUser(t, outside)
	sock := filepath.Join(outside, "gpg-agent.sock")
	abstract := "toolgate-test-" + runTestMarker()
	accepted := make(chan struct{}, 4)
	for _, addr := range []string{sock, "@" + abstract} {
		ln, err := net.Listen("unix", addr)
		require.NoError(t, err)
		t.Cleanup(func() { ln.Close() })
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				_, _ = c.Write([]byte("reached\n"))
				c.Close()
				accepted <- struct{}{}
			}
		}()
	}
	require.NoError(t, os.Chmod(sock, 0o777))
	// Outside, both answer.
	out, err := exec.Command("python3", "-c", strings.TrimPrefix(strings.TrimSuffix(escapeProbe, "' "), "python3 -c '"), "unix="+sock, "abstract="+abstract).CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Equal(t, "unix ok reached\nabstract ok reached\n", string(out))
	<-accepted
	<-accepted

	for _, network := range []bool{false, true} {
		r.Confinement.Network = network
		res, err := r.Run(context.Background(), escapeProbe+"unix="+sock+" abstract="+abstract+" pair dgram-pair")
		require.NoError(t, err)
		// A connected stream pair is the one UNIX socket a command gets.
		assert.Equal(t, "unix EACCES\nabstract EACCES\npair ok x\ndgram-pair EACCES\n", res.Output, "network %v", network)
		confineTestEnforced(t, res, network)
	}
	select {
	case <-accepted:
		t.Fatal("a confined command reached a UNIX socket outside")
	default:
	}
}

func TestEscapeUDPAndMPTCP(t *testing.T) {
	r, _, _ := escapeRunner(t)
	udp, err := net.ListenPacket("udp4", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { udp.Close() })
	udpPort := strconv.Itoa(udp.LocalAddr().(*net.UDPAddr).Port)
	var lc net.ListenConfig
	lc.SetMultipathTCP(true)
	mptcp, err := lc.Listen(context.Background(), "tcp4", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { mptcp.Close() })
	mptcpPort := strconv.Itoa(mptcp.Addr().(*net.TCPAddr).Port)
	reached := make(chan string, 4)
	go func() {
		for {
			c, err := mptcp.Accept()
			if err != nil {
				return
			}
			_, _ = c.Write([]byte("reached\n"))
			c.Close()
			reached <- "mptcp"
		}
	}()
	go func() {
		var b [64]byte
		for {
			if _, _, err := udp.ReadFrom(b[:]); err != nil {
				return
			}
			reached <- "udp"
		}
	}()
	// Outside, both answer.
	check := exec.Command("python3", "-c", strings.TrimPrefix(strings.TrimSuffix(escapeProbe, "' "), "python3 -c '"), "udp="+udpPort, "mptcp="+mptcpPort)
	out, err := check.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Equal(t, "udp ok\nmptcp ok reached\n", string(out), "UDP and MPTCP work outside the confinement")
	for range 2 {
		<-reached
	}

	res, err := r.Run(context.Background(), escapeProbe+"udp="+udpPort+" mptcp="+mptcpPort+" mptcp-listen=0")
	require.NoError(t, err)
	assert.Equal(t, "udp EACCES\nmptcp EACCES\nmptcp-listen EACCES\n", res.Output)
	confineTestEnforced(t, res, false)
	select {
	case what := <-reached:
		t.Fatalf("a confined command with the network off reached the %s listener", what)
	case <-time.After(200 * time.Millisecond):
	}
}

// With the network off, a TCP listener on the host's loopback, IPv4 and
// IPv6, is not reached, and the command cannot listen there either; the
// same user reaches both outside.
func TestEscapeLoopbackTCPWithTheNetworkOff(t *testing.T) {
	r, _, u := escapeRunner(t)
	reached := make(chan string, 8)
	var connect, listen, devTCP []string
	for _, host := range []string{"127.0.0.1", "::1"} {
		ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
		if err != nil {
			msg := "SKIPPED LOUDLY: this host cannot listen on " + host + " (" + err.Error() + ")"
			if os.Getenv("TOOLGATE_REQUIRE_LANDLOCK") != "" {
				t.Fatalf("TOOLGATE_REQUIRE_LANDLOCK is set, but %s", msg)
			}
			t.Skip(msg)
		}
		t.Cleanup(func() { ln.Close() })
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				_, _ = c.Write([]byte("reached\n"))
				c.Close()
				reached <- host
			}
		}()
		port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
		connect = append(connect, "tcp="+net.JoinHostPort(host, port))
		listen = append(listen, "tcp-listen="+host)
		devTCP = append(devTCP, "/dev/tcp/"+host+"/"+port)
	}
	// Outside, the same user reaches both and listens on both.
	probe := strings.Join(append(slices.Clone(connect), listen...), " ")
	out, err := u.command("/bin/sh", "-c", escapeProbe+probe).CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Equal(t, "tcp ok reached\ntcp ok reached\ntcp-listen ok\ntcp-listen ok\n", string(out), "loopback TCP works outside the confinement")
	for range 2 {
		<-reached
	}

	res, err := r.Run(context.Background(), `(exec 3<>`+devTCP[0]+`) 2>&1; echo "devtcp4=$?"
(exec 3<>`+devTCP[1]+`) 2>&1; echo "devtcp6=$?"
`+escapeProbe+probe+`
echo "uid=$(id -u)"`)
	require.NoError(t, err)
	// The filter refuses the socket itself: no TCP socket of any family.
	assert.Equal(t, DefaultBash+": socket: Permission denied\n"+DefaultBash+": line 1: "+devTCP[0]+": Permission denied\ndevtcp4=1\n"+
		DefaultBash+": socket: Permission denied\n"+DefaultBash+": line 2: "+devTCP[1]+": Permission denied\ndevtcp6=1\n"+
		"tcp EACCES\ntcp EACCES\ntcp-listen EACCES\ntcp-listen EACCES\n"+
		"uid="+strconv.Itoa(u.uid)+"\n", res.Output)
	confineTestEnforced(t, res, false)
	select {
	case host := <-reached:
		t.Fatalf("a confined command with the network off reached the TCP listener on %s", host)
	case <-time.After(200 * time.Millisecond):
	}
}

func TestEscapeRawAndPacketSocketsAsRoot(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("SKIPPED: raw and packet sockets need root, and the test is not root; an unprivileged command never gets them")
	}
	confineTestABI(t)
	r, _ := runTestRunner(t)
	for _, network := range []bool{false, true} {
		r.Confinement.Network = network
		res, err := r.Run(context.Background(), escapeProbe+"raw packet")
		require.NoError(t, err)
		// EACCES is the filter's; without it root gets both sockets.
		assert.Equal(t, "raw EACCES\npacket EACCES\n", res.Output, "network %v", network)
		confineTestEnforced(t, res, network)
	}
}

// escapeProcState is what the attacks on another process change: its
// limits, nice value, I/O priority and CPU affinity.
func escapeProcState(t *testing.T, pid int) string {
	t.Helper()
	limits, err := os.ReadFile(fmt.Sprintf("/proc/%d/limits", pid))
	require.NoError(t, err)
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	require.NoError(t, err)
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	require.NoError(t, err)
	ioprio, err := exec.Command("ionice", "-p", strconv.Itoa(pid)).CombinedOutput()
	require.NoError(t, err, "%s", ioprio)
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
	var affinity string
	for line := range strings.SplitSeq(string(status), "\n") {
		if strings.HasPrefix(line, "Cpus_allowed_list:") {
			affinity = line
		}
	}
	return string(limits) + "nice " + fields[16] + "\n" + string(ioprio) + affinity
}

func TestEscapeOtherProcessesOfTheUser(t *testing.T) {
	r, _, u := escapeRunner(t)
	victim := u.start(t, "sleep", "1000")
	pid := strconv.Itoa(victim.Process.Pid)
	before := escapeProcState(t, victim.Process.Pid)
	res, err := r.Run(context.Background(), `
prlimit --pid `+pid+` --nofile=3:3 --cpu=1:1; echo "prlimit=$?"
renice -n 19 -p `+pid+` >/dev/null; echo "renice=$?"
ionice -c 3 -p `+pid+`; echo "ionice=$?"
taskset -p 1 `+pid+` >/dev/null; echo "taskset=$?"
renice -n 19 -g 0 >/dev/null 2>&1; echo "renice-own-group=$?"
renice -n 19 -u $(id -u) >/dev/null 2>&1; echo "renice-own-user=$?"
ulimit -n 64 && echo own-limit-ok
nice -n 5 true && echo own-nice-ok
taskset -p 1 $$ >/dev/null 2>&1; taskset -cp 0 $BASHPID >/dev/null 2>&1; echo "own-taskset-by-pid=$?"`)
	require.NoError(t, err)
	// The filter refuses prlimit and ionice by number before the kernel
	// looks the process up; renice and taskset look it up first, and in
	// a PID namespace the process outside has no number.
	renice, taskset := "renice: failed to set priority for "+pid+" (process ID): Operation not permitted\n",
		"taskset: failed to set pid "+pid+"'s affinity: Operation not permitted\n"
	if slices.Contains(res.Confined.Layers, "pidns") {
		renice, taskset = "renice: failed to get priority for "+pid+" (process ID): No such process\n",
			"taskset: failed to get pid "+pid+"'s affinity: No such process\n"
	}
	assert.Equal(t, "prlimit: failed to set the NOFILE resource limit: Operation not permitted\nprlimit=1\n"+
		renice+"renice=1\n"+
		"ionice: ioprio_set failed: Operation not permitted\nionice=1\n"+
		taskset+"taskset=1\n"+
		"renice-own-group=1\nrenice-own-user=1\n"+
		// The command's own limits and priority are its own to change
		// (through pid 0; by number, even its own is refused).
		"own-limit-ok\nown-nice-ok\nown-taskset-by-pid=1\n", res.Output)
	assert.Equal(t, before, escapeProcState(t, victim.Process.Pid), "the process outside was changed")
	confineTestEnforced(t, res, false)
}

func TestEscapeKeyringAndIOURing(t *testing.T) {
	r, _, _ := escapeRunner(t)
	const keySpecUserKeyring = -4
	res, err := r.Run(context.Background(), escapeProbe+
		fmt.Sprintf("syscall=%d,0,%d,0 ", unix.SYS_KEYCTL, keySpecUserKeyring)+ // KEYCTL_GET_KEYRING_ID
		fmt.Sprintf("syscall=%d,0,0,0,0,%d ", unix.SYS_REQUEST_KEY, keySpecUserKeyring)+
		fmt.Sprintf("syscall=%d,0,0,0,0,%d ", unix.SYS_ADD_KEY, keySpecUserKeyring)+
		fmt.Sprintf("syscall=%d,1,0", unix.SYS_IO_URING_SETUP))
	require.NoError(t, err)
	assert.Equal(t, "syscall EPERM\nsyscall EPERM\nsyscall EPERM\nsyscall EPERM\n", res.Output)
	confineTestEnforced(t, res, false)
	// Outside, the keyring answers the same call.
	out, err := exec.Command("python3", "-c", strings.TrimPrefix(strings.TrimSuffix(escapeProbe, "' "), "python3 -c '"),
		fmt.Sprintf("syscall=%d,0,%d,0", unix.SYS_KEYCTL, keySpecUserKeyring)).CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Equal(t, "syscall ok\n", string(out), "keyctl works outside the confinement")
}

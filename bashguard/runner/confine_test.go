//go:build linux

package runner

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/sandbox"
)

// confineTestSecretRoot is runTestRoot that also refuses to let commands
// read the files and directories with a secret name: Ask, as the sandbox
// answers for its secret paths.
type confineTestSecretRoot struct {
	runTestRoot
	secret map[string]bool
}

func (c confineTestSecretRoot) CheckPath(path string, write bool) (permission.Decision, string) {
	d, reason := c.runTestRoot.CheckPath(path, write)
	if d == permission.Allow && !write && c.secret[filepath.Base(path)] {
		return permission.Ask, path + " is a secret path"
	}
	return d, reason
}

// confineTestABI is the Landlock ABI version of this machine's kernel; the
// tests need Landlock with network rules (ABI 4). Where the kernel lacks
// it (an older kernel, gVisor) they skip, loudly; with
// TOOLGATE_REQUIRE_LANDLOCK set (as .ci/run sets it) such a skip is a
// failure, so that CI still proves them.
func confineTestABI(t testing.TB) int {
	t.Helper()
	return confineTestNeed(t, 4, "Landlock with network rules")
}

// confineTestNeed skips (or, under TOOLGATE_REQUIRE_LANDLOCK, fails) a test
// that needs Landlock ABI abi or later for what, and returns the kernel's.
func confineTestNeed(t testing.TB, abi int, what string) int {
	t.Helper()
	s := confineProbe()
	if s.abi >= abi {
		return s.abi
	}
	msg := fmt.Sprintf("this kernel offers Landlock ABI %d, and the test needs ABI %d (%s): %s", s.abi, abi, what, s.reason)
	if os.Getenv("TOOLGATE_REQUIRE_LANDLOCK") != "" {
		t.Fatalf("TOOLGATE_REQUIRE_LANDLOCK is set, but %s", msg)
	}
	t.Skipf("SKIPPED: %s; set TOOLGATE_REQUIRE_LANDLOCK=1 to make this a failure", msg)
	return s.abi
}

// confineTestEnforced asserts that res ran under the full confinement.
func confineTestEnforced(t *testing.T, res Result, network bool) {
	t.Helper()
	abi := confineTestABI(t)
	assert.True(t, res.Confined.Enforced, "confined: %v", res.Confined)
	assert.Equal(t, abi, res.Confined.ABI)
	assert.Empty(t, res.Confined.Reason)
	// The namespaces are there where the kernel gives them to the user
	// (the test says which, and .ci/run requires them).
	ns := confineNSProbe(!network) == ""
	if !ns && os.Getenv("TOOLGATE_REQUIRE_LANDLOCK") != "" {
		t.Fatalf("TOOLGATE_REQUIRE_LANDLOCK is set, but %s", confineNSProbe(!network))
	}
	want := []string{"fs"}
	if !network {
		want = append(want, "tcp", "udp")
	}
	if abi >= 6 || ns {
		want = append(want, "signal")
	}
	if abi >= 6 || !network {
		want = append(want, "abstract-unix")
	}
	want = append(want, "unix-socket", "mptcp", "raw-socket", "io-uring", "other-processes", "keyring")
	layers := []string{"seccomp"}
	if ns {
		want = append(want, "runtime-sockets", "outliving")
		layers = append(layers, "pidns", "mountns")
		if !network {
			layers = append(layers, "netns")
		}
	}
	assert.Equal(t, want, res.Confined.Restricted)
	assert.Equal(t, layers, res.Confined.Layers)
}

func TestConfinedCommandCannotWriteOutsideRoots(t *testing.T) {
	r, root := runTestRunner(t)
	outside := runTestDir(t)
	// As if a person had approved these commands: the runner runs what it
	// is given; only the kernel stands in the way.
	res, err := r.Run(context.Background(), `
sh -c 'echo x > "$1/by-sh"' sh `+outside+`; echo "sh=$?"
python3 -c 'import sys; open(sys.argv[1] + "/by-python", "w").write("x")' `+outside+` 2>&1 | tail -n 1; echo "python=${PIPESTATUS[0]}"
mkdir `+outside+`/by-mkdir; echo "mkdir=$?"
echo inside > inside.txt && cat inside.txt
echo tmp > "$TMPDIR/t" && cat "$TMPDIR/t"`)
	require.NoError(t, err)
	assert.Equal(t, "sh: 1: cannot create "+outside+"/by-sh: Permission denied\nsh=2\n"+
		"PermissionError: [Errno 13] Permission denied: '"+outside+"/by-python'\npython=1\n"+
		"mkdir: cannot create directory ‘"+outside+"/by-mkdir’: Permission denied\nmkdir=1\n"+
		"inside\ntmp\n", res.Output)
	assert.Equal(t, 0, res.ExitCode)
	confineTestEnforced(t, res, false)
	entries, err := os.ReadDir(outside)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing was written outside the roots")
	assert.FileExists(t, filepath.Join(root, "inside.txt"))
}

func TestConfinedCommandCannotReadOutsideRootsAndSystem(t *testing.T) {
	r, _ := runTestRunner(t)
	outside := runTestDir(t)
	secret := filepath.Join(outside, "secret.txt")
	require.NoError(t, os.WriteFile(secret, []byte("outside secret\n"), 0o644))
	res, err := r.Run(context.Background(), `
cat `+secret+`; echo "cat=$?"
ls `+outside+` >/dev/null; echo "ls=$?"
python3 -c 'import sys; print(open(sys.argv[1]).read())' `+secret+` 2>&1 | tail -n 1
head -c 4 /etc/passwd; echo
test -x /usr/bin/env && echo usr-ok
head -c 1 /dev/urandom | wc -c
tr '\0' '\n' < /proc/`+strconv.Itoa(os.Getpid())+`/environ | head -n 1; echo "host-environ=${PIPESTATUS[0]}"
readlink /proc/self/fd/0; echo to-stderr > /dev/stderr; cat <(echo substituted)`)
	require.NoError(t, err)
	assert.Equal(t, "cat: "+secret+": Permission denied\ncat=1\n"+
		"ls: cannot open directory '"+outside+"': Permission denied\nls=2\n"+
		"PermissionError: [Errno 13] Permission denied: '"+secret+"'\n"+
		"root\nusr-ok\n1\n"+
		// The host's environment, which may hold credentials, is out of
		// reach: /proc is not granted by default.
		DefaultBash+": line 8: /proc/"+strconv.Itoa(os.Getpid())+"/environ: Permission denied\nhost-environ=1\n"+
		// Paths through /proc still resolve.
		"/dev/null\nto-stderr\nsubstituted\n", res.Output)
	assert.NotContains(t, res.Output, "outside secret")
	confineTestEnforced(t, res, false)
}

// confineTestListener accepts connections on 127.0.0.1 and counts them.
func confineTestListener(t *testing.T) (port string, accepted <-chan struct{}) {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	ch := make(chan struct{}, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_, _ = io.WriteString(c, "hello from the listener\n")
			c.Close()
			ch <- struct{}{}
		}
	}()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port), ch
}

const confineTestConnect = `python3 -c '
import socket, sys
try:
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
    print("connected:", s.recv(100).decode().strip())
except OSError as e:
    print("refused:", e)
' `

func TestConfinedNetworkOffRefusesTCP(t *testing.T) {
	port, accepted := confineTestListener(t)
	r, _ := runTestRunner(t)
	res, err := r.Run(context.Background(), confineTestConnect+port+`
(exec 3<>/dev/tcp/127.0.0.1/`+port+`) 2>&1; echo "devtcp=$?"
python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0))' 2>&1 | tail -n 1`)
	require.NoError(t, err)
	assert.Equal(t, "refused: [Errno 13] Permission denied\n"+
		DefaultBash+": socket: Permission denied\n"+DefaultBash+": line 9: /dev/tcp/127.0.0.1/"+port+": Permission denied\ndevtcp=1\n"+
		"PermissionError: [Errno 13] Permission denied\n", res.Output)
	confineTestEnforced(t, res, false)
	select {
	case <-accepted:
		t.Fatal("the listener accepted a connection from a command with the network off")
	default:
	}
}

func TestConfinedNetworkOnAllowsTCP(t *testing.T) {
	port, accepted := confineTestListener(t)
	r, _ := runTestRunner(t)
	r.Confinement.Network = true
	res, err := r.Run(context.Background(), confineTestConnect+port)
	require.NoError(t, err)
	assert.Equal(t, "connected: hello from the listener\n", res.Output)
	confineTestEnforced(t, res, true)
	select {
	case <-accepted:
	case <-time.After(5 * time.Second):
		t.Fatal("the listener saw no connection")
	}
}

func TestConfinedCommandCannotSignalTheHost(t *testing.T) {
	confineTestNeed(t, 6, "signal scoping")
	r, _ := runTestRunner(t)
	res, err := r.Run(context.Background(), "kill -0 "+strconv.Itoa(os.Getpid())+"; echo \"kill=$?\"; sleep 0 & kill -0 $! && echo own-child-ok")
	require.NoError(t, err)
	// In a PID namespace the host has no number; without one, Landlock
	// refuses.
	why := "Operation not permitted"
	if confineNSProbe(true) == "" {
		why = "No such process"
	}
	assert.Equal(t, DefaultBash+": line 1: kill: ("+strconv.Itoa(os.Getpid())+") - "+why+"\nkill=1\nown-child-ok\n", res.Output)
	confineTestEnforced(t, res, false)
}

func TestConfinedRunLeavesTheHostUnrestricted(t *testing.T) {
	r, _ := runTestRunner(t)
	outside := runTestDir(t)
	for i := range 3 {
		res, err := r.Run(context.Background(), "echo x > "+outside+"/f"+strconv.Itoa(i)+"; echo $?")
		require.NoError(t, err)
		assert.Equal(t, DefaultBash+": line 1: "+outside+"/f"+strconv.Itoa(i)+": Permission denied\n1\n", res.Output)
		confineTestEnforced(t, res, false)
	}
	// The host, and new threads of it, still write, read and connect
	// anywhere.
	done := make(chan error, 1)
	go func() {
		done <- os.WriteFile(filepath.Join(outside, "by-host"), []byte("host\n"), 0o600)
	}()
	require.NoError(t, <-done)
	require.NoError(t, os.WriteFile(filepath.Join(outside, "by-host-2"), []byte("host\n"), 0o600))
	b, err := os.ReadFile(filepath.Join(outside, "by-host"))
	require.NoError(t, err)
	assert.Equal(t, "host\n", string(b))
	port, accepted := confineTestListener(t)
	c, err := net.Dial("tcp4", "127.0.0.1:"+port)
	require.NoError(t, err)
	line, err := io.ReadAll(c)
	c.Close()
	require.NoError(t, err)
	assert.Equal(t, "hello from the listener\n", string(line))
	<-accepted
	// A child the host starts itself, outside the runner, is not
	// confined either.
	out, err := exec.Command("/bin/sh", "-c", "echo child > "+outside+"/by-child && cat "+outside+"/by-child").CombinedOutput()
	require.NoError(t, err)
	assert.Equal(t, "child\n", string(out))
}

func TestConfinedSecretsInsideRootsAreNotReadable(t *testing.T) {
	root := runTestDir(t)
	for name, body := range map[string]string{
		".env":                "TOKEN=top-secret\n",
		"README.md":           "readme\n",
		"src/main.go":         "package main\n",
		"src/keys/id_rsa":     "PRIVATE KEY\n",
		"src/keys/public.txt": "public\n",
		"docs/guide.md":       "guide\n",
	} {
		p := filepath.Join(root, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	checker := confineTestSecretRoot{runTestRoot{root: root}, map[string]bool{".env": true, "id_rsa": true}}
	r := &Shell{Dir: root, Checker: checker}
	script := `cat .env; cat src/keys/id_rsa; cat README.md src/main.go src/keys/public.txt docs/guide.md
ls -A | tr '\n' ' '; echo
echo new > docs/new.md && cat docs/new.md
echo top > top.txt; echo "write=$?"; cat top.txt; echo "read=$?"`
	res, err := r.Run(context.Background(), script)
	require.NoError(t, err)
	assert.Equal(t, "cat: .env: Permission denied\ncat: src/keys/id_rsa: Permission denied\n"+
		"readme\npackage main\npublic\nguide\n"+
		".env README.md docs src \n"+
		"new\n"+
		// Documented: a file created during the run in a directory that
		// holds a secret is written but cannot be read back in that run.
		"write=0\ncat: top.txt: Permission denied\nread=1\n", res.Output)
	confineTestEnforced(t, res, false)
	assert.Equal(t, 2, res.Confined.Secrets)
	assert.Contains(t, res.Confined.String(), "; 2 secret paths hidden")

	// The next run grants the file the last one created.
	res, err = r.Run(context.Background(), "cat top.txt")
	require.NoError(t, err)
	assert.Equal(t, "top\n", res.Output)

	// A policy that allows secrets grants the roots whole.
	r.Confinement.ReadSecrets = true
	res, err = r.Run(context.Background(), "cat .env src/keys/id_rsa")
	require.NoError(t, err)
	assert.Equal(t, "TOKEN=top-secret\nPRIVATE KEY\n", res.Output)
	assert.Zero(t, res.Confined.Secrets)
	assert.True(t, res.Confined.Enforced)
}

func TestConfinedRootsAndReadOnlyAreConfigurable(t *testing.T) {
	work := runTestDir(t)
	other := runTestDir(t)
	shared := runTestDir(t)
	require.NoError(t, os.WriteFile(filepath.Join(shared, "lib.txt"), []byte("shared\n"), 0o644))
	r := &Shell{Dir: work, Checker: runTestRoot{root: filepath.Dir(work)}, Confinement: Confinement{
		Roots:    []string{work, other},
		ReadOnly: append(DefaultConfineReadOnly(), shared),
	}}
	res, err := r.Run(context.Background(), "echo o > "+other+"/o && cat "+other+"/o "+shared+"/lib.txt; echo no > "+shared+"/w; echo $?")
	require.NoError(t, err)
	assert.Equal(t, "o\nshared\n"+DefaultBash+": line 1: "+shared+"/w: Permission denied\n1\n", res.Output)
	confineTestEnforced(t, res, false)

	// Without the system locations, not even bash can be executed.
	r.Confinement.ReadOnly = []string{}
	res, err = r.Run(context.Background(), "true")
	require.ErrorIs(t, err, ErrConfineFailed)
	assert.EqualError(t, err, "runner: kernel confinement failed: executing "+DefaultBash+": permission denied; the command did not run")
	assert.Equal(t, 126, res.ExitCode)
	assert.False(t, res.Confined.Enforced)
}

func TestConfineFallbackWhenUnavailable(t *testing.T) {
	unavailable := func() confineSupport {
		return confineSupport{reason: "Landlock is not available (forced by the test)"}
	}
	outside := runTestDir(t)
	target := filepath.Join(outside, "written")

	// The default refuses, and says so in the error and the result.
	r, _ := runTestRunner(t)
	r.probe = unavailable
	res, err := r.Run(context.Background(), "echo x > "+target)
	require.ErrorIs(t, err, ErrConfineUnavailable)
	assert.EqualError(t, err, "runner: kernel confinement unavailable: Landlock is not available (forced by the test) (Confinement.Fallback is refuse)")
	assert.Equal(t, ConfineLevel{Reason: "Landlock is not available (forced by the test); the command was refused"}, res.Confined)
	assert.Equal(t, "none: Landlock is not available (forced by the test); the command was refused", res.Confined.String())
	assert.Equal(t, -1, res.ExitCode)
	assert.NoFileExists(t, target, "the command did not run")

	// The opt-in runs it unconfined, says so, and logs it.
	var logged bytes.Buffer
	r.Confinement.Fallback = ConfineRunUnconfined
	r.Confinement.Logger = slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
	res, err = r.Run(context.Background(), "echo x > "+target+"; echo $?")
	require.NoError(t, err)
	assert.Equal(t, "0\n", res.Output)
	assert.FileExists(t, target, "unconfined: the write outside the roots succeeded")
	assert.Equal(t, ConfineLevel{Reason: "Landlock is not available (forced by the test); the command ran unconfined"}, res.Confined)
	assert.False(t, res.Confined.Enforced)
	assert.Equal(t, `level=WARN msg="runner: running a command without kernel confinement" reason="Landlock is not available (forced by the test)" dir=`+r.Dir+"\n", logged.String())

	// Landlock without network rules cannot keep the network off.
	r.Confinement.Fallback = ConfineRefuse
	r.probe = func() confineSupport { return confineSupport{abi: 3} }
	res, err = r.Run(context.Background(), "true")
	require.ErrorIs(t, err, ErrConfineUnavailable)
	assert.Contains(t, res.Confined.Reason, "Landlock ABI version 3 cannot refuse TCP connections (version 4 can), and the network is off")
	// With the network on, ABI 3 is enough.
	r.Confinement.Network = true
	res, err = r.Run(context.Background(), "echo ok")
	require.NoError(t, err)
	assert.Equal(t, "ok\n", res.Output)
	// (ABI 3 has no signal scoping: the PID namespace stands in for it.)
	if confineNSProbe(false) == "" {
		assert.Equal(t, ConfineLevel{Enforced: true, ABI: 3, Layers: []string{"seccomp", "pidns", "mountns"},
			Restricted: []string{"fs", "signal", "unix-socket", "mptcp", "raw-socket", "io-uring", "other-processes", "keyring", "runtime-sockets", "outliving"}}, res.Confined)
		assert.Equal(t, "landlock v3 + seccomp + pidns + mountns: fs, signal, unix-socket, mptcp, raw-socket, io-uring, other-processes, keyring, runtime-sockets, outliving", res.Confined.String())
	}
	// Without signal scoping and without namespaces, a command could
	// signal the user's other processes: refused.
	r.nsProbe = func(bool) string { return "no namespaces (forced by the test)" }
	res, err = r.Run(context.Background(), "echo ran")
	require.ErrorIs(t, err, ErrConfineUnavailable)
	assert.Empty(t, res.Output)
	assert.Equal(t, "no namespaces (forced by the test), and Landlock ABI 3 cannot keep a command from signalling the user's other processes (ABI 6 can; a PID namespace would); the command was refused", res.Confined.Reason)
	r.nsProbe = nil

	// Without seccomp, Landlock alone leaves the user's UNIX sockets open.
	r.probe = func() confineSupport {
		return confineSupport{abi: 7, seccomp: "the kernel has no seccomp (forced by the test)"}
	}
	res, err = r.Run(context.Background(), "echo ran")
	require.ErrorIs(t, err, ErrConfineUnavailable)
	assert.Empty(t, res.Output)
	assert.Equal(t, "the kernel has no seccomp (forced by the test); without the seccomp filter a confined command could reach the user's UNIX sockets (ssh-agent, D-Bus, databases), UDP, MPTCP, other processes' limits and the keyring; the command was refused", res.Confined.Reason)
}

func TestConfineLauncherThatDoesNotReport(t *testing.T) {
	r, root := runTestRunner(t)
	r.Confinement.Launcher = "/bin/true"
	res, err := r.Run(context.Background(), "touch ran")
	require.ErrorIs(t, err, ErrConfineFailed)
	assert.EqualError(t, err, "runner: kernel confinement failed: the launcher /bin/true did not report (it exited with status 0; does it call runner.ConfineMain first thing in main?); the command did not run")
	assert.False(t, res.Confined.Enforced)
	assert.Equal(t, err.Error(), res.Confined.Reason)
	assert.NoFileExists(t, filepath.Join(root, "ran"))
}

func TestConfineWalkBound(t *testing.T) {
	r, root := runTestRunner(t)
	for i := range 5 {
		require.NoError(t, os.WriteFile(filepath.Join(root, "f"+strconv.Itoa(i)), nil, 0o644))
	}
	r.Confinement.MaxWalk = 4
	res, err := r.Run(context.Background(), "touch ran")
	require.ErrorIs(t, err, ErrConfineFailed)
	assert.EqualError(t, err, "runner: kernel confinement failed: the roots hold more than 4 entries, too many to find their secret paths (see Confinement.MaxWalk and ReadSecrets)")
	assert.Contains(t, res.Confined.Reason, "the command was refused")
	assert.NoFileExists(t, filepath.Join(root, "ran"))

	r.Confinement.MaxWalk = 5
	res, err = r.Run(context.Background(), "touch ran")
	require.NoError(t, err)
	assert.True(t, res.Confined.Enforced)
	assert.FileExists(t, filepath.Join(root, "ran"))
}

func TestConfineInvalidConfiguration(t *testing.T) {
	dir := runTestDir(t)
	ok := runTestRoot{root: dir}
	for _, tc := range []struct {
		c    Confinement
		want string
	}{
		{Confinement{Fallback: 7}, "Confinement.Fallback invalid(7) is not a known fallback"},
		{Confinement{MaxWalk: -1}, "Confinement.MaxWalk -1 is negative"},
		{Confinement{Launcher: "toolgate"}, `Confinement.Launcher "toolgate" is not an absolute path`},
		{Confinement{ReadOnly: []string{"usr"}}, `Confinement.ReadOnly entry "usr" is not an absolute path`},
		{Confinement{Devices: []string{"null"}}, `Confinement.Devices entry "null" is not an absolute path`},
		{Confinement{Roots: []string{"work"}}, `Confinement.Roots entry "work" is not an absolute path`},
		{Confinement{Roots: []string{filepath.Join(dir, "missing")}}, `Confinement.Roots entry "` + filepath.Join(dir, "missing") + `": lstat ` + filepath.Join(dir, "missing") + `: no such file or directory`},
	} {
		r := Shell{Dir: dir, Checker: ok, Confinement: tc.c}
		_, err := r.Run(context.Background(), "true")
		require.ErrorIs(t, err, ErrConfig, tc.want)
		assert.EqualError(t, err, ErrConfig.Error()+": "+tc.want)
	}
}

// BenchmarkRunnerConfinedStart sets the start of a confined "true" (the
// launcher's own start, the plan, the Landlock ruleset, then bash) beside
// the same runner running it unconfined.
func BenchmarkRunnerConfinedStart(b *testing.B) {
	confineTestABI(b)
	dir, err := filepath.EvalSymlinks(b.TempDir())
	require.NoError(b, err)
	for _, tc := range []struct {
		name  string
		probe func() confineSupport
	}{
		{"confined", nil},
		{"unconfined", func() confineSupport { return confineSupport{reason: "benchmark"} }},
	} {
		r := &Shell{Dir: dir, Checker: runTestRoot{root: dir}, probe: tc.probe,
			Confinement: Confinement{Fallback: ConfineRunUnconfined}}
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res, err := r.Run(context.Background(), "true")
				if err != nil || res.ExitCode != 0 || res.Confined.Enforced != (tc.probe == nil) {
					b.Fatalf("%+v %v", res, err)
				}
			}
		})
	}
}

// BenchmarkConfineWalk is the per-run cost of finding the secret paths of
// a root of 2,000 files in 100 directories, with one secret, through the
// sandbox's checker, beside granting the root whole (ReadSecrets).
func BenchmarkConfineWalk(b *testing.B) {
	root, err := filepath.EvalSymlinks(b.TempDir())
	require.NoError(b, err)
	for d := range 100 {
		dir := filepath.Join(root, "pkg"+strconv.Itoa(d))
		require.NoError(b, os.Mkdir(dir, 0o755))
		for f := range 20 {
			require.NoError(b, os.WriteFile(filepath.Join(dir, "f"+strconv.Itoa(f)+".go"), nil, 0o644))
		}
	}
	require.NoError(b, os.WriteFile(filepath.Join(root, "pkg7", ".env"), nil, 0o600))
	checker, err := sandbox.New(sandbox.Config{Roots: []string{root}, WorkDir: root})
	require.NoError(b, err)
	for _, secrets := range []bool{false, true} {
		name := "walk"
		if secrets {
			name = "read-secrets"
		}
		c := runConfig{bash: DefaultBash, dir: root, roots: []string{root}, checker: checker,
			confine: Confinement{ReadSecrets: secrets}, maxProcs: DefaultMaxProcs}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p, lvl, err := confinePrepare(c, 7, "/tmp")
				if err != nil || (lvl.Secrets == 1) == secrets || len(p.Rules) < 10 {
					b.Fatalf("%d rules, %+v, %v", len(p.Rules), lvl, err)
				}
			}
		})
	}
}

func TestConfineLauncherKilledBeforeItReports(t *testing.T) {
	r, _ := runTestRunner(t)
	bin := filepath.Join(runTestDir(t), "hangs")
	require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\nexec sleep 30\n"), 0o755))
	r.Confinement.Launcher = bin
	r.Timeout = 500 * time.Millisecond
	res, err := r.Run(context.Background(), "true")
	require.NoError(t, err, "a timeout is not an error, even before the launcher reported")
	assert.True(t, res.TimedOut)
	assert.Equal(t, 128+9, res.ExitCode)
	assert.Empty(t, res.Output)
}

func TestConfineRefusesALauncherInAWritableGrant(t *testing.T) {
	confineTestABI(t)
	r, root := runTestRunner(t)
	exe, err := os.Executable()
	require.NoError(t, err)
	launcher := filepath.Join(root, "bin", "toolgate")
	require.NoError(t, os.MkdirAll(filepath.Dir(launcher), 0o755))
	b, err := os.ReadFile(exe)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(launcher, b, 0o755))
	r.Confinement.Launcher = launcher
	res, err := r.Run(context.Background(), "echo ran")
	require.ErrorIs(t, err, ErrConfineUnavailable)
	assert.Empty(t, res.Output)
	assert.Equal(t, "the launcher "+launcher+" lies in "+root+", which a confined command may write: it could replace the launcher and run unconfined the next time; the command was refused", res.Confined.Reason)
	ok, why := r.CanConfine()
	assert.False(t, ok)
	assert.Contains(t, why, "lies in "+root)
	// The same in a Writable location (a toolchain's bin beside its cache).
	r2, _ := runTestRunner(t)
	r2.Confinement.Launcher = launcher
	r2.Confinement.Writable = []string{filepath.Dir(launcher)}
	_, err = r2.Run(context.Background(), "echo ran")
	require.ErrorIs(t, err, ErrConfineUnavailable)
}

func TestConfinedSecretRenamedStaysSecret(t *testing.T) {
	confineTestABI(t)
	root := runTestDir(t)
	require.NoError(t, os.WriteFile(filepath.Join(root, ".env"), []byte("TOKEN=top-secret\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "keys"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "keys", "id_rsa"), []byte("PRIVATE KEY\n"), 0o644))
	checker := confineTestSecretRoot{runTestRoot{root: root}, map[string]bool{".env": true, "keys": true}}
	for _, recorded := range []bool{false, true} {
		r := &Shell{Dir: root, Checker: checker}
		if recorded {
			r.Confinement.IdentityFile = filepath.Join(runTestDir(t), "identities.json")
		}
		// One command renames the secrets (it may: the guard asks about
		// such writes, the kernel does not refuse them) ...
		res, err := r.Run(context.Background(), "mv .env notes.txt && mv keys docs && echo moved")
		require.NoError(t, err)
		require.Equal(t, "moved\n", res.Output)
		// ... and the next reads them under their new names.
		res, err = r.Run(context.Background(), "cat notes.txt docs/id_rsa 2>&1 | sed 's/^cat: //'")
		require.NoError(t, err)
		if recorded {
			assert.Equal(t, "notes.txt: Permission denied\ndocs/id_rsa: Permission denied\n", res.Output)
			assert.Equal(t, 2, res.Confined.Secrets)
		} else {
			assert.Equal(t, "TOKEN=top-secret\nPRIVATE KEY\n", res.Output, "without a record, names alone decide")
		}
		// Put them back for the next round.
		require.NoError(t, os.Rename(filepath.Join(root, "notes.txt"), filepath.Join(root, ".env")))
		require.NoError(t, os.Rename(filepath.Join(root, "docs"), filepath.Join(root, "keys")))
	}
}

// TestConfinedCommandHoldsOnlyItsStreams runs a command that lists the
// descriptors bash holds: only its standard streams, whether the plan
// used the Landlock ruleset the runner made for its shape, or left it
// unused because a grant lies where the mount namespace covers (the
// launcher then makes its own, and closes the runner's before bash runs).
func TestConfinedCommandHoldsOnlyItsStreams(t *testing.T) {
	// A descriptor is open when bash can duplicate it (from 10 on, bash
	// keeps its own copies of those it redirects).
	const list = `for n in 0 1 2 3 4 5 6 7 8 9; do { : <&$n; } 2>/dev/null && printf '%s ' $n; done`
	for _, c := range []struct {
		name   string
		hidden bool
	}{{"ruleset used", false}, {"ruleset unused", true}} {
		t.Run(c.name, func(t *testing.T) {
			r, _ := runTestRunner(t)
			if c.hidden {
				covered := runTestDir(t)
				require.NoError(t, os.Mkdir(filepath.Join(covered, "sub"), 0o755))
				r.Confinement.Hidden = []string{covered}
				r.Confinement.ReadOnly = append(DefaultConfineReadOnly(), filepath.Join(covered, "sub"))
			}
			// The first run walks for itself; the second runs from the
			// facts the Shell keeps.
			for run := range 2 {
				res, err := r.Run(context.Background(), list)
				require.NoError(t, err, "run %d", run)
				assert.Equal(t, "0 1 2 ", res.Output, "run %d: bash holds its streams and nothing else", run)
				confineTestEnforced(t, res, false)
			}
		})
	}
}

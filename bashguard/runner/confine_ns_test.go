//go:build linux

package runner

import (
	"context"
	"fmt"
	"net"
	"net/http"
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
	"github.com/toolgate/toolgate/sandbox"
	"golang.org/x/sys/unix"
)

// confineTestNeedNS skips (or, under TOOLGATE_REQUIRE_LANDLOCK, fails) a
// test of the namespace layer where the kernel does not give the user
// namespaces.
func confineTestNeedNS(t *testing.T, newNet bool) {
	t.Helper()
	confineTestABI(t)
	why := confineNSProbe(newNet)
	if why == "" {
		return
	}
	if os.Getenv("TOOLGATE_REQUIRE_LANDLOCK") != "" {
		t.Fatalf("TOOLGATE_REQUIRE_LANDLOCK is set, but %s", why)
	}
	t.Skipf("SKIPPED: %s; the namespace layer is untested here", why)
}

// confineTestAlive lists the live processes whose command line holds
// marker.
func confineTestAlive(marker string) []runTestProc {
	var alive []runTestProc
	for _, p := range runTestProcs() {
		if strings.Contains(p.cmdline, marker) {
			alive = append(alive, p)
		}
	}
	return alive
}

func TestEscapeOutlivingTheCall(t *testing.T) {
	confineTestNeedNS(t, true)
	r, _, _ := escapeRunner(t)
	m := runTestMarker()
	// Leave the process group and the environment that carries the run's
	// token: only the PID namespace still holds them.
	res, err := r.Run(context.Background(), "setsid env -i /bin/sleep "+m+" >/dev/null 2>&1 & "+
		"(setsid env -i /bin/sh -c '/bin/sleep "+m+" & exec /bin/sleep "+m+"' >/dev/null 2>&1 &); "+
		"nohup env -i /bin/sleep "+m+" >/dev/null 2>&1 & disown; /bin/sleep 0.3; echo started")
	require.NoError(t, err)
	assert.Equal(t, "started\n", res.Output)
	confineTestEnforced(t, res, false)
	assert.Empty(t, confineTestAlive(m), "a process of the call outlived it")
}

func TestEscapeSIGKILLOfTheLauncher(t *testing.T) {
	confineTestNeedNS(t, true)
	r, root, _ := escapeRunner(t)
	m := runTestMarker()
	done := make(chan error, 1)
	go func() {
		_, err := r.Run(context.Background(), "setsid env -i /bin/sleep "+m+" >/dev/null 2>&1 & touch ready; /bin/sleep "+m)
		done <- err
	}()
	escapeWaitFor(t, filepath.Join(root, "ready"))
	// The launcher is this test's child (this test binary again, or bash
	// where it executed bash): kill it, and nothing else, the way an OOM
	// kill or a crash would.
	var launcher int
	for _, p := range runTestProcs() {
		if confineTestParent(p.pid) == os.Getpid() && strings.Contains(p.cmdline, m) {
			launcher = p.pid
		}
	}
	require.NotZero(t, launcher, "the launcher's process")
	require.NoError(t, syscall.Kill(launcher, syscall.SIGKILL))
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the run did not end after its launcher was killed")
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(confineTestAlive(m)) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	assert.Empty(t, confineTestAlive(m), "a process outlived its killed launcher")
}

func TestConfinedMountViewHidesRuntimeSockets(t *testing.T) {
	confineTestNeedNS(t, true)
	r, _, _ := escapeRunner(t)
	runtimeDir := runTestDir(t)
	escapeTestUser(t, runtimeDir)
	ln, err := net.Listen("unix", filepath.Join(runtimeDir, "bus"))
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	sockFile := filepath.Join(runtimeDir, "docker.sock")
	require.NoError(t, os.WriteFile(sockFile, []byte("canary\n"), 0o644))
	other := runTestDir(t)
	escapeTestUser(t, other)
	require.NoError(t, os.WriteFile(filepath.Join(other, "docker.sock"), []byte("canary\n"), 0o644))
	// Granted for reading, so that only the mount view hides them.
	r.Confinement.ReadOnly = append(DefaultConfineReadOnly(), runtimeDir, other)
	r.Confinement.Hidden = []string{runtimeDir, filepath.Join(other, "docker.sock")}
	res, err := r.Run(context.Background(), "ls -A "+runtimeDir+"; echo \"ls=$?\"; cat "+other+"/docker.sock; echo \"cat=$?\"; touch "+runtimeDir+"/x 2>&1 | sed 's/.*: //'")
	require.NoError(t, err)
	assert.Equal(t, "ls=0\ncat=0\nRead-only file system\n", res.Output)
	confineTestEnforced(t, res, false)
	entries, err := os.ReadDir(runtimeDir)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "outside, the directory is as it was")
}

func TestConfinedLoopbackNetwork(t *testing.T) {
	confineTestNeedNS(t, true)
	r, _, _ := escapeRunner(t)
	r.Confinement.Loopback = true
	// A server of the host's, on its loopback and on another address: the
	// command reaches neither.
	hostSrv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("host\n")) })}
	ln, err := net.Listen("tcp4", "0.0.0.0:0")
	require.NoError(t, err)
	go func() { _ = hostSrv.Serve(ln) }()
	t.Cleanup(func() { hostSrv.Close() })
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	other := "192.0.2.1" // TEST-NET-1: routed nowhere, and never loopback
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if ip, ok := a.(*net.IPNet); ok && !ip.IP.IsLoopback() && ip.IP.To4() != nil {
				other = ip.IP.String()
				break
			}
		}
	}
	out, err := exec.Command("curl", "-sS", "--max-time", "5", "http://"+other+":"+port+"/").CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Equal(t, "host\n", string(out), "the host's server answers outside the confinement")

	res, err := r.Run(context.Background(), `
python3 -m http.server --bind 127.0.0.1 8765 >/dev/null 2>&1 &
python3 -m http.server --bind ::1 8766 >/dev/null 2>&1 &
for i in $(seq 50); do curl -s -o /dev/null http://127.0.0.1:8765/ && curl -s -o /dev/null 'http://[::1]:8766/' && break; sleep 0.1; done
curl -sS -o /dev/null -w '127.0.0.1 %{http_code}\n' http://127.0.0.1:8765/
curl -sS -o /dev/null -w '::1 %{http_code}\n' 'http://[::1]:8766/'
curl -sS --max-time 5 http://`+other+`:`+port+`/ 2>&1 | sed 's/ after [0-9]* ms//'; echo "other=${PIPESTATUS[0]}"
curl -sS --max-time 5 http://127.0.0.1:`+port+`/ 2>&1 | sed 's/ after [0-9]* ms//'; echo "host-loopback=${PIPESTATUS[0]}"
python3 -c 'import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(b"x", ("8.8.8.8", 53))' 2>&1 | tail -n 1
kill %1 %2`)
	require.NoError(t, err)
	assert.Equal(t, "127.0.0.1 200\n::1 200\n"+
		"curl: (7) Failed to connect to "+other+" port "+port+": Couldn't connect to server\nother=7\n"+
		"curl: (7) Failed to connect to 127.0.0.1 port "+port+": Couldn't connect to server\nhost-loopback=7\n"+
		"OSError: [Errno 101] Network is unreachable\n", res.Output)
	assert.True(t, res.Confined.Enforced)
	assert.Equal(t, []string{"seccomp", "pidns", "mountns", "netns"}, res.Confined.Layers)
	assert.Contains(t, res.Confined.Restricted, "non-loopback")
	assert.NotContains(t, res.Confined.Restricted, "tcp")
}

func TestConfinedLoopbackGoTestWithHTTPTest(t *testing.T) {
	confineTestNeedNS(t, true)
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("SKIPPED: no go command on PATH: %v", err)
	}
	goroot, err := exec.Command(goBin, "env", "GOROOT").Output()
	require.NoError(t, err)
	cache, err := exec.Command(goBin, "env", "GOCACHE").Output()
	require.NoError(t, err)
	confineTestABI(t)
	// As the host's own user, so that the Go build cache it has is used.
	r, root := runTestRunner(t)
	r.Timeout = MaxTimeout
	r.Confinement.Loopback = true
	r.Confinement.ReadOnly = append(DefaultConfineReadOnly(), strings.TrimSpace(string(goroot)))
	r.Confinement.Writable = []string{strings.TrimSpace(string(cache))}
	r.Env = []string{"PATH=" + filepath.Join(strings.TrimSpace(string(goroot)), "bin") + ":" + DefaultPath,
		"GOCACHE=" + strings.TrimSpace(string(cache)), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOTOOLCHAIN=local"}
	for name, body := range map[string]string{
		"go.mod": "module example.com/srv\n\ngo 1.21\n",
		"srv_test.go": `package srv

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestServer(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello") }))
	defer s.Close()
	resp, err := http.Get(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	if string(b) != "hello" {
		t.Fatalf("got %q", b)
	}
}
`,
	} {
		require.NoError(t, os.WriteFile(filepath.Join(root, name), []byte(body), 0o644))
	}
	res, err := r.Run(context.Background(), "go test -count=1 ./... 2>&1 | sed 's/\\t[0-9.]*s$//'")
	require.NoError(t, err)
	assert.Equal(t, "ok  \texample.com/srv\n", res.Output)
	assert.Equal(t, []string{"seccomp", "pidns", "mountns", "netns"}, res.Confined.Layers)
}

func TestEscapePlantingCodeForTheNextRun(t *testing.T) {
	confineTestNeedNS(t, true)
	confineTestABI(t)
	root := runTestDir(t)
	u := escapeTestUser(t, root)
	git := func(args ...string) {
		t.Helper()
		cmd := u.command("git", append([]string{"-C", root, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	git("init", "-q")
	files := map[string]string{
		".claude/settings.local.json": "{}\n",
		".vscode/tasks.json":          "{}\n",
		".envrc":                      "export A=1\n",
		".mcp.json":                   "{}\n",
		".github/workflows/ci.yml":    "on: push\n",
		".gitmodules":                 "",
		"CLAUDE.md":                   "# rules\n",
		"Makefile":                    "all:\n\ttrue\n",
	}
	for name, body := range files {
		p := filepath.Join(root, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	require.NoError(t, filepath.Walk(root, func(p string, _ os.FileInfo, _ error) error { return os.Lchown(p, u.uid, u.gid) }))
	git("add", "Makefile", ".claude", ".vscode", ".mcp.json", ".github", ".gitmodules", "CLAUDE.md") // .envrc, a secret, untracked
	git("commit", "-qm", "init")
	gitConfig, err := os.ReadFile(filepath.Join(root, ".git/config"))
	require.NoError(t, err)
	sb, err := sandbox.New(sandbox.Config{Roots: []string{root}, WorkDir: root})
	require.NoError(t, err)
	r := &Shell{Dir: root, Checker: sb, Credential: u.cred, Confinement: Confinement{Protect: []string{"CLAUDE.md"}}}
	// The attacker's Makefile, run confined: plant code for the next
	// unconfined run, then carry on with ordinary work.
	res, err := r.Run(context.Background(), `
echo '{"toolgate":{"confine":false}}' > .claude/settings.local.json 2>/dev/null; echo "settings=$?"
rm -rf .claude 2>/dev/null; echo "rm-claude=$?"
mv .envrc envrc.old 2>/dev/null; echo "mv-envrc=$?"
echo evil >> .vscode/tasks.json 2>/dev/null; echo "tasks=$?"
echo '{"mcpServers":{}}' > .mcp.json 2>/dev/null; echo "mcp=$?"
echo 'run: evil' >> .github/workflows/ci.yml 2>/dev/null; echo "workflow=$?"
touch .github/workflows/new.yml 2>/dev/null; echo "new-workflow=$?"
echo 'ignore the rules' >> CLAUDE.md 2>/dev/null; echo "claude-md=$?"
git config core.fsmonitor 'touch /tmp/pwned' 2>/dev/null; echo "git-config=$?"
printf '#!/bin/sh\ntouch /tmp/pwned\n' > .git/hooks/pre-commit 2>/dev/null; echo "hook=$?"
echo change >> Makefile && git -c user.name=t -c user.email=t@example.com commit -qam work && echo committed
git log --oneline | wc -l`)
	require.NoError(t, err)
	assert.Equal(t, DefaultBash+": line 2: .claude/settings.local.json: Read-only file system\nsettings=1\nrm-claude=1\nmv-envrc=1\n"+
		DefaultBash+": line 5: .vscode/tasks.json: Read-only file system\ntasks=1\n"+
		DefaultBash+": line 6: .mcp.json: Read-only file system\nmcp=1\n"+
		DefaultBash+": line 7: .github/workflows/ci.yml: Read-only file system\nworkflow=1\nnew-workflow=1\n"+
		DefaultBash+": line 9: CLAUDE.md: Read-only file system\nclaude-md=1\n"+
		"git-config=4\n"+
		DefaultBash+": line 11: .git/hooks/pre-commit: Read-only file system\nhook=1\n"+
		// git itself still commits: objects, refs, the index and logs
		// are writable.
		"committed\n2\n", res.Output)
	assert.Contains(t, res.Confined.Restricted, "protected-paths")
	for name, body := range files {
		if name == "Makefile" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(root, name))
		require.NoError(t, err, name)
		assert.Equal(t, body, string(b), name)
	}
	b, err := os.ReadFile(filepath.Join(root, ".git/config"))
	require.NoError(t, err)
	assert.Equal(t, string(gitConfig), string(b), ".git/config")
	assert.NoFileExists(t, filepath.Join(root, ".git/hooks/pre-commit"))
	assert.NoFileExists(t, filepath.Join(root, ".github/workflows/new.yml"))
}

func TestConfinedWalkDoesNotHangOnFIFOs(t *testing.T) {
	confineTestABI(t)
	root := runTestDir(t)
	sb, err := sandbox.New(sandbox.Config{Roots: []string{root}, WorkDir: root})
	require.NoError(t, err)
	r := &Shell{Dir: root, Checker: sb, Timeout: 20 * time.Second}
	res, err := r.Run(context.Background(), "mkfifo x.pem .env id_rsa sub.d && mkdir d && mkfifo d/key.pem && echo made")
	require.NoError(t, err)
	require.Equal(t, "made\n", res.Output)
	// The next command's walk meets the FIFOs (secret names among them)
	// and must neither open nor wait on them.
	start := time.Now()
	res, err = r.Run(context.Background(), "ls -A | tr '\\n' ' '")
	require.NoError(t, err)
	assert.Equal(t, ".env d id_rsa sub.d x.pem ", res.Output)
	assert.False(t, res.TimedOut)
	assert.Less(t, time.Since(start), 10*time.Second)
	assert.True(t, res.Confined.Enforced)
}

func TestConfinedResourceLimits(t *testing.T) {
	for _, confined := range []bool{true, false} {
		r, _, _ := escapeRunner(t)
		if !confined {
			r.Confinement.Fallback = ConfineRunUnconfined
			r.probe = func() confineSupport { return confineSupport{reason: "unconfined (forced by the test)"} }
		}
		r.MaxCPU, r.MaxMemory, r.MaxFileSize = time.Second, 256<<20, 1<<20
		res, err := r.Run(context.Background(), `exec 2>/dev/null
ulimit -t; ulimit -d; ulimit -f
(head -c 2000000 /dev/zero > big) 2>/dev/null; echo "write=$? size=$(stat -c %s big)"
python3 -c 'b = bytearray(512 << 20)' 2>&1 | tail -n 1
(timeout 10 sh -c 'while :; do :; done') 2>/dev/null; echo "spin=$?"`)
		require.NoError(t, err)
		// SIGXFSZ ends the writer at the size bound, SIGKILL the spinner
		// at the CPU bound, and the allocation fails.
		assert.Equal(t, "1\n262144\n1024\nwrite=153 size=1048576\nMemoryError\nspin=137\n", res.Output, "confined %v", confined)
		assert.Equal(t, confined, res.Confined.Enforced)
	}
}

// A data bound below what the launcher itself maps (a race-instrumented
// or cgo binary maps hundreds of MiB) binds bash, which keeps within it,
// and not the launcher, which would fail on its next mapping and never
// report: with the namespaces the limits are set on bash stopped at its
// first instruction, without them just before bash replaces the launcher.
func TestConfinedDataBoundBelowTheLauncher(t *testing.T) {
	confineTestNeedNS(t, true)
	status, err := os.ReadFile("/proc/self/status")
	require.NoError(t, err)
	var data int64
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmData:"); ok {
			_, err := fmt.Sscanf(strings.TrimSpace(v), "%d kB", &data)
			require.NoError(t, err)
		}
	}
	const bound = 24 << 20
	require.Greater(t, data<<10, int64(bound), "the launcher (this binary) maps more data than the bound")
	for _, ns := range []bool{true, false} {
		r, _, _ := escapeRunner(t)
		if !ns {
			// (Without namespaces the protected paths cannot be bound
			// read-only; a runner that grants its roots whole runs.)
			r.noStage = true
			r.Confinement.ReadSecrets = true
		}
		r.MaxMemory = bound
		for i := range 5 {
			res, err := r.Run(context.Background(), "ulimit -d; echo ok")
			require.NoError(t, err, "namespaces %v, run %d", ns, i)
			assert.Equal(t, "24576\nok\n", res.Output, "namespaces %v", ns)
			assert.True(t, res.Confined.Enforced)
			assert.Equal(t, ns, slices.Contains(res.Confined.Layers, "pidns"), "namespaces %v: %v", ns, res.Confined.Layers)
		}
	}
}

func TestConfinedHiddenLocationHoldingTheRootStays(t *testing.T) {
	confineTestNeedNS(t, true)
	r, root, _ := escapeRunner(t)
	r.Confinement.Hidden = []string{filepath.Dir(root)}
	res, err := r.Run(context.Background(), "echo x > f && cat f")
	require.NoError(t, err)
	assert.Equal(t, "x\n", res.Output)
	assert.True(t, res.Confined.Enforced)
}

// confineTestParent returns the parent process ID of pid, from its stat.
func confineTestParent(pid int) int {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	if len(f) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}

// With Confinement.OwnProcess the runner starts the launcher's second
// stage itself: one launcher process, this one's child, holds the
// namespaces and is bash's parent; without it a first stage sits between
// them. The command is confined alike either way, under the same process
// bound, and the runner's own bound is what it was once the stage has
// started (its threads are never refused for the command's processes).
func TestConfineOwnProcessStartsTheSecondStageItself(t *testing.T) {
	confineTestNeedNS(t, true)
	var lim unix.Rlimit
	require.NoError(t, unix.Getrlimit(unix.RLIMIT_NPROC, &lim))
	for _, own := range []bool{true, false} {
		r, root := runTestRunner(t)
		r.Confinement.OwnProcess = own
		r.MaxProcs = int(min(lim.Max, 500))
		m := runTestMarker()
		done := make(chan Result, 1)
		go func() {
			res, err := r.Run(context.Background(), "ulimit -u > procs; touch ready; /bin/sleep "+m+" & wait")
			assert.NoError(t, err)
			done <- res
		}()
		escapeWaitFor(t, filepath.Join(root, "ready"))
		var launchers []int
		for _, p := range runTestProcs() {
			if strings.HasPrefix(p.cmdline, confineArg0) && strings.Contains(p.cmdline, m) {
				launchers = append(launchers, p.pid)
			}
		}
		if own {
			require.Len(t, launchers, 1, "OwnProcess: the second stage alone")
			assert.Equal(t, os.Getpid(), confineTestParent(launchers[0]), "OwnProcess: the stage is the runner's child")
		} else {
			require.Len(t, launchers, 2, "without OwnProcess: the first stage and the second")
		}
		for _, p := range runTestProcs() {
			if strings.Contains(p.cmdline, "/bin/sleep "+m) && !strings.HasPrefix(p.cmdline, confineArg0) {
				_ = syscall.Kill(p.pid, syscall.SIGTERM)
			}
		}
		res := <-done
		confineTestEnforced(t, res, false)
		assert.Contains(t, res.Confined.Layers, "pidns", "OwnProcess %v: the namespaces applied", own)
		procs, err := os.ReadFile(filepath.Join(root, "procs"))
		require.NoError(t, err)
		assert.Equal(t, strconv.Itoa(r.MaxProcs)+"\n", string(procs), "OwnProcess %v: the command's process bound", own)
		var after unix.Rlimit
		require.NoError(t, unix.Getrlimit(unix.RLIMIT_NPROC, &after))
		assert.Equal(t, lim, after, "OwnProcess %v: the runner's own bound is what it was", own)
	}
}

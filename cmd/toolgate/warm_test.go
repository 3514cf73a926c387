package main

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/toolgate/toolgate/internal/warm"
	"github.com/toolgate/toolgate/sandbox"
)

// clientOnce builds toolgate-check beside the test's toolgate binary.
var clientOnce = sync.OnceValues(func() (string, error) {
	client := filepath.Join(filepath.Dir(bin), "toolgate-check")
	out, err := exec.Command("go", "build", "-o", client, "../toolgate-check").CombinedOutput()
	if err != nil {
		return "", &exec.ExitError{Stderr: out}
	}
	return client, nil
})

// killWarm ends the warm processes serving the sockets in dir, as the
// test that started them ends.
func killWarm(t *testing.T, dir string) {
	t.Cleanup(func() {
		procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
		for _, p := range procs {
			b, err := os.ReadFile(p)
			if err != nil || !bytes.HasPrefix(b, []byte("toolgate\x00warm\x00"+dir+"\x00")) {
				continue
			}
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
}

// hookRunIn runs one hook process, prog with args, in dir with env and
// the event on its standard input, and returns its output and status.
func hookRunIn(t *testing.T, dir string, env []string, event []byte, prog string, args ...string) (string, int) {
	cmd := exec.Command(prog, args...)
	cmd.Dir, cmd.Env, cmd.Stdin = dir, env, bytes.NewReader(event)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return out.String(), code
}

// TestWarmAnswersAsTheProcess: toolgate-check answers every kind of call
// as toolgate check does, byte for byte, whether it runs the check
// itself (the first call, which starts the warm process) or a warm
// process answers (a later call: no program runs but the client), and
// again when the warm process is gone.
func TestWarmAnswersAsTheProcess(t *testing.T) {
	client, err := clientOnce()
	require.NoError(t, err, "building toolgate-check")
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	proj, home, run := filepath.Join(tmp, "proj"), filepath.Join(tmp, "home"), filepath.Join(tmp, "run")
	for _, d := range []string{proj, home} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_RUNTIME_DIR=" + run, "LANG=C.UTF-8"}
	sockets := filepath.Join(run, "toolgate-warm")
	killWarm(t, sockets)
	event := func(name, command string) []byte {
		ev := map[string]any{"session_id": "warm", "hook_event_name": name, "tool_name": "Bash",
			"tool_input": map[string]string{"command": command}, "cwd": proj}
		if name == "PostToolUse" {
			ev["tool_response"] = map[string]string{"stdout": "a"}
		}
		b, err := json.Marshal(ev)
		require.NoError(t, err)
		return b
	}
	cases := []struct {
		name          string
		event         []byte
		decision, why string
	}{
		{"allow", event("PreToolUse", "ls -la"), "allow", "reads only inside the allowed roots [L5 shell: safe]"},
		{"ask", event("PreToolUse", "rm -rf build"), "ask", "rm: writes build (inside the allowed roots) [L5 shell: write:rm]"},
		{"deny", event("PreToolUse", "curl https://example.com"), "deny", "curl: reaches the network; network access is denied by the policy [L5 shell: network:curl]"},
		{"post", event("PostToolUse", "ls"), "", ""},
		{"broken", []byte("not json"), "deny", "the hook event is not valid JSON"},
	}
	strace, straceErr := exec.LookPath("strace")
	if straceErr != nil {
		t.Log("SKIPPED LOUDLY: no strace, so that a warm call runs no program but the client is not checked (.ci/run installs strace)")
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			whole, code := hookRunIn(t, proj, env, c.event, bin, "check")
			require.Equal(t, 0, code, whole)
			var ans struct {
				Out struct {
					Decision string `json:"permissionDecision"`
					Reason   string `json:"permissionDecisionReason"`
				} `json:"hookSpecificOutput"`
			}
			require.NoError(t, json.Unmarshal([]byte(whole), &ans), whole)
			assert.Equal(t, c.decision, ans.Out.Decision, whole)
			assert.Contains(t, ans.Out.Reason, c.why, whole)
			if i == 0 {
				// The first call of all finds no warm process: it runs the
				// check itself and starts one.
				got, code := hookRunIn(t, proj, env, c.event, client)
				assert.Equal(t, whole, got, "the call that starts the warm process answers as toolgate check")
				assert.Equal(t, 0, code)
				require.Eventually(t, func() bool {
					socks, _ := filepath.Glob(filepath.Join(sockets, "*.sock"))
					return len(socks) == 1
				}, 10*time.Second, 20*time.Millisecond, "toolgate-check started a warm process")
			}
			got, code := hookRunIn(t, proj, env, c.event, client)
			assert.Equal(t, whole, got, "a warm call answers as toolgate check")
			assert.Equal(t, 0, code)
			if straceErr == nil {
				trace := filepath.Join(tmp, c.name+".trace")
				got, code = hookRunIn(t, proj, env, c.event, strace, "-f", "-qq", "-e", "trace=execve", "-o", trace, client)
				assert.Equal(t, whole, got, "a traced warm call answers as toolgate check")
				assert.Equal(t, 0, code)
				b, err := os.ReadFile(trace)
				require.NoError(t, err)
				execs := 0
				for _, l := range strings.Split(string(b), "\n") {
					if strings.Contains(l, "execve(") {
						execs++
						assert.Contains(t, l, `execve("`+client+`"`, "a warm call runs no program but the client")
					}
				}
				assert.Equal(t, 1, execs, "a warm call runs no program but the client:\n%s", b)
			}
		})
	}
	// With the warm process gone (its socket left behind), the call is
	// run whole again, and answers the same.
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		if b, _ := os.ReadFile(p); bytes.HasPrefix(b, []byte("toolgate\x00warm\x00"+sockets+"\x00")) {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			require.NoError(t, syscall.Kill(pid, syscall.SIGKILL))
		}
	}
	whole, _ := hookRunIn(t, proj, env, cases[0].event, bin, "check")
	got, code := hookRunIn(t, proj, env, cases[0].event, client)
	assert.Equal(t, whole, got, "with the warm process killed, the call is run whole")
	assert.Equal(t, 0, code)
	// TOOLGATE_WARM=off runs every call whole.
	got, code = hookRunIn(t, proj, append(env, "TOOLGATE_WARM=off"), cases[2].event, client)
	assert.Contains(t, got, `"permissionDecision":"deny"`, "TOOLGATE_WARM=off: the call is run whole")
	assert.Contains(t, got, "reaches the network", got)
	assert.Equal(t, 0, code)
}

// TestWarmClientFailsClosed: without the toolgate binary beside it,
// toolgate-check refuses the call (status 2, which the hosts take as a
// block) and says why.
func TestWarmClientFailsClosed(t *testing.T) {
	client, err := clientOnce()
	require.NoError(t, err, "building toolgate-check")
	alone := filepath.Join(t.TempDir(), "toolgate-check")
	b, err := os.ReadFile(client)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(alone, b, 0o755))
	got, code := hookRunIn(t, t.TempDir(), []string{"HOME=/nonexistent"}, []byte("{}"), alone)
	assert.Equal(t, 2, code, "a call nothing can judge is refused")
	assert.Contains(t, got, "toolgate-check: cannot run "+filepath.Join(filepath.Dir(alone), "toolgate"), got)
}

// warmTestServer starts a warm server in this process on a socket in a
// private directory, with a check that answers "judged" and status 7,
// and returns it with the request a matching client sends.
func warmTestServer(t *testing.T) (*warmServer, string, *warm.Request) {
	dir := filepath.Join(t.TempDir(), "w")
	require.NoError(t, os.Mkdir(dir, 0o700))
	wd, err := syscall.Getwd()
	require.NoError(t, err)
	exe, err := os.Executable()
	require.NoError(t, err)
	req := &warm.Request{Bin: exe, Dir: wd, Env: os.Environ(), Args: []string{"--host", "codex"}, Input: []byte("{}")}
	req.BinID, err = warm.Stat(exe)
	require.NoError(t, err)
	req.DirID, err = warm.DirStat(".")
	require.NoError(t, err)
	key := warm.Key(req)
	srv, err := newWarmServer(key, env{getenv: os.Getenv})
	require.NoError(t, err)
	srv.check = func(args []string, e env) int {
		in, _ := bytes.NewBuffer(nil).ReadFrom(e.stdin)
		_, _ = e.stdout.Write([]byte("judged " + strings.Join(args, " ") + " " + strconv.FormatInt(in, 10)))
		return 7
	}
	ln, closeLn, err := warmListen(dir, key)
	require.NoError(t, err)
	require.GreaterOrEqual(t, ln, 0)
	stop := make(chan os.Signal, 1)
	done := make(chan struct{})
	go func() { srv.serve(ln, time.Now().Add(time.Minute), stop); close(done) }()
	t.Cleanup(func() { stop <- syscall.SIGTERM; <-done; closeLn() })
	sock, _ := warm.Socket(dir, key)
	return srv, sock, req
}

// warmSend sends msg on a new connection to sock and reads the answer.
func warmSend(t *testing.T, sock string, msg []byte) (*warm.Answer, error) {
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	require.NoError(t, err)
	defer unix.Close(fd)
	require.NoError(t, unix.Connect(fd, &unix.SockaddrUnix{Name: sock}))
	_, err = unix.Write(fd, msg)
	require.NoError(t, err)
	_ = unix.Shutdown(fd, unix.SHUT_WR)
	return warm.ReadAnswer(fdConn(fd))
}

// TestWarmRefusesOtherCalls: a warm process answers only a call whose
// key, binary, working directory and environment are its own, and goes
// on serving after refusing one.
func TestWarmRefusesOtherCalls(t *testing.T) {
	_, sock, req := warmTestServer(t)
	a, err := warmSend(t, sock, warm.AppendRequest(nil, req))
	require.NoError(t, err, "the process's own call is answered")
	assert.Equal(t, 7, a.Code)
	assert.Equal(t, "judged --host codex 2", string(a.Stdout), "the arguments and input reach the check")
	for name, change := range map[string]func(r *warm.Request){
		"one more variable":   func(r *warm.Request) { r.Env = append(r.Env, "TOOLGATE_X=1") },
		"another directory":   func(r *warm.Request) { r.Dir = "/" },
		"another binary":      func(r *warm.Request) { r.BinID.Size++ },
		"a directory's inode": func(r *warm.Request) { r.DirID.Ino++ },
	} {
		r := *req
		r.Env = append([]string(nil), req.Env...)
		change(&r)
		_, err := warmSend(t, sock, warm.AppendRequest(nil, &r))
		assert.Error(t, err, "a call with %s is closed unanswered: the client runs it whole", name)
	}
	_, err = warmSend(t, sock, []byte("GET / HTTP/1.0\r\n\r\n"))
	assert.Error(t, err, "bytes not of the wire are closed unanswered")
	a, err = warmSend(t, sock, warm.AppendRequest(nil, req))
	require.NoError(t, err, "the process still answers its own call after refusing others")
	assert.Equal(t, 7, a.Code)
}

// TestWarmPeers: only a process of this user in these namespaces is a
// peer; a command toolgate confines runs in new namespaces.
func TestWarmPeers(t *testing.T) {
	srv, _, _ := warmTestServer(t)
	self := &unix.Ucred{Pid: int32(os.Getpid()), Uid: uint32(os.Geteuid()), Gid: uint32(os.Getegid())}
	assert.NoError(t, srv.peerAllowed(self), "this process is a peer")
	other := *self
	other.Uid++
	assert.ErrorIs(t, srv.peerAllowed(&other), errWarmRefused, "another user is refused")
	gone := *self
	gone.Pid = 0
	assert.ErrorIs(t, srv.peerAllowed(&gone), errWarmRefused, "a peer with no process is refused")
	t.Run("new user namespace", func(t *testing.T) {
		cmd := exec.Command("sleep", "30")
		cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWUSER}
		if err := cmd.Start(); err != nil {
			t.Skipf("SKIPPED LOUDLY: cannot start a process in a new user namespace here (%v), so its refusal is not shown", err)
		}
		defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
		peer := *self
		peer.Pid = int32(cmd.Process.Pid)
		assert.ErrorIs(t, srv.peerAllowed(&peer), errWarmRefused, "a process in another user namespace (a confined command) is refused")
	})
}

// TestWarmLive: a socket whose process died is removed and not counted;
// one whose lock is held is counted and kept.
func TestWarmLive(t *testing.T) {
	dir := t.TempDir()
	for _, k := range []string{"dead", "live"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, k+".sock"), nil, 0o600))
		require.NoError(t, os.WriteFile(filepath.Join(dir, k+".lock"), nil, 0o600))
	}
	f, err := os.Open(filepath.Join(dir, "live.lock"))
	require.NoError(t, err)
	defer f.Close()
	// flock locks belong to an open file: warmLive's own open of the
	// lock conflicts with this one, as with another process's.
	require.NoError(t, unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB))
	assert.Equal(t, 1, warmLive(dir), "only the held lock's socket is live")
	assert.NoFileExists(t, filepath.Join(dir, "dead.sock"), "a dead process's socket is removed")
	assert.FileExists(t, filepath.Join(dir, "live.sock"), "a live process's socket is kept")
}

// TestHookClientLinksLittle: toolgate-check links nothing but the
// runtime's basics, syscall and the wire (with the stat-time reader it
// uses), so that it starts as a
// hello-world (os alone costs a tenth of a hello-world's run).
func TestHookClientLinksLittle(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("SKIPPED LOUDLY: no go command on PATH, so toolgate-check's dependencies cannot be listed")
	}
	out, err := exec.Command(goCmd, "list", "-deps", "../toolgate-check").Output()
	require.NoError(t, err)
	deps := strings.Fields(string(out))
	require.Contains(t, deps, "github.com/toolgate/toolgate/internal/warm", "the list is the client's")
	for _, d := range deps {
		if strings.HasPrefix(d, "github.com/toolgate/") {
			assert.Contains(t, []string{"github.com/toolgate/toolgate/internal/warm", "github.com/toolgate/toolgate/internal/stattime", "github.com/toolgate/toolgate/cmd/toolgate-check"}, d, "toolgate-check links %s", d)
		}
		for _, heavy := range []string{"fmt", "net", "encoding/json", "flag", "regexp", "os", "golang.org/x/sys/unix", "reflect", "time"} {
			assert.NotEqual(t, heavy, d, "toolgate-check links %s", heavy)
		}
	}
}

// BenchmarkWarmCheck is what a warm process does for one call: the
// check of a later Bash `ls -la` call of a session, in this process,
// with what the warm process keeps between calls.
func BenchmarkWarmCheck(b *testing.B) {
	tmp, err := filepath.EvalSymlinks(b.TempDir())
	require.NoError(b, err)
	proj, home := filepath.Join(tmp, "proj"), filepath.Join(tmp, "home")
	for _, d := range []string{filepath.Join(proj, ".git"), home} {
		require.NoError(b, os.MkdirAll(d, 0o755))
	}
	vars := map[string]string{"HOME": home, "PATH": os.Getenv("PATH")}
	ev, err := json.Marshal(map[string]any{"session_id": "later", "hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input": map[string]string{"command": "ls -la"}, "cwd": proj})
	require.NoError(b, err)
	var cache warmCache
	b.Cleanup(cache.drop)
	call := func() string {
		var out bytes.Buffer
		runCheck(nil, env{stdin: bytes.NewReader(ev), stdout: &out, stderr: &out, getenv: func(k string) string { return vars[k] }, warm: &cache})
		return out.String()
	}
	require.Contains(b, call(), `"permissionDecision":"allow"`)
	for b.Loop() {
		call()
	}
}

// TestWarmCacheAnswersAsAFreshProcess: a warm process that keeps its
// sandbox, settings and record of trust between calls answers every
// call byte for byte as a fresh "toolgate check" process does, after
// each kind of change between calls: the workspace trusted in
// ~/.claude.json, a settings file edited in place to the same size and
// replaced, a rule added in the project's .claude/settings.json, a new
// file in the project (a secret that an old name now reaches), the
// home's settings replaced through a link, the project replaced by
// another directory. Between changes the kept sandbox is the same one
// (it is reused, not built again), and unchanged files are kept.
func TestWarmCacheAnswersAsAFreshProcess(t *testing.T) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	proj, home := filepath.Join(tmp, "proj"), filepath.Join(tmp, "home")
	for _, d := range []string{filepath.Join(proj, ".git"), filepath.Join(proj, ".claude"), filepath.Join(home, ".claude")} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	for _, f := range []string{"notes.txt", "data.txt", "other.txt"} {
		require.NoError(t, os.WriteFile(filepath.Join(proj, f), []byte("x\n"), 0o644))
	}
	settings := func(path string, deny ...string) {
		b, err := json.Marshal(map[string]any{"permissions": map[string]any{"deny": deny}})
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(path+".tmp", b, 0o644))
		require.NoError(t, os.Rename(path+".tmp", path))
	}
	userSettings := filepath.Join(home, ".claude", "settings.json")
	settings(filepath.Join(home, "a.json"))
	require.NoError(t, os.Symlink("../a.json", userSettings))
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", filepath.Join(tmp, "state"))
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CLAUDE_PROJECT_DIR", "")

	key := "cachetest"
	srv, err := newWarmServer(key, env{getenv: os.Getenv})
	require.NoError(t, err)
	t.Cleanup(srv.cache.drop)
	read := func(name string) []byte {
		b, err := json.Marshal(map[string]any{"session_id": "cache", "hook_event_name": "PreToolUse", "tool_name": "Read",
			"tool_input": map[string]string{"file_path": filepath.Join(proj, name)}, "cwd": proj})
		require.NoError(t, err)
		return b
	}
	ask := func(t *testing.T, ev []byte) (string, string) { return warmAnswer(t, srv, proj, ev) }
	kept := func() *sandbox.Sandbox {
		require.Len(t, srv.cache.kept, 1, "one sandbox kept")
		for _, k := range srv.cache.kept {
			return k.sb
		}
		return nil
	}
	// The project's settings allow an edit, which counts once the person
	// trusted the workspace (~/.claude.json).
	claudeJSON := filepath.Join(home, ".claude.json")
	require.NoError(t, os.WriteFile(claudeJSON, []byte(`{"projects":{}}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(proj, ".claude", "settings.json"), []byte(`{"permissions":{"allow":["Edit(./notes.txt)"]}}`), 0o644))
	// Files older than warmRacy are kept: the first calls keep the user's
	// settings, read through the link, and the record of trust.
	time.Sleep(warmRacy + 100*time.Millisecond)
	const readDefault = "toolgate: no rule matched; the default for read tools is allow"
	for _, f := range []string{"notes.txt", "data.txt", "other.txt"} {
		d, why := ask(t, read(f))
		assert.Equal(t, "allow", d, why)
		assert.Contains(t, why, readDefault, why)
	}
	// An MCP tool's call, whose registry the warm process makes from the
	// kept one.
	mcp, err := json.Marshal(map[string]any{"session_id": "cache", "hook_event_name": "PreToolUse", "tool_name": "mcp__srv__query",
		"tool_input": map[string]string{"q": "x"}, "cwd": proj})
	require.NoError(t, err)
	for range 2 {
		d, why := ask(t, mcp)
		assert.Equal(t, "ask", d, why)
		assert.Contains(t, why, "[L2 rules: default]", why)
	}
	first := kept()
	d, why := ask(t, read("notes.txt"))
	assert.Equal(t, "allow", d, why)
	assert.Contains(t, why, readDefault, why)
	assert.True(t, first == kept(), "an unchanged workspace keeps its sandbox")
	keptKeys := slices.Collect(maps.Keys(srv.cache.files))
	assert.True(t, slices.ContainsFunc(keptKeys, func(k string) bool { return strings.HasSuffix(k, "\x00"+userSettings) }),
		"the user's settings, unchanged, are kept: %q", keptKeys)

	assert.True(t, slices.ContainsFunc(keptKeys, func(k string) bool { return strings.HasSuffix(k, "\x00"+claudeJSON) }),
		"the record of trust, unchanged, is kept: %q", keptKeys)
	edit := func() []byte {
		b, err := json.Marshal(map[string]any{"session_id": "cache", "hook_event_name": "PreToolUse", "tool_name": "Edit",
			"tool_input": map[string]string{"file_path": filepath.Join(proj, "notes.txt"), "old_string": "x", "new_string": "y"}, "cwd": proj})
		require.NoError(t, err)
		return b
	}
	d, why = ask(t, edit())
	assert.Equal(t, "ask", d, "an untrusted workspace's allow rule does not count: %s", why)

	t.Run("the workspace trusted", func(t *testing.T) {
		b, err := json.Marshal(map[string]any{"projects": map[string]any{proj: map[string]any{"hasTrustDialogAccepted": true}}})
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(claudeJSON, b, 0o644))
		d, why := ask(t, edit())
		assert.Equal(t, "allow", d, why)
		assert.Contains(t, why, "Edit(./notes.txt)", why)
	})
	t.Run("settings edited in place, same size", func(t *testing.T) {
		a := filepath.Join(home, "a.json")
		b, err := os.ReadFile(a)
		require.NoError(t, err)
		edited := []byte(`{"permissions":{"deny":["Read(./data.txt)"]}}`)
		edited = append(edited, bytes.Repeat([]byte(" "), max(0, len(b)-len(edited)))...)
		require.NoError(t, os.WriteFile(a, edited, 0o644))
		d, why := ask(t, read("data.txt"))
		assert.Equal(t, "deny", d, why)
		assert.Contains(t, why, "Read(./data.txt)", why)
	})
	t.Run("settings edited", func(t *testing.T) {
		settings(filepath.Join(home, "a.json"), "Read(./notes.txt)")
		d, why := ask(t, read("notes.txt"))
		assert.Equal(t, "deny", d, why)
		assert.Contains(t, why, "Read(./notes.txt)", why)
	})
	t.Run("a rule added in the project's settings", func(t *testing.T) {
		settings(filepath.Join(proj, ".claude", "settings.json"), "Read(./other.txt)")
		d, why := ask(t, read("other.txt"))
		assert.Equal(t, "deny", d, why)
		assert.Contains(t, why, "Read(./other.txt)", why)
	})
	t.Run("a new file in the project", func(t *testing.T) {
		// data.txt becomes a second name of a new secret file.
		env := filepath.Join(proj, ".env")
		require.NoError(t, os.WriteFile(env, []byte("TOKEN=1\n"), 0o600))
		require.NoError(t, os.Remove(filepath.Join(proj, "data.txt")))
		require.NoError(t, os.Link(env, filepath.Join(proj, "data.txt")))
		d, why := ask(t, read("data.txt"))
		assert.NotEqual(t, "allow", d, why)
		assert.Contains(t, why, "secret", why)
	})
	t.Run("home settings replaced through a link", func(t *testing.T) {
		settings(filepath.Join(home, "b.json"), "Read(./notes.txt)", "Read(./fresh.txt)")
		require.NoError(t, os.WriteFile(filepath.Join(proj, "fresh.txt"), []byte("x\n"), 0o644))
		require.NoError(t, os.Remove(userSettings))
		require.NoError(t, os.Symlink("../b.json", userSettings))
		d, why := ask(t, read("fresh.txt"))
		assert.Equal(t, "deny", d, why)
		assert.Contains(t, why, "Read(./fresh.txt)", why)
		d, why = ask(t, read("notes.txt"))
		assert.Equal(t, "deny", d, why)
		assert.Contains(t, why, "Read(./notes.txt)", why)
	})
	assert.True(t, first == kept(), "changes of files beneath the roots keep the sandbox, which revalidates its search")
	t.Run("a root replaced", func(t *testing.T) {
		// The project moves away and another directory takes its name:
		// the same configuration resolves to another directory, and the
		// sandbox is built again.
		require.NoError(t, os.Rename(proj, proj+".old"))
		require.NoError(t, os.MkdirAll(filepath.Join(proj, ".git"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(proj, "other.txt"), []byte("x\n"), 0o644))
		d, why := ask(t, read("other.txt"))
		assert.Equal(t, "allow", d, why)
		assert.Contains(t, why, readDefault, why)
		assert.True(t, first != kept(), "a root replaced builds the sandbox again")
	})
}

// TestSandboxKeyCoversTheConfig: the key a warm process keeps sandboxes
// by names every field of sandbox.Config, so that a field added there
// cannot make two configurations share a sandbox unnoticed.
func TestSandboxKeyCoversTheConfig(t *testing.T) {
	require.Equal(t, 7, reflect.TypeFor[sandbox.Config]().NumField(), "sandboxKey names every field of sandbox.Config: add the new one")
	base := sandbox.Config{Roots: []string{"/a"}, WorkDir: "/a", Home: "/h"}
	for name, c := range map[string]sandbox.Config{
		"roots":      {Roots: []string{"/a", "/b"}, WorkDir: "/a", Home: "/h"},
		"workdir":    {Roots: []string{"/a"}, WorkDir: "/a/b", Home: "/h"},
		"home":       {Roots: []string{"/a"}, WorkDir: "/a", Home: "/g"},
		"protected":  {Roots: []string{"/a"}, WorkDir: "/a", Home: "/h", Protected: []string{}},
		"secret":     {Roots: []string{"/a"}, WorkDir: "/a", Home: "/h", Secret: []string{".env"}},
		"facts file": {Roots: []string{"/a"}, WorkDir: "/a", Home: "/h", FactsFile: "/f"},
		"state dirs": {Roots: []string{"/a"}, WorkDir: "/a", Home: "/h", StateDirs: []string{"/s"}},
		"one string": {Roots: []string{"/a/a"}, WorkDir: "", Home: "/h"},
	} {
		assert.NotEqual(t, sandboxKey(base), sandboxKey(c), "a configuration that differs in its %s has another key", name)
	}
}

// TestWarmCacheSeesMounts: a mount made under a root after a warm
// process kept the root's sandbox builds the sandbox again (the kernel
// marks /proc/self/mountinfo, which the cache polls). It runs in a mount
// namespace of its own, made by unshare(1), so that its mount is seen by
// nothing else.
func TestWarmCacheSeesMounts(t *testing.T) {
	if os.Getenv("TOOLGATE_TEST_MOUNTNS") == "" {
		unshare, err := exec.LookPath("unshare")
		if err != nil {
			t.Skip("SKIPPED LOUDLY: no unshare(1), so a mount under a kept sandbox's root is not shown to rebuild it")
		}
		cmd := exec.Command(unshare, "--mount", "--propagation", "private", os.Args[0], "-test.run", "^TestWarmCacheSeesMounts$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "TOOLGATE_TEST_MOUNTNS=1")
		out, err := cmd.CombinedOutput()
		if err != nil && bytes.Contains(out, []byte("unshare failed")) {
			t.Skipf("SKIPPED LOUDLY: no mount namespace here (%s), so a mount under a kept sandbox's root is not shown to rebuild it", bytes.TrimSpace(out))
		}
		require.NoError(t, err, "%s", out)
		if bytes.Contains(out, []byte("--- SKIP")) {
			t.Skipf("in a mount namespace of its own: %s", out)
		}
		require.Contains(t, string(out), "--- PASS: TestWarmCacheSeesMounts", "%s", out)
		return
	}
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	root := filepath.Join(tmp, "proj")
	inner := filepath.Join(root, "inner")
	require.NoError(t, os.MkdirAll(inner, 0o755))
	var c warmCache
	defer c.drop()
	cfg := sandbox.Config{Roots: []string{root}, WorkDir: root}
	first, err := c.newSandbox(cfg)
	require.NoError(t, err)
	again, err := c.newSandbox(cfg)
	require.NoError(t, err)
	require.True(t, first == again, "an unchanged mount table keeps the sandbox")
	if err := unix.Mount("none", inner, "tmpfs", 0, ""); err != nil {
		t.Skipf("SKIPPED LOUDLY: cannot mount a tmpfs in this namespace (%v), so a mount under a kept sandbox's root is not shown to rebuild it", err)
	}
	defer unix.Unmount(inner, 0)
	after, err := c.newSandbox(cfg)
	require.NoError(t, err)
	assert.True(t, first != after, "a mount under the root builds the sandbox again")
	kept, err := c.newSandbox(cfg)
	require.NoError(t, err)
	assert.True(t, after == kept, "the sandbox built after the mount is kept in turn")
}

// warmAnswer answers the hook event ev as the warm process srv does, and
// as a fresh toolgate check process in proj does, asserts that the two
// are the same bytes and exit status, and returns the decision and the
// reason.
func warmAnswer(t *testing.T, srv *warmServer, proj string, ev []byte) (decision, reason string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := srv.check(nil, env{stdin: bytes.NewReader(ev), stdout: &out, stderr: &errb, getenv: os.Getenv, warm: &srv.cache})
	fresh, freshCode := hookRunIn(t, proj, os.Environ(), ev, bin, "check")
	require.Equal(t, fresh, out.String()+errb.String(), "the warm answer is the fresh process's")
	require.Equal(t, freshCode, code)
	var ans struct {
		Out struct {
			Decision string `json:"permissionDecision"`
			Reason   string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	require.NoError(t, json.Unmarshal(out.Bytes(), &ans), out.String())
	return ans.Out.Decision, ans.Out.Reason
}

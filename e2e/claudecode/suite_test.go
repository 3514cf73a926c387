package claudecode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/testenv"
)

// Version is the Claude Code release the suite runs.
const Version = "2.1.332"

// requireEnv makes a skip a failure: CI sets it, so that a machine
// where .ci/setup did not install the CLI, or without bubblewrap, fails
// instead of passing silently.
const requireEnv = "TOOLGATE_E2E_REQUIRE"

func TestMain(m *testing.M) {
	switch os.Getenv(roleEnv) {
	case roleHarness:
		os.Exit(runHarness())
	case roleMCP:
		os.Exit(runMCP())
	case roleRedact:
		os.Exit(runRedact())
	case roleRecord:
		os.Exit(runRecord())
	}
	os.Exit(m.Run())
}

// env is what every scenario shares: Claude Code, toolgate and bwrap.
type suiteEnv struct {
	claude   string // the native binary
	toolgate string // directory holding the toolgate binary
	bwrap    string
	self     string // this test binary, run as the harness
	goDir    string // the directory of the go command
	roBinds  []string

	// warm is a Go build cache holding what a test of a one-package
	// module needs (the testing package and its imports), made once by
	// goCache and copied into the home of each scenario that asks for it.
	warmOnce sync.Once
	warm     string
	warmErr  error
}

// goCache returns the warm build cache, making it on first use by running
// go test on a one-package module outside the sandbox. A scenario that runs
// go test copies it: compiling the testing package and its imports from an
// empty cache takes longer than Claude Code's two minutes for a Bash call on
// a loaded machine, and what the scenario shows is that go test runs
// confined, not how fast the compiler is.
func (s *suiteEnv) goCache(t *testing.T) string {
	t.Helper()
	s.warmOnce.Do(func() {
		dir, err := os.MkdirTemp(s.toolgate, "gocache-")
		if err != nil {
			s.warmErr = err
			return
		}
		mod := filepath.Join(dir, "mod")
		s.warm = filepath.Join(dir, "go-build")
		for name, body := range map[string]string{"go.mod": "module e2e\n\ngo 1.22\n",
			"src/main_test.go": "package main\n\nimport \"testing\"\n\nfunc TestOK(t *testing.T) {}\n"} {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(mod, name)), 0o755); err != nil {
				s.warmErr = err
				return
			}
			if err := os.WriteFile(filepath.Join(mod, name), []byte(body), 0o644); err != nil {
				s.warmErr = err
				return
			}
		}
		cmd := exec.Command(filepath.Join(s.goDir, "go"), "test", "./...")
		cmd.Dir = mod
		cmd.Env = []string{"HOME=" + dir, "PATH=" + s.goDir + ":/usr/local/bin:/usr/bin:/bin", "GOCACHE=" + s.warm,
			"GOTOOLCHAIN=local", "GOFLAGS=-mod=mod", "GOPROXY=off", "TMPDIR=" + dir, "LANG=C.UTF-8"}
		if out, err := cmd.CombinedOutput(); err != nil {
			s.warmErr = fmt.Errorf("warming the Go build cache: %v: %s", err, out)
		}
	})
	require.NoError(t, s.warmErr)
	return s.warm
}

var (
	suiteOnce sync.Once
	suite     *suiteEnv
	suiteSkip string
	suiteErr  error
)

// setUp finds what .ci/setup prepared for the suite, once: the suite
// installs nothing. A missing tool is a skip that says to run .ci/setup
// (a failure under TOOLGATE_E2E_REQUIRE=1).
func setUp(t *testing.T) *suiteEnv {
	t.Helper()
	if testing.Short() && os.Getenv(requireEnv) == "" {
		t.Skipf("SKIPPING the Claude Code %s end-to-end suite in -short mode (it runs Claude Code for minutes)", Version)
	}
	suiteOnce.Do(func() { suite, suiteSkip, suiteErr = prepare() })
	if suiteErr != nil {
		t.Fatalf("end-to-end suite: %v", suiteErr)
	}
	if suiteSkip != "" {
		if os.Getenv(requireEnv) != "" {
			t.Fatalf("end-to-end suite cannot run and %s is set: %s", requireEnv, suiteSkip)
		}
		t.Skipf("SKIPPING the Claude Code %s end-to-end suite: %s (set %s=1 to make this a failure)", Version, suiteSkip, requireEnv)
	}
	return suite
}

func prepare() (*suiteEnv, string, error) {
	if runtime.GOOS != "linux" {
		return nil, "the suite runs Claude Code inside bubblewrap, which is Linux only", nil
	}
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		return nil, testenv.Missing("bubblewrap (bwrap)", "not on PATH"), nil
	}
	if out, err := exec.Command(bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--unshare-user", "--uid", "1000", "--gid", "1000", "--unshare-net", "true").CombinedOutput(); err != nil {
		return nil, fmt.Sprintf("bubblewrap cannot make a sandbox here (%v: %s)", err, bytes.TrimSpace(out)), nil
	}
	claude, skip, err := findClaude()
	if skip != "" || err != nil {
		return nil, skip, err
	}
	self, err := os.Executable()
	if err != nil {
		return nil, "", err
	}
	tmp, err := os.MkdirTemp("", "toolgate-e2e-bin-")
	if err != nil {
		return nil, "", err
	}
	tmp, _ = filepath.EvalSymlinks(tmp)
	// toolgate, and toolgate-check, the hook command of
	// examples/claudecode/settings.json, beside it as go install puts
	// them. The warm processes toolgate-check starts live in the
	// sandbox's PID namespace and end with it.
	for _, name := range []string{"toolgate", "toolgate-check"} {
		build := exec.Command("go", "build", "-o", filepath.Join(tmp, name), "github.com/toolgate/toolgate/cmd/"+name)
		if out, err := build.CombinedOutput(); err != nil {
			return nil, "", fmt.Errorf("go build %s: %v: %s", name, err, out)
		}
	}
	// toolgate-shell-prefix: Claude Code runs CLAUDE_CODE_SHELL_PREFIX as
	// one word, so the prefix is the binary under that name.
	if err := os.Symlink("toolgate", filepath.Join(tmp, "toolgate-shell-prefix")); err != nil {
		return nil, "", err
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		return nil, "", err
	}
	s := &suiteEnv{claude: claude, toolgate: tmp, bwrap: bwrap, self: self, goDir: filepath.Dir(goBin)}
	// /tmp is private in the sandbox: what the suite needs from it is
	// bound in read-only.
	for _, p := range []string{self, tmp, claude} {
		if strings.HasPrefix(p, os.TempDir()+"/") {
			s.roBinds = append(s.roBinds, p)
		}
	}
	return s, "", nil
}

// cacheDir is where .ci/setup installed the pinned CLIs:
// $TOOLGATE_E2E_CACHE, or the cache it wrote to its file
// (internal/testenv), or the user's cache directory.
func cacheDir() (string, error) {
	if d, _ := testenv.Lookup("TOOLGATE_E2E_CACHE"); d != "" {
		return filepath.Abs(d)
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "toolgate-e2e"), nil
}

// findClaude returns the native binary of @anthropic-ai/claude-code@Version,
// which .ci/setup installed into the cache; the suite installs nothing.
// Not there, it is a skip that says to run .ci/setup.
func findClaude() (string, string, error) {
	root, err := cacheDir()
	if err != nil {
		return "", "", err
	}
	dir := filepath.Join(root, "claude-code-"+Version)
	bin := filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe")
	if version(bin) == Version {
		return bin, "", nil
	}
	// npm may leave the placeholder when the install script did not
	// run: the platform package has the native binary.
	native := filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code-linux-"+npmArch(), "claude")
	if version(native) == Version {
		return native, "", nil
	}
	return "", testenv.Missing("Claude Code "+Version, "not installed under "+dir), nil
}

func npmArch() string {
	if runtime.GOARCH == "amd64" {
		return "x64"
	}
	return runtime.GOARCH
}

func version(bin string) string {
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		return ""
	}
	v, _, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	return v
}

// scenario is one run of Claude Code.
type scenario struct {
	name string
	// prompt is the user's prompt; the main conversation's script is
	// matched by it.
	prompt string
	steps  []step
	// sub are further conversations (a subagent's), each matched by
	// its marker.
	sub []conversation
	// project and user are the workspace's .claude/settings.json and
	// the home's ~/.claude/settings.json; toolgate's hooks go into user
	// settings unless noHooks. local is .claude/settings.local.json.
	project, user, local map[string]any
	// projectRaw is .claude/settings.json verbatim (it wins over project).
	projectRaw []byte
	noHooks    bool
	untrusted  bool
	files      map[string]string // files: under the workspace, or under $HOME or $ROOT
	dirs       []string          // more directories ($WS, $HOME, $ROOT)
	args       []string          // more arguments of claude
	mcp        bool              // the suite's MCP server as "e2e"
	mode       string            // --permission-mode
	warmGo     bool              // the home's Go build cache starts warm (see goCache)
	env        []string          // more variables of claude ($WS, $HOME, $ROOT)
	// stow moves each file the scenario wrote under $HOME (its settings
	// included) into the workspace and links it from where it was, as
	// GNU Stow lays out a dotfiles repository: key the $HOME path, value
	// the workspace path.
	stow map[string]string
	// hookPrefix goes before toolgate's hook commands ("env -u
	// CLAUDE_PROJECT_DIR" for a client that does not set it).
	hookPrefix string
	check      func(t *testing.T, r *result)
}

// result is what a run left behind.
type result struct {
	ws, home, out string
	stdout        string
	stderr        string
	status        string
	debug         string
	requests      []json.RawMessage
}

const promptTimeout = 120

// run runs sc in its own sandbox and returns what happened.
func (s *suiteEnv) run(t *testing.T, sc scenario) *result {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	ws, home, out := filepath.Join(root, "ws"), filepath.Join(root, "home"), filepath.Join(root, "out")
	// A home as a developer's: go's build cache is there already (toolgate
	// confines what it allows to the roots and the caches that exist).
	for _, d := range []string{filepath.Join(ws, ".claude"), filepath.Join(home, ".claude"), filepath.Join(home, ".cache", "go-build"), out, filepath.Join(root, "tmp")} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	for name, body := range sc.files {
		name = strings.NewReplacer("$HOME", home, "$ROOT", root).Replace(name)
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(ws, filepath.FromSlash(name))
		}
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		mode := os.FileMode(0o644)
		if strings.HasPrefix(body, "#!") {
			mode = 0o755 // a script a scenario runs
		}
		require.NoError(t, os.WriteFile(p, []byte(strings.ReplaceAll(body, "$WS", ws)), mode))
	}
	user := map[string]any{}
	for k, v := range sc.user {
		user[k] = v
	}
	if _, own := user["hooks"]; !own && !sc.noHooks {
		user["hooks"] = toolgateHooks()
		if sc.hookPrefix != "" {
			b, err := json.Marshal(user["hooks"])
			require.NoError(t, err)
			var hooks map[string]any
			require.NoError(t, json.Unmarshal(bytes.ReplaceAll(b, []byte(`"toolgate check"`), []byte(`"`+sc.hookPrefix+` toolgate check"`)), &hooks))
			user["hooks"] = hooks
		}
	}
	writeJSONFile(t, filepath.Join(home, ".claude", "settings.json"), user)
	if sc.projectRaw != nil {
		require.NoError(t, os.WriteFile(filepath.Join(ws, ".claude", "settings.json"), sc.projectRaw, 0o644))
	} else if sc.project != nil {
		writeJSONFile(t, filepath.Join(ws, ".claude", "settings.json"), sc.project)
	}
	if sc.local != nil {
		writeJSONFile(t, filepath.Join(ws, ".claude", "settings.local.json"), sc.local)
	}
	state := map[string]any{"hasCompletedOnboarding": true, "numStartups": 1, "autoUpdates": false}
	if !sc.untrusted {
		state["projects"] = map[string]any{ws: map[string]any{"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true}}
	}
	writeJSONFile(t, filepath.Join(home, ".claude.json"), state)
	for _, p := range []string{filepath.Join(home, ".claude", "settings.json"), filepath.Join(ws, ".claude", "settings.json"),
		filepath.Join(ws, ".claude", "settings.local.json")} {
		expandIn(t, p, root)
	}
	for from, to := range sc.stow {
		from = strings.ReplaceAll(from, "$HOME", home)
		to = filepath.Join(ws, filepath.FromSlash(to))
		require.NoError(t, os.MkdirAll(filepath.Dir(to), 0o755))
		require.NoError(t, os.Rename(from, to))
		require.NoError(t, os.Symlink(to, from))
	}
	if sc.warmGo {
		cp := exec.Command("cp", "-a", s.goCache(t)+"/.", filepath.Join(home, ".cache", "go-build"))
		out, err := cp.CombinedOutput()
		require.NoError(t, err, "copying the warm Go build cache: %s", out)
	}
	for _, d := range sc.dirs {
		require.NoError(t, os.MkdirAll(strings.NewReplacer("$WS", ws, "$HOME", home, "$ROOT", root).Replace(d), 0o755))
	}

	args := []string{"-p", sc.prompt, "--output-format", "stream-json", "--verbose", "--include-hook-events",
		"--debug-file", filepath.Join(out, "debug.log"), "--model", "claude-sonnet-4-5"}
	if sc.mode != "" {
		args = append(args, "--permission-mode", sc.mode)
	}
	if sc.mcp {
		cfg := map[string]any{"mcpServers": map[string]any{"e2e": map[string]any{"type": "stdio", "command": s.self,
			"args": []string{"-test.run=^$"}, "env": map[string]string{roleEnv: roleMCP}}}}
		writeJSONFile(t, filepath.Join(root, "mcp.json"), cfg)
		args = append(args, "--mcp-config", filepath.Join(root, "mcp.json"))
	}
	for _, a := range sc.args {
		args = append(args, strings.NewReplacer("$WS", ws, "$HOME", home, "$ROOT", root).Replace(a))
	}
	sp := spec{
		Script: script{Conversations: append([]conversation{{Marker: sc.prompt, Steps: sc.steps}}, sc.sub...)},
		Claude: s.claude, Args: args, Dir: ws, Out: out, Timeout: promptTimeout,
		Env: []string{
			"HOME=" + home, "PATH=" + s.toolgate + ":" + s.goDir + ":/usr/local/bin:/usr/bin:/bin", "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod", "GOPROXY=off", "TMPDIR=/tmp", "LANG=C.UTF-8",
			"SHELL=/bin/bash", "USER=e2e", "TERM=dumb",
			"ANTHROPIC_API_KEY=sk-ant-e2e-dummy", "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1",
			"DISABLE_ERROR_REPORTING=1", "DISABLE_BUG_COMMAND=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
			"CLAUDE_CODE_DISABLE_TERMINAL_TITLE=1", "CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY=1", "DISABLE_COST_WARNINGS=1",
			"CLAUDE_CODE_ENABLE_TELEMETRY=0", "CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL=1",
			"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"), "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
			"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		},
	}
	for _, kv := range sc.env {
		sp.Env = append(sp.Env, strings.NewReplacer("$WS", ws, "$HOME", home, "$ROOT", root).Replace(kv))
	}
	writeJSONFile(t, filepath.Join(root, "spec.json"), sp)
	expandIn(t, filepath.Join(root, "spec.json"), root)
	bw := []string{"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"}
	for _, p := range s.roBinds {
		bw = append(bw, "--ro-bind", p, p)
	}
	bw = append(bw, "--bind", root, root, "--unshare-user", "--uid", "1000", "--gid", "1000",
		"--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
		"--die-with-parent", "--new-session", "--chdir", ws, "--clearenv",
		"--setenv", roleEnv, roleHarness, "--setenv", specEnv, filepath.Join(root, "spec.json"),
		"--setenv", "PATH", "/usr/bin:/bin", "--", s.self, "-test.run=^$")
	cmd := exec.Command(s.bwrap, bw...)
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &errb, &errb
	start := time.Now()
	err = cmd.Run()
	require.NoError(t, err, "the sandbox: %s", errb.String())
	r := &result{ws: ws, home: home, out: out}
	r.stdout = readFile(filepath.Join(out, "stdout"))
	r.stderr = readFile(filepath.Join(out, "stderr"))
	r.status = readFile(filepath.Join(out, "status"))
	r.debug = readFile(filepath.Join(out, "debug.log"))
	for _, line := range strings.Split(readFile(filepath.Join(out, "api.jsonl")), "\n") {
		if line != "" {
			r.requests = append(r.requests, json.RawMessage(line))
		}
	}
	t.Logf("%s: %s in %s, %d API requests", sc.name, r.status, time.Since(start).Round(time.Millisecond), len(r.requests))
	if os.Getenv("TOOLGATE_E2E_KEEP") != "" {
		_ = os.MkdirAll(os.Getenv("TOOLGATE_E2E_KEEP"), 0o755)
		keep := filepath.Join(os.Getenv("TOOLGATE_E2E_KEEP"), strings.ReplaceAll(t.Name(), "/", "_"))
		_ = os.RemoveAll(keep)
		_ = exec.Command("cp", "-a", root, keep).Run()
	}
	return r
}

// toolgateHooks is the hooks block of examples/claudecode/settings.json.
func toolgateHooks() map[string]any {
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", "claudecode", "settings.json"))
	if err != nil {
		panic(err)
	}
	var s struct {
		Hooks map[string]any `json:"hooks"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		panic(err)
	}
	return s.Hooks
}

func writeJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, b, 0o644))
}

// expandIn replaces $WS, $HOME and $ROOT in a file the scenario wrote.
func expandIn(t *testing.T, path, root string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return
	}
	require.NoError(t, err)
	s := strings.NewReplacer("$WS", filepath.Join(root, "ws"), "$HOME", filepath.Join(root, "home"), "$ROOT", root).Replace(string(b))
	require.NoError(t, os.WriteFile(path, []byte(s), 0o644))
}

func readFile(p string) string {
	b, err := os.ReadFile(p)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "read error: " + err.Error()
	}
	return string(b)
}

package codex

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/testenv"
)

// Version is the Codex CLI release the suite runs.
const Version = "0.171.0"

// requireEnv makes a skip a failure: CI sets it, so that a machine
// where .ci/setup did not install the CLI, or without bubblewrap, fails
// instead of passing silently.
const requireEnv = "TOOLGATE_E2E_REQUIRE"

// Roles the test binary plays when it runs itself: inside the sandbox,
// the harness serves the scripted API and runs Codex; redact is a
// toolgate PostToolUse hook that takes secrets out of the output.
const (
	roleEnv     = "TOOLGATE_E2E_ROLE"
	roleHarness = "harness"
	roleRedact  = "redact"
	specEnv     = "TOOLGATE_E2E_SPEC"
)

// runTimeout bounds one run of Codex, in seconds.
const runTimeout = 120

func TestMain(m *testing.M) {
	switch os.Getenv(roleEnv) {
	case roleHarness:
		os.Exit(runHarness())
	case roleRedact:
		os.Exit(runRedact())
	}
	os.Exit(m.Run())
}

// suiteEnv is what every scenario shares: Codex, toolgate and bwrap.
type suiteEnv struct {
	codex    string // the native binary
	toolgate string // directory holding the toolgate binary
	bwrap    string
	self     string // this test binary, run as the harness and the redact hook
	roBinds  []string
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
		t.Skipf("SKIPPING the Codex CLI %s end-to-end suite in -short mode (it runs Codex CLI for minutes)", Version)
	}
	suiteOnce.Do(func() { suite, suiteSkip, suiteErr = prepare() })
	if suiteErr != nil {
		t.Fatalf("end-to-end suite: %v", suiteErr)
	}
	if suiteSkip != "" {
		if os.Getenv(requireEnv) != "" {
			t.Fatalf("end-to-end suite cannot run and %s is set: %s", requireEnv, suiteSkip)
		}
		t.Skipf("SKIPPING the Codex CLI %s end-to-end suite: %s (set %s=1 to make this a failure)", Version, suiteSkip, requireEnv)
	}
	return suite
}

func prepare() (*suiteEnv, string, error) {
	if runtime.GOOS != "linux" {
		return nil, "the suite runs Codex CLI inside bubblewrap, which is Linux only", nil
	}
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		return nil, testenv.Missing("bubblewrap (bwrap)", "not on PATH"), nil
	}
	if out, err := exec.Command(bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--unshare-user", "--uid", "1000", "--gid", "1000", "--unshare-net", "true").CombinedOutput(); err != nil {
		return nil, fmt.Sprintf("bubblewrap cannot make a sandbox here (%v: %s)", err, bytes.TrimSpace(out)), nil
	}
	codex, skip, err := findCodex()
	if skip != "" || err != nil {
		return nil, skip, err
	}
	self, err := os.Executable()
	if err != nil {
		return nil, "", err
	}
	tmp, err := os.MkdirTemp("", "toolgate-e2e-codex-bin-")
	if err != nil {
		return nil, "", err
	}
	tmp, _ = filepath.EvalSymlinks(tmp)
	// toolgate, and toolgate-check, the hook command of the example,
	// beside it as go install puts them. The warm processes
	// toolgate-check starts live in the sandbox's PID namespace and end
	// with it.
	for _, name := range []string{"toolgate", "toolgate-check"} {
		build := exec.Command("go", "build", "-o", filepath.Join(tmp, name), "github.com/toolgate/toolgate/cmd/"+name)
		if out, err := build.CombinedOutput(); err != nil {
			return nil, "", fmt.Errorf("go build %s: %v: %s", name, err, out)
		}
	}
	s := &suiteEnv{codex: codex, toolgate: tmp, bwrap: bwrap, self: self}
	// /tmp is private in the sandbox: what the suite needs from it is
	// bound in read-only.
	for _, p := range []string{self, tmp, filepath.Dir(filepath.Dir(codex))} {
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

// findCodex returns the native binary of the platform package of
// @openai/codex@Version (the package's bin/codex.js only starts it, and
// needs node), which .ci/setup installed into the cache; the suite
// installs nothing. Not there, it is a skip that says to run .ci/setup.
func findCodex() (string, string, error) {
	root, err := cacheDir()
	if err != nil {
		return "", "", err
	}
	dir := filepath.Join(root, "codex-"+Version)
	triple, npmArch := "x86_64-unknown-linux-musl", "x64"
	if runtime.GOARCH == "arm64" {
		triple, npmArch = "aarch64-unknown-linux-musl", "arm64"
	}
	bin := filepath.Join(dir, "node_modules", "@openai", "codex-linux-"+npmArch, "vendor", triple, "bin", "codex")
	if v := version(bin); v != Version {
		return "", testenv.Missing("Codex CLI "+Version, fmt.Sprintf("%s reports version %q", bin, v)), nil
	}
	return bin, "", nil
}

// version is what "codex --version" names ("codex-cli 0.171.0").
func version(bin string) string {
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(strings.TrimSpace(string(out)), "codex-cli ")
}

// scenario is one run of Codex.
type scenario struct {
	name   string
	prompt string
	steps  []step
	// user is toolgate's ~/.claude/settings.json (the user's policy,
	// which applies under Codex as under Claude Code).
	user map[string]any
	// files are laid out under the workspace, or under $HOME; "$WS" and
	// "$HOME" in their text (and in the steps' commands and patches)
	// are replaced.
	files map[string]string
}

// result is what a run left behind.
type result struct {
	ws, home, out string
	stdout        string
	stderr        string
	status        string
	requests      []json.RawMessage
}

// spec is what the harness runs inside the sandbox.
type spec struct {
	Steps   []step   `json:"steps"`
	Codex   string   `json:"codex"`
	Args    []string `json:"args"`
	Env     []string `json:"env"`
	Dir     string   `json:"dir"`
	Out     string   `json:"out"`
	Config  string   `json:"config"`  // config.toml, whose $API the harness fills in
	Timeout int      `json:"timeout"` // seconds
}

// configTOML is Codex's config: the scripted API as a custom model
// provider speaking the Responses API, with an invented key; Codex's own
// workspace-write sandbox and no approvals (codex exec cannot ask).
const configTOML = `model = "gpt-5.5"
model_provider = "e2e"
approval_policy = "never"
sandbox_mode = "workspace-write"

[model_providers.e2e]
name = "e2e"
base_url = "$API"
wire_api = "responses"
env_key = "E2E_API_KEY"
`

// run runs sc in its own sandbox and returns what happened.
func (s *suiteEnv) run(t *testing.T, sc scenario) *result {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	ws, home, out := filepath.Join(root, "ws"), filepath.Join(root, "home"), filepath.Join(root, "out")
	for _, d := range []string{ws, filepath.Join(home, ".codex"), filepath.Join(home, ".claude"), out, filepath.Join(root, "tmp")} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	expand := strings.NewReplacer("$WS", ws, "$HOME", home).Replace
	for name, body := range sc.files {
		p := expand(name)
		if !filepath.IsAbs(p) {
			p = filepath.Join(ws, filepath.FromSlash(name))
		}
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		mode := os.FileMode(0o644)
		if strings.HasPrefix(body, "#!") {
			mode = 0o755
		}
		require.NoError(t, os.WriteFile(p, []byte(expand(body)), mode))
	}
	hooks, err := os.ReadFile(filepath.Join("..", "..", "examples", "codex", "hooks.json"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(home, ".codex", "hooks.json"), hooks, 0o644))
	if sc.user != nil {
		b, err := json.MarshalIndent(sc.user, "", "  ")
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(home, ".claude", "settings.json"), []byte(expand(string(b))), 0o644))
	}
	// The script's paths are the scenario's directories.
	steps := make([]step, len(sc.steps))
	for i, st := range sc.steps {
		steps[i] = step{Cmd: expand(st.Cmd), Patch: expand(st.Patch), Text: st.Text}
	}
	sp := spec{
		Steps: steps, Codex: s.codex, Dir: ws, Out: out, Timeout: runTimeout, Config: filepath.Join(home, ".codex", "config.toml"),
		// User hooks run only when trusted; codex exec has no review
		// screen, so the suite passes the flag README names for it.
		Args: []string{"exec", "--skip-git-repo-check", "--dangerously-bypass-hook-trust", "--json", sc.prompt},
		Env: []string{
			"HOME=" + home, "CODEX_HOME=" + filepath.Join(home, ".codex"),
			"PATH=" + s.toolgate + ":/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8", "SHELL=/bin/bash", "USER=e2e", "TERM=dumb",
			// Codex refuses to put its sandbox helper under the
			// temporary directory, where t.TempDir() is: TMPDIR is a
			// folder beside the home instead.
			"TMPDIR=" + filepath.Join(root, "tmp"),
			"E2E_API_KEY=sk-e2e-invented-key", "NO_COLOR=1",
		},
	}
	require.NoError(t, os.WriteFile(sp.Config, []byte(configTOML), 0o644))
	b, err := json.Marshal(sp)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(root, "spec.json"), b, 0o644))
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
	for _, line := range strings.Split(readFile(filepath.Join(out, "api.jsonl")), "\n") {
		if line != "" {
			r.requests = append(r.requests, json.RawMessage(line))
		}
	}
	t.Logf("%s: %s in %s, %d API requests", sc.name, r.status, time.Since(start).Round(time.Millisecond), len(r.requests))
	if keep := os.Getenv("TOOLGATE_E2E_KEEP"); keep != "" {
		_ = os.MkdirAll(keep, 0o755)
		dst := filepath.Join(keep, strings.ReplaceAll(t.Name(), "/", "_"))
		_ = os.RemoveAll(dst)
		_ = exec.Command("cp", "-a", root, dst).Run()
	}
	return r
}

// toolOutputs are the outputs of tool calls the model received, in the
// last request: what Codex sent back for each scripted call.
func (r *result) toolOutputs() []string {
	if len(r.requests) == 0 {
		return nil
	}
	var req struct {
		Input []struct {
			Type   string          `json:"type"`
			Output json.RawMessage `json:"output"`
		} `json:"input"`
	}
	_ = json.Unmarshal(r.requests[len(r.requests)-1], &req)
	var outs []string
	for _, in := range req.Input {
		if !strings.HasSuffix(in.Type, "_call_output") {
			continue
		}
		var s string
		if json.Unmarshal(in.Output, &s) != nil {
			s = string(in.Output)
		}
		outs = append(outs, s)
	}
	return outs
}

// runHarness serves the API and runs Codex once; its files are api.jsonl
// (every request), stdout, stderr and status in spec.Out.
func runHarness() int {
	data, err := os.ReadFile(os.Getenv(specEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, "harness:", err)
		return 2
	}
	var sp spec
	if err := json.Unmarshal(data, &sp); err != nil {
		fmt.Fprintln(os.Stderr, "harness:", err)
		return 2
	}
	url, stop, err := serveAPI(sp.Steps, filepath.Join(sp.Out, "api.jsonl"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "harness:", err)
		return 2
	}
	defer stop()
	cfg, err := os.ReadFile(sp.Config)
	if err == nil {
		err = os.WriteFile(sp.Config, bytes.ReplaceAll(cfg, []byte("$API"), []byte(url)), 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "harness:", err)
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(sp.Timeout)*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, sp.Codex, sp.Args...)
	cmd.Dir = sp.Dir
	cmd.Env = sp.Env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Stdin = strings.NewReader("")
	runErr := cmd.Run()
	status := "exit 0"
	if runErr != nil {
		status = runErr.Error()
	}
	_ = os.WriteFile(filepath.Join(sp.Out, "stdout"), out.Bytes(), 0o644)
	_ = os.WriteFile(filepath.Join(sp.Out, "stderr"), errb.Bytes(), 0o644)
	_ = os.WriteFile(filepath.Join(sp.Out, "status"), []byte(status), 0o644)
	return 0
}

var secretRE = regexp.MustCompile(`SECRET-[0-9a-z]+`)

// runRedact is a toolgate PostToolUse hook (Claude Code's protocol, which
// toolgate speaks to its own hooks): the output with every secret
// replaced.
func runRedact() int {
	data, _ := io.ReadAll(os.Stdin)
	var ev struct {
		ToolResponse json.RawMessage `json:"tool_response"`
	}
	_ = json.Unmarshal(data, &ev)
	var text string
	if json.Unmarshal(ev.ToolResponse, &text) != nil {
		text = string(ev.ToolResponse)
	}
	_ = json.NewEncoder(os.Stdout).Encode(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": "PostToolUse", "updatedToolOutput": secretRE.ReplaceAllString(text, "[redacted]")}})
	return 0
}

// redactCommand is the hook command that runs this test binary as the
// redact hook.
func (s *suiteEnv) redactCommand() string {
	return roleEnv + "=" + roleRedact + " " + s.self + " -test.run=^$"
}

func readFile(p string) string {
	b, err := os.ReadFile(p)
	if err != nil && !os.IsNotExist(err) {
		return "read error: " + err.Error()
	}
	return string(b)
}

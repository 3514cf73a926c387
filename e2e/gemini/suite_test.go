package gemini

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
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

// Version is the Gemini CLI release the suite runs.
const Version = "0.61.0"

// requireEnv makes a skip a failure: CI sets it, so that a machine
// where .ci/setup did not install the CLI, or without bubblewrap, fails
// instead of passing silently.
const requireEnv = "TOOLGATE_E2E_REQUIRE"

// Roles the test binary plays when it runs itself: inside the sandbox,
// the harness serves the scripted API and runs Gemini CLI; the redactor
// is a toolgate PostToolUse hook.
const (
	roleEnv     = "TOOLGATE_E2E_ROLE"
	roleHarness = "harness"
	roleRedact  = "redact"
	specEnv     = "TOOLGATE_E2E_SPEC"
)

func TestMain(m *testing.M) {
	switch os.Getenv(roleEnv) {
	case roleHarness:
		os.Exit(runHarness())
	case roleRedact:
		os.Exit(runRedact())
	}
	os.Exit(m.Run())
}

var secretRE = regexp.MustCompile(`SECRET-[0-9a-z]+`)

// runRedact is a toolgate PostToolUse hook (Claude Code's protocol, as
// toolgate runs its hooks): it replaces every SECRET-… in the output.
func runRedact() int {
	data, _ := io.ReadAll(os.Stdin)
	var ev struct {
		ToolResponse string `json:"tool_response"`
	}
	_ = json.Unmarshal(data, &ev)
	out := secretRE.ReplaceAllString(ev.ToolResponse, "[redacted]")
	_ = json.NewEncoder(os.Stdout).Encode(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": "PostToolUse", "updatedToolOutput": out, "additionalContext": "e2e: secrets redacted"}})
	return 0
}

// spec is what the harness runs inside the sandbox.
type spec struct {
	Script  script   `json:"script"`
	Node    string   `json:"node"`
	Args    []string `json:"args"`
	Env     []string `json:"env"`
	Dir     string   `json:"dir"`
	Out     string   `json:"out"`
	Timeout int      `json:"timeout"` // seconds
}

// runHarness serves the API and runs Gemini CLI once; its files are
// api.jsonl (every request), stdout, stderr and status in spec.Out.
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
	log, err := os.Create(filepath.Join(sp.Out, "api.jsonl"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "harness:", err)
		return 2
	}
	defer log.Close()
	url, stop, err := serveAPI(sp.Script, log)
	if err != nil {
		fmt.Fprintln(os.Stderr, "harness:", err)
		return 2
	}
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(sp.Timeout)*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, sp.Node, sp.Args...)
	cmd.Dir = sp.Dir
	cmd.Env = append(append([]string{}, sp.Env...), "GOOGLE_GEMINI_BASE_URL="+url)
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

// suiteEnv is what every scenario shares: Gemini CLI, toolgate and bwrap.
type suiteEnv struct {
	gemini   string // bundle/gemini.js
	node     string
	toolgate string // directory holding the toolgate binary
	bwrap    string
	self     string // this test binary, run as the harness
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
		t.Skipf("SKIPPING the Gemini CLI %s end-to-end suite in -short mode (it runs Gemini CLI for minutes)", Version)
	}
	suiteOnce.Do(func() { suite, suiteSkip, suiteErr = prepare() })
	if suiteErr != nil {
		t.Fatalf("end-to-end suite: %v", suiteErr)
	}
	if suiteSkip != "" {
		if os.Getenv(requireEnv) != "" {
			t.Fatalf("end-to-end suite cannot run and %s is set: %s", requireEnv, suiteSkip)
		}
		t.Skipf("SKIPPING the Gemini CLI %s end-to-end suite: %s (set %s=1 to make this a failure)", Version, suiteSkip, requireEnv)
	}
	return suite
}

func prepare() (*suiteEnv, string, error) {
	if runtime.GOOS != "linux" {
		return nil, "the suite runs Gemini CLI inside bubblewrap, which is Linux only", nil
	}
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		return nil, testenv.Missing("bubblewrap (bwrap)", "not on PATH"), nil
	}
	if out, err := exec.Command(bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--unshare-user", "--uid", "1000", "--gid", "1000", "--unshare-net", "true").CombinedOutput(); err != nil {
		return nil, fmt.Sprintf("bubblewrap cannot make a sandbox here (%v: %s)", err, bytes.TrimSpace(out)), nil
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, "node is not installed, so Gemini CLI cannot run", nil
	}
	gemini, skip, err := findGemini(node)
	if skip != "" || err != nil {
		return nil, skip, err
	}
	self, err := os.Executable()
	if err != nil {
		return nil, "", err
	}
	tmp, err := os.MkdirTemp("", "toolgate-e2e-gemini-bin-")
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
	s := &suiteEnv{gemini: gemini, node: node, toolgate: tmp, bwrap: bwrap, self: self}
	// /tmp is private in the sandbox: what the suite needs from it is
	// bound in read-only.
	// The whole install: the bundle loads its chunks and native modules
	// from beside gemini.js.
	install := filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(gemini)))))
	for _, p := range []string{self, tmp, install} {
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

// findGemini returns the bundle/gemini.js of @google/gemini-cli@Version,
// which .ci/setup installed into the cache; the suite installs nothing.
// Not there, it is a skip that says to run .ci/setup.
func findGemini(node string) (string, string, error) {
	root, err := cacheDir()
	if err != nil {
		return "", "", err
	}
	dir := filepath.Join(root, "gemini-cli-"+Version)
	js := filepath.Join(dir, "node_modules", "@google", "gemini-cli", "bundle", "gemini.js")
	if v := version(node, js); v != Version {
		return "", testenv.Missing("Gemini CLI "+Version, fmt.Sprintf("%s is version %q", js, v)), nil
	}
	return js, "", nil
}

// version is the version the installed package says it is (its
// package.json beside bundle/), without starting the CLI.
func version(node, js string) string {
	data, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(js)), "package.json"))
	if err != nil {
		return ""
	}
	var p struct {
		Version string `json:"version"`
	}
	_ = json.Unmarshal(data, &p)
	return p.Version
}

// scenario is one run of Gemini CLI.
type scenario struct {
	name   string
	prompt string
	steps  []step
	// user is the home's ~/.claude/settings.json (toolgate's settings);
	// geminiProject is the workspace's .gemini/settings.json, project
	// its .claude/settings.json.
	user, project, geminiProject map[string]any
	files                        map[string]string // under the workspace, or under $HOME or $ROOT
	dirs                         []string          // more directories ($WS, $HOME, $ROOT)
	check                        func(t *testing.T, r *result)
}

// result is what a run left behind.
type result struct {
	root, ws, home string
	stdout, stderr string
	status         string
	requests       []json.RawMessage
}

const promptTimeout = 120

// geminiHooks is the hooks block of examples/gemini/settings.json.
func geminiHooks(t *testing.T) map[string]any {
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", "gemini", "settings.json"))
	require.NoError(t, err)
	var s struct {
		Hooks map[string]any `json:"hooks"`
	}
	require.NoError(t, json.Unmarshal(data, &s))
	require.NotEmpty(t, s.Hooks)
	return s.Hooks
}

// run runs sc in its own sandbox and returns what happened.
func (s *suiteEnv) run(t *testing.T, sc scenario) *result {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	ws, home, out := filepath.Join(root, "ws"), filepath.Join(root, "home"), filepath.Join(root, "out")
	for _, d := range []string{filepath.Join(ws, ".gemini"), filepath.Join(ws, ".claude"), filepath.Join(home, ".gemini"), filepath.Join(home, ".claude"), out} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	rep := strings.NewReplacer("$WS", ws, "$HOME", home, "$ROOT", root)
	for name, body := range sc.files {
		p := rep.Replace(name)
		if !filepath.IsAbs(p) {
			p = filepath.Join(ws, filepath.FromSlash(p))
		}
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(rep.Replace(body)), 0o644))
	}
	for _, d := range sc.dirs {
		require.NoError(t, os.MkdirAll(rep.Replace(d), 0o755))
	}
	// Gemini CLI's own settings: an API key, nothing sent home, no
	// update check; toolgate check as its hooks.
	gem := map[string]any{
		"security":  map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"privacy":   map[string]any{"usageStatisticsEnabled": false},
		"telemetry": map[string]any{"enabled": false},
		"general":   map[string]any{"disableAutoUpdate": true, "disableUpdateNag": true},
		"hooks":     geminiHooks(t),
	}
	writeJSONFile(t, filepath.Join(home, ".gemini", "settings.json"), gem, rep)
	writeJSONFile(t, filepath.Join(home, ".claude", "settings.json"), orEmpty(sc.user), rep)
	if sc.project != nil {
		writeJSONFile(t, filepath.Join(ws, ".claude", "settings.json"), sc.project, rep)
	}
	if sc.geminiProject != nil {
		writeJSONFile(t, filepath.Join(ws, ".gemini", "settings.json"), sc.geminiProject, rep)
	}
	args := []string{s.gemini, "-p", sc.prompt, "--yolo", "-m", "gemini-2.5-pro", "--output-format", "json"}
	sp := spec{
		Script: script{Marker: sc.prompt, Steps: sc.steps},
		Node:   s.node, Args: args, Dir: ws, Out: out, Timeout: promptTimeout,
		Env: []string{
			"HOME=" + home, "PATH=" + s.toolgate + ":/usr/local/bin:/usr/bin:/bin", "TMPDIR=/tmp", "LANG=C.UTF-8",
			"SHELL=/bin/bash", "USER=e2e", "TERM=dumb", "GEMINI_API_KEY=e2e-invented-key",
			// The workspace is trusted, as gemini's folder-trust dialog
			// would record it: the shell tool and hooks need it.
			"GEMINI_CLI_TRUST_WORKSPACE=true", "GEMINI_CLI_NO_RELAUNCH=true",
			"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"), "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
			"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), roleEnv + "=", "E2E_SELF=" + s.self,
		},
	}
	writeJSONFile(t, filepath.Join(root, "spec.json"), sp, rep)
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
	require.NoError(t, cmd.Run(), "the sandbox: %s", errb.String())
	r := &result{root: root, ws: ws, home: home}
	r.stdout = readFile(filepath.Join(out, "stdout"))
	r.stderr = readFile(filepath.Join(out, "stderr"))
	r.status = readFile(filepath.Join(out, "status"))
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

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// writeJSONFile writes v as JSON with $WS, $HOME and $ROOT replaced.
func writeJSONFile(t *testing.T, path string, v any, rep *strings.Replacer) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, []byte(rep.Replace(string(b))), 0o644))
}

func readFile(p string) string {
	b, err := os.ReadFile(p)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "read error: " + err.Error()
	}
	return string(b)
}

// functionResponses are the function responses the model was sent, in
// order, as their JSON text ({"output": …} or {"error": …}), from the
// last request of the scripted conversation.
func (r *result) functionResponses(t *testing.T) []string {
	t.Helper()
	var out []string
	for i := len(r.requests) - 1; i >= 0; i-- {
		var rec struct {
			Path string `json:"path"`
			Body struct {
				Contents []struct {
					Parts []struct {
						FunctionResponse *struct {
							Name     string          `json:"name"`
							Response json.RawMessage `json:"response"`
						} `json:"functionResponse"`
					} `json:"parts"`
				} `json:"contents"`
			} `json:"body"`
		}
		require.NoError(t, json.Unmarshal(r.requests[i], &rec))
		if !strings.HasSuffix(rec.Path, ":streamGenerateContent") {
			continue
		}
		for _, c := range rec.Body.Contents {
			for _, p := range c.Parts {
				if p.FunctionResponse != nil {
					out = append(out, p.FunctionResponse.Name+": "+string(p.FunctionResponse.Response))
				}
			}
		}
		return out
	}
	return out
}

// everything is every request's text, for what the model must never see.
func (r *result) everything() string {
	var b strings.Builder
	for _, q := range r.requests {
		b.Write(q)
		b.WriteByte('\n')
	}
	return b.String()
}

func (r *result) diag() string {
	return fmt.Sprintf("status %s\nstdout %s\nstderr %s", r.status, tail(r.stdout), tail(r.stderr))
}

func tail(s string) string {
	if len(s) > 3000 {
		return "…" + s[len(s)-3000:]
	}
	return s
}

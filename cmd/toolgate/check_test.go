package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/ccwire"
)

var update = flag.Bool("update", false, "rewrite the want fields of testdata/*.json with the answers the binary gives")

// checkCase is one recorded event in testdata: the settings files to lay
// out, the command line, the event (or raw stdin) and the answer wanted.
// "$TMP" stands for the test's directory and "$CWD" for the project in it.
type checkCase struct {
	About string                     `json:"about"`
	Args  []string                   `json:"args,omitempty"`
	Files map[string]json.RawMessage `json:"files,omitempty"`
	// Links are symbolic links to lay out, name to target; FIFOs are
	// named pipes (no writer ever opens them).
	Links map[string]string `json:"links,omitempty"`
	FIFOs []string          `json:"fifos,omitempty"`
	// Env are further environment variables of the run.
	Env map[string]string `json:"env,omitempty"`
	// Absent are files that must not exist after the run (a hook's
	// canary).
	Absent []string        `json:"absent,omitempty"`
	Event  json.RawMessage `json:"event,omitempty"`
	Stdin  *string         `json:"stdin,omitempty"`
	Want   json.RawMessage `json:"want,omitempty"`
}

// workspace lays out a project with a source file, a secret, a protected
// folder, a link leading out, and an outside folder; it returns the
// test's directory.
func workspace(t testing.TB) string {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	for _, d := range []string{"proj/src", "proj/.git/hooks", "outside", "home/.claude"} {
		require.NoError(t, os.MkdirAll(filepath.Join(tmp, d), 0o755))
	}
	for name, body := range map[string]string{
		"proj/src/main.go": "package main\n", "proj/README.md": "# proj\n", "proj/.env": "TOKEN=x\n",
		"proj/analysis.ipynb": "{}\n", "outside/secret.txt": "outside\n",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(tmp, name), []byte(body), 0o644))
	}
	require.NoError(t, os.Symlink(filepath.Join(tmp, "outside"), filepath.Join(tmp, "proj", "escape")))
	return tmp
}

func expand(s, tmp string) string {
	return strings.NewReplacer("$CWD", filepath.Join(tmp, "proj"), "$TMP", tmp).Replace(s)
}

func unexpand(s, tmp string) string {
	return strings.NewReplacer(filepath.Join(tmp, "proj"), "$CWD", tmp, "$TMP").Replace(s)
}

// runBinary runs "toolgate check" as Claude Code does: from another
// directory than the project, with HOME set, the event on stdin.
func runBinary(t testing.TB, tmp string, args []string, stdin string, env ...string) (stdout, stderr string, code int) {
	t.Helper()
	argv := append([]string{"check", "--managed", filepath.Join(tmp, "managed.json")}, args...)
	cmd := exec.Command(bin, argv...)
	cmd.Dir = "/"
	cmd.Env = append([]string{"HOME=" + filepath.Join(tmp, "home"), "PATH=" + os.Getenv("PATH")}, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return out.String(), errb.String(), code
}

func (c *checkCase) setUp(t *testing.T, tmp string) (args []string, stdin string) {
	t.Helper()
	for name, body := range c.Files {
		p := filepath.Join(tmp, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			require.NoError(t, os.MkdirAll(p, 0o755))
			continue
		}
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		data := []byte(body)
		var raw string
		if json.Unmarshal(body, &raw) == nil {
			data = []byte(raw) // a string is the file's text, for malformed files
		}
		require.NoError(t, os.WriteFile(p, []byte(expand(string(data), tmp)), 0o644))
	}
	for name, target := range c.Links {
		p := filepath.Join(tmp, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.Symlink(expand(target, tmp), p))
	}
	for _, name := range c.FIFOs {
		p := filepath.Join(tmp, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, syscall.Mkfifo(p, 0o644))
	}
	for _, a := range c.Args {
		args = append(args, expand(a, tmp))
	}
	if c.Stdin != nil {
		stdin = *c.Stdin
	} else {
		stdin = string(c.Event)
	}
	return args, expand(stdin, tmp)
}

// TestCheckRecordedEvents runs the binary on every recorded event and
// compares the whole JSON answer: decision, reason, updatedInput, and
// the PostToolUse fields.
func TestCheckRecordedEvents(t *testing.T) {
	files, err := filepath.Glob("testdata/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var confinedCases atomic.Int64
	t.Cleanup(func() {
		// Every allowed Bash call of the recorded events is confined
		// (the default); the unwrapping above checked each script.
		assert.Positive(t, confinedCases.Load(), "no recorded answer was confined")
	})
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			var c checkCase
			require.NoError(t, json.Unmarshal(data, &c))
			tmp := workspace(t)
			args, stdin := c.setUp(t, tmp)
			var env []string
			for k, v := range c.Env {
				env = append(env, k+"="+expand(v, tmp))
			}
			out, stderr, code := runBinary(t, tmp, args, stdin, env...)
			var confined bool
			out, confined = unwrapConfinement(t, out, json.RawMessage(stdin))
			if confined {
				confinedCases.Add(1)
			}
			for _, name := range c.Absent {
				_, err := os.Lstat(filepath.Join(tmp, filepath.FromSlash(name)))
				assert.True(t, os.IsNotExist(err), "%s exists: a command ran that must not have (%s)", name, c.About)
			}
			assert.Equal(t, 0, code, "exit status (stderr %q)", stderr)
			require.True(t, json.Valid([]byte(out)), "stdout is not JSON: %q", out)
			if *update {
				c.Want = json.RawMessage(unexpand(strings.TrimSpace(out), tmp))
				b, err := json.MarshalIndent(c, "", "  ")
				require.NoError(t, err)
				require.NoError(t, os.WriteFile(file, append(b, '\n'), 0o644))
				return
			}
			require.NotEmpty(t, c.Want, "%s has no want: run go test -run TestCheckRecordedEvents -update and review", file)
			assert.JSONEq(t, expand(string(c.Want), tmp), out, c.About)
		})
	}
}

// TestCheckCoverage asserts that the recorded events cover every tool,
// every mode, every decision, hook mutation and malformed input.
func TestCheckCoverage(t *testing.T) {
	files, err := filepath.Glob("testdata/*.json")
	require.NoError(t, err)
	tools, modes, decisions := map[string]bool{}, map[string]bool{}, map[string]bool{}
	mutated, post, malformed := false, false, 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		var c checkCase
		require.NoError(t, json.Unmarshal(data, &c))
		var ev event
		if c.Event != nil && json.Unmarshal(c.Event, &ev) == nil {
			tools[ev.ToolName] = true
			modes[ev.PermissionMode] = true
		} else {
			malformed++
		}
		var pre ccwire.Answer
		require.NoError(t, json.Unmarshal(c.Want, &pre), file)
		decisions[pre.SpecificOrZero().PermissionDecision] = true
		mutated = mutated || pre.SpecificOrZero().UpdatedInput != nil
		var pa ccwire.Answer
		require.NoError(t, json.Unmarshal(c.Want, &pa), file)
		post = post || pa.SpecificOrZero().HookEventName == eventPost
	}
	for _, tool := range []string{"Bash", "Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "Glob", "Grep",
		"WebFetch", "WebSearch", "Task", "Agent", "TodoWrite", "mcp__github__create_issue"} {
		assert.True(t, tools[tool], "no recorded event for %s", tool)
	}
	for _, m := range []string{"default", "acceptEdits", "plan", "dontAsk", "bypassPermissions"} {
		assert.True(t, modes[m], "no recorded event in mode %s", m)
	}
	for _, d := range []string{"allow", "ask", "deny"} {
		assert.True(t, decisions[d], "no recorded answer %s", d)
	}
	assert.True(t, mutated, "no recorded hook mutation")
	assert.True(t, post, "no recorded PostToolUse answer")
	assert.GreaterOrEqual(t, malformed, 3, "recorded malformed inputs")
	names := make([]string, 0, len(tools))
	for n := range tools {
		names = append(names, n)
	}
	sort.Strings(names)
	t.Logf("tools covered: %s", strings.Join(names, " "))
}

// unwrapConfinement checks and undoes the confinement of an allowed
// command (see confine.go), so that recorded answers compare
// independently of where the test binary lives: the wrapped script must
// be, byte for byte, the command the call would otherwise run (the
// event's, or the one the answer names in its own updatedInput); it
// comes back as that command, or, when the wrapping was the only change,
// as no updatedInput at all. It reports whether the answer was confined.
func unwrapConfinement(t *testing.T, out string, event json.RawMessage) (string, bool) {
	t.Helper()
	var ans map[string]any
	if json.Unmarshal([]byte(out), &ans) != nil {
		return out, false
	}
	spec, _ := ans["hookSpecificOutput"].(map[string]any)
	in, _ := spec["updatedInput"].(map[string]any)
	cmd, _ := in["command"].(string)
	pol, script, ok := parseWrapped(cmd)
	if !ok {
		return out, false
	}
	var p confinePolicy
	require.NoError(t, json.Unmarshal([]byte(pol), &p), "the policy of a confined command")
	require.NotEmpty(t, p.Roots, "a confined command names its roots")
	in["command"] = script
	var ev struct {
		ToolInput map[string]any `json:"tool_input"`
	}
	require.NoError(t, json.Unmarshal(event, &ev))
	if reflect.DeepEqual(in, ev.ToolInput) {
		delete(spec, "updatedInput")
	}
	b, err := json.Marshal(ans)
	require.NoError(t, err)
	return string(b), true
}

// parseWrapped undoes wrapCommand: the policy's JSON and the script.
func parseWrapped(cmd string) (pol, script string, ok bool) {
	_, rest, found := strings.Cut(cmd, "' exec --policy ")
	if !found || !strings.HasPrefix(cmd, "'") {
		return "", "", false
	}
	p64, s64, found := strings.Cut(rest, " --script ")
	if !found {
		return "", "", false
	}
	p, err1 := base64.StdEncoding.DecodeString(p64)
	s, err2 := base64.StdEncoding.DecodeString(s64)
	if err1 != nil || err2 != nil {
		return "", "", false
	}
	return string(p), string(s), true
}

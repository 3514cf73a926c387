package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// fileToolCase is one line of testdata/filetools/*.jsonl: a file tool's
// call in a workspace (the one workspace lays out, then
// testdata/filetools/repo.json, then the case's own files and links), and
// the decision wanted with a part of its reason. Remove lists what to take
// away from the workspace before the case's files are laid out. "$TMP", "$CWD" and "$HOME"
// are expanded in every string; env adds variables to the binary's
// environment (CLAUDE_PROJECT_DIR, as Claude Code sets it).
type fileToolCase struct {
	About     string            `json:"about"`
	Files     map[string]string `json:"files,omitempty"`
	Links     map[string]string `json:"links,omitempty"`
	Hardlinks map[string]string `json:"hardlinks,omitempty"`
	// Fifos are named pipes to make; Devices are device nodes ("c 1 5"
	// for a character device of major 1, minor 5; "b 7 0" for a block
	// device), which only root can make: a case with devices is skipped,
	// saying so, when the tests do not run as root.
	Fifos   []string          `json:"fifos,omitempty"`
	Devices map[string]string `json:"devices,omitempty"`
	// Mounts bind-mount directories (the values, under the test's
	// directory) onto mount points (the keys) in a private mount
	// namespace, in which both front doors judge the case (see
	// mounts_test.go); where no such namespace can be made the case is
	// skipped, saying so.
	Mounts   map[string]string `json:"mounts,omitempty"`
	Remove   []string          `json:"remove,omitempty"`
	Cwd      string            `json:"cwd,omitempty"`
	Env      []string          `json:"env,omitempty"`
	Mode     string            `json:"mode,omitempty"`
	Tool     string            `json:"tool"`
	Input    json.RawMessage   `json:"input"`
	Decision string            `json:"decision"`
	Reason   string            `json:"reason"`
}

// repoLayout is testdata/filetools/repo.json: an ordinary repository.
type repoLayout struct {
	Files map[string]string `json:"files"`
	Links map[string]string `json:"links"`
}

func (c *fileToolCase) setUp(t *testing.T, tmp string, repo repoLayout) string {
	t.Helper()
	exp := func(s string) string {
		return strings.NewReplacer("$CWD", filepath.Join(tmp, "proj"), "$HOME", filepath.Join(tmp, "home"), "$TMP", tmp).Replace(s)
	}
	write := func(files map[string]string) {
		for name, body := range files {
			p := filepath.Join(tmp, name)
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			require.NoError(t, os.WriteFile(p, []byte(exp(body)), 0o644))
		}
	}
	link := func(links map[string]string) {
		for name, target := range links {
			p := filepath.Join(tmp, name)
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			require.NoError(t, os.Symlink(exp(target), p))
		}
	}
	write(repo.Files)
	link(repo.Links)
	for _, r := range c.Remove {
		require.NoError(t, os.RemoveAll(filepath.Join(tmp, r)))
	}
	write(c.Files)
	link(c.Links)
	for name, target := range c.Hardlinks {
		p := filepath.Join(tmp, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.Link(filepath.Join(tmp, target), p))
	}
	for _, name := range c.Fifos {
		p := filepath.Join(tmp, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, syscall.Mkfifo(p, 0o644))
	}
	if len(c.Devices) > 0 && os.Geteuid() != 0 {
		t.Skip("SKIPPED: making a device node (mknod) needs root, and the tests do not run as root")
	}
	for name, spec := range c.Devices {
		var kind string
		var major, minor uint32
		_, err := fmt.Sscanf(spec, "%s %d %d", &kind, &major, &minor)
		require.NoError(t, err, spec)
		mode := uint32(syscall.S_IFCHR)
		if kind == "b" {
			mode = syscall.S_IFBLK
		}
		p := filepath.Join(tmp, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, syscall.Mknod(p, mode|0o644, int(unix.Mkdev(major, minor))))
	}
	cwd, mode := c.Cwd, c.Mode
	if cwd == "" {
		cwd = "$CWD"
	}
	if mode == "" {
		mode = "default"
	}
	ev, err := json.Marshal(map[string]any{
		"session_id": "8f2c1a4e-5b7d-4c1e-9a3f-2d6b8e0c4f1a", "transcript_path": "$TMP/home/.claude/projects/proj/8f2c1a4e.jsonl",
		"cwd": cwd, "permission_mode": mode, "hook_event_name": "PreToolUse", "tool_name": c.Tool,
		"tool_input": c.Input, "tool_use_id": "toolu_01ABCdefGHIjklMNOpqrSTU",
	})
	require.NoError(t, err)
	return exp(string(ev))
}

// TestFileTools runs "toolgate check" on every case of
// testdata/filetools: the attacks on the path layer (a protected file
// under another name, files that run code, credential files, search
// filters, hard links) and ordinary work in an ordinary repository, which
// keeps its decisions.
func TestFileTools(t *testing.T) {
	data, err := os.ReadFile("testdata/filetools/repo.json")
	require.NoError(t, err)
	var repo repoLayout
	require.NoError(t, json.Unmarshal(data, &repo))
	files, err := filepath.Glob("testdata/filetools/*.jsonl")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	counts := map[string]int{}
	for _, file := range files {
		f, err := os.Open(file)
		require.NoError(t, err)
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for line := 1; sc.Scan(); line++ {
			var c fileToolCase
			require.NoError(t, json.Unmarshal(sc.Bytes(), &c), "%s:%d", file, line)
			name := strings.TrimSuffix(filepath.Base(file), ".jsonl")
			counts[name]++
			t.Run(name+"/"+c.About, func(t *testing.T) {
				tmp := workspace(t)
				stdin := c.setUp(t, tmp, repo)
				var env []string
				for _, e := range c.Env {
					env = append(env, expand(e, tmp))
				}
				var decision, reason, d, why string
				if len(c.Mounts) > 0 {
					decision, reason, d, why = bothDoorsMounted(t, &c, tmp, stdin, env)
				} else {
					out, stderr, code := runBinary(t, tmp, nil, stdin, env...)
					require.Equal(t, 0, code, "exit status (stderr %q)", stderr)
					var ans struct {
						HookSpecificOutput struct {
							PermissionDecision       string `json:"permissionDecision"`
							PermissionDecisionReason string `json:"permissionDecisionReason"`
						} `json:"hookSpecificOutput"`
					}
					require.NoError(t, json.Unmarshal([]byte(out), &ans), out)
					decision, reason = ans.HookSpecificOutput.PermissionDecision, ans.HookSpecificOutput.PermissionDecisionReason
					// The library's front door.
					d, why = openVerdict(t, filepath.Join(tmp, "managed.json"), stdin,
						append([]string{"HOME=" + filepath.Join(tmp, "home")}, env...))
				}
				names := strings.NewReplacer(filepath.Join(tmp, "proj"), "$CWD", filepath.Join(tmp, "home"), "$HOME", tmp, "$TMP")
				reason, why = names.Replace(reason), names.Replace(why)
				assert.Equal(t, c.Decision, decision, reason)
				assert.Contains(t, reason, c.Reason)
				// The library's front door gives the same answer.
				assert.Equal(t, decision, d, "runtime.Open: %s", why)
				assert.Contains(t, why, c.Reason, "runtime.Open")
			})
		}
		require.NoError(t, sc.Err())
		f.Close()
	}
	assert.GreaterOrEqual(t, counts["benign"], 40, "benign cases")
	t.Logf("cases: %v", counts)
}

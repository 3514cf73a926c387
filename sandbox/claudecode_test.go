package sandbox_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgate/toolgate/internal/testenv"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/sandbox"
)

// claudeCodeProtected reads testdata/claudecode_protected.txt: Claude
// Code's own protected names, files and then folders ("x/").
func claudeCodeProtected(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("testdata/claudecode_protected.txt")
	require.NoError(t, err)
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	require.NoError(t, sc.Err())
	return out
}

// TestClaudeCodeProtectedFloor: every name Claude Code protects is
// protected by the default lists, in the workspace's top folder and
// deeper, for a file of that name or a file inside a folder of that name.
// Claude Code's list is the floor: a name it protects that toolgate does
// not would let acceptEdits through toolgate write what Claude Code alone
// would ask about.
func TestClaudeCodeProtectedFloor(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	sb, err := sandbox.New(sandbox.Config{Roots: []string{root}, WorkDir: root})
	require.NoError(t, err)
	for _, name := range claudeCodeProtected(t) {
		for _, under := range []string{"", "pkg/sub/"} {
			p := root + "/" + under + name
			if strings.HasSuffix(name, "/") {
				p += "x"
			}
			d, reason := sb.CheckPath(p, true)
			assert.Equal(t, permission.Ask, d, "Claude Code protects %q; a write of %s: %s", name, p, reason)
			assert.Contains(t, reason, "protected path", name)
		}
	}
}

// TestClaudeCodeProtectedListCurrent: testdata/claudecode_protected.txt
// lists what the pinned Claude Code holds, read from its own tables in
// the installed CLI (.ci/setup installs it where e2e/claudecode finds it).
// Without the CLI the test says so and skips, unless TOOLGATE_E2E_REQUIRE
// is set.
func TestClaudeCodeProtectedListCurrent(t *testing.T) {
	bin := pinnedClaude(t)
	data, err := os.ReadFile(bin)
	require.NoError(t, err)
	// The tables are JavaScript arrays beside each other: the file
	// names (starting with ".gitconfig"), the folder names (starting
	// with ".git") and the folder paths (".config/git").
	files := jsArray(t, data, `\[(".gitconfig",[^\]]*)\]`)
	dirs := jsArray(t, data, `\[(".git",".vscode",[^\]]*)\]`)
	paths := jsArray(t, data, `\[(".config/git"[^\]]*)\]`)
	var want []string
	want = append(want, files...)
	for _, d := range append(dirs, paths...) {
		want = append(want, d+"/")
	}
	got := claudeCodeProtected(t)
	for _, w := range want {
		assert.True(t, slices.Contains(got, w), "Claude Code protects %q, missing from testdata/claudecode_protected.txt", w)
	}
	for _, g := range got {
		assert.True(t, slices.Contains(want, g), "testdata/claudecode_protected.txt lists %q, which the pinned Claude Code does not", g)
	}
}

// jsArray finds the first JavaScript array of strings re matches in data
// and decodes it.
func jsArray(t *testing.T, data []byte, re string) []string {
	t.Helper()
	m := regexp.MustCompile(re).FindSubmatch(data)
	require.NotNil(t, m, "no array %s in the Claude Code binary", re)
	var out []string
	require.NoError(t, json.Unmarshal(append(append([]byte("["), m[1]...), ']'), &out))
	return out
}

// pinnedClaude returns the pinned Claude Code binary from the
// end-to-end suite's cache, or skips saying why.
func pinnedClaude(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile("../e2e/claudecode/suite_test.go")
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^const Version = "([^"]+)"$`).FindSubmatch(src)
	require.NotNil(t, m, "no Version constant in e2e/claudecode/suite_test.go")
	version := string(m[1])
	cache, _ := testenv.Lookup("TOOLGATE_E2E_CACHE")
	if cache == "" {
		d, err := os.UserCacheDir()
		require.NoError(t, err)
		cache = filepath.Join(d, "toolgate-e2e")
	}
	dir := filepath.Join(cache, "claude-code-"+version, "node_modules", "@anthropic-ai")
	for _, p := range []string{"claude-code-linux-x64/claude", "claude-code-linux-arm64/claude", "claude-code/bin/claude.exe"} {
		b := filepath.Join(dir, p)
		if fi, err := os.Stat(b); err == nil && fi.Mode().IsRegular() && fi.Size() > 1<<20 {
			return b
		}
	}
	if os.Getenv("TOOLGATE_E2E_REQUIRE") != "" {
		t.Fatalf("Claude Code %s is not installed under %s, and TOOLGATE_E2E_REQUIRE is set", version, dir)
	}
	t.Skip(testenv.Missing("Claude Code "+version, "not installed under "+dir+", so the protected list is not compared with it"))
	return ""
}

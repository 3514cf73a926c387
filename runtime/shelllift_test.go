package runtime_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

// liftCase is one line of testdata/shell_lifts.jsonl: a command, judged
// under one allow rule, with the decision and a part of the reason.
type liftCase struct {
	Allow    string `json:"allow"`
	Command  string `json:"command"`
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
	// Files, when set, are made in the row's own workspace, by name and
	// content, with the directories they are in (the package.json whose
	// script a script run passes words to, a repository's .hg/hgrc).
	Files map[string]string `json:"files,omitempty"`
	// Links, when set, are made in the workspace, by name, each a link
	// to a file of that name, holding a key, in a directory outside it
	// (a helm chart's link to a key).
	Links map[string]string `json:"links,omitempty"`
}

// An allow rule for a command does not lift what one of its options does
// when it runs a program, or writes outside the roots: Bash(git
// ls-remote:*) leaves --upload-pack asked, Bash(go test:*) leaves -exec,
// -toolexec and an -ldflags that names the linker, and only a rule that
// names the option lifts it. The rows, grouped by command, are in
// testdata/shell_lifts.jsonl.
func TestAllowRuleLiftsAProgramOptionOnlyByName(t *testing.T) {
	check := func(allow, command string, files, links map[string]string) runtime.Verdict {
		t.Helper()
		dir := workspaceDir(t)
		for name, text := range files {
			require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
		}
		outside := t.TempDir()
		for name, target := range links {
			require.NoError(t, os.WriteFile(filepath.Join(outside, target), []byte("KEY\n"), 0o600))
			require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
			require.NoError(t, os.Symlink(filepath.Join(outside, target), filepath.Join(dir, name)))
		}
		p, err := runtime.Open(runtime.Workspace{Dir: dir, Rules: permission.Config{Allow: []string{allow}, Default: permission.Ask}})
		require.NoError(t, err)
		ctx := context.Background()
		sess, err := p.Session(ctx, runtime.SessionOptions{ID: "s"})
		require.NoError(t, err)
		defer sess.End("done", "", nil)
		in, err := json.Marshal(map[string]string{"command": command})
		require.NoError(t, err)
		return p.Check(ctx, runtime.Call{Session: "s", Tool: "Bash", Input: in})
	}
	b, err := os.ReadFile("testdata/shell_lifts.jsonl")
	require.NoError(t, err)
	n := 0
	for line := range strings.Lines(string(b)) {
		var tc liftCase
		require.NoError(t, json.Unmarshal([]byte(line), &tc), line)
		n++
		v := check(tc.Allow, tc.Command, tc.Files, tc.Links)
		assert.Equal(t, tc.Decision, v.Decision.String(), "%s with %s: %s", tc.Command, tc.Allow, v.Reason)
		assert.Contains(t, v.Reason+" "+string(v.Rule), tc.Reason, "%s with %s", tc.Command, tc.Allow)
	}
	assert.Greater(t, n, 30, "rows in testdata/shell_lifts.jsonl")
}

// An allow rule for an interpreter means what Claude Code means: every
// python3 command line, its inline program or here-document too; it
// still lifts no read of a secret.
func TestAllowRuleForAnInterpreterLiftsItsInlineCode(t *testing.T) {
	dir := workspaceDir(t)
	p, err := runtime.Open(runtime.Workspace{Dir: dir, Rules: permission.Config{Allow: []string{"Bash(python3:*)"}, Default: permission.Ask}})
	require.NoError(t, err)
	ctx := context.Background()
	sess, err := p.Session(ctx, runtime.SessionOptions{ID: "s"})
	require.NoError(t, err)
	defer sess.End("done", "", nil)
	for _, tc := range []struct {
		command string
		want    permission.Decision
		reason  string
	}{
		{"python3 -c 'print(1)'", permission.Allow, "Bash(python3:*)"},
		{"python3 <<'EOF'\nprint(1)\nEOF", permission.Allow, "Bash(python3:*)"},
		{"python3 -c 'print(1)' < .env", permission.Deny, "reads .env"},
		{"perl -e 'print 1'", permission.Ask, "perl: runs inline program text"},
	} {
		in, err := json.Marshal(map[string]string{"command": tc.command})
		require.NoError(t, err)
		v := p.Check(ctx, runtime.Call{Session: "s", Tool: "Bash", Input: in})
		assert.Equal(t, tc.want, v.Decision, "%q: %s", tc.command, v.Reason)
		assert.Contains(t, v.Reason+" "+string(v.Rule), tc.reason, tc.command)
	}
}

package runtime_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

// An allow rule for a command does not lift what one of its options does
// when it runs a program: Bash(git ls-remote:*) leaves --upload-pack
// asked, and only a rule that names the option lifts it.
func TestAllowRuleLiftsAProgramOptionOnlyByName(t *testing.T) {
	dir := workspaceDir(t)
	check := func(allow, command string) runtime.Verdict {
		t.Helper()
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
	for _, tc := range []struct {
		allow, command string
		want           permission.Decision
		reason         string
	}{
		{"Bash(git ls-remote:*)", "git ls-remote --upload-pack='sh -c id' .", permission.Ask, "uses the git ls-remote option --upload-pack"},
		{"Bash(git ls-remote:*)", "git ls-remote --upload-p=sh .", permission.Ask, "--upload-pack (written --upload-p=sh)"},
		{"Bash(git grep:*)", "git grep -iOcat TODO", permission.Ask, "uses the git grep option -O"},
		{"Bash(git ls-remote --upload-pack:*)", "git ls-remote --upload-pack my-upload-pack .", permission.Allow, "Bash(git ls-remote --upload-pack:*)"},
		{"Bash(git ls-remote:*)", "git ls-remote origin", permission.Allow, "Bash(git ls-remote:*)"},
	} {
		v := check(tc.allow, tc.command)
		assert.Equal(t, tc.want, v.Decision, "%s with %s: %s", tc.command, tc.allow, v.Reason)
		assert.Contains(t, v.Reason+" "+string(v.Rule), tc.reason, "%s with %s", tc.command, tc.allow)
	}
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

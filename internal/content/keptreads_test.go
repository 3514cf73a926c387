package content_test

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
)

// git diff in a repository of more tracked files than the guard judges
// for one command is judged on every one of them, kept on the guard
// (bashguard.KeptJudge): allowed; a session Deny rule added since for one
// of them (a new state of the judge) is seen by the next call, which
// denies naming it, as is the rule taken away with a session of its own.
func TestKeptReadsSessionRules(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP: no git to make the repository: " + err.Error())
	}
	fx := newStageFixture(t)
	git := func(input string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", fx.ws}, args...)...)
		cmd.Env = []string{"HOME=" + fx.home, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1"}
		cmd.Stdin = strings.NewReader(input)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		return string(out)
	}
	git("", "init", "-q")
	blob := strings.TrimSpace(git("x\n", "hash-object", "-w", "--stdin"))
	var list strings.Builder
	for i := range 2500 {
		fmt.Fprintf(&list, "100644 %s\tmany/f%d.txt\n", blob, i)
	}
	git(list.String(), "update-index", "--index-info")

	session := fx.checker.NewSession()
	diff := func(s *permission.SessionRules) permission.Result {
		t.Helper()
		j := fx.judges(s)
		j.Sandbox = fx.sandbox.Pin() // a view for each call, as the Pipeline takes one
		return inspectWith(t, j, "Bash", map[string]string{"command": "git diff"})
	}
	r := diff(session)
	assert.Equal(t, permission.Allow, r.Decision, r.Reason)
	assert.Equal(t, "read-only git diff", r.Reason)

	require.NoError(t, session.Add(permission.Deny, "Read(./many/f7.txt)"))
	r = diff(session)
	assert.Equal(t, permission.Deny, r.Decision, r.Reason)
	assert.Equal(t, permission.RuleID("Read(./many/f7.txt)"), r.Rule, r.Reason)
	assert.Contains(t, r.Reason, "git diff prints the content of the tracked files, among them many/f7.txt", r.Reason)

	r = diff(fx.checker.NewSession())
	assert.Equal(t, permission.Allow, r.Decision, r.Reason)
}

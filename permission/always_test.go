package permission_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
)

func TestAllowAlwaysRules(t *testing.T) {
	rules, err := permission.AllowAlwaysRules("Bash", [][]string{
		{"git", "status"}, {"grep", "-n", "foo bar", "x.go"}, {"echo", "it's"}, {"git", "status"}, {"ls", ""},
	})
	require.NoError(t, err)
	assert.Equal(t, []string{
		"Bash(git status)", `Bash(grep -n 'foo bar' x.go)`, `Bash(echo 'it'\''s')`, "Bash(ls '')",
	}, rules, "one exact rule per distinct command, quoted for the shell")

	refused := []struct {
		cmd    []string
		reason string
	}{
		{[]string{"python", "-c", "print(1)"}, "python runs arbitrary code or commands: allow it once instead"},
		{[]string{"python3.12", "x.py"}, "python3.12 runs arbitrary code or commands: allow it once instead"},
		{[]string{"bash", "-c", "ls"}, "bash runs arbitrary code or commands: allow it once instead"},
		{[]string{"/bin/sh", "-c", "ls"}, "sh runs arbitrary code or commands: allow it once instead"},
		{[]string{"env", "FOO=1", "ls"}, "env runs arbitrary code or commands: allow it once instead"},
		{[]string{"sudo", "ls"}, "sudo runs arbitrary code or commands: allow it once instead"},
		{[]string{"xargs", "rm"}, "xargs runs arbitrary code or commands: allow it once instead"},
		{[]string{"ls", "*.go"}, "word 1 holds '*', which a rule would read as a wildcard"},
		{[]string{"npm", "run", "test:*"}, "word 2 holds '*', which a rule would read as a wildcard"},
		{[]string{"echo", "a\nb"}, "word 1 holds a control character"},
		{[]string{}, "empty command"},
	}
	for _, r := range refused {
		rules, err := permission.AllowAlwaysRules("Bash", [][]string{{"git", "status"}, r.cmd})
		assert.Nil(t, rules, "no partial rules for %q", r.cmd)
		var are *permission.AlwaysRuleError
		require.ErrorAs(t, err, &are, "%q", r.cmd)
		assert.Equal(t, 1, are.Index)
		assert.Equal(t, r.reason, are.Reason, "%q", r.cmd)
	}
	_, err = permission.AllowAlwaysRules("Bash", nil)
	assert.EqualError(t, err, "permission: no commands to allow")
	_, err = permission.AllowAlwaysRules("B(", [][]string{{"ls"}})
	assert.EqualError(t, err, `permission: invalid tool name "B("`)
}

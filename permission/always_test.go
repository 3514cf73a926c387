package permission_test

import (
	"fmt"
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
		{[]string{"/usr/bin/perl5.36", "x.pl"}, "perl5.36 runs arbitrary code or commands: allow it once instead"},
		{[]string{"pypy3", "x.py"}, "pypy3 runs arbitrary code or commands: allow it once instead"},
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
	// A name that only starts like an interpreter's is a command of its
	// own.
	rules, err = permission.AllowAlwaysRules("Bash", [][]string{{"pythonista", "x"}, {"lua-format", "x.lua"}, {"php-cs-fixer", "fix"}})
	require.NoError(t, err)
	assert.Equal(t, []string{"Bash(pythonista x)", "Bash(lua-format x.lua)", "Bash(php-cs-fixer fix)"}, rules)

	// Many commands: still one rule per distinct command, in order.
	var many [][]string
	var want []string
	for i := range 30 {
		many = append(many, []string{"make", fmt.Sprint("t", i%12)})
		if i < 12 {
			want = append(want, fmt.Sprintf("Bash(make t%d)", i))
		}
	}
	rules, err = permission.AllowAlwaysRules("Bash", many)
	require.NoError(t, err)
	assert.Equal(t, want, rules)

	_, err = permission.AllowAlwaysRules("Bash", nil)
	assert.EqualError(t, err, "permission: no commands to allow")
	_, err = permission.AllowAlwaysRules("B(", [][]string{{"ls"}})
	assert.EqualError(t, err, `permission: invalid tool name "B("`)
}

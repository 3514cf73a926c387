package bashguard_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/sandbox"
)

// TestCommandRuns: the commands a command runs, which rules are held to
// (Command.Runs, Via, ViaActs, RunsMore), for process wrappers, xargs and
// every find -exec, -execdir, -ok and -okdir; and the answer that comes
// with them: what find runs is never auto-allowed.
func TestCommandRuns(t *testing.T) {
	ws := t.TempDir()
	sb, err := sandbox.New(sandbox.Config{Roots: []string{ws}, WorkDir: ws})
	require.NoError(t, err)
	g := bashguard.New(bashguard.DefaultPolicy())
	for _, tc := range []struct {
		script string
		runs   []string
		via    []string
		acts   bool
		more   [][]string
		want   permission.Decision
		reason string
	}{
		{"nohup nice rm x", []string{"rm", "x"}, []string{"nohup", "nice"}, false, nil, permission.Ask, "nohup: runs nice: runs rm: writes x"},
		{"xargs rm < list", []string{"rm"}, []string{"xargs"}, true, nil, permission.Ask, "xargs: runs rm"},
		{`find . -exec rm {} \;`, []string{"rm", "{}"}, []string{"find"}, true, nil, permission.Ask, "find: -exec runs rm: writes {}"},
		{"find . -execdir rm -f {} +", []string{"rm", "-f", "{}"}, []string{"find"}, true, nil, permission.Ask, "find: -execdir runs rm: writes {}"},
		{`find . -ok rm {} \;`, []string{"rm", "{}"}, []string{"find"}, true, nil, permission.Ask, "find: -ok asks on the terminal for every file and would hang"},
		{`find . -okdir rmdir {} \;`, []string{"rmdir", "{}"}, []string{"find"}, true, nil, permission.Ask, "find: -okdir asks on the terminal"},
		{"find . -exec grep -l x {} + -exec rm {} + -exec wc -l {} +", []string{"grep", "-l", "x", "{}"}, []string{"find"}, true,
			[][]string{{"rm", "{}"}, {"wc", "-l", "{}"}}, permission.Ask, "find: -exec runs rm: writes {}"},
		{`find . -exec timeout 5 rm {} \;`, []string{"rm", "{}"}, []string{"find", "timeout"}, true, nil, permission.Ask, "find: -exec runs timeout: runs rm: writes {}"},
		{`timeout 5 find . -exec rm {} \;`, []string{"rm", "{}"}, []string{"timeout", "find"}, true, nil, permission.Ask, "timeout: runs find: -exec runs rm: writes {}"},
		{"find . -name x -print", nil, nil, false, nil, permission.Allow, ""},
	} {
		v := g.Judge(context.Background(), ws, bashguard.CheckerJudge(sb), tc.script)
		require.Len(t, v.Commands, 1, tc.script)
		c := v.Commands[0]
		assert.Equal(t, tc.runs, c.Runs, "%s: Runs", tc.script)
		assert.Equal(t, tc.via, c.Via, "%s: Via", tc.script)
		assert.Equal(t, tc.acts, c.ViaActs, "%s: ViaActs", tc.script)
		assert.Equal(t, tc.more, c.RunsMore, "%s: RunsMore", tc.script)
		assert.Equal(t, tc.want, c.Decision, "%s: %s", tc.script, c.Reason)
		assert.Contains(t, c.Reason, tc.reason, tc.script)
	}
}

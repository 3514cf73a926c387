package bashguard

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
)

// Values the guard knows without running anything: the paths a listing
// prints as the operands of a reader, arithmetic of numbers, the output
// of echo of literal words. Each
// is allowed only where the words the command gets are the ones judged;
// every other form keeps its Ask or Deny, and says why.
func TestKnownValues(t *testing.T) {
	dir := benignRepo(t)
	for name, body := range map[string]string{".env": "TOKEN=x\n", "odd/x y.txt": "a\n", "dash/-n": "b\n"} {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	gitIn(t, dir, "add", "-f", ".env", "odd", "dash")
	gitIn(t, dir, "commit", "-qm", "more")
	paths := CheckerJudge(rootChecker{dir: dir, roots: []string{dir}})
	for _, confined := range confinedToo {
		pol := DefaultPolicy()
		pol.Home = t.TempDir()
		pol.Confined = confined
		g := New(pol)
		for _, c := range []struct{ script, want, reason string }{
			{"wc -l $(git ls-files src)", "allow", "every command is read-only"},
			{"cat $(git ls-files src) | head", "allow", "every command is read-only"},
			{"cat $(git ls-files .env)", "deny", ".env"},
			{"cat $(git ls-files)", "ask", "holds blanks the shell splits"},
			{"wc -l $(git ls-files odd)", "ask", "holds blanks the shell splits"},
			{"cd dash && wc -l $(git ls-files)", "ask", "is only known at run time"},
			{"grep x $(git ls-files src)", "ask", "is only known at run time"},
			{"rm $(git ls-files src)", "ask", ""},
			{"bash -c 'echo $((1<<2))'", "allow", "every command is read-only"},
			{"echo $(( (3+4)*2 ))", "allow", "every command is read-only"},
			{"echo $((x=1))", "ask", ""},
			{"echo $((a[$(id)]))", "ask", ""},
			{"cat $((1))", "ask", "only known at run time"},
			{`rg -g"$(echo '*.py')" pattern`, "allow", "every command is read-only"},
			{`rg -g"$(echo -e '*.py')" pattern`, "ask", "only known at run time"},
			{`cat "$(echo .env)"`, "deny", ".env"},
			{`cat "$(echo $HOME)"`, "ask", ""},
			{"echo hi & echo bye", "allow", "read-only"},
			{"echo hi > fifo & echo bye", "ask", ""},
			{"sleep 100 & echo bye", "ask", "background"},
			{"echo $(sleep 5) & echo bye", "ask", "background"},
			{"git clean -n", "allow", "every command is read-only"},
			{"git clean -f", "ask", "git clean without -n removes the untracked files"},
			{"git clean -ni", "ask", "asks at the terminal"},
		} {
			v := g.Judge(context.Background(), dir, paths, c.script)
			assert.Equal(t, c.want, v.Decision.String(), "%q confined %v (%s)", c.script, confined, v.Reason)
			assert.Contains(t, v.Reason, c.reason, "%q confined %v", c.script, confined)
			if v.Decision != permission.Allow {
				assert.NotEmpty(t, v.Reason, c.script)
			}
		}
	}
}

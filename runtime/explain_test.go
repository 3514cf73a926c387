package runtime

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgate/toolgate/internal/jsonin"
	"github.com/toolgate/toolgate/permission"
)

// The account an approval shows: the decision with its layer, rule and
// reason, each answer it overrode, then each simple command's verdict.
func TestExplain(t *testing.T) {
	v := Verdict{Result: permission.Result{Decision: permission.Ask, Layer: permission.LayerShell, Rule: "bash:writes", Reason: "it writes build/out"}}
	v.Conflicts.Add(permission.Conflict{Decision: permission.Allow, Layer: permission.LayerRules, Rule: "Bash(mkdir:*)", Reason: "an allow rule"})
	v.Conflicts.Add(permission.Conflict{Decision: permission.Allow, Layer: permission.LayerRuntime})
	v.Commands = []CommandVerdict{
		{Args: []string{"mkdir", "-p", "build/out"}, Pos: "1:1", Result: permission.Result{Decision: permission.Ask, Layer: permission.LayerShell, Rule: "bash:writes", Reason: "it writes build/out"}},
		{Args: []string{"pwd"}, Pos: "1:23", Result: permission.Result{Decision: permission.Allow, Layer: permission.LayerShell, Reason: "reads nothing"}},
	}
	assert.Equal(t, "ask Bash: it writes build/out by "+permission.LayerShell.String()+" (rule bash:writes)\n"+
		"  overrode allow by "+permission.LayerRules.String()+" (rule Bash(mkdir:*)): an allow rule\n"+
		"  overrode allow by "+permission.LayerRuntime.String()+"\n"+
		"  command mkdir -p build/out at 1:1: ask by "+permission.LayerShell.String()+" (rule bash:writes): it writes build/out\n"+
		"  command pwd at 1:23: allow by "+permission.LayerShell.String()+": reads nothing\n", explain("Bash", &v))

	// The script is the first command field that holds a non-empty string.
	_, members, err := jsonin.Object([]byte(`{"cmd":"","command":"echo \"é\"\nmkdir -p build/out","n":1}`), nil, nil)
	assert.NoError(t, err)
	script, cmds := shellOf(&v, []string{"n", "cmd", "command"}, members)
	assert.Equal(t, "echo \"é\"\nmkdir -p build/out", script)
	assert.Len(t, cmds, 2)
	assert.True(t, cmds[0].Asks)
	assert.False(t, cmds[1].Asks)
}

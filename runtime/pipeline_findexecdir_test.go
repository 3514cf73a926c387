package runtime

import (
	"testing"

	"github.com/toolgate/toolgate/permission"
)

// An allow rule for find lifts what find does, not what -execdir runs in
// each found file's directory: find -execdir cat {} ; would print .env.
// -exec's command is judged on the files found, so it is denied outright.
func TestPipelineFindExecdirNotLifted(t *testing.T) {
	w := newWorld(t, permission.Config{Allow: []string{"Bash(find:*)"}}, nil)
	w.start(t, "s", permission.ModeDefault)
	bash := func(cmd string) []byte { return in("command", cmd) }
	runCases(t, w, "s", []pcase{
		{"execdir cat", "Bash", bash(`find . -execdir cat {} \;`), permission.Ask, permission.LayerShell, "wrapper:find", "find -execdir runs cat for every file found"},
		{"execdir id", "Bash", bash(`find . -execdir id {} +`), permission.Ask, permission.LayerShell, "wrapper:find", "find -execdir runs id for every file found"},
		{"exec cat", "Bash", bash(`find . -exec cat {} \;`), permission.Deny, permission.LayerSandbox, "", "holds .env"},
		{"a plain find", "Bash", bash(`find . -name '*.go'`), permission.Allow, permission.LayerRules, "Bash(find:*)", "allowed by allow rule Bash(find:*)"},
	})
}

package runtime

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgate/toolgate/permission"
)

// acceptEdits and auto run a shell command's writes inside the roots of
// the kinds Claude Code 2.1.332 runs unasked there (its filesystem
// commands and output redirections, as e2e/claudecode's accept_edits
// layout observes), and nothing else: a write outside the roots, to a
// protected or secret path, by a command that runs code or one Claude
// Code asks for (tee, touch with an option, cp with one), or through a
// word known only at run time keeps its answer; so does every command in
// the default mode, and a deny or ask rule for the command.
func TestModeLiftsShellWritesInsideRoots(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Ask, Deny: []string{"Bash(rm keep.txt)"}, Ask: []string{"Bash(mkdir asked)"}, Allow: []string{"Bash(truncate *)"}}, nil)
	type row struct {
		command string
		want    permission.Decision
		rule    string
		why     string // a part of the reason; "$MODE" is the mode's name
	}
	lifted := "$MODE mode: allowed a write inside the allowed roots that would ask ("
	rows := []row{
		{"mkdir newdir", permission.Allow, "mode:$MODE", lifted + "mkdir: writes newdir (inside the allowed roots))"},
		{"mkdir -p a/b", permission.Allow, "mode:$MODE", lifted + "mkdir: writes a/b"},
		{"touch a.txt", permission.Allow, "mode:$MODE", lifted + "touch: writes a.txt"},
		{"cp README.md b.txt", permission.Allow, "mode:$MODE", lifted + "cp: writes b.txt"},
		{"rm -rf src", permission.Allow, "mode:$MODE", lifted + "rm: writes src"},
		{"sed -i s/a/b/ README.md", permission.Allow, "mode:$MODE", lifted + "sed: writes README.md"},
		{"echo x > out.txt", permission.Allow, "mode:$MODE", lifted + "echo: writes out.txt"},
		{"cat README.md >> out.txt", permission.Allow, "mode:$MODE", lifted + "cat: writes out.txt"},
		{"touch a.txt > out.txt", permission.Allow, "mode:$MODE", lifted + "touch: writes out.txt"},
		{"timeout 5 mkdir d", permission.Allow, "mode:$MODE", lifted + "timeout: runs mkdir: writes d"},
		// An allow rule lifts the command's own write, through a
		// wrapper Claude Code looks through; the mode the redirection.
		{"timeout 5 truncate -s 0 README.md > out.txt", permission.Allow, "mode:$MODE", lifted + "timeout: writes out.txt"},
		{"mkdir d && touch d/f", permission.Allow, "mode:$MODE", lifted + "mkdir: writes d"},
		// What Claude Code asks for in acceptEdits too.
		{"echo x | tee o.txt", permission.Ask, "write:tee", "tee: writes o.txt (inside the allowed roots)"},
		{"chmod 644 README.md", permission.Ask, "write:chmod", "chmod: writes README.md"},
		{"touch -c a.txt", permission.Ask, "write:touch", "touch: writes a.txt (inside the allowed roots)"},
		{"timeout 5 touch a.txt", permission.Ask, "write:touch", "timeout: runs touch: writes a.txt"},
		{"cp -r src d2", permission.Ask, "write:cp", "cp: writes d2 (inside the allowed roots)"},
		{"env mkdir d", permission.Ask, "write:mkdir", "env: runs mkdir: writes d"},
		{"rm -f $PWD/a.txt", permission.Ask, "write:rm", "rm: writes " + w.dir + "/a.txt (inside the allowed roots)"},
		{"echo x > src/../o.txt", permission.Ask, "write:redirect", "echo: writes src/../o.txt (inside the allowed roots)"},
		{"npx cowsay && mkdir d", permission.Ask, "unlisted", "npx: runs cowsay: not on the safe list"},
		// The redirection's write names the reason; the inline code it
		// also found is what the mode does not lift.
		{"python3 -c 'print(1)' > o.txt", permission.Ask, "write:redirect", "python3: writes o.txt (inside the allowed roots)"},
		{"mkdir $(cat README.md)", permission.Ask, "dynamic:arg", "which is only known at run time"},
		// Protected and secret paths, the roots, the rules.
		{"touch .git/hooks/pre-commit", permission.Ask, "write:protected", "protected path"},
		{"echo x > .env", permission.Ask, "write:protected", "secret path"},
		{"touch ../x.txt", permission.Deny, "write:outside", "outside every root"},
		{"echo x > /tmp/x.txt", permission.Deny, "write:outside", "outside every root"},
		{"rm keep.txt", permission.Deny, "Bash(rm keep.txt)", "denied by deny rule Bash(rm keep.txt)"},
		{"mkdir asked", permission.Ask, "Bash(mkdir asked)", "needs confirmation by ask rule Bash(mkdir asked)"},
	}
	for _, mode := range []permission.Mode{permission.ModeDefault, permission.ModeAcceptEdits, permission.ModeAuto} {
		id := "s-" + mode.String()
		w.start(t, id, mode)
		for _, r := range rows {
			want, rule, why := r.want, r.rule, r.why
			if mode == permission.ModeDefault && want == permission.Allow {
				// The default mode lifts nothing: the guard's own Ask.
				want, rule, why = permission.Ask, "", "(inside the allowed roots)"
			}
			in, err := json.Marshal(map[string]string{"command": r.command})
			assert.NoError(t, err)
			v := w.p.Check(context.Background(), Call{Session: id, Tool: "Bash", Input: in})
			assert.Equal(t, want, v.Decision, "%s, %s: %s", mode, r.command, v.Reason)
			if rule != "" {
				assert.Equal(t, expandMode(rule, mode), string(v.Rule), "%s, %s: rule (%s)", mode, r.command, v.Reason)
			} else {
				assert.NotContains(t, string(v.Rule), "mode:", "%s, %s: rule", mode, r.command)
			}
			assert.Contains(t, v.Reason, expandMode(why, mode), "%s, %s: reason", mode, r.command)
		}
	}
}

func expandMode(s string, m permission.Mode) string {
	out := []byte{}
	for i := 0; i < len(s); i++ {
		if len(s)-i >= 5 && s[i:i+5] == "$MODE" {
			out = append(out, m.String()...)
			i += 4
			continue
		}
		out = append(out, s[i])
	}
	return string(out)
}

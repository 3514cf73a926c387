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

// Rules are held to the command a process wrapper runs, as Claude Code
// 2.1.332 holds them (e2e/claudecode TestRuleSemantics): a deny rule
// through every wrapper, env included; an allow rule through command,
// nice, nohup, stdbuf, time and timeout, whatever their options, but not
// through env, where Claude Code asks.
func TestRulesHoldThroughProcessWrappers(t *testing.T) {
	dir := workspaceDir(t)
	check := func(cfg permission.Config, command string) runtime.Verdict {
		t.Helper()
		cfg.Default = permission.Ask
		p, err := runtime.Open(runtime.Workspace{Dir: dir, Rules: cfg})
		require.NoError(t, err)
		ctx := context.Background()
		sess, err := p.Session(ctx, runtime.SessionOptions{ID: "s"})
		require.NoError(t, err)
		defer sess.End("done", "", nil)
		in, err := json.Marshal(map[string]string{"command": command})
		require.NoError(t, err)
		return p.Check(ctx, runtime.Call{Session: "s", Tool: "Bash", Input: in})
	}
	deny := permission.Config{Deny: []string{"Bash(npm:*)"}}
	allow := permission.Config{Allow: []string{"Bash(touch *)"}}
	rm := permission.Config{Deny: []string{"Bash(rm:*)"}}
	for _, tc := range []struct {
		cfg     permission.Config
		command string
		want    permission.Decision
		reason  string
	}{
		{deny, "timeout 5 npm test", permission.Deny, "denied by deny rule Bash(npm:*)"},
		{deny, "timeout -s KILL 5 npm test", permission.Deny, "denied by deny rule Bash(npm:*)"},
		{deny, "nice npm test", permission.Deny, "denied by deny rule Bash(npm:*)"},
		{deny, "nice -n 5 npm test", permission.Deny, "denied by deny rule Bash(npm:*)"},
		{deny, "nohup npm test", permission.Deny, "denied by deny rule Bash(npm:*)"},
		{deny, "stdbuf -o0 npm test", permission.Deny, "denied by deny rule Bash(npm:*)"},
		{deny, "env npm test", permission.Deny, "denied by deny rule Bash(npm:*)"},
		{deny, "command npm test", permission.Deny, "denied by deny rule Bash(npm:*)"},
		{deny, "nohup nice npm test", permission.Deny, "denied by deny rule Bash(npm:*)"},
		{deny, "echo ok && timeout 5 npm test", permission.Deny, "denied by deny rule Bash(npm:*)"},
		{deny, "timeout 5 npmx test", permission.Ask, "npmx: not on the safe list"},
		{permission.Config{Deny: []string{"Bash(npm:*)"}, Allow: []string{"Bash(timeout:*)"}}, "timeout 5 npm test", permission.Deny, "denied by deny rule Bash(npm:*)"},
		{permission.Config{Ask: []string{"Bash(touch:*)"}}, "nohup touch a.txt", permission.Ask, "needs confirmation by ask rule Bash(touch:*)"},
		{allow, "timeout 5 touch a.txt", permission.Allow, "allowed by allow rule Bash(touch *)"},
		{allow, "timeout --kill-after=2 5s touch a.txt", permission.Allow, "allowed by allow rule Bash(touch *)"},
		{allow, "nice -n 5 touch a.txt", permission.Allow, "allowed by allow rule Bash(touch *)"},
		{allow, "nohup nice touch a.txt", permission.Allow, "allowed by allow rule Bash(touch *)"},
		{allow, "stdbuf -oL touch a.txt", permission.Allow, "allowed by allow rule Bash(touch *)"},
		{allow, "command touch a.txt", permission.Allow, "allowed by allow rule Bash(touch *)"},
		{allow, "env touch a.txt", permission.Ask, "env: runs touch: writes a.txt"},
		{allow, "nohup env touch a.txt", permission.Ask, "nohup: runs env: runs touch: writes a.txt"},
		{allow, "timeout 5 touch ../out.txt", permission.Deny, "outside"},
		// A wrapper's own options that do something are not the command's:
		// the rule for touch does not speak for time -o's report.
		{allow, `\time -o out.txt touch a.txt`, permission.Ask, "time: time -o writes its report"},
		{allow, "command time -o out.txt touch a.txt", permission.Ask, "command: runs time: time -o writes its report"},
		{allow, `\time -f %e touch a.txt`, permission.Allow, "allowed by allow rule Bash(touch *)"},
		{allow, `nohup \time -o t.txt touch a.txt`, permission.Ask, "time -o writes its report"},
		// xargs runs its command: deny rules hold for it; an allow rule
		// does not speak for the arguments it reads from its input.
		{permission.Config{Deny: []string{"Bash(rm:*)"}}, "xargs rm < a.txt", permission.Deny, "denied by deny rule Bash(rm:*)"},
		{permission.Config{Deny: []string{"Bash(rm:*)"}}, "xargs -I{} rm {} < a.txt", permission.Deny, "denied by deny rule Bash(rm:*)"},
		{allow, "xargs touch < a.txt", permission.Ask, "xargs: runs touch"},
		{allow, "timeout 5 rm a.txt", permission.Ask, "timeout: runs rm: writes a.txt"},
		// A redirection to a file is the shell's write, not the
		// command's: Claude Code asks for it ("Output redirection to X
		// needs approval") whatever rule allows the command, with a
		// wrapper or without; outside the roots it is denied, to a
		// protected or secret file it asks as such.
		{allow, "timeout 5 touch a.txt > out.txt", permission.Ask, "timeout: writes out.txt (inside the allowed roots)"},
		{allow, "nohup touch a.txt >> out.txt", permission.Ask, "nohup: writes out.txt (inside the allowed roots)"},
		{allow, "touch a.txt > out.txt", permission.Ask, "touch: writes out.txt (inside the allowed roots)"},
		{allow, "timeout 5 touch a.txt > ../out.txt", permission.Deny, "outside every root"},
		{allow, "timeout 5 touch a.txt > .env", permission.Ask, "secret path"},
		{allow, "timeout 5 touch a.txt > .git/config", permission.Ask, "protected path"},
		{allow, "timeout 5 touch a.txt > /dev/null 2>&1", permission.Allow, "allowed by allow rule Bash(touch *)"},
		{allow, "timeout 5 touch a.txt < main.go", permission.Allow, "allowed by allow rule Bash(touch *)"},
		// find runs the command of each -exec, -execdir, -ok and -okdir:
		// deny and ask rules hold for each (Claude Code itself asks for
		// every one of them); an allow rule for the command does not
		// speak for find's own expression.
		{rm, `find . -name x -exec rm {} \;`, permission.Deny, "denied by deny rule Bash(rm:*)"},
		{rm, "find . -name x -execdir rm {} +", permission.Deny, "denied by deny rule Bash(rm:*)"},
		{rm, `find . -ok rm {} \;`, permission.Deny, "denied by deny rule Bash(rm:*)"},
		{rm, `find . -okdir rm {} \;`, permission.Deny, "denied by deny rule Bash(rm:*)"},
		{rm, "find . -exec /bin/rm -f {} +", permission.Deny, "denied by deny rule Bash(rm:*)"},
		{rm, "find . -exec grep -l x {} + -exec rm {} +", permission.Deny, "denied by deny rule Bash(rm:*)"},
		{rm, "find . -exec grep -l x {} + -exec cat {} + -exec rm {} +", permission.Deny, "denied by deny rule Bash(rm:*)"},
		{rm, `find . -exec timeout 5 rm {} \;`, permission.Deny, "denied by deny rule Bash(rm:*)"},
		{rm, `timeout 5 find . -exec rm {} \;`, permission.Deny, "denied by deny rule Bash(rm:*)"},
		{rm, "find . -print0 | xargs -0 rm", permission.Deny, "denied by deny rule Bash(rm:*)"},
		{rm, "find . -name x -delete", permission.Ask, "find: writes ."},
		{rm, `find . -name x -exec rmdir {} \;`, permission.Ask, "find: -exec runs rmdir"},
		{permission.Config{Ask: []string{"Bash(rm:*)"}}, "find . -exec rm {} +", permission.Ask, "needs confirmation by ask rule Bash(rm:*)"},
		{permission.Config{Allow: []string{"Bash(rm:*)"}}, `find . -exec rm {} \;`, permission.Ask, "find: -exec runs rm: writes {}"},
		{permission.Config{Allow: []string{"Bash(rm:*)"}}, "find . -print0 | xargs -0 rm", permission.Ask, "xargs: runs rm"},
	} {
		v := check(tc.cfg, tc.command)
		assert.Equal(t, tc.want, v.Decision, "%s: %s", tc.command, v.Reason)
		assert.Contains(t, v.Reason, tc.reason, "%s", tc.command)
	}
}

package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

// TestOpenTakesTheHostsCheckerAndGuard: Workspace.NewChecker compiles the
// rules Open computed (the directory and the tools' kinds filled in), and
// Workspace.NewGuard makes the guard from the policy Open computed (its
// home set); the Pipeline judges with what they return. A NewChecker
// error, or no checker, fails Open; a NewGuard that returns nil leaves
// the guard to Open.
func TestOpenTakesTheHostsCheckerAndGuard(t *testing.T) {
	dir := workspaceDir(t)
	home := t.TempDir()
	rules := permission.Config{Deny: []string{"Bash(rm:*)"}, Default: permission.Ask}
	var gotCfg permission.Config
	var gotPol bashguard.Policy
	check := func(p *runtime.Pipeline, command string) runtime.Verdict {
		ctx := context.Background()
		sess, err := p.Session(ctx, runtime.SessionOptions{ID: "s"})
		require.NoError(t, err)
		defer sess.End("done", "", nil)
		in, err := json.Marshal(map[string]string{"command": command})
		require.NoError(t, err)
		return p.Check(ctx, runtime.Call{Session: "s", Tool: "Bash", Input: in})
	}
	// The host's guard knows a safe command the default policy does not:
	// its verdict shows which guard judged.
	hostGuard := func(pol bashguard.Policy) *bashguard.Guard {
		gotPol = pol
		pol.ExtraSafe = []string{"mytool"}
		return bashguard.New(pol)
	}
	p, err := runtime.Open(runtime.Workspace{Dir: dir, Home: home, Rules: rules,
		NewChecker: func(cfg permission.Config) (*permission.Checker, error) { gotCfg = cfg; return permission.New(cfg) },
		NewGuard:   hostGuard})
	require.NoError(t, err)
	assert.Equal(t, dir, gotCfg.WorkDir, "the rules' directory is filled in")
	assert.Equal(t, home, gotCfg.Home)
	assert.Contains(t, gotCfg.ShellTools, "Bash", "the tools' kinds are known")
	assert.Equal(t, home, gotPol.Home, "the guard's home is set")
	v := check(p, "rm -rf x")
	assert.Equal(t, permission.Deny, v.Decision, v.Reason)
	assert.Equal(t, permission.RuleID("Bash(rm:*)"), v.Rule, v.Reason)
	v = check(p, "mytool x")
	assert.Equal(t, permission.Allow, v.Decision, v.Reason)
	assert.Contains(t, v.Reason, "extra safe list", "the host's guard judged")
	require.NoError(t, p.Close())

	// No guard from the host: Open's own, which does not know mytool.
	p, err = runtime.Open(runtime.Workspace{Dir: dir, Home: home, Rules: rules,
		NewGuard: func(bashguard.Policy) *bashguard.Guard { return nil }})
	require.NoError(t, err)
	v = check(p, "mytool x")
	assert.Equal(t, permission.Ask, v.Decision, v.Reason)
	assert.NotContains(t, v.Reason, "extra safe list", v.Reason)
	require.NoError(t, p.Close())

	for _, tc := range []struct {
		name string
		new  func(permission.Config) (*permission.Checker, error)
		want string
	}{
		{"an error", func(permission.Config) (*permission.Checker, error) { return nil, errors.New("no rules today") }, "runtime: rules: no rules today"},
		{"no checker", func(permission.Config) (*permission.Checker, error) { return nil, nil }, "runtime: rules: Workspace.NewChecker returned no checker"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := runtime.Open(runtime.Workspace{Dir: dir, Rules: rules, NewChecker: tc.new})
			require.Error(t, err)
			assert.Nil(t, p)
			assert.Equal(t, tc.want, err.Error())
		})
	}
}

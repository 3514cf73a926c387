package content

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
)

// A domain rule that exists only in a session (granted by "allow always",
// or in the parent session of a subagent) switches the host judgement of
// shell commands on, as one in the configuration does.
func TestJudgeHostSessionDomainRules(t *testing.T) {
	checker, err := permission.New(permission.Config{Allow: []string{"Bash(curl:*)"}, Default: permission.Ask})
	require.NoError(t, err)

	none := shellPaths{j: Judges{Checker: checker, Session: checker.NewSession()}}
	r := none.JudgeHost("other.example")
	assert.Equal(t, permission.Allow, r.Decision, "no domain rule anywhere: nothing to hold the host against")
	assert.Equal(t, permission.SourceDefault, r.Source)

	parent := checker.NewSession()
	require.NoError(t, parent.Add(permission.Allow, "WebFetch(domain:ok.example)"))
	for name, s := range map[string]*permission.SessionRules{"session": parent, "child of the session": parent.Child()} {
		j := shellPaths{j: Judges{Checker: checker, Session: s}}

		r := j.JudgeHost("ok.example")
		assert.Equal(t, permission.Allow, r.Decision, "%s: %s", name, r.Reason)
		assert.Equal(t, permission.RuleID("WebFetch(domain:ok.example)"), r.Rule, name)

		r = j.JudgeHost("other.example")
		assert.Equal(t, permission.Ask, r.Decision, "%s: %s", name, r.Reason)
		assert.Contains(t, r.Reason, "no WebFetch(domain:...) rule allows other.example", name)

		r = j.JudgeHost("")
		assert.Equal(t, permission.Ask, r.Decision, "%s: %s", name, r.Reason)
		assert.Contains(t, r.Reason, "a host only known at run time", name)
	}
}

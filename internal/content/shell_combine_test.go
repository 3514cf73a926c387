package content

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgate/toolgate/permission"
)

// TestCombineCommand: combineCommand answers every pair of a command's
// answers exactly as permission.Combine does, decision, rule, reason and
// conflict log, including the pairs it answers without Combine.
func TestCombineCommand(t *testing.T) {
	call := permission.Call{Tool: "Bash", Kind: permission.KindExec}
	rules := []permission.Result{
		{Decision: permission.Allow, Layer: permission.LayerRules, Source: permission.SourceDefault, Rule: "default", Reason: "no rule matched; the default for exec tools is ask"},
		{Decision: permission.Deny, Layer: permission.LayerRules, Source: permission.SourceDefault, Rule: "default", Reason: "no rule matched; the default is deny"},
		{Decision: permission.Allow, Layer: permission.LayerRules, Source: permission.SourceAllow, Rule: "Bash(make:*)", Reason: "allowed by allow rule Bash(make:*) (config)"},
		{Decision: permission.Ask, Layer: permission.LayerRules, Source: permission.SourceRuleAsk, Rule: "Bash(git push:*)", Reason: "asked by ask rule Bash(git push:*) (config)"},
		{Decision: permission.Deny, Layer: permission.LayerRules, Source: permission.SourceConfigDeny, Rule: "Bash(rm:*)", Reason: "denied by deny rule Bash(rm:*) (config)"},
	}
	withLog := rules[0]
	withLog.Conflicts.Add(permission.Conflict{Decision: permission.Ask, Layer: permission.LayerRules, Source: permission.SourceRuleAsk, Rule: "Bash(x)", Reason: "asked"})
	rules = append(rules, withLog)
	guards := []permission.Result{
		{Decision: permission.Allow, Layer: permission.LayerShell, Source: permission.SourceAllow, Rule: "safe", Reason: "reads only inside the allowed roots"},
		{Decision: permission.Ask, Layer: permission.LayerShell, Source: permission.SourceToolAsk, Rule: "unlisted", Reason: "not on the safe list"},
		{Decision: permission.Deny, Layer: permission.LayerShell, Source: permission.SourceToolDeny, Rule: "dangerous:privilege", Reason: "runs a command with other privileges"},
	}
	for _, r := range rules {
		assert.Equal(t, permission.Combine(permission.ModeDefault, call, r), combineCommand(call, []permission.Result{r}), "rules %s alone", r.Rule)
		for _, g := range guards {
			want := permission.Combine(permission.ModeDefault, call, r, g)
			got := combineCommand(call, []permission.Result{r, g})
			assert.Equal(t, want, got, "rules %s (%v), guard %s", r.Rule, r.Decision, g.Rule)
			assert.Equal(t, want.Conflicts.Slice(), got.Conflicts.Slice(), "rules %s, guard %s: conflict log", r.Rule, g.Rule)
		}
	}
}

package permission

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func ans(d Decision, src Source, rule string) Result {
	layer := LayerRules
	switch src {
	case SourceToolDeny, SourceToolAsk:
		layer = LayerTraits
	case SourceHookBlock, SourceHookAsk:
		layer = LayerHooks
	}
	return Result{Decision: d, Layer: layer, Source: src, Rule: RuleID(rule), Reason: rule + " says " + d.String()}
}

var (
	p0 = ans(Deny, SourceConfigDeny, "P0")
	p1 = ans(Deny, SourceToolDeny, "P1")
	p2 = ans(Deny, SourceSessionDeny, "P2")
	p3 = ans(Deny, SourceHookBlock, "P3")
	p4 = ans(Ask, SourceHookAsk, "P4")
	p5 = ans(Ask, SourceRuleAsk, "P5")
	p6 = ans(Ask, SourceToolAsk, "P6")
	p7 = ans(Allow, SourceAllow, "P7")
	p8 = ans(Allow, SourceDefault, "P8")
)

// TestPrecedence walks every row of the P0–P8 table: each source against
// every weaker one, asserting the winner, its reason and the conflict log.
func TestPrecedence(t *testing.T) {
	call := Call{Tool: "T", Kind: KindExec}
	tests := []struct {
		name    string
		answers []Result
		want    Result
		lost    []string // rules in the conflict log, in order
	}{
		{"P0 beats everything", []Result{p8, p7, p6, p5, p4, p3, p2, p1, p0}, p0, []string{"P8", "P7", "P6", "P5", "P4", "P3", "P2", "P1"}},
		{"P1 beats P2..P8", []Result{p2, p1, p3, p4, p5, p6, p7, p8}, p1, []string{"P2", "P3", "P4", "P5", "P6", "P7", "P8"}},
		{"P2 beats P3..P8", []Result{p8, p7, p3, p2}, p2, []string{"P8", "P7", "P3"}},
		{"P3 hook block beats asks and allows", []Result{p7, p6, p5, p4, p3}, p3, []string{"P7", "P6", "P5", "P4"}},
		{"P4 raises an allow rule to ask", []Result{p7, p4}, p4, []string{"P7"}},
		{"P4 beats P5 and P6", []Result{p6, p5, p4, p8}, p4, []string{"P6", "P5", "P8"}},
		{"P5 raises the default to ask", []Result{p8, p5}, p5, []string{"P8"}},
		{"P5 beats P6", []Result{p6, p5, p7}, p5, []string{"P6", "P7"}},
		{"P6 raises an allow to ask", []Result{p7, p6}, p6, []string{"P7"}},
		{"P7 alone", []Result{p7}, p7, nil},
		{"P7 beats the default", []Result{p8, p7}, p7, []string{"P8"}},
		{"P8 alone", []Result{p8}, p8, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Combine(ModeDefault, call, tt.answers...)
			assert.Equal(t, tt.want.Decision, r.Decision)
			assert.Equal(t, tt.want.Source, r.Source)
			assert.Equal(t, tt.want.Layer, r.Layer)
			assert.Equal(t, tt.want.Reason, r.Reason)
			var lost []string
			for c := range r.Conflicts.All() {
				lost = append(lost, string(c.Rule))
			}
			assert.Equal(t, tt.lost, lost)
		})
	}
}

func TestAskNeverLowersDeny(t *testing.T) {
	defDeny := ans(Deny, SourceDefault, "P8")
	r := Combine(ModeDefault, Call{Kind: KindExec}, defDeny, p4, p5, p6)
	assert.Equal(t, Deny, r.Decision, "Ask sources are ignored in the Deny state")
	assert.Equal(t, "P8 says deny", r.Reason)
	assert.Equal(t, 3, r.Conflicts.Len())

	// An explicit Allow over a Deny default is an Allow, then raised by Ask.
	r = Combine(ModeDefault, Call{Kind: KindExec}, defDeny, p7, p6)
	assert.Equal(t, Ask, r.Decision)
	assert.Equal(t, "P6 says ask", r.Reason)
}

func TestCombineFailsClosed(t *testing.T) {
	r := Combine(ModeDefault, Call{})
	assert.Equal(t, Deny, r.Decision)
	assert.Equal(t, "no source answered for this call", r.Reason)

	r = Combine(ModeBypassPermissions, Call{}, Result{Decision: 7, Source: SourceAllow})
	assert.Equal(t, Deny, r.Decision)
	assert.Equal(t, "an answer had an invalid decision", r.Reason)

	r = Combine(ModeDefault, Call{}, p6)
	assert.Equal(t, Ask, r.Decision, "an ask with no base stays an ask")
	assert.Equal(t, "P6 says ask", r.Reason)

	r = Combine(Mode(42), Call{}, p7)
	assert.Equal(t, Deny, r.Decision)
	assert.Equal(t, "unknown permission mode: denied", r.Reason)
}

func TestConflictsOfConflictsAreKept(t *testing.T) {
	c, err := New(Config{Allow: []string{"Bash(git:*)"}, Ask: []string{"Bash(git push:*)"}, Default: Allow})
	require.NoError(t, err)
	rules := c.Check(sh("git", "push"), nil)
	r := Combine(ModeDefault, Call{Tool: "Bash", Kind: KindExec}, rules, p1)
	assert.Equal(t, Deny, r.Decision)
	assert.Equal(t, "P1 says deny", r.Reason)
	require.Equal(t, 2, r.Conflicts.Len())
	assert.Equal(t, "Bash(git push:*)", string(r.Conflicts.At(0).Rule))
	assert.Equal(t, "Bash(git:*)", string(r.Conflicts.At(1).Rule))
}

func TestModes(t *testing.T) {
	edit := Call{Tool: "Edit", Kind: KindEdit, InsideRoots: true}
	editOut := Call{Tool: "Edit", Kind: KindEdit}
	read := Call{Tool: "Read", Kind: KindRead}
	bash := Call{Tool: "Bash", Kind: KindExec}
	firm := p6
	firm.Firm = true
	tests := []struct {
		name    string
		mode    Mode
		call    Call
		answers []Result
		want    Decision
		rule    string
		reason  string
	}{
		{"default leaves ask", ModeDefault, bash, []Result{p8, p6}, Ask, "P6", "P6 says ask"},
		{"acceptEdits allows an edit inside the roots", ModeAcceptEdits, edit, []Result{p8, p6}, Allow, "mode:acceptEdits",
			"acceptEdits mode: allowed an edit inside the allowed roots that would ask (P6 says ask)"},
		{"acceptEdits leaves an edit outside the roots", ModeAcceptEdits, editOut, []Result{p8, p6}, Ask, "P6", "P6 says ask"},
		{"acceptEdits leaves a shell ask", ModeAcceptEdits, bash, []Result{p8, p6}, Ask, "P6", "P6 says ask"},
		{"acceptEdits leaves a firm ask", ModeAcceptEdits, edit, []Result{p8, firm}, Ask, "P6", "P6 says ask"},
		{"acceptEdits never lifts a deny", ModeAcceptEdits, edit, []Result{p8, p1}, Deny, "P1", "P1 says deny"},
		{"plan denies an edit", ModePlan, edit, []Result{p7}, Deny, "mode:plan", "plan mode: only read-only, web, interaction, subagent and session tools run, and Edit is an edit tool"},
		{"plan denies a shell call", ModePlan, bash, []Result{p8}, Deny, "mode:plan", "plan mode: only read-only, web, interaction, subagent and session tools run, and Bash is an exec tool"},
		{"plan lets a read run", ModePlan, read, []Result{p8}, Allow, "P8", "P8 says allow"},
		{"plan lets the agent ask the person", ModePlan, Call{Tool: "ask_user", Kind: KindInteraction}, []Result{p8}, Allow, "P8", "P8 says allow"},
		{"plan lets a subagent start", ModePlan, Call{Tool: "Task", Kind: KindSubagent}, []Result{p8}, Allow, "P8", "P8 says allow"},
		{"plan denies an undeclared tool", ModePlan, Call{Tool: "T", Kind: KindOther}, []Result{p8}, Deny, "mode:plan", "plan mode: only read-only, web, interaction, subagent and session tools run, and T is an other tool"},
		{"plan lets a read ask", ModePlan, read, []Result{p8, p5}, Ask, "P5", "P5 says ask"},
		{"dontAsk denies an ask", ModeDontAsk, bash, []Result{p8, p5}, Deny, "mode:dontAsk", "dontAsk mode: would ask (P5 says ask), so denied"},
		{"dontAsk allows an allow", ModeDontAsk, bash, []Result{p7}, Allow, "P7", "P7 says allow"},
		{"bypass allows a rule's ask", ModeBypassPermissions, bash, []Result{p8, p5}, Allow, "mode:bypassPermissions", "bypassPermissions mode: allowed what would ask (P5 says ask)"},
		{"bypass allows a tool's ask", ModeBypassPermissions, bash, []Result{p8, p6}, Allow, "mode:bypassPermissions", "bypassPermissions mode: allowed what would ask (P6 says ask)"},
		// A hook that asks for confirmation is the user's own check: it
		// stays an Ask in every mode that lifts Asks.
		{"bypass keeps a hook's ask", ModeBypassPermissions, bash, []Result{p7, p4}, Ask, "P4", "P4 says ask"},
		{"bypass keeps a hook's ask beside a rule's", ModeBypassPermissions, bash, []Result{p8, p5, p4}, Ask, "P4", "P4 says ask"},
		{"acceptEdits keeps a hook's ask on an edit", ModeAcceptEdits, edit, []Result{p8, p4}, Ask, "P4", "P4 says ask"},
		{"auto keeps a hook's ask on an edit", ModeAuto, edit, []Result{p8, p6, p4}, Ask, "P4", "P4 says ask"},
		{"dontAsk denies a hook's ask", ModeDontAsk, bash, []Result{p8, p4}, Deny, "mode:dontAsk", "dontAsk mode: would ask (P4 says ask), so denied"},
		{"bypass keeps every deny: P0", ModeBypassPermissions, bash, []Result{p7, p0}, Deny, "P0", "P0 says deny"},
		{"bypass keeps every deny: P1", ModeBypassPermissions, bash, []Result{p7, p1}, Deny, "P1", "P1 says deny"},
		{"bypass keeps every deny: P2", ModeBypassPermissions, bash, []Result{p7, p2}, Deny, "P2", "P2 says deny"},
		{"bypass keeps every deny: P3", ModeBypassPermissions, bash, []Result{p7, p3}, Deny, "P3", "P3 says deny"},
		{"bypass keeps a firm ask", ModeBypassPermissions, edit, []Result{p7, firm}, Ask, "P6", "P6 says ask"},
		{"dontAsk denies a firm ask", ModeDontAsk, edit, []Result{p7, firm}, Deny, "mode:dontAsk", "dontAsk mode: would ask (P6 says ask), so denied"},
		{"plan lets a session-only tool run", ModePlan, Call{Tool: "TodoWrite", Kind: KindOther, SessionOnly: true}, []Result{p7}, Allow, "P7", "P7 says allow"},
		{"plan lets a web fetch ask", ModePlan, Call{Tool: "WebFetch", Kind: KindNetwork}, []Result{p8, p6}, Ask, "P6", "P6 says ask"},
		{"plan lets ExitPlanMode ask the person", ModePlan, Call{Tool: "ExitPlanMode", Kind: KindInteraction}, []Result{p8, p6}, Ask, "P6", "P6 says ask"},
		{"auto allows an edit inside the roots", ModeAuto, edit, []Result{p8, p6}, Allow, "mode:auto",
			"auto mode: allowed an edit inside the allowed roots that would ask (P6 says ask)"},
		{"auto leaves an edit outside the roots to the host", ModeAuto, editOut, []Result{p8, p6}, Ask, "P6", "P6 says ask"},
		{"auto leaves a shell ask to the host", ModeAuto, bash, []Result{p8, p5}, Ask, "P5", "P5 says ask"},
		{"auto keeps a firm ask", ModeAuto, edit, []Result{p8, firm}, Ask, "P6", "P6 says ask"},
		{"auto never lifts a deny", ModeAuto, edit, []Result{p7, p1}, Deny, "P1", "P1 says deny"},
		{"auto keeps an allow", ModeAuto, bash, []Result{p7}, Allow, "P7", "P7 says allow"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Combine(tt.mode, tt.call, tt.answers...)
			assert.Equal(t, tt.want, r.Decision)
			assert.Equal(t, tt.rule, string(r.Rule))
			assert.Equal(t, tt.reason, r.Reason)
			if strings.HasPrefix(tt.rule, "mode:") {
				require.GreaterOrEqual(t, r.Conflicts.Len(), 1)
				assert.NotEqual(t, r.Decision, r.Conflicts.At(0).Decision, "the conflict log keeps what the mode overrode")
			}
		})
	}
}

func TestParseMode(t *testing.T) {
	for _, m := range []Mode{ModeDefault, ModeAcceptEdits, ModePlan, ModeDontAsk, ModeBypassPermissions} {
		got, err := ParseMode(m.String())
		require.NoError(t, err)
		assert.Equal(t, m, got)
	}
	_, err := ParseMode("yolo")
	require.ErrorContains(t, err, `"yolo": unknown permission mode`)
	assert.True(t, ModePlan.AtMostAsPermissive(ModeDefault))
	assert.False(t, ModeBypassPermissions.AtMostAsPermissive(ModeAcceptEdits))
	assert.True(t, ModeBypassPermissions.AtMostAsPermissive(ModeBypassPermissions))
}

// TestAutoModeConfig: the allow rules Claude Code sets aside in auto mode,
// and those it keeps.
func TestAutoModeConfig(t *testing.T) {
	drop := []string{"Bash", "Bash(*)", "*", "Bash(python:*)", "Bash(python3 *)", "Bash(python*)", "Bash(node:*)",
		"Bash(npm run:*)", "Bash(yarn run *)", "Bash(sh -c:*)", "Bash(sudo:*)", "Bash(/usr/bin/env:*)", "Task", "Agent(Explore)", "Bash(bash)"}
	keep := []string{"Bash(git status)", "Bash(npm test:*)", "Bash(python -m pytest)", "Read", "Edit(./src/**)", "WebFetch(domain:go.dev)", "mcp__github"}
	cfg := Config{Allow: append(append([]string{}, drop...), keep...),
		WorkDir: "/p", Rules: []RuleSpec{{Rule: "Bash(ruby:*)", Decision: Allow, Origin: "user settings /u.json"}, {Rule: "Bash", Decision: Deny, Origin: "x"}}}
	out, dropped := AutoModeConfig(cfg)
	assert.Equal(t, keep, out.Allow)
	assert.Equal(t, append(append([]string{}, drop...), "Bash(ruby:*) (user settings /u.json)"), dropped)
	require.Len(t, out.Rules, 1, "deny rules stay")
	assert.Equal(t, Deny, out.Rules[0].Decision)
	c, err := New(out)
	require.NoError(t, err)
	r := c.Check(sh("python", "x.py"), nil)
	assert.Equal(t, Deny, r.Decision)
	assert.Equal(t, "denied by deny rule Bash (x)", r.Reason)
}

// TestCombineKeepsTheWinnersCause: the Result Combine returns carries the
// Cause of the answer that won, whichever precedence step chose it, and
// an answer the mode changed keeps the Cause of the answer it changed.
func TestCombineKeepsTheWinnersCause(t *testing.T) {
	errDeny, errAsk, errAllow := errors.New("refused path"), errors.New("hook failed"), errors.New("allowed anyway")
	with := func(r Result, err error) Result { r.Cause = err; return r }
	tests := []struct {
		name    string
		mode    Mode
		answers []Result
		want    Decision
		reason  string
		cause   error
	}{
		{"a Deny wins over an Allow", ModeDefault, []Result{with(p7, errAllow), with(p1, errDeny)}, Deny, "P1 says", errDeny},
		{"the stronger Deny's cause", ModeDefault, []Result{with(p2, errAsk), with(p0, errDeny)}, Deny, "P0 says", errDeny},
		{"an Ask raises an Allow", ModeDefault, []Result{p7, with(p4, errAsk)}, Ask, "P4 says", errAsk},
		{"the base's cause", ModeDefault, []Result{with(p7, errAllow), p8}, Allow, "P7 says", errAllow},
		{"no cause stays none", ModeDefault, []Result{p7, p5}, Ask, "P5 says", nil},
		{"dontAsk keeps the Ask's cause", ModeDontAsk, []Result{p7, with(p6, errAsk)}, Deny, "dontAsk mode", errAsk},
		{"plan keeps the cause", ModePlan, []Result{with(p7, errAllow)}, Deny, "plan mode", errAllow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Combine(tt.mode, Call{Tool: "Bash", Kind: KindExec}, tt.answers...)
			assert.Equal(t, tt.want, r.Decision)
			assert.Contains(t, r.Reason, tt.reason)
			assert.Equal(t, tt.cause, r.Cause)
		})
	}
}

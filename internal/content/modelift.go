package content

import (
	"slices"
	"strings"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/permission"
)

// modeLift is one kind of the guard's Ask that a permission mode lifts
// from a shell command: a write inside the roots by the command the rule
// names (or by a redirection), with the conditions under which Claude
// Code 2.1.332 lets it run unasked in that mode.
type modeLift struct {
	rule permission.RuleID
	// noOptions: the command lifts only with operands alone ("cp with
	// flags requires manual approval"; touch with an option asks).
	noOptions bool
	// direct: the command lifts only when no process wrapper runs it
	// ("timeout 5 touch x" asks, "timeout 5 mkdir x" does not).
	direct bool
}

// acceptEditsLifts are the writes inside the roots that Claude Code
// 2.1.332 runs unasked in acceptEdits mode: its filesystem commands
// (mkdir, touch, rm, rmdir, mv, cp, sed) and output redirections
// ("echo x > out.txt"). Every other write asks there too (tee, truncate,
// ln, chmod, find -delete), as do writes to protected paths, writes
// outside the roots and commands that run code: their findings have
// other rules, so no row lifts them. Observed in e2e/claudecode
// (TestRuleSemantics, layout accept_edits).
var acceptEditsLifts = []modeLift{
	{rule: bashguard.RuleWriteRedirect},
	{rule: bashguard.WriteRule("mkdir")},
	{rule: bashguard.WriteRule("touch"), noOptions: true, direct: true},
	{rule: bashguard.WriteRule("rm")},
	{rule: bashguard.WriteRule("rmdir")},
	{rule: bashguard.WriteRule("mv"), noOptions: true},
	{rule: bashguard.WriteRule("cp"), noOptions: true},
	{rule: bashguard.WriteRule("sed")},
}

// modeLifts are, by mode, the kinds of the guard's Ask it lifts from a
// shell command. Auto mode lifts what acceptEdits does (Claude Code skips
// its classifier for a call acceptEdits would allow); bypassPermissions
// lifts every Ask that is not firm on its own, in permission.Combine.
var modeLifts = map[permission.Mode][]modeLift{
	permission.ModeAcceptEdits: acceptEditsLifts,
	permission.ModeAuto:        acceptEditsLifts,
}

// liftedByMode reports whether mode lifts the guard's Ask for cmd: every
// factor of the Ask is a write inside the roots of a kind the mode lifts,
// to a path written out, by a command with no word known only at run time
// (the guard gives such a word as its source text) and, for a command's
// own write, no glob, brace or tilde, run directly or through the
// wrappers Claude Code looks through.
//
// ruled says that an explicit allow rule matched the command: it lifts
// the factors such a rule may lift ([bashguard.Finding.ByRule]), and the
// mode the rest ("Bash(touch *)" and "timeout 5 touch x > out.txt").
func liftedByMode(mode permission.Mode, cmd *bashguard.Command, ruled bool) bool {
	lifts := modeLifts[mode]
	if len(lifts) == 0 || cmd.Decision != permission.Ask || len(cmd.Asks) == 0 || cmd.ViaActs || len(cmd.RunsMore) > 0 {
		return false
	}
	if len(cmd.Via) > 0 && !allowsThrough(cmd.Via) {
		return false
	}
	args := cmd.Args
	if len(cmd.Runs) > 0 {
		args = cmd.Runs
	}
	// A redirection alone writes the file it names, whatever the words
	// say; a command's own write reaches the files its words name.
	onlyRedirects := !slices.ContainsFunc(cmd.Asks, func(f bashguard.Finding) bool { return f.Rule != bashguard.RuleWriteRedirect })
	for _, a := range args {
		if strings.ContainsAny(a, "$`") || !onlyRedirects && strings.ContainsAny(a, "*?[]{}~") {
			return false
		}
	}
	for _, f := range cmd.Asks {
		if ruled && f.ByRule {
			continue
		}
		i := slices.IndexFunc(lifts, func(l modeLift) bool { return l.rule == f.Rule })
		if i < 0 || !f.Plain {
			return false
		}
		l := &lifts[i]
		if l.direct && len(cmd.Via) > 0 {
			return false
		}
		if l.noOptions && slices.ContainsFunc(args[1:], func(a string) bool { return strings.HasPrefix(a, "-") }) {
			return false
		}
	}
	return true
}

// modeAllow is the answer of a mode that lifted a command's Ask.
func modeAllow(mode permission.Mode, cmd *bashguard.Command) permission.Result {
	r := permission.Result{Decision: permission.Allow, Layer: permission.LayerRules, Source: permission.SourceAllow, Rule: permission.ModeRule(mode),
		Reason: mode.String() + " mode: allowed a write inside the allowed roots that would ask (" + cmd.Reason + ")"}
	r.Conflicts.Add(permission.Conflict{Decision: permission.Ask, Layer: cmdLayer(cmd.Layer), Source: permission.SourceToolAsk, Rule: cmd.Rule, Reason: cmd.Reason})
	return r
}

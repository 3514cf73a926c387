package content

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/permission"
)

// checkShell judges a shell script: the guard splits it into simple
// commands and judges each; each is also checked against the rules on its
// own. A command is allowed only when the guard allows it (safe list) or
// an explicit Allow rule matches it and the guard's Ask is one a rule may
// lift; a Deny rule matching any command, or a guard Deny, denies the call.
func (c *stage) checkShell(ctx context.Context, field, script string) {
	g := c.j.Guard
	if g == nil {
		c.guardDeny(permission.LayerShell, RuleShellNone, fmt.Sprintf("%s: no shell guard is configured, so no command is allowed", field))
		return
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if c.workdirRefused {
		return // already denied: the command would run outside the roots
	}
	sb := c.j.Sandbox
	dir := c.workdir
	if dir == "" {
		dir = sb.WorkDir()
	}
	// The command's paths go through the one path judge, relative ones
	// taken from the directory it runs in.
	// The hosts its network commands reach go through the domain rules
	// (shellPaths is a bashguard.HostJudge too).
	v := g.Judge(ctx, dir, shellPaths{j: c.j}, script)
	if len(v.Commands) == 0 {
		// Nothing to judge one by one (a parse error, an empty script):
		// the guard's answer is the call's.
		c.addGuard(&v)
		if v.Decision == permission.Allow {
			c.add(permission.Result{Decision: permission.Allow, Layer: permission.LayerShell, Source: permission.SourceAllow, Rule: v.Rule, Reason: v.Reason})
		}
		return
	}
	// The script's verdict may be stricter than every one of its commands'
	// (a limit, a fork bomb): it then speaks for the call too, so that no
	// part of the guard's judgement is lost in the split.
	strictest := permission.Allow
	for _, cmd := range v.Commands {
		strictest = strictest.Stricter(cmd.Decision)
	}
	if v.Decision.Stricter(strictest) != strictest {
		c.addGuard(&v)
	}
	var worst permission.Result
	c.Commands = slices.Grow(c.Commands, len(v.Commands))
	for i, cmd := range v.Commands {
		// Bash rules speak for a command whichever tool runs it (Monitor,
		// run_bash): a Bash deny is final.
		req := permission.Request{Tool: c.call.Tool, Group: "Bash", Kind: c.call.Kind, Command: cmd.Args}
		// The rules' answer and the guard's.
		answers := make([]permission.Result, 1, 2)
		answers[0] = c.j.rulesFor(&req)
		if len(cmd.Runs) > 0 {
			// Claude Code matches its rules to the command a process
			// wrapper runs: a deny or ask rule through every wrapper, an
			// allow rule through those it strips for allow.
			inner := permission.Request{Tool: c.call.Tool, Group: "Bash", Kind: c.call.Kind, Command: cmd.Runs}
			answers[0] = throughWrappers(answers[0], c.j.rulesFor(&inner), allowsThrough(cmd.Via) && !cmd.ViaActs)
		}
		for _, more := range cmd.RunsMore {
			// A further command it runs (a second find -exec): its deny
			// and ask rules hold; an allow rule for it never speaks for
			// the whole.
			inner := permission.Request{Tool: c.call.Tool, Group: "Bash", Kind: c.call.Kind, Command: more}
			answers[0] = throughWrappers(answers[0], c.j.rulesFor(&inner), false)
		}
		rules := &answers[0]
		lifted := false
		switch cmd.Decision {
		case permission.Allow:
			answers = append(answers, permission.Result{Decision: permission.Allow, Layer: cmdLayer(cmd.Layer),
				Source: permission.SourceAllow, Rule: cmd.Rule, Reason: cmd.Reason})
		case permission.Ask:
			lifts := cmd.Overridable || len(cmd.LiftedBy) > 0 && ruleNamesAll(rules.Rule, cmd.LiftedBy)
			switch {
			case rules.Decision == permission.Allow && rules.Source == permission.SourceAllow && lifts:
			case liftedByMode(c.j.Mode, &v.Commands[i], rules.Decision == permission.Allow && rules.Source == permission.SourceAllow):
				// The mode runs such a write unasked; a deny or ask
				// rule for the command still holds (Combine).
				answers = append(answers, modeAllow(c.j.Mode, &v.Commands[i]))
				lifted = true
			default:
				answers = append(answers, permission.Result{Decision: permission.Ask, Layer: cmdLayer(cmd.Layer),
					Source: permission.SourceToolAsk, Rule: cmd.Rule, Reason: cmd.Reason, Cause: cmd.Cause})
			}
		default:
			answers = append(answers, permission.Result{Decision: permission.Deny, Layer: cmdLayer(cmd.Layer),
				Source: permission.SourceToolDeny, Rule: cmd.Rule, Reason: cmd.Reason, Cause: cmd.Cause})
		}
		if rules.Source == permission.SourceDefault && rules.Decision == permission.Ask {
			// A default Ask does not speak for a shell command: the guard
			// does (its safe list allows, its Ask asks). A default Deny
			// still denies.
			rules.Decision = permission.Allow
		}
		if lifted {
			// The mode's answer is the base that allows (an allow rule
			// alone would not have).
			answers[0], answers[1] = answers[1], answers[0]
		}
		r := permission.Combine(permission.ModeDefault, permission.Call{Tool: c.call.Tool, Kind: c.call.Kind}, answers...)
		c.Commands = append(c.Commands, Command{Result: permission.Result{Decision: r.Decision, Layer: r.Layer, Rule: r.Rule, Reason: r.Reason, Cause: r.Cause}, Args: cmd.Args, Pos: cmd.Pos.String()})
		if i == 0 || r.Decision < worst.Decision {
			worst = r
		}
	}
	c.add(worst)
}

// allowWrappers are the process wrappers through which Claude Code
// 2.1.332 holds an allow rule to the command they run ("Bash(touch *)"
// allows "nohup nice -n 5 touch x"). Not env: "env touch x" asks.
var allowWrappers = []string{"command", "nice", "nohup", "stdbuf", "time", "timeout"}

// allowsThrough reports whether an allow rule for the command the
// wrappers via run speaks for the whole command.
func allowsThrough(via []string) bool {
	for _, w := range via {
		if !slices.Contains(allowWrappers, w) {
			return false
		}
	}
	return len(via) > 0
}

// throughWrappers is the rules' answer for a wrapped command, given the
// answer for its own argv (outer) and for the command it runs (inner): a
// deny or ask rule for the inner command holds unless a stricter rule
// matched the outer one; an allow rule for it speaks where no rule matched
// the outer one and allow is set.
func throughWrappers(outer, inner permission.Result, allow bool) permission.Result {
	switch {
	case inner.Source == permission.SourceDefault:
		return outer
	case inner.Decision != permission.Allow:
		if outer.Source == permission.SourceDefault || inner.Decision.Stricter(outer.Decision) != outer.Decision {
			return inner
		}
	case allow && outer.Source == permission.SourceDefault:
		return inner
	}
	return outer
}

// addGuard adds the guard's answer for the whole script, unless it allows.
func (c *stage) addGuard(v *bashguard.Verdict) {
	switch v.Decision {
	case permission.Allow:
	case permission.Ask:
		c.add(permission.Result{Decision: permission.Ask, Layer: permission.LayerShell, Source: permission.SourceToolAsk, Rule: v.Rule, Reason: v.Reason, Cause: v.Cause})
	default:
		c.add(permission.Result{Decision: permission.Deny, Layer: permission.LayerShell, Source: permission.SourceToolDeny, Rule: v.Rule, Reason: v.Reason, Cause: v.Cause})
	}
}

// cmdLayer is the layer that decided a command: the guard's, or the one
// its path judge named (a path rule, the sandbox).
func cmdLayer(l permission.Layer) permission.Layer {
	if l == permission.LayerNone {
		return permission.LayerShell
	}
	return l
}

// ruleNamesAll reports whether the rule (Bash(git fetch --upload-pack:*))
// names every one of the options opts as a word of its pattern: an allow
// rule lifts an option that runs a program only when it says so.
func ruleNamesAll(rule permission.RuleID, opts []string) bool {
	r := string(rule)
	open, end := strings.IndexByte(r, '('), strings.LastIndexByte(r, ')')
	if open < 0 || end < open {
		return false
	}
	words := strings.Fields(strings.TrimSuffix(strings.TrimSuffix(r[open+1:end], ":*"), "*"))
	for _, o := range opts {
		if !slices.ContainsFunc(words, func(w string) bool { return w == o || strings.HasPrefix(w, o+"=") }) {
			return false
		}
	}
	return true
}

package permission

// Call describes the call whose answers [Combine] resolves, as far as the
// mode needs to know it.
type Call struct {
	// Tool is the tool's name, for reasons.
	Tool string
	// Kind is what the tool does.
	Kind Kind
	// InsideRoots reports that every path the call touches was judged and
	// lies inside the allowed roots (acceptEdits and auto only allow such
	// edits). A call that names no path (an empty or absent path field, a
	// tool that declares none) is not inside: its edit asks.
	InsideRoots bool
	// SessionOnly reports a tool that changes only the agent's own
	// session state (its task list, its loaded tools): plan mode lets it
	// run, as Claude Code's does.
	SessionOnly bool
}

// Combine resolves the answers of several sources by the original design's
// precedence and then applies the mode:
//
//   - a Deny from P0–P3 wins, the highest-priority one first; no mode
//     changes it (a Deny labelled with an Ask source, P4–P6, denies too:
//     mislabelled answers fail closed);
//   - otherwise the base is the explicit Allow (P7) if there is one, else
//     the default (P8); Ask answers (P4–P6, and Ask rules) raise an Allow
//     base to Ask and never lower a Deny base;
//   - then the mode: plan denies all but read-only, web, interaction,
//     subagent and session-only calls; dontAsk turns Ask into Deny; bypassPermissions
//     turns Ask into Allow; acceptEdits and auto allow an edit inside the
//     roots that would Ask (auto leaves every other Ask to the host's
//     classifier). Firm Asks (protected paths) and a hook's Ask (P4: the
//     user's own check asks for confirmation) stay Ask under
//     bypassPermissions, acceptEdits and auto; only the rules' and the
//     tools' Asks yield to the mode.
//
// Every answer that did not win is recorded in the result's conflict log,
// with the conflicts each answer carried. An empty list of answers is a
// Deny: nothing allowed the call.
func Combine(mode Mode, call Call, answers ...Result) Result {
	if len(answers) == 0 {
		return Result{Decision: Deny, Layer: LayerRules, Source: SourceConfigDeny, Rule: RuleCombineNoAnswer, Reason: "no source answered for this call"}
	}
	win := -1
	// 1. The strongest Deny from a source that can deny (P0–P3), or an
	// invalid answer, which counts as a P0 Deny.
	for i := range answers {
		a := &answers[i]
		if !a.Decision.Valid() {
			return Result{Decision: Deny, Layer: a.Layer, Source: SourceConfigDeny, Rule: RuleCombineInvalid, Reason: "an answer had an invalid decision"}
		}
		if a.Decision == Deny && a.Source < SourceAllow && (win < 0 || a.Source < answers[win].Source) {
			win = i
		}
	}
	if win < 0 {
		// 2. The base: the strongest Allow-rule answer, else the default.
		base := -1
		for i := range answers {
			a := &answers[i]
			if a.Source >= SourceAllow && (base < 0 || a.Source < answers[base].Source) {
				base = i
			}
		}
		// 3. Asks raise an Allow base (and replace an Ask base: the more
		// specific reason wins); they never lower a Deny base.
		ask := -1
		for i := range answers {
			a := &answers[i]
			if a.Decision == Ask && a.Source <= SourceToolAsk && (ask < 0 || a.Source < answers[ask].Source) {
				ask = i
			}
		}
		switch {
		case base < 0 && ask >= 0:
			win = ask
		case base < 0:
			return Result{Decision: Deny, Layer: LayerRules, Source: SourceConfigDeny, Rule: RuleCombineNoBase, Reason: "no rule or default answered for this call"}
		case ask >= 0 && answers[base].Decision != Deny:
			win = ask
		default:
			win = base
		}
	}
	// The winner keeps its own conflicts (Add copies on append, so the
	// copy never writes to the answer's backing array).
	res := answers[win]
	firm := res.firmAsk()
	for i := range answers {
		if i == win {
			continue
		}
		a := &answers[i]
		if a.firmAsk() {
			firm = true
		}
		res.Conflicts.Add(a.asConflict())
		res.Conflicts.addAll(&a.Conflicts)
	}
	if res.Decision == Ask {
		res.Firm = firm
	}
	if res.Decision == Deny || mode == ModeDefault {
		return res // no mode changes a Deny, and the default mode nothing
	}
	return applyMode(mode, call, res)
}

// firmAsk reports whether r is an Ask no mode may lift: marked firm, or a
// hook's.
func (r *Result) firmAsk() bool {
	return r.Decision == Ask && (r.Firm || r.Source == SourceHookAsk)
}

// applyMode applies the permission mode to a combined result.
func applyMode(mode Mode, call Call, r Result) Result {
	if r.Decision == Deny {
		return r
	}
	switch mode {
	case ModeDefault:
		return r
	case ModePlan:
		// Planning reads (files and the web), talks to the person — its
		// ExitPlanMode asks the person to approve the plan — and may
		// start subagents (which inherit plan mode: a child's mode is
		// never more permissive than its parent's); it changes nothing.
		// Each keeps its own answer: an Ask stays an Ask.
		if call.Kind == KindRead || call.Kind == KindNetwork || call.Kind == KindInteraction || call.Kind == KindSubagent || call.SessionOnly {
			return r
		}
		return modeResult(r, Deny, SourceConfigDeny, mode,
			"plan mode: only read-only, web, interaction, subagent and session tools run, and "+name(call.Tool)+" is "+article(call.Kind)+" tool")
	case ModeDontAsk:
		if r.Decision == Ask {
			return modeResult(r, Deny, SourceConfigDeny, mode, "dontAsk mode: would ask ("+r.Reason+"), so denied")
		}
	case ModeBypassPermissions:
		if r.Decision == Ask && !r.Firm {
			return modeResult(r, Allow, r.Source, mode, "bypassPermissions mode: allowed what would ask ("+r.Reason+")")
		}
	case ModeAcceptEdits, ModeAuto:
		if r.Decision == Ask && !r.Firm && call.Kind == KindEdit && call.InsideRoots {
			return modeResult(r, Allow, r.Source, mode, mode.String()+" mode: allowed an edit inside the allowed roots that would ask ("+r.Reason+")")
		}
		// In auto mode every other Ask stays an Ask: the host's classifier
		// (or the person) answers it.
	default:
		return modeResult(r, Deny, SourceConfigDeny, mode, "unknown permission mode: denied")
	}
	return r
}

func modeResult(r Result, d Decision, src Source, mode Mode, reason string) Result {
	out := Result{Decision: d, Layer: LayerRules, Source: src, Rule: ModeRule(mode), Reason: reason, Cause: r.Cause}
	out.Conflicts.Add(r.asConflict())
	out.Conflicts.addAll(&r.Conflicts)
	return out
}

func name(tool string) string {
	if tool == "" {
		return "this tool"
	}
	return tool
}

func article(k Kind) string {
	s := k.String()
	if s[0] == 'a' || s[0] == 'e' || s[0] == 'i' || s[0] == 'o' || s[0] == 'u' {
		return "an " + s
	}
	return "a " + s
}

package runtime

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/internal/jsonin"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime/approval"
	"github.com/toolgate/toolgate/runtime/store"
)

// Check runs the layers of the design, in order, on one call of a live
// session and returns the verdict:
//
//  1. layer 7: session cancelled, step limit, repeated calls;
//  2. input: unknown tool, input that is not a JSON object or is too big;
//  3. layer 3: PreToolUse hooks (Block, MutateInput, PermissionRequired);
//  4. layer 2: the rules, on the input as the hooks left it;
//  5. layers 4 and 5: every declared path through the sandbox, every shell
//     command through the guard, each simple command against the rules;
//  6. layer 6: a subagent session cannot ask, and cannot use interaction
//     tools;
//  7. with an Asker, Ask goes to a person.
//
// Every error, panic or timeout on the way is a Deny with its reason.
func (p *Pipeline) Check(ctx context.Context, call Call) (v Verdict) {
	defer func() {
		if r := recover(); r != nil {
			v = Verdict{Result: permission.Result{Decision: permission.Deny, Layer: permission.LayerRuntime, Rule: RulePanic, Reason: fmt.Sprintf("the check panicked: %v", r)}}
		}
	}()
	if call.Session == "" {
		call.Session, _ = SessionIDFrom(ctx)
	}
	a := p.agent(call.Session)
	if a == nil {
		return Verdict{Result: permission.Result{Decision: permission.Deny, Layer: permission.LayerRuntime, Rule: RuleUnknownSession, Reason: fmt.Sprintf("no live session %q", call.Session)}}
	}
	v = p.syncGate(a.check(ctx, call))
	if err := a.l7.err(); err != nil && (v.Decision != permission.Deny || v.Asked) {
		// The session ended while the call was being judged (while the
		// person was asked, or during any other wait): cancellation wins,
		// whatever ctx the call carried and whatever was answered.
		v = cancelledDuring(v, err)
	}
	v.Status = a.l7.Status()
	if v.Input == nil {
		v.Input = call.Input
	}
	return v
}

// cancelledDuring turns v, judged while its session was cancelled with
// err, into the cancellation's Deny; what v said goes to the conflict log.
func cancelledDuring(v Verdict, err error) Verdict {
	prev := v.overridden()
	v.Decision, v.Layer, v.Source, v.Rule, v.Firm = permission.Deny, permission.LayerRuntime, permission.SourceToolDeny, RuleCancelled, false
	v.Reason = "session is cancelled: " + err.Error() + " (while the call was judged: " + prev.Reason + ")"
	v.Ticket = ""
	return v
}

func deny(layer permission.Layer, rule permission.RuleID, reason string) Verdict {
	return Verdict{Result: permission.Result{Decision: permission.Deny, Layer: layer, Rule: rule, Reason: reason}}
}

func (a *agent) check(ctx context.Context, call Call) Verdict {
	p := a.p
	// 1. Layer 7.
	// The input is canonicalised once, unless it is over the size bound
	// (checked before anything parses it): layer 7 compares calls by the
	// canonical form (an input too big to read is compared by its bytes),
	// and the guards read the declared fields from it.
	// The usual input is read into room on this stack: layer 7 copies
	// the canonical form it keeps, and nothing keeps the members.
	var canonBuf [512]byte
	var memberBuf [8]jsonin.Member
	var canon []byte
	var members []jsonin.Member
	var cerr error
	tooBig := len(call.Input) > p.cfg.MaxInputBytes
	if !tooBig {
		canon, members, cerr = jsonin.Object(call.Input, canonBuf[:0], memberBuf[:0])
	}
	if g := a.l7.gate(call.Tool, call.Input, canon); g.Decision != permission.Allow {
		return deny(permission.LayerRuntime, g.Rule, g.Reason)
	}
	// 2. Input.
	if call.Tool == "" {
		return deny(permission.LayerTraits, RuleNoTool, "the call names no tool")
	}
	tool, ok := a.toolset().Lookup(call.Tool)
	if !ok {
		return deny(permission.LayerTraits, RuleUnknownTool, fmt.Sprintf("unknown tool %q: not in this session's tool set", call.Tool))
	}
	if tooBig {
		return deny(permission.LayerTraits, RuleTooBig, fmt.Sprintf("input of %d bytes is over the limit of %d", len(call.Input), p.cfg.MaxInputBytes))
	}
	if cerr != nil {
		return deny(permission.LayerTraits, inputRule(cerr), inputError(cerr))
	}
	traits := tool.Traits(call.Input)
	kind := traits.Kind

	// 3. Layer 3: PreToolUse hooks.
	// Hooks run under the session's context: cancelled with the session.
	out := p.cfg.Hooks.PreToolUse(a.l7.Context(), hooks.PreToolUseEvent{
		SessionID: a.l7.ID(), AgentName: a.name, Step: a.l7.currentStep(), ToolName: call.Tool,
		CallID: call.ID, Kind: kind, Input: call.Input, Cwd: a.cwd, PermissionMode: a.mode.String(),
	})
	var hookAsk *permission.Result
	switch out.Decision {
	case permission.Allow:
	case permission.Ask:
		hookAsk = &permission.Result{Decision: permission.Ask, Layer: permission.LayerHooks,
			Source: permission.SourceHookAsk, Rule: hooks.Rule(out.Hook), Reason: out.Reason, Cause: out.Err}
	default:
		reason := out.Reason
		if reason == "" {
			reason = "a PreToolUse hook blocked the call"
		}
		v := deny(permission.LayerHooks, hooks.Rule(out.Hook), reason)
		v.Context, v.Cause = out.Context, out.Err
		return v
	}
	input := call.Input
	if out.Input != nil {
		input = out.Input
		if len(input) > p.cfg.MaxInputBytes {
			return deny(permission.LayerHooks, hooks.Rule(out.Hook), "a hook made the input bigger than the limit")
		}
		// An input the hooks left as it was (the chain hands it back
		// whole) has the members and traits already read.
		if !bytes.Equal(input, call.Input) {
			if _, members, cerr = jsonin.Object(input, nil, nil); cerr != nil {
				return deny(permission.LayerHooks, hooks.Rule(out.Hook), "a hook replaced the input with something that is not a JSON object: "+inputError(cerr))
			}
			traits = tool.Traits(input)
		}
	}

	// 4 and 5. Rules, content guards, and each simple command.
	c := a.inspect(ctx, call.Tool, &traits, members)
	var answers []permission.Result
	if hookAsk != nil {
		answers = c.Answers(*hookAsk)
	} else {
		answers = c.Answers()
	}
	res := permission.Combine(a.mode, permission.Call{Tool: call.Tool, Kind: traits.Kind, InsideRoots: c.InsideRoots, SessionOnly: traits.SessionOnly}, answers...)
	v := verdictOf(res)
	v.Input, v.Context, v.Commands = input, out.Context, commandVerdicts(c.Commands)

	// 6. Layer 6: a silent (subagent) session cannot ask a person.
	if a.silent {
		if traits.Kind == permission.KindInteraction && v.Decision != permission.Deny {
			return a.silentDeny(v, fmt.Sprintf("subagent %q cannot talk to the person: %s is an interaction tool", a.name, call.Tool))
		}
		if v.Decision == permission.Ask {
			return a.silentDeny(v, fmt.Sprintf("subagent %q cannot ask the person, and this call would ask: %s", a.name, v.Reason))
		}
	}

	// 7. Ask a person.
	if v.Decision == permission.Ask {
		q := question{always: alwaysRules(call.Tool, &c)}
		q.script, q.commands = shellOf(&v, traits.CommandFields, members)
		if p.cfg.Asker != nil {
			v = a.ask(ctx, call, v, &q)
		} else {
			v = a.park(ctx, call, v, &q)
		}
	}
	return v
}

// question is what an Ask puts to the person beside the verdict: the
// session rules an "allow always" adds, and for a shell call the script
// and its simple commands.
type question struct {
	always   []string
	script   string
	commands []store.ApprovalCommand
}

func (a *agent) silentDeny(v Verdict, reason string) Verdict {
	v.overridden()
	v.Decision, v.Layer, v.Source, v.Rule, v.Reason, v.Firm = permission.Deny, permission.LayerSubagent, permission.SourceToolDeny, RuleSilent, reason, false
	return v
}

// ask puts an Ask verdict to the person and records an "allow always".
func (a *agent) ask(ctx context.Context, call Call, v Verdict, q *question) Verdict {
	req := approval.Request{ID: call.ID, Session: a.l7.ID(), Tool: call.Tool, Input: v.Input, Layer: v.Layer, Rule: string(v.Rule), Reason: v.Reason}
	for _, cmd := range v.Commands {
		req.Commands = append(req.Commands, cmd.Args)
	}
	req.AlwaysRules = q.always
	req.Explanation = explain(call.Tool, &v)
	req.Agent = a.name
	req.Script, req.ScriptCommands = q.script, q.commands
	// The question ends with the call's ctx or with the session, whichever
	// ends first: a host's ctx is often not the session's.
	ctx, stop := a.withSession(ctx)
	defer stop()
	ans := approval.AskWithTimeout(ctx, a.p.cfg.Asker, req, a.p.cfg.AskTimeout)
	v.Asked, v.Answer = true, ans.Choice
	prev := v.overridden()
	switch ans.Choice {
	case approval.AllowOnce, approval.AllowAlways:
		v.Decision, v.Rule = permission.Allow, allowedRule(ans.Choice)
		v.Reason = "the person allowed it (" + ans.Choice.String() + ") after: " + prev.Reason
		if ans.Choice == approval.AllowAlways && len(req.AlwaysRules) > 0 {
			// A wider scope's grants are the asker's to record (a
			// StoreAsker's store has them already); the session gets
			// the rules now either way.
			scope := ans.Scope
			if scope != store.ScopeProject && scope != store.ScopeUser {
				scope = store.ScopeSession
			}
			if err := a.rules.Add(permission.Allow, req.AlwaysRules...); err != nil {
				v.Reason += "; the session rule could not be added: " + err.Error()
			} else {
				a.noteGranted(req.AlwaysRules)
				v.Reason += "; added " + scope.String() + " rules " + strings.Join(req.AlwaysRules, ", ")
			}
		}
	default:
		v.Decision, v.Rule = permission.Deny, RuleDenied
		v.Reason = "the person denied it"
		switch {
		case errors.Is(ans.Unanswered, approval.ErrTimeout):
			v.Rule, v.Reason = RuleTimeout, ans.Reason
		case ans.Unanswered != nil:
			v.Rule, v.Reason = RuleUnanswered, ans.Reason
		case ans.Reason != "":
			v.Reason += ": " + ans.Reason
		}
	}
	return v
}

// withSession returns a context that ends when ctx or the session's context
// does, with the cause of whichever ended first, and the func that frees it.
// A nil ctx is the session's.
func (a *agent) withSession(ctx context.Context) (context.Context, func()) {
	sctx := a.l7.Context()
	if ctx == nil {
		return sctx, func() {}
	}
	merged, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(sctx, func() { cancel(context.Cause(sctx)) })
	return merged, func() {
		stop()
		cancel(nil)
	}
}

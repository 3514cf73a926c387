// Package subagent is layer 6 of toolgate: subagents that can never hold
// more rights than the session that starts them.
//
// A subagent runs its own ReAct loop in a child session of its parent's
// session, in the same [runtime.Pipeline]. It starts with a fresh context:
// only its task, its own step count, repeated-call detector and token
// budget. It keeps what protects the person: the parent's checker, session
// rules and hooks apply to it.
//
// # Least privilege by construction
//
// A [Spec] describes a kind of subagent: its name, the tools it may use
// (a subset of its parent's), Deny and Ask rules of its own, its mode and
// its limits. Nothing in it can widen the parent's rights, and
// [Spec.Validate] and [Spawn] refuse, with the reason, every attempt:
//
//   - an Allow rule (a spec has no allow list; a generic rule with an Allow
//     decision is refused);
//   - a tool its parent does not hold, or an interaction tool;
//   - a mode more permissive than the parent's (bypassPermissions only under
//     a bypassing parent);
//   - a nesting depth past the bound (default 1: a subagent does not start
//     subagents) or more running children than the bound (default 4).
//
// Such refusals wrap [ErrWiden]; a malformed spec wraps [ErrInvalid]. Through
// a [Runner], nesting narrows too: a subagent starts subagents no deeper than
// its own spec's MaxDepth allows.
//
// Inside the child, session rules may only narrow: adding an Allow fails
// with [permission.ErrNarrowOnly]. A rule granted to the parent later (an
// "allow always" answer) reaches the child at its next check; what the
// child adds never reaches its parent or its siblings.
//
// # Silent
//
// A subagent cannot ask the person. A call that would ask is denied, with a
// reason that says so, and interaction tools are denied.
//
// # Running a subagent
//
// [Spawn] starts a [Child]; [Child.Run] runs its loop with a [Model] (a
// function from a [Turn] to tool calls or a final answer) and the host's
// [RunFunc], each step through the pipeline, and ends the child with the
// reason ([Stop]). For the parent, [Tool] describes the subagent tool (a
// blocking tool: a parent cancelled while a subagent runs waits for it) and
// a [Runner] runs its calls:
//
//	runner := &subagent.Runner{Pipeline: p, Specs: specs, Model: model}
//	runner.Run = func(ctx context.Context, call runtime.Call) (string, error) {
//		if call.Tool == "Task" {
//			return runner.RunCall(ctx, call)
//		}
//		return runTool(ctx, call)
//	}
//
// # Cancellation and events
//
// Cancelling the parent session cancels every child at once: a running
// tool that can be cancelled sees its context end, a blocking one finishes
// first, and no further call is admitted. SubagentStart and SubagentStop
// fire on the parent's hooks with the child's name, and every event of the
// child carries the child's name as its agent name (the audit log's
// agent_name column).
package subagent

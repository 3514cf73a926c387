// Package runtime holds layer 1 (tool traits) and layer 7 (runtime limits)
// of toolgate, and the machinery around a tool call: approval, batch
// execution, output shaping and background tasks.
//
// The package's name shadows the standard library's runtime package; code
// needing both imports the standard one under another name, such as
// goruntime.
//
// # Tool traits
//
// A [Tool] tells, for one call's input, its [Traits]: whether it may run in
// parallel, what happens when its session is cancelled ([InterruptCancel] or
// [InterruptBlock]), whether its failure aborts its siblings, its
// [permission.Kind], which input fields are paths, globs, shell commands,
// URLs, domains or a working directory, and the tool's own Deny or Ask
// rules ([ToolRule]). A [Descriptor] describes a tool by data. A [Registry]
// holds tools by name; [Registry.Restrict] returns a copy with fewer tools,
// for a subagent. [GenericTools] and [ClaudeCodeTools] return registries of
// ready descriptors.
//
// # Runtime limits
//
// [Pipeline.Session] gets or starts a [Session], each with its own context
// (cancelled at once by [Session.Cancel], or on every replica by
// [Pipeline.Cancel]), step count, recent calls, token budget and
// compaction breaker; [Session.End] ends it. Layer 7's check is the first
// step of [Pipeline.Check]: cancelled session, step limit, the third
// identical call in a row (inputs compared in a canonical JSON form), a short
// cycle of calls come round three times. [Session.BeginStep] and
// [Session.AddTokens] return a [Status] whose [Signal] set tells the loop
// to nudge, ask for the final answer, force compaction, or stop.
//
//	s, _ := p.Session(ctx, runtime.SessionOptions{ID: "conversation-1"})
//	defer s.End("conversation over", "", nil)
//	for {
//		st := s.BeginStep()
//		if st.Signals.Has(runtime.SignalFinalAnswer) { /* ask without tools */ }
//		// … model call; for each tool call: p.Check, run it, p.After …
//	}
//
// A [Child] in [SessionOptions] starts a child (subagent) session that can
// only narrow its parent; package subagent is the way to use it.
//
// # Approval
//
// An Ask goes to a person through the [Config]'s approval.Asker (package
// approval: a terminal, a channel for an HTTP or SSE front end, an approval
// store), bounded by AskTimeout; every failure is a Deny with its reason.
// "Allow always" records the exact per-command rules of
// [permission.AllowAlwaysRules], which refuses broad wrappers such as
// bash -c, env, sudo or python. Without an Asker, an Ask comes back with a
// ticket the host answers later through [Pipeline.Resume], from any replica.
//
// # Execution and output
//
// An [Executor] checks and runs a batch of calls: consecutive
// concurrency-safe calls in parallel, others one at a time, results in call
// order, with sibling abort and interrupt behaviour. Its Check, Run and
// After steps are functions, so the pipeline plugs in its own. After
// shapes each result with [Config].Output (package output: truncation, and
// persistence of very long results through an *os.Root).
// [Session.Background] (package tasks) runs slow work and queues its
// results for the next model call.
package runtime

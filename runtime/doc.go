// Package runtime wires toolgate's layers around each tool call: the
// [Pipeline] (Check before a call, After after it), layer 7 (runtime
// limits) and the batch executor. Layer 1's tool traits (package tool),
// asking a person (approval), output shaping (output) and background
// tasks (tasks) are packages of their own beneath it.
//
// The package's name shadows the standard library's runtime package; code
// needing both imports the standard one under another name, such as
// goruntime.
//
// # Tool traits
//
// Each call is judged by what its tool declares (package tool): a
// [tool.Tool] gives, for one call's input, its [tool.Traits] — whether it
// may run in parallel, what happens when its session is cancelled, its
// [permission.Kind], which input fields are paths, globs, shell commands,
// URLs, domains or a working directory, and its own Deny or Ask rules. The
// [Config] takes the tools as a [tool.Registry] (tool.ClaudeCodeTools by
// default in [Open]); [Pipeline.AddTools] adds tools at run time.
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
// An adapter whose protocol sends the call again with the person's answer
// (MCP's multi round-trip calls) tells the same call by [CanonicalInput],
// the form Check compares inputs by.
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

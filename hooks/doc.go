// Package hooks is layer 3 of toolgate: programmable callbacks around an
// agent's session and its tool calls, run in order with every failure
// isolated.
//
// # Hooks
//
// A [Hook] is a struct of optional callbacks, one per lifecycle event
// (SessionStart, PreToolUse, PostToolUse, StepComplete, SessionStop,
// SubagentStart, SubagentStop, PreCompact, PostCompact), each taking the
// session's context and its own event type ([PreToolUseEvent], …). A nil
// callback means "not interested":
//
//	noRm := hooks.Hook{
//		Name: "no-rm",
//		PreToolUse: func(ctx context.Context, e hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
//			if e.ToolName == "Bash" && bytes.Contains(e.Input, []byte("rm -rf")) {
//				return hooks.Block("rm -rf is not allowed"), nil
//			}
//			return hooks.PreToolUseResult{}, nil // Continue
//		},
//	}
//
// # The chain
//
// A [Set] holds hooks in registration order and runs one event's callbacks
// at a time. For PreToolUse ([Set.PreToolUse]):
//
//   - the first [Block] ends the chain: the outcome is Deny, with the
//     hook's reason and name;
//   - [MutateInput] replaces the input; later hooks, and then the rules,
//     see the new input; additional contexts are joined in order;
//   - [PermissionRequired] raises the outcome to Ask (never lowering a
//     Block that follows);
//   - otherwise the outcome is Allow, which means only "no hook objects".
//
// Hooks can only tighten a decision. The pipeline combines the outcome
// with the rules' decision by [permission.Decision.Stricter], and there is
// no answer by which a hook lets through a call a rule denies or asks
// about. (Claude Code once let a hook's "allow" override a deny rule and
// fixed it in 2.1.77; here the shape of the API rules it out. A command
// hook's permissionDecision "allow" is read as Continue.)
//
// For PostToolUse ([Set.PostToolUse]) [MutateOutput] replaces the output,
// chained in order (redaction, say, before an audit log). The other
// events only notify.
//
// # Isolation
//
// A callback that panics, returns an error, runs past its timeout, or
// ends its goroutine with runtime.Goexit (as t.Fatal does) never takes the
// host down. In PreToolUse the call is blocked — the chain
// fails closed — with a reason naming the hook ("hook "x" panicked: …;
// call blocked"). In every other event the failed callback's answer is
// dropped, the event goes on unchanged through the remaining hooks, and
// the failure is reported: in the returned error or outcome (an [*Error]
// wrapping a [*PanicError], [ErrTimeout], [ErrGoexit] or the callback's
// error), to
// [Set.OnFailure] and to [Set.Logger].
//
// Every callback gets the session's context, the ctx passed to the Set's
// method: it is cancelled with the session, and a callback that waits must
// return when it is done. A PreToolUse on an already cancelled session is
// denied without running any hook. SessionStop runs its callbacks even on
// a cancelled context, so that hooks can clean up.
//
// # Timeouts
//
// Each callback has a timeout: the hook's [Hook.Timeout], else the Set's
// [Set.Timeout], else [DefaultTimeout] (60 s), counted from the
// callback's own start. Go cannot stop a running function, so enforcing a
// timeout means not waiting for it: a chain that includes a timed hook
// runs on a worker goroutine while the caller waits. A callback that
// overruns is abandoned — its result is dropped, its goroutine finishes
// on its own — and the caller goes on at once. The worker's timer ticks
// every sixteenth of the timeout instead of reading the clock for every
// callback, so a callback is abandoned no sooner than its timeout and at
// most an eighth of it later. Workers are pooled, so a timed chain
// allocates nothing; its cost is two goroutine switches per chain (not
// per hook): three no-op hooks take about 0.85 µs on a small 2-core
// machine. Hooks that are known never to block (the built-in
// [Cancellation] and [Metrics], a regexp check) can declare [NoTimeout]:
// a chain made only of such hooks runs inline on the caller's goroutine,
// with panics still recovered, and costs about 60 ns per hook. Choose
// NoTimeout only for callbacks that do no I/O and take no locks held
// across I/O: an inline callback that hangs hangs the agent, and one that
// calls runtime.Goexit ends the caller's goroutine. On a worker, a Goexit
// is seen at once and fails the callback like a timeout would.
//
// Call [Set.Close] to stop a Set's idle worker goroutines.
//
// # Built-in hooks
//
//   - [Cancellation] blocks every call of a session the host cancelled,
//     and forgets the session at SessionStop.
//   - [Metrics] counts calls, errors and denials per tool and per session
//     with their elapsed time ([Metrics.Snapshot]), logs a summary line
//     through log/slog every three steps and the stop reason at
//     SessionStop.
//   - [Command] runs an external command speaking Claude Code's hook
//     protocol (JSON on stdin, exit status 2 to block, a JSON answer on
//     stdout), so existing Claude Code hook scripts can be reused. Unlike
//     Claude Code, which lets a call through when a hook script fails, any
//     failure blocks the call.
//   - [Redaction] masks secrets in every output with a function of the
//     host's, or with [RedactSecrets], a table of secret shapes (NAME=value
//     for secret-sounding names, Authorization headers, URL passwords,
//     vendor tokens, PEM keys).
//   - The audit log writes every call to a database/sql table, its input
//     and output preview masked by [AuditOptions.Redact]: by default
//     [RedactSecrets], so that no log is unredacted by omission;
//     [NoRedaction] opts out.
//
// # Testing hooks
//
// Package [github.com/toolgate/toolgate/hooks/hookstest] holds event
// builders, a recording hook and a conformance suite that every hook
// should pass; examples/customhook shows them at work.
package hooks

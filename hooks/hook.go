package hooks

import (
	"context"
	"time"
)

// DefaultTimeout is how long a hook callback may run when neither the
// [Hook] nor the [Set] sets a timeout.
const DefaultTimeout = 60 * time.Second

// NoTimeout, as a [Hook.Timeout], runs the hook's callbacks on the caller's
// goroutine with no time limit (panics are still recovered). It is the
// fast path for callbacks known to return promptly; see "Timeouts" in the
// package documentation for the trade-off.
const NoTimeout time.Duration = -1

// A Hook is a set of callbacks, one per lifecycle event of an agent
// session. Every field is optional: a nil callback means the hook is not
// interested in that event. The shape follows
// [net/http/httptrace.ClientTrace]: a misspelt field is a compile error
// and a new event breaks nobody.
//
// # Concurrency
//
// A Hook is called concurrently: by several sessions at once, and within
// a session by tool calls running in parallel. Callbacks must be safe for
// concurrent use. Within one session SessionStart comes first and
// SessionStop last; for one tool call PreToolUse comes before PostToolUse.
//
// # Context
//
// Every callback receives the session's context: it is cancelled when the
// session is cancelled or ends. A callback that blocks must return
// promptly once ctx is done.
//
// # Failure
//
// A callback that panics, returns a non-nil error, or runs past its
// timeout is a failed callback. A failed PreToolUse blocks the call (fail
// closed) with a reason naming the hook; any other failed callback leaves
// the event unchanged and is reported (see [Failure]). A failed hook never
// takes the host down.
type Hook struct {
	// Name identifies the hook in reasons, failures and logs. An empty
	// name prints as "hook #N", N being its position in the [Set].
	Name string

	// Timeout bounds each callback. Zero means the Set's timeout
	// ([DefaultTimeout] unless configured); [NoTimeout] runs callbacks
	// inline without a limit.
	Timeout time.Duration

	// SessionStart is called once when a session begins.
	SessionStart func(ctx context.Context, e SessionStartEvent) error

	// PreToolUse is called before each tool call is judged by the rules,
	// in registration order. Its result may let the call go on
	// ([PreToolUseResult] zero value), block it ([Block]), replace its
	// input ([MutateInput]) or require a person's confirmation
	// ([PermissionRequired]). No result allows a call that a rule denies:
	// hooks can only make a decision stricter.
	PreToolUse func(ctx context.Context, e PreToolUseEvent) (PreToolUseResult, error)

	// PostToolUse is called after each tool call, in registration order,
	// including calls that were denied (e.Decision says so). Its result
	// may replace the output ([MutateOutput]), for example to redact it.
	PostToolUse func(ctx context.Context, e PostToolUseEvent) (PostToolUseResult, error)

	// StepComplete is called after each step of the agent's loop.
	StepComplete func(ctx context.Context, e StepCompleteEvent) error

	// SessionStop is called once when a session ends, however it ends.
	SessionStop func(ctx context.Context, e SessionStopEvent) error

	// SubagentStart is called when the session starts a subagent.
	SubagentStart func(ctx context.Context, e SubagentStartEvent) error

	// SubagentStop is called when a subagent of the session ends.
	SubagentStop func(ctx context.Context, e SubagentStopEvent) error

	// PreCompact is called before the history is compacted.
	PreCompact func(ctx context.Context, e PreCompactEvent) error

	// PostCompact is called after the history was compacted.
	PostCompact func(ctx context.Context, e PostCompactEvent) error
}

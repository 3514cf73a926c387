package hooks

import (
	"encoding/json"
	"time"

	"github.com/toolgate/toolgate/permission"
)

// Events are plain values passed to the callbacks of a [Hook] by value: a
// callback that changes its copy changes nothing for the chain. Slices
// (Input) share their backing array with the caller, so a callback must
// not write into them; to change the input a PreToolUse callback returns
// [MutateInput] with a new slice. The conformance suite in hookstest checks
// this.
//
// Every event names the session (SessionID), the agent acting in it
// (AgentName: "lead" for the top-level agent, or a subagent's name) and
// the step of the agent's loop (Step, counted from 1; 0 when unknown).

// SessionStartEvent is passed to [Hook.SessionStart] when a session begins.
type SessionStartEvent struct {
	SessionID string // the session the event belongs to
	AgentName string // "lead", or the subagent's name
	// Cwd is the session's working directory, if the host knows one.
	Cwd string
	// PermissionMode is the name of the session's permission mode
	// (for example "default" or "plan"), if the host sets one.
	PermissionMode string
}

// PreToolUseEvent is passed to [Hook.PreToolUse] before a tool call is
// judged by the rules. Input is the call's input as a JSON object; a hook
// earlier in the chain may have replaced it with [MutateInput].
type PreToolUseEvent struct {
	SessionID string // the session the event belongs to
	AgentName string // "lead", or the subagent's name
	Step      int    // the step (model turn) the event happened in
	ToolName  string // the tool called
	// CallID identifies the call (the model's tool_use id).
	CallID string
	// Kind is what the tool declares it does.
	Kind  permission.Kind
	Input json.RawMessage // the call's input, a JSON object
	// Cwd and PermissionMode are as in [SessionStartEvent]; command hooks
	// pass them on to the command.
	Cwd            string
	PermissionMode string // the session's permission mode
}

// PostToolUseEvent is passed to [Hook.PostToolUse] after a tool call was
// judged and, if allowed, ran. Decision and Reason are the pipeline's
// verdict for the call; when Decision is not [permission.Allow] the tool
// did not run and Output is empty.
type PostToolUseEvent struct {
	SessionID string          // the session the event belongs to
	AgentName string          // "lead", or the subagent's name
	Step      int             // the step (model turn) the event happened in
	ToolName  string          // the tool called
	CallID    string          // the model's id for the call
	Kind      permission.Kind // what the tool declares it does
	// Input is the input the tool ran with (after PreToolUse mutations).
	Input json.RawMessage
	// Output is the tool's output; a hook earlier in the chain may have
	// replaced it with [MutateOutput].
	Output string
	// Elapsed is how long the tool ran.
	Elapsed time.Duration
	// Err is the tool's error, or nil if it succeeded.
	Err error
	// Decision, Layer, Rule and Reason are the pipeline's verdict for
	// the call: what it decided, the layer and the rule or named check
	// that decided, and why.
	Decision permission.Decision
	Layer    permission.Layer
	Rule     permission.RuleID
	Reason   string // why the pipeline decided as it did
	// Confinement is the kernel confinement the tool's command ran under,
	// as the tool reported it (bashguard's RunResult.Confined.String()),
	// or empty.
	Confinement string
	// Cwd and PermissionMode are as in [SessionStartEvent].
	Cwd            string
	PermissionMode string // the session's permission mode
}

// StepCompleteEvent is passed to [Hook.StepComplete] when one step of the
// agent's loop (a model turn and its tool calls) is done.
type StepCompleteEvent struct {
	SessionID string // the session the event belongs to
	AgentName string // "lead", or the subagent's name
	Step      int    // the step (model turn) the event happened in
	// Calls is the number of tool calls made in the step.
	Calls int
	// Elapsed is how long the step took.
	Elapsed time.Duration
}

// SessionStopEvent is passed to [Hook.SessionStop] when a session ends, for
// whatever reason. Per-session state kept by a hook should be freed here.
type SessionStopEvent struct {
	SessionID string // the session the event belongs to
	AgentName string // "lead", or the subagent's name
	// Step is the number of steps the session took.
	Step int
	// Reason says why the session stopped, for example "completed",
	// "cancelled", "max steps reached" or "token budget exhausted".
	Reason string
	// Elapsed is how long the session lasted.
	Elapsed time.Duration
	// Err is the error that ended the session, if any.
	Err error
}

// SubagentStartEvent is passed to [Hook.SubagentStart] when the agent of
// session SessionID starts a subagent.
type SubagentStartEvent struct {
	// SessionID is the parent session.
	SessionID string
	// AgentName is the parent agent.
	AgentName string
	Step      int // the step (model turn) the event happened in
	// CallID is the tool call that started the subagent.
	CallID string
	// Subagent is the subagent's name and ChildSessionID its session.
	Subagent       string
	ChildSessionID string // the subagent's own session
	// Task is the prompt given to the subagent.
	Task string
}

// SubagentStopEvent is passed to [Hook.SubagentStop] when a subagent ends.
type SubagentStopEvent struct {
	SessionID      string // the session the event belongs to
	AgentName      string // "lead", or the subagent's name
	Step           int    // the step (model turn) the event happened in
	CallID         string // the model's id for the call
	Subagent       string // the subagent's name
	ChildSessionID string // the subagent's own session
	// Output is the subagent's final answer.
	Output string
	// Elapsed is how long the subagent ran.
	Elapsed time.Duration
	// Err is the error that ended the subagent, if any.
	Err error
}

// PreCompactEvent is passed to [Hook.PreCompact] before the conversation
// history is compacted.
type PreCompactEvent struct {
	SessionID string // the session the event belongs to
	AgentName string // "lead", or the subagent's name
	Step      int    // the step (model turn) the event happened in
	// Trigger is "auto" (token budget) or "manual".
	Trigger string
	// Tokens is the history's size before compaction.
	Tokens int
}

// PostCompactEvent is passed to [Hook.PostCompact] after the history was
// compacted (or compaction failed).
type PostCompactEvent struct {
	SessionID string // the session the event belongs to
	AgentName string // "lead", or the subagent's name
	Step      int    // the step (model turn) the event happened in
	Trigger   string // "auto" or "manual"
	// TokensBefore and TokensAfter are the history's size around
	// compaction.
	TokensBefore int
	TokensAfter  int // the context's size after compaction
	// Err is the compaction's error, if any.
	Err error
}

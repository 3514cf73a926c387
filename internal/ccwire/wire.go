// Package ccwire is Claude Code's command-hook protocol on the wire: the
// event a hook reads on stdin and the answer it prints on stdout. Package
// hooks speaks it to the command hooks it runs, and toolgate check speaks it
// to Claude Code; both use these types, so the two sides cannot drift apart.
package ccwire

import "encoding/json"

// Event names of the hook protocol.
const (
	PreToolUse         = "PreToolUse"
	PostToolUse        = "PostToolUse"
	PostToolUseFailure = "PostToolUseFailure"
)

// Event is one hook event, as Claude Code writes it on a command hook's
// stdin. Fields a given event does not have stay empty and are left out
// when written.
type Event struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path,omitempty"`
	Cwd            string `json:"cwd"`
	PermissionMode string `json:"permission_mode,omitempty"`
	HookEventName  string `json:"hook_event_name"`
	ToolName       string `json:"tool_name,omitempty"`
	// ToolInput is the call's input, a JSON object.
	ToolInput json.RawMessage `json:"tool_input,omitempty"`
	// ToolResponse is the tool's output (PostToolUse): a JSON string, or
	// the tool's own output object.
	ToolResponse json.RawMessage `json:"tool_response,omitempty"`
	ToolUseID    string          `json:"tool_use_id,omitempty"`
	// Error is why the call failed (PostToolUseFailure).
	Error string `json:"error,omitempty"`
	// Reason and Trigger belong to session and compaction events.
	Reason  string `json:"reason,omitempty"`
	Trigger string `json:"trigger,omitempty"`
	// AgentName and Step are toolgate's own additions for the command
	// hooks it runs: the agent acting, and its step.
	AgentName string `json:"agent_name,omitempty"`
	Step      int    `json:"step,omitempty"`
}

// Answer is what a hook prints on stdout. Every field is optional.
type Answer struct {
	// Continue false stops the agent, with StopReason.
	Continue   *bool  `json:"continue,omitempty"`
	StopReason string `json:"stopReason,omitempty"`
	// SystemMessage is shown to the person.
	SystemMessage string `json:"systemMessage,omitempty"`
	// Decision "block" (or the older "approve") with Reason is the
	// event-independent form of an answer.
	Decision string `json:"decision,omitempty"`
	Reason   string `json:"reason,omitempty"`
	// Specific is the event's own answer.
	Specific *Specific `json:"hookSpecificOutput,omitempty"`
}

// Specific is the hookSpecificOutput of an answer.
type Specific struct {
	// HookEventName names the event answered; Claude Code checks it.
	HookEventName string `json:"hookEventName"`
	// PermissionDecision ("allow", "ask", "deny") and its reason answer a
	// PreToolUse event.
	PermissionDecision       string `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	// UpdatedInput replaces the call's input (PreToolUse).
	UpdatedInput json.RawMessage `json:"updatedInput,omitempty"`
	// AdditionalContext is added to the model's context.
	AdditionalContext string `json:"additionalContext,omitempty"`
	// UpdatedToolOutput replaces the output the model sees (PostToolUse),
	// in the tool's own output shape; UpdatedMCPToolOutput does the same
	// for MCP tools in older versions.
	UpdatedToolOutput    json.RawMessage `json:"updatedToolOutput,omitempty"`
	UpdatedMCPToolOutput json.RawMessage `json:"updatedMCPToolOutput,omitempty"`
}

// SpecificOrZero returns a's hookSpecificOutput, or an empty one when a has
// none, so that readers need not check.
func (a *Answer) SpecificOrZero() Specific {
	if a.Specific == nil {
		return Specific{}
	}
	return *a.Specific
}

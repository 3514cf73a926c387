package hookstest

import (
	"encoding/json"
	"time"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
)

// Defaults used by the event builders.
const (
	SessionID = "test-session"
	AgentName = "lead"
	CallID    = "call-1"
	Cwd       = "/work/project"
	Mode      = "default"
)

// SessionStart returns a SessionStart event for [SessionID].
func SessionStart() hooks.SessionStartEvent {
	return hooks.SessionStartEvent{SessionID: SessionID, AgentName: AgentName, Cwd: Cwd, PermissionMode: Mode}
}

// PreToolUse returns a PreToolUse event at step 1 for a call of tool with
// input, a JSON object given as text.
func PreToolUse(tool, input string) hooks.PreToolUseEvent {
	return hooks.PreToolUseEvent{SessionID: SessionID, AgentName: AgentName, Step: 1, ToolName: tool, CallID: CallID,
		Input: json.RawMessage(input), Cwd: Cwd, PermissionMode: Mode}
}

// PostToolUse returns a PostToolUse event at step 1 for an allowed call of
// tool with input that succeeded with output after 5 ms.
func PostToolUse(tool, input, output string) hooks.PostToolUseEvent {
	return hooks.PostToolUseEvent{SessionID: SessionID, AgentName: AgentName, Step: 1, ToolName: tool, CallID: CallID,
		Input: json.RawMessage(input), Output: output, Elapsed: 5 * time.Millisecond,
		Decision: permission.Allow, Reason: "allowed for the test", Cwd: Cwd, PermissionMode: Mode}
}

// StepComplete returns a StepComplete event for step with one call.
func StepComplete(step int) hooks.StepCompleteEvent {
	return hooks.StepCompleteEvent{SessionID: SessionID, AgentName: AgentName, Step: step, Calls: 1, Elapsed: 10 * time.Millisecond}
}

// SessionStop returns a SessionStop event after 3 steps with reason.
func SessionStop(reason string) hooks.SessionStopEvent {
	return hooks.SessionStopEvent{SessionID: SessionID, AgentName: AgentName, Step: 3, Reason: reason, Elapsed: time.Second}
}

// SubagentStart returns a SubagentStart event starting subagent with task.
func SubagentStart(subagent, task string) hooks.SubagentStartEvent {
	return hooks.SubagentStartEvent{SessionID: SessionID, AgentName: AgentName, Step: 1, CallID: CallID,
		Subagent: subagent, ChildSessionID: SessionID + "/" + subagent, Task: task}
}

// SubagentStop returns a SubagentStop event for subagent ending with output.
func SubagentStop(subagent, output string) hooks.SubagentStopEvent {
	return hooks.SubagentStopEvent{SessionID: SessionID, AgentName: AgentName, Step: 1, CallID: CallID,
		Subagent: subagent, ChildSessionID: SessionID + "/" + subagent, Output: output, Elapsed: time.Second}
}

// PreCompact returns a PreCompact event with trigger ("auto" or "manual").
func PreCompact(trigger string) hooks.PreCompactEvent {
	return hooks.PreCompactEvent{SessionID: SessionID, AgentName: AgentName, Step: 2, Trigger: trigger, Tokens: 150000}
}

// PostCompact returns a PostCompact event with trigger.
func PostCompact(trigger string) hooks.PostCompactEvent {
	return hooks.PostCompactEvent{SessionID: SessionID, AgentName: AgentName, Step: 2, Trigger: trigger, TokensBefore: 150000, TokensAfter: 20000}
}

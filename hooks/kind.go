package hooks

import "strconv"

// Event names a lifecycle event. Its String form is the event's name in
// Claude Code's hook protocol (hook_event_name), such as "PreToolUse".
type Event uint8

// The lifecycle events, one per [Hook] field. The zero Event is none of
// them.
const (
	EventSessionStart  Event = iota + 1 // a session begins
	EventPreToolUse                     // before a tool call is judged
	EventPostToolUse                    // after a tool call was judged and, if allowed, ran
	EventStepComplete                   // a step (model turn) ended
	EventSessionStop                    // a session ends
	EventSubagentStart                  // the session starts a subagent
	EventSubagentStop                   // a subagent of the session ends
	EventPreCompact                     // before the history is compacted
	EventPostCompact                    // after the history was compacted
)

var eventNames = [...]string{"", "SessionStart", "PreToolUse", "PostToolUse", "StepComplete", "SessionEnd", "SubagentStart", "SubagentStop", "PreCompact", "PostCompact"}

// String returns the event's name as Claude Code spells it. SessionStop is
// Claude Code's "SessionEnd" and StepComplete, which Claude Code lacks, is
// "StepComplete".
func (e Event) String() string {
	if e > 0 && int(e) < len(eventNames) {
		return eventNames[e]
	}
	return "Event(" + strconv.Itoa(int(e)) + ")"
}

package main

import (
	"encoding/json"
	"fmt"
)

// claudeOtherEvents are Claude Code's hook events that are not a tool
// call (2.1.332's list, and PermissionRequest, which toolgate check does
// not answer): they get the empty answer, which grants nothing. Exit
// status 2, the block of an unknown event, would mean something else for
// several of them (a Stop hook's exit 2 keeps the agent going).
var claudeOtherEvents = map[string]bool{
	"UserPromptSubmit": true, "UserPromptExpansion": true, "SessionStart": true, "SessionEnd": true, "Setup": true,
	"Stop": true, "StopFailure": true, "SubagentStart": true, "SubagentStop": true, "PreCompact": true, "PostCompact": true,
	"PreModelSwitch": true, "PostModelSwitch": true, "Notification": true, "Elicitation": true, "ElicitationResult": true,
	"ConfigChange": true, "InstructionsLoaded": true, "DirectoryAdded": true, "PermissionRequest": true,
	"PermissionDenied": true, "PostToolBatch": true, "TeammateIdle": true, "TaskCompleted": true, "TaskCreated": true,
	"WorktreeCreate": true, "WorktreeRemove": true, "CwdChanged": true, "FileChanged": true,
}

// blockUnknown answers an event of a name no host toolgate knows uses
// (one a later release adds, before toolgate judges it): it may be a tool
// call, so it is refused in the way that blocks on every host at once.
// Exit status 2 blocks a Claude Code PreToolUse hook (stderr goes to the
// model), a Codex one, and a Gemini CLI BeforeTool hook (Gemini parses
// stdout's JSON first, then stderr); the JSON on stdout is a deny in
// Claude Code's shape and Gemini's top-level one together.
func blockUnknown(e env, name string) int {
	reason := fmt.Sprintf("toolgate: the hook event %q is not one toolgate check knows; refused, since it may be a tool call", name)
	ans := struct {
		Decision string `json:"decision"`
		Reason   string `json:"reason"`
		Specific any    `json:"hookSpecificOutput"`
	}{"deny", reason, map[string]string{"hookEventName": eventPre, "permissionDecision": "deny", "permissionDecisionReason": reason}}
	b, _ := json.Marshal(ans)
	_, _ = e.stdout.Write(append(b, '\n'))
	fmt.Fprintln(e.stderr, reason)
	return 2
}

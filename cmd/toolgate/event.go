package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/toolgate/toolgate/internal/ccwire"
)

// maxEventBytes bounds the hook event read from stdin. PostToolUse events
// carry the tool's output, so the bound is generous.
const maxEventBytes = 16 << 20

// event is one Claude Code hook event, as Claude Code writes it on a
// command hook's stdin: the one wire format of internal/ccwire.
type event = ccwire.Event

// Hook event names toolgate check judges: before a call, after it ran,
// and after it failed. Every other event (SessionStart, UserPromptSubmit,
// Stop, SubagentStop, Notification, PreCompact, PermissionRequest and any
// that a later Claude Code adds) gets the empty answer.
const (
	eventPre         = ccwire.PreToolUse
	eventPost        = ccwire.PostToolUse
	eventPostFailure = ccwire.PostToolUseFailure
)

// errNotJudged is parseEvent's error for an event toolgate check does not
// judge.
var errNotJudged = errors.New("an event toolgate check does not judge")

// parseEvent decodes an event. It returns what it could read even on error,
// so that the answer can take the event's shape.
func parseEvent(data []byte) (event, error) {
	var e event
	if len(bytes.TrimSpace(data)) == 0 {
		return e, errors.New("no hook event on stdin")
	}
	if len(data) > maxEventBytes {
		return e, fmt.Errorf("the hook event is larger than %d bytes", maxEventBytes)
	}
	if err := json.Unmarshal(data, &e); err != nil {
		// A wrongly typed field still leaves the event name readable.
		var name struct {
			HookEventName string `json:"hook_event_name"`
		}
		_ = json.Unmarshal(data, &name)
		return event{HookEventName: name.HookEventName}, fmt.Errorf("the hook event is not valid JSON of the expected shape: %v", err)
	}
	switch e.HookEventName {
	case eventPre, eventPost, eventPostFailure:
	case "":
		return e, errors.New("the hook event has no hook_event_name")
	default:
		return e, errNotJudged
	}
	var missing []string
	if e.SessionID == "" {
		missing = append(missing, "session_id")
	}
	if e.Cwd == "" {
		missing = append(missing, "cwd")
	}
	if e.ToolName == "" {
		missing = append(missing, "tool_name")
	}
	if len(e.ToolInput) == 0 || string(e.ToolInput) == "null" {
		missing = append(missing, "tool_input")
	}
	if len(missing) > 0 {
		return e, fmt.Errorf("the hook event lacks %v", missing)
	}
	if !filepath.IsAbs(e.Cwd) {
		return e, fmt.Errorf("the hook event's cwd %q is not an absolute path", e.Cwd)
	}
	return e, nil
}

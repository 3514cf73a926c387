package main

import (
	"encoding/json"
	"io"

	"github.com/toolgate/toolgate/internal/ccwire"
)

// The answers toolgate check prints are ccwire.Answer values: the one wire
// format the hooks package also speaks to the command hooks it runs.

// denyAnswer denies a PreToolUse call with reason.
func denyAnswer(reason string) ccwire.Answer {
	return ccwire.Answer{Specific: &ccwire.Specific{HookEventName: eventPre, PermissionDecision: "deny", PermissionDecisionReason: "toolgate: " + reason}}
}

// postFailure answers a PostToolUse event whose hooks could not run: the
// call has run, so the person is told in a system message.
func postFailure(msg string) ccwire.Answer {
	return ccwire.Answer{SystemMessage: "toolgate: " + msg, Specific: &ccwire.Specific{HookEventName: eventPost}}
}

// writeJSON writes v as one line of JSON.
func writeJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"toolgate: cannot encode the answer"}}`)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

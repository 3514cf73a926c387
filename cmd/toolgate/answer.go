package main

import (
	"encoding/json"
	"io"
)

// preAnswer is Claude Code's answer to a PreToolUse event.
type preAnswer struct {
	HookSpecificOutput preOutput `json:"hookSpecificOutput"`
}

type preOutput struct {
	HookEventName            string          `json:"hookEventName"`
	PermissionDecision       string          `json:"permissionDecision"`
	PermissionDecisionReason string          `json:"permissionDecisionReason"`
	UpdatedInput             json.RawMessage `json:"updatedInput,omitempty"`
	AdditionalContext        string          `json:"additionalContext,omitempty"`
}

// postAnswer is Claude Code's answer to a PostToolUse event.
type postAnswer struct {
	// SystemMessage is shown to the person: toolgate reports failures
	// here, since the call has already run.
	SystemMessage      string     `json:"systemMessage,omitempty"`
	HookSpecificOutput postOutput `json:"hookSpecificOutput"`
}

type postOutput struct {
	HookEventName     string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext,omitempty"`
	// UpdatedToolOutput replaces the output the model sees (Claude Code
	// 2.1.121 and later, every tool); UpdatedMCPToolOutput does the same
	// for MCP tools in earlier versions.
	UpdatedToolOutput    *string `json:"updatedToolOutput,omitempty"`
	UpdatedMCPToolOutput *string `json:"updatedMCPToolOutput,omitempty"`
}

func denyAnswer(reason string) preAnswer {
	return preAnswer{preOutput{HookEventName: eventPre, PermissionDecision: "deny", PermissionDecisionReason: "toolgate: " + reason}}
}

func postFailure(msg string) postAnswer {
	return postAnswer{SystemMessage: "toolgate: " + msg, HookSpecificOutput: postOutput{HookEventName: eventPost}}
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

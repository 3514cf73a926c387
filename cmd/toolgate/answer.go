package main

import (
	"encoding/json"
	"io"
	"sort"

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

// failureFailure answers a PostToolUseFailure event whose hooks could not
// run.
func failureFailure(msg string) ccwire.Answer {
	return ccwire.Answer{SystemMessage: "toolgate: " + msg, Specific: &ccwire.Specific{HookEventName: eventPostFailure}}
}

// failAnswer is the answer to an event that toolgate could not handle, in
// the event's own shape: a PreToolUse deny (also when the event's name is
// missing or unreadable, so that a call is never let through), a post
// event's systemMessage, or the empty answer {} for any other event
// (SessionStart, UserPromptSubmit, Stop, Notification, ...), which every
// event accepts and which grants nothing: Claude Code goes on as without
// the hook.
func failAnswer(name, msg string) ccwire.Answer {
	switch name {
	case eventPost:
		return postFailure(msg)
	case eventPostFailure:
		return failureFailure(msg)
	case eventPre, "":
		return denyAnswer(msg)
	}
	return ccwire.Answer{}
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

// textFields names, for the built-in tools whose output carries one text,
// where that text is in the tool's output object (Claude Code's
// sdk-tools.d.ts, 2.1.332): a rewritten output goes there, so that the
// answer keeps the tool's shape, which Claude Code checks before it uses
// updatedToolOutput.
var textFields = map[string][]string{
	"Bash":     {"stdout"},
	"Read":     {"file", "content"},
	"Grep":     {"content"},
	"WebFetch": {"result"},
	"Agent":    {"content"},
	"Task":     {"content"},
}

// shapeOutput is the rewritten output text in the shape Claude Code wants
// for tool, whose original response was orig; note is for the person when
// the rewrite could only be fitted roughly.
//
//   - an MCP tool, or a tool whose response was a string: the text as a
//     JSON string;
//   - a rewrite that is itself a JSON object (a hook that edited the JSON
//     text it was given): that object;
//   - Bash: {stdout: text, stderr: "", interrupted, isImage: false}, the
//     original's interrupted kept, so that stderr cannot leak what the
//     hook took out of stdout;
//   - another tool with a known text field: the original object with that
//     field set to the text and every other string emptied;
//   - any other object: the original with every string emptied but the
//     first, which holds the text. Nothing of the original's text is
//     passed on in any case: a redaction must not fail open.
func shapeOutput(tool string, orig json.RawMessage, text string) (json.RawMessage, string) {
	str, _ := json.Marshal(text)
	var obj map[string]any
	if isMCPName(tool) || json.Unmarshal(orig, &obj) != nil || obj == nil {
		return str, ""
	}
	var rewritten map[string]any
	if json.Unmarshal([]byte(text), &rewritten) == nil && rewritten != nil {
		return json.RawMessage(text), ""
	}
	if tool == "Bash" {
		interrupted, _ := obj["interrupted"].(bool)
		b, _ := json.Marshal(map[string]any{"stdout": text, "stderr": "", "interrupted": interrupted, "isImage": false})
		return b, ""
	}
	note := ""
	blanked := blankStrings(obj, "").(map[string]any)
	if path, ok := textFields[tool]; ok && setPath(blanked, path, text) {
		b, _ := json.Marshal(blanked)
		return b, ""
	}
	placed := false
	blanked = blankStrings(obj, "").(map[string]any)
	fillFirstString(blanked, text, &placed)
	if !placed {
		note = "a PostToolUse hook rewrote " + tool + "'s output, which has no text field: the model sees it emptied"
	} else {
		note = "a PostToolUse hook rewrote " + tool + "'s output: the text is put in its first text field, the rest emptied"
	}
	b, _ := json.Marshal(blanked)
	return b, note
}

// blankStrings is v with every string replaced by s, except the values of
// "type" and "mode" keys, which name a variant of the shape.
func blankStrings(v any, s string) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			if str, ok := e.(string); ok && (k == "type" || k == "mode") {
				m[k] = str
				continue
			}
			m[k] = blankStrings(e, s)
		}
		return m
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = blankStrings(e, s)
		}
		return a
	case string:
		return s
	}
	return v
}

// setPath sets the string at path in m, if a string is there.
func setPath(m map[string]any, path []string, text string) bool {
	for i, k := range path {
		if i == len(path)-1 {
			if _, ok := m[k].(string); !ok {
				return false
			}
			m[k] = text
			return true
		}
		next, ok := m[k].(map[string]any)
		if !ok {
			return false
		}
		m = next
	}
	return false
}

// fillFirstString puts text in the first string of v, in sorted key
// order, that is not a "type" or a "mode".
func fillFirstString(v any, text string, placed *bool) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if *placed {
				return
			}
			if _, ok := x[k].(string); ok {
				if k != "type" && k != "mode" {
					x[k], *placed = text, true
				}
				continue
			}
			fillFirstString(x[k], text, placed)
		}
	case []any:
		for i, e := range x {
			if *placed {
				return
			}
			if _, ok := e.(string); ok {
				x[i], *placed = text, true
				continue
			}
			fillFirstString(e, text, placed)
		}
	}
}

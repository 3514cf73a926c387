package runtime

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/jsonin"
	"github.com/toolgate/toolgate/permission"
)

// nest wraps v in n levels of the shape open…close.
func nest(open, v, close string, n int) json.RawMessage {
	return json.RawMessage(strings.Repeat(open, n) + v + strings.Repeat(close, n))
}

// TestPipelineInputBounds: an input nested deeper than the bound is a
// Deny that says so, however deep (past encoding/json's own bound too);
// an input over the size bound is denied for its size whatever its shape,
// before anything parses it.
func TestPipelineInputBounds(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Allow}, nil)
	w.start(t, "s1", permission.ModeDefault)
	deep := func(n int) json.RawMessage {
		return json.RawMessage(`{"file_path":"src/main.go","x":` + string(nest(`{"a":`, "1", "}", n)) + `}`)
	}
	tooBig := append(json.RawMessage(`{"file_path":"src/main.go","x":`), nest("[", "", "]", DefaultMaxInputBytes)...)
	tooBig = append(tooBig, '}')
	cases := []pcase{
		{"nesting at the bound", "Read", deep(jsonin.MaxDepth - 1), permission.Allow, permission.LayerRules, "default", "default for read tools is allow"},
		{"objects one past the bound", "Read", deep(jsonin.MaxDepth), permission.Deny, permission.LayerTraits, "input:too-deep", "nested deeper than 128"},
		{"objects far past the bound", "Read", deep(100_000), permission.Deny, permission.LayerTraits, "input:too-deep", "nested deeper than 128"},
		{"arrays past encoding/json's bound", "Read", nest("[", "", "]", 200_000), permission.Deny, permission.LayerTraits, "input:too-deep", "nested deeper than 128"},
		{"unclosed nesting", "Read", json.RawMessage(`{"x":` + strings.Repeat(`[{"a":`, 80_000)), permission.Deny, permission.LayerTraits, "input:too-deep", "nested deeper than 128"},
		{"too big and deep", "Read", tooBig, permission.Deny, permission.LayerTraits, "input:too-big", "over the limit of 1048576"},
		{"too big and flat", "Read", json.RawMessage(`{"file_path":"` + strings.Repeat("a", DefaultMaxInputBytes) + `"}`), permission.Deny, permission.LayerTraits, "input:too-big", "over the limit"},
		{"invalid, shallow", "Read", json.RawMessage(`{"file_path":"x",}`), permission.Deny, permission.LayerTraits, "input:not-object", "not a JSON object"},
	}
	runCases(t, w, "s1", cases)
}

// TestPipelineRequiredFields: a file tool's path is required; a call
// without it, with null or with an empty string is bad input, denied with
// the reason, whatever the mode or the rules. A tool whose path is
// optional (Glob, Grep: the working directory) is judged as before.
func TestPipelineRequiredFields(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Allow, Allow: []string{"Read", "Write", "Edit"}}, nil)
	w.start(t, "s1", permission.ModeBypassPermissions)
	cases := []pcase{
		{"Read without a path", "Read", json.RawMessage(`{}`), permission.Deny, permission.LayerTraits, "input:missing-field", `input field "file_path" is missing: Read needs it`},
		{"Read with an empty path", "Read", json.RawMessage(`{"file_path":""}`), permission.Deny, permission.LayerTraits, "input:missing-field", `input field "file_path" is empty: Read needs it`},
		{"Read with a null path", "Read", json.RawMessage(`{"file_path":null,"limit":3}`), permission.Deny, permission.LayerTraits, "input:missing-field", `"file_path" is missing`},
		{"Write without a path", "Write", json.RawMessage(`{"content":"x"}`), permission.Deny, permission.LayerTraits, "input:missing-field", `"file_path" is missing: Write needs it`},
		{"Edit with an empty path", "Edit", json.RawMessage(`{"file_path":"","old_string":"a","new_string":"b"}`), permission.Deny, permission.LayerTraits, "input:missing-field", `"file_path" is empty`},
		{"NotebookEdit without a path", "NotebookEdit", json.RawMessage(`{"new_source":"x"}`), permission.Deny, permission.LayerTraits, "input:missing-field", `"notebook_path" is missing`},
		{"Glob without a path", "Glob", json.RawMessage(`{"pattern":"src/*.go"}`), permission.Allow, permission.LayerRules, "Read", "allowed by allow rule Read"},
		{"Read with a path", "Read", in("file_path", "src/main.go"), permission.Allow, permission.LayerRules, "Read", "allowed by allow rule Read"},
	}
	runCases(t, w, "s1", cases)
}

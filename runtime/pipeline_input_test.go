package runtime

import (
	"encoding/json"
	"strings"
	"testing"

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
		{"nesting at the bound", "Read", deep(maxInputDepth - 1), permission.Allow, permission.LayerRules, "default", "default for read tools is allow"},
		{"objects one past the bound", "Read", deep(maxInputDepth), permission.Deny, permission.LayerTraits, "input:too-deep", "nested deeper than 128"},
		{"objects far past the bound", "Read", deep(100_000), permission.Deny, permission.LayerTraits, "input:too-deep", "nested deeper than 128"},
		{"arrays past encoding/json's bound", "Read", nest("[", "", "]", 200_000), permission.Deny, permission.LayerTraits, "input:too-deep", "nested deeper than 128"},
		{"unclosed nesting", "Read", json.RawMessage(`{"x":` + strings.Repeat(`[{"a":`, 80_000)), permission.Deny, permission.LayerTraits, "input:too-deep", "nested deeper than 128"},
		{"too big and deep", "Read", tooBig, permission.Deny, permission.LayerTraits, "input:too-big", "over the limit of 1048576"},
		{"too big and flat", "Read", json.RawMessage(`{"file_path":"` + strings.Repeat("a", DefaultMaxInputBytes) + `"}`), permission.Deny, permission.LayerTraits, "input:too-big", "over the limit"},
		{"invalid, shallow", "Read", json.RawMessage(`{"file_path":"x",}`), permission.Deny, permission.LayerTraits, "input:not-object", "not a JSON object"},
	}
	runCases(t, w, "s1", cases)
}

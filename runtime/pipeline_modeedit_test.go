package runtime

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime/tool"
)

// acceptEdits and auto allow an edit only when every path it touches was
// judged inside the roots: an edit-kind call that names no path (an empty
// or absent path field, a custom edit tool with none declared) touches
// what nobody judged, and asks.
func TestModeEditNamingNoPathAsks(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Ask}, nil)
	w.reconfigure(t, func(c *Config) {
		tools, err := c.Tools.With(
			// A custom edit tool whose path field is optional.
			&tool.Descriptor{ToolName: "save_note", Base: tool.Traits{Kind: permission.KindEdit, PathFields: []string{"path"}}},
			// One that moves a file: two paths.
			&tool.Descriptor{ToolName: "move_file", Base: tool.Traits{Kind: permission.KindEdit, PathFields: []string{"from", "to"}}},
			// One that declares no path at all.
			&tool.Descriptor{ToolName: "save_memory", Base: tool.Traits{Kind: permission.KindEdit}},
		)
		require.NoError(t, err)
		c.Tools = tools
	})
	asks := "no rule matched; the default for edit tools is ask"
	for _, mode := range []permission.Mode{permission.ModeAcceptEdits, permission.ModeAuto} {
		allowed := mode.String() + " mode: allowed an edit inside the allowed roots that would ask"
		id := "s-" + mode.String()
		w.start(t, id, mode)
		for _, c := range []struct {
			name  string
			tool  string
			input string
			want  permission.Decision
			rule  string
			why   string
		}{
			{"a path inside", "save_note", `{"path":"notes.txt","text":"x"}`, permission.Allow, "mode:" + mode.String(), allowed},
			{"an empty path", "save_note", `{"path":"","text":"x"}`, permission.Ask, "default", asks},
			{"no path field", "save_note", `{"text":"x"}`, permission.Ask, "default", asks},
			{"a null path", "save_note", `{"path":null,"text":"x"}`, permission.Ask, "default", asks},
			{"both paths inside", "move_file", `{"from":"a.txt","to":"b.txt"}`, permission.Allow, "mode:" + mode.String(), allowed},
			{"one of two paths absent", "move_file", `{"from":"a.txt"}`, permission.Ask, "default", asks},
			{"one of two paths empty", "move_file", `{"from":"a.txt","to":""}`, permission.Ask, "default", asks},
			{"no path declared", "save_memory", `{"fact":"x"}`, permission.Ask, "default", asks},
			{"the built-in Write, inside", "Write", `{"file_path":"notes.txt","content":"x"}`, permission.Allow, "mode:" + mode.String(), allowed},
		} {
			v := w.p.Check(context.Background(), Call{Session: id, Tool: c.tool, Input: json.RawMessage(c.input)})
			assert.Equal(t, c.want, v.Decision, "%s, %s: %s", mode, c.name, v.Reason)
			assert.Equal(t, c.rule, string(v.Rule), "%s, %s: rule", mode, c.name)
			assert.Contains(t, v.Reason, c.why, "%s, %s: reason", mode, c.name)
		}
	}
}

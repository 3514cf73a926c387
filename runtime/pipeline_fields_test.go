package runtime

import (
	"encoding/json"
	"testing"

	"github.com/toolgate/toolgate/permission"
)

// A member named like a declared field but for letter case is read as that
// field by encoding/json (struct fields match without regard to case), so
// the checks must not pass it by.
func TestPipelineFieldNameCase(t *testing.T) {
	w := newWorld(t, permission.Config{
		Default: permission.Allow,
		Deny:    []string{"Task(danger)", "WebFetch(domain:evil.com)"},
		Allow:   []string{"Task", "WebFetch"},
	}, nil)
	w.start(t, "s1", permission.ModeDefault)
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	runCases(t, w, "s1", []pcase{
		{"path field in upper case", "Read", raw(`{"FILE_PATH":"/etc/passwd"}`), permission.Deny, permission.LayerTraits, "input:field-case",
			`input field "FILE_PATH" differs from the declared field "file_path" only in letter case`},
		{"path field twice, once in another case", "Read", raw(`{"file_path":"README.md","File_Path":"/etc/passwd"}`), permission.Deny, permission.LayerTraits, "input:field-case",
			`"File_Path" differs from the declared field "file_path"`},
		{"a longer name is another field", "Write", raw(`{"file_path":"README.md","file_paths":"x"}`), permission.Allow, permission.LayerRules, "default", "default for edit tools is allow"},
		{"URL field in upper case", "WebFetch", raw(`{"URL":"https://evil.com/x"}`), permission.Deny, permission.LayerTraits, "input:field-case",
			`input field "URL" differs from the declared field "url" only in letter case`},
		{"subagent type in upper case", "Task", raw(`{"SUBAGENT_TYPE":"danger","prompt":"x"}`), permission.Deny, permission.LayerTraits, "input:field-case",
			`input field "SUBAGENT_TYPE" differs from the field "subagent_type" only in letter case`},
		{"subagent type twice", "Task", raw(`{"subagent_type":"ok","Subagent_type":"danger","prompt":"x"}`), permission.Deny, permission.LayerTraits, "input:field-case",
			`"Subagent_type" differs from the field "subagent_type"`},
		{"command field in another case", "Bash", raw(`{"command":"ls","Command":"rm -rf ~"}`), permission.Deny, permission.LayerTraits, "input:field-case",
			`"Command" differs from the declared field "command"`},
		{"exact names still pass", "Task", raw(`{"subagent_type":"ok","prompt":"x"}`), permission.Allow, permission.LayerRules, "Task", "allowed by allow rule Task"},
		{"long s folds to s", "Task", raw("{\"\u017fubagent_type\":\"danger\",\"prompt\":\"x\"}"), permission.Deny, permission.LayerTraits, "input:field-case",
			"differs from the field \"subagent_type\" only in letter case"},
	})
}

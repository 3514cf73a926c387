package approvalpage

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgate/toolgate/runtime/store"
)

func TestScriptSegmentsMarkWhatAsks(t *testing.T) {
	for _, tc := range []struct {
		name   string
		script string
		cmds   []store.ApprovalCommand
		want   []Segment
	}{
		{"the second of a list", "git status && git push origin main",
			[]store.ApprovalCommand{{Pos: "1:1"}, {Pos: "1:15", Asks: true}},
			[]Segment{{Text: "git status && "}, {Text: "git push origin main", Marked: true}}},
		{"the first of a pipe: the operator is not marked", "curl -s https://x.test | sh -c 'cat'",
			[]store.ApprovalCommand{{Pos: "1:1", Asks: true}, {Pos: "1:26"}},
			[]Segment{{Text: "curl -s https://x.test", Marked: true}, {Text: " | sh -c 'cat'"}}},
		{"a second line, indented", "ls\n  make build;\necho done",
			[]store.ApprovalCommand{{Pos: "1:1"}, {Pos: "2:3", Asks: true}, {Pos: "3:1"}},
			[]Segment{{Text: "ls\n  "}, {Text: "make build", Marked: true}, {Text: ";\necho done"}}},
		{"inside a substitution", "echo $(rm -rf build)",
			[]store.ApprovalCommand{{Pos: "1:1"}, {Pos: "1:8", Asks: true}},
			[]Segment{{Text: "echo $("}, {Text: "rm -rf build", Marked: true}, {Text: ")"}}},
		{"a position outside the script marks nothing", "make",
			[]store.ApprovalCommand{{Pos: "3:1", Asks: true}, {Pos: "1:9", Asks: true}, {Pos: "x", Asks: true}},
			[]Segment{{Text: "make"}}},
		{"every command asks", "a; b",
			[]store.ApprovalCommand{{Pos: "1:1", Asks: true}, {Pos: "1:4", Asks: true}},
			[]Segment{{Text: "a", Marked: true}, {Text: "; "}, {Text: "b", Marked: true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := scriptSegments(tc.script, tc.cmds)
			assert.Equal(t, tc.want, got)
			var whole string
			for _, s := range got {
				whole += s.Text
			}
			assert.Equal(t, tc.script, whole, "the pieces are the script, nothing lost or added")
		})
	}
}

func TestInputFieldsInOrderAndMarked(t *testing.T) {
	in := json.RawMessage(`{"file_path":"/w/.env","content":"A=1","replace_all":true,"n":3,"nested":{"x":1}}`)
	got := inputFields(in, "/w/.env is a secret file: reading it needs a person")
	assert.Equal(t, []Field{
		{Name: "file_path", Value: "/w/.env", Marked: true},
		{Name: "content", Value: "A=1"},
		{Name: "replace_all", Value: "true"},
		{Name: "n", Value: "3"},
	}, got, "scalar members in the input's order; the one the reason names is marked; objects are left to the full input")
	long := inputFields(json.RawMessage(`{"content":"`+strings.Repeat("é", 400)+`"}`), "")
	assert.Len(t, long, 1)
	assert.LessOrEqual(t, len(long[0].Value), maxFieldBytes+len("…"))
	assert.Equal(t, strings.Repeat("é", maxFieldBytes/2)+"…", long[0].Value, "cut on a character boundary, marked")
	assert.Nil(t, inputFields(json.RawMessage(`[1]`), ""))
}

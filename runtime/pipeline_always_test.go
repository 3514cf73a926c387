package runtime

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime/approval"
)

// An "allow always" answer to a file tool records one rule for the real
// path the call touched.
func TestAllowAlwaysRecordsThePath(t *testing.T) {
	person := &asked{answers: map[string]approval.Choice{"Edit": approval.AllowAlways}}
	w := newWorld(t, exampleRules, person)
	w.start(t, "s", permission.ModeDefault)
	real := filepath.Join(w.dir, "README.md")
	rule := "Edit(/" + real + ")"

	v := w.p.Check(context.Background(), Call{Session: "s", ID: "1", Tool: "Edit", Input: in("file_path", "README.md", "old_string", "a", "new_string", "b")})
	assert.Equal(t, permission.Allow, v.Decision)
	assert.Equal(t, "person:allow-always", string(v.Rule))
	assert.Contains(t, v.Reason, "; added session rules "+rule)
	assert.Equal(t, []string{rule}, person.last().AlwaysRules)

	v = w.p.Check(context.Background(), Call{Session: "s", ID: "2", Tool: "Edit", Input: in("file_path", "README.md", "old_string", "b", "new_string", "c")})
	assert.Equal(t, permission.Allow, v.Decision)
	assert.Equal(t, permission.LayerRules, v.Layer)
	assert.Equal(t, rule, string(v.Rule))
	assert.Equal(t, "allowed by allow rule "+rule+" (session)", v.Reason)
	assert.Equal(t, 1, person.count(), "asked once")
}

package runtime_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

// Claude Code 2.1.332 consults no Write(path) rule: its allow lets nothing
// through (the edit tools answer to Edit(path)), and its deny is kept, as
// it only narrows.
func TestWritePathAllowRuleIsInert(t *testing.T) {
	dir := workspaceDir(t)
	p, err := runtime.Open(runtime.Workspace{Dir: dir, Rules: permission.Config{
		Allow: []string{"Write(./w2/**)", "Edit(./e2/**)"}, Deny: []string{"Write(./w1/**)"}, Default: permission.Ask}})
	require.NoError(t, err)
	ctx := context.Background()
	sess, err := p.Session(ctx, runtime.SessionOptions{ID: "s"})
	require.NoError(t, err)
	defer sess.End("done", "", nil)
	for _, tc := range []struct {
		file   string
		want   permission.Decision
		reason string
	}{
		{"w2/new.txt", permission.Ask, "the default for edit tools is ask"},
		{"e2/new.txt", permission.Allow, "allowed by allow rule Edit(./e2/**)"},
		{"w1/new.txt", permission.Deny, "denied by deny rule Write(./w1/**)"},
	} {
		in, err := json.Marshal(map[string]string{"file_path": filepath.Join(dir, tc.file), "content": "x\n"})
		require.NoError(t, err)
		v := p.Check(ctx, runtime.Call{Session: "s", Tool: "Write", Input: in})
		assert.Equal(t, tc.want, v.Decision, "%s: %s", tc.file, v.Reason)
		assert.Contains(t, v.Reason, tc.reason, "%s", tc.file)
	}
}

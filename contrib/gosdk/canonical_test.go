package gosdk_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/contrib/gosdk"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/tool"
)

// A later round carries the call's input again, compared in the library's
// canonical form (runtime.CanonicalInput): the same input written another
// way continues the call; an input the pipeline cannot read (a key twice,
// nested too deep) continues nothing and is refused with Check's reason,
// whatever a last-wins decoder would have made of it.
func TestRoundInputCanonical(t *testing.T) {
	for _, side := range []string{"server", "client"} {
		t.Run(side, func(t *testing.T) {
			dir, err := filepath.EvalSymlinks(t.TempDir())
			require.NoError(t, err)
			p, err := runtime.Open(runtime.Workspace{Dir: dir, Rules: permission.Config{Allow: []string{"mcp__files__write_file"}}})
			require.NoError(t, err)
			require.NoError(t, p.AddTools(&tool.Descriptor{ToolName: "mcp__files__write_file",
				Base: tool.Traits{Kind: permission.KindEdit, PathFields: []string{"path"}, RequiredFields: []string{"path"}}}))
			var wrote atomic.Int32
			s := confirmServer(&wrote)
			c := mcp.NewClient(&mcp.Implementation{Name: "agent"}, &mcp.ClientOptions{
				MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}})
			o := gosdk.Options{Prefix: "mcp__files__"}
			if side == "server" {
				s.AddReceivingMiddleware(gosdk.ServerMiddleware(p, o))
			} else {
				c.AddSendingMiddleware(gosdk.ClientMiddleware(p, o))
			}
			cs := connect(t, s, c)
			a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
			qa, qb := jsonString(t, a), jsonString(t, b)
			send := func(input, state string, resp mcp.InputResponseMap) *mcp.CallToolResult {
				t.Helper()
				r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "write_file",
					Arguments: json.RawMessage(input), InputResponses: resp, RequestState: state})
				require.NoError(t, err)
				return r
			}
			r := send(`{"path":`+qa+`,"content":"x"}`, "", nil)
			require.True(t, r.NeedsInput(), "the tool asks its question: %s", text(r))
			state := r.RequestState
			require.True(t, strings.HasPrefix(state, "toolgate-"), "the middleware's own state: %q", state)
			confirm := mcp.InputResponseMap{"confirm": &mcp.ElicitResult{Action: "accept"}}

			deep := `{"path":` + qa + `,"content":"x","n":` + strings.Repeat("[", 130) + strings.Repeat("]", 130) + `}`
			for _, c := range []struct{ name, input, reason string }{
				{"a key twice, the last one the first round's", `{"path":` + qb + `,"path":` + qa + `,"content":"x"}`,
					`input is not a JSON object: duplicate object key "path"`},
				{"a nested key twice", `{"path":` + qa + `,"content":"x","o":{"k":1,"k":1}}`,
					`input is not a JSON object: duplicate object key "k"`},
				{"nested too deep", deep, "input is nested deeper than 128 levels of objects and arrays"},
			} {
				t.Run(c.name, func(t *testing.T) {
					r := send(c.input, state, confirm)
					assert.False(t, r.NeedsInput())
					assert.True(t, r.IsError)
					assert.Contains(t, text(r), "denied (")
					assert.Contains(t, text(r), c.reason)
					assert.Zero(t, wrote.Load())
				})
			}

			// The first round's input written another way: keys in another
			// order, white space, an escaped letter. The call goes on.
			r = send(" {\"content\" : \"\\u0078\", \"p\\u0061th\" : "+qa+"} ", state, confirm)
			require.False(t, r.NeedsInput(), text(r))
			assert.False(t, r.IsError, text(r))
			assert.Equal(t, "wrote "+a, text(r))
			assert.EqualValues(t, 1, wrote.Load())
			assert.NoFileExists(t, b)
		})
	}
}

func jsonString(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	require.NoError(t, err)
	return string(b)
}

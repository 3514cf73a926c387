package mcpgateway_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An answer carries the call's input again, compared in the library's
// canonical form (runtime.CanonicalInput): the same input written another
// way is the same call; an input the pipeline cannot read (a key twice,
// nested too deep) answers nothing and is refused with Check's reason,
// whatever a last-wins decoder would have made of it.
func TestGatewayAnswerInputCanonical(t *testing.T) {
	w := newWorld(t, "up", goUpstreamConfig(t))
	st, ct := mcp.NewInMemoryTransports()
	ss, err := w.g.Server().Connect(context.Background(), st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	c := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "v1"}, &mcp.ClientOptions{
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "decline"}, nil
		}})
	cs, err := c.Connect(context.Background(), ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	accept := mcp.InputResponseMap{"toolgate-approval": &mcp.ElicitResult{Action: "accept"}}
	a, b := filepath.Join(w.dir, "a.txt"), filepath.Join(w.dir, "b.txt")
	qa, qb := jsonString(t, a), jsonString(t, b)
	send := func(input, state string) *mcp.CallToolResult {
		t.Helper()
		r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "mcp__up__write_file",
			Arguments: json.RawMessage(input), InputResponses: accept, RequestState: state})
		require.NoError(t, err)
		return r
	}

	r := send(`{"path":`+qa+`,"content":"x"}`, "")
	require.True(t, r.NeedsInput(), "the write is put to the person: %s", text(r))
	state := r.RequestState

	deep := `{"path":` + qa + `,"content":"x","n":` + strings.Repeat("[", 130) + strings.Repeat("]", 130) + `}`
	for _, c := range []struct{ name, input, reason string }{
		{"a key twice, the last one the asked input's", `{"path":` + qb + `,"path":` + qa + `,"content":"x"}`,
			`input is not a JSON object: duplicate object key "path"`},
		{"a nested key twice", `{"path":` + qa + `,"content":"x","o":{"k":1,"k":1}}`,
			`input is not a JSON object: duplicate object key "k"`},
		{"nested too deep", deep, "input is nested deeper than 128 levels of objects and arrays"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := send(c.input, state)
			assert.False(t, r.NeedsInput(), "not asked again: refused")
			assert.True(t, r.IsError)
			assert.Contains(t, text(r), "denied (")
			assert.Contains(t, text(r), c.reason)
			assert.NoFileExists(t, a)
			assert.NoFileExists(t, b)
		})
	}

	// The asked input written another way: keys in another order, white
	// space, an escaped letter. The question still waits: it answers.
	r = send(" {\"content\" : \"\\u0078\", \"p\\u0061th\" : "+qa+"} ", state)
	require.False(t, r.NeedsInput(), text(r))
	assert.False(t, r.IsError, text(r))
	assert.Equal(t, "wrote "+a, text(r))
	assert.Equal(t, []string{
		"mcp__up__write_file deny", "mcp__up__write_file deny", "mcp__up__write_file deny",
		"mcp__up__write_file allow",
	}, w.auditRows(t))
}

func jsonString(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	require.NoError(t, err)
	return string(b)
}

package mcpgateway_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/contrib/mcpgateway"
	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/runtime"
)

// fronts are the client connections the semantics are checked over: the
// multi round-trip protocol (the SDK's latest, in memory as on stdio),
// an older protocol in memory, and streamable HTTP (which the SDK
// negotiates at the older protocol: the gateway sends the elicitation).
var fronts = []struct{ name, front, version string }{
	{"stdio-latest", "stdio", ""},
	{"stdio-2025-11-25", "stdio", "2025-11-25"},
	{"http", "http", ""},
}

func goUpstreamConfig(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	require.NoError(t, err)
	return strings.Replace(goUpstream, "SELF", self, 1)
}

// An MCP server sees no model turns: more distinct calls than the step
// limit allows steps are all judged on their own.
func TestGatewayNoStepLimit(t *testing.T) {
	for _, f := range fronts {
		t.Run(f.name, func(t *testing.T) {
			w := newWorld(t, "up", goUpstreamConfig(t))
			w.version = f.version
			cs := w.connect(t, f.front)
			n := 2*runtime.DefaultMaxSteps + 1
			for i := range n {
				p := filepath.Join(w.dir, fmt.Sprintf("f%d.txt", i))
				require.NoError(t, os.WriteFile(p, []byte(fmt.Sprintf("file %d", i)), 0o644))
				r := call(t, cs, "mcp__up__read_file", map[string]any{"path": p})
				require.False(t, r.IsError, "call %d of %d: %s", i+1, n, text(r))
				assert.Contains(t, text(r), fmt.Sprintf("file %d", i))
			}
			// Still judged: the repeat limit holds.
			p := filepath.Join(w.dir, "f0.txt")
			for range runtime.DefaultRepeatLimit - 1 {
				r := call(t, cs, "mcp__up__read_file", map[string]any{"path": p})
				require.False(t, r.IsError, text(r))
			}
			r := call(t, cs, "mcp__up__read_file", map[string]any{"path": p})
			assert.True(t, r.IsError)
			assert.Contains(t, text(r), fmt.Sprintf("the same mcp__up__read_file call with the same input %d times in a row", runtime.DefaultRepeatLimit))
		})
	}
}

// The question and the answer of an elicitation are one call for the
// repeat limit: the same write approved twice runs twice, and the third
// identical call in a row is the one the repeat limit denies, unasked.
func TestGatewayElicitationIsOneCall(t *testing.T) {
	for _, f := range fronts {
		t.Run(f.name, func(t *testing.T) {
			w := newWorld(t, "up", goUpstreamConfig(t))
			w.version = f.version
			var asked atomic.Int32
			w.elicit = func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				asked.Add(1)
				return &mcp.ElicitResult{Action: "accept"}, nil
			}
			cs := w.connect(t, f.front)
			target := filepath.Join(w.dir, "same.txt")
			in := map[string]any{"path": target, "content": "x"}
			for i := range runtime.DefaultRepeatLimit - 1 {
				r := call(t, cs, "mcp__up__write_file", in)
				require.False(t, r.IsError, "approval %d: %s", i+1, text(r))
				assert.Equal(t, "wrote "+target, text(r))
			}
			assert.EqualValues(t, runtime.DefaultRepeatLimit-1, asked.Load())
			r := call(t, cs, "mcp__up__write_file", in)
			assert.True(t, r.IsError)
			assert.Contains(t, text(r), "denied (")
			assert.Contains(t, text(r), fmt.Sprintf("the same mcp__up__write_file call with the same input %d times in a row", runtime.DefaultRepeatLimit))
			assert.EqualValues(t, runtime.DefaultRepeatLimit-1, asked.Load(), "a call the repeat limit denies is not put to the person")
			rows := w.auditRows(t)
			assert.Equal(t, []string{"mcp__up__write_file allow", "mcp__up__write_file allow", "mcp__up__write_file deny"}, rows)
		})
	}
}

// Options.AskTimeout bounds an elicitation: a client that does not answer
// gets a Deny with the reason in bounded time (on the multi round-trip
// protocol, where the client holds the question, the Deny is recorded
// when the time is up and is what the late answer gets).
func TestGatewayAskTimeout(t *testing.T) {
	const timeout = 300 * time.Millisecond
	for _, f := range fronts {
		t.Run(f.name, func(t *testing.T) {
			w := newWorldOpts(t, "up", goUpstreamConfig(t), mcpgateway.Options{AskTimeout: timeout})
			w.version = f.version
			release := make(chan struct{})
			w.elicit = func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				select {
				case <-release: // the person answers, too late
					return &mcp.ElicitResult{Action: "accept"}, nil
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
			cs := w.connect(t, f.front)
			answer := sync.OnceFunc(func() { close(release) })
			t.Cleanup(answer) // before the session closes, which waits for the handler
			target := filepath.Join(w.dir, "late.txt")
			done := make(chan *mcp.CallToolResult, 1)
			go func() {
				r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "mcp__up__write_file",
					Arguments: map[string]any{"path": target, "content": "x"}})
				if err != nil {
					r = &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "error: " + err.Error()}}}
				}
				done <- r
			}()
			var r *mcp.CallToolResult
			select {
			case r = <-done: // the gateway gave up asking
			case <-time.After(timeout + 3*time.Second):
				// The client still holds the question: the time is up
				// for the gateway all the same; the person answers now.
				require.Empty(t, f.version, "an older client is not left waiting past AskTimeout")
				answer()
				select {
				case r = <-done:
				case <-time.After(30 * time.Second):
					t.Fatal("no result after the late answer")
				}
			}
			assert.True(t, r.IsError, text(r))
			assert.Contains(t, text(r), "no answer from the person within 300ms", "the reason reaches the client")
			assert.NoFileExists(t, target)
			assert.Equal(t, []string{"mcp__up__write_file deny"}, w.auditRows(t))
		})
	}
}

// An answer is good once, for the call it was asked about: an answer
// nobody was asked for, or one sent with another call's input, allows
// nothing; the call is judged (and asked) afresh.
func TestGatewayAnswerBinding(t *testing.T) {
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
	send := func(path, state string, resp mcp.InputResponseMap) *mcp.CallToolResult {
		t.Helper()
		r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "mcp__up__write_file",
			Arguments: map[string]any{"path": path, "content": "x"}, InputResponses: resp, RequestState: state})
		require.NoError(t, err)
		return r
	}

	r := send(a, "forged", accept)
	require.True(t, r.NeedsInput(), "an unasked-for answer is not taken: the person is asked: %s", text(r))
	assert.Contains(t, r.InputRequests["toolgate-approval"].(*mcp.ElicitParams).Message, "Allow mcp__up__write_file")
	stateA := r.RequestState
	require.NotEmpty(t, stateA)

	r = send(b, stateA, accept)
	require.True(t, r.NeedsInput(), "a's answer does not allow b: %s", text(r))
	assert.NoFileExists(t, b)

	r = send(a, stateA, accept)
	require.False(t, r.NeedsInput())
	assert.False(t, r.IsError, text(r))
	assert.Equal(t, "wrote "+a, text(r))

	r = send(a, stateA, accept)
	assert.True(t, r.NeedsInput(), "an answer is good once: %s", text(r))
	assert.Equal(t, []string{"mcp__up__write_file allow"}, w.auditRows(t))
}

// A client session is a pipeline session: it ends when the client goes
// (not only once idle), and a new connection is a session of its own.
func TestGatewaySessionEndsWithClient(t *testing.T) {
	for _, f := range fronts {
		t.Run(f.name, func(t *testing.T) {
			w := newWorld(t, "up", goUpstreamConfig(t))
			w.version = f.version
			read := func(cs *mcp.ClientSession) {
				r := call(t, cs, "mcp__up__read_file", map[string]any{"path": filepath.Join(w.dir, "notes.txt")})
				require.False(t, r.IsError, text(r))
			}
			cs := w.connect(t, f.front)
			read(cs)
			require.NoError(t, cs.Close())
			var first hooks.SessionStopEvent
			select {
			case first = <-w.stops:
			case <-time.After(10 * time.Second):
				t.Fatal("the pipeline session did not end with the client's")
			}
			assert.Equal(t, "mcp-session-closed", first.Reason)
			cs = w.connect(t, f.front)
			read(cs)
			require.NoError(t, cs.Close())
			select {
			case second := <-w.stops:
				assert.NotEqual(t, first.SessionID, second.SessionID, "a new connection is a new session")
				assert.Equal(t, "mcp-session-closed", second.Reason)
			case <-time.After(10 * time.Second):
				t.Fatal("the second pipeline session did not end with the client's")
			}
		})
	}
}

// Tools a server adds at run time are registered and served once it says
// its tools changed, judged by the rules by name and by the roles their
// schema gives; tools it removes are no longer served.
func TestGatewayToolsChangeAtRunTime(t *testing.T) {
	for _, f := range fronts {
		t.Run(f.name, func(t *testing.T) {
			w := newWorld(t, "up", goUpstreamConfig(t))
			w.version = f.version
			cs := w.connect(t, f.front)
			listed := func() []string {
				var names []string
				for tl, err := range cs.Tools(context.Background(), nil) {
					require.NoError(t, err)
					names = append(names, tl.Name)
				}
				return names
			}
			waitFor := func(want bool) {
				t.Helper()
				deadline := time.Now().Add(10 * time.Second)
				for slices.Contains(listed(), "mcp__up__late_tool") != want {
					if time.Now().After(deadline) {
						t.Fatalf("mcp__up__late_tool listed: %v, want %v", !want, want)
					}
					time.Sleep(20 * time.Millisecond)
				}
			}
			assert.NotContains(t, listed(), "mcp__up__late_tool")
			r := call(t, cs, "mcp__up__grow", map[string]any{})
			require.False(t, r.IsError, text(r))
			waitFor(true)

			r = call(t, cs, "mcp__up__late_tool", map[string]any{"path": filepath.Join(w.dir, "notes.txt")})
			assert.False(t, r.IsError, text(r))
			assert.Equal(t, "late tool ran", text(r), "allowed by the server's allow rule")
			r = call(t, cs, "mcp__up__late_tool", map[string]any{"path": filepath.Join(w.outside, "other.txt")})
			assert.True(t, r.IsError)
			assert.Contains(t, text(r), "outside", "its path argument is judged by the sandbox")

			r = call(t, cs, "mcp__up__shrink", map[string]any{})
			require.False(t, r.IsError, text(r))
			waitFor(false)
			r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "mcp__up__late_tool",
				Arguments: map[string]any{"path": filepath.Join(w.dir, "notes.txt")}})
			if err == nil {
				assert.True(t, r.IsError, "a removed tool is not served: %s", text(r))
				assert.NotEqual(t, "late tool ran", text(r))
			}
		})
	}
}

package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/output"
	"github.com/toolgate/toolgate/runtime/tool"
)

// liveWorkspace opens a pipeline over a real directory whose rules allow
// reads of the MCP tool mcp__fs__read_file and ask for its writes, with the
// hooks of set.
func liveWorkspace(t *testing.T, set *hooks.Set) (*runtime.Pipeline, string) {
	t.Helper()
	dir := workspaceDir(t)
	p, err := runtime.Open(runtime.Workspace{
		Dir: dir,
		Rules: permission.Config{
			Allow: []string{"mcp__fs__read_file", "Read"},
			Ask:   []string{"mcp__fs__write_file"},
		},
		Hooks: set,
	})
	require.NoError(t, err)
	return p, dir
}

func mcpRead() *tool.Descriptor {
	return &tool.Descriptor{ToolName: "mcp__fs__read_file", Base: tool.Traits{
		Kind: permission.KindRead, PathFields: []string{"path"}, RequiredFields: []string{"path"}, ConcurrencySafe: true}}
}

func input(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

// A tool added at run time is unknown before, judged by name and by its
// declared roles after: its rule allows a read inside the roots, the
// sandbox still refuses one outside them and a secret file.
func TestAddToolsJudgesByNameAndRoles(t *testing.T) {
	p, dir := liveWorkspace(t, nil)
	ctx := context.Background()
	_, err := p.Session(ctx, runtime.SessionOptions{ID: "s"})
	require.NoError(t, err)
	call := func(path string) runtime.Verdict {
		return p.Check(ctx, runtime.Call{Session: "s", Tool: "mcp__fs__read_file", Input: input(t, map[string]string{"path": path})})
	}
	v := call(filepath.Join(dir, "main.go"))
	assert.Equal(t, permission.Deny, v.Decision)
	assert.Contains(t, v.Reason, `unknown tool "mcp__fs__read_file"`)

	require.NoError(t, p.AddTools(mcpRead()))
	_, ok := p.Tools().Lookup("mcp__fs__read_file")
	assert.True(t, ok, "Tools lists the added tool")

	for _, tc := range []struct {
		path   string
		want   permission.Decision
		reason string
	}{
		{filepath.Join(dir, "main.go"), permission.Allow, "mcp__fs__read_file"},
		{"/etc/shadow", permission.Deny, "outside"},
		{filepath.Join(dir, ".env"), permission.Ask, "secret path"},
		{"", permission.Deny, "path"},
	} {
		v := call(tc.path)
		assert.Equal(t, tc.want, v.Decision, "%s: %s", tc.path, v.Reason)
		assert.Contains(t, v.Reason+" "+string(v.Rule), tc.reason, tc.path)
	}

	// A name already held, a bad name and a nil tool are refused whole.
	err = p.AddTools(mcpRead())
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"mcp__fs__read_file" is already registered`)
	err = p.AddTools(&tool.Descriptor{ToolName: "mcp__fs__ok"}, &tool.Descriptor{ToolName: "bad name"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `invalid tool name "bad name"`)
	_, ok = p.Tools().Lookup("mcp__fs__ok")
	assert.False(t, ok, "a failed AddTools adds nothing")
	v = p.Check(ctx, runtime.Call{Session: "s", Tool: "Bash", Input: input(t, map[string]string{"command": "cat /etc/shadow"})})
	assert.NotEqual(t, permission.Allow, v.Decision, "the built-in tools keep their traits: %s", v.Reason)
}

// Tools added while sessions check calls: every call sees either the old
// or the new set, never a torn one (run with -race).
func TestAddToolsConcurrentWithChecks(t *testing.T) {
	p, dir := liveWorkspace(t, nil)
	ctx := context.Background()
	_, err := p.Session(ctx, runtime.SessionOptions{ID: "s"})
	require.NoError(t, err)
	const n = 20
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(2)
		go func() {
			defer wg.Done()
			assert.NoError(t, p.AddTools(&tool.Descriptor{ToolName: fmt.Sprintf("mcp__fs__t%d", i),
				Base: tool.Traits{Kind: permission.KindRead, PathFields: []string{"path"}}}))
		}()
		go func() {
			defer wg.Done()
			v := p.Check(ctx, runtime.Call{Session: "s", Tool: fmt.Sprintf("mcp__fs__t%d", i),
				Input: input(t, map[string]any{"path": filepath.Join(dir, "main.go"), "n": i})})
			// Unknown while not yet added; once added, its read path is
			// judged by the Read rules, which allow it.
			if v.Decision == permission.Deny {
				assert.Contains(t, v.Reason, "unknown tool")
			} else {
				assert.Equal(t, permission.Allow, v.Decision)
				assert.Contains(t, v.Reason, "allow rule Read")
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, tool.ClaudeCodeTools().Len()+n, p.Tools().Len())
}

// The Executor of a pipeline sees tools added after it was made.
func TestExecutorSeesAddedTools(t *testing.T) {
	p, dir := liveWorkspace(t, nil)
	ctx := context.Background()
	_, err := p.Session(ctx, runtime.SessionOptions{ID: "s"})
	require.NoError(t, err)
	ex := p.Executor(func(context.Context, runtime.Call) (string, error) { return "package main", nil })
	require.NoError(t, p.AddTools(mcpRead()))
	res := ex.Execute(ctx, []runtime.Call{{Session: "s", ID: "1", Tool: "mcp__fs__read_file", Input: input(t, map[string]string{"path": filepath.Join(dir, "main.go")})}})
	require.Len(t, res, 1)
	assert.Equal(t, permission.Allow, res[0].Verdict.Decision, res[0].Verdict.Reason)
	assert.True(t, res[0].Ran)
	assert.Equal(t, "package main", res[0].Outcome.Output)
}

// The session id in the context names the session of a call that names
// none, in Check and in After; a named session wins.
func TestSessionIDInContext(t *testing.T) {
	var mu sync.Mutex
	var posts []string
	set := hooks.NewSet(hooks.Hook{Name: "rec", Timeout: hooks.NoTimeout,
		PostToolUse: func(_ context.Context, e hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) {
			mu.Lock()
			defer mu.Unlock()
			posts = append(posts, e.SessionID)
			return hooks.PostToolUseResult{}, nil
		}})
	defer set.Close()
	p, dir := liveWorkspace(t, set)
	bg := context.Background()
	_, err := p.Session(bg, runtime.SessionOptions{ID: "a"})
	require.NoError(t, err)
	_, ok := runtime.SessionIDFrom(bg)
	assert.False(t, ok)
	_, ok = runtime.SessionIDFrom(runtime.WithSessionID(bg, ""))
	assert.False(t, ok, "an empty id is no id")

	read := runtime.Call{Tool: "Read", Input: input(t, map[string]string{"file_path": filepath.Join(dir, "main.go")})}
	v := p.Check(bg, read)
	assert.Equal(t, permission.Deny, v.Decision)
	assert.Contains(t, v.Reason, `no live session ""`)

	ctx := runtime.WithSessionID(bg, "a")
	id, ok := runtime.SessionIDFrom(ctx)
	assert.True(t, ok)
	assert.Equal(t, "a", id)
	v = p.Check(ctx, read)
	assert.Equal(t, permission.Allow, v.Decision, v.Reason)
	o := p.After(ctx, read, v, runtime.Run{Output: "package main"})
	require.NoError(t, o.Err)
	assert.Equal(t, "package main", o.Output)

	named := read
	named.Session = "b"
	v = p.Check(ctx, named)
	assert.Equal(t, permission.Deny, v.Decision)
	assert.Contains(t, v.Reason, `no live session "b"`)
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []string{"a"}, posts)
}

// Session starts a session once, hands the same one to every caller, and
// does not end it with the request context it was started under.
func TestSessionGetsOrStarts(t *testing.T) {
	p, dir := liveWorkspace(t, nil)
	req, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	got := make([]*runtime.Session, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := p.Session(req, runtime.SessionOptions{ID: "mcp-1"})
			assert.NoError(t, err)
			got[i] = s
		}()
	}
	wg.Wait()
	for _, s := range got {
		assert.Same(t, got[0], s)
	}
	cancel()
	require.NoError(t, context.Cause(got[0].Context()), "the request's cancellation does not end the session")
	v := p.Check(context.Background(), runtime.Call{Session: "mcp-1", Tool: "Read", Input: input(t, map[string]string{"file_path": filepath.Join(dir, "main.go")})})
	assert.Equal(t, permission.Allow, v.Decision, v.Reason)

	_, err := p.Session(req, runtime.SessionOptions{ID: "x", Mode: new(permission.Mode(99))})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "invalid permission mode")
}

// A session with an idle timeout ends once unused for that long, with
// reason "idle" to the SessionStop hooks; use keeps it alive; Session then
// starts it afresh.
func TestIdleSessionsExpire(t *testing.T) {
	stops := make(chan hooks.SessionStopEvent, 4)
	set := hooks.NewSet(hooks.Hook{Name: "rec", Timeout: hooks.NoTimeout,
		SessionStop: func(_ context.Context, e hooks.SessionStopEvent) error { stops <- e; return nil }})
	defer set.Close()
	p, dir := liveWorkspace(t, set)
	// Long enough that a Check on a loaded machine (two cores, -race) stays
	// well inside it: what is shown is the expiry, not a speed.
	const idle = 900 * time.Millisecond
	s, err := p.Session(context.Background(), runtime.SessionOptions{ID: "i", IdleTimeout: idle})
	require.NoError(t, err)
	read := runtime.Call{Session: "i", Tool: "Read", Input: input(t, map[string]string{"file_path": filepath.Join(dir, "main.go")})}
	// Used every third of the timeout for two timeouts: still live.
	for i := range 6 {
		time.Sleep(idle / 3)
		read.Input = input(t, map[string]any{"file_path": filepath.Join(dir, "main.go"), "offset": i})
		v := p.Check(context.Background(), read)
		require.Equal(t, permission.Allow, v.Decision, v.Reason)
	}
	select {
	case e := <-stops:
		t.Fatalf("session ended while in use: %+v", e)
	default:
	}
	var e hooks.SessionStopEvent
	select {
	case e = <-stops:
	case <-time.After(10 * time.Second):
		t.Fatal("the idle session did not end")
	}
	assert.Equal(t, "i", e.SessionID)
	assert.Equal(t, "idle", e.Reason)
	assert.ErrorIs(t, context.Cause(s.Context()), runtime.ErrSessionEnded)
	v := p.Check(context.Background(), read)
	assert.Equal(t, permission.Deny, v.Decision)
	assert.Contains(t, v.Reason, `no live session "i"`)

	s2, err := p.Session(context.Background(), runtime.SessionOptions{ID: "i"})
	require.NoError(t, err)
	assert.NotSame(t, s, s2)
	assert.True(t, s2.End("done", "", nil))
	assert.Equal(t, "done", (<-stops).Reason)
}

// Structured output: the hooks and truncation see the text parts; an
// output they leave alone keeps its parts, one they rewrite or cut
// replaces every text part (structured JSON too), images stay; a denied
// call keeps nothing of what it returned.
func TestAfterStructuredOutput(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	set := hooks.NewSet(hooks.Hook{Name: "redact", Timeout: hooks.NoTimeout,
		PostToolUse: func(_ context.Context, e hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) {
			mu.Lock()
			seen = append(seen, e.Output)
			mu.Unlock()
			if strings.Contains(e.Output, "TOKEN=x") {
				return hooks.MutateOutput(strings.ReplaceAll(e.Output, "TOKEN=x", "TOKEN=***")), nil
			}
			return hooks.PostToolUseResult{}, nil
		}})
	defer set.Close()
	dir := workspaceDir(t)
	p, err := runtime.Open(runtime.Workspace{Dir: dir, Rules: permission.Config{Allow: []string{"Read"}}, Hooks: set,
		Output: output.Shaper{PerTool: map[string]int{"Read": 300}}})
	require.NoError(t, err)
	ctx := runtime.WithSessionID(context.Background(), "s")
	_, err = p.Session(ctx, runtime.SessionOptions{ID: "s"})
	require.NoError(t, err)
	read := runtime.Call{ID: "c", Tool: "Read", Input: input(t, map[string]string{"file_path": filepath.Join(dir, "main.go")})}
	allow := p.Check(ctx, read)
	require.Equal(t, permission.Allow, allow.Decision, allow.Reason)
	img := runtime.Content{Type: "image", Data: []byte{0x89, 'P', 'N', 'G'}, MIMEType: "image/png"}

	clean := []runtime.Content{{Type: "text", Text: "package main"}, img, {Type: "json", JSON: json.RawMessage(`{"lines":1}`)}}
	o := p.After(ctx, read, allow, runtime.Run{Content: clean})
	require.NoError(t, o.Err)
	assert.Equal(t, clean, o.Content, "untouched parts pass as given")
	assert.Equal(t, "package main\n{\"lines\":1}", o.Output)

	secret := []runtime.Content{{Type: "text", Text: "TOKEN=x"}, img, {Type: "json", JSON: json.RawMessage(`{"env":"TOKEN=x"}`)}}
	o = p.After(ctx, read, allow, runtime.Run{Content: secret})
	require.NoError(t, o.Err)
	require.Len(t, o.Content, 2)
	assert.Equal(t, runtime.Content{Type: "text", Text: "TOKEN=***\n{\"env\":\"TOKEN=***\"}"}, o.Content[0])
	assert.Equal(t, img, o.Content[1])
	for _, c := range o.Content {
		assert.NotContains(t, c.Text+string(c.JSON), "TOKEN=x", "no unredacted copy")
	}

	long := []runtime.Content{{Type: "text", Text: strings.Repeat("a", 1000)}, img}
	o = p.After(ctx, read, allow, runtime.Run{Output: "head", Content: long})
	assert.True(t, o.Truncated)
	require.Len(t, o.Content, 2)
	assert.Equal(t, o.Output, o.Content[0].Text)
	assert.Less(t, len(o.Content[0].Text), 400)
	assert.True(t, strings.HasPrefix(o.Output, "head\naaa"), o.Output)

	denied := read
	denied.Input = input(t, map[string]string{"file_path": "/etc/shadow"})
	dv := p.Check(ctx, denied)
	require.Equal(t, permission.Deny, dv.Decision)
	o = p.After(ctx, denied, dv, runtime.Run{Content: secret})
	require.Len(t, o.Content, 1)
	assert.Equal(t, "text", o.Content[0].Type)
	assert.Contains(t, o.Content[0].Text, "denied (")
	assert.Contains(t, o.Content[0].Text, dv.Reason)

	// The string path is unchanged: no Content in, none out.
	o = p.After(ctx, read, allow, runtime.Run{Output: "TOKEN=x"})
	assert.Nil(t, o.Content)
	assert.Equal(t, "TOKEN=***", o.Output)
	mu.Lock()
	defer mu.Unlock()
	assert.Contains(t, seen, "TOKEN=x\n{\"env\":\"TOKEN=x\"}", "the hook saw the text parts joined")
}

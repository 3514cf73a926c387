package mcpgateway_test

import (
	"context"
	"database/sql"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	_ "modernc.org/sqlite"

	"github.com/toolgate/toolgate/contrib/mcpgateway"
	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

// TestMain makes the test binary an upstream go-sdk MCP server on stdio
// when the gateway starts it with TOOLGATE_TEST_UPSTREAM set; otherwise it
// builds the commands the end-to-end tests run (see e2e_test.go).
func TestMain(m *testing.M) {
	if os.Getenv("TOOLGATE_TEST_UPSTREAM") == "1" {
		upstream()
		return
	}
	os.Exit(buildAndRun(m))
}

type pathArg struct {
	Path string `json:"path"`
}
type writeArg struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}
type fileOut struct {
	Content string `json:"content"`
}

// upstream serves read_file (read-only) and write_file over stdio.
func upstream() {
	s := mcp.NewServer(&mcp.Implementation{Name: "up", Version: "v1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "read_file", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *mcp.CallToolRequest, in pathArg) (*mcp.CallToolResult, fileOut, error) {
			b, err := os.ReadFile(in.Path)
			if err != nil {
				return nil, fileOut{}, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, fileOut{Content: string(b)}, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "write_file"},
		func(_ context.Context, _ *mcp.CallToolRequest, in writeArg) (*mcp.CallToolResult, any, error) {
			if err := os.WriteFile(in.Path, []byte(in.Content), 0o644); err != nil {
				return nil, nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "wrote " + in.Path}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "drop_table"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "dropped"}}}, nil, nil
		})
	// grow and shrink add and remove a tool at run time (the SDK tells the
	// clients that the tools changed).
	late := func(context.Context, *mcp.CallToolRequest, pathArg) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "late tool ran"}}}, nil, nil
	}
	mcp.AddTool(s, &mcp.Tool{Name: "grow"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			mcp.AddTool(s, &mcp.Tool{Name: "late_tool"}, late)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "grown"}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "shrink"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			s.RemoveTools("late_tool")
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "shrunk"}}}, nil, nil
		})
	// A name the MCP SDK takes, but too long once prefixed for the pipeline.
	mcp.AddTool(s, &mcp.Tool{Name: strings.Repeat("x", 120)},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ran"}}}, nil, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		os.Exit(1)
	}
}

// world is a workspace with a file holding a token, a file outside it, a
// pipeline with a redacting hook and an audit log, and a gateway.
type world struct {
	dir, outside string
	g            *mcpgateway.Gateway
	p            *runtime.Pipeline
	// session is the id of the pipeline session last started.
	session atomic.Value
	db      *sql.DB
	audit   *hooks.AuditLog
	answer  atomic.Value // "accept" or "decline", the elicitation's answer
	// elicit, when set, answers the elicitations instead of answer.
	elicit func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error)
	// stops receives the pipeline's SessionStop events.
	stops chan hooks.SessionStopEvent
	// version is the protocol version the client asks for; empty is the
	// SDK's latest.
	version string
}

func newWorld(t *testing.T, server string, cfg string) *world {
	t.Helper()
	return newWorldOpts(t, server, cfg, mcpgateway.Options{})
}

func newWorldOpts(t *testing.T, server string, cfg string, opts mcpgateway.Options) *world {
	t.Helper()
	return newWorldSettings(t, server, cfg, opts)
}

// newWorldSettings is newWorldOpts with settings files (their rules and
// their defaultMode) merged over the world's rules.
func newWorldSettings(t *testing.T, server string, cfg string, opts mcpgateway.Options, settings ...*permission.Settings) *world {
	t.Helper()
	w := &world{}
	w.answer.Store("decline")
	var err error
	w.dir, err = filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	w.outside, err = filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(w.dir, "notes.txt"), []byte("hello TOKEN=abc123\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(w.outside, "other.txt"), []byte("outside\n"), 0o644))
	w.db, err = sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "audit.db"))
	require.NoError(t, err)
	t.Cleanup(func() { w.db.Close() })
	w.audit, err = hooks.NewAuditLog(w.db, hooks.AuditOptions{})
	require.NoError(t, err)
	w.stops = make(chan hooks.SessionStopEvent, 16)
	redact := hooks.Hook{Name: "redact", SessionStart: func(_ context.Context, e hooks.SessionStartEvent) error {
		w.session.Store(e.SessionID)
		return nil
	}, SessionStop: func(_ context.Context, e hooks.SessionStopEvent) error {
		select {
		case w.stops <- e:
		default:
		}
		return nil
	}, PostToolUse: func(_ context.Context, e hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) {
		if strings.Contains(e.Output, "TOKEN=") {
			return hooks.MutateOutput(strings.ReplaceAll(e.Output, "TOKEN=abc123", "TOKEN=***")), nil
		}
		return hooks.PostToolUseResult{}, nil
	}}
	set := hooks.NewSet(redact)
	t.Cleanup(func() { set.Close() })
	p, err := runtime.Open(runtime.Workspace{
		Dir: w.dir,
		Rules: permission.Config{
			Allow: []string{"mcp__" + server},
			Ask:   []string{"mcp__" + server + "__write_file"},
			Deny:  []string{"mcp__" + server + "__drop_table"},
		},
		Settings: settings,
		Hooks:    set,
		Audit:    w.audit,
	})
	require.NoError(t, err)
	c, err := mcpgateway.ParseConfig([]byte(strings.ReplaceAll(cfg, "$DIR", w.dir)))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	w.p = p
	w.g, err = mcpgateway.New(ctx, p, c, opts)
	require.NoError(t, err)
	t.Cleanup(func() { w.g.Close() })
	return w
}

func (w *world) client() *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "v1"}, &mcp.ClientOptions{
		ElicitationHandler: func(ctx context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			if w.elicit != nil {
				return w.elicit(ctx, r)
			}
			return &mcp.ElicitResult{Action: w.answer.Load().(string)}, nil
		}})
}

// connect returns a client session to the gateway over the named front:
// in memory (as stdio, one connection) or streamable HTTP.
func (w *world) connect(t *testing.T, front string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	var tr mcp.Transport
	switch front {
	case "stdio":
		st, ct := mcp.NewInMemoryTransports()
		ss, err := w.g.Server().Connect(ctx, st, nil)
		require.NoError(t, err)
		t.Cleanup(func() { ss.Close() })
		tr = ct
	case "http":
		srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return w.g.Server() }, nil))
		t.Cleanup(srv.Close)
		tr = &mcp.StreamableClientTransport{Endpoint: srv.URL}
	}
	cs, err := w.client().Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: w.version})
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

func text(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	require.NoError(t, err)
	return r
}

// auditRows returns "tool decision" for every audit row.
func (w *world) auditRows(t *testing.T) []string {
	t.Helper()
	require.NoError(t, w.audit.Close(context.Background()))
	rows, err := w.db.Query("SELECT tool_name, decision FROM " + hooks.DefaultAuditTable + " ORDER BY id")
	require.NoError(t, err)
	defer rows.Close()
	var out []string
	for rows.Next() {
		var tool, d string
		require.NoError(t, rows.Scan(&tool, &d))
		out = append(out, tool+" "+d)
	}
	require.NoError(t, rows.Err())
	return out
}

const goUpstream = `{"mcpServers": {"up": {"command": "SELF", "env": {"TOOLGATE_TEST_UPSTREAM": "1"}}}}`

func TestGatewayGoSDKUpstream(t *testing.T) {
	self, err := os.Executable()
	require.NoError(t, err)
	for _, front := range []string{"stdio", "http"} {
		t.Run(front, func(t *testing.T) {
			w := newWorld(t, "up", strings.Replace(goUpstream, "SELF", self, 1))
			cs := w.connect(t, front)
			var names []string
			for tool, err := range cs.Tools(context.Background(), nil) {
				require.NoError(t, err)
				names = append(names, tool.Name)
			}
			assert.ElementsMatch(t, []string{"mcp__up__read_file", "mcp__up__write_file", "mcp__up__grow", "mcp__up__shrink"}, names,
				"drop_table is denied whole: hidden; the long name cannot be judged: not served")
			require.Error(t, w.g.Skipped())
			assert.Contains(t, w.g.Skipped().Error(), "invalid tool name \"mcp__up__xxx")

			r := call(t, cs, "mcp__up__read_file", map[string]any{"path": filepath.Join(w.dir, "notes.txt")})
			assert.False(t, r.IsError, text(r))
			assert.Contains(t, text(r), "hello TOKEN=***", "allowed, and the hook redacted the text")
			assert.NotContains(t, text(r), "abc123")
			assert.Nil(t, r.StructuredContent, "the structured copy of the token is not passed on")

			r = call(t, cs, "mcp__up__read_file", map[string]any{"path": filepath.Join(w.outside, "other.txt")})
			assert.True(t, r.IsError)
			assert.Contains(t, text(r), "denied (")
			assert.Contains(t, text(r), "outside", "the reason reaches the client")

			target := filepath.Join(w.dir, "new.txt")
			r = call(t, cs, "mcp__up__write_file", map[string]any{"path": target, "content": "x"})
			assert.True(t, r.IsError)
			assert.Contains(t, text(r), "the person answered decline")
			assert.NoFileExists(t, target)

			w.answer.Store("accept")
			r = call(t, cs, "mcp__up__write_file", map[string]any{"path": target, "content": "y"})
			assert.False(t, r.IsError, text(r))
			assert.Equal(t, "wrote "+target, text(r))
			assert.FileExists(t, target)

			r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "mcp__up__drop_table", Arguments: map[string]any{}})
			if err == nil {
				assert.True(t, r.IsError, "a hidden tool cannot be called: %s", text(r))
			}

			assert.Equal(t, []string{
				"mcp__up__read_file allow", "mcp__up__read_file deny",
				"mcp__up__write_file deny", "mcp__up__write_file allow",
			}, w.auditRows(t))
		})
	}
}

// The npm reference server: its read_text_file and write_file tools.
func TestGatewayFilesystemServer(t *testing.T) {
	cfg := `{"mcpServers": {"fs": {"command": "` + filesystemServer(t) + `", "args": ["$DIR"]}}}`
	for _, front := range []string{"stdio", "http"} {
		t.Run(front, func(t *testing.T) {
			w := newWorld(t, "fs", cfg)
			cs := w.connect(t, front)
			r := call(t, cs, "mcp__fs__read_text_file", map[string]any{"path": filepath.Join(w.dir, "notes.txt")})
			assert.False(t, r.IsError, text(r))
			assert.Contains(t, text(r), "hello TOKEN=***")
			assert.NotContains(t, text(r), "abc123")

			r = call(t, cs, "mcp__fs__read_text_file", map[string]any{"path": filepath.Join(w.outside, "other.txt")})
			assert.True(t, r.IsError)
			assert.Contains(t, text(r), "outside")

			target := filepath.Join(w.dir, "new.txt")
			r = call(t, cs, "mcp__fs__write_file", map[string]any{"path": target, "content": "x"})
			assert.True(t, r.IsError)
			assert.Contains(t, text(r), "the person answered decline")
			assert.NoFileExists(t, target)
			w.answer.Store("accept")
			r = call(t, cs, "mcp__fs__write_file", map[string]any{"path": target, "content": "y"})
			assert.False(t, r.IsError, text(r))
			assert.FileExists(t, target)

			rows := w.auditRows(t)
			assert.Equal(t, []string{
				"mcp__fs__read_text_file allow", "mcp__fs__read_text_file deny",
				"mcp__fs__write_file deny", "mcp__fs__write_file allow",
			}, rows)
		})
	}
}

package mcpgateway_test

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/internal/testenv"
)

// FilesystemServerVersion is the pinned @modelcontextprotocol/server-filesystem
// the end-to-end tests run; .ci/setup installs it with npm under
// $TOOLGATE_E2E_CACHE/server-filesystem-VERSION.
const FilesystemServerVersion = "2026.8.31"

// The commands TestMain builds: toolgate and the gateway beside it, as a
// user installs them (the tests run "toolgate mcp", which hands over to
// toolgate-mcp), the go-sdk upstream server and the redacting PostToolUse
// hook.
var toolgateBin, gatewayBin, upstreamBin, redactBin string

func buildAndRun(m *testing.M) int {
	dir, err := os.MkdirTemp("", "toolgate-mcp-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	toolgateBin = filepath.Join(dir, "toolgate")
	build := exec.Command("go", "build", "-o", toolgateBin, "./cmd/toolgate")
	build.Dir = filepath.Join("..", "..") // the library's module, which holds cmd/toolgate
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building cmd/toolgate: %v\n%s", err, out)
		return 1
	}
	for _, b := range []struct {
		out *string
		pkg string
	}{
		{&gatewayBin, "./cmd/toolgate-mcp"}, {&upstreamBin, "./internal/upstream"}, {&redactBin, "./internal/redacthook"},
	} {
		*b.out = filepath.Join(dir, filepath.Base(b.pkg))
		if out, err := exec.Command("go", "build", "-o", *b.out, b.pkg).CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "building %s: %v\n%s", b.pkg, err, out)
			return 1
		}
	}
	return m.Run()
}

// filesystemServer returns the pinned npm reference server's command,
// which .ci/setup installed; the tests install nothing. Not there, the
// test fails when TOOLGATE_E2E_REQUIRE is set (as in CI) and is skipped,
// saying to run .ci/setup, otherwise.
func filesystemServer(t *testing.T) string {
	t.Helper()
	cache, _ := testenv.Lookup("TOOLGATE_E2E_CACHE")
	if cache == "" {
		c, err := os.UserCacheDir()
		require.NoError(t, err)
		cache = filepath.Join(c, "toolgate-e2e")
	}
	dir := filepath.Join(cache, "server-filesystem-"+FilesystemServerVersion)
	bin := filepath.Join(dir, "node_modules", ".bin", "mcp-server-filesystem")
	var pkg struct {
		Version string `json:"version"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-filesystem", "package.json"))
	if err == nil {
		err = json.Unmarshal(data, &pkg)
	}
	_, nodeErr := exec.LookPath("node")
	if err != nil || pkg.Version != FilesystemServerVersion || nodeErr != nil {
		msg := testenv.Missing("@modelcontextprotocol/server-filesystem@"+FilesystemServerVersion,
			"not installed under "+dir+", or node is not on PATH")
		if os.Getenv("TOOLGATE_E2E_REQUIRE") == "1" {
			t.Fatal("TOOLGATE_E2E_REQUIRE=1: " + msg)
		}
		t.Skip(msg)
	}
	return bin
}

// e2e is one run of the built toolgate-mcp in front of one upstream
// server: a workspace holding a file with a token, a file outside it,
// the workspace's settings, the gateway's configuration (with the
// redacting hook) and its SQLite audit file.
type e2e struct {
	dir, outside, home, config, audit string
	server                            string // the upstream's name in the config
	tools                             map[string]string
	answer                            atomic.Value // the elicitation's answer: "accept", "decline", "cancel"
	// hang, when set, makes the elicitation handler wait for ctx's end
	// instead of answering.
	hang   bool
	args   []string // further arguments of toolgate-mcp
	stderr syncBuffer
	cmd    *exec.Cmd
}

// upstreams are the servers the tests front, with their tool names.
var upstreams = []struct {
	name   string
	server func(t *testing.T, dir string) string // the config's server entry
	tools  map[string]string
}{
	{"go", func(t *testing.T, dir string) string {
		return fmt.Sprintf(`{"command": %q}`, upstreamBin)
	}, map[string]string{"read": "read_file", "write": "write_file", "denied": "drop_table"}},
	{"fs", func(t *testing.T, dir string) string {
		return fmt.Sprintf(`{"command": %q, "args": [%q]}`, filesystemServer(t), dir)
	}, map[string]string{"read": "read_text_file", "write": "write_file", "denied": "move_file"}},
}

func newE2E(t *testing.T, server string, entry func(*testing.T, string) string, tools map[string]string) *e2e {
	t.Helper()
	e := &e2e{server: server, tools: tools}
	e.answer.Store("decline")
	var err error
	for _, d := range []*string{&e.dir, &e.outside, &e.home} {
		*d, err = filepath.EvalSymlinks(t.TempDir())
		require.NoError(t, err)
	}
	require.NoError(t, os.WriteFile(filepath.Join(e.dir, "notes.txt"), []byte("hello TOKEN=abc123\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(e.outside, "other.txt"), []byte("outside\n"), 0o644))
	// The person's settings allow the server; the workspace's narrow it
	// (they may only narrow: the gateway does not read trust records).
	for _, f := range []struct{ dir, settings string }{
		{e.home, fmt.Sprintf(`{"permissions": {"allow": ["mcp__%s"]}}`, server)},
		{e.dir, fmt.Sprintf(`{"permissions": {"ask": ["mcp__%[1]s__%[2]s"], "deny": ["mcp__%[1]s__%[3]s"]}}`,
			server, tools["write"], tools["denied"])},
	} {
		require.NoError(t, os.MkdirAll(filepath.Join(f.dir, ".claude"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(f.dir, ".claude", "settings.json"), []byte(f.settings), 0o644))
	}
	e.config = filepath.Join(t.TempDir(), "mcp.json")
	cfg := fmt.Sprintf(`{"mcpServers": {%q: %s},
  "hooks": {"PostToolUse": [{"matcher": "mcp__.*", "hooks": [{"type": "command", "command": %q, "timeout": 20}]}]}}`,
		server, entry(t, e.dir), redactBin)
	require.NoError(t, os.WriteFile(e.config, []byte(cfg), 0o644))
	e.audit = filepath.Join(t.TempDir(), "audit.db")
	return e
}

// gateway returns the "toolgate mcp" command line for the front: stdio, or
// streamable HTTP on a free loopback port.
func (e *e2e) gateway(ctx context.Context, front string) *exec.Cmd {
	args := append([]string{"mcp", "--config", e.config, "--dir", e.dir, "--audit", e.audit}, e.args...)
	if front == "http" {
		args = append(args, "--listen", "127.0.0.1:0")
	}
	cmd := exec.CommandContext(ctx, toolgateBin, args...)
	cmd.Env = []string{"HOME=" + e.home, "PATH=" + os.Getenv("PATH")}
	cmd.Dir = e.dir
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 10 * time.Second
	return cmd
}

// connect starts the gateway and returns a go-sdk client session to it,
// with an elicitation handler that gives e.answer.
func (e *e2e) connect(t *testing.T, ctx context.Context, front string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "v1"}, &mcp.ClientOptions{
		ElicitationHandler: func(hctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			if e.hang {
				select {
				case <-hctx.Done():
					return nil, hctx.Err()
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
			return &mcp.ElicitResult{Action: e.answer.Load().(string)}, nil
		}})
	e.cmd = e.gateway(ctx, front)
	var tr mcp.Transport
	switch front {
	case "stdio":
		e.cmd.Stderr = &e.stderr
		tr = &mcp.CommandTransport{Command: e.cmd}
	case "http":
		r, w := io.Pipe()
		e.cmd.Stderr = w
		require.NoError(t, e.cmd.Start())
		addr := make(chan string, 1)
		go func() {
			sc := bufio.NewScanner(r)
			for sc.Scan() {
				line := sc.Text()
				e.stderr.Write([]byte(line + "\n"))
				if a, ok := strings.CutPrefix(line, "toolgate mcp: serving "); ok {
					addr <- a
				}
			}
		}()
		select {
		case a := <-addr:
			tr = &mcp.StreamableClientTransport{Endpoint: a}
		case <-time.After(90 * time.Second):
			t.Fatalf("toolgate-mcp --listen did not say where it serves; stderr:\n%s", e.stderr.String())
		}
	}
	cs, err := client.Connect(ctx, tr, nil)
	require.NoError(t, err, "stderr:\n%s", e.stderr.String())
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("toolgate-mcp stderr:\n%s", e.stderr.String())
		}
	})
	return cs
}

// stop ends the gateway (closing stdio, or SIGTERM for HTTP) and waits
// for it, so that the audit file is complete.
func (e *e2e) stop(t *testing.T, cs *mcp.ClientSession, front string) {
	t.Helper()
	cs.Close()
	if front == "http" {
		require.NoError(t, e.cmd.Process.Signal(syscall.SIGTERM))
		err := e.cmd.Wait()
		require.NoError(t, err, "toolgate-mcp ended badly; stderr:\n%s", e.stderr.String())
	}
	require.True(t, e.cmd.ProcessState != nil && e.cmd.ProcessState.Exited(), "toolgate-mcp still runs")
	assert.Equal(t, 0, e.cmd.ProcessState.ExitCode(), "stderr:\n%s", e.stderr.String())
}

// auditRow is one row of the gateway's audit file.
type auditRow struct{ tool, decision, reason, preview string }

func (e *e2e) auditRows(t *testing.T) []auditRow {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+e.audit+"?mode=ro")
	require.NoError(t, err)
	defer db.Close()
	rows, err := db.Query("SELECT tool_name, decision, reason, output_preview FROM " + hooks.DefaultAuditTable + " ORDER BY id")
	require.NoError(t, err)
	defer rows.Close()
	var out []auditRow
	for rows.Next() {
		var r auditRow
		require.NoError(t, rows.Scan(&r.tool, &r.decision, &r.reason, &r.preview))
		out = append(out, r)
	}
	require.NoError(t, rows.Err())
	return out
}

// TestE2E drives the built toolgate-mcp as an MCP client would, over
// stdio and streamable HTTP, in front of a go-sdk server and the npm
// reference filesystem server.
func TestE2E(t *testing.T) {
	for _, up := range upstreams {
		for _, front := range []string{"stdio", "http"} {
			t.Run(up.name+"/"+front, func(t *testing.T) {
				e := newE2E(t, up.name, up.server, up.tools)
				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
				defer cancel()
				cs := e.connect(t, ctx, front)
				tool := func(k string) string { return "mcp__" + up.name + "__" + up.tools[k] }
				call := func(k string, args map[string]any) *mcp.CallToolResult {
					t.Helper()
					r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool(k), Arguments: args})
					require.NoError(t, err)
					t.Logf("%s %v -> isError=%v %q", tool(k), args, r.IsError, text(r))
					return r
				}

				var names []string
				for tl, err := range cs.Tools(ctx, nil) {
					require.NoError(t, err)
					names = append(names, tl.Name)
				}
				assert.Contains(t, names, tool("read"))
				assert.Contains(t, names, tool("write"))
				assert.NotContains(t, names, tool("denied"), "a tool a Deny rule covers whole is not listed")

				r := call("read", map[string]any{"path": filepath.Join(e.dir, "notes.txt")})
				assert.False(t, r.IsError, "a read inside the roots is allowed")
				assert.Contains(t, text(r), "hello TOKEN=***", "the PostToolUse hook redacted the output")
				assert.NotContains(t, text(r), "abc123")
				assert.Nil(t, r.StructuredContent, "the structured copy of the secret does not pass")

				r = call("read", map[string]any{"path": filepath.Join(e.outside, "other.txt")})
				assert.True(t, r.IsError, "a read outside the roots is denied")
				assert.Contains(t, text(r), "denied (")
				assert.Contains(t, text(r), "outside", "the reason reaches the client")

				target := filepath.Join(e.dir, "new.txt")
				r = call("write", map[string]any{"path": target, "content": "declined"})
				assert.True(t, r.IsError)
				assert.Contains(t, text(r), "the person answered decline")
				assert.NoFileExists(t, target, "a declined write does not run")

				e.answer.Store("accept")
				r = call("write", map[string]any{"path": target, "content": "approved"})
				assert.False(t, r.IsError, "an approved write runs")
				got, err := os.ReadFile(target)
				require.NoError(t, err)
				assert.Equal(t, "approved", string(got))

				e.stop(t, cs, front)
				rows := e.auditRows(t)
				for _, row := range rows {
					t.Logf("audit: %s %s %q preview=%q", row.tool, row.decision, row.reason, row.preview)
					assert.NotContains(t, row.preview, "abc123", "the audit holds the redacted output")
				}
				require.Len(t, rows, 5)
				want := []struct{ tool, decision, reason string }{
					{tool("read"), "allow", "mcp__" + up.name},
					{tool("read"), "deny", "outside"},
					{tool("write"), "deny", "the person answered decline"},
					{tool("write"), "allow", "approved by the person"},
					{"session", "", "mcp-session-closed"}, // the client went
				}
				for i, w := range want {
					assert.Equal(t, w.tool, rows[i].tool, "row %d", i)
					assert.Equal(t, w.decision, rows[i].decision, "row %d", i)
					assert.Contains(t, rows[i].reason, w.reason, "row %d", i)
				}
			})
		}
	}
}

// toolgate-mcp --ask-timeout bounds a question the client never answers:
// the call is denied with the reason, in bounded time, and recorded.
func TestE2EAskTimeout(t *testing.T) {
	up := upstreams[0]
	e := newE2E(t, up.name, up.server, up.tools)
	e.hang = true
	e.args = []string{"--ask-timeout", "500ms"}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs := e.connect(t, ctx, "http")
	target := filepath.Join(e.dir, "never.txt")
	start := time.Now()
	cctx, ccancel := context.WithTimeout(ctx, 30*time.Second)
	defer ccancel()
	r, err := cs.CallTool(cctx, &mcp.CallToolParams{Name: "mcp__go__write_file", Arguments: map[string]any{"path": target, "content": "x"}})
	require.NoError(t, err, "the gateway answers before the client gives up")
	t.Logf("after %s: isError=%v %q", time.Since(start).Round(time.Millisecond), r.IsError, text(r))
	assert.True(t, r.IsError)
	assert.Contains(t, text(r), "denied (")
	assert.Contains(t, text(r), "no answer from the person within 500ms")
	assert.NoFileExists(t, target)
	e.stop(t, cs, "http")
	rows := e.auditRows(t)
	require.NotEmpty(t, rows)
	assert.Equal(t, auditRow{tool: "mcp__go__write_file", decision: "deny", reason: rows[0].reason}, rows[0])
	assert.Contains(t, rows[0].reason, "no answer from the person within 500ms")
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

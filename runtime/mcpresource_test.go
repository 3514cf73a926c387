package runtime_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

// TestServerRulesHoldForResourceTools holds the rules for an MCP server
// (mcp__server) to Claude Code's resource tools, whose input names the
// server they reach: a deny or ask rule for the server holds, an allow
// rule for it answers where no rule for the tool does. Claude Code
// 2.1.332 runs both tools whatever the server's rules say (its e2e suite
// records it): toolgate is stricter, never wider.
func TestServerRulesHoldForResourceTools(t *testing.T) {
	dir := workspaceDir(t)
	check := func(cfg permission.Config, tool, input string) runtime.Verdict {
		t.Helper()
		cfg.Default = permission.Ask
		p, err := runtime.Open(runtime.Workspace{Dir: dir, Rules: cfg})
		require.NoError(t, err)
		ctx := context.Background()
		sess, err := p.Session(ctx, runtime.SessionOptions{ID: "s"})
		require.NoError(t, err)
		defer sess.End("done", "", nil)
		return p.Check(ctx, runtime.Call{Session: "s", Tool: tool, Input: json.RawMessage(input)})
	}
	read := `{"server":"docs","uri":"docs://readme"}`
	list := `{"server":"docs"}`
	for _, tc := range []struct {
		cfg         permission.Config
		tool, input string
		want        permission.Decision
		rule        string
		reason      string
	}{
		{permission.Config{Deny: []string{"mcp__docs"}}, "ReadMcpResourceTool", read, permission.Deny, "mcp__docs", "denied by deny rule mcp__docs"},
		{permission.Config{Deny: []string{"mcp__docs"}}, "ListMcpResourcesTool", list, permission.Deny, "mcp__docs", "denied by deny rule mcp__docs"},
		{permission.Config{Deny: []string{"mcp__docs"}, Allow: []string{"ReadMcpResourceTool(docs)"}}, "ReadMcpResourceTool", read, permission.Deny, "mcp__docs", "denied by deny rule mcp__docs"},
		{permission.Config{Deny: []string{"mcp__docs"}, Allow: []string{"ListMcpResourcesTool"}}, "ListMcpResourcesTool", list, permission.Deny, "mcp__docs", "denied by deny rule mcp__docs"},
		{permission.Config{Ask: []string{"mcp__docs"}}, "ReadMcpResourceTool", read, permission.Ask, "mcp__docs", "needs confirmation by ask rule mcp__docs"},
		{permission.Config{Ask: []string{"mcp__docs"}, Allow: []string{"ListMcpResourcesTool"}}, "ListMcpResourcesTool", list, permission.Ask, "mcp__docs", "needs confirmation by ask rule mcp__docs"},
		{permission.Config{Allow: []string{"mcp__docs"}}, "ReadMcpResourceTool", read, permission.Allow, "mcp__docs", "allowed by allow rule mcp__docs"},
		{permission.Config{Allow: []string{"mcp__docs"}, Ask: []string{"ReadMcpResourceTool(docs)"}}, "ReadMcpResourceTool", read, permission.Ask, "ReadMcpResourceTool(docs)", "needs confirmation by ask rule ReadMcpResourceTool(docs)"},
		// Another server's rules, or its tools', do not speak for it.
		{permission.Config{Allow: []string{"mcp__other"}, Deny: []string{"mcp__other"}}, "ReadMcpResourceTool", read, permission.Ask, "default", "no rule matched; the default for other tools is ask"},
		{permission.Config{Deny: []string{"mcp__docs__search"}}, "ReadMcpResourceTool", read, permission.Ask, "default", "no rule matched; the default for other tools is ask"},
		// The server's name as Claude Code writes it in tool names.
		{permission.Config{Deny: []string{"mcp__my_docs"}}, "ReadMcpResourceTool", `{"server":"my.docs","uri":"x"}`, permission.Deny, "mcp__my_docs", "denied by deny rule mcp__my_docs"},
		// No server named: no one server's rules.
		// No server named: every server, so a rule denying or asking for
		// any one of them asks, naming it, even where the tool is allowed.
		{permission.Config{Deny: []string{"mcp__docs"}}, "ListMcpResourcesTool", `{}`, permission.Ask, "mcp__docs", `names no MCP server, so it reaches every one, and rule mcp__docs denies server "docs"`},
		{permission.Config{Deny: []string{"mcp__docs"}, Allow: []string{"ListMcpResourcesTool"}}, "ListMcpResourcesTool", `{}`, permission.Ask, "mcp__docs", `rule mcp__docs denies server "docs"`},
		{permission.Config{Deny: []string{"mcp__docs"}, Allow: []string{"ListMcpResourcesTool"}}, "ListMcpResourcesTool", `{"server":""}`, permission.Ask, "mcp__docs", `rule mcp__docs denies server "docs"`},
		{permission.Config{Ask: []string{"mcp__docs__*"}, Allow: []string{"ListMcpResourcesTool"}}, "ListMcpResourcesTool", `{}`, permission.Ask, "mcp__docs__*", `rule mcp__docs__* asks for server "docs"`},
		{permission.Config{Deny: []string{"mcp__*"}, Allow: []string{"ListMcpResourcesTool"}}, "ListMcpResourcesTool", `{}`, permission.Ask, "mcp__*", "rule mcp__* denies every server"},
		// The tool's own deny stays a deny.
		{permission.Config{Deny: []string{"mcp__docs", "ListMcpResourcesTool"}}, "ListMcpResourcesTool", `{}`, permission.Deny, "ListMcpResourcesTool", "denied by deny rule ListMcpResourcesTool"},
		// A rule for one tool of a server, or an allow for a server, does
		// not make the listing ask.
		{permission.Config{Deny: []string{"mcp__docs__search"}, Allow: []string{"mcp__other", "ListMcpResourcesTool"}}, "ListMcpResourcesTool", `{}`, permission.Allow, "ListMcpResourcesTool", "allowed by allow rule ListMcpResourcesTool"},
		{permission.Config{Allow: []string{"ListMcpResourcesTool"}}, "ListMcpResourcesTool", `{}`, permission.Allow, "ListMcpResourcesTool", "allowed by allow rule ListMcpResourcesTool"},
		{permission.Config{Deny: []string{"mcp__docs"}}, "ReadMcpResourceTool", `{"server":7,"uri":"x"}`, permission.Deny, "input:field-type", `input field "server" must be a string`},
	} {
		v := check(tc.cfg, tc.tool, tc.input)
		assert.Equal(t, tc.want, v.Decision, "%v %s %s: %s", tc.cfg, tc.tool, tc.input, v.Reason)
		assert.Equal(t, tc.rule, string(v.Rule), "%v %s %s: %s", tc.cfg, tc.tool, tc.input, v.Reason)
		assert.Contains(t, v.Reason, tc.reason, "%v %s %s", tc.cfg, tc.tool, tc.input)
	}
}

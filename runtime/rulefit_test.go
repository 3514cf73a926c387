package runtime_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/tool"
)

// A rule for a host's own shell tool means its command: run_shell(git
// push:*) denies git push through run_shell without the host naming the
// tool a shell (Open reads it from the tool's command field); a rule that
// can never match is reported in Warnings.
func TestOpenReadsRuleKindsFromTheTools(t *testing.T) {
	dir := workspaceDir(t)
	runShell := &tool.Descriptor{ToolName: "run_shell", Base: tool.Traits{Kind: permission.KindExec, CommandFields: []string{"cmd"}}}
	openFile := &tool.Descriptor{ToolName: "open_file", Base: tool.Traits{Kind: permission.KindRead, PathFields: []string{"where"}}}
	noFields := &tool.Descriptor{ToolName: "ping", Base: tool.Traits{Kind: permission.KindOther}}
	tools, err := tool.ClaudeCodeTools().With(runShell, openFile, noFields)
	require.NoError(t, err)
	p, err := runtime.Open(runtime.Workspace{Dir: dir, Tools: tools, Rules: permission.Config{
		Deny:    []string{"run_shell(git push:*)", "open_file(./.secret-notes)", "Bash(npm publish:*)"},
		Allow:   []string{"ping(anything)", "nosuchtool", "Bash(domain:x.org)", "mcp__github__*"},
		Default: permission.Ask,
	}})
	require.NoError(t, err)
	ctx := context.Background()
	sess, err := p.Session(ctx, runtime.SessionOptions{ID: "s"})
	require.NoError(t, err)
	defer sess.End("done", "", nil)

	v := p.Check(ctx, runtime.Call{Session: "s", Tool: "run_shell", Input: json.RawMessage(`{"cmd":"git push origin main"}`)})
	assert.Equal(t, permission.Deny, v.Decision, v.Reason)
	assert.Equal(t, "run_shell(git push:*)", string(v.Rule), v.Reason)
	v = p.Check(ctx, runtime.Call{Session: "s", Tool: "open_file", Input: json.RawMessage(`{"where":".secret-notes"}`)})
	assert.Equal(t, permission.Deny, v.Decision, v.Reason)
	assert.Equal(t, "open_file(./.secret-notes)", string(v.Rule), v.Reason)

	assert.ElementsMatch(t, []string{
		`allow rule 0 "ping(anything)" can never match: ping takes no specifier, so only the bare ping names its calls`,
		`allow rule 1 "nosuchtool" can never match: the registry has no tool nosuchtool`,
		`allow rule 2 "Bash(domain:x.org)" can never match: Bash takes no URL or domain, so a domain: rule names none of its calls`,
	}, p.Warnings())
}

package eino_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/contrib/eino"
	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	tgtool "github.com/toolgate/toolgate/runtime/tool"
)

type readFile struct{ ran []string }

func (*readFile) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: "read_file", Desc: "reads a file"}, nil
}

func (r *readFile) InvokableRun(_ context.Context, args string, _ ...tool.Option) (string, error) {
	var in struct {
		Path string `json:"path"`
	}
	if err := json.Unmarshal([]byte(args), &in); err != nil {
		return "", err
	}
	r.ran = append(r.ran, in.Path)
	b, err := os.ReadFile(in.Path)
	return string(b), err
}

// The tools node runs a model's two tool calls: the read inside the roots
// is allowed and redacted by a hook, the one outside is denied and its
// tool message carries the reason; the tool runs only for the first.
func TestToolsNode(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	inside := filepath.Join(dir, "a.txt")
	require.NoError(t, os.WriteFile(inside, []byte("TOKEN=abc123"), 0o644))
	set := hooks.NewSet(hooks.Hook{Name: "redact", PostToolUse: func(_ context.Context, e hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) {
		return hooks.MutateOutput(strings.ReplaceAll(e.Output, "abc123", "***")), nil
	}})
	defer set.Close()
	p, err := runtime.Open(runtime.Workspace{Dir: dir, Hooks: set, Rules: permission.Config{Allow: []string{"read_file"}}})
	require.NoError(t, err)
	require.NoError(t, p.AddTools(&tgtool.Descriptor{ToolName: "read_file",
		Base: tgtool.Traits{Kind: permission.KindRead, PathFields: []string{"path"}, RequiredFields: []string{"path"}}}))

	ctx := context.Background()
	rf := &readFile{}
	node, err := compose.NewToolNode(ctx, &compose.ToolsNodeConfig{Tools: []tool.BaseTool{rf},
		ToolCallMiddlewares: []compose.ToolMiddleware{eino.Middleware(p, eino.Options{})}})
	require.NoError(t, err)
	msg := schema.AssistantMessage("", []schema.ToolCall{
		{ID: "c1", Function: schema.FunctionCall{Name: "read_file", Arguments: `{"path":"` + inside + `"}`}},
		{ID: "c2", Function: schema.FunctionCall{Name: "read_file", Arguments: `{"path":"/etc/shadow"}`}},
	})
	out, err := node.Invoke(ctx, msg)
	require.NoError(t, err)
	require.Len(t, out, 2)
	got := map[string]string{}
	for _, m := range out {
		got[m.ToolCallID] = m.Content
	}
	assert.Equal(t, "TOKEN=***", got["c1"])
	assert.Contains(t, got["c2"], "denied (")
	assert.Contains(t, got["c2"], "outside")
	assert.NotContains(t, got["c2"], "root:")
	assert.Equal(t, []string{inside}, rf.ran)
}

// shot is an enhanced tool that returns a text part and an image.
type shot struct{ ran int }

func (*shot) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: "screenshot", Desc: "takes a screenshot"}, nil
}

func (s *shot) InvokableRun(context.Context, *schema.ToolArgument, ...tool.Option) (*schema.ToolResult, error) {
	s.ran++
	url := "https://example.com/shot.png"
	return &schema.ToolResult{Parts: []schema.ToolOutputPart{
		{Type: schema.ToolPartTypeText, Text: "window title: TOKEN=abc123"},
		{Type: schema.ToolPartTypeImage, Image: &schema.ToolOutputImage{MessagePartCommon: schema.MessagePartCommon{URL: &url, MIMEType: "image/png"}}},
	}}, nil
}

// A multimodal result reaches the model with its text as the PostToolUse
// hooks left it and its image as the tool gave it; a refused call of the
// same tool does not run and the model reads the reason.
func TestEnhancedToolParts(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	set := hooks.NewSet(hooks.Hook{Name: "redact", PostToolUse: func(_ context.Context, e hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) {
		return hooks.MutateOutput(strings.ReplaceAll(e.Output, "abc123", "***")), nil
	}, PreToolUse: func(_ context.Context, e hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
		if strings.Contains(string(e.Input), "private") {
			return hooks.Block("private windows are not captured"), nil
		}
		return hooks.PreToolUseResult{}, nil
	}})
	defer set.Close()
	p, err := runtime.Open(runtime.Workspace{Dir: dir, Hooks: set, Rules: permission.Config{Allow: []string{"screenshot"}}})
	require.NoError(t, err)
	require.NoError(t, p.AddTools(&tgtool.Descriptor{ToolName: "screenshot", Base: tgtool.Traits{Kind: permission.KindOther}}))
	ctx := context.Background()
	s := &shot{}
	conf := &compose.ToolsNodeConfig{Tools: []tool.BaseTool{s}}
	eino.Configure(p, conf, eino.Options{})
	node, err := compose.NewToolNode(ctx, conf)
	require.NoError(t, err)
	out, err := node.Invoke(ctx, schema.AssistantMessage("", []schema.ToolCall{
		{ID: "c1", Function: schema.FunctionCall{Name: "screenshot", Arguments: `{"window":"editor"}`}}}))
	require.NoError(t, err)
	require.Len(t, out, 1)
	parts := out[0].UserInputMultiContent
	require.Len(t, parts, 2)
	assert.Equal(t, "window title: TOKEN=***", parts[0].Text)
	require.NotNil(t, parts[1].Image)
	assert.Equal(t, "https://example.com/shot.png", *parts[1].Image.URL)

	out, err = node.Invoke(ctx, schema.AssistantMessage("", []schema.ToolCall{
		{ID: "c2", Function: schema.FunctionCall{Name: "screenshot", Arguments: `{"window":"private"}`}}}))
	require.NoError(t, err)
	require.Len(t, out[0].UserInputMultiContent, 1)
	assert.Equal(t, "denied (L3 hooks): private windows are not captured", out[0].UserInputMultiContent[0].Text)
	assert.Equal(t, 1, s.ran, "the refused call did not run")
}

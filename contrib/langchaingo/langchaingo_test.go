package langchaingo_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/llms/fake"
	"github.com/tmc/langchaingo/schema"
	"github.com/tmc/langchaingo/tools"

	"github.com/toolgate/toolgate/contrib/langchaingo"
	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/tool"
)

// readFile is a langchaingo tool that reads the file its input names.
type readFile struct{ ran []string }

func (*readFile) Name() string        { return "read_file" }
func (*readFile) Description() string { return "reads a file" }
func (r *readFile) Call(_ context.Context, path string) (string, error) {
	r.ran = append(r.ran, path)
	b, err := os.ReadFile(strings.TrimSpace(path))
	return string(b), err
}

// A scripted model drives langchaingo's one-shot agent: it reads a file
// inside the roots (allowed, redacted by a hook), then one outside (denied,
// and the reason is the observation the model gets), then answers.
func TestAgentLoop(t *testing.T) {
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
	rf := &readFile{}
	tool, err := langchaingo.Wrap(p, rf, langchaingo.Options{Traits: tool.Traits{Kind: permission.KindRead, PathFields: []string{"input"}}})
	require.NoError(t, err)

	model := fake.NewFakeLLM([]string{
		"I will read it.\nAction: read_file\nAction Input: " + inside,
		"Now the other.\nAction: read_file\nAction Input: /etc/shadow",
		"Final Answer: done",
	})
	ex := agents.NewExecutor(agents.NewOneShotAgent(model, []tools.Tool{tool}), agents.WithReturnIntermediateSteps(), agents.WithMaxIterations(5))
	out, err := ex.Call(context.Background(), map[string]any{"input": "read the files"})
	require.NoError(t, err)
	steps, ok := out["intermediateSteps"].([]schema.AgentStep)
	require.True(t, ok, "%#v", out)
	require.Len(t, steps, 2)
	assert.Equal(t, "TOKEN=***", steps[0].Observation)
	assert.Contains(t, steps[1].Observation, "denied (")
	assert.Contains(t, steps[1].Observation, "outside")
	assert.NotContains(t, steps[1].Observation, "root:")
	assert.Equal(t, []string{inside}, rf.ran, "the denied call never reached the tool")
	assert.Equal(t, "done", out["output"])
}

package langchaingo_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms/fake"
	"github.com/tmc/langchaingo/schema"
	"github.com/tmc/langchaingo/tools"

	"github.com/toolgate/toolgate/contrib/langchaingo"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/adaptertest"
)

// kitTool is the kit's tool as a langchaingo tool: one string, the path.
type kitTool struct{ t adaptertest.Tool }

func (k kitTool) Name() string        { return k.t.Name }
func (k kitTool) Description() string { return "reads the file its input names" }
func (k kitTool) Call(ctx context.Context, input string) (string, error) {
	in, _ := json.Marshal(map[string]string{"input": input})
	return k.t.Run(ctx, in)
}

// wrapped wraps the kit's tool and returns it with the string a model's
// call gives it.
func wrapped(p *runtime.Pipeline, t adaptertest.Tool, input json.RawMessage) (tools.Tool, string, error) {
	w, err := langchaingo.Wrap(p, kitTool{t}, langchaingo.Options{Traits: t.Traits})
	if err != nil {
		return nil, "", err
	}
	var in struct {
		Input string `json:"input"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, "", err
	}
	return w, in.Input, nil
}

// A wrapped tool called directly, and by an agent executor whose model
// (a scripted one) asks for it: the observation is what the model reads.
func TestConformance(t *testing.T) {
	adaptertest.Run(t, adaptertest.Framework{Field: "input", Registers: true, Paths: []adaptertest.Path{
		{Name: "Call", Call: func(ctx context.Context, p *runtime.Pipeline, t adaptertest.Tool, input json.RawMessage) (string, error) {
			w, s, err := wrapped(p, t, input)
			if err != nil {
				return "", err
			}
			out, err := w.Call(ctx, s)
			if err != nil {
				return err.Error(), nil
			}
			return out, nil
		}},
		{Name: "agent executor", Call: func(ctx context.Context, p *runtime.Pipeline, t adaptertest.Tool, input json.RawMessage) (string, error) {
			w, s, err := wrapped(p, t, input)
			if err != nil {
				return "", err
			}
			llm := fake.NewFakeLLM([]string{"Thought: I read it.\nAction: " + t.Name + "\nAction Input: " + s, "Final Answer: done"})
			ex := agents.NewExecutor(agents.NewOneShotAgent(llm, []tools.Tool{w}), agents.WithMaxIterations(3), agents.WithReturnIntermediateSteps())
			out, err := chains.Call(ctx, ex, map[string]any{"input": "read the notes"})
			if err != nil {
				return "", err
			}
			steps, _ := out["intermediateSteps"].([]schema.AgentStep)
			if len(steps) != 1 {
				return "", errors.New("the agent did not call the tool once")
			}
			return steps[0].Observation, nil
		}},
	}})
}

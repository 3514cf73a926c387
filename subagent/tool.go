package subagent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/tool"
)

// Tool returns the descriptor of a subagent tool called name (Claude
// Code's is "Task"): kind [permission.KindSubagent], not concurrency-safe,
// and [tool.InterruptBlock], so that a parent cancelled while a
// subagent runs waits for it to finish or be cancelled instead of leaving
// it half done. Its input is an [Input].
func Tool(name string) *tool.Descriptor {
	return &tool.Descriptor{ToolName: name, Base: tool.Traits{
		Kind: permission.KindSubagent, Interrupt: tool.InterruptBlock,
	}}
}

// Input is the subagent tool's input, in Claude Code's Task tool's shape.
type Input struct {
	// Type names the subagent's [Spec].
	Type string `json:"subagent_type"`
	// Prompt is the task.
	Prompt string `json:"prompt"`
	// Description is a short summary for people; it is not used.
	Description string `json:"description,omitempty"`
}

// Runner runs the calls of a subagent tool: each spawns the named subagent
// as a child of the calling session and runs its loop to the end. Host
// tool functions hand the subagent tool's calls to [Runner.RunCall].
//
// Nesting through a Runner can only narrow too: a subagent it started may
// start subagents no deeper than its own spec's MaxDepth allows, whatever
// the nested spec says.
//
// RunCall reads the fields and never writes them, so one Runner serves
// every session and goroutine once set up. A Runner must not be copied
// after first use.
type Runner struct {
	// Pipeline is the pipeline of the parent sessions.
	Pipeline *runtime.Pipeline
	// Specs are the subagents that may be started, by [Spec.Name].
	Specs []Spec
	// Model answers the turns of every subagent; [Turn.Agent] says which.
	Model Model
	// Run runs the subagents' admitted calls. To let a subagent start
	// subagents (within the depth bound), pass its subagent tool calls to
	// RunCall from here too.
	Run RunFunc

	mu sync.Mutex
	// depth holds the depth bound of each live child started by RunCall.
	depth map[string]int
}

// RunCall runs one subagent tool call of call.Session: it reads the
// [Input], spawns the subagent named by its Type as a child of the calling
// session (the child's session id is the caller's id, "/", and the call's
// id), runs it with [Child.Run] and returns its final answer. A refused
// spawn, an unknown subagent type or a run that ended without a final
// answer is an error with the reason, for the model to read.
//
// ctx is the tool call's context; since the subagent tool blocks, it is
// usually not cancelled with the parent, but the child is: cancelling the
// parent session cancels the child at once, and RunCall returns when the
// child's loop has ended.
func (r *Runner) RunCall(ctx context.Context, call runtime.Call) (string, error) {
	var in Input
	if err := json.Unmarshal(call.Input, &in); err != nil {
		return "", fmt.Errorf("subagent: input: %w", err)
	}
	spec, ok := r.spec(in.Type)
	if !ok {
		return "", fmt.Errorf("subagent: unknown subagent type %q", in.Type)
	}
	if r.Pipeline == nil {
		return "", errors.New("subagent: the runner has no pipeline")
	}
	bound := max(spec.MaxDepth, 1)
	r.mu.Lock()
	if b, ok := r.depth[call.Session]; ok && b < bound {
		bound = b // the caller is a subagent: no deeper than its own bound
	}
	r.mu.Unlock()
	spec.MaxDepth = bound
	c, err := Spawn(ctx, r.Pipeline, call.Session, spec, Task{
		ID: call.Session + "/" + call.ID, CallID: call.ID, Prompt: in.Prompt,
	})
	if err != nil {
		return "", err
	}
	r.mu.Lock()
	if r.depth == nil {
		r.depth = make(map[string]int)
	}
	r.depth[c.ID()] = bound
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.depth, c.ID())
		r.mu.Unlock()
	}()
	res := c.Run(ctx, r.Model, r.Run)
	if res.Stop != StopCompleted {
		return res.Final, fmt.Errorf("subagent %q stopped (%s) after %d step(s): %s", res.Agent, res.Stop, res.Steps, res.Reason)
	}
	return res.Final, nil
}

func (r *Runner) spec(name string) (Spec, bool) {
	for _, s := range r.Specs {
		if s.Name == name {
			return s, true
		}
	}
	return Spec{}, false
}

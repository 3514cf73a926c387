package subagent

import (
	"context"
	"errors"
	"fmt"

	"github.com/toolgate/toolgate/runtime"
)

// Turn is what a [Model] sees at the start of one step of a subagent's
// loop.
type Turn struct {
	// Agent is the subagent's name.
	Agent string
	// Task is the prompt it was given.
	Task string
	// Step is the step number, counted from 1.
	Step int
	// Status is the child's layer-7 state; its signals say to nudge, to
	// answer without tools (past the step limit) or to stop.
	Status runtime.Status
	// ToolsOffered is false when the model must give its final answer:
	// calls it returns then end the run instead of running.
	ToolsOffered bool
	// Results are the previous step's calls with their verdicts and outputs;
	// nil at the first step.
	Results []runtime.Result
}

// Model is one model turn of a subagent: given the turn, the tool calls to
// make (their Session fields are ignored: they are always the child's) or,
// with no calls, the final answer. ctx is the child's session context:
// cancelled with the child. An error ends the run.
type Model func(ctx context.Context, turn Turn) (calls []runtime.Call, final string, err error)

// RunFunc runs one admitted tool call with its final input, as in
// [runtime.Pipeline.Executor].
type RunFunc func(ctx context.Context, call runtime.Call) (string, error)

// Stop says how a subagent's run ended. The zero value is StopFailed.
type Stop uint8

const (
	// StopFailed: the model failed or panicked, or the child was gone.
	StopFailed Stop = iota
	// StopCompleted: the model gave its final answer.
	StopCompleted
	// StopStepLimit: the model asked for tools past the step limit.
	StopStepLimit
	// StopDiminishing: layer 7 raised SignalStop (steps adding little)
	// and the model still asked for tools.
	StopDiminishing
	// StopCancelled: the child was cancelled, with its parent or alone.
	StopCancelled
)

var stopNames = [...]string{"failed", "completed", "step-limit", "diminishing", "cancelled"}

// String returns "failed", "completed", "step-limit", "diminishing" or
// "cancelled".
func (s Stop) String() string {
	if int(s) < len(stopNames) {
		return stopNames[s]
	}
	return fmt.Sprintf("Stop(%d)", uint8(s))
}

// Result is the outcome of a subagent's run.
type Result struct {
	// Agent is the subagent's name and Session its session id.
	Agent, Session string
	// Stop says how the run ended and Reason why, for a person.
	Stop   Stop
	Reason string
	// Final is the model's final answer (empty unless it gave one).
	Final string
	// Steps is the number of steps begun.
	Steps int
	// Calls are every call of the run, in order, with verdict and output.
	Calls []runtime.Result
}

// Run runs the child's ReAct loop to its end: each step begins through the
// pipeline ([runtime.Session.BeginStep]), the model answers, its calls are
// checked and run by the pipeline's [runtime.Executor] with run, and their
// results go to the next turn. The loop ends when the model gives a final
// answer, when it asks for tools past the step limit or after layer 7's
// stop signal, when the model fails, or when the child is cancelled (with
// its parent, by the context given to [Spawn], or by ctx); then the child
// session ends with the reason. Run blocks until then: a tool with
// [tool.InterruptBlock] finishes first, one with
// [tool.InterruptCancel] sees its context cancelled at once.
//
// Run may be called once.
func (c *Child) Run(ctx context.Context, model Model, run RunFunc) (res Result) {
	res = Result{Agent: c.spec.Name, Session: c.id}
	sctx := c.session.Context()
	stop := context.AfterFunc(ctx, func() {
		c.session.Cancel(fmt.Sprintf("the run's context ended: %v", context.Cause(ctx)))
	})
	defer stop()
	defer func() {
		if r := recover(); r != nil {
			res.Stop, res.Reason = StopFailed, fmt.Sprintf("the model panicked: %v", r)
		}
		var err error
		if res.Stop == StopFailed {
			err = errors.New(res.Reason)
		}
		c.end(res.Stop.String()+": "+res.Reason, res.Final, err)
	}()
	if model == nil {
		res.Reason = "no model"
		return res
	}
	exec := c.p.Executor(run)
	var last []runtime.Result
	for {
		if errors.Is(context.Cause(sctx), runtime.ErrSessionEnded) {
			// Ended by another hand (End, idle expiry): the child is gone.
			res.Reason = "the child session ended before its run did"
			return res
		}
		st := c.session.BeginStep()
		res.Steps = st.Step
		if st.Signals.Has(runtime.SignalCancelled) {
			res.Stop, res.Reason = StopCancelled, st.Reason
			return res
		}
		final := st.Signals&(runtime.SignalFinalAnswer|runtime.SignalStop) != 0
		calls, answer, err := model(sctx, Turn{Agent: c.spec.Name, Task: c.task.Prompt, Step: st.Step,
			Status: st, ToolsOffered: !final, Results: last})
		if cerr := context.Cause(c.session.Context()); cerr != nil {
			res.Stop, res.Reason = StopCancelled, "session is cancelled: "+cerr.Error()
			return res
		}
		if err != nil {
			res.Reason = "the model failed: " + err.Error()
			return res
		}
		if len(calls) == 0 {
			res.Stop, res.Reason, res.Final = StopCompleted, "final answer", answer
			return res
		}
		if final {
			res.Stop, res.Final = StopStepLimit, answer
			if !st.Signals.Has(runtime.SignalFinalAnswer) {
				res.Stop = StopDiminishing
			}
			res.Reason = fmt.Sprintf("the model asked for %d tool call(s) when tools were no longer offered: %s", len(calls), st.Reason)
			return res
		}
		for i := range calls {
			calls[i].Session = c.id
		}
		last = exec.Execute(sctx, calls)
		res.Calls = append(res.Calls, last...)
	}
}

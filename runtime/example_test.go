package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/tool"
)

// examplePipeline is a pipeline whose one tool, search, reads nothing
// from the disk and is allowed by default.
func examplePipeline(l runtime.Limits) *runtime.Pipeline {
	checker, err := permission.New(permission.Config{Default: permission.Allow})
	if err != nil {
		panic(err)
	}
	tools, err := tool.NewRegistry(&tool.Descriptor{ToolName: "search", Base: tool.Traits{Kind: permission.KindRead}})
	if err != nil {
		panic(err)
	}
	p, err := runtime.New(runtime.Config{Tools: tools, Checker: checker, Limits: l})
	if err != nil {
		panic(err)
	}
	return p
}

func ExamplePipeline_Session() {
	p := examplePipeline(runtime.Limits{})
	ctx := context.Background()
	s, err := p.Session(ctx, runtime.SessionOptions{ID: "conversation-1"})
	if err != nil {
		panic(err)
	}
	defer s.End("done", "", nil)
	s.BeginStep()
	// The same call three times, spelt two ways: layer 7 denies the third.
	for _, in := range []string{`{"q":"a"}`, `{ "q" : "a" }`, `{"q":"a"}`} {
		v := p.Check(ctx, runtime.Call{Session: s.ID(), Tool: "search", Input: json.RawMessage(in)})
		fmt.Println(v.Decision, v.Layer, v.Rule)
	}
	s.Cancel("user pressed stop")
	v := p.Check(ctx, runtime.Call{Session: s.ID(), Tool: "search", Input: json.RawMessage(`{"q":"b"}`)})
	fmt.Println(v.Decision, v.Rule, v.Reason)
	// Output:
	// allow L2 rules default
	// allow L2 rules default
	// deny L7 runtime runtime:repeat
	// deny runtime:cancelled session is cancelled: runtime: session cancelled: user pressed stop
}

func ExampleSession_BeginStep() {
	p := examplePipeline(runtime.Limits{MaxSteps: 1})
	s, err := p.Session(context.Background(), runtime.SessionOptions{ID: "c"})
	if err != nil {
		panic(err)
	}
	defer s.End("done", "", nil)
	fmt.Println(s.BeginStep().Signals)
	st := s.BeginStep()
	fmt.Println(st.Signals, "-", st.Reason)
	// Output:
	// none
	// final-answer - step 2 is past the limit of 1 steps: stop offering tools and ask for the final answer
}

func ExampleExecutor() {
	e := &runtime.Executor{
		Tools: tool.GenericTools(),
		Check: func(_ context.Context, c runtime.Call) runtime.Verdict {
			if c.Tool == "file_write" {
				return runtime.Verdict{Result: permission.Result{Decision: permission.Deny, Layer: permission.LayerRules, Rule: "file_write", Reason: "writes are denied in this example"}}
			}
			return runtime.Verdict{Result: permission.Result{Decision: permission.Allow}}
		},
		Run: func(_ context.Context, c runtime.Call) (string, error) {
			return "ran " + c.ID, nil
		},
	}
	for _, r := range e.Execute(context.Background(), []runtime.Call{
		{ID: "1", Tool: "read_file", Input: json.RawMessage(`{"file_path":"a"}`)},
		{ID: "2", Tool: "grep_files", Input: json.RawMessage(`{"pattern":"x"}`)},
		{ID: "3", Tool: "file_write", Input: json.RawMessage(`{"file_path":"b"}`)},
	}) {
		fmt.Printf("%s ran=%v output=%q reason=%q\n", r.Call.ID, r.Ran, r.Output, r.Verdict.Reason)
	}
	// Output:
	// 1 ran=true output="ran 1" reason=""
	// 2 ran=true output="ran 2" reason=""
	// 3 ran=false output="" reason="writes are denied in this example"
}

package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

func ExampleRegistry_Restrict() {
	tools := runtime.ClaudeCodeTools()
	readOnly, err := tools.Restrict("Read", "Grep", "Glob")
	if err != nil {
		panic(err)
	}
	fmt.Println(readOnly.Names())
	_, err = tools.Restrict("Read", "Bsh")
	fmt.Println(err)
	// Output:
	// [Read Glob Grep]
	// runtime: restrict: unknown tool(s) "Bsh"
}

func ExampleSession_Gate() {
	var sessions runtime.Sessions
	s, _ := sessions.Start(context.Background(), "conversation-1")
	defer sessions.End("conversation-1")
	s.BeginStep()
	for _, in := range []string{`{"file_path":"a.go"}`, `{ "file_path" : "a.go" }`, `{"file_path":"a.go"}`} {
		g := s.Gate("Read", json.RawMessage(in))
		fmt.Println(strings.TrimSpace(fmt.Sprint(g.Decision, " ", g.Rule, " ", g.Reason)))
	}
	s.Cancel("user pressed stop")
	g := s.Gate("Read", json.RawMessage(`{"file_path":"b.go"}`))
	fmt.Println(g.Decision, g.Rule, g.Reason)
	// Output:
	// allow
	// allow
	// deny runtime:repeat the same Read call with the same input 3 times in a row: try something else
	// deny runtime:cancelled session is cancelled: runtime: session cancelled: user pressed stop
}

func ExampleSession_BeginStep() {
	sessions, _ := runtime.NewSessions(runtime.Limits{MaxSteps: 1})
	s, _ := sessions.Start(context.Background(), "c")
	defer sessions.End("c")
	fmt.Println(s.BeginStep().Signals)
	st := s.BeginStep()
	fmt.Println(st.Signals, "-", st.Reason)
	// Output:
	// none
	// final-answer - step 2 is past the limit of 1 steps: stop offering tools and ask for the final answer
}

func ExampleExecutor() {
	e := &runtime.Executor{
		Tools: runtime.GenericTools(),
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

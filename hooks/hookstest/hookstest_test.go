package hookstest_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/hooks/hookstest"
	"github.com/toolgate/toolgate/permission"
)

func TestRecorderRecordsEveryEventInOrder(t *testing.T) {
	var r hookstest.Recorder
	s := hooks.NewSet(r.Hook())
	defer s.Close()
	ctx := context.Background()
	require.NoError(t, s.SessionStart(ctx, hookstest.SessionStart()))
	o := s.PreToolUse(ctx, hookstest.PreToolUse("Bash", `{"command":"ls"}`))
	assert.Equal(t, permission.Allow, o.Decision)
	p := s.PostToolUse(ctx, hookstest.PostToolUse("Bash", `{"command":"ls"}`, "a.txt"))
	assert.Equal(t, "a.txt", p.Output)
	require.NoError(t, s.StepComplete(ctx, hookstest.StepComplete(1)))
	require.NoError(t, s.SubagentStart(ctx, hookstest.SubagentStart("explorer", "look")))
	require.NoError(t, s.SubagentStop(ctx, hookstest.SubagentStop("explorer", "seen")))
	require.NoError(t, s.PreCompact(ctx, hookstest.PreCompact("auto")))
	require.NoError(t, s.PostCompact(ctx, hookstest.PostCompact("auto")))
	require.NoError(t, s.SessionStop(ctx, hookstest.SessionStop("completed")))
	assert.Equal(t, []hooks.Event{hooks.EventSessionStart, hooks.EventPreToolUse, hooks.EventPostToolUse, hooks.EventStepComplete,
		hooks.EventSubagentStart, hooks.EventSubagentStop, hooks.EventPreCompact, hooks.EventPostCompact, hooks.EventSessionStop}, r.Events())
	pre := hookstest.Payloads[hooks.PreToolUseEvent](&r)
	require.Len(t, pre, 1)
	assert.Equal(t, "Bash", pre[0].ToolName)
	assert.Equal(t, hookstest.SessionID, pre[0].SessionID)
	stop := hookstest.Payloads[hooks.SessionStopEvent](&r)
	require.Len(t, stop, 1)
	assert.Equal(t, "completed", stop[0].Reason)
	r.Reset()
	assert.Empty(t, r.Records())
}

func TestRecorderPassesConformance(t *testing.T) {
	var r hookstest.Recorder
	hookstest.Run(t, r.Hook())
	assert.NotEmpty(t, r.Records(), "the suite called the hook")
}

func TestWellBehavedHookPasses(t *testing.T) {
	h := hooks.Hook{Name: "waits-politely", Timeout: time.Second,
		PreToolUse: func(ctx context.Context, e hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
			select {
			case <-ctx.Done():
				return hooks.Block("cancelled"), nil
			case <-time.After(time.Millisecond):
			}
			in := append(json.RawMessage(nil), e.Input...) // copy, then change the copy
			return hooks.MutateInput(in, "copied"), nil
		}}
	hookstest.Run(t, h)
}

// badHooks violate the conformance rules, one each. They are run by the
// child process started by TestRunReportsViolations.
func badHooks() []hooks.Hook {
	return []hooks.Hook{
		{Name: "panics", Timeout: time.Second, PostToolUse: func(context.Context, hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) {
			panic("boom")
		}},
		{Name: "slow", Timeout: 100 * time.Millisecond, SessionStart: func(context.Context, hooks.SessionStartEvent) error {
			time.Sleep(400 * time.Millisecond)
			return nil
		}},
		{Name: "scribbles", Timeout: time.Second, PreToolUse: func(_ context.Context, e hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
			if len(e.Input) > 0 {
				e.Input[0] = '['
			}
			return hooks.PreToolUseResult{}, nil
		}},
		{Name: "deaf", Timeout: 300 * time.Millisecond, StepComplete: func(ctx context.Context, e hooks.StepCompleteEvent) error {
			if ctx.Err() != nil {
				time.Sleep(time.Second) // ignores the cancellation
			}
			return nil
		}},
		{Name: "odd", Timeout: time.Second, PreToolUse: func(context.Context, hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
			return hooks.PreToolUseResult{Action: 42}, nil
		}},
		{Name: "empty"},
	}
}

func TestBadHooksChild(t *testing.T) {
	if os.Getenv("HOOKSTEST_CHILD") != "1" {
		t.Skip("run by TestRunReportsViolations in a child process")
	}
	for _, h := range badHooks() {
		t.Run(h.Name, func(t *testing.T) { hookstest.Run(t, h) })
	}
}

func TestRunReportsViolations(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestBadHooksChild$", "-test.v")
	cmd.Env = append(os.Environ(), "HOOKSTEST_CHILD=1")
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "the suite must fail bad hooks:\n%s", out)
	for _, want := range []string{
		"PostToolUse Bash panicked: boom",
		"SessionStart did not answer within 100ms (ctx done: false)",
		`PreToolUse Bash changed the event's input from {"command":"ls -la"} to ["command":"ls -la"} without returning it`,
		"StepComplete did not answer within 300ms (ctx done: true)",
		"PreToolUse Bash returned an invalid action 42",
		`hook "empty" has no callbacks`,
	} {
		assert.Contains(t, string(out), want)
	}
}

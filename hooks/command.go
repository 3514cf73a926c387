package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/toolgate/toolgate/internal/ccwire"
)

// Command configures a hook that runs an external command, speaking Claude
// Code's hook protocol, so hook scripts written for Claude Code work
// unchanged. Build the hook with [Command.Hook].
//
// # Input
//
// For each matching event the command gets one JSON object on stdin, with
// Claude Code's field names: session_id, transcript_path, cwd,
// permission_mode, hook_event_name, and for tool events tool_name,
// tool_input, tool_use_id and (PostToolUse) tool_response, the tool's
// output as a JSON string. SessionEnd adds reason and PreCompact/PostCompact
// trigger; agent_name and step are added as extensions.
//
// # Answers to PreToolUse
//
//   - exit 0 with empty stdout: Continue.
//   - exit 0 with a JSON object:
//     hookSpecificOutput.permissionDecision "deny" blocks the call with
//     permissionDecisionReason; "ask" requires permission (Ask); "allow"
//     is Continue — it never overrides a rule's Deny or Ask, as hooks can
//     only tighten a decision. updatedInput (a JSON object) replaces the
//     input and additionalContext is added to the context. The older
//     top-level "decision": "block" with "reason" blocks too, and
//     "continue": false blocks with stopReason.
//   - exit 2: the call is blocked; stderr is the reason.
//   - any other exit status, stdout that is not a JSON object, an unknown
//     permissionDecision, or running past Timeout: the call is blocked with
//     a reason naming the hook. This differs from Claude Code, which lets
//     the call go on (fails open) in these cases; toolgate fails closed.
//
// # Answers to PostToolUse
//
// hookSpecificOutput.updatedToolOutput (or Claude Code's
// updatedMCPToolOutput) replaces the output — a JSON string is used as the
// text, any other JSON value as its JSON text — and additionalContext is
// added to the outcome's Context. The call has already run, so nothing can
// be blocked: "decision": "block", "continue": false, exit 2 and every
// failure are reported as a failed callback (see [Set.OnFailure]) with the
// reason, and the output stays as it was.
//
// # Other events
//
// Exit 0 is success; exit 2 and any failure are reported with stderr.
type Command struct {
	// Name names the hook; empty means "command: " and the command.
	Name string
	// Argv is the program and its arguments, run directly (no shell).
	Argv []string
	// Shell, used instead of Argv, is a command line run with
	// /bin/sh -c, as Claude Code runs its "command" settings.
	Shell string
	// Matcher selects tools for PreToolUse and PostToolUse, as Claude
	// Code does: empty or "*" for all, an exact name, a "|" list of
	// names, or a regular expression matching the whole name. For
	// PreCompact and PostCompact it matches the trigger ("auto" or
	// "manual"); other events ignore it.
	Matcher string
	// Events lists the events the command handles; nil means
	// PreToolUse and PostToolUse.
	Events []Event
	// Dir is the command's working directory and the default cwd sent
	// on stdin; empty means the host's.
	Dir string
	// Env is the command's environment, as exec.Cmd.Env: nil inherits
	// the host's.
	Env []string
	// Timeout bounds each run; zero means DefaultTimeout. On timeout the
	// command's process group is killed.
	Timeout time.Duration
	// TranscriptPath is sent as transcript_path.
	TranscriptPath string
	// MaxOutput caps the stdout and stderr kept, each; zero means 1 MiB.
	// Longer output is cut, which makes a JSON answer invalid.
	MaxOutput int
}

// Hook validates c and returns the hook. The hook's Timeout is the
// command's plus a second of grace, so that the command's own timeout,
// which kills it, fires first.
func (c Command) Hook() (Hook, error) {
	switch {
	case len(c.Argv) == 0 && c.Shell == "":
		return Hook{}, errors.New("hooks: command hook: neither Argv nor Shell is set")
	case len(c.Argv) > 0 && c.Shell != "":
		return Hook{}, errors.New("hooks: command hook: both Argv and Shell are set")
	case len(c.Argv) > 0 && c.Argv[0] == "":
		return Hook{}, errors.New("hooks: command hook: empty program name")
	}
	m, err := compileMatcher(c.Matcher)
	if err != nil {
		return Hook{}, fmt.Errorf("hooks: command hook: matcher %q: %w", c.Matcher, err)
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxOutput <= 0 {
		c.MaxOutput = 1 << 20
	}
	if c.Name == "" {
		if c.Shell != "" {
			c.Name = "command: " + c.Shell
		} else {
			c.Name = "command: " + strings.Join(c.Argv, " ")
		}
	}
	events := c.Events
	if events == nil {
		events = []Event{EventPreToolUse, EventPostToolUse}
	}
	r := &commandRunner{c: c, m: m}
	h := Hook{Name: c.Name, Timeout: c.Timeout + time.Second}
	for _, ev := range events {
		switch ev {
		case EventSessionStart:
			h.SessionStart = func(ctx context.Context, e SessionStartEvent) error {
				return r.notify(ctx, ccwire.Event{SessionID: e.SessionID, Cwd: e.Cwd, PermissionMode: e.PermissionMode, AgentName: e.AgentName}, ev)
			}
		case EventPreToolUse:
			h.PreToolUse = r.preToolUse
		case EventPostToolUse:
			h.PostToolUse = r.postToolUse
		case EventStepComplete:
			h.StepComplete = func(ctx context.Context, e StepCompleteEvent) error {
				return r.notify(ctx, ccwire.Event{SessionID: e.SessionID, AgentName: e.AgentName, Step: e.Step}, ev)
			}
		case EventSessionStop:
			h.SessionStop = func(ctx context.Context, e SessionStopEvent) error {
				return r.notify(ctx, ccwire.Event{SessionID: e.SessionID, AgentName: e.AgentName, Step: e.Step, Reason: e.Reason}, ev)
			}
		case EventSubagentStart:
			h.SubagentStart = func(ctx context.Context, e SubagentStartEvent) error {
				return r.notify(ctx, ccwire.Event{SessionID: e.SessionID, AgentName: e.Subagent, Step: e.Step, ToolUseID: e.CallID}, ev)
			}
		case EventSubagentStop:
			h.SubagentStop = func(ctx context.Context, e SubagentStopEvent) error {
				return r.notify(ctx, ccwire.Event{SessionID: e.SessionID, AgentName: e.Subagent, Step: e.Step, ToolUseID: e.CallID}, ev)
			}
		case EventPreCompact:
			h.PreCompact = func(ctx context.Context, e PreCompactEvent) error {
				if !m.match(e.Trigger) {
					return nil
				}
				return r.notify(ctx, ccwire.Event{SessionID: e.SessionID, AgentName: e.AgentName, Step: e.Step, Trigger: e.Trigger}, ev)
			}
		case EventPostCompact:
			h.PostCompact = func(ctx context.Context, e PostCompactEvent) error {
				if !m.match(e.Trigger) {
					return nil
				}
				return r.notify(ctx, ccwire.Event{SessionID: e.SessionID, AgentName: e.AgentName, Step: e.Step, Trigger: e.Trigger}, ev)
			}
		default:
			return Hook{}, fmt.Errorf("hooks: command hook: unknown event %v", ev)
		}
	}
	return h, nil
}

type commandRunner struct {
	c Command
	m matcher
}

// exitError reports a command's exit status other than 0 and 2.
type exitError struct {
	code   int
	stderr string
}

func (e *exitError) Error() string {
	s := "command exited with status " + strconv.Itoa(e.code)
	if e.stderr != "" {
		s += ": " + e.stderr
	}
	return s
}

// result of one run: exit status 0 or 2 (others are errors).
type commandResult struct {
	code   int
	stdout []byte
	stderr string
}

func (r *commandRunner) run(ctx context.Context, in ccwire.Event, ev Event) (commandResult, error) {
	in.HookEventName = ev.String()
	in.TranscriptPath = r.c.TranscriptPath
	if in.Cwd == "" {
		in.Cwd = r.c.Dir
	}
	payload, err := json.Marshal(in)
	if err != nil {
		return commandResult{}, fmt.Errorf("cannot encode the event: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, r.c.Timeout)
	defer cancel()
	var cmd *exec.Cmd
	if r.c.Shell != "" {
		cmd = exec.CommandContext(ctx, "/bin/sh", "-c", r.c.Shell)
	} else {
		cmd = exec.CommandContext(ctx, r.c.Argv[0], r.c.Argv[1:]...)
	}
	cmd.Dir, cmd.Env = r.c.Dir, r.c.Env
	cmd.Stdin = bytes.NewReader(payload)
	stdout, stderr := &capped{max: r.c.MaxOutput}, &capped{max: r.c.MaxOutput}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = time.Second
	killGroup(cmd)
	err = cmd.Run()
	res := commandResult{stdout: stdout.b.Bytes(), stderr: strings.TrimSpace(stderr.b.String())}
	if cerr := ctx.Err(); cerr != nil {
		if errors.Is(cerr, context.DeadlineExceeded) {
			return res, timeoutError{after: r.c.Timeout.String()}
		}
		return res, fmt.Errorf("session cancelled while the command ran: %w", context.Cause(ctx))
	}
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.Exited() {
			res.code = ee.ExitCode()
			if res.code == 2 {
				return res, nil
			}
			return res, &exitError{code: res.code, stderr: res.stderr}
		}
		return res, err
	}
	return res, nil
}

func (r *commandRunner) answer(res commandResult) (ccwire.Answer, bool, error) {
	var out ccwire.Answer
	text := bytes.TrimSpace(res.stdout)
	if len(text) == 0 {
		return out, false, nil
	}
	if text[0] != '{' {
		return out, false, fmt.Errorf("answer is not a JSON object: %.100q", text)
	}
	if err := json.Unmarshal(text, &out); err != nil {
		return out, false, fmt.Errorf("answer is not valid JSON: %v", err)
	}
	return out, true, nil
}

func (r *commandRunner) exit2Reason(res commandResult) string {
	if res.stderr != "" {
		return res.stderr
	}
	return "command hook " + strconv.Quote(r.c.Name) + " exited with status 2"
}

func (r *commandRunner) preToolUse(ctx context.Context, e PreToolUseEvent) (PreToolUseResult, error) {
	if !r.m.match(e.ToolName) {
		return PreToolUseResult{}, nil
	}
	res, err := r.run(ctx, ccwire.Event{SessionID: e.SessionID, Cwd: e.Cwd, PermissionMode: e.PermissionMode,
		ToolName: e.ToolName, ToolInput: e.Input, ToolUseID: e.CallID, AgentName: e.AgentName, Step: e.Step}, EventPreToolUse)
	if err != nil {
		return PreToolUseResult{}, err
	}
	if res.code == 2 {
		return Block(r.exit2Reason(res)), nil
	}
	out, ok, err := r.answer(res)
	if err != nil || !ok {
		return PreToolUseResult{}, err
	}
	hso := out.SpecificOrZero()
	if out.Continue != nil && !*out.Continue {
		reason := out.StopReason
		if reason == "" {
			reason = "command hook " + strconv.Quote(r.c.Name) + " answered continue: false"
		}
		return Block(reason), nil
	}
	var input json.RawMessage
	if len(hso.UpdatedInput) > 0 && string(hso.UpdatedInput) != "null" {
		if hso.UpdatedInput[0] != '{' {
			return PreToolUseResult{}, errors.New("updatedInput is not a JSON object")
		}
		input = hso.UpdatedInput
	}
	switch hso.PermissionDecision {
	case "deny":
		reason := hso.PermissionDecisionReason
		if reason == "" {
			reason = "denied by command hook " + strconv.Quote(r.c.Name)
		}
		return Block(reason), nil
	case "ask":
		reason := hso.PermissionDecisionReason
		if reason == "" {
			reason = "command hook " + strconv.Quote(r.c.Name) + " asks for confirmation"
		}
		p := PermissionRequired(reason)
		p.Input, p.Context = input, hso.AdditionalContext
		return p, nil
	case "allow", "":
	default:
		return PreToolUseResult{}, fmt.Errorf("unknown permissionDecision %q", hso.PermissionDecision)
	}
	switch out.Decision {
	case "block":
		reason := out.Reason
		if reason == "" {
			reason = "blocked by command hook " + strconv.Quote(r.c.Name)
		}
		return Block(reason), nil
	case "approve", "":
	default:
		return PreToolUseResult{}, fmt.Errorf("unknown decision %q", out.Decision)
	}
	if input != nil || hso.AdditionalContext != "" {
		return MutateInput(input, hso.AdditionalContext), nil
	}
	return PreToolUseResult{}, nil
}

func (r *commandRunner) postToolUse(ctx context.Context, e PostToolUseEvent) (PostToolUseResult, error) {
	if !r.m.match(e.ToolName) {
		return PostToolUseResult{}, nil
	}
	output, _ := json.Marshal(e.Output) // a string always encodes
	res, err := r.run(ctx, ccwire.Event{SessionID: e.SessionID, Cwd: e.Cwd, PermissionMode: e.PermissionMode,
		ToolName: e.ToolName, ToolInput: e.Input, ToolResponse: output, ToolUseID: e.CallID, AgentName: e.AgentName, Step: e.Step}, EventPostToolUse)
	if err != nil {
		return PostToolUseResult{}, err
	}
	if res.code == 2 {
		return PostToolUseResult{}, errors.New("blocked (exit status 2): " + r.exit2Reason(res))
	}
	out, ok, err := r.answer(res)
	if err != nil || !ok {
		return PostToolUseResult{}, err
	}
	if out.Continue != nil && !*out.Continue {
		return PostToolUseResult{}, errors.New("continue: false: " + out.StopReason)
	}
	if out.Decision == "block" {
		return PostToolUseResult{}, errors.New("decision block: " + out.Reason)
	}
	hso := out.SpecificOrZero()
	p := PostToolUseResult{Context: hso.AdditionalContext}
	upd := hso.UpdatedToolOutput
	if len(upd) == 0 {
		upd = hso.UpdatedMCPToolOutput
	}
	if len(upd) > 0 && string(upd) != "null" {
		p.Action = PostMutateOutput
		var s string
		if json.Unmarshal(upd, &s) == nil {
			p.Output = s
		} else {
			p.Output = string(upd)
		}
	}
	return p, nil
}

func (r *commandRunner) notify(ctx context.Context, in ccwire.Event, ev Event) error {
	res, err := r.run(ctx, in, ev)
	if err != nil {
		return err
	}
	if res.code == 2 {
		return errors.New("exit status 2: " + r.exit2Reason(res))
	}
	return nil
}

// capped is a bytes.Buffer that keeps at most max bytes and drops the rest.
type capped struct {
	b   bytes.Buffer
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.b.Len(); room > 0 {
		if len(p) > room {
			c.b.Write(p[:room])
		} else {
			c.b.Write(p)
		}
	}
	return len(p), nil
}

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/toolgate/toolgate/internal/ccwire"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

// Codex CLI (0.171.0) runs command hooks in Claude Code's shape, with its
// own rules for the answer (codex-rs/hooks: schema.rs, output_parser.rs,
// events/*.rs):
//
//   - Exit status 2 with a reason on stderr blocks a PreToolUse call and
//     denies a PermissionRequest, and the reason reaches the model; in
//     PostToolUse it replaces what the model sees of the output. Any other
//     non-zero status, a crash, or JSON Codex cannot parse (its answer
//     types reject unknown fields) is a failed hook, and the call goes on:
//     so toolgate blocks by exit status 2 only, never by JSON alone.
//   - PreToolUse has no Ask ("unsupported permissionDecision:ask" is a
//     failed hook) and no bare allow ("allow" needs updatedInput): an
//     Allow is the empty answer, an Ask a block whose reason names the
//     rule that would allow the call.
//   - PermissionRequest (the approval Codex itself would ask for) takes
//     allow or deny, or nothing, which leaves the question to the person.
//     toolgate denies what it denies and leaves the rest to the person: it
//     never grants an approval Codex would have asked for.
//   - permission_mode is always "bypassPermissions", whatever Codex's
//     approval policy: toolgate ignores it and judges in the settings'
//     default mode.
//   - tool_name is "Bash" for the shell tools (shell, exec_command), with
//     tool_input {command}, "apply_patch" with the patch as
//     tool_input.command, "mcp__server__tool" for MCP tools.
//
// Commands are judged, never wrapped in toolgate exec: Codex runs them in
// its own sandbox, where the launcher cannot set up its confinement.

// hostCodex names Codex CLI for --host.
const hostCodex = "codex"

// Codex's hook event names beyond Claude Code's.
const codexPermissionRequest = "PermissionRequest"

// codexQuiet are Codex's events that decide no tool call: toolgate answers
// them with nothing, which grants nothing (blocking a Stop would make
// Codex go on with the reason as a new prompt). Every other event it does
// not judge is blocked.
var codexQuiet = map[string]bool{
	"SessionStart": true, "UserPromptSubmit": true, "Stop": true, "StopFailure": true,
	"SubagentStart": true, "SubagentStop": true, "PreCompact": true, "PostCompact": true,
	"Interrupt": true, "Notification": true,
}

// codexEvent is a Codex hook event: Claude Code's fields and Codex's own.
type codexEvent struct {
	ccwire.Event
	TurnID string `json:"turn_id"`
	Model  string `json:"model"`
}

// isCodexEvent reports whether data is an event Codex CLI sent: Codex
// adds turn_id to every turn-scoped event, which Claude Code never sends.
func isCodexEvent(data []byte) bool {
	var probe struct {
		TurnID *string `json:"turn_id"`
	}
	return json.Unmarshal(data, &probe) == nil && probe.TurnID != nil
}

// codexAnswer is what toolgate writes back to Codex: stdout (JSON or
// nothing), stderr, and the exit status.
type codexAnswer struct {
	stdout []byte
	stderr string
	code   int
}

// codexBlock is the answer that blocks: exit status 2, reason on stderr.
// Codex takes an empty reason for a failed hook, so there is always one.
func codexBlock(reason string) codexAnswer {
	if strings.TrimSpace(reason) == "" {
		reason = "toolgate: blocked"
	}
	return codexAnswer{stderr: reason + "\n", code: 2}
}

// write writes a to e's streams and returns its exit status.
func (a codexAnswer) write(e env) int {
	if len(a.stdout) > 0 {
		_, _ = e.stdout.Write(append(a.stdout, '\n'))
	}
	if a.stderr != "" {
		_, _ = io.WriteString(e.stderr, a.stderr)
	}
	return a.code
}

// checkCodex answers one Codex CLI hook event read from data, with the
// settings src builds (managed, --settings files, state directory).
func checkCodex(data []byte, e env, managed string, settings []string, stateDir string) (code int) {
	defer func() {
		if r := recover(); r != nil {
			code = codexBlock(fmt.Sprintf("toolgate: internal error: %v", r)).write(e)
		}
	}()
	return answerCodex(data, e.getenv, managed, settings, stateDir).write(e)
}

// answerCodex is checkCodex's answer, without the streams.
func answerCodex(data []byte, getenv func(string) string, managed string, settings []string, stateDir string) codexAnswer {
	ev, err := parseCodexEvent(data)
	if err != nil {
		return codexBlock("toolgate: " + err.Error())
	}
	if codexQuiet[ev.HookEventName] {
		return codexAnswer{}
	}
	// Codex always says bypassPermissions; its transcript is not Claude
	// Code's, whose path toolgate reads for the project.
	ev.PermissionMode, ev.TranscriptPath = "", ""
	src := eventSource(ev.Event, getenv, managed, settings)
	src.judgedOnly = true
	if stateDir != "" {
		src.stateDir = stateDir
	}
	switch ev.HookEventName {
	case eventPre:
		return codexPre(ev.Event, src)
	case codexPermissionRequest:
		return codexPermission(ev.Event, src)
	case eventPost:
		return codexPost(ev.Event, src)
	}
	return codexBlock(fmt.Sprintf("toolgate: Codex hook event %q is not one toolgate judges", ev.HookEventName))
}

// parseCodexEvent decodes and checks a Codex hook event.
func parseCodexEvent(data []byte) (codexEvent, error) {
	var ev codexEvent
	if len(bytes.TrimSpace(data)) == 0 {
		return ev, errors.New("no hook event on stdin")
	}
	if len(data) > maxEventBytes {
		return ev, fmt.Errorf("the hook event is larger than %d bytes", maxEventBytes)
	}
	if err := json.Unmarshal(data, &ev); err != nil {
		return codexEvent{}, fmt.Errorf("the hook event is not valid JSON of the expected shape: %v", err)
	}
	switch name := ev.HookEventName; {
	case name == "":
		return ev, errors.New("the hook event has no hook_event_name")
	case codexQuiet[name]:
		return ev, nil
	case name != eventPre && name != eventPost && name != codexPermissionRequest:
		return ev, fmt.Errorf("Codex hook event %q is not one toolgate judges", name)
	}
	var missing []string
	if ev.SessionID == "" {
		missing = append(missing, "session_id")
	}
	if ev.Cwd == "" {
		missing = append(missing, "cwd")
	}
	if ev.ToolName == "" {
		missing = append(missing, "tool_name")
	}
	if len(ev.ToolInput) == 0 || string(ev.ToolInput) == "null" {
		missing = append(missing, "tool_input")
	}
	if len(missing) > 0 {
		return ev, fmt.Errorf("the hook event lacks %v", missing)
	}
	if !filepath.IsAbs(ev.Cwd) {
		return ev, fmt.Errorf("the hook event's cwd %q is not an absolute path", ev.Cwd)
	}
	return ev, nil
}

// codexPre answers a PreToolUse event.
func codexPre(ev event, src source) codexAnswer {
	v, asked, err := decideCodex(ev, src)
	if err != nil {
		return codexBlock("toolgate: " + err.Error())
	}
	switch v.Decision {
	case permission.Allow:
	case permission.Ask:
		return codexBlock(reasonOf(v) + " (" + codexAskNote(ev, src, v, asked) + ")")
	default:
		return codexBlock(reasonOf(v))
	}
	if inputChanged(ev.ToolInput, v.Input) {
		// Codex 0.171.0 parses updatedInput, but toolgate has not seen
		// it run the rewrite: the original, which toolgate did not
		// allow, might run instead.
		return codexBlock(reasonOf(v) + " (a PreToolUse hook rewrote the input, and toolgate does not hand Codex CLI rewritten input)")
	}
	if v.Context == "" {
		return codexAnswer{}
	}
	b, _ := json.Marshal(ccwire.Answer{Specific: &ccwire.Specific{HookEventName: eventPre, AdditionalContext: v.Context}})
	return codexAnswer{stdout: b}
}

// codexPermission answers a PermissionRequest event: Codex asks for an
// approval, and toolgate denies it or leaves it to the person.
func codexPermission(ev event, src source) codexAnswer {
	v, _, err := decideCodex(ev, src)
	if err != nil {
		return codexBlock("toolgate: " + err.Error())
	}
	if v.Decision == permission.Deny {
		return codexBlock(reasonOf(v))
	}
	return codexAnswer{}
}

// codexAskNote says how to allow a call toolgate would have asked about,
// since Codex's PreToolUse cannot ask the person: the exact rules an
// "allow always" answer would record (one per simple command, one per
// file of a patch), once toolgate has judged the call again with them and
// seen it allowed; where none fits, that a rule of the person's own is
// needed.
func codexAskNote(ev event, src source, v runtime.Verdict, paths []string) string {
	var rules []string
	switch {
	case ev.ToolName == "apply_patch":
		for _, p := range paths {
			if !strings.ContainsAny(p, "*?[]{}\\()") {
				rules = append(rules, "Edit(/"+p+")")
			}
		}
	case len(v.Commands) > 0:
		var args [][]string
		for _, c := range v.Commands {
			if c.Decision != permission.Allow {
				args = append(args, c.Args)
			}
		}
		rules, _ = permission.AllowAlwaysRules(ev.ToolName, args)
	case isMCPName(ev.ToolName):
		rules = []string{ev.ToolName}
	}
	note := "Codex CLI cannot ask from a hook, so toolgate blocks what it would ask about"
	if len(rules) > 0 {
		try := src
		try.tryAllow = rules
		if w, _, err := decideCodex(ev, try); err != nil || w.Decision != permission.Allow {
			rules = nil
		}
	}
	if len(rules) == 0 {
		return note + "; no exact rule allows it alone: see the reason, or write a rule of your own in ~/.claude/settings.json"
	}
	var r strings.Builder
	enc := json.NewEncoder(&r)
	enc.SetEscapeHTML(false) // the rules as the person types them
	_ = enc.Encode(rules)
	return note + "; to allow it, add " + strings.TrimSpace(r.String()) + " to permissions.allow in ~/.claude/settings.json"
}

// codexAddDirNote replaces addDirNote in Codex's reasons: Codex tells a
// hook nothing of its --add-dir directories or its sandbox's
// writable_roots either.
const codexAddDirNote = "Codex CLI's --add-dir and writable_roots do not reach hooks: list such directories in permissions.additionalDirectories"

// decideCodex judges a Codex call: a shell command or an MCP call as
// itself, a patch as a write to each file it names, the strictest
// decision winning; asked are the patch's files toolgate would ask about.
func decideCodex(ev event, src source) (v runtime.Verdict, asked []string, err error) {
	switch {
	case ev.ToolName == "Bash", isMCPName(ev.ToolName):
		v, err = decide(ev, src)
	case ev.ToolName == "apply_patch":
		v, asked, err = decidePatch(ev, src)
	default:
		return runtime.Verdict{}, nil, fmt.Errorf("Codex tool %q is not one toolgate judges; leave it out of the hook's matcher or deny it", ev.ToolName)
	}
	v.Reason = strings.ReplaceAll(v.Reason, "("+addDirNote+")", "("+codexAddDirNote+")")
	return v, asked, err
}

// decidePatch judges an apply_patch call as one Write per file the patch
// adds, updates, deletes or moves to; asked are the files it would ask
// about.
func decidePatch(ev event, src source) (runtime.Verdict, []string, error) {
	var in struct {
		Command string `json:"command"`
	}
	if err := json.Unmarshal(ev.ToolInput, &in); err != nil || in.Command == "" {
		return runtime.Verdict{}, nil, errors.New("cannot read the patch of apply_patch (tool_input.command)")
	}
	paths := patchPaths(in.Command)
	if len(paths) == 0 {
		return runtime.Verdict{}, nil, errors.New("the patch of apply_patch names no file")
	}
	var worst runtime.Verdict
	var asked []string
	for i, p := range paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(ev.Cwd, p)
		}
		input, _ := json.Marshal(map[string]string{"file_path": p, "content": ""})
		one := ev
		one.ToolName, one.ToolInput = "Write", input
		v, err := decide(one, src)
		if err != nil {
			return runtime.Verdict{}, nil, err
		}
		if v.Decision == permission.Ask {
			asked = append(asked, p)
		}
		if i == 0 || stricter(v.Decision, worst.Decision) {
			worst = v
		}
	}
	// The verdict is the patch's, not a Write's input.
	worst.Input = ev.ToolInput
	return worst, asked, nil
}

// stricter reports whether a is a stricter decision than b: Deny, then
// Ask, then Allow.
func stricter(a, b permission.Decision) bool {
	rank := map[permission.Decision]int{permission.Deny: 2, permission.Ask: 1, permission.Allow: 0}
	return rank[a] > rank[b]
}

// patchHeaders are the lines of Codex's patch format that name a file the
// patch writes (codex-rs/apply-patch).
var patchHeaders = []string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "}

// patchPaths are the files a patch in Codex's format writes, in order.
func patchPaths(patch string) []string {
	var paths []string
	for line := range strings.Lines(patch) {
		line = strings.TrimRight(line, "\r\n")
		for _, h := range patchHeaders {
			if p, ok := strings.CutPrefix(strings.TrimLeft(line, " \t"), h); ok && strings.TrimSpace(p) != "" {
				paths = append(paths, strings.TrimSpace(p))
			}
		}
	}
	return paths
}

// codexPost answers a PostToolUse event: the post hooks run, and an output
// they rewrote replaces what the model sees (exit status 2, the text on
// stderr). When they cannot run, the output is withheld: a redaction must
// not fail open.
func codexPost(ev event, src source) codexAnswer {
	output := responseText(ev.ToolResponse)
	o, err := runAfter(ev, src, runtime.Run{Output: output})
	if err != nil {
		return codexBlock("toolgate: the output is withheld: post hooks not run: " + err.Error())
	}
	if o.Err != nil {
		return codexBlock("toolgate: the output is withheld: a PostToolUse hook failed: " + o.Err.Error())
	}
	if o.Output != output {
		text := o.Output
		if o.Context != "" {
			text += "\n\n" + o.Context
		}
		if strings.TrimSpace(text) == "" {
			text = "toolgate: a PostToolUse hook withheld the output"
		}
		return codexBlock(text)
	}
	if o.Context == "" {
		return codexAnswer{}
	}
	b, _ := json.Marshal(ccwire.Answer{Specific: &ccwire.Specific{HookEventName: eventPost, AdditionalContext: o.Context}})
	return codexAnswer{stdout: b}
}

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

// Gemini CLI's command hooks (0.61.0, packages/core/src/hooks): a
// BeforeTool or AfterTool event as JSON on stdin, one JSON answer on
// stdout. Gemini reads a top-level decision ("allow", "deny" or "block",
// "ask") and reason; a BeforeTool deny's reason reaches the model as
// "Tool execution blocked: <reason>"; hookSpecificOutput.tool_input
// replaces the call's arguments (the scheduler rebuilds the call from
// them alone, so the answer carries the whole input); an AfterTool deny's
// reason replaces the tool's result, for the model and the person
// ("Tool result blocked: <reason>"), and hookSpecificOutput.
// additionalContext is appended to it. Exit status 2 blocks too, with
// stdout's JSON (or else stderr) as the answer.
//
// A Gemini call is judged as the Claude Code tool that does the same
// (geminiTools), through the same settings and Pipeline as Claude Code's
// PreToolUse, so one toolgate policy, in Claude Code's rule syntax,
// judges both. Gemini has no permission_mode: the settings' default mode
// applies. Gemini has no Ask a hook can raise without a person at the
// terminal (a headless run waits for ever), so an Ask is a Deny whose
// reason says how to allow the call.

// hostGemini names Gemini CLI for --host.
const hostGemini = "gemini"

// Gemini CLI's hook events toolgate judges.
const (
	geminiBeforeTool = "BeforeTool"
	geminiAfterTool  = "AfterTool"
)

// geminiOtherEvents are Gemini CLI's events that are not tool calls: they
// get the empty answer, which decides nothing of any tool.
var geminiOtherEvents = map[string]bool{
	"BeforeAgent": true, "AfterAgent": true, "SessionStart": true, "SessionEnd": true, "Notification": true,
	"PreCompress": true, "BeforeModel": true, "AfterModel": true, "BeforeToolSelection": true,
}

// isGeminiEvent reports whether data names one of Gemini CLI's own
// events, BeforeTool or AfterTool (the names Claude Code and Codex do
// not use), so that toolgate check answers in Gemini's shape without
// --host.
func isGeminiEvent(data []byte) bool {
	var e struct {
		HookEventName string `json:"hook_event_name"`
	}
	_ = json.Unmarshal(data, &e)
	return e.HookEventName == geminiBeforeTool || e.HookEventName == geminiAfterTool
}

// geminiEvent is one tool event as Gemini CLI writes it on a hook's stdin.
type geminiEvent struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	// ToolResponse is {llmContent, returnDisplay, error?} (AfterTool).
	ToolResponse json.RawMessage `json:"tool_response"`
	// MCPContext names an MCP tool's server and the server's own name for
	// the tool: Gemini's mcp_<server>_<tool> cannot be split where a
	// server's name holds an underscore.
	MCPContext *struct {
		ServerName string `json:"server_name"`
		ToolName   string `json:"tool_name"`
	} `json:"mcp_context"`
}

// geminiAnswer is what a Gemini CLI hook prints.
type geminiAnswer struct {
	Decision      string          `json:"decision,omitempty"`
	Reason        string          `json:"reason,omitempty"`
	SystemMessage string          `json:"systemMessage,omitempty"`
	Specific      *geminiSpecific `json:"hookSpecificOutput,omitempty"`
}

// geminiSpecific is an answer's hookSpecificOutput.
type geminiSpecific struct {
	HookEventName string `json:"hookEventName"`
	// ToolInput replaces the call's arguments (BeforeTool).
	ToolInput json.RawMessage `json:"tool_input,omitempty"`
	// AdditionalContext is appended to the tool's result (AfterTool).
	AdditionalContext string `json:"additionalContext,omitempty"`
}

// geminiTool is how one of Gemini CLI's tools is judged: as the Claude
// Code tool that does the same, its input's members renamed (members not
// named are not passed: they change nothing toolgate judges).
type geminiTool struct {
	Gemini, Claude string
	// Fields maps Gemini's member names to the Claude Code tool's.
	Fields map[string]string
}

// geminiTools are Gemini CLI 0.61.0's built-in tools that reach files,
// commands or the network (packages/core/src/tools/definitions), and its
// session tools; every other tool (read_many_files, invoke_agent, those a
// later release adds) is denied as one toolgate does not judge. An MCP
// tool is judged as mcp__<server>__<tool>, and web_fetch once per URL of
// its prompt (geminiCalls).
var geminiTools = []geminiTool{
	{"run_shell_command", "Bash", map[string]string{"command": "command", "description": "description", "is_background": "run_in_background"}},
	{"read_file", "Read", map[string]string{"file_path": "file_path"}},
	{"write_file", "Write", map[string]string{"file_path": "file_path", "content": "content"}},
	{"replace", "Edit", map[string]string{"file_path": "file_path", "old_string": "old_string", "new_string": "new_string", "allow_multiple": "replace_all"}},
	{"glob", "Glob", map[string]string{"pattern": "pattern", "dir_path": "path"}},
	{"grep_search", "Grep", map[string]string{"pattern": "pattern", "dir_path": "path", "include_pattern": "glob"}},
	{"list_directory", "LS", map[string]string{"dir_path": "path"}},
	{"google_web_search", "WebSearch", map[string]string{"query": "query"}},
	{"web_fetch", "WebFetch", nil},
	{"write_todos", "TodoWrite", map[string]string{"todos": "todos"}},
	{"enter_plan_mode", "EnterPlanMode", nil},
	{"ask_user", "AskUserQuestion", map[string]string{"questions": "questions"}},
	// Tools that change only the CLI's own state (the topic shown to the
	// person, a subagent's end, the task tracker) are judged as
	// TodoWrite, Claude Code's tool of that kind: a rule for TodoWrite
	// holds them too.
	{"update_topic", "TodoWrite", nil},
	{"complete_task", "TodoWrite", nil},
	{"tracker_create_task", "TodoWrite", nil},
	{"tracker_update_task", "TodoWrite", nil},
	{"tracker_get_task", "TodoWrite", nil},
	{"tracker_list_tasks", "TodoWrite", nil},
	{"tracker_add_dependency", "TodoWrite", nil},
	{"tracker_visualize", "TodoWrite", nil},
}

// geminiToolByName finds a row of geminiTools.
func geminiToolByName(name string) (geminiTool, bool) {
	for _, t := range geminiTools {
		if t.Gemini == name {
			return t, true
		}
	}
	return geminiTool{}, false
}

// urlPattern finds the URLs of a web_fetch prompt, as Gemini does: text
// starting with http:// or https:// up to white space.
var urlPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)https?://[^\s]+`) })

// geminiCalls translates a Gemini call into the Claude Code events that
// judge it: one, or one per URL for web_fetch. The error says why the call
// cannot be judged.
func geminiCalls(ev geminiEvent) ([]event, error) {
	if off, why := permission.DuplicateKeys(ev.ToolInput); off >= 0 {
		return nil, fmt.Errorf("the tool input cannot be judged: %s at offset %d", why, off)
	}
	var in map[string]json.RawMessage
	if err := json.Unmarshal(ev.ToolInput, &in); err != nil || in == nil {
		return nil, errors.New("the tool input is not a JSON object")
	}
	base := event{SessionID: ev.SessionID, Cwd: ev.Cwd, HookEventName: eventPre}
	if strings.HasPrefix(ev.ToolName, "mcp_") {
		c := ev.MCPContext
		if c == nil || c.ServerName == "" || c.ToolName == "" {
			return nil, fmt.Errorf("the MCP tool %s comes without mcp_context, so its server cannot be told", ev.ToolName)
		}
		if ev.ToolName != "mcp_"+c.ServerName+"_"+c.ToolName {
			return nil, fmt.Errorf("the MCP tool %s does not match its mcp_context (%s, %s)", ev.ToolName, c.ServerName, c.ToolName)
		}
		base.ToolName, base.ToolInput = "mcp__"+c.ServerName+"__"+c.ToolName, ev.ToolInput
		return []event{base}, nil
	}
	t, ok := geminiToolByName(ev.ToolName)
	if !ok {
		return nil, fmt.Errorf("Gemini CLI's tool %q is not one toolgate judges", ev.ToolName)
	}
	base.ToolName = t.Claude
	if t.Gemini == "web_fetch" {
		var prompt string
		if json.Unmarshal(in["prompt"], &prompt) != nil {
			return nil, errors.New("web_fetch has no prompt")
		}
		urls := urlPattern().FindAllString(prompt, -1)
		if len(urls) == 0 {
			return nil, errors.New("web_fetch's prompt names no http:// or https:// URL")
		}
		var out []event
		for _, u := range urls {
			e := base
			e.ToolInput, _ = json.Marshal(map[string]string{"url": u, "prompt": prompt})
			out = append(out, e)
		}
		return out, nil
	}
	claude := map[string]json.RawMessage{}
	for g, c := range t.Fields {
		if v, ok := in[g]; ok {
			claude[c] = v
		}
	}
	if t.Claude == "Bash" {
		// dir_path is where the command runs: judged as a cd first, so
		// that the guard resolves every path from there.
		var dir string
		if raw, ok := in["dir_path"]; ok {
			if json.Unmarshal(raw, &dir) != nil {
				return nil, errors.New("run_shell_command's dir_path is not a string")
			}
		}
		if dir != "" {
			var cmd string
			if json.Unmarshal(claude["command"], &cmd) != nil {
				return nil, errors.New("run_shell_command's command is not a string")
			}
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(ev.Cwd, dir)
			}
			claude["command"], _ = json.Marshal("cd -- " + shellQuote(dir) + " && " + cmd)
		}
	}
	base.ToolInput, _ = json.Marshal(claude)
	return []event{base}, nil
}

// geminiInput is the Gemini input that carries out the judged Claude Code
// input after, when toolgate changed it (a hook's rewrite, the
// confinement's wrapping): the original's members, those of the table
// replaced by the judged input's. It reports false when the change cannot
// be carried back.
func geminiInput(ev geminiEvent, judged, after json.RawMessage) (json.RawMessage, bool) {
	if strings.HasPrefix(ev.ToolName, "mcp_") {
		return after, true
	}
	t, ok := geminiToolByName(ev.ToolName)
	if !ok || t.Fields == nil {
		return nil, false
	}
	var in, before, out map[string]json.RawMessage
	if json.Unmarshal(ev.ToolInput, &in) != nil || json.Unmarshal(judged, &before) != nil || json.Unmarshal(after, &out) != nil {
		return nil, false
	}
	back := map[string]string{}
	for g, c := range t.Fields {
		back[c] = g
	}
	for c, v := range out {
		g, ok := back[c]
		if !ok {
			return nil, false // a member Gemini's tool does not have
		}
		if !bytes.Equal(v, before[c]) {
			in[g] = v
		}
	}
	for c := range before {
		if _, ok := out[c]; !ok {
			delete(in, back[c])
		}
	}
	if t.Claude == "Bash" {
		if _, ok := out["command"]; ok && !bytes.Equal(out["command"], before["command"]) {
			// The judged command holds the cd to dir_path already.
			delete(in, "dir_path")
		}
	}
	b, err := json.Marshal(in)
	return b, err == nil
}

// runGemini is toolgate check for one Gemini CLI event: exit status 0 with
// the answer on stdout, or, for an event that is not Gemini's, the answer
// that blocks on every host (blockUnknown).
func runGemini(data []byte, e env, managed string, settings []string, stateDir string) (code int) {
	defer func() {
		if r := recover(); r != nil {
			_ = writeJSON(e.stdout, geminiDeny(fmt.Sprintf("internal error: %v", r)))
			code = 0
		}
	}()
	var ev geminiEvent
	if len(bytes.TrimSpace(data)) == 0 {
		_ = writeJSON(e.stdout, geminiDeny("no hook event on stdin"))
		return 0
	}
	if err := json.Unmarshal(data, &ev); err != nil {
		_ = writeJSON(e.stdout, geminiDeny("the hook event is not valid JSON of the expected shape: "+err.Error()))
		return 0
	}
	switch {
	case geminiOtherEvents[ev.HookEventName]:
		_ = writeJSON(e.stdout, geminiAnswer{})
		return 0
	case ev.HookEventName != geminiBeforeTool && ev.HookEventName != geminiAfterTool:
		return blockUnknown(e, ev.HookEventName)
	}
	var missing []string
	for _, f := range []struct{ name, v string }{{"session_id", ev.SessionID}, {"cwd", ev.Cwd}, {"tool_name", ev.ToolName}} {
		if f.v == "" {
			missing = append(missing, f.name)
		}
	}
	if len(ev.ToolInput) == 0 || string(ev.ToolInput) == "null" {
		missing = append(missing, "tool_input")
	}
	switch {
	case len(missing) > 0:
		return geminiFail(e, ev, fmt.Sprintf("the hook event lacks %v", missing))
	case !filepath.IsAbs(ev.Cwd):
		return geminiFail(e, ev, fmt.Sprintf("the hook event's cwd %q is not an absolute path", ev.Cwd))
	}
	calls, err := geminiCalls(ev)
	if err != nil {
		return geminiFail(e, ev, err.Error())
	}
	src := eventSource(calls[0], geminiEnv(e.getenv), managed, settings)
	if stateDir != "" {
		src.stateDir = stateDir
	}
	if ev.HookEventName == geminiAfterTool {
		_ = writeJSON(e.stdout, geminiAfter(ev, calls[0], src))
		return 0
	}
	_ = writeJSON(e.stdout, geminiBefore(ev, calls, src))
	return 0
}

// geminiEnv is the hook's environment as toolgate reads it under Gemini
// CLI: without CLAUDE_CODE_SHELL_PREFIX, which Gemini's shell does not
// run, so that an allowed command is confined by the rewrite, never
// handed to a prefix nothing starts (a variable the person exports for
// Claude Code reaches Gemini's hooks too).
func geminiEnv(getenv func(string) string) func(string) string {
	return func(name string) string {
		if name == "CLAUDE_CODE_SHELL_PREFIX" || getenv == nil {
			return ""
		}
		return getenv(name)
	}
}

// geminiFail answers an event that cannot be judged: a BeforeTool deny,
// or an AfterTool result withheld, so that nothing passes unjudged.
func geminiFail(e env, ev geminiEvent, msg string) int {
	if ev.HookEventName == geminiAfterTool {
		_ = writeJSON(e.stdout, geminiAnswer{Decision: "deny", Reason: "toolgate: the result is withheld: " + msg})
		return 0
	}
	_ = writeJSON(e.stdout, geminiDeny(msg))
	return 0
}

// geminiDeny denies a BeforeTool call with reason.
func geminiDeny(reason string) geminiAnswer {
	return geminiAnswer{Decision: "deny", Reason: "toolgate: " + reason}
}

// geminiAskNote is what a Deny that was an Ask adds to its reason: tool
// is the name toolgate's rules give the call.
func geminiAskNote(tool string) string {
	return "Gemini CLI cannot ask from a hook, so toolgate refuses what would ask; to allow it, add an allow rule for " + tool +
		" to permissions.allow in ~/.claude/settings.json (toolgate explain shows the rule that asked)"
}

// geminiAddDirNote says how to widen the roots under Gemini CLI: its
// --include-directories reach no hook (the event names only cwd).
const geminiAddDirNote = "gemini --include-directories does not reach hooks: list such directories in permissions.additionalDirectories"

// geminiBefore judges a BeforeTool event: every call it translates to
// (one per URL of a web_fetch) must be allowed.
func geminiBefore(ev geminiEvent, calls []event, src source) geminiAnswer {
	var allowed runtime.Verdict
	for i, c := range calls {
		v, err := decide(c, src)
		if err != nil {
			return geminiDeny(err.Error())
		}
		v.Reason = strings.Replace(v.Reason, " ("+addDirNote+")", " ("+geminiAddDirNote+")", 1)
		switch v.Decision {
		case permission.Deny:
			return geminiAnswer{Decision: "deny", Reason: reasonOf(v)}
		case permission.Ask:
			return geminiAnswer{Decision: "deny", Reason: reasonOf(v) + " (" + geminiAskNote(c.ToolName) + ")"}
		case permission.Allow:
		default:
			return geminiDeny(fmt.Sprintf("unknown decision %v", v.Decision))
		}
		if i == 0 {
			allowed = v
		}
	}
	ans := geminiAnswer{Decision: "allow", Reason: reasonOf(allowed)}
	if len(calls) == 1 && inputChanged(calls[0].ToolInput, allowed.Input) {
		in, ok := geminiInput(ev, calls[0].ToolInput, allowed.Input)
		if !ok {
			return geminiDeny("the call's input was rewritten (by a toolgate hook or the confinement) in a way Gemini CLI's " + ev.ToolName + " cannot take")
		}
		ans.Specific = &geminiSpecific{HookEventName: geminiBeforeTool, ToolInput: in}
	}
	if allowed.Context != "" {
		ans.SystemMessage = "toolgate: " + allowed.Context
	}
	return ans
}

// geminiResponse is an AfterTool event's tool_response.
type geminiResponse struct {
	LLMContent json.RawMessage `json:"llmContent"`
	Error      *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// geminiAfter runs the post hooks on an AfterTool event's result (its
// llmContent, what the model sees): a rewritten result replaces it, as an
// AfterTool deny's reason, which Gemini passes to the model (and shows
// the person) in place of the result; the hooks' context is appended. A
// result that cannot be read or passed through the hooks is withheld.
func geminiAfter(ev geminiEvent, call event, src source) geminiAnswer {
	var resp geminiResponse
	if err := json.Unmarshal(ev.ToolResponse, &resp); err != nil || len(ev.ToolResponse) == 0 {
		return geminiAnswer{Decision: "deny", Reason: "toolgate: the result is withheld: tool_response is not {llmContent, returnDisplay}"}
	}
	output := responseText(resp.LLMContent)
	run := runtime.Run{Output: output}
	if resp.Error != nil && resp.Error.Message != "" {
		run.Err = errors.New(resp.Error.Message)
	}
	o, err := runAfter(call, src, run)
	if err != nil {
		return geminiAnswer{Decision: "deny", Reason: "toolgate: the result is withheld: post hooks not run: " + err.Error()}
	}
	var ans geminiAnswer
	switch {
	case o.Output != output && o.Context != "":
		// Gemini drops additionalContext from a blocked result: the
		// context goes after the text, wrapped and escaped as Gemini
		// wraps additionalContext.
		ans.Decision, ans.Reason = "deny", o.Output+"\n\n<hook_context>"+strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace(o.Context)+"</hook_context>"
	case o.Output != output:
		ans.Decision, ans.Reason = "deny", o.Output
	case o.Context != "":
		ans.Specific = &geminiSpecific{HookEventName: geminiAfterTool, AdditionalContext: o.Context}
	}
	if o.Err != nil && (run.Err == nil || o.Err.Error() != run.Err.Error()) {
		ans.SystemMessage = "toolgate: a PostToolUse hook failed: " + o.Err.Error()
	}
	return ans
}

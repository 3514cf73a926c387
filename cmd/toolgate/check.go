package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/toolgate/toolgate/internal/ccwire"
	"github.com/toolgate/toolgate/internal/jsonin"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

// env is what a command reads from its process: standard streams and
// environment, passed in so that tests run commands in-process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	// execve, when set, replaces the process with another program
	// (a sibling on unix); nil, or errors.ErrUnsupported, runs it as
	// a child instead.
	execve func(path string, argv, envv []string) error
	// warm, in a warm process, is what it keeps between calls; nil in a
	// process of its own.
	warm *warmCache
}

// multiFlag is a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

// runCheck is "toolgate check": one Claude Code hook event on stdin, one
// JSON answer on stdout, exit status 0 in every case but an event of a
// name no host uses (blockUnknown: exit status 2). Every failure of a
// PreToolUse check is a deny with its reason. An event of Codex CLI (or
// --host codex) is answered in Codex's protocol instead (host_codex.go),
// one of Gemini CLI (or --host gemini) in Gemini's (host_gemini.go).
func runCheck(args []string, e env) (code int) {
	// The answer's shape: a PreToolUse deny until the event names itself.
	name := ""
	defer func() {
		if r := recover(); r != nil {
			_ = writeJSON(e.stdout, failAnswer(name, fmt.Sprintf("internal error: %v", r)))
			code = 0
		}
	}()
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var settings multiFlag
	fs.Var(&settings, "settings", "a further settings `file`, in command-line scope (repeatable)")
	managed := fs.String("managed", defaultManagedSettings(), "the managed settings `file`")
	stateDir := fs.String("state-dir", "", "the `directory` for per-session hook snapshots (default $XDG_STATE_HOME/toolgate or ~/.local/state/toolgate)")
	host := fs.String("host", "", "the `agent` whose hook protocol to speak: claude-code, codex or gemini (default: from the event's shape)")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		if helpRequested(fs, err, e) {
			return 0 // a person asked; the hook path never passes -h
		}
		if err == nil {
			err = fmt.Errorf("unexpected arguments %q", fs.Args())
		}
		_ = writeJSON(e.stdout, denyAnswer("bad command line: "+err.Error()))
		return 0
	}
	if isTerminal(e.stdin) {
		fmt.Fprint(e.stderr, checkHint)
	}
	data, err := io.ReadAll(io.LimitReader(e.stdin, maxEventBytes+1))
	if err != nil {
		_ = writeJSON(e.stdout, denyAnswer("cannot read the hook event: "+err.Error()))
		return 0
	}
	switch {
	case *host == hostCodex || *host == "" && isCodexEvent(data):
		return checkCodex(data, e, *managed, settings, *stateDir)
	case *host == hostGemini || *host == "" && isGeminiEvent(data):
		return runGemini(data, e, *managed, settings, *stateDir)
	case *host != "" && *host != "claude-code":
		_ = writeJSON(e.stdout, denyAnswer(fmt.Sprintf("bad command line: unknown --host %q", *host)))
		return 0
	}
	ev, err := parseEvent(data)
	name = ev.HookEventName
	if errors.Is(err, errNotJudged) && !claudeOtherEvents[name] {
		return blockUnknown(e, name)
	}
	if err != nil {
		_ = writeJSON(e.stdout, failAnswer(name, err.Error()))
		return 0
	}
	src := eventSource(ev, e.getenv, *managed, settings)
	if *stateDir != "" {
		src.stateDir = *stateDir
	}
	src.warm = e.warm
	switch name {
	case eventPost:
		_ = writeJSON(e.stdout, checkPost(ev, src))
	case eventPostFailure:
		_ = writeJSON(e.stdout, checkFailure(ev, src))
	default:
		_ = writeJSON(e.stdout, checkPre(ev, src))
	}
	return 0
}

// checkPre answers a PreToolUse event.
func checkPre(ev event, src source) ccwire.Answer {
	v, err := decide(ev, src)
	if err != nil {
		return denyAnswer(err.Error())
	}
	out := &ccwire.Specific{
		HookEventName:            eventPre,
		PermissionDecision:       v.Decision.String(),
		PermissionDecisionReason: reasonOf(v),
		AdditionalContext:        v.Context,
	}
	if v.Decision != permission.Deny && inputChanged(ev.ToolInput, v.Input) {
		out.UpdatedInput = v.Input
	}
	return ccwire.Answer{Specific: out}
}

// decide runs one call through the Pipeline built from src's settings.
func decide(ev event, src source) (runtime.Verdict, error) {
	pol, err := loadPolicy(src)
	if err != nil {
		return runtime.Verdict{}, err
	}
	mode, note := modeOf(ev.PermissionMode, pol.cfg)
	pl, set, err := pol.pipeline(ev.ToolName, mode)
	if err != nil {
		return runtime.Verdict{}, err
	}
	defer set.Close()
	ctx := context.Background()
	sess, err := pl.Session(ctx, runtime.SessionOptions{ID: ev.SessionID, Mode: &mode, Cwd: ev.Cwd})
	if err != nil {
		return runtime.Verdict{}, fmt.Errorf("cannot start the session: %v", err)
	}
	defer sess.End("check done", "", nil)
	v := pl.Check(ctx, runtime.Call{Session: ev.SessionID, ID: ev.ToolUseID, Tool: ev.ToolName, Input: ev.ToolInput})
	if note != "" {
		v.Reason += " (" + note + ")"
	}
	self := src.warm.executable()
	switch prefix := !src.judgedOnly && confinedTools[ev.ToolName] && shellPrefixMode(src.getenv, self); {
	case prefix && ev.ToolName == "Bash":
		// Claude Code runs the command through toolgate-shell-prefix:
		// the command stays the user's, the confinement goes beside it.
		v = handOver(v, ev, pol, self, src.stateDir, false)
	case prefix:
		// Monitor keeps the rewrite, which confines itself; the prefix
		// is told to run it as it is.
		v = handOver(confineCall(v, ev.ToolName, pol, self), ev, pol, self, src.stateDir, true)
	default:
		v = confineCall(v, ev.ToolName, pol, self)
	}
	if v.Decision != permission.Allow && outsideRoots(v) {
		v.Reason += " (" + addDirNote + ")"
	}
	if w := warningsNote(pol.warnings); w != "" {
		v.Reason += " (" + w + ")"
	}
	return v, nil
}

// addDirNote says how to widen the roots: Claude Code 2.1.332 tells a hook
// nothing of its --add-dir directories (neither the event nor the
// environment has them; only an attachment record of the session
// transcript does, an undocumented format that also holds what tools
// returned, which toolgate does not read to widen anything).
const addDirNote = "claude --add-dir does not reach hooks: list such directories in permissions.additionalDirectories"

// outsideRoots reports whether v refused a path for being outside every
// root, and for nothing else: a secret or protected path stays refused
// wherever it is, so the note would mislead there.
func outsideRoots(v runtime.Verdict) bool {
	if strings.Contains(string(v.Rule), "secret") || strings.Contains(string(v.Rule), "protected") {
		return false
	}
	switch v.Rule {
	case "sandbox:outside-roots", "write:outside":
		return true
	}
	return strings.Contains(v.Reason, "outside every root")
}

// modeOf is the event's permission mode, or the settings' default mode
// when the event names none. A mode toolgate does not know (one a later
// Claude Code adds) is judged as the default mode, never as allow-all or
// deny-all, and the note says so for the reason; so is auto mode when the
// settings disable it.
func modeOf(name string, cfg permission.Config) (permission.Mode, string) {
	if name == "" {
		return cfg.Mode, ""
	}
	m, err := permission.ParseMode(name)
	switch {
	case err != nil:
		return permission.ModeDefault, fmt.Sprintf("permission_mode %q is unknown to toolgate; judged as in default mode", name)
	case m == permission.ModeAuto && cfg.DisableAuto:
		return permission.ModeDefault, "auto mode is disabled by disableAutoMode; judged as in default mode"
	}
	return m, ""
}

// reasonOf is the reason Claude Code shows: toolgate's reason with the
// layer and the rule or check that decided.
func reasonOf(v runtime.Verdict) string {
	return fmt.Sprintf("toolgate: %s [%s: %s]", v.Reason, v.Layer, v.Rule)
}

// inputChanged reports whether a hook changed the input, comparing
// canonical forms so that reformatting alone is no change.
func inputChanged(before, after json.RawMessage) bool {
	if after == nil {
		return false
	}
	a, err1 := jsonin.Canonical(before)
	b, err2 := jsonin.Canonical(after)
	if err1 != nil || err2 != nil {
		return string(before) != string(after)
	}
	return string(a) != string(b)
}

// checkPost answers a PostToolUse event: the post hooks run through the
// Pipeline's After, and a rewritten output goes back as updatedToolOutput
// in the tool's own output shape.
func checkPost(ev event, src source) ccwire.Answer {
	output := responseText(ev.ToolResponse)
	o, err := runAfter(ev, src, runtime.Run{Output: output})
	if err != nil {
		return postFailure("post hooks not run: " + err.Error())
	}
	ans := ccwire.Answer{Specific: &ccwire.Specific{HookEventName: eventPost, AdditionalContext: o.Context}}
	var notes []string
	if o.Output != output {
		shaped, note := shapeOutput(ev.ToolName, ev.ToolResponse, o.Output)
		ans.Specific.UpdatedToolOutput = shaped
		if isMCPName(ev.ToolName) {
			ans.Specific.UpdatedMCPToolOutput = shaped
		}
		if note != "" {
			notes = append(notes, note)
		}
	}
	if o.Err != nil {
		notes = append(notes, "a PostToolUse hook failed: "+o.Err.Error())
	}
	if len(notes) > 0 {
		ans.SystemMessage = "toolgate: " + strings.Join(notes, "; ")
	}
	return ans
}

// checkFailure answers a PostToolUseFailure event: the call failed (or
// the person interrupted it), and the post hooks see it as a call whose
// run returned the failure's text as its error. Claude Code takes no
// replacement output for a failure; the hooks' context goes back.
func checkFailure(ev event, src source) ccwire.Answer {
	msg := ev.Error
	if msg == "" {
		msg = "the call failed"
	}
	o, err := runAfter(ev, src, runtime.Run{Output: ev.Error, Err: errors.New(msg)})
	if err != nil {
		return failureFailure("post hooks not run: " + err.Error())
	}
	ans := ccwire.Answer{Specific: &ccwire.Specific{HookEventName: eventPostFailure, AdditionalContext: o.Context}}
	if o.Err != nil && o.Err.Error() != msg {
		ans.SystemMessage = "toolgate: a PostToolUse hook failed: " + o.Err.Error()
	}
	return ans
}

// ruleClaudeCodeRan is the rule ID of the verdict After records for a call
// Claude Code ran: toolgate's own verdict is not known there.
const ruleClaudeCodeRan permission.RuleID = "claude-code:ran"

// runAfter runs the post hooks of ev's tool through the Pipeline's After.
func runAfter(ev event, src source, run runtime.Run) (runtime.Outcome, error) {
	pol, err := loadPolicy(src)
	if err != nil {
		return runtime.Outcome{}, err
	}
	mode, _ := modeOf(ev.PermissionMode, pol.cfg)
	pl, set, err := pol.pipeline(ev.ToolName, mode)
	if err != nil {
		return runtime.Outcome{}, err
	}
	defer set.Close()
	ctx := context.Background()
	sess, err := pl.Session(ctx, runtime.SessionOptions{ID: ev.SessionID, Mode: &mode, Cwd: ev.Cwd})
	if err != nil {
		return runtime.Outcome{}, fmt.Errorf("cannot start the session: %v", err)
	}
	defer sess.End("check done", "", nil)
	// The call ran: Claude Code allowed it, by this hook's answer or by
	// the person's.
	v := runtime.Verdict{Result: permission.Result{Decision: permission.Allow, Layer: permission.LayerNone, Rule: ruleClaudeCodeRan, Reason: "Claude Code ran the call"}, Input: ev.ToolInput}
	return pl.After(ctx, runtime.Call{Session: ev.SessionID, ID: ev.ToolUseID, Tool: ev.ToolName, Input: ev.ToolInput}, v, run), nil
}

// responseText is the tool's response as text: a JSON string's value, or
// the JSON text of anything else.
func responseText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// warningsNote sums up the settings' warnings for a reason: the first
// few, and how many more; "toolgate lint" lists them all.
func warningsNote(ws []string) string {
	if len(ws) == 0 {
		return ""
	}
	const show = 3
	n := min(len(ws), show)
	s := "settings: " + strings.Join(ws[:n], "; ")
	if len(ws) > show {
		s += fmt.Sprintf("; and %d more (run toolgate lint)", len(ws)-show)
	}
	return s
}

package runtime

import (
	"context"
	"strings"
	"time"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
)

// Outcome is a call's result as it goes back to the model.
type Outcome struct {
	// Output is what the model sees: after the PostToolUse hooks, and
	// truncated or replaced by a stub when large.
	Output string
	// Context joins the hooks' additional contexts.
	Context string
	// Truncated reports that Output is not the whole output; Path names
	// the persisted full output, if any.
	Truncated bool
	Path      string
	// Err joins failures of the hooks or of persistence; the output is
	// still usable.
	Err error
	// Status is the session's layer-7 state after the call's output was
	// counted against the token budget.
	Status Status
	// Content is the structured output the model sees when the run gave
	// [Run.Content]; nil otherwise. Its text parts agree with Output.
	Content []Content
}

// Run is what a tool's run gave: its output, its error, how long it took,
// and the kernel confinement its command ran under.
type Run struct {
	Output      string        // what the tool returned as text
	Content     []Content     // its structured output, after Output if both are set
	Err         error         // the tool's error, or nil
	Elapsed     time.Duration // how long it ran
	Confinement string        // bashguard's RunResult.Confined.String(), or empty
}

// After finishes one call: the PostToolUse hooks (which see the verdict,
// with the layer and rule that decided, and may rewrite the output, to
// redact it for instance; metrics and audit are hooks too), output
// truncation and persistence, and token accounting (about four characters
// a token). Call it for every call Check answered, denied ones included,
// with what the run reported (nothing, for a call that did not run); the
// confinement reaches the PostToolUse hooks and the audit log.
//
// With [Run.Content], the hooks and truncation see the text parts joined
// (see [Content]), and [Outcome.Content] holds the parts as given while the
// text is unchanged; a text a hook rewrote or truncation cut replaces
// every text part.
func (p *Pipeline) After(ctx context.Context, call Call, v Verdict, run Run) Outcome {
	output, runErr, elapsed := run.Output, run.Err, run.Elapsed
	if run.Content != nil {
		output = joinText(run.Output, run.Content)
	}
	if call.Session == "" {
		call.Session, _ = SessionIDFrom(ctx)
	}
	a := p.agent(call.Session)
	if a == nil {
		o := Outcome{Output: output, Err: errUnknownSession(call.Session)}
		if run.Content != nil {
			o.Content = reshape(run.Output, run.Content, output, output)
		}
		return o
	}
	input := v.Input
	if input == nil {
		input = call.Input
	}
	out := p.cfg.Hooks.PostToolUse(a.record, hooks.PostToolUseEvent{
		SessionID: a.l7.ID(), AgentName: a.name, Step: a.l7.currentStep(), ToolName: call.Tool, CallID: call.ID,
		Kind: kindOf(a, call), Input: input, Output: output, Elapsed: elapsed, Err: runErr,
		Decision: v.Decision, Layer: v.Layer, Rule: v.Rule, Reason: v.Reason, Confinement: run.Confinement, Cwd: a.cwd, PermissionMode: a.mode.String(),
	})
	if v.Decision == permission.Allow && mayMakeLinks(kindOf(a, call), call.Tool) {
		// The command may have made links or files anywhere beneath the
		// roots, where the sandbox watches only a few directories: the
		// next path it judges is judged after a fresh search.
		p.cfg.Sandbox.Forget()
	}
	o := Outcome{Output: out.Output, Context: out.Context, Err: out.Err}
	if v.Decision != permission.Allow {
		o.Output = "denied (" + v.Layer.String() + "): " + v.Reason
	}
	shaped, err := p.cfg.Output.Shape(call.Tool, call.ID, o.Output) // validated by New
	if err != nil {
		o.Err = joinErr(o.Err, err)
	}
	o.Output, o.Truncated, o.Path = shaped.Text, shaped.Truncated, shaped.Path
	switch {
	case run.Content == nil:
	case v.Decision != permission.Allow:
		o.Content = []Content{{Type: "text", Text: o.Output}}
	default:
		o.Content = reshape(run.Output, run.Content, output, o.Output)
	}
	o.Status = a.l7.AddTokens((len(o.Output) + len(o.Context) + 3) / 4)
	return o
}

// mayMakeLinks reports whether a tool of kind k named name can make
// symbolic or hard links: a command, or an MCP server's tool, which runs
// a program of its own. The file tools write files, never links.
func mayMakeLinks(k permission.Kind, name string) bool {
	return k == permission.KindExec || strings.HasPrefix(name, "mcp__")
}

func kindOf(a *agent, call Call) permission.Kind {
	if t, ok := a.toolset().Lookup(call.Tool); ok {
		return t.Traits(call.Input).Kind
	}
	return permission.KindOther
}

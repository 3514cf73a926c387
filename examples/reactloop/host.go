package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolgate/toolgate/bashguard/runner"
	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/approval"
	"github.com/toolgate/toolgate/sandbox"
	"github.com/toolgate/toolgate/subagent"
)

// maxSteps is the step limit: the ninth turn is past it.
const maxSteps = 8

// host is the agent program around the model: it owns the pipeline, runs
// the tools the pipeline admits, and plays the person who answers
// questions.
type host struct {
	ws      *workspace
	out     io.Writer
	p       *runtime.Pipeline
	fs      *sandbox.FS
	runner  runner.Shell
	tools   map[string]toolFunc
	hooks   *hooks.Set
	metrics *hooks.Metrics
	audit   *hooks.AuditLog
	db      *sql.DB
	// answers are the person's scripted answers, by the request's summary
	// (see person.go).
	answers map[string]approval.Choice
	asked   chan approval.Request
	done    chan struct{}
	person  *approval.ChanAsker
	// subagents runs the Task tool's calls: subagents in child sessions.
	subagents *subagent.Runner
}

// toolFunc runs one admitted call with its final input.
type toolFunc func(ctx context.Context, in map[string]any) (string, error)

func newHost(ws *workspace, db *sql.DB, out io.Writer) (h *host, err error) {
	h = &host{ws: ws, out: out, db: db, answers: personAnswers()}
	// Layer 3: a hook of the project's own, the output redaction, the
	// built-in metrics, and the audit log on SQLite, whose rows are masked
	// by the same function as the output the model reads. The person
	// answers through a ChanAsker, as an HTTP front end would.
	h.metrics = &hooks.Metrics{Logger: slog.New(slog.DiscardHandler), SummaryEvery: -1}
	if h.audit, err = hooks.NewAuditLog(db, hooks.AuditOptions{Redact: hooks.RedactSecrets}); err != nil {
		return nil, err
	}
	h.hooks = hooks.NewSet(noPastebin(), hooks.Redaction("redaction", hooks.RedactSecrets), h.metrics.Hook())
	h.asked, h.done = make(chan approval.Request), make(chan struct{})
	h.person = &approval.ChanAsker{OnRequest: func(r approval.Request) { h.asked <- r }}
	go h.answer()

	// The front door: the workspace, named once, and its rules (layer 2).
	h.p, err = runtime.Open(runtime.Workspace{
		Dir:  ws.dir,
		Home: ws.dir,
		Rules: permission.Config{
			Deny:       []string{"Bash(git push:*)", "Read(./.env)"},
			Allow:      []string{"Bash(touch build/stamp)", "Task"},
			Default:    permission.Ask,
			DefaultFor: map[permission.Kind]permission.Decision{permission.KindRead: permission.Allow},
		},
		Hooks: h.hooks,
		Audit: h.audit,
		Asker: h.person,
		// The script's steps are small: only a step that adds nothing
		// counts as adding little.
		Limits: runtime.Limits{MaxSteps: maxSteps, MinStepTokens: 1},
	})
	if err != nil {
		return nil, err
	}
	// The file tools use the pipeline's own sandbox (and read outside it
	// what the pipeline lets them), the shell tool a runner confined to the
	// same roots.
	if h.fs, err = h.p.OpenFS(); err != nil {
		return nil, err
	}
	h.runner = runner.Shell{Dir: ws.dir, Checker: h.p.Sandbox(), Home: ws.dir, Timeout: 10 * time.Second}
	// Layer 6: a read-only reviewer the model may start with the Task tool.
	h.subagents = &subagent.Runner{Pipeline: h.p, Model: h.reviewer, Run: h.run, Specs: []subagent.Spec{
		{Name: "reviewer", Tools: []string{"Read", "Write"}, MaxSteps: 3},
	}}
	h.tools = map[string]toolFunc{
		"Read":  h.read,
		"Glob":  h.glob,
		"Write": h.write,
		"Bash":  h.bash,
		"WebFetch": func(context.Context, map[string]any) (string, error) {
			return "", errors.New("this example has no network")
		},
	}
	return h, nil
}

// noPastebin is a project hook: no call may mention pastebin.
func noPastebin() hooks.Hook {
	return hooks.Hook{
		Name:    "no-pastebin",
		Timeout: hooks.NoTimeout,
		PreToolUse: func(_ context.Context, e hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
			if strings.Contains(string(e.Input), "pastebin") {
				return hooks.Block("uploads to pastebin are not allowed"), nil
			}
			return hooks.PreToolUseResult{}, nil
		},
	}
}

// converse plays turns in session id: the ReAct loop.
func (h *host) converse(ctx context.Context, id string, turns []turn) error {
	sess, err := h.p.Session(ctx, runtime.SessionOptions{ID: id})
	if err != nil {
		return err
	}
	defer sess.End("conversation over", "", nil)
	exec := h.p.Executor(h.run)
	for n, t := range turns {
		st := sess.BeginStep()
		fmt.Fprintf(h.out, "step %d: %s\n", st.Step, t.says)
		if st.Signals.Has(runtime.SignalFinalAnswer) {
			// Past the step limit a host offers no tools and asks for the
			// final answer; a model that calls a tool anyway is refused.
			fmt.Fprintf(h.out, "  host: %s\n", h.ws.rel.Replace(st.Reason))
		}
		if t.host != nil {
			t.host(h, sess)
		}
		calls := make([]runtime.Call, len(t.calls))
		for i, c := range t.calls {
			in, err := json.Marshal(c.input)
			if err != nil {
				return err
			}
			calls[i] = runtime.Call{Session: id, ID: fmt.Sprintf("call-%d-%d", n+1, i+1), Tool: c.tool, Input: in}
		}
		for _, r := range exec.Execute(sess.Context(), calls) {
			h.report(r)
		}
		if st := sess.Status(); st.Signals.Has(runtime.SignalCancelled) {
			fmt.Fprintf(h.out, "  host: the session is cancelled: the loop stops\n")
			return nil
		}
	}
	return nil
}

// report prints one line for a call: tool, what it was asked, decision,
// layer, reason.
func (h *host) report(r runtime.Result) {
	v := r.Verdict
	reason := v.Reason
	if r.Ran && r.Err != nil {
		reason += " (the tool failed: " + r.Err.Error() + ")"
	}
	fmt.Fprintf(h.out, "  %-8s %-34s %-5s %-10s %s\n", r.Call.Tool, h.summary(r.Call), v.Decision, v.Layer, h.ws.rel.Replace(reason))
	// A compound shell command was judged command by command.
	if len(v.Commands) > 1 {
		for _, c := range v.Commands {
			fmt.Fprintf(h.out, "      %-39s %-5s %-10s %s\n", strings.Join(c.Args, " "), c.Decision, c.Layer, h.ws.rel.Replace(c.Reason))
		}
	}
}

// summary is what a call asks for, in a few words.
func (h *host) summary(c runtime.Call) string {
	var in map[string]any
	_ = json.Unmarshal(c.Input, &in)
	for _, k := range []string{"command", "file_path", "pattern", "url", "prompt"} {
		if s, ok := in[k].(string); ok {
			return h.ws.rel.Replace(s)
		}
	}
	return string(c.Input)
}

// run runs an admitted call with its final input through the tool map.
func (h *host) run(ctx context.Context, c runtime.Call) (string, error) {
	if c.Tool == "Task" {
		return h.subagents.RunCall(ctx, c)
	}
	f, ok := h.tools[c.Tool]
	if !ok {
		return "", fmt.Errorf("no implementation of %s in this example", c.Tool)
	}
	var in map[string]any
	if err := json.Unmarshal(c.Input, &in); err != nil {
		return "", err
	}
	return f(ctx, in)
}

func str(in map[string]any, k string) string { s, _ := in[k].(string); return s }

// read reads a file through the sandbox's FS: the kernel walk cannot leave
// the workspace even if a path was swapped for a link after the check.
func (h *host) read(_ context.Context, in map[string]any) (string, error) {
	b, err := h.fs.ReadFile(str(in, "file_path"))
	return string(b), err
}

func (h *host) write(_ context.Context, in map[string]any) (string, error) {
	if err := h.fs.WriteFile(str(in, "file_path"), []byte(str(in, "content")), 0o644); err != nil {
		return "", err
	}
	return "written", nil
}

func (h *host) glob(_ context.Context, in map[string]any) (string, error) {
	pattern := str(in, "pattern")
	if !filepath.IsAbs(pattern) {
		pattern = filepath.Join(h.ws.dir, pattern)
	}
	m, err := h.fs.Glob(pattern)
	if err != nil {
		return "", err
	}
	return h.ws.rel.Replace(strings.Join(m, "\n")), nil
}

// bash runs a command with the bounded runner: its own process group, a
// clean environment, a timeout, an output cap, and Landlock confinement.
func (h *host) bash(ctx context.Context, in map[string]any) (string, error) {
	res, err := h.runner.Run(ctx, str(in, "command"))
	// The audit row records the kernel confinement the command ran under.
	runtime.ReportConfinement(ctx, res.Confined.String())
	if err != nil {
		return res.Output, err
	}
	if res.ExitCode != 0 {
		return res.Output, fmt.Errorf("exit status %d", res.ExitCode)
	}
	return res.Output, nil
}

// close stops the person, closes the audit log, and prints what the
// built-in hooks saw.
func (h *host) close(ctx context.Context, loopErr error) error {
	close(h.done)
	h.hooks.Close()
	_, err := h.fs.Stat("build/stamp")
	fmt.Fprintf(h.out, "the commands ran for real: build/stamp exists: %t\n", err == nil)
	errs := []error{loopErr, h.fs.Close()}
	if err := h.audit.Close(ctx); err != nil {
		errs = append(errs, err)
	}
	var rows, denied, confined int
	err = h.db.QueryRowContext(ctx,
		`SELECT COUNT(*), COALESCE(SUM(CASE WHEN decision = 'deny' THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN confinement LIKE 'landlock%' THEN 1 ELSE 0 END), 0) FROM `+hooks.DefaultAuditTable+
			` WHERE status <> ?`, hooks.AuditSessionStop).Scan(&rows, &denied, &confined)
	errs = append(errs, err)
	total := h.metrics.Snapshot().Total
	fmt.Fprintf(h.out, "metrics: %d calls, %d denied, %d failed\n", total.Calls, total.Denials, total.Errors)
	fmt.Fprintf(h.out, "audit log (SQLite): %d rows, %d of them denied, %d shell commands confined by Landlock\n", rows, denied, confined)
	return errors.Join(errs...)
}

package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/tool"
	"github.com/toolgate/toolgate/sandbox"
)

// explanation is the report of "toolgate explain".
type explanation struct {
	Tool         string          `json:"tool"`
	Input        json.RawMessage `json:"input"`
	Decision     string          `json:"decision"`
	Layer        string          `json:"layer"`
	Rule         string          `json:"rule"`
	Reason       string          `json:"reason"`
	UpdatedInput json.RawMessage `json:"updatedInput,omitempty"`
	Context      string          `json:"context,omitempty"`
	Policy       policyReport    `json:"policy"`
	Layers       []layerReport   `json:"layers"`
	Commands     []commandReport `json:"commands,omitempty"`
	Rules        []ruleReport    `json:"rules,omitempty"`
}

type policyReport struct {
	Cwd          string       `json:"cwd"`
	Mode         string       `json:"mode"`
	Roots        []string     `json:"roots"`
	SkippedRoots []string     `json:"skippedRoots,omitempty"`
	Network      bool         `json:"network"`
	SafeCommands []string     `json:"safeCommands,omitempty"`
	Files        []fileReport `json:"files"`
	Hooks        []string     `json:"hooks,omitempty"`
	Warnings     []string     `json:"warnings,omitempty"`
}

type fileReport struct {
	Scope string `json:"scope"`
	Path  string `json:"path"`
	Allow int    `json:"allow"`
	Ask   int    `json:"ask"`
	Deny  int    `json:"deny"`
}

// layerReport is what one layer saw and how it answered.
type layerReport struct {
	Layer   string         `json:"layer"`
	Saw     string         `json:"saw"`
	Answers []answerReport `json:"answers,omitempty"`
}

type answerReport struct {
	Decision string `json:"decision"`
	// Decided marks the answer that became the call's decision; the
	// others were overridden.
	Decided bool   `json:"decided"`
	Source  string `json:"source,omitempty"`
	Rule    string `json:"rule"`
	Reason  string `json:"reason"`
}

type commandReport struct {
	Pos      string   `json:"pos"`
	Args     []string `json:"args"`
	Decision string   `json:"decision"`
	Layer    string   `json:"layer"`
	Rule     string   `json:"rule"`
	Reason   string   `json:"reason"`
}

// ruleReport tells, for one rule naming the tool, what it matched.
type ruleReport struct {
	Rule    string        `json:"rule"`
	List    string        `json:"list"`
	Origin  string        `json:"origin"`
	Matches []matchReport `json:"matches"`
}

type matchReport struct {
	// Target is what the rule was held against: a command, a path, a
	// domain, or the tool itself.
	Target  string `json:"target"`
	Matched bool   `json:"matched"`
}

// runExplain is "toolgate explain": how one call would be decided.
func runExplain(args []string, e env) int {
	fs := flag.NewFlagSet("explain", flag.ContinueOnError)
	var settings multiFlag
	fs.Var(&settings, "settings", "a further settings `file`, in command-line scope (repeatable)")
	managed := fs.String("managed", defaultManagedSettings(), "the managed settings `file`")
	cwd := fs.String("cwd", "", "the project `directory` (default: the current directory)")
	mode := fs.String("mode", "", "the permission `mode` (default: the settings' defaultMode)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	exitCode := fs.Bool("exit-code", false, "exit with the decision: 0 allow, 1 ask, 2 deny")
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if helpRequested(fs, err, e) {
			return 0
		}
		fmt.Fprintf(e.stderr, "toolgate explain: %v\nusage: %s\n", err, synopses["explain"])
		return 2
	}
	if fs.NArg() < 1 || fs.NArg() > 2 {
		fmt.Fprint(e.stderr, "toolgate explain: want TOOL and, optionally, its JSON input\n", usage)
		return 2
	}
	tool, input := fs.Arg(0), "{}"
	if fs.NArg() == 2 {
		input = fs.Arg(1)
	}
	dir := *cwd
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			fmt.Fprintf(e.stderr, "toolgate explain: %v\n", err)
			return 1
		}
		dir = wd
	}
	ex, err := explain(source{cwd: dir, home: e.getenv("HOME"), managed: *managed, extra: settings, getenv: e.getenv}, *mode, tool, json.RawMessage(input))
	if err != nil {
		fmt.Fprintf(e.stderr, "toolgate explain: deny: %v\n", err)
		return 1
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(ex)
	} else {
		ex.print(e.stdout)
	}
	if *exitCode {
		return decisionExit(ex.Decision)
	}
	return 0
}

// decisionExit is explain --exit-code's status for a decision: 0 allow,
// 1 ask, 2 deny (and any other).
func decisionExit(d string) int {
	switch d {
	case permission.Allow.String():
		return 0
	case permission.Ask.String():
		return 1
	}
	return 2
}

// explain runs the call through the Pipeline, as check does, and collects
// what each layer saw and answered.
func explain(src source, modeName, name string, input json.RawMessage) (*explanation, error) {
	pol, err := loadPolicy(src)
	if err != nil {
		return nil, err
	}
	mode, note := modeOf(modeName, pol.cfg)
	if note != "" {
		pol.warnings = append(pol.warnings, note)
	}
	if err != nil {
		return nil, err
	}
	pl, set, err := pol.pipeline(name, mode)
	if err != nil {
		return nil, err
	}
	defer set.Close()
	ctx := context.Background()
	const id = "explain"
	sess, err := pl.Session(ctx, runtime.SessionOptions{ID: id, Mode: &mode, Cwd: src.cwd})
	if err != nil {
		return nil, fmt.Errorf("cannot start the session: %v", err)
	}
	defer sess.End("explained", "", nil)
	v := pl.Check(ctx, runtime.Call{Session: id, ID: "call-1", Tool: name, Input: input})

	ex := &explanation{Tool: name, Input: input, Decision: v.Decision.String(), Layer: v.Layer.String(),
		Rule: string(v.Rule), Reason: v.Reason, Context: v.Context}
	if v.Decision != permission.Deny && inputChanged(input, v.Input) {
		ex.UpdatedInput = v.Input
	}
	ex.Policy = policyReport{Cwd: src.cwd, Mode: mode.String(), Roots: pol.roots, SkippedRoots: pol.skipped,
		Network: pol.network, SafeCommands: pol.safe, Files: []fileReport{}, Warnings: pol.warnings}
	for _, f := range pol.files {
		ex.Policy.Files = append(ex.Policy.Files, fileReport{Scope: f.Scope.String(), Path: f.Path, Allow: len(f.Allow), Ask: len(f.Ask), Deny: len(f.Deny)})
	}
	for _, h := range pol.hooks {
		ex.Policy.Hooks = append(ex.Policy.Hooks, fmt.Sprintf("%s (matcher %q): %s", h.Name, h.Matcher, h.Shell))
	}
	for _, c := range v.Commands {
		ex.Commands = append(ex.Commands, commandReport{Pos: c.Pos, Args: c.Args, Decision: c.Decision.String(),
			Layer: c.Layer.String(), Rule: string(c.Rule), Reason: c.Reason})
	}

	// What each layer saw.
	final := v.Input
	if final == nil {
		final = input
	}
	t, known := pl.Tools().Lookup(name)
	var traits tool.Traits
	if known {
		traits = t.Traits(final)
	}
	saw := map[permission.Layer]string{
		permission.LayerRuntime:  "one call of a fresh session: no step, repeat or budget limit applies",
		permission.LayerSubagent: "a top-level session: it may ask the person",
		permission.LayerRules: fmt.Sprintf("%d rules (settings and toolgate defaults), mode %s, defaults by kind: read allow, edit ask, exec ask, network ask, subagent allow, other ask",
			len(pol.cfg.Rules), mode),
		permission.LayerHooks: fmt.Sprintf("%d PreToolUse/PostToolUse command hooks; input %s", len(pol.hooks),
			map[bool]string{true: "changed by a hook", false: "unchanged"}[ex.UpdatedInput != nil]),
	}
	fields := fieldsOf(final)
	if !known {
		saw[permission.LayerTraits] = fmt.Sprintf("tool %q is not one of Claude Code's tools nor an MCP tool (mcp__server__tool)", name)
	} else {
		saw[permission.LayerTraits] = fmt.Sprintf("tool %s, kind %s%s", name, traits.Kind, describeFields(traits))
		var paths []string
		for _, f := range append(append([]string(nil), traits.PathFields...), traits.GlobFields...) {
			if s := fields[f]; s != "" {
				paths = append(paths, f+"="+s)
			}
		}
		if len(paths) > 0 {
			saw[permission.LayerSandbox] = "paths " + strings.Join(paths, ", ") + " against roots " + strings.Join(pol.roots, ", ")
		} else {
			saw[permission.LayerSandbox] = "no path in the input"
		}
		if len(traits.CommandFields) > 0 {
			saw[permission.LayerShell] = fmt.Sprintf("%d simple command(s); network %s", len(v.Commands), map[bool]string{true: "allowed (ask)", false: "denied"}[pol.network])
		} else {
			saw[permission.LayerShell] = "no shell command in the input"
		}
	}
	answers := map[permission.Layer][]answerReport{}
	answers[v.Layer] = append(answers[v.Layer], answerReport{Decision: v.Decision.String(), Decided: true, Rule: string(v.Rule), Reason: v.Reason})
	for c := range v.Conflicts.All() {
		answers[c.Layer] = append(answers[c.Layer], answerReport{Decision: c.Decision.String(), Source: c.Source.String(), Rule: string(c.Rule), Reason: c.Reason})
	}
	order := []permission.Layer{permission.LayerRuntime, permission.LayerTraits, permission.LayerHooks, permission.LayerRules,
		permission.LayerSandbox, permission.LayerShell, permission.LayerSubagent}
	for _, l := range order {
		ex.Layers = append(ex.Layers, layerReport{Layer: l.String(), Saw: saw[l], Answers: answers[l]})
	}
	if a := answers[permission.LayerNone]; len(a) > 0 {
		ex.Layers = append(ex.Layers, layerReport{Layer: permission.LayerNone.String(), Saw: "no layer", Answers: a})
	}
	if known {
		ex.Rules = ruleMatches(pol, name, traits, fields, v)
	}
	return ex, nil
}

func fieldsOf(input json.RawMessage) map[string]string {
	var raw map[string]json.RawMessage
	_ = json.Unmarshal(input, &raw)
	out := make(map[string]string, len(raw))
	for k, r := range raw {
		var s string
		if json.Unmarshal(r, &s) == nil {
			out[k] = s
		}
	}
	return out
}

func describeFields(t tool.Traits) string {
	var parts []string
	add := func(what string, fs []string) {
		if len(fs) > 0 {
			parts = append(parts, what+" "+strings.Join(fs, ", "))
		}
	}
	add("paths:", t.PathFields)
	add("globs:", t.GlobFields)
	add("shell:", t.CommandFields)
	add("URLs:", t.URLFields)
	add("domains:", t.DomainFields)
	if len(parts) == 0 {
		return "; no declared fields"
	}
	return "; " + strings.Join(parts, "; ")
}

// ruleMatches holds each rule that names the tool (or its Read/Edit group)
// against what the call touches, one rule at a time, with the same
// permission checker the pipeline uses: it answers "why did my rule not
// match?".
func ruleMatches(pol *policy, tool string, traits tool.Traits, fields map[string]string, v runtime.Verdict) []ruleReport {
	group := ""
	switch traits.Kind {
	case permission.KindRead:
		group = "Read"
	case permission.KindEdit:
		group = "Edit"
	}
	type target struct {
		label string
		req   permission.Request
	}
	var targets []target
	for _, c := range v.Commands {
		targets = append(targets, target{strings.Join(c.Args, " "), permission.Request{Tool: tool, Kind: traits.Kind, Command: c.Args}})
	}
	sb, _ := sandbox.New(pol.sandboxConfig())
	for _, f := range traits.PathFields {
		p := fields[f]
		if p == "" {
			continue
		}
		if real, err := sb.Resolve(p); err == nil {
			p = real
		}
		targets = append(targets, target{p, permission.Request{Tool: tool, Group: group, Kind: traits.Kind, Path: p}})
	}
	for _, f := range traits.URLFields {
		if u, err := url.Parse(fields[f]); err == nil && u.Hostname() != "" {
			h := strings.ToLower(u.Hostname())
			targets = append(targets, target{"domain " + h, permission.Request{Tool: tool, Kind: traits.Kind, Domain: h}})
		}
	}
	if len(targets) == 0 {
		targets = append(targets, target{"the tool " + tool, permission.Request{Tool: tool, Group: group, Kind: traits.Kind}})
	}
	var out []ruleReport
	for _, spec := range pol.cfg.Rules {
		r, err := permission.ParseRule(spec.Rule)
		if err != nil || !(r.CoversTool(tool) || group != "" && r.CoversTool(group)) {
			continue
		}
		one := pol.cfg
		one.Rules = []permission.RuleSpec{spec}
		one.Allow, one.Ask, one.Deny = nil, nil, nil
		c, err := permission.New(one)
		if err != nil {
			continue
		}
		rr := ruleReport{Rule: spec.Rule, List: spec.Decision.String(), Origin: spec.Origin}
		for _, t := range targets {
			req := t.req
			res := c.Check(&req, nil)
			rr.Matches = append(rr.Matches, matchReport{Target: t.label, Matched: res.Source != permission.SourceDefault})
		}
		out = append(out, rr)
	}
	return out
}

// print writes the report for a person.
func (ex *explanation) print(w io.Writer) {
	fmt.Fprintf(w, "%s %s\n", ex.Tool, ex.Input)
	fmt.Fprintf(w, "  decision: %s\n  layer:    %s\n  rule:     %s\n  reason:   %s\n", ex.Decision, ex.Layer, ex.Rule, ex.Reason)
	if ex.UpdatedInput != nil {
		fmt.Fprintf(w, "  input after hooks: %s\n", ex.UpdatedInput)
	}
	p := ex.Policy
	fmt.Fprintf(w, "\npolicy\n  cwd:      %s\n  mode:     %s\n  roots:    %s\n", p.Cwd, p.Mode, strings.Join(p.Roots, ", "))
	if len(p.SkippedRoots) > 0 {
		fmt.Fprintf(w, "  skipped:  %s (not a directory)\n", strings.Join(p.SkippedRoots, ", "))
	}
	fmt.Fprintf(w, "  network:  %v\n", p.Network)
	if len(p.SafeCommands) > 0 {
		fmt.Fprintf(w, "  safe:     %s\n", strings.Join(p.SafeCommands, ", "))
	}
	if len(p.Files) == 0 {
		fmt.Fprintln(w, "  settings: none (toolgate defaults only)")
	}
	for _, f := range p.Files {
		fmt.Fprintf(w, "  settings: %s %s (%d allow, %d ask, %d deny)\n", f.Scope, f.Path, f.Allow, f.Ask, f.Deny)
	}
	for _, h := range p.Hooks {
		fmt.Fprintf(w, "  hook:     %s\n", h)
	}
	for _, s := range p.Warnings {
		fmt.Fprintf(w, "  warning:  %s\n", s)
	}
	fmt.Fprintln(w, "\nlayers (in the order they run)")
	for _, l := range ex.Layers {
		fmt.Fprintf(w, "  %-12s saw %s\n", l.Layer, l.Saw)
		if len(l.Answers) == 0 {
			fmt.Fprintf(w, "  %-12s   no objection\n", "")
		}
		for _, a := range l.Answers {
			mark := "overridden"
			if a.Decided {
				mark = "DECIDED"
			}
			fmt.Fprintf(w, "  %-12s   %-5s %-10s %s: %s\n", "", a.Decision, mark, a.Rule, a.Reason)
		}
	}
	if len(ex.Commands) > 0 {
		fmt.Fprintln(w, "\nshell commands")
		for _, c := range ex.Commands {
			fmt.Fprintf(w, "  %-6s %-5s %q\n  %-6s       %s (%s, %s)\n", c.Pos, c.Decision, c.Args, "", c.Reason, c.Layer, c.Rule)
		}
	}
	if len(ex.Rules) > 0 {
		fmt.Fprintln(w, "\nrules naming this tool")
		for _, r := range ex.Rules {
			fmt.Fprintf(w, "  %-5s %s (%s)\n", r.List, r.Rule, r.Origin)
			for _, m := range r.Matches {
				fmt.Fprintf(w, "          %s %s\n", map[bool]string{true: "matches       ", false: "does not match"}[m.Matched], m.Target)
			}
		}
	}
}

package runtime

import (
	"context"
	"strings"

	"github.com/toolgate/toolgate/internal/content"
	"github.com/toolgate/toolgate/internal/jsonin"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime/tool"
)

// inspect runs the content stage (layers 2, 4 and 5 on the final input)
// on one call of tool, whose input has the top-level members given.
func (a *agent) inspect(ctx context.Context, tool string, t *tool.Traits, members []jsonin.Member) content.Findings {
	call := content.Call{
		Tool: tool, Kind: t.Kind,
		PathFields: t.PathFields, GlobFields: t.GlobFields, FilterFields: t.FilterFields, FileTypeFields: t.FileTypeFields,
		CommandFields: t.CommandFields, URLFields: t.URLFields, DomainFields: t.DomainFields, WorkdirField: t.WorkdirField,
		RequiredFields: t.RequiredFields, SpecifierField: t.SpecifierField, ServerField: t.ServerField,
	}
	if len(t.Rules) > 0 {
		call.Rules = make([]content.Rule, len(t.Rules))
		for i, r := range t.Rules {
			call.Rules[i] = content.Rule{Decision: r.Decision, Reason: r.Reason, Rule: r.Rule}
		}
	}
	cfg := &a.p.cfg
	return content.Inspect(ctx, content.Judges{Checker: a.checker, Session: a.rules, Sandbox: cfg.Sandbox.Pin(), Guard: cfg.Guard, Mode: a.mode, Reads: a.p.reads}, call, members)
}

// commandVerdicts are the verdicts on a shell call's simple commands.
func commandVerdicts(cmds []content.Command) []CommandVerdict {
	if len(cmds) == 0 {
		return nil
	}
	out := make([]CommandVerdict, len(cmds))
	for i, c := range cmds {
		out[i] = CommandVerdict{Args: c.Args, Result: c.Result, Pos: c.Pos}
	}
	return out
}

// alwaysRules are the session rules an "allow always" answer records: for
// a shell call one exact rule per simple command (never a broad prefix),
// for a file tool one rule per real path, for a network tool one per
// domain.
func alwaysRules(tool string, f *content.Findings) []string {
	if len(f.Commands) > 0 {
		args := make([][]string, 0, len(f.Commands))
		for _, cmd := range f.Commands {
			if cmd.Decision != permission.Allow {
				args = append(args, cmd.Args)
			}
		}
		rules, err := permission.AllowAlwaysRules(tool, args)
		if err != nil {
			return nil
		}
		return rules
	}
	var rules []string
	for _, p := range f.Paths() {
		if strings.ContainsAny(p, "*?[]{}\\()") {
			return nil // a rule for this path would be a pattern: offer none
		}
		rules = append(rules, tool+"(/"+p+")")
	}
	for _, d := range f.Domains {
		rules = append(rules, tool+"(domain:"+d+")")
	}
	if len(rules) == 0 && !strings.ContainsAny(tool, "*()") {
		rules = append(rules, tool)
	}
	return rules
}

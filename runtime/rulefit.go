package runtime

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime/tool"
)

// A rule's specifier means a command, a path or a domain by the tool it
// names: Open reads which from the tools' traits (a tool whose input holds
// a shell command takes command rules, one with path fields path rules),
// unless the host names them itself (permission.Config.ShellTools,
// PathTools). A rule that names no tool of the registry, or gives a
// specifier the tool has no field for, can never match: Open reports it
// in Pipeline.Warnings, which a host can log or make fatal.

// toolKinds returns the tools of reg whose input holds a shell command,
// and those whose input holds a path or a glob, judged on an empty input.
func toolKinds(reg *tool.Registry) (shell, paths []string) {
	for _, t := range reg.List() {
		tr := t.Traits(json.RawMessage(`{}`))
		if len(tr.CommandFields) > 0 {
			shell = append(shell, t.Name())
		}
		if len(tr.PathFields) > 0 || len(tr.GlobFields) > 0 {
			paths = append(paths, t.Name())
		}
	}
	return shell, paths
}

// ruleWarnings says which rules of cfg can never match a call of a tool of
// reg.
func ruleWarnings(cfg permission.Config, reg *tool.Registry) []string {
	var out []string
	lists := []struct {
		name  string
		rules []string
	}{{"allow", cfg.Allow}, {"ask", cfg.Ask}, {"deny", cfg.Deny}}
	for _, l := range lists {
		for i, text := range l.rules {
			r, err := permission.ParseRule(text)
			if err != nil {
				continue // permission.New reports it
			}
			if why := ruleMisfit(r, reg, cfg); why != "" {
				out = append(out, fmt.Sprintf("%s rule %d %q can never match: %s", l.name, i, text, why))
			}
		}
	}
	return out
}

// ruleMisfit says why the rule r can never match a call of reg's tools,
// or "".
func ruleMisfit(r permission.Rule, reg *tool.Registry, cfg permission.Config) string {
	if strings.ContainsAny(r.Tool, "*") {
		for _, n := range reg.Names() {
			if ok, _ := path.Match(r.Tool, n); ok {
				return ""
			}
		}
		if strings.HasPrefix(r.Tool, "mcp__") {
			return "" // MCP tools are added at run time
		}
		return "no tool of the registry matches " + r.Tool
	}
	t, ok := reg.Lookup(r.Tool)
	if !ok {
		if strings.HasPrefix(r.Tool, "mcp__") {
			return ""
		}
		return "the registry has no tool " + r.Tool
	}
	if r.Specifier == "" {
		return ""
	}
	tr := t.Traits(json.RawMessage(`{}`))
	switch {
	case strings.HasPrefix(r.Specifier, "domain:"):
		if len(tr.URLFields) == 0 && len(tr.DomainFields) == 0 {
			return r.Tool + " takes no URL or domain, so a domain: rule names none of its calls"
		}
	case slices.Contains(cfg.ShellTools, r.Tool):
		if len(tr.CommandFields) == 0 {
			return r.Tool + " has no command field, so a command rule names none of its calls"
		}
	case slices.Contains(cfg.PathTools, r.Tool):
		if len(tr.PathFields) == 0 && len(tr.GlobFields) == 0 {
			return r.Tool + " has no path field, so a path rule names none of its calls"
		}
	case tr.SpecifierField == "" && len(tr.CommandFields) == 0 && len(tr.PathFields) == 0:
		return r.Tool + " takes no specifier, so only the bare " + r.Tool + " names its calls"
	}
	return ""
}

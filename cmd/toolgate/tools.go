package main

import (
	"strings"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

// moreClaudeCodeTools are Claude Code tools that runtime.ClaudeCodeTools
// does not describe. Without them every call of these tools would be denied
// as unknown; with them they get the conservative defaults of their kind
// (Ask, except LS and NotebookRead, which read a path inside the roots).
func moreClaudeCodeTools() []runtime.Tool {
	other := func(name string, kind permission.Kind) runtime.Tool {
		return &runtime.Descriptor{ToolName: name, Base: runtime.Traits{Kind: kind}}
	}
	return []runtime.Tool{
		&runtime.Descriptor{ToolName: "LS", Base: runtime.Traits{ConcurrencySafe: true, Kind: permission.KindRead, PathFields: []string{"path"}}},
		&runtime.Descriptor{ToolName: "NotebookRead", Base: runtime.Traits{ConcurrencySafe: true, Kind: permission.KindRead, PathFields: []string{"notebook_path"}}},
		other("BashOutput", permission.KindOther),
		other("KillShell", permission.KindOther),
		other("ExitPlanMode", permission.KindInteraction),
		other("AskUserQuestion", permission.KindInteraction),
		other("SlashCommand", permission.KindOther),
		other("Skill", permission.KindOther),
	}
}

// isMCPName reports whether name has the shape of an MCP tool,
// mcp__server__tool, with a non-empty server and tool.
func isMCPName(name string) bool {
	rest, ok := strings.CutPrefix(name, "mcp__")
	if !ok {
		return false
	}
	server, tool, ok := strings.Cut(rest, "__")
	return ok && server != "" && tool != ""
}

// registryFor returns the tools a call of the named tool is checked
// against: Claude Code's tools, and the named tool itself as a generic
// tool (kind other, no declared fields) when it is an MCP tool. A name
// that is neither is left out, so that the pipeline denies it as unknown.
func registryFor(tool string) (*runtime.Registry, error) {
	tools := moreClaudeCodeTools()
	if isMCPName(tool) {
		tools = append(tools, &runtime.Descriptor{ToolName: tool, Base: runtime.Traits{Kind: permission.KindOther}})
	}
	return runtime.ClaudeCodeTools().With(tools...)
}

// knownTool reports whether lint should accept a rule's tool name: one of
// the tools toolgate describes, an MCP name or server prefix, or a name
// pattern matching one of them.
func knownTool(name string) bool {
	if name == "*" || strings.HasPrefix(name, "mcp__") {
		return true
	}
	reg, err := registryFor("")
	if err != nil {
		return false
	}
	for _, n := range reg.Names() {
		if n == name || strings.Contains(name, "*") && globMatch(name, n) {
			return true
		}
	}
	return false
}

// globMatch matches name against a pattern in which * stands for any run
// of characters.
func globMatch(pattern, name string) bool {
	parts := strings.Split(pattern, "*")
	if !strings.HasPrefix(name, parts[0]) {
		return false
	}
	name = name[len(parts[0]):]
	for i, p := range parts[1:] {
		if i == len(parts)-2 {
			return strings.HasSuffix(name, p)
		}
		j := strings.Index(name, p)
		if j < 0 {
			return false
		}
		name = name[j+len(p):]
	}
	return true
}

package main

import (
	"strings"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

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
	if isMCPName(tool) {
		return runtime.ClaudeCodeTools().With(&runtime.Descriptor{ToolName: tool, Base: runtime.Traits{Kind: permission.KindOther}})
	}
	return runtime.ClaudeCodeTools(), nil
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

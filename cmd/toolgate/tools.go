package main

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime/tool"
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
func registryFor(name string) (*tool.Registry, error) {
	if isMCPName(name) {
		return tool.ClaudeCodeTools().With(&tool.Descriptor{ToolName: name, Base: tool.Traits{Kind: permission.KindOther}})
	}
	return tool.ClaudeCodeTools(), nil
}

// claudeCodeToolNames are the names of Claude Code's tools, as
// tool.ClaudeCodeTools describes them: read once, since the lint and the
// settings' warnings ask for each rule, and a registry is built anew at
// every call of ClaudeCodeTools. The list is constant; the caller must
// not change it.
var claudeCodeToolNames = sync.OnceValue(func() []string { return tool.ClaudeCodeTools().Names() })

// knownTool reports whether lint should accept a rule's tool name: one of
// the tools toolgate describes, an MCP name or server prefix, or a name
// pattern matching one of them.
func knownTool(name string) bool {
	if name == "*" || strings.HasPrefix(name, "mcp__") {
		return true
	}
	for _, n := range claudeCodeToolNames() {
		if (permission.Rule{Tool: name}).CoversTool(n) {
			return true
		}
	}
	return false
}

// neverMatches says why a rule can never match a call, or returns "": a
// tool name in the wrong letter case, a specifier of a kind the tool does
// not take (a URL where WebFetch takes domain:host, a domain for a file
// tool, any specifier for a tool without one, such as an MCP tool).
// Malformed rules are left to permission.New, unknown tools to lint.
func neverMatches(text string) string {
	r, err := permission.ParseRule(text)
	if err != nil || strings.Contains(r.Tool, "*") {
		return ""
	}
	names := claudeCodeToolNames()
	if !slices.Contains(names, r.Tool) && !strings.HasPrefix(r.Tool, "mcp__") {
		for _, n := range names {
			if strings.EqualFold(n, r.Tool) {
				return fmt.Sprintf("tool names are case-sensitive, and the tool is %s", n)
			}
		}
		if strings.HasPrefix(strings.ToLower(r.Tool), "mcp__") {
			return "MCP tool names start with mcp__ in lower case"
		}
		return ""
	}
	spec := r.Specifier
	if spec == "" {
		return ""
	}
	domain := strings.HasPrefix(spec, "domain:")
	switch kind := specifierKind(r.Tool); {
	case kind == "domain" && !domain:
		return fmt.Sprintf("%s rules name a host as %s(domain:example.com); a URL or other text never matches", r.Tool, r.Tool)
	case kind != "domain" && domain:
		return fmt.Sprintf("domain: belongs to WebFetch and WebSearch rules; %s has no host to match", r.Tool)
	case kind == "":
		return fmt.Sprintf("%s takes no specifier: write the bare tool name", r.Tool)
	}
	return ""
}

// specifierKind is what a tool's rule specifier names: "command",
// "path", "domain", "agent", "skill", "slash", or "" when the tool takes
// none.
func specifierKind(tool string) string {
	switch tool {
	case "Bash":
		return "command"
	case "Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "NotebookRead", "Glob", "Grep", "LS":
		return "path"
	case "WebFetch", "WebSearch":
		return "domain"
	case "Task", "Agent":
		return "agent"
	case "Skill":
		return "skill"
	case "SlashCommand":
		return "slash"
	}
	return ""
}

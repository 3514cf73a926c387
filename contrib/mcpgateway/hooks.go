package mcpgateway

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/toolgate/toolgate/hooks"
)

// HookMatcher is one entry of the configuration's "hooks" member, in
// Claude Code's hook settings shape: the tools it matches (as Claude
// Code's matchers, on the mcp__SERVER__TOOL names) and the commands run
// for them.
type HookMatcher struct {
	Matcher string        `json:"matcher,omitempty"`
	Hooks   []HookCommand `json:"hooks"`
}

// HookCommand is a command hook: a shell command line (run with
// /bin/sh -c) and its timeout in seconds (0 means hooks.DefaultTimeout).
type HookCommand struct {
	Type    string  `json:"type"`
	Command string  `json:"command"`
	Timeout float64 `json:"timeout,omitempty"`
}

// HookCommands returns the command hooks of the configuration, in order
// (PreToolUse first, then PostToolUse), each run in dir with
// CLAUDE_PROJECT_DIR set to it. A PostToolUse hook sees an MCP tool's
// result as Claude Code's hooks see it (tool_response, the text), and what
// it answers as updatedMCPToolOutput (or updatedToolOutput) replaces the
// result's text parts, its structured copy dropped.
//
// The hooks are the configuration file's: it is the file the person names
// on the gateway's command line, which already says which commands run as
// servers. Hooks in a workspace's settings files are not run by the
// gateway (only their permission rules apply), as a workspace could
// otherwise run commands on the person's machine by shipping a settings
// file.
func (c *Config) HookCommands(dir string) ([]hooks.Command, error) {
	var out []hooks.Command
	for _, ev := range []struct {
		name  string
		event hooks.Event
	}{{"PreToolUse", hooks.EventPreToolUse}, {"PostToolUse", hooks.EventPostToolUse}} {
		for i, m := range c.Hooks[ev.name] {
			for j, h := range m.Hooks {
				if h.Type != "command" || strings.TrimSpace(h.Command) == "" || h.Timeout < 0 {
					return nil, fmt.Errorf("mcpgateway: config: hooks.%s[%d].hooks[%d]: each hook needs \"type\": \"command\", a command and a timeout that is not negative", ev.name, i, j)
				}
				cmd := hooks.Command{
					Name:    fmt.Sprintf("hooks.%s[%d].hooks[%d]", ev.name, i, j),
					Shell:   h.Command,
					Matcher: m.Matcher,
					Events:  []hooks.Event{ev.event},
					Dir:     dir,
					Env:     append(os.Environ(), "CLAUDE_PROJECT_DIR="+dir),
					Timeout: time.Duration(h.Timeout * float64(time.Second)),
				}
				if _, err := cmd.Hook(); err != nil {
					return nil, fmt.Errorf("mcpgateway: config: %s: %w", cmd.Name, err)
				}
				out = append(out, cmd)
			}
		}
	}
	return out, nil
}

// checkHooks reports the events of the "hooks" member the gateway does not
// run.
func (c *Config) checkHooks() error {
	for _, ev := range slices.Sorted(mapKeys(c.Hooks)) {
		if ev != "PreToolUse" && ev != "PostToolUse" {
			return fmt.Errorf("mcpgateway: config: hooks: event %q is not PreToolUse or PostToolUse", ev)
		}
	}
	return nil
}

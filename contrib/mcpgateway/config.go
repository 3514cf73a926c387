package mcpgateway

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// Config is a gateway configuration: Claude Code's .mcp.json shape, with
// an optional "roles" member per server that says which arguments of its
// tools are paths, commands or URLs, and an optional "hooks" member (see
// [Config.HookCommands]).
type Config struct {
	// Servers are the upstream servers, by name.
	Servers map[string]Server `json:"mcpServers"`
	// Hooks are command hooks by event ("PreToolUse", "PostToolUse"),
	// in Claude Code's hook settings shape.
	Hooks map[string][]HookMatcher `json:"hooks,omitempty"`
}

// Server is one upstream MCP server: a command run over stdio, or an
// HTTP endpoint (Type "http", streamable HTTP).
type Server struct {
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	URL     string            `json:"url,omitempty"`
	// Roles override, per tool, the roles inferred from its input schema.
	Roles map[string]Roles `json:"roles,omitempty"`
}

// Roles say what a tool's arguments are, so that the sandbox, the shell
// guard and the domain rules judge them. Kind is "read", "edit", "exec",
// "network" or "other"; empty means inferred (read for a tool whose
// annotations say it is read-only, edit otherwise).
type Roles struct {
	Kind     string   `json:"kind,omitempty"`
	Paths    []string `json:"paths,omitempty"`
	Commands []string `json:"commands,omitempty"`
	URLs     []string `json:"urls,omitempty"`
}

// LoadConfig reads and checks a configuration file.
func LoadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("mcpgateway: %w", err)
	}
	return ParseConfig(data)
}

// ParseConfig parses and checks a configuration.
func ParseConfig(data []byte) (*Config, error) {
	var c Config
	dec := json.NewDecoder(strings.NewReader(string(data)))
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("mcpgateway: config: %w", err)
	}
	var errs []error
	if len(c.Servers) == 0 {
		errs = append(errs, errors.New("mcpgateway: config: no mcpServers"))
	}
	if err := c.checkHooks(); err != nil {
		errs = append(errs, err)
	} else if _, err := c.HookCommands(""); err != nil {
		errs = append(errs, err)
	}
	for _, name := range slices.Sorted(mapKeys(c.Servers)) {
		s := c.Servers[name]
		if name == "" || strings.Contains(name, "__") || strings.ContainsAny(name, " ()") {
			errs = append(errs, fmt.Errorf("mcpgateway: config: server name %q cannot make tool names", name))
		}
		switch s.Type {
		case "", "stdio":
			if s.Command == "" {
				errs = append(errs, fmt.Errorf("mcpgateway: config: server %q has no command", name))
			}
		case "http":
			if s.URL == "" {
				errs = append(errs, fmt.Errorf("mcpgateway: config: server %q has no url", name))
			}
		default:
			errs = append(errs, fmt.Errorf("mcpgateway: config: server %q: unsupported type %q", name, s.Type))
		}
		for tool, r := range s.Roles {
			if _, ok := kinds[r.Kind]; !ok {
				errs = append(errs, fmt.Errorf("mcpgateway: config: server %q tool %q: unknown kind %q", name, tool, r.Kind))
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return &c, nil
}

var kinds = map[string]permission.Kind{
	"": permission.KindOther, "read": permission.KindRead, "edit": permission.KindEdit,
	"exec": permission.KindExec, "network": permission.KindNetwork, "other": permission.KindOther,
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

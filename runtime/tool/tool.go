package tool

import (
	"encoding/json"
	"strings"
)

// Tool is what the pipeline needs to know about a tool: its name and, for a
// given input, its [Traits]. Implementations must be safe for concurrent
// use and must not modify input.
type Tool interface {
	// Name returns the tool's name as the model calls it.
	Name() string
	// Traits returns the tool's traits for one call's input. The input may
	// be anything the model sent, including invalid JSON; a tool that cannot
	// judge its input should return a Deny rule saying why.
	Traits(input json.RawMessage) Traits
}

// validToolName reports whether s may be a tool name: 1 to 128 bytes of
// letters, digits, '_', '-', '.' and ':'.
func validToolName(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	return strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
			r == '_' || r == '-' || r == '.' || r == ':')
	}) < 0
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/toolgate/toolgate/internal/safefile"
)

// maxClaudeJSONBytes bounds ~/.claude.json, which also holds Claude Code's
// history and caches and can reach megabytes.
const maxClaudeJSONBytes = 64 << 20

// claudeJSONPath is where Claude Code records per-project state, the
// trust dialog's answer among it: $CLAUDE_CONFIG_DIR/.claude.json when
// that is set, else ~/.claude.json.
func claudeJSONPath(home string, getenv func(string) string) string {
	if getenv != nil {
		if d := getenv("CLAUDE_CONFIG_DIR"); d != "" && filepath.IsAbs(d) {
			return filepath.Join(d, ".claude.json")
		}
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".claude.json")
}

// workspaceTrusted reports whether the person accepted Claude Code's trust
// dialog for the project, as Claude Code records it: the
// projects[path].hasTrustDialogAccepted member of ~/.claude.json, for the
// project directory or one of its parents up to the repository's root
// (the first directory with a .git), as Claude Code looks it up. The
// second result says why not, for the warnings. A file that cannot be
// read or parsed trusts nothing.
func workspaceTrusted(claudeJSON, project string) (bool, string) {
	if claudeJSON == "" {
		return false, "no home directory, so no record of trust"
	}
	data, err := safefile.Read(claudeJSON, maxClaudeJSONBytes)
	if err != nil {
		if os.IsNotExist(err) {
			return false, "the workspace has not been trusted (" + claudeJSON + " does not exist)"
		}
		return false, "the workspace's trust cannot be read from " + claudeJSON
	}
	var state struct {
		Projects map[string]struct {
			HasTrustDialogAccepted bool `json:"hasTrustDialogAccepted"`
		} `json:"projects"`
	}
	if err := json.Unmarshal(data, &state); err != nil {
		return false, "the workspace's trust cannot be read from " + claudeJSON + " (not the expected JSON)"
	}
	candidates := []string{project}
	if real, err := filepath.EvalSymlinks(project); err == nil && real != project {
		candidates = append(candidates, real)
	}
	for _, start := range candidates {
		for dir := start; ; dir = filepath.Dir(dir) {
			if p, ok := state.Projects[dir]; ok && p.HasTrustDialogAccepted {
				return true, ""
			}
			if fi, err := os.Lstat(filepath.Join(dir, ".git")); err == nil && fi != nil {
				break // the repository's root: trust above it does not reach in
			}
			if dir == filepath.Dir(dir) {
				break
			}
		}
	}
	return false, "this workspace has not been trusted"
}

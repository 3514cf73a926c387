package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/toolgate/toolgate/internal/safefile"
	"github.com/toolgate/toolgate/permission"
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
	return workspaceTrustedBy(claudeJSON, project, readTrustRecord)
}

// readTrustRecord reads the file at path and decodes its projects
// (trustRecord); the error is the read's.
func readTrustRecord(path string) (map[string]bool, string, error) {
	data, err := safefile.Read(path, maxClaudeJSONBytes)
	if err != nil {
		return nil, "", err
	}
	projects, why := trustRecord(data)
	return projects, why, nil
}

// workspaceTrustedBy is workspaceTrusted with the record read and
// decoded by record (a warm process keeps it while the file is
// unchanged).
func workspaceTrustedBy(claudeJSON, project string, record func(string) (map[string]bool, string, error)) (bool, string) {
	if claudeJSON == "" {
		return false, "no home directory, so no record of trust"
	}
	projects, why, err := record(claudeJSON)
	if err != nil {
		if os.IsNotExist(err) {
			return false, "the workspace has not been trusted (" + claudeJSON + " does not exist)"
		}
		return false, "the workspace's trust cannot be read from " + claudeJSON
	}
	if why != "" {
		return false, "the workspace's trust cannot be read from " + claudeJSON + " (" + why + ")"
	}
	candidates := []string{project}
	if real, err := filepath.EvalSymlinks(project); err == nil && real != project {
		candidates = append(candidates, real)
	}
	for _, start := range candidates {
		for dir := start; ; dir = filepath.Dir(dir) {
			if projects[dir] {
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

// trustRecord decodes the projects of ~/.claude.json exactly as Claude
// Code's JavaScript reads them: member names are case-sensitive
// ("Projects" and "HasTrustDialogAccepted" are other members, which
// encoding/json's struct decoding would take for these), and a file in
// which a key repeats another of its object is refused as a whole (which
// of the two counts depends on the reader). It returns whether each
// project directory's hasTrustDialogAccepted is true, or why the file
// cannot be used.
func trustRecord(data []byte) (map[string]bool, string) {
	if off, why := permission.DuplicateKeys(data); off >= 0 {
		return nil, fmt.Sprintf("%s at offset %d", why, off)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		return nil, "not the expected JSON"
	}
	out := map[string]bool{}
	raw, ok := top["projects"]
	if !ok {
		return out, ""
	}
	var projects map[string]json.RawMessage
	if err := json.Unmarshal(raw, &projects); err != nil {
		return nil, "projects is not an object"
	}
	for dir, v := range projects {
		var p map[string]json.RawMessage
		if json.Unmarshal(v, &p) != nil {
			continue
		}
		out[dir] = string(bytes.TrimSpace(p["hasTrustDialogAccepted"])) == "true"
	}
	return out, ""
}

// Package gitfiles names the files of a git repository that the shell
// guard and the sandbox both judge by their names.
package gitfiles

import (
	"path/filepath"
	"strings"
)

// IsConfig reports whether the path p names a config file of a git
// repository: config or config.worktree below a directory named .git or
// NAME.git (a submodule's and a worktree's among them).
func IsConfig(p string) bool {
	base := filepath.Base(p)
	if base != "config" && base != "config.worktree" {
		return false
	}
	for d := filepath.Dir(p); d != "/" && d != "."; d = filepath.Dir(d) {
		if strings.HasSuffix(filepath.Base(d), ".git") {
			return true
		}
	}
	return false
}

// UserConfigs are the user's own git config files under home, in the
// order git reads them: $HOME/.config/git/config, then $HOME/.gitconfig.
// None for an empty home.
func UserConfigs(home string) []string {
	if home == "" {
		return nil
	}
	return []string{filepath.Join(home, ".config", "git", "config"), filepath.Join(home, ".gitconfig")}
}

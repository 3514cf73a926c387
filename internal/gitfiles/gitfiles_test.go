package gitfiles

import "testing"

// IsConfig names a repository's config files, a submodule's and a
// worktree's too, and nothing else called config.
func TestIsConfig(t *testing.T) {
	for p, want := range map[string]bool{
		"/r/.git/config":                      true,
		"/r/.git/config.worktree":             true,
		"/r/.git/modules/sub/config":          true,
		"/r/.git/worktrees/w/config.worktree": true,
		"/srv/repo.git/config":                true,
		".git/config":                         true,
		"/r/config":                           false,
		"/r/.github/config":                   false,
		"/r/.git/hooks/pre-commit":            false,
		"/r/.git/configs":                     false,
		"/r/notgit/config":                    false,
	} {
		if got := IsConfig(p); got != want {
			t.Errorf("IsConfig(%q) = %v, want %v", p, got, want)
		}
	}
}

// The user's git configs are the two git reads, in its order.
func TestUserConfigs(t *testing.T) {
	got := UserConfigs("/home/u")
	want := []string{"/home/u/.config/git/config", "/home/u/.gitconfig"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("UserConfigs(/home/u) = %q, want %q", got, want)
	}
	if UserConfigs("") != nil {
		t.Errorf("UserConfigs of no home = %q, want none", UserConfigs(""))
	}
}

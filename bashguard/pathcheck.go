package bashguard

import "github.com/toolgate/toolgate/permission"

// PathChecker judges one path that a shell command reads or writes.
// *sandbox.Sandbox satisfies it.
//
// A relative path is taken against the checker's own working directory.
// The [Guard] expands a leading "~" to [Policy.Home] before calling, when
// it knows the home directory; otherwise such a word is never auto-allowed.
//
// Implementations must be safe for concurrent use: one Guard calls its
// checker from every goroutine that calls [Guard.Judge].
type PathChecker interface {
	CheckPath(path string, write bool) (permission.Decision, string)
}

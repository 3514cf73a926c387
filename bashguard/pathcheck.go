package bashguard

import "github.com/toolgate/toolgate/permission"

// PathChecker judges one path against the sandbox alone: the [Runner]
// checks its working directory with it, and [CheckerJudge] adapts it to
// the [PathJudge] a [Guard] takes. *sandbox.Sandbox satisfies it.
//
// A relative path is taken against the checker's own working directory.
//
// Implementations must be safe for concurrent use.
type PathChecker interface {
	CheckPath(path string, write bool) (permission.Decision, string)
}

// Package permission is layer 2 of toolgate: ordered allow, ask and deny
// rules in Claude Code's syntax, permission modes, and the multi-source
// precedence that decides between rules, tools, hooks and sessions.
//
// # Rules
//
// A [Rule] names a tool and, optionally, what the call does:
//
//	Bash(npm run test:*)         shell: one simple command, by its words
//	Read(./src/**)               path: gitignore-style, with **
//	WebFetch(domain:*.example)   domain: subdomains of example
//	mcp__github__*               every tool whose name matches
//
// Shell specifiers match one simple command (its argv): splitting a script
// into simple commands is package bashguard's job, and the caller combines
// the answers.
//
// # Checking
//
// A [Checker] is built once from a [Config] (in Go, or from settings files
// with [LoadSettings], [FromEnv] and [Merge]) and is safe for concurrent
// use. [Checker.Check] answers for one [Request] without allocating:
// configuration Deny (P0), then session Deny (P2), then Ask (P5), then
// Allow (P7), then the default (P8); every other rule that matched is kept
// in the [Result]'s conflict log.
//
//	c, err := permission.New(permission.Config{
//		Allow:   []string{"Bash(git status)"},
//		Deny:    []string{"Bash(rm:*)"},
//		Default: permission.Ask,
//	})
//	r := c.Check(&permission.Request{Tool: "Bash", Command: []string{"rm", "-rf", "x"}}, nil)
//	// r.Decision == permission.Deny
//	// r.Reason == "denied by deny rule Bash(rm:*) (config)"
//
// # Precedence and modes
//
// [Combine] resolves the answers of every source — rules, tool-level
// rules and content guards, hooks — by the original design's precedence
// P0–P8 ([Source]) and then applies the [Mode]. A Deny from P0–P3 is final:
// no mode, hook, session rule or allow rule changes it.
//
// # Sessions
//
// [SessionRules] hold rules added at run time ("allow always"). They are
// copy-on-write: checks never take a lock. [SessionRules.Child] gives a
// subagent rules that see its parent's and may only narrow.
//
// # Zero values
//
// The zero [Decision] is Deny, the zero [Result] is a Deny, and a Checker
// built from the zero Config denies every call.
package permission

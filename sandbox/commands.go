package sandbox

import "github.com/toolgate/toolgate/permission"

// Commands judges the paths another process opens, such as the commands
// of a shell script, with its [Sandbox]'s roots and classes. In such a
// process /proc/self and /proc/thread-self (and /dev/fd, /dev/stdin, ...
// which lead through them) name that process, not this one, so a path
// through them is refused with [ErrForeignProcess] rather than judged by
// this process's links. (Magic links of every process but this one are
// refused by the Sandbox's own methods too.) A Commands is a value; its
// methods are safe for concurrent use. That of a nil *Sandbox denies
// every path.
type Commands struct{ s *Sandbox }

// Commands returns s's judge of the paths another process opens.
func (s *Sandbox) Commands() Commands { return Commands{s} }

// CheckPath is [Sandbox.CheckPath] for a path another process opens.
func (c Commands) CheckPath(path string, write bool) (permission.Decision, string) {
	return c.s.checkPath(path, write, true)
}

// Judge is [Sandbox.Judge] for a path another process opens.
func (c Commands) Judge(path string, write bool) (real string, d permission.Decision, reason string, err error) {
	return c.s.judge(path, write, true)
}

// Resolve is [Sandbox.Resolve] for a path another process opens.
func (c Commands) Resolve(path string) (string, error) {
	w := walker{command: true, memo: c.s.look}
	return c.s.resolve(&w, path)
}

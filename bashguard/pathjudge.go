package bashguard

import "github.com/toolgate/toolgate/permission"

// Access says how a shell command reaches a path.
type Access uint8

const (
	// Read is a read of the file's content, or a listing or search of
	// the directory.
	Read Access = iota
	// Write creates, changes or removes the file.
	Write
	// Probe reads only what the file system says of the path: whether it
	// exists, its type, size and times, where a link leads, the names in
	// a directory (ls, stat, realpath, readlink, test -f, find's starting
	// points).
	Probe
)

// String returns "read", "write" or "probe".
func (a Access) String() string {
	switch a {
	case Write:
		return "write"
	case Probe:
		return "probe"
	}
	return "read"
}

// PathJudge judges one path that a shell command reaches: the host's path
// pipeline, the same one that judges the path fields of its file tools
// (containment, protected and secret paths, and the user's Read and Edit
// rules from every source).
//
// The [Guard] gives it every path a command reaches, after tilde
// expansion: operands of readers, targets of writers, redirect targets,
// the entries of list files, the roots of recursive reads (and what a
// bounded walk finds below them), git pathspecs and <rev>:<path>. A
// relative path is joined to the directory given to [Guard.Judge] (not
// cleaned: ".." after a link leads where the file system takes it); when
// that directory is empty the path is given as written.
//
// The Result is the command's answer for that path:
//
//   - for a Read, Allow lets the command read it, Ask asks, Deny denies
//     (as for a read of a secret path, or of a path a Deny rule names);
//   - a Probe likewise (it is usually asked, not denied, for a secret
//     path: the command does not print the secret);
//   - for a Write, Allow means the path may be written, which a person
//     still confirms (the Guard asks, and an allow rule for the exact
//     command may lift that Ask: see [Command.Overridable]); Ask asks and
//     no rule lifts it; Deny denies.
//
// Rule and Layer name what decided (a rule in Claude Code syntax from
// [permission.LayerRules], or a check of [permission.LayerSandbox]); the
// Guard carries them into the [Command], and Reason into its reason, after
// the path: "reads notes.txt: " + Reason, or, for a Reason that starts
// with "outside" (such as "outside the allowed roots: ..."), "reads
// /etc/hosts " + Reason. An
// empty Rule lets the Guard name the check (path:read, write:outside,
// write:protected). An invalid Decision counts as a Deny.
//
// A judge whose answers for reads may be kept from one Judge call to the
// next says so by implementing [KeptJudge] too: the Guard then judges the
// files a git index or history holds once per state, not per command.
//
// Implementations must be safe for concurrent use.
type PathJudge interface {
	JudgePath(path string, access Access) permission.Result
}

// CheckerJudge adapts a [PathChecker] that knows the sandbox alone (such
// as *sandbox.Sandbox) to a [PathJudge], for hosts without path rules:
//
//   - a read the checker allows is allowed; a read it asks about (for a
//     sandbox, a secret path) is denied, since a shell command can send
//     what it reads anywhere; a read it refuses (outside the roots) is
//     asked; a probe is a read, but asked where a read is denied;
//   - a write keeps the checker's answer.
//
// A host with Read and Edit rules judges paths with them as well (package
// runtime does); a checker cannot tell a secret path outside the roots
// from any other path outside them.
func CheckerJudge(c PathChecker) PathJudge { return checkerJudge{c} }

type checkerJudge struct{ c PathChecker }

func (j checkerJudge) JudgePath(p string, access Access) permission.Result {
	if j.c == nil {
		return permission.Result{Decision: permission.Deny, Layer: permission.LayerSandbox, Reason: "no path checker is configured"}
	}
	d, why := j.c.CheckPath(p, access == Write)
	r := permission.Result{Decision: d, Layer: permission.LayerSandbox, Reason: why}
	if access != Write {
		switch d {
		case permission.Allow:
		case permission.Ask:
			r.Decision, r.Rule = permission.Deny, RulePathSecret
			if access == Probe {
				r.Decision = permission.Ask
			}
		default:
			r.Decision, r.Reason = permission.Ask, "outside the allowed roots: "+why
		}
	} else if d == permission.Deny {
		r.Reason = "outside the allowed roots: " + why
	}
	return r
}

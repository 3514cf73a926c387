package sandbox

import (
	"errors"
	"strconv"
)

// Sentinel errors. Every error returned by [Sandbox.Resolve] and by the
// methods of [FS] that refuse a path is a [*PathError] whose Kind is one of
// these, so callers test the kind with [errors.Is].
var (
	// ErrOutsideRoots means the path leads outside every root, or the
	// sandbox has no roots at all.
	ErrOutsideRoots = errors.New("sandbox: path is outside every root")
	// ErrInvalidPath means the path cannot name a file: it is empty,
	// contains a NUL byte, is too long, walks through something that is not
	// a directory, or is a magic link to an object that is not a file.
	ErrInvalidPath = errors.New("sandbox: invalid path")
	// ErrSymlinkLoop means resolving the path followed more symbolic links
	// than the kernel would (a loop of links, or an over-long chain).
	ErrSymlinkLoop = errors.New("sandbox: too many levels of symbolic links")
	// ErrHomeRef means the path begins with a "~" or "~user" component,
	// which only a shell can expand.
	ErrHomeRef = errors.New("sandbox: path refers to a home directory")
	// ErrUnresolvable means the file system refused to tell where the
	// path leads (for example, a directory on the way cannot be searched).
	ErrUnresolvable = errors.New("sandbox: path cannot be resolved")
	// ErrForeignProcess means the path goes through a magic link of
	// another process (/proc/<pid>/root, /proc/<pid>/cwd, its fd/N, ...),
	// which leads into that process's view of the file system (another
	// mount namespace or root, its own working directory and descriptors)
	// while its text reads as this process's; or, in the view for
	// commands ([Sandbox.Commands]), through /proc/self or
	// /proc/thread-self, which name the command, not this process.
	ErrForeignProcess = errors.New("sandbox: path goes through another process's magic link")
	// ErrSpecialFile means the path leads to a file that is neither a
	// regular file nor a directory (a FIFO, a socket, a character or
	// block device): file tools never open one (a FIFO's read waits for
	// a writer, a device node reads a disk or a terminal).
	ErrSpecialFile = errors.New("sandbox: not a regular file or directory")
	// ErrOtherMount means the path lies on a mount inside a root that is
	// not itself a root (a bind mount of ~/.aws, .git/hooks or .claude
	// into the workspace): judged as outside the roots.
	ErrOtherMount = errors.New("sandbox: path lies on another mount than its root's")

	// ErrSecret is the class of an Ask for a secret path (a read or a
	// write), carried by the *PathError that [Sandbox.Judge] returns
	// with the Ask, so that callers tell the class with [errors.Is]
	// rather than from the reason's words.
	ErrSecret = errors.New("sandbox: secret path")
	// ErrProtected is the class of an Ask for a write to a protected
	// path, as ErrSecret is for a secret one.
	ErrProtected = errors.New("sandbox: protected path")
)

// PathError reports a path that the sandbox refused and why.
type PathError struct {
	// Path is the path as it was given.
	Path string
	// Resolved is where resolution led, as far as it got; it may be empty.
	Resolved string
	// Reason says, in words, why the path was refused.
	Reason string
	// Kind is one of the package's sentinel errors (ErrOutsideRoots, ...).
	Kind error
	// Err is the underlying operating-system error, if any.
	Err error
}

// Error returns "sandbox: " followed by the quoted path and the reason.
func (e *PathError) Error() string {
	return "sandbox: " + strconv.Quote(e.Path) + ": " + e.Reason
}

// Unwrap returns Kind and, when present, Err, so that [errors.Is] matches
// both the sentinel and the operating-system error.
func (e *PathError) Unwrap() []error {
	if e.Err != nil {
		return []error{e.Kind, e.Err}
	}
	return []error{e.Kind}
}

func pathErr(kind error, path, resolved, reason string, err error) *PathError {
	return &PathError{Path: path, Resolved: resolved, Reason: reason, Kind: kind, Err: err}
}

//go:build unix

package sandbox

import (
	"os"
	"syscall"
)

// openNoBlock opens p for reading without blocking: a FIFO or a device in
// the place of a file is not waited on (the caller checks the type of what
// it got).
func openNoBlock(p string) (*os.File, error) {
	return os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// openDirNoBlock opens the directory p; anything else fails at once.
func openDirNoBlock(p string) (*os.File, error) {
	return os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_DIRECTORY, 0)
}

// Flags of the open of a facts file: a link or a FIFO in its place is
// not followed or waited on.
const (
	oNoFollow = syscall.O_NOFOLLOW
	oNonBlock = syscall.O_NONBLOCK
)

// ownedByMe reports whether fi is owned by this process's effective user.
func ownedByMe(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}

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

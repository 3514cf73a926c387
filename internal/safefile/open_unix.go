//go:build unix

package safefile

import (
	"os"
	"syscall"
)

// openNonblock opens path for reading without waiting: opening a FIFO
// with O_NONBLOCK returns at once, and fstat then refuses it.
func openNonblock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
}

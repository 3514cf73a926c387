//go:build !unix

package sandbox

import "os"

// openNoBlock opens p for reading; see open_unix.go.
func openNoBlock(p string) (*os.File, error) { return os.Open(p) }

// openDirNoBlock opens the directory p; see open_unix.go.
func openDirNoBlock(p string) (*os.File, error) { return os.Open(p) }

// Flags of the open of a facts file; see open_unix.go.
const (
	oNoFollow = 0
	oNonBlock = 0
)

// ownedByMe reports false: without owners to check, a facts file is not
// trusted.
func ownedByMe(os.FileInfo) bool { return false }

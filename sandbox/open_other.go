//go:build !unix

package sandbox

import "os"

// openNoBlock opens p for reading; see open_unix.go.
func openNoBlock(p string) (*os.File, error) { return os.Open(p) }

// openDirNoBlock opens the directory p; see open_unix.go.
func openDirNoBlock(p string) (*os.File, error) { return os.Open(p) }

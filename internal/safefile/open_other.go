//go:build !unix

package safefile

import (
	"io/fs"
	"os"
)

// openNonblock opens path for reading; systems without FIFOs in the file
// system need no flag.
func openNonblock(path string) (*os.File, error) {
	return os.Open(path)
}

// openPrivate is never reached: privateDir refuses every directory.
func openPrivate(path string) (*os.File, error) { return nil, ErrNotPrivate }

// privateDir refuses: without owners and modes nothing shows that only
// this user could have written a file.
func privateDir(string) error { return ErrNotPrivate }

// privateFile refuses, as privateDir does.
func privateFile(fs.FileInfo) error { return ErrNotPrivate }

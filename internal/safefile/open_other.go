//go:build !unix

package safefile

import "os"

// openNonblock opens path for reading; systems without FIFOs in the file
// system need no flag.
func openNonblock(path string) (*os.File, error) {
	return os.Open(path)
}

// Package passwd reads the user database in the format of passwd(5), as
// os/user does without cgo: toolgate's packages look users up here, so
// that neither needs the C library nor asks NSS (which may reach the
// network).
package passwd

import (
	"bufio"
	"io"
	"strings"
)

// File is the user database.
const File = "/etc/passwd"

// maxBytes bounds the part of a database Find reads.
const maxBytes = 16 << 20

// Entry is one user of the database.
type Entry struct {
	Name, UID, Home string
}

// Find returns the first entry of the database r that match accepts; ok
// is false when none does. Lines of fewer than seven fields are skipped.
func Find(r io.Reader, match func(Entry) bool) (e Entry, ok bool) {
	sc := bufio.NewScanner(io.LimitReader(r, maxBytes))
	for sc.Scan() {
		// name:password:uid:gid:gecos:home:shell
		f := strings.Split(sc.Text(), ":")
		if len(f) < 7 {
			continue
		}
		if e := (Entry{Name: f[0], UID: f[2], Home: f[5]}); match(e) {
			return e, true
		}
	}
	return Entry{}, false
}

//go:build unix

package safefile

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// openNonblock opens path for reading without waiting: opening a FIFO
// with O_NONBLOCK returns at once, and fstat then refuses it.
func openNonblock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
}

// openPrivate opens path for reading without following a link at its
// end and without waiting on a FIFO.
func openPrivate(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_NOFOLLOW, 0)
}

// privateDir is nil when dir is a directory, not a link, of the effective
// user's that no one else can write.
func privateDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%w: %s is %s, not a directory", ErrNotPrivate, dir, kind(fi.Mode()))
	}
	return private(dir, fi)
}

// privateFile is nil when the open regular file fi has one link and is the
// effective user's, writable by no one else.
func privateFile(fi fs.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ErrNotPrivate
	}
	if st.Nlink != 1 {
		return fmt.Errorf("%w: it has %d links", ErrNotPrivate, st.Nlink)
	}
	return private("the file", fi)
}

// private is nil when fi is owned by the effective user and neither its
// group nor others may write it.
func private(what string, fi fs.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !ok:
		return ErrNotPrivate
	case int(st.Uid) != os.Geteuid():
		return fmt.Errorf("%w: %s belongs to user %d", ErrNotPrivate, what, st.Uid)
	case fi.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("%w: others may write %s (%v)", ErrNotPrivate, what, fi.Mode().Perm())
	}
	return nil
}

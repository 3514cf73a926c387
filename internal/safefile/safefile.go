// Package safefile reads configuration files that a less trusted party may
// have placed: only regular files, opened without blocking, read up to a
// bound. Its errors name the file and never quote its content.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrNotRegular is returned for a path that names a FIFO, a device, a
// socket or a directory (itself or through links).
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is returned for a file larger than the bound.
var ErrTooLarge = errors.New("file too large")

// ErrNotPrivate is returned by ReadPrivate for a file, or a directory
// holding it, that another user could have written or replaced.
var ErrNotPrivate = errors.New("not private to this user")

// Read returns the content of the regular file at path, at most max bytes.
// Links are followed, but what they lead to must be a regular file: the
// file is opened without blocking (a FIFO does not wait for a writer) and
// checked with fstat on the open descriptor, so that it cannot be swapped
// between the check and the read. A file longer than max, or one that
// grows past max while it is read (as /dev/zero or a /proc file would),
// is ErrTooLarge. A missing file is an error wrapping fs.ErrNotExist.
func Read(path string, max int64) ([]byte, error) {
	f, err := openNonblock(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%w (%s)", ErrNotRegular, kind(fi.Mode()))
	}
	return readBounded(f, fi, max)
}

// ReadPrivate returns the content of the file at path, at most max bytes,
// when only this process's user could have written it: a state file the
// process wrote itself and trusts on that ground. The directory that
// holds it must be a directory, not a link, owned by the effective user
// and writable by no one else; the file itself is opened without
// following a link and without blocking, and its open descriptor must
// be a regular file with one link (no second name elsewhere through which
// another party placed it), owned by the effective user and writable by
// no one else. A file that fails one of these is ErrNotPrivate (or
// ErrNotRegular, or an error wrapping syscall.ELOOP for a link); on a
// system without owners and modes every file is ErrNotPrivate.
func ReadPrivate(path string, max int64) ([]byte, error) {
	if err := privateDir(filepath.Dir(path)); err != nil {
		return nil, err
	}
	f, err := openPrivate(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%w (%s)", ErrNotRegular, kind(fi.Mode()))
	}
	if err := privateFile(fi); err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return readBounded(f, fi, max)
}

// readBounded reads the open regular file f, whose fstat is fi, up to max
// bytes, into a buffer of the size fi gives: grown from a small one, as
// io.ReadAll grows it, a file of megabytes costs twice its size in
// fresh pages, each one faulted in and cleared.
func readBounded(f *os.File, fi fs.FileInfo, max int64) ([]byte, error) {
	if fi.Size() > max {
		return nil, fmt.Errorf("%w: %d bytes, the limit is %d", ErrTooLarge, fi.Size(), max)
	}
	r := io.LimitReader(f, max+1)
	data := make([]byte, 0, fi.Size()+512)
	for {
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(data) == cap(data) {
			// The file grew since fi: read on, as ReadAll would.
			data = append(data, 0)[:len(data)]
		}
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, max)
	}
	return data, nil
}

func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a plain file"
}

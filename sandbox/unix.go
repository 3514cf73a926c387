//go:build unix

package sandbox

import (
	"syscall"
	"unsafe"
)

const supported = true

type statBuf = syscall.Stat_t

// readlink returns the target of the link at p.
func readlink(p []byte) (string, error) {
	s := unsafe.String(unsafe.SliceData(p), len(p))
	for size := 128; ; size *= 2 {
		b := make([]byte, size)
		n, err := syscall.Readlink(s, b)
		if err == syscall.EINTR {
			size /= 2
			continue
		}
		if err != nil {
			return "", err
		}
		if n < size || size > maxPath {
			return string(b[:n]), nil
		}
	}
}

func kindOf(mode uint32) fileKind {
	switch mode & syscall.S_IFMT {
	case syscall.S_IFDIR:
		return kindDir
	case syscall.S_IFLNK:
		return kindLink
	}
	return kindOther
}

func isNotExist(err error) bool    { return err == syscall.ENOENT }
func isNotDir(err error) bool      { return err == syscall.ENOTDIR }
func isNameTooLong(err error) bool { return err == syscall.ENAMETOOLONG }

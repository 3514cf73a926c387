//go:build linux && (amd64 || arm64)

package sandbox

import (
	"syscall"
	"unsafe"
)

// statRaw stats p with fstatat(2), copying p into a buffer of this frame
// when it fits, so that the stat calls of a check allocate nothing.
func statRaw(p string, follow bool, st *syscall.Stat_t) error {
	var buf [512]byte
	var b []byte
	if len(p) < len(buf) {
		b = append(buf[:0], p...)
		b = append(b, 0)
	} else {
		b = append([]byte(p), 0)
	}
	flags := uintptr(atSymlinkNofollow)
	if follow {
		flags = 0
	}
	for {
		_, _, e := syscall.Syscall6(sysFstatat, atFdcwd, uintptr(unsafe.Pointer(&b[0])),
			uintptr(unsafe.Pointer(st)), flags, 0, 0)
		switch e {
		case 0:
			return nil
		case syscall.EINTR:
			continue
		}
		return e
	}
}

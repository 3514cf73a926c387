//go:build linux && (amd64 || arm64)

package sandbox

import (
	"syscall"
	"unsafe"
)

const (
	atFdcwd           = ^uintptr(99) // AT_FDCWD, -100
	atSymlinkNofollow = 0x100        // AT_SYMLINK_NOFOLLOW
)

// lstatKind lstats the path held in p with fstatat(2) directly, writing
// the terminating NUL into p's spare capacity, so that a walk costs no
// allocation per component.
func lstatKind(p []byte, st *syscall.Stat_t) (fileKind, error) {
	p = append(p, 0)
	for {
		_, _, e := syscall.Syscall6(sysFstatat, atFdcwd, uintptr(unsafe.Pointer(&p[0])),
			uintptr(unsafe.Pointer(st)), atSymlinkNofollow, 0, 0)
		switch e {
		case 0:
			return kindOf(st.Mode), nil
		case syscall.EINTR:
			continue
		}
		return kindOther, e
	}
}

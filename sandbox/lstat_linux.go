//go:build linux && (amd64 || arm64)

package sandbox

import (
	"syscall"
	"unsafe"
)

const (
	fdCwd             = -100         // AT_FDCWD
	atFdcwd           = ^uintptr(99) // AT_FDCWD, -100
	atSymlinkNofollow = 0x100        // AT_SYMLINK_NOFOLLOW
)

// anchored reports that the walk may anchor lookups at directory handles
// (see walker.lstat).
const anchored = true

// lstatKind lstats the path held in p with fstatat(2) directly, writing
// the terminating NUL into p's spare capacity, so that a walk costs no
// allocation per component.
func lstatKind(p []byte, st *syscall.Stat_t) (fileKind, error) {
	return lstatAt(fdCwd, p, st)
}

// lstatAt is lstatKind for p relative to the directory handle dir (or
// absolute, or AT_FDCWD).
func lstatAt(dir int, p []byte, st *syscall.Stat_t) (fileKind, error) {
	p = append(p, 0)
	for {
		_, _, e := syscall.Syscall6(sysFstatat, uintptr(dir), uintptr(unsafe.Pointer(&p[0])),
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

// openDirAt opens the directory p (relative to dir) as an O_PATH handle,
// not following a final link.
func openDirAt(dir int, p []byte) (int, error) {
	p = append(p, 0)
	for {
		fd, _, e := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(dir), uintptr(unsafe.Pointer(&p[0])),
			oPath|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0, 0, 0)
		switch e {
		case 0:
			return int(fd), nil
		case syscall.EINTR:
			continue
		}
		return -1, e
	}
}

const oPath = 0x200000 // O_PATH

func closeFd(fd int) { _ = syscall.Close(fd) }

//go:build aix

package stattime

import "syscall"

// Times returns when st's file was last modified (mtime) and last changed,
// its content or its inode (ctime).
func Times(st *syscall.Stat_t) (mtime, ctime syscall.Timespec) {
	return syscall.Timespec{Sec: st.Mtim.Sec, Nsec: int64(st.Mtim.Nsec)},
		syscall.Timespec{Sec: st.Ctim.Sec, Nsec: int64(st.Ctim.Nsec)}
}

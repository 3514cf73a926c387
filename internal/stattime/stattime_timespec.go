//go:build darwin || freebsd || netbsd

package stattime

import "syscall"

// Times returns when st's file was last modified (mtime) and last changed,
// its content or its inode (ctime).
func Times(st *syscall.Stat_t) (mtime, ctime syscall.Timespec) { return st.Mtimespec, st.Ctimespec }

//go:build linux || openbsd || solaris || illumos

package sandbox

import "syscall"

func ctimeOf(st *syscall.Stat_t) int64 { return st.Ctim.Nano() }

//go:build unix && !(linux && (amd64 || arm64))

package sandbox

import "syscall"

// statRaw stats p, following a final link when follow is set.
func statRaw(p string, follow bool, st *syscall.Stat_t) error {
	for {
		var err error
		if follow {
			err = syscall.Stat(p, st)
		} else {
			err = syscall.Lstat(p, st)
		}
		if err != syscall.EINTR {
			return err
		}
	}
}

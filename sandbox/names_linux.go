//go:build linux

package sandbox

import (
	"golang.org/x/sys/unix"
)

// fsCasefold is FS_CASEFOLD_FL (linux/fs.h): the directory's names are
// looked up without regard to case.
const fsCasefold = 0x40000000

// exactNames reports whether the directory open as fd looks names up
// exactly as it lists them: a local file system that matches names byte
// for byte, whose lookups find no name its listings do not show, and no
// case-folding flag on the directory (ext4's, f2fs's and tmpfs's
// casefold). Anything else (a network or FUSE file system, vfat, a
// question the kernel does not answer) is false.
func exactNames(fd int) bool {
	var fs unix.Statfs_t
	if unix.Fstatfs(fd, &fs) != nil {
		return false
	}
	switch fs.Type {
	case unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC, unix.TMPFS_MAGIC,
		unix.F2FS_SUPER_MAGIC, unix.OVERLAYFS_SUPER_MAGIC: // ext2 and ext3 share ext4's magic
	default:
		return false
	}
	flags, err := unix.IoctlGetUint32(fd, unix.FS_IOC_GETFLAGS)
	return err == nil && flags&fsCasefold == 0
}

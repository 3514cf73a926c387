//go:build unix

package sandbox

import "syscall"

// fileStat is what the identity checks need to know about a file.
type fileStat struct {
	dev, ino uint64
	nlink    uint64
	mode     uint32 // the S_IFMT bits
	size     int64
	ctime    int64 // nanoseconds, or 0 where the platform does not say
}

func (f *fileStat) isDir() bool      { return f.mode == syscall.S_IFDIR }
func (f *fileStat) isRegular() bool  { return f.mode == syscall.S_IFREG }
func (f *fileStat) isFIFO() bool     { return f.mode == syscall.S_IFIFO }
func (f *fileStat) isSocket() bool   { return f.mode == syscall.S_IFSOCK }
func (f *fileStat) isCharDev() bool  { return f.mode == syscall.S_IFCHR }
func (f *fileStat) isBlockDev() bool { return f.mode == syscall.S_IFBLK }
func (f *fileStat) isLink() bool     { return f.mode == syscall.S_IFLNK }

// statPath stats p, following a final symbolic link when follow is set.
// It reports false, with no error, when p does not exist.
func statPath(p string, follow bool) (fileStat, bool, error) {
	var st syscall.Stat_t
	if err := statRaw(p, follow, &st); err != nil {
		if err == syscall.ENOENT || err == syscall.ENOTDIR {
			return fileStat{}, false, nil
		}
		return fileStat{}, false, err
	}
	return fileStatOf(&st), true, nil
}

// fileStatOf is what statPath keeps of st.
func fileStatOf(st *syscall.Stat_t) fileStat {
	return fileStat{
		dev: uint64(st.Dev), ino: uint64(st.Ino), nlink: uint64(st.Nlink),
		mode: uint32(st.Mode) & syscall.S_IFMT, size: int64(st.Size), ctime: ctimeOf(st),
	}
}

//go:build !unix

package sandbox

type fileStat struct {
	dev, ino, nlink uint64
	mode            uint32
	size, ctime     int64
}

func (f *fileStat) isDir() bool      { return false }
func (f *fileStat) isRegular() bool  { return false }
func (f *fileStat) isFIFO() bool     { return false }
func (f *fileStat) isSocket() bool   { return false }
func (f *fileStat) isCharDev() bool  { return false }
func (f *fileStat) isBlockDev() bool { return false }
func (f *fileStat) isLink() bool     { return false }

func statPath(p string, follow bool) (fileStat, bool, error) {
	return fileStat{}, false, errUnsupported
}

func fileStatOf(*statBuf) fileStat { return fileStat{} }

package bashguard

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
)

// The one decoder of git's index format, shared by the reader of the
// tracked paths (a small index, in memory) and the scan of the gitlinks
// (an index of any size git writes, streamed from the file): the entries
// are read one at a time through a bounded buffer, each to its name and
// mode, and the extensions after them up to the hash that ends the file,
// whose size the caller gives (a stream cannot tell where its last
// hashLen bytes start).

const (
	// maxIndexName bounds an entry's name: far above what any file
	// system lets a path relative to the top be (PATH_MAX is 4096 on
	// Linux, 1024 on macOS; 32767 UTF-16 units on Windows).
	maxIndexName = 64 << 10
	// indexBuffer is the size of the buffer the decoder reads through.
	indexBuffer = 64 << 10
)

// indexReader decodes an index entry by entry. Its memory is its buffer
// and the last name, however large the index.
type indexReader struct {
	lr      *io.LimitedReader
	br      *bufio.Reader
	size    int64 // the whole file's, with its hash
	hashLen int
	version uint32
	entries uint32
	name    []byte // the last entry's name, which the next one starts from (version 4)
	names   int64  // the bytes of the names decoded so far
	fixed   [40 + 32 + 4]byte
}

// newIndexReader reads the header of the index of size bytes rd holds,
// whose object names are hashLen bytes long.
func newIndexReader(rd io.Reader, size int64, hashLen int) (*indexReader, error) {
	lr := &io.LimitedReader{R: rd, N: size}
	x := &indexReader{lr: lr, br: bufio.NewReaderSize(lr, int(min(max(size, 16), indexBuffer))), size: size, hashLen: hashLen}
	var h [12]byte
	if _, err := io.ReadFull(x.br, h[:]); err != nil || string(h[:4]) != "DIRC" {
		return nil, errIndex
	}
	x.version = binary.BigEndian.Uint32(h[4:8])
	if x.version < 2 || x.version > 4 {
		return nil, errIndex
	}
	x.entries = binary.BigEndian.Uint32(h[8:12])
	return x, nil
}

// offset is how many bytes of the file the decoder has consumed.
func (x *indexReader) offset() int64 { return x.size - x.lr.N - int64(x.br.Buffered()) }

// next decodes the next entry and returns its name, valid until the next
// call, and its mode. The names decoded in all are bounded by
// maxIndexScanBytes, as the file is: a version 4 index, whose names are
// compressed, expands to no more than an uncompressed one at the bound.
func (x *indexReader) next() ([]byte, uint32, error) {
	fixed := 40 + x.hashLen + 2 // ctime, mtime, dev, ino, mode, uid, gid, size, hash, flags
	if _, err := io.ReadFull(x.br, x.fixed[:fixed]); err != nil {
		return nil, 0, errIndex
	}
	const modeAt = 24 // after ctime, mtime, dev and ino
	mode := binary.BigEndian.Uint32(x.fixed[modeAt:])
	if binary.BigEndian.Uint16(x.fixed[fixed-2:])&0x4000 != 0 { // extended: a second flags word
		if x.version < 3 {
			return nil, 0, errIndex
		}
		if _, err := io.ReadFull(x.br, x.fixed[fixed:fixed+2]); err != nil {
			return nil, 0, errIndex
		}
		fixed += 2
	}
	if x.version == 4 {
		// The name is the one before, less strip bytes at its end, and a
		// NUL-ended rest; no padding follows.
		strip, err := binary.ReadUvarint(x.br)
		if err != nil || strip > uint64(len(x.name)) {
			return nil, 0, errIndex
		}
		x.name = x.name[:len(x.name)-int(strip)]
	} else {
		x.name = x.name[:0]
	}
	if err := x.readName(); err != nil {
		return nil, 0, err
	}
	if x.version != 4 {
		// 1 to 8 NULs pad the entry to a multiple of 8 bytes; the name's
		// own NUL is read.
		pad := (fixed+len(x.name)+8)&^7 - fixed - len(x.name) - 1
		if _, err := x.br.Discard(pad); err != nil {
			return nil, 0, errIndex
		}
	}
	return x.name, mode, nil
}

// readName appends the NUL-ended bytes that come next to the name, and
// reads the NUL.
func (x *indexReader) readName() error {
	for {
		chunk, err := x.br.ReadSlice(0)
		x.name = append(x.name, chunk...)
		if len(x.name) > maxIndexName+1 || err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return errIndex
		}
		if err == nil {
			x.name = x.name[:len(x.name)-1]
			x.names += int64(len(x.name))
			if x.names > maxIndexScanBytes {
				return errIndex
			}
			return nil
		}
	}
}

// link reads the extensions after the entries, up to the hash that ends
// the file, and returns the hex name of the shared index a split index
// names in its "link" extension, or "".
func (x *indexReader) link() (string, error) {
	var h [8]byte
	for x.size-x.offset() >= int64(x.hashLen)+8 {
		if _, err := io.ReadFull(x.br, h[:]); err != nil {
			return "", errIndex
		}
		size := int64(binary.BigEndian.Uint32(h[4:]))
		if size > x.size-x.offset() {
			return "", errIndex
		}
		if string(h[:4]) == "link" {
			if size < int64(x.hashLen) {
				return "", errIndex
			}
			id := make([]byte, x.hashLen)
			if _, err := io.ReadFull(x.br, id); err != nil {
				return "", errIndex
			}
			return hex.EncodeToString(id), nil
		}
		if _, err := x.br.Discard(int(size)); err != nil {
			return "", errIndex
		}
	}
	return "", nil
}

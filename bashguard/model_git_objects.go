package bashguard

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// An object named by its id (git show 1a2b3c, git cat-file -p 1a2b3c)
// may be a commit, whose patch the tracked paths are judged for, or a
// blob, whose file no name tells. The guard reads the object's type as git
// does, from the repository's own object store: a loose object's header
// (objects/1a/2b3c..., zlib-compressed "blob 123\0"), or a packed one's
// entry header (the pack index gives its offset; a delta's type is its
// base's, followed within the bounds below). It never inflates more than a
// header, and gives up (the type is unknown, and the command asks) on
// anything it cannot read plainly.

// gitObjType is an object's type, as a pack entry numbers it.
type gitObjType uint8

const (
	objUnknown gitObjType = iota
	objCommit
	objTree
	objBlob
	objTag
)

// String returns "commit", "tree", "blob", "tag" or "unknown".
func (t gitObjType) String() string {
	return [...]string{"unknown", "commit", "tree", "blob", "tag"}[t]
}

const (
	maxPackIdx    = 64 << 20 // bytes of a pack index read
	maxDeltaChain = 64       // delta bases followed
)

// gitObjectType returns the type of the object whose id starts with the
// hex prefix id in the repository whose git directory is gitDir, and
// whether any object's id starts so; the type is unknown when none does,
// when more than one does, or when it cannot be read.
func gitObjectType(gitDir, id string) (gitObjType, bool) {
	id = strings.ToLower(id)
	if len(id) < 4 || len(id) > 64 || !isHexID(id) {
		return objUnknown, false
	}
	objects := filepath.Join(gitDir, "objects")
	found := objUnknown
	n := 0
	if t, k := looseObjectType(objects, id); k > 0 {
		found, n = t, k
	}
	packs, _ := filepath.Glob(filepath.Join(objects, "pack", "*.idx"))
	for _, idx := range packs {
		t, k := packObjectType(idx, id)
		if k > 0 {
			found, n = t, n+k
		}
	}
	if n != 1 {
		return objUnknown, n > 0 // absent, or ambiguous
	}
	return found, true
}

// looseObjectType returns the type of the loose object matching id and how
// many loose objects match it.
func looseObjectType(objects, id string) (gitObjType, int) {
	dir := filepath.Join(objects, id[:2])
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return objUnknown, 0
	}
	if err != nil {
		return objUnknown, 1 // cannot be listed: it may hold the object
	}
	var match string
	n := 0
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), id[2:]) && e.Type().IsRegular() {
			match, n = e.Name(), n+1
		}
	}
	if n != 1 {
		return objUnknown, n
	}
	f, err := os.OpenFile(filepath.Join(dir, match), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return objUnknown, 1
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return objUnknown, 1
	}
	z, err := zlib.NewReader(io.LimitReader(f, 4096))
	if err != nil {
		return objUnknown, 1
	}
	head := make([]byte, 32)
	k, _ := io.ReadFull(z, head)
	name, _, ok := bytes.Cut(head[:k], []byte(" "))
	if !ok {
		return objUnknown, 1
	}
	switch string(name) {
	case "commit":
		return objCommit, 1
	case "tree":
		return objTree, 1
	case "blob":
		return objBlob, 1
	case "tag":
		return objTag, 1
	}
	return objUnknown, 1
}

// packIndex is a version-2 pack index, read whole.
type packIndex struct {
	b      []byte
	n      int // objects
	hashSz int
}

func readPackIndex(path string) (*packIndex, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() > maxPackIdx {
		return nil, errors.New("not a pack index the guard reads")
	}
	b, err := io.ReadAll(io.LimitReader(f, maxPackIdx))
	if err != nil {
		return nil, err
	}
	if len(b) < 8+256*4 || !bytes.Equal(b[:4], []byte("\xfftOc")) || binary.BigEndian.Uint32(b[4:8]) != 2 {
		return nil, errors.New("not a version-2 pack index")
	}
	n := int(binary.BigEndian.Uint32(b[8+255*4:]))
	// 20-byte ids, unless the rest of the file fits 32-byte ones.
	for _, sz := range []int{20, 32} {
		need := 8 + 256*4 + n*(sz+4+4) + 2*sz
		if len(b) >= need && len(b) <= need+n*8 {
			return &packIndex{b: b, n: n, hashSz: sz}, nil
		}
	}
	return nil, errors.New("a pack index of an unknown size")
}

func (x *packIndex) id(i int) []byte {
	off := 8 + 256*4 + i*x.hashSz
	return x.b[off : off+x.hashSz]
}

// offset returns the pack offset of the object i.
func (x *packIndex) offset(i int) (int64, bool) {
	base := 8 + 256*4 + x.n*x.hashSz + x.n*4
	o := binary.BigEndian.Uint32(x.b[base+i*4:])
	if o&0x80000000 == 0 {
		return int64(o), true
	}
	big := base + x.n*4 + int(o&0x7fffffff)*8
	if big+8 > len(x.b) {
		return 0, false
	}
	return int64(binary.BigEndian.Uint64(x.b[big:])), true
}

// find returns the indexes of the objects whose hex id starts with id.
func (x *packIndex) find(id string) []int {
	lo, hi := 0, x.n
	for lo < hi {
		m := (lo + hi) / 2
		if hex.EncodeToString(x.id(m)) < id {
			lo = m + 1
		} else {
			hi = m
		}
	}
	var out []int
	for i := lo; i < x.n && len(out) < 2 && strings.HasPrefix(hex.EncodeToString(x.id(i)), id); i++ {
		out = append(out, i)
	}
	return out
}

// packObjectType returns the type of the object matching id in the pack
// of the index idx, and how many of its objects match.
func packObjectType(idx, id string) (gitObjType, int) {
	x, err := readPackIndex(idx)
	if err != nil {
		return objUnknown, 1 // cannot be read: the pack may hold the object
	}
	m := x.find(id)
	if len(m) != 1 {
		return objUnknown, len(m)
	}
	off, ok := x.offset(m[0])
	if !ok {
		return objUnknown, 1
	}
	f, err := os.OpenFile(strings.TrimSuffix(idx, ".idx")+".pack", os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return objUnknown, 1
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return objUnknown, 1
	}
	return packEntryType(f, x, off), 1
}

// packEntryType reads the type of the entry at off, following deltas to
// their base.
func packEntryType(f *os.File, x *packIndex, off int64) gitObjType {
	buf := make([]byte, 64)
	for range maxDeltaChain {
		k, err := f.ReadAt(buf, off)
		if k == 0 || err != nil && err != io.EOF {
			return objUnknown
		}
		b := buf[:k]
		t := (b[0] >> 4) & 7
		i := 1
		for c := b[0]; c&0x80 != 0; i++ { // the size's continuation bytes
			if i >= len(b) {
				return objUnknown
			}
			c = b[i]
		}
		var ok bool
		switch t {
		case 1, 2, 3, 4:
			return gitObjType(t)
		case 6: // OFS_DELTA: the base lies a distance back
			off, ok = ofsDeltaBase(b[i:], off)
		case 7: // REF_DELTA: the base by its id, in this pack
			off, ok = x.refDeltaBase(b[i:])
		}
		if !ok {
			return objUnknown
		}
	}
	return objUnknown
}

// ofsDeltaBase returns the offset of the base of the OFS_DELTA entry at
// off, whose header after the size is b: a distance back, in git's
// offset encoding (each continuation adds one before shifting).
func ofsDeltaBase(b []byte, off int64) (int64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	c := b[0]
	dist := int64(c & 127)
	for i := 1; c&0x80 != 0; i++ {
		if i >= len(b) {
			return 0, false
		}
		c = b[i]
		dist = (dist+1)<<7 | int64(c&127)
	}
	if dist <= 0 || dist > off {
		return 0, false
	}
	return off - dist, true
}

// refDeltaBase returns the offset of the base of a REF_DELTA entry,
// whose header after the size is b: the base's id, which must be in this
// pack.
func (x *packIndex) refDeltaBase(b []byte) (int64, bool) {
	if x.hashSz > len(b) {
		return 0, false
	}
	m := x.find(hex.EncodeToString(b[:x.hashSz]))
	if len(m) != 1 {
		return 0, false
	}
	return x.offset(m[0])
}

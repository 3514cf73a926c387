package bashguard

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
)

// git ls-files and git grep read the files git tracks: the entries of the
// repository's index (.git/index), not every file of the work tree. An
// untracked .env is never printed by git ls-files nor searched by git
// grep, so their readers are judged on the tracked entries only.
//
// The index is read as git's index-format documentation describes it:
// "DIRC", versions 2, 3 and 4 (4 compresses each name against the one
// before), SHA-1 or SHA-256 object names (extensions.objectFormat). An
// index git splits (the "link" extension: the other entries live in a
// shared index) is not read, nor one over maxIndexBytes or with more than
// maxWalkEntries entries; nor one that does not parse. Then the readers
// are judged on the whole work tree, as for any other lister. A sparse
// index's directory entry (a name ending in "/") stands for every path
// below it.

// maxIndexBytes bounds the index the guard reads.
const maxIndexBytes = 16 << 20

// gitIndex is the sorted list of the paths an index tracks, relative to
// the top of the work tree.
type gitIndex struct {
	paths []string
}

// tracked reports whether git tracks the path rel (relative to the top):
// an entry, or below a sparse directory entry.
func (x *gitIndex) tracked(rel string) bool {
	i := sort.SearchStrings(x.paths, rel)
	if i < len(x.paths) && x.paths[i] == rel {
		return true
	}
	return x.sparseAbove(rel)
}

// holds reports whether some tracked path lies below the directory rel.
func (x *gitIndex) holds(rel string) bool {
	if rel == "" || rel == "." {
		return len(x.paths) > 0
	}
	pre := rel + "/"
	i := sort.SearchStrings(x.paths, pre)
	return i < len(x.paths) && strings.HasPrefix(x.paths[i], pre) || x.sparseAbove(rel)
}

// sparseAbove reports a sparse directory entry ("dir/") at or above rel.
func (x *gitIndex) sparseAbove(rel string) bool {
	for d := rel; d != "." && d != "/" && d != ""; d = filepath.Dir(d) {
		i := sort.SearchStrings(x.paths, d+"/")
		if i < len(x.paths) && x.paths[i] == d+"/" {
			return true
		}
	}
	return false
}

// readGitIndex reads the index of the work tree whose top is top (the
// directory gitTop found, holding .git), or fails.
func readGitIndex(top string) (*gitIndex, error) { return readGitIndexRec(top, nil) }

// readGitIndexRec is readGitIndex that stamps every file it reads.
func readGitIndexRec(top string, r *stampRec) (*gitIndex, error) {
	b, hashLen, _, err := readIndexFile(top, r)
	if err != nil || b == nil {
		return &gitIndex{}, err
	}
	return parseGitIndex(b, hashLen)
}

// readIndexFile reads the index file of the work tree whose top is top,
// the length of its object names and the git directory that holds it; nil
// for a repository that has none yet.
func readIndexFile(top string, r *stampRec) ([]byte, int, string, error) {
	dotGit := filepath.Join(top, ".git")
	r.add(dotGit, false, false)
	if _, err := os.Lstat(dotGit); err != nil {
		return nil, 0, "", err
	}
	// A linked work tree's or a submodule's ".git" names the git
	// directory, whose index is the work tree's own; the object format is
	// the repository's, which the common directory's config sets.
	gitDir, common, why := gitDirsRec(top, r)
	if why != "" {
		return nil, 0, "", errors.New(".git is neither a directory nor a gitdir file")
	}
	hashLen := 20
	if cfg, err := r.readAtMost(filepath.Join(common, "config"), 1<<20); err == nil && sha256Repo(cfg) {
		hashLen = 32
	}
	b, err := r.readAtMost(filepath.Join(gitDir, "index"), maxIndexBytes)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, hashLen, gitDir, nil // a fresh repository tracks nothing
		}
		return nil, 0, "", err
	}
	return b, hashLen, gitDir, nil
}

// sha256Repo reports a config that sets extensions.objectFormat to
// sha256 (a loose reading: any such line counts).
func sha256Repo(cfg []byte) bool {
	for line := range strings.SplitSeq(strings.ToLower(string(cfg)), "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if ok && strings.TrimSpace(k) == "objectformat" && strings.TrimSpace(v) == "sha256" {
			return true
		}
	}
	return false
}

// readAtMost reads the regular file p, failing when it holds more than n
// bytes or is anything else: a FIFO planted where a repository keeps a
// file (packed-refs, a ref) is opened without waiting, and not read.
func readAtMost(p string, n int64) ([]byte, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, errors.New(p + " is not a regular file")
	}
	b, err := io.ReadAll(io.LimitReader(f, n+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > n {
		return nil, errors.New(p + " is larger than " + strconv.FormatInt(n, 10) + " bytes")
	}
	return b, nil
}

var errIndex = errors.New("the git index cannot be read")

// parseGitIndex reads the entries of an index whose object names are
// hashLen bytes long.
func parseGitIndex(b []byte, hashLen int) (*gitIndex, error) {
	if len(b) < 12 || string(b[:4]) != "DIRC" {
		return nil, errIndex
	}
	version := binary.BigEndian.Uint32(b[4:8])
	if version < 2 || version > 4 {
		return nil, errIndex
	}
	n := binary.BigEndian.Uint32(b[8:12])
	if n > maxWalkEntries {
		return nil, errors.New("the git index tracks more than the bound of recursive reads")
	}
	x := &gitIndex{paths: make([]string, 0, n)}
	off := 12
	prev := ""
	for range n {
		name, next, ok := indexEntry(b, off, hashLen, version, prev)
		if !ok || !cleanIndexName(name) {
			// git itself never writes an unclean name; a planted index
			// that does could print a path the walk would not find.
			return nil, errIndex
		}
		x.paths = append(x.paths, name)
		prev, off = name, next
	}
	if err := indexExtensions(b, off, hashLen); err != nil {
		return nil, err
	}
	sort.Strings(x.paths)
	return x, nil
}

// indexGitlinks returns the names of the index's gitlink entries (mode
// 160000: a submodule's commit), whatever the number of its entries: the
// whole file is bounded by maxIndexBytes, and each entry is read only to
// its name. For a split index it also returns the hex name of the shared
// index that holds its other entries.
func indexGitlinks(b []byte, hashLen int) (links []string, shared string, err error) {
	if len(b) < 12 || string(b[:4]) != "DIRC" {
		return nil, "", errIndex
	}
	version := binary.BigEndian.Uint32(b[4:8])
	if version < 2 || version > 4 {
		return nil, "", errIndex
	}
	n := binary.BigEndian.Uint32(b[8:12])
	off := 12
	prev := ""
	for range n {
		const modeAt = 24 // after ctime, mtime, dev and ino
		if off+modeAt+4 > len(b) {
			return nil, "", errIndex
		}
		mode := binary.BigEndian.Uint32(b[off+modeAt:])
		name, next, ok := indexEntry(b, off, hashLen, version, prev)
		gitlink := mode&0o170000 == 0o160000
		switch {
		case !ok:
			return nil, "", errIndex
		case name == "" && !gitlink:
			// A split index's entry that replaces one of the shared
			// index, whose name it takes.
		case !cleanIndexName(name):
			return nil, "", errIndex
		case gitlink:
			links = append(links, name)
		}
		prev, off = name, next
	}
	shared, err = indexShared(b, off, hashLen)
	return links, shared, err
}

// indexShared reads the extensions after the entries, from off, and
// returns the hex name of the shared index a split index names in its
// "link" extension, or "".
func indexShared(b []byte, off, hashLen int) (string, error) {
	for off+8 <= len(b)-hashLen {
		sig := string(b[off : off+4])
		size := int(binary.BigEndian.Uint32(b[off+4:]))
		if size < 0 || off+8+size > len(b) {
			return "", errIndex
		}
		if sig == "link" {
			if size < hashLen {
				return "", errIndex
			}
			return hex.EncodeToString(b[off+8 : off+8+hashLen]), nil
		}
		off += 8 + size
	}
	return "", nil
}

// indexEntry reads the entry at off of an index of the version, after
// the entry whose name is prev, and returns its name and where the next
// entry starts.
func indexEntry(b []byte, off, hashLen int, version uint32, prev string) (string, int, bool) {
	start := off
	const fixed = 40 // ctime, mtime, dev, ino, mode, uid, gid, size
	if off+fixed+hashLen+2 > len(b) {
		return "", 0, false
	}
	off += fixed + hashLen
	flags := binary.BigEndian.Uint16(b[off:])
	off += 2
	if flags&0x4000 != 0 { // extended: a second flags word
		if version < 3 || off+2 > len(b) {
			return "", 0, false
		}
		off += 2
	}
	if version == 4 {
		// The name is what it shares with prev, less strip bytes, and a
		// NUL-ended rest.
		strip, k := binary.Uvarint(b[off:])
		if k <= 0 || strip > uint64(len(prev)) {
			return "", 0, false
		}
		off += k
		end := bytes.IndexByte(b[off:], 0)
		if end < 0 {
			return "", 0, false
		}
		return prev[:len(prev)-int(strip)] + string(b[off:off+end]), off + end + 1, true
	}
	end := bytes.IndexByte(b[off:], 0)
	if end < 0 {
		return "", 0, false
	}
	name := string(b[off : off+end])
	// 1 to 8 NULs pad the entry to a multiple of 8 bytes.
	off = start + (off-start+end+8)&^7
	return name, off, off <= len(b)
}

// indexExtensions reads the extensions after the entries, from off: each
// a four-byte signature and a length; the hash of the whole file ends
// them. A split index, whose other entries are elsewhere, is refused.
func indexExtensions(b []byte, off, hashLen int) error {
	for off+8 <= len(b)-hashLen {
		sig := string(b[off : off+4])
		size := int(binary.BigEndian.Uint32(b[off+4:]))
		if sig == "link" {
			return errors.New("the git index is split; its other entries are in a shared index")
		}
		if size < 0 || off+8+size > len(b) {
			return errIndex
		}
		off += 8 + size
	}
	return nil
}

// indexScope prunes a walk to what an index tracks.
type indexScope struct {
	x    *gitIndex
	root string // the walk's root relative to the top; "" for the top
}

// newIndexScope is the scope of a walk from the directory dir in the
// work tree whose top is top (both with their links resolved, as gitTop
// gives it), or nil when dir is not inside it: such a walk is not pruned.
func newIndexScope(x *gitIndex, top, dir string) *indexScope {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil
	}
	rel, err := filepath.Rel(top, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return nil
	}
	if rel == "." {
		rel = ""
	}
	return &indexScope{x: x, root: rel}
}

// keeps reports whether git reads or prints the entry rel below the
// walk's root: a tracked path (whatever it is in the work tree today: a
// tracked link may lead to a directory), or a directory (dir) that holds
// one.
func (s *indexScope) keeps(rel string, dir bool) bool {
	if s.root != "" {
		rel = s.root + "/" + rel
	}
	return s.x.tracked(rel) || dir && s.x.holds(rel)
}

// trackedScope returns the index of the repository git finds from the
// working directory, with its top, read once per Judge call and kept on
// the Guard while its files do not change; nil when there is none or it
// cannot be read.
func (m *cmdCall) trackedScope() (*gitIndex, string) {
	if !m.indexRead {
		m.indexRead = true
		m.index, m.indexTop = nil, ""
		if m.dir != "" && filepath.IsAbs(m.dir) {
			if top, why := m.repoTop(); top != "" && why == "" {
				if x := m.ws.index(top); x != nil {
					m.index, m.indexTop = x, top
				}
			}
		}
	}
	return m.index, m.indexTop
}

// index is the index of the work tree whose top is top, or nil when it
// cannot be read, kept on the cache.
func (c *wsCache) index(top string) *gitIndex {
	return c.get(factKey{kind: "index", a: top}, func(r *stampRec) any {
		x, err := readGitIndexRec(top, r)
		if err != nil {
			return (*gitIndex)(nil)
		}
		return x
	}).(*gitIndex)
}

// cleanIndexName reports an index entry's name as git writes one: a
// relative path of non-empty components, none of them ".", ".." or
// ".git" in any case, with a final "/" only for a sparse directory.
func cleanIndexName(name string) bool {
	name = strings.TrimSuffix(name, "/")
	if name == "" {
		return false
	}
	for c := range strings.SplitSeq(name, "/") {
		if c == "" || c == "." || c == ".." || strings.EqualFold(c, ".git") {
			return false
		}
	}
	return true
}

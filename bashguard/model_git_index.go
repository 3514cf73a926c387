package bashguard

import (
	"bytes"
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
// below it. The gitlinks alone (for git status's submodules) are scanned
// from an index of any size up to maxIndexScanBytes, split or not,
// streamed (model_git_index_reader.go). The content printers (git diff,
// git log -p) judge every tracked path of an index of up to maxKeptPaths
// entries, streamed too, once, where the path judge's answers may be
// kept (model_git_kept.go); else within the bound above.

const (
	// maxIndexBytes bounds the index whose tracked paths the guard reads
	// (in memory, as a sorted list).
	maxIndexBytes = 16 << 20
	// maxIndexScanBytes bounds the index whose gitlinks the guard scans
	// (streamed through a bounded buffer): git refuses no index size,
	// but the scan's cost must stay bounded. Half a GiB is about ten
	// times the index of a repository of Chromium's size (400,000
	// files), and is scanned in under a second from the page cache
	// (BenchmarkScanGitlinks), in 64 KiB of memory.
	maxIndexScanBytes = 512 << 20
)

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
	p, hashLen, gitDir, err := indexFile(top, r)
	if err != nil {
		return nil, 0, "", err
	}
	b, err := r.readAtMost(p, maxIndexBytes)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, hashLen, gitDir, nil // a fresh repository tracks nothing
		}
		return nil, 0, "", err
	}
	return b, hashLen, gitDir, nil
}

// indexFile returns the path of the index file of the work tree whose
// top is top, the length of its object names and the git directory that
// holds it.
func indexFile(top string, r *stampRec) (string, int, string, error) {
	dotGit := filepath.Join(top, ".git")
	r.add(dotGit, false, false)
	if _, err := os.Lstat(dotGit); err != nil {
		return "", 0, "", err
	}
	// A linked work tree's or a submodule's ".git" names the git
	// directory, whose index is the work tree's own; the object format is
	// the repository's, which the common directory's config sets.
	gitDir, common, why := gitDirsRec(top, r)
	if why != "" {
		return "", 0, "", errors.New(".git is neither a directory nor a gitdir file")
	}
	hashLen := 20
	if cfg, err := r.readAtMost(filepath.Join(common, "config"), 1<<20); err == nil && sha256Repo(cfg) {
		hashLen = 32
	}
	return filepath.Join(gitDir, "index"), hashLen, gitDir, nil
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
// bytes or is anything else.
func readAtMost(p string, n int64) ([]byte, error) {
	f, _, err := openRegular(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, n+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > n {
		return nil, errLarger(p, n)
	}
	return b, nil
}

// openRegular opens the regular file p for reading and returns its size,
// failing when it is anything else: a FIFO planted where a repository
// keeps a file (packed-refs, a ref, the index) is opened without waiting,
// and not read.
func openRegular(p string) (*os.File, int64, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, 0, err
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, 0, errors.New(p + " is not a regular file")
	}
	return f, fi.Size(), nil
}

// errLarger says that the file p holds more than n bytes.
func errLarger(p string, n int64) error {
	return errors.New(p + " is larger than " + strconv.FormatInt(n, 10) + " bytes")
}

var errIndex = errors.New("the git index cannot be read")

// errIndexTooMany refuses an index of more entries than the guard judges
// for one command (maxWalkEntries).
var errIndexTooMany = errors.New("the index tracks more than " + strconv.Itoa(maxWalkEntries) + " files, more than the guard judges for one command")

// parseGitIndex reads the entries of an index whose object names are
// hashLen bytes long.
func parseGitIndex(b []byte, hashLen int) (*gitIndex, error) {
	ir, err := newIndexReader(bytes.NewReader(b), int64(len(b)), hashLen)
	if err != nil {
		return nil, err
	}
	if ir.entries > maxWalkEntries {
		return nil, errIndexTooMany
	}
	x := &gitIndex{paths: make([]string, 0, ir.entries)}
	for range ir.entries {
		name, _, err := ir.next()
		if err != nil || !cleanIndexName(name) {
			// git itself never writes an unclean name; a planted index
			// that does could print a path the walk would not find.
			return nil, errIndex
		}
		x.paths = append(x.paths, string(name))
	}
	switch shared, err := ir.link(); {
	case err != nil:
		return nil, err
	case shared != "":
		return nil, errors.New("the git index is split; its other entries are in a shared index")
	}
	sort.Strings(x.paths)
	return x, nil
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
// cannot be read (m.indexWhy then says why, for a repository).
func (m *cmdCall) trackedScope() (*gitIndex, string) {
	if !m.indexRead {
		m.indexRead = true
		m.index, m.indexTop, m.indexWhy = nil, "", ""
		if m.dir != "" && filepath.IsAbs(m.dir) {
			if top, why := m.repoTop(); top != "" && why == "" {
				f := m.ws.index(top)
				if f.x != nil {
					m.index, m.indexTop = f.x, top
				}
				m.indexWhy = f.why
			}
		}
	}
	return m.index, m.indexTop
}

// indexFact is the index of a work tree, or why it cannot be read.
type indexFact struct {
	x   *gitIndex
	why string
}

// index is the index of the work tree whose top is top, or why it
// cannot be read, kept on the cache.
func (c *wsCache) index(top string) indexFact {
	return c.get(factKey{kind: "index", a: top}, func(r *stampRec) any {
		x, err := readGitIndexRec(top, r)
		switch {
		case errors.Is(err, errIndexTooMany):
			return indexFact{why: err.Error()}
		case err != nil:
			return indexFact{why: "the repository's index, which says which files those are, cannot be read here"}
		}
		return indexFact{x: x}
	}).(indexFact)
}

// cleanIndexName reports an index entry's name as git writes one: a
// relative path of non-empty components, none of them ".", ".." or
// ".git" in any case, with a final "/" only for a sparse directory.
func cleanIndexName[T string | []byte](name T) bool {
	n := len(name)
	if n > 0 && name[n-1] == '/' {
		n--
	}
	if n == 0 {
		return false
	}
	from := 0
	for i := 0; i <= n; i++ {
		if i < n && name[i] != '/' {
			continue
		}
		if !cleanComponent(name[from:i]) {
			return false
		}
		from = i + 1
	}
	return true
}

// cleanComponent reports a component of a name neither empty nor ".",
// ".." or ".git" in any case.
func cleanComponent[T string | []byte](c T) bool {
	switch len(c) {
	case 0:
		return false
	case 1:
		return c[0] != '.'
	case 2:
		return c[0] != '.' || c[1] != '.'
	case 4:
		return c[0] != '.' || c[1]|0x20 != 'g' || c[2]|0x20 != 'i' || c[3]|0x20 != 't'
	}
	return true
}

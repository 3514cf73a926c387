package bashguard

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// What git log -p, git show REV, git diff REV and git archive REV print is
// the content of the files of history, not only of those the index tracks
// today: a .env committed once and taken out of the index since (git rm
// --cached .env) is still printed by every one of them. The guard reads
// the paths history holds from the repository's own object store, as git
// keeps it, without running git (a repository's config can make git run
// programs): every path of every tree of every commit that a ref, HEAD,
// a reflog entry or the stash reaches, and of the trees and commits an
// annotated tag names.
//
// The objects are read as git's documentation of its formats describes
// them: loose objects (objects/ab/cdef..., zlib-compressed "type size\0"
// and the content), and packs (objects/pack/*.idx, version 2, and the
// .pack beside it, whose entries are whole objects or deltas against a
// base at an earlier offset, OFS_DELTA, or named by its id, REF_DELTA).
// Only commits, trees and tags are inflated; blobs never are. Each tree is
// read once for each directory it stands at. The reading is bounded
// (histBudget): over the budget, or on anything it does not read plainly
// (a SHA-256 repository, a reftable, alternates, grafts, a promisor remote
// that fetches what is missing, an object that cannot be found), the
// history is unknown and the commands that print it ask.

// histBudget bounds one reading of a repository's history.
type histBudget struct {
	objects int   // commits, trees and tags inflated (a delta's bases count)
	bytes   int64 // bytes read: inflated objects, pack indexes, refs and reflogs
	paths   int   // distinct paths
}

// defaultHistBudget is the budget a Guard reads a history with.
// Its paths are those of a kept judgement (maxKeptPaths); a judge whose
// answers are not kept judges at most maxHistJudged for one command.
var defaultHistBudget = histBudget{objects: 100_000, bytes: 128 << 20, paths: maxKeptPaths}

// gitHistory is the sorted list of the paths a repository's history holds
// (relative to the top of its work tree), or why it is not known.
type gitHistory struct {
	paths   []string
	commits []string // the hex ids of the commits read, sorted
	why     string   // not "" when the history is unknown
}

// reaches reports whether a commit of the history has an id starting
// with the hex prefix id.
func (h *gitHistory) reaches(id string) bool {
	i, _ := slices.BinarySearch(h.commits, id)
	return i < len(h.commits) && strings.HasPrefix(h.commits[i], id)
}

// errHistBudget is the reading over its budget.
var errHistBudget = errors.New("the history is larger than the guard reads for one command")

// histReader reads the objects of one repository.
type histReader struct {
	objects string // the objects directory
	r       *stampRec
	budget  histBudget
	used    histBudget
	packs   []*histPack
	shallow map[string]bool // commits whose parents are not in the repository
	paths   map[string]struct{}
	commits []string
	seen    map[string]bool // commits and tags visited, by raw id
	trees   map[string]bool // (raw tree id, directory) pairs visited
	br      *bufio.Reader   // reused for each object's stream
	z       io.ReadCloser   // reused: a zlib reader's state is large
}

// inflate returns the zlib stream at the start of src, reusing the
// reader's buffers (one object is inflated at a time).
func (h *histReader) inflate(src io.Reader) (io.Reader, error) {
	if h.br == nil {
		h.br = bufio.NewReader(src)
	} else {
		h.br.Reset(src)
	}
	if h.z == nil {
		z, err := zlib.NewReader(h.br)
		if err != nil {
			return nil, err
		}
		h.z = z
		return z, nil
	}
	return h.z, h.z.(zlib.Resetter).Reset(h.br, nil)
}

// histPack is a pack: its index, read whole, and its pack file, opened.
type histPack struct {
	x     *packIndex
	f     *os.File
	ra    io.ReaderAt // the pack read whole when small, else f
	size  int64
	cache map[int64][]byte // inflated delta bases by offset
	held  int64            // bytes in cache
}

const (
	maxHistCache     = 16 << 20 // bytes of delta bases kept per pack
	maxHistPacksHeld = 64 << 20 // bytes of packs read whole, for all of them
	maxHistDirs      = 4096     // directories of refs and reflogs listed
)

// readGitHistory reads the paths of the history of the repository whose
// top is top, stamping what the fact depends on.
func readGitHistory(top string, r *stampRec, b histBudget) *gitHistory {
	gitDir, why := gitCommonDirRec(top, r)
	if why != "" {
		return &gitHistory{why: "the repository " + why}
	}
	h := &histReader{
		objects: filepath.Join(gitDir, "objects"), r: r, budget: b,
		shallow: map[string]bool{}, paths: map[string]struct{}{}, seen: map[string]bool{}, trees: map[string]bool{},
	}
	defer h.close()
	if err := h.read(gitDir, top); err != nil {
		return &gitHistory{why: err.Error()}
	}
	out := make([]string, 0, len(h.paths))
	for p := range h.paths {
		out = append(out, p)
	}
	slices.Sort(out)
	slices.Sort(h.commits)
	return &gitHistory{paths: out, commits: h.commits}
}

func (h *histReader) close() {
	for _, p := range h.packs {
		p.f.Close()
	}
}

// read reads the whole history of the repository whose common git
// directory is gitDir.
func (h *histReader) read(gitDir, top string) error {
	if cfg, err := h.r.readAtMost(filepath.Join(gitDir, "config"), 1<<20); err == nil {
		if sha256Repo(cfg) {
			return errors.New("the repository names its objects by SHA-256, which the guard does not read")
		}
		if why := histConfig(cfg); why != "" {
			return errors.New(why)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return errors.New("the repository's config cannot be read")
	}
	for _, p := range []string{"reftable", "objects/info/alternates", "info/grafts", "objects/info/http-alternates"} {
		h.r.add(filepath.Join(gitDir, p), false, false)
		if _, err := os.Lstat(filepath.Join(gitDir, p)); err == nil {
			return errors.New("the repository has " + p + ", which the guard does not read")
		}
	}
	if b, err := h.r.readAtMost(filepath.Join(gitDir, "shallow"), 16<<20); err == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			if id, err := hex.DecodeString(strings.TrimSpace(line)); err == nil && len(id) == 20 {
				h.shallow[string(id)] = true
			}
		}
	}
	if err := h.openPacks(); err != nil {
		return err
	}
	roots, err := h.roots(gitDir, top)
	if err != nil {
		return err
	}
	for _, id := range roots {
		if err := h.visit(id); err != nil {
			return err
		}
	}
	return nil
}

// histConfig explains a config under which git reads objects the object
// store does not hold (a promisor remote fetches them), or returns "".
func histConfig(cfg []byte) string {
	for line := range strings.SplitSeq(strings.ToLower(string(cfg)), "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch {
		case !ok:
		case k == "partialclone", k == "promisor" && v != "false":
			return "the repository is a partial clone, whose missing objects git fetches"
		case k == "refstorage" && v != "files":
			return "the repository keeps its refs as " + v + ", which the guard does not read"
		}
	}
	return ""
}

// spend counts n bytes read against the budget.
func (h *histReader) spend(n int64) error {
	h.used.bytes += n
	if h.used.bytes > h.budget.bytes {
		return errHistBudget
	}
	return nil
}

// openPacks reads the index of every pack.
func (h *histReader) openPacks() error {
	dir := filepath.Join(h.objects, "pack")
	h.r.add(dir, true, false)
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return errors.New("the repository's packs cannot be listed")
	}
	var held int64
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, ".idx") {
			continue
		}
		idx := filepath.Join(dir, name)
		x, err := readPackIndex(idx)
		if err != nil {
			return errors.New("the pack index " + name + " cannot be read")
		}
		if x.hashSz != 20 {
			return errors.New("the pack index " + name + " does not name objects by SHA-1")
		}
		if err := h.spend(int64(len(x.b))); err != nil {
			return err
		}
		f, err := os.OpenFile(strings.TrimSuffix(idx, ".idx")+".pack", os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			return errors.New("the pack of " + name + " cannot be opened")
		}
		fi, err := f.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			f.Close()
			return errors.New("the pack of " + name + " is not a regular file")
		}
		p := &histPack{x: x, f: f, ra: f, size: fi.Size(), cache: map[int64][]byte{}}
		if held+p.size <= maxHistPacksHeld {
			// One read instead of two a packed object.
			b := make([]byte, p.size)
			if _, err := io.ReadFull(f, b); err != nil {
				f.Close()
				return errors.New("the pack of " + name + " cannot be read")
			}
			p.ra, held = bytes.NewReader(b), held+p.size
		}
		h.packs = append(h.packs, p)
	}
	return nil
}

// roots returns the ids every ref, HEAD (of each work tree), packed ref
// and reflog entry names.
func (h *histReader) roots(gitDir, top string) ([][]byte, error) {
	var ids [][]byte
	add := func(s string) {
		if id, err := hex.DecodeString(s); err == nil && len(id) == 20 && !bytes.Equal(id, make([]byte, 20)) {
			ids = append(ids, id)
		}
	}
	dirs := 0
	for _, d := range h.headDirs(gitDir) {
		for _, f := range []string{"HEAD", "ORIG_HEAD", "FETCH_HEAD", "MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD"} {
			if err := h.refFile(filepath.Join(d, f), false, add); err != nil {
				return nil, err
			}
		}
		if err := h.refDir(filepath.Join(d, "logs"), true, &dirs, add); err != nil {
			return nil, err
		}
		if d != gitDir {
			if err := h.refDir(filepath.Join(d, "refs"), false, &dirs, add); err != nil {
				return nil, err
			}
		}
	}
	if err := h.refDir(filepath.Join(gitDir, "refs"), false, &dirs, add); err != nil {
		return nil, err
	}
	// packed-refs: "ID NAME" lines, "^ID" for the commit a tag peels to.
	if err := h.refFile(filepath.Join(gitDir, "packed-refs"), false, add); err != nil {
		return nil, err
	}
	return ids, nil
}

// headDirs returns gitDir and the directory of each linked work tree
// under gitDir/worktrees: the places a HEAD, its reflogs and the work
// tree's own refs live.
func (h *histReader) headDirs(gitDir string) []string {
	heads := []string{gitDir}
	wts := filepath.Join(gitDir, "worktrees")
	h.r.add(wts, false, false)
	ents, err := os.ReadDir(wts)
	if err != nil {
		return heads
	}
	for _, e := range ents {
		if e.IsDir() {
			heads = append(heads, filepath.Join(wts, e.Name()))
		}
	}
	return heads
}

// refDir reads the ref files under dir, recursively, giving each id they
// name to add; dirs counts the directories listed, within maxHistDirs.
// The files of refs/ and logs/ hold an id (or "ref: NAME", whose target
// is a ref read too); the reflogs (log), one entry a line: the old id,
// the new id, who and why.
func (h *histReader) refDir(dir string, log bool, dirs *int, add func(string)) error {
	if *dirs++; *dirs > maxHistDirs {
		return errHistBudget
	}
	h.r.add(dir, false, false)
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return errors.New("the refs in " + dir + " cannot be listed")
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		switch {
		case e.IsDir():
			if err := h.refDir(p, log, dirs, add); err != nil {
				return err
			}
		case e.Type().IsRegular():
			if err := h.refFile(p, log, add); err != nil {
				return err
			}
		}
	}
	return nil
}

// refFile reads the ids the ref, packed-refs, FETCH_HEAD or reflog file p
// names, giving each to add.
func (h *histReader) refFile(p string, log bool, add func(string)) error {
	b, err := h.r.readAtMost(p, h.budget.bytes-h.used.bytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return errors.New("the ref " + p + " cannot be read")
	}
	if err := h.spend(int64(len(b))); err != nil {
		return err
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		line = strings.TrimPrefix(line, "^")
		if log {
			if f := strings.Fields(line); len(f) >= 2 {
				add(f[0])
				add(f[1])
			}
			continue
		}
		if len(line) >= 40 {
			add(line[:40])
		}
	}
	return nil
}

// visit walks the history from the object id: a commit's tree and
// parents, a tag's target, a tree's paths.
func (h *histReader) visit(root []byte) error {
	stack := [][]byte{root}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if h.seen[string(id)] {
			continue
		}
		h.seen[string(id)] = true
		t, body, err := h.object(id)
		if err != nil {
			return err
		}
		switch t {
		case objCommit:
			tree, parents, ok := commitLinks(body)
			if !ok {
				return errors.New("the commit " + hex.EncodeToString(id) + " cannot be read")
			}
			h.commits = append(h.commits, hex.EncodeToString(id))
			if err := h.tree(tree, ""); err != nil {
				return err
			}
			if !h.shallow[string(id)] {
				stack = append(stack, parents...)
			}
		case objTag:
			target, ok := tagTarget(body)
			if !ok {
				return errors.New("the tag " + hex.EncodeToString(id) + " cannot be read")
			}
			stack = append(stack, target)
		case objTree:
			if err := h.tree(id, ""); err != nil {
				return err
			}
		}
	}
	return nil
}

// tree adds the paths of the tree id, standing at the directory dir ("" at
// the top), and of every tree below it.
func (h *histReader) tree(id []byte, dir string) error {
	key := string(id) + "\x00" + dir
	if h.trees[key] {
		return nil
	}
	h.trees[key] = true
	t, body, err := h.object(id)
	if err != nil {
		return err
	}
	if t != objTree {
		return errors.New("the tree " + hex.EncodeToString(id) + " is a " + t.String())
	}
	for len(body) > 0 {
		sp := bytes.IndexByte(body, ' ')
		nul := bytes.IndexByte(body, 0)
		if sp < 0 || nul < sp || nul+21 > len(body) {
			return errors.New("the tree " + hex.EncodeToString(id) + " cannot be read")
		}
		mode, name, sub := string(body[:sp]), string(body[sp+1:nul]), body[nul+1:nul+21]
		body = body[nul+21:]
		if !cleanIndexName(name) || strings.Contains(name, "/") {
			return errors.New("the tree " + hex.EncodeToString(id) + " holds a name git never writes")
		}
		p := name
		if dir != "" {
			p = dir + "/" + name
		}
		if mode == "40000" {
			if err := h.tree(sub, p); err != nil {
				return err
			}
			continue
		}
		if _, ok := h.paths[p]; !ok {
			if len(h.paths) >= h.budget.paths {
				return errHistBudget
			}
			h.paths[p] = struct{}{}
		}
	}
	return nil
}

// commitLinks reads a commit's tree and parents from its header.
func commitLinks(b []byte) (tree []byte, parents [][]byte, ok bool) {
	for len(b) > 0 {
		line, rest, _ := bytes.Cut(b, []byte("\n"))
		b = rest
		if len(line) == 0 {
			break
		}
		k, v, _ := bytes.Cut(line, []byte(" "))
		switch string(k) {
		case "tree", "parent":
			id, err := hex.DecodeString(string(v))
			if err != nil || len(id) != 20 {
				return nil, nil, false
			}
			if string(k) == "tree" {
				tree = id
			} else {
				parents = append(parents, id)
			}
		}
	}
	return tree, parents, tree != nil
}

// tagTarget reads the object an annotated tag names.
func tagTarget(b []byte) ([]byte, bool) {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	v, ok := bytes.CutPrefix(line, []byte("object "))
	if !ok {
		return nil, false
	}
	id, err := hex.DecodeString(string(v))
	return id, err == nil && len(id) == 20
}

// object reads the object id: from a pack, or loose.
func (h *histReader) object(id []byte) (gitObjType, []byte, error) {
	if h.used.objects++; h.used.objects > h.budget.objects {
		return objUnknown, nil, errHistBudget
	}
	for _, p := range h.packs {
		if i, ok := p.x.lookup(id); ok {
			off, ok := p.x.offset(i)
			if !ok {
				return objUnknown, nil, errors.New("a pack index cannot be read")
			}
			return h.packed(p, off, 0)
		}
	}
	return h.loose(id)
}

// loose reads the loose object id.
func (h *histReader) loose(id []byte) (gitObjType, []byte, error) {
	x := hex.EncodeToString(id)
	missing := errors.New("the object " + x + " is not in the repository")
	f, err := os.OpenFile(filepath.Join(h.objects, x[:2], x[2:]), os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return objUnknown, nil, missing
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return objUnknown, nil, missing
	}
	z, err := h.inflate(f)
	if err != nil {
		return objUnknown, nil, missing
	}
	br := bufio.NewReaderSize(z, 64)
	head, err := br.ReadString(0)
	if err != nil || len(head) > 32 {
		return objUnknown, nil, missing
	}
	name, size, _ := strings.Cut(strings.TrimSuffix(head, "\x00"), " ")
	t := objTypeNamed(name)
	n, ok := parseSize(size)
	if t == objUnknown || !ok {
		return objUnknown, nil, missing
	}
	if t == objBlob {
		return t, nil, nil
	}
	if err := h.spend(n); err != nil {
		return objUnknown, nil, err
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(br, body); err != nil {
		return objUnknown, nil, missing
	}
	return t, body, nil
}

// objTypeNamed is the type a loose object's header names.
func objTypeNamed(name string) gitObjType {
	switch name {
	case "commit":
		return objCommit
	case "tree":
		return objTree
	case "blob":
		return objBlob
	case "tag":
		return objTag
	}
	return objUnknown
}

// parseSize reads a decimal size.
func parseSize(s string) (int64, bool) {
	if s == "" || len(s) > 18 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int64(s[i]-'0')
	}
	return n, true
}

// packed reads the entry at off of the pack p, applying deltas to their
// bases; depth counts the bases followed.
func (h *histReader) packed(p *histPack, off int64, depth int) (gitObjType, []byte, error) {
	bad := errors.New("a pack entry cannot be read")
	if depth > maxDeltaChain {
		return objUnknown, nil, errors.New("a pack entry's deltas are deeper than the guard follows")
	}
	var head [32]byte
	k, err := p.ra.ReadAt(head[:], off)
	if k == 0 || err != nil && err != io.EOF {
		return objUnknown, nil, bad
	}
	b := head[:k]
	t, size, i, ok := packEntryHead(b)
	if !ok {
		return objUnknown, nil, bad
	}
	var base []byte
	var bt gitObjType
	switch t {
	case objBlob:
		return t, nil, nil
	case objCommit, objTree, objTag:
	case objOfsDelta, objRefDelta:
		bt, base, i, err = h.deltaBase(p, off, depth, t, b, i)
		if err != nil || bt == objBlob {
			return bt, nil, err
		}
	default:
		return objUnknown, nil, bad
	}
	if err := h.spend(size); err != nil {
		return objUnknown, nil, err
	}
	z, err := h.inflate(io.NewSectionReader(p.ra, off+int64(i), p.size-off-int64(i)))
	if err != nil {
		return objUnknown, nil, bad
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(z, data); err != nil {
		return objUnknown, nil, bad
	}
	if base == nil {
		return t, data, nil
	}
	if h.used.objects++; h.used.objects > h.budget.objects {
		return objUnknown, nil, errHistBudget
	}
	out, ok := applyDelta(base, data, h.budget.bytes-h.used.bytes)
	if !ok {
		return objUnknown, nil, bad
	}
	if err := h.spend(int64(len(out))); err != nil {
		return objUnknown, nil, err
	}
	return bt, out, nil
}

// The pack entry types that hold a delta: against the entry at an
// offset back in the pack, or against the object of an id.
const (
	objOfsDelta gitObjType = 6
	objRefDelta gitObjType = 7
)

// packEntryHead parses the header b of a pack entry: its type, the size
// of its inflated data (a varint of 4 bits, then 7 a byte) and the
// header's length.
func packEntryHead(b []byte) (t gitObjType, size int64, n int, ok bool) {
	t = gitObjType((b[0] >> 4) & 7)
	size = int64(b[0] & 15)
	i, shift := 1, 4
	for c := b[0]; c&0x80 != 0; i++ {
		if i >= len(b) || shift > 56 {
			return objUnknown, 0, 0, false
		}
		c = b[i]
		size |= int64(c&0x7f) << shift
		shift += 7
	}
	return t, size, i, true
}

// deltaBase reads the base of the delta entry at off of p, of type t,
// whose header b names the base from b[i:]: the base's type and data
// (from the pack's cache, or read and kept), and where the header ends.
// A base that is a blob comes back as objBlob with no data.
func (h *histReader) deltaBase(p *histPack, off int64, depth int, t gitObjType, b []byte, i int) (gitObjType, []byte, int, error) {
	var boff int64
	var ok bool
	var n int
	if t == objOfsDelta {
		boff, ok = ofsDeltaBase(b[i:], off)
		for n = i; n < len(b) && b[n]&0x80 != 0; n++ {
		}
		n++
	} else {
		boff, ok = p.x.refDeltaBase(b[i:])
		n = i + 20
	}
	if !ok || n > len(b) {
		return objUnknown, nil, 0, errors.New("a pack entry cannot be read")
	}
	if cached, hit := p.cache[boff]; hit {
		return gitObjType(cached[0]), cached[1:], n, nil
	}
	bt, base, err := h.packed(p, boff, depth+1)
	if err != nil {
		return objUnknown, nil, 0, err
	}
	if bt == objBlob {
		return bt, nil, n, nil
	}
	h.keep(p, boff, bt, base)
	return bt, base, n, nil
}

// keep caches a delta base, within maxHistCache bytes per pack.
func (h *histReader) keep(p *histPack, off int64, t gitObjType, b []byte) {
	if int64(len(b)) > maxHistCache/4 {
		return
	}
	if p.held+int64(len(b)) > maxHistCache {
		clear(p.cache)
		p.held = 0
	}
	p.cache[off] = append([]byte{byte(t)}, b...)
	p.held += int64(len(b)) + 1
}

// applyDelta applies the delta d to base, as git's pack format describes
// it: the base's size and the result's, then instructions that copy a
// range of the base or insert bytes of their own. The result may be at
// most limit bytes.
func applyDelta(base, d []byte, limit int64) ([]byte, bool) {
	src, n := binary.Uvarint(d)
	if n <= 0 || src != uint64(len(base)) {
		return nil, false
	}
	d = d[n:]
	dst, n := binary.Uvarint(d)
	if n <= 0 || dst > uint64(limit) {
		return nil, false
	}
	d = d[n:]
	out := make([]byte, 0, dst)
	for len(d) > 0 {
		op := d[0]
		d = d[1:]
		switch {
		case op&0x80 != 0:
			var off, size uint64
			var ok bool
			if off, size, d, ok = deltaCopy(op, d); !ok {
				return nil, false
			}
			if off+size > uint64(len(base)) || uint64(len(out))+size > dst {
				return nil, false
			}
			out = append(out, base[off:off+size]...)
		case op != 0:
			if int(op) > len(d) || uint64(len(out))+uint64(op) > dst {
				return nil, false
			}
			out = append(out, d[:op]...)
			d = d[op:]
		default:
			return nil, false
		}
	}
	return out, uint64(len(out)) == dst
}

// deltaCopy reads the operands of the delta copy instruction op from d:
// bits 0-3 of op say which bytes of the offset follow, bits 4-6 which of
// the size (0 is 0x10000). It returns them and the rest of d.
func deltaCopy(op byte, d []byte) (off, size uint64, rest []byte, ok bool) {
	for bit := range 7 {
		if op&(1<<bit) == 0 {
			continue
		}
		if len(d) == 0 {
			return 0, 0, nil, false
		}
		if bit < 4 {
			off |= uint64(d[0]) << (8 * bit)
		} else {
			size |= uint64(d[0]) << (8 * (bit - 4))
		}
		d = d[1:]
	}
	if size == 0 {
		size = 0x10000
	}
	return off, size, d, true
}

// lookup returns the position of the object whose raw id is id.
func (x *packIndex) lookup(id []byte) (int, bool) {
	if len(id) != x.hashSz {
		return 0, false
	}
	lo := 0
	if id[0] > 0 {
		lo = int(binary.BigEndian.Uint32(x.b[8+(int(id[0])-1)*4:]))
	}
	hi := int(binary.BigEndian.Uint32(x.b[8+int(id[0])*4:]))
	if hi > x.n || lo > hi {
		return 0, false
	}
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch c := bytes.Compare(x.id(m), id); {
		case c == 0:
			return m, true
		case c < 0:
			lo = m + 1
		default:
			hi = m
		}
	}
	return 0, false
}

// history is the history of the repository whose top is top, kept on the
// cache; its stamps are the refs, HEAD, the reflogs, packed-refs and the
// pack directory, which every change of history touches.
func (c *wsCache) history(top string) *gitHistory {
	b := defaultHistBudget
	if c != nil && c.histBudget != nil {
		b = *c.histBudget
	}
	return c.get(factKey{kind: "history", a: top}, func(r *stampRec) any {
		return readGitHistory(top, r, b)
	}).(*gitHistory)
}

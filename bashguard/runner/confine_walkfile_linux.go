//go:build linux

package runner

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/toolgate/toolgate/internal/fanout"
	"github.com/toolgate/toolgate/internal/safefile"
	"golang.org/x/sys/unix"
)

// The walk kept between processes. A launcher that runs one command a
// process (toolgate exec) would walk the roots on every command; with
// [Confinement.WalkFile] set, the runner records its walk there (the
// rules, the protected paths, the count of secrets, the read-only
// grants' walks, and the walk itself as a tree: every directory it
// listed with its stamp, and every entry, which the check after the run
// reads too), and a later process of the same configuration takes the
// walk from the file instead of walking, once it has found every recorded
// directory unchanged: the same device, inode, modification and change
// times. That process reads only the tree's table of directories
// (confine_walktree_linux.go); the entries stay bytes unless the command
// changes their directory. Adding, removing or renaming an entry of a directory, or linking
// a file into it, changes the directory's times, so a secret created,
// renamed or linked into place since the walk makes the runner walk
// again: only the directories that changed, from the tree
// (confine_walktree_linux.go). A directory whose stamp was taken within
// the file system's clock tick of the walk is recorded without one, and
// listed again by the next process.
//
// The file is trusted only as far as its place is: a regular file with
// one link, owned by the runner's user and writable by no one else, in a
// directory of the user's that no one else may write, outside every root
// and Writable location; it must carry the same configuration key
// (roots, Protect, IdentityFile, MaxWalk, WalkKey), the same mount table
// and the same identity record. Anything else, and anything it cannot
// read or revalidate, is ignored and the roots are walked: the file can
// make a run cheaper, never its grant wider than a walk's.

// confineWalkVersion changes whenever the file's meaning does. Version
// 3 keeps the directories only in the tree, whose entries no longer
// repeat for the plant check: a third of version 2's size. Version 4
// records the secret paths the mount namespace covers.
const confineWalkVersion = 4

// confineWalkMagic opens the file, followed by the version on a line of
// its own, then the record (confineWalkEncode) to the end of the file.
const confineWalkMagic = "toolgate-walk\n"

// confineWalkMaxBytes bounds the file read: a walk of ConfineMaxWalk
// entries with their names.
const confineWalkMaxBytes = 256 << 20

// confineWalkRecord is the file's header.
type confineWalkRecord struct {
	Key string
	// Start is when the walk began (Unix nanoseconds).
	Start  int64
	Mounts string
	// Idents is the identity record's stamp as the walk read it, and
	// Known the identities it judged by (sorted).
	Idents  string
	Known   []confineIdentity
	Rules   []confineRule
	Binds   []string
	Covers  []string
	Secrets int
	Grants  map[string]confineKeptGrant
	// Tree is the walk as a kept tree (confineTreeEncode): its table of
	// directories, with their stamps, is what a process that finds
	// nothing changed reads, and the whole tree what a process that finds
	// a directory changed walks again where it changed. It is a part of
	// the bytes read, not a copy.
	Tree []byte
}

// confineKeptGrant is a read-only grant's walk.
type confineKeptGrant struct {
	Rules   []confineRule
	Secrets int
	Dropped string
	Stamps  [][6]int64
	Paths   []string
}

func stampPack(s confineDirStamp) [6]int64 {
	return [6]int64{int64(s.dev), int64(s.ino), s.mtime.Sec, s.mtime.Nsec, s.ctime.Sec, s.ctime.Nsec}
}

func stampUnpack(path string, v [6]int64) confineDirStamp {
	return confineDirStamp{path: path, dev: uint64(v[0]), ino: uint64(v[1]),
		mtime: unix.Timespec{Sec: v[2], Nsec: v[3]}, ctime: unix.Timespec{Sec: v[4], Nsec: v[5]}}
}

// confineWalkKey is the configuration a recorded walk is valid for.
func confineWalkKey(c runConfig) string {
	return fmt.Sprintf("%d|%s|%q|%T", confineWalkVersion, confineFactsKey(c), c.confine.WalkKey, c.checker)
}

// confineMountsStamp is a digest of the mount table: a bind mount into
// the roots since the walk makes it stale.
func confineMountsStamp() string {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}

// confineFileStamp names a file's state: "" when it does not exist.
func confineFileStamp(path string) string {
	if path == "" {
		return "-"
	}
	var st unix.Stat_t
	if unix.Lstat(path, &st) != nil {
		return ""
	}
	return fmt.Sprintf("%d:%d:%d.%d:%d.%d:%d", st.Dev, st.Ino, st.Mtim.Sec, st.Mtim.Nsec, st.Ctim.Sec, st.Ctim.Nsec, st.Size)
}

// confineWalkPlace says why path cannot hold the walk (inside a root or
// a Writable location, where a confined command could forge it), or "".
func confineWalkPlace(c runConfig, path string) string {
	if !filepath.IsAbs(path) {
		return "not an absolute path"
	}
	dir := filepath.Dir(path)
	if resolved, err := filepath.EvalSymlinks(dir); err == nil {
		dir = resolved
	}
	for _, g := range append(append([]string(nil), c.roots...), c.confine.Writable...) {
		if resolved, err := filepath.EvalSymlinks(g); err == nil {
			g = resolved
		}
		if rel, err := filepath.Rel(g, dir); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return "it lies in " + g + ", which a confined command may write"
		}
	}
	return ""
}

// confineWalkRead reads the record in path when its place can be
// trusted.
func confineWalkRead(c runConfig, path string) (*confineWalkRecord, bool) {
	if confineWalkPlace(c, path) != "" {
		return nil, false
	}
	b, err := safefile.ReadPrivate(path, confineWalkMaxBytes)
	if err != nil {
		return nil, false
	}
	rest, ok := bytes.CutPrefix(b, []byte(confineWalkMagic+strconv.Itoa(confineWalkVersion)+"\n"))
	if !ok {
		return nil, false
	}
	return confineWalkDecode(rest)
}

// confineWalkLoad is the recorded walk of the roots for c, when the file
// can be trusted and every directory it recorded is unchanged: the rules,
// the binds, the count of secrets and the plant snapshot. It reads the
// tree's table of directories only.
func confineWalkLoad(c runConfig, rec *confineWalkRecord) (*confineWalk, bool) {
	if rec == nil || rec.Key != confineWalkKey(c) || rec.Mounts != confineMountsStamp() ||
		rec.Idents != confineFileStamp(c.confine.IdentityFile) {
		return nil, false
	}
	dirs, ok := confineTreeTable(rec.Tree, c.roots)
	if !ok {
		return nil, false
	}
	var stamped []int
	for i := range dirs {
		d := &dirs[i]
		switch {
		case d.flags&treeNodeRacy != 0:
			// Listed within the clock's tick of the walk: listed again.
			return nil, false
		case d.flags&treeNodeStamped != 0:
			stamped = append(stamped, i)
		case d.parent < 0:
			// A walk lists every root first: a record without them is
			// not one.
			return nil, false
		}
	}
	if !fanout.All(len(stamped), func(i int) bool {
		d := &dirs[stamped[i]]
		now, ok := confineStampOf(d.path)
		return ok && now == d.stamp()
	}) {
		return nil, false
	}
	return &confineWalk{rules: rec.Rules, binds: rec.Binds, covers: rec.Covers, secrets: rec.Secrets, plants: confinePlantsOf(c.roots, dirs)}, true
}

// confinePlantsOf is the plant snapshot of the directories of a tree's
// table: each one a command may create entries in, with its entries
// kept as the tree's bytes, read only if the command changes it.
func confinePlantsOf(roots []string, dirs []confineTreeDir) *confinePlantSnap {
	plants := newConfinePlantSnap(roots)
	for i := range dirs {
		d := &dirs[i]
		if d.flags&(treeNodeStamped|treeNodeRacy) == 0 || d.flags&(treeNodePlant|treeNodeUnlisted|treeNodeReadOnly) != treeNodePlant {
			continue
		}
		plants.dirs[d.path] = &confinePlantDir{at: confineWalkAt{inGit: d.flags&treeNodeInGit != 0}, id: confineIdentity{d.dev, d.ino},
			ctime: d.pctime, packed: d.block}
	}
	return plants
}

// confineWalkGrantsLoad gives f the read-only grants' walks rec holds,
// for facts.grant to revalidate.
func confineWalkGrantsLoad(c runConfig, f *confineFacts, rec *confineWalkRecord) {
	if f == nil || rec == nil || rec.Key != confineWalkKey(c) {
		return
	}
	limit := c.confine.MaxWalk
	if limit == 0 {
		limit = ConfineMaxWalk
	}
	f.grants.mu.Lock()
	defer f.grants.mu.Unlock()
	if f.grants.by != nil {
		return
	}
	f.grants.by = map[string]*confineGrant{}
	for path, wg := range rec.Grants {
		// Only a walked directory's grant, which its stamps revalidate:
		// the rest (a file, a link into the system locations, a location
		// that is missing) costs a stat or two to make again, and could
		// have changed into something else since.
		if len(wg.Paths) != len(wg.Stamps) || len(wg.Stamps) == 0 || wg.Dropped != "" {
			continue
		}
		g := &confineGrant{rules: wg.Rules, secrets: wg.Secrets, checker: c.checker, limit: limit}
		for i, p := range wg.Paths {
			g.stamps = append(g.stamps, stampUnpack(p, wg.Stamps[i]))
		}
		f.grants.by[path] = g
	}
}

// confineWalkSave records the walk r made of c's roots, with its tree
// encoded as tree, and the read-only grants of f, in path. A failure
// leaves the next process to walk.
func confineWalkSave(c runConfig, path string, r *confineKeptRun, tree []byte, f *confineFacts) error {
	if why := confineWalkPlace(c, path); why != "" {
		return errors.New(why)
	}
	t, start := r.tree, r.start
	rec := confineWalkRecord{Key: confineWalkKey(c), Start: start.UnixNano(), Mounts: confineMountsStamp(), Idents: r.idents,
		Rules: t.rules, Binds: t.binds, Covers: t.covers, Secrets: t.secrets, Tree: tree}
	for id := range r.known {
		rec.Known = append(rec.Known, id)
	}
	slices.SortFunc(rec.Known, confineIdentityCompare)
	if f != nil {
		f.grants.mu.Lock()
		for p, g := range f.grants.by {
			if len(g.stamps) == 0 || slices.ContainsFunc(g.stamps, func(s confineDirStamp) bool { return confineStampRacy(s, start) }) {
				continue
			}
			wg := confineKeptGrant{Rules: g.rules, Secrets: g.secrets, Dropped: g.dropped}
			for _, s := range g.stamps {
				wg.Paths, wg.Stamps = append(wg.Paths, s.path), append(wg.Stamps, stampPack(s))
			}
			if rec.Grants == nil {
				rec.Grants = map[string]confineKeptGrant{}
			}
			rec.Grants[p] = wg
		}
		f.grants.mu.Unlock()
	}
	return confineWalkWrite(path, &rec)
}

// confineIdentityCompare orders identities by device, then inode.
func confineIdentityCompare(a, b confineIdentity) int {
	if a.Dev != b.Dev {
		return cmp.Compare(a.Dev, b.Dev)
	}
	return cmp.Compare(a.Ino, b.Ino)
}

// confineWalkWrite replaces path with rec, atomically, readable by the
// user alone.
func confineWalkWrite(path string, rec *confineWalkRecord) error {
	out := confineWalkEncode([]byte(confineWalkMagic+strconv.Itoa(confineWalkVersion)+"\n"), rec)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".walk-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(out); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// confineStampRacy reports whether directory s changed too close to
// start for its stamp to tell a later change from that one: a file
// system's times come from a coarse clock, so a second change within its
// tick may leave them as they were.
func confineStampRacy(s confineDirStamp, start time.Time) bool {
	return !time.Unix(s.ctime.Unix()).Before(start.Add(-confinePlantRecent))
}

// The header's encoding: unsigned varints, and strings as their length
// then their bytes, in the order of confineWalkEncode. It is read much
// faster than JSON: a walk of 100,000 entries records thousands of rules
// and directories.

type confineWalkEnc struct{ b []byte }

func (e *confineWalkEnc) u(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *confineWalkEnc) i(v int64)  { e.b = binary.AppendVarint(e.b, v) }
func (e *confineWalkEnc) s(v string) { e.u(uint64(len(v))); e.b = append(e.b, v...) }
func (e *confineWalkEnc) st(v [6]int64) {
	for _, x := range v {
		e.i(x)
	}
}

// rules writes each rule's path as the length it shares with the path
// before and the rest: the rules of a directory with a secret are its
// entries, one a rule.
func (e *confineWalkEnc) rules(rs []confineRule) {
	e.u(uint64(len(rs)))
	prev := ""
	for _, r := range rs {
		k := 0
		for k < len(prev) && k < len(r.Path) && prev[k] == r.Path[k] {
			k++
		}
		e.u(uint64(k))
		e.s(r.Path[k:])
		e.u(r.Access)
		e.u(confineBit(r.Follow, 1))
		prev = r.Path
	}
}

// confineWalkEncode appends the encoding of rec to b.
func confineWalkEncode(b []byte, rec *confineWalkRecord) []byte {
	e := confineWalkEnc{b: b}
	e.s(rec.Key)
	e.i(rec.Start)
	e.s(rec.Mounts)
	e.s(rec.Idents)
	e.u(uint64(len(rec.Known)))
	for _, id := range rec.Known {
		e.u(id.Dev)
		e.u(id.Ino)
	}
	e.rules(rec.Rules)
	e.u(uint64(len(rec.Binds)))
	for _, b := range rec.Binds {
		e.s(b)
	}
	e.u(uint64(len(rec.Covers)))
	for _, b := range rec.Covers {
		e.s(b)
	}
	e.u(uint64(rec.Secrets))
	paths := make([]string, 0, len(rec.Grants))
	for p := range rec.Grants {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	e.u(uint64(len(paths)))
	for _, p := range paths {
		g := rec.Grants[p]
		e.s(p)
		e.rules(g.Rules)
		e.u(uint64(g.Secrets))
		e.u(uint64(len(g.Stamps)))
		for i, st := range g.Stamps {
			e.s(g.Paths[i])
			e.st(st)
		}
	}
	e.u(uint64(len(rec.Tree)))
	e.b = append(e.b, rec.Tree...)
	return e.b
}

type confineWalkDec struct {
	b   []byte
	bad bool
}

func (d *confineWalkDec) u() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.bad, d.b = true, nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *confineWalkDec) i() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.bad, d.b = true, nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

// n is a count, bounded by what is left to read (each item takes a byte
// at least).
func (d *confineWalkDec) n() int {
	v := d.u()
	if v > uint64(len(d.b)) {
		d.bad, d.b = true, nil
		return 0
	}
	return int(v)
}

func (d *confineWalkDec) s() string {
	n := d.n()
	v := string(d.b[:n])
	d.b = d.b[n:]
	return v
}

func (d *confineWalkDec) st() (v [6]int64) {
	for k := range v {
		v[k] = d.i()
	}
	return v
}

// rules reads what confineWalkEnc.rules wrote.
func (d *confineWalkDec) rules() []confineRule {
	rs := make([]confineRule, d.n())
	prev := ""
	for k := range rs {
		shared := d.u()
		if shared > uint64(len(prev)) {
			d.bad, d.b = true, nil
			return rs
		}
		n := d.n()
		path := prev[:shared] + string(d.b[:n])
		d.b = d.b[n:]
		rs[k] = confineRule{Path: path, Access: d.u(), Follow: d.u() == 1}
		prev = path
	}
	return rs
}

// confineWalkDecode decodes what confineWalkEncode wrote; ok is false for
// anything else.
func confineWalkDecode(b []byte) (*confineWalkRecord, bool) {
	d := &confineWalkDec{b: b}
	rec := &confineWalkRecord{Key: d.s(), Start: d.i(), Mounts: d.s(), Idents: d.s()}
	if n := d.n(); n > 0 {
		rec.Known = make([]confineIdentity, n)
		for k := range rec.Known {
			rec.Known[k] = confineIdentity{Dev: d.u(), Ino: d.u()}
		}
	}
	rec.Rules = d.rules()
	rec.Binds = make([]string, d.n())
	for k := range rec.Binds {
		rec.Binds[k] = d.s()
	}
	if n := d.n(); n > 0 {
		rec.Covers = make([]string, n)
		for k := range rec.Covers {
			rec.Covers[k] = d.s()
		}
	}
	rec.Secrets = int(d.u())
	if n := d.n(); n > 0 {
		rec.Grants = make(map[string]confineKeptGrant, n)
		for range n {
			p := d.s()
			g := confineKeptGrant{Rules: d.rules(), Secrets: int(d.u())}
			for range d.n() {
				g.Paths = append(g.Paths, d.s())
				g.Stamps = append(g.Stamps, d.st())
			}
			rec.Grants[p] = g
		}
	}
	if n := d.n(); n > 0 {
		rec.Tree, d.b = d.b[:n:n], d.b[n:]
	}
	if d.bad || len(d.b) != 0 {
		return nil, false
	}
	return rec, true
}

// confineBit is bit when b holds, else 0.
func confineBit(b bool, bit uint64) uint64 {
	if b {
		return bit
	}
	return 0
}

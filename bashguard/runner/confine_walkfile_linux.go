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

	"github.com/toolgate/toolgate/internal/safefile"
	"golang.org/x/sys/unix"
)

// The walk kept between processes. A launcher that runs one command a
// process (toolgate exec) would walk the roots on every command; with
// [Confinement.WalkFile] set, the runner records its walk there (the
// rules, the protected paths, the count of secrets, the read-only
// grants' walks, and a stamp of every directory it listed, with that
// directory's entries for the check after the run, and the walk itself
// as a tree), and a later process of the same configuration takes the
// walk from the file instead of walking, once it has found every recorded
// directory unchanged: the same device, inode, modification and change
// times. Adding, removing or renaming an entry of a directory, or linking
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

// confineWalkVersion changes whenever the file's meaning does.
const confineWalkVersion = 2

// confineWalkMagic opens the file: the version, then the length of the
// JSON header as 4 bytes, little-endian; the names of the directories'
// entries follow the header.
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
	Secrets int
	Dirs    []confineWalkDir
	Grants  map[string]confineKeptGrant
	// Tree is the walk as a kept tree (confineTreeEncode), which a
	// process that finds a directory changed walks again where it
	// changed.
	Tree []byte
}

// confineWalkDir is one directory the walk listed: its stamp and, for a
// directory a command may create entries in, what the check after the
// run needs (where the walk was, its change time when listed, and its
// entries as names[Off:Off+Len] of the file).
type confineWalkDir struct {
	P     string
	S     [6]int64 // dev, ino, mtime s, ns, ctime s, ns
	Plant bool
	Git   bool
	C     [2]int64
	ID    [2]uint64
	Off   int
	Len   int
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
// trusted, with the names that follow it.
func confineWalkRead(c runConfig, path string) (*confineWalkRecord, []byte, bool) {
	if confineWalkPlace(c, path) != "" {
		return nil, nil, false
	}
	b, err := safefile.ReadPrivate(path, confineWalkMaxBytes)
	if err != nil {
		return nil, nil, false
	}
	rest, ok := bytes.CutPrefix(b, []byte(confineWalkMagic+strconv.Itoa(confineWalkVersion)+"\n"))
	if !ok || len(rest) < 4 {
		return nil, nil, false
	}
	n := int(binary.LittleEndian.Uint32(rest))
	if n > len(rest)-4 {
		return nil, nil, false
	}
	rec, ok := confineWalkDecode(rest[4 : 4+n])
	if !ok {
		return nil, nil, false
	}
	return rec, rest[4+n:], true
}

// confineWalkLoad is the recorded walk of the roots for c, when the file
// can be trusted and every directory it recorded is unchanged: the rules,
// the binds, the count of secrets and the plant snapshot.
func confineWalkLoad(c runConfig, rec *confineWalkRecord, names []byte) (*confineWalk, bool) {
	if rec == nil || rec.Key != confineWalkKey(c) || rec.Mounts != confineMountsStamp() ||
		rec.Idents != confineFileStamp(c.confine.IdentityFile) {
		return nil, false
	}
	// A walk lists every root first: a record without them is not one.
	for _, root := range c.roots {
		if !slices.ContainsFunc(rec.Dirs, func(d confineWalkDir) bool { return d.P == root }) {
			return nil, false
		}
	}
	for i := range rec.Dirs {
		d := &rec.Dirs[i]
		if now, ok := confineStampOf(d.P); !ok || now != stampUnpack(d.P, d.S) {
			return nil, false
		}
	}
	plants, ok := confinePlantsOf(c.roots, rec.Dirs, names)
	if !ok {
		return nil, false
	}
	return &confineWalk{rules: rec.Rules, binds: rec.Binds, secrets: rec.Secrets, plants: plants}, true
}

// confinePlantsOf is the plant snapshot of the recorded directories dirs,
// whose names are in names; ok is false when a directory's names are not
// there.
func confinePlantsOf(roots []string, dirs []confineWalkDir, names []byte) (*confinePlantSnap, bool) {
	plants := newConfinePlantSnap(roots)
	for i := range dirs {
		d := &dirs[i]
		if !d.Plant {
			continue
		}
		if d.Off < 0 || d.Len < 0 || d.Off+d.Len > len(names) {
			return nil, false
		}
		plants.dirs[d.P] = &confinePlantDir{at: confineWalkAt{inGit: d.Git}, id: confineIdentity{d.ID[0], d.ID[1]},
			ctime: unix.Timespec{Sec: d.C[0], Nsec: d.C[1]}, packed: names[d.Off : d.Off+d.Len]}
	}
	return plants, true
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

// confineWalkSave records the walk r made of c's roots, with its
// stamps and its tree, and the read-only grants of f, in path. A failure
// leaves the next process to walk.
func confineWalkSave(c runConfig, path string, r *confineKeptRun, f *confineFacts) error {
	if why := confineWalkPlace(c, path); why != "" {
		return errors.New(why)
	}
	t, start := r.tree, r.start
	rec := confineWalkRecord{Key: confineWalkKey(c), Start: start.UnixNano(), Mounts: confineMountsStamp(), Idents: r.idents,
		Rules: t.rules, Binds: t.binds, Secrets: t.secrets}
	for id := range r.known {
		rec.Known = append(rec.Known, id)
	}
	slices.SortFunc(rec.Known, confineIdentityCompare)
	rec.Dirs = r.dirs
	rec.Tree = confineTreeEncode(t, start)
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
	return confineWalkWrite(path, &rec, r.names)
}

// confineIdentityCompare orders identities by device, then inode.
func confineIdentityCompare(a, b confineIdentity) int {
	if a.Dev != b.Dev {
		return cmp.Compare(a.Dev, b.Dev)
	}
	return cmp.Compare(a.Ino, b.Ino)
}

// confineWalkWrite replaces path with rec and names, atomically,
// readable by the user alone.
func confineWalkWrite(path string, rec *confineWalkRecord, names []byte) error {
	head := confineWalkEncode(rec)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".walk-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	var n [4]byte
	binary.LittleEndian.PutUint32(n[:], uint32(len(head)))
	var out bytes.Buffer
	out.WriteString(confineWalkMagic + strconv.Itoa(confineWalkVersion) + "\n")
	out.Write(n[:])
	out.Write(head)
	out.Write(names)
	if _, err := tmp.Write(out.Bytes()); err != nil {
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

// confinePlantPack writes names as the file holds them: each name, then
// "/" and, for a directory, its device and inode, then "/" (a name holds
// no "/").
func confinePlantPack(b *bytes.Buffer, names []confinePlantName) {
	for _, n := range names {
		b.WriteString(n.name)
		b.WriteByte('/')
		if n.dir {
			b.WriteString(strconv.FormatUint(n.id.Dev, 10))
			b.WriteByte(':')
			b.WriteString(strconv.FormatUint(n.id.Ino, 10))
		}
		b.WriteByte('/')
	}
}

// confinePlantUnpack reads what confinePlantPack wrote; ok is false for
// anything else.
func confinePlantUnpack(b []byte) ([]confinePlantName, bool) {
	var out []confinePlantName
	s := string(b)
	for s != "" {
		name, rest, ok1 := strings.Cut(s, "/")
		id, rest, ok2 := strings.Cut(rest, "/")
		if !ok1 || !ok2 || name == "" {
			return nil, false
		}
		n := confinePlantName{name: name}
		if id != "" {
			dev, ino, ok := strings.Cut(id, ":")
			d, err1 := strconv.ParseUint(dev, 10, 64)
			i, err2 := strconv.ParseUint(ino, 10, 64)
			if !ok || err1 != nil || err2 != nil {
				return nil, false
			}
			n.dir, n.id = true, confineIdentity{d, i}
		}
		out = append(out, n)
		s = rest
	}
	return out, true
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

func (e *confineWalkEnc) rules(rs []confineRule) {
	e.u(uint64(len(rs)))
	for _, r := range rs {
		e.s(r.Path)
		e.u(r.Access)
		e.u(confineBit(r.Follow, 1))
	}
}

// confineWalkEncode encodes rec.
func confineWalkEncode(rec *confineWalkRecord) []byte {
	var e confineWalkEnc
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
	e.u(uint64(rec.Secrets))
	e.u(uint64(len(rec.Dirs)))
	for _, d := range rec.Dirs {
		e.s(d.P)
		e.st(d.S)
		e.u(confineBit(d.Plant, 1) | confineBit(d.Git, 2))
		e.i(d.C[0])
		e.i(d.C[1])
		e.u(d.ID[0])
		e.u(d.ID[1])
		e.u(uint64(d.Off))
		e.u(uint64(d.Len))
	}
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

func (d *confineWalkDec) rules() []confineRule {
	rs := make([]confineRule, d.n())
	for k := range rs {
		rs[k] = confineRule{Path: d.s(), Access: d.u(), Follow: d.u() == 1}
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
	rec.Secrets = int(d.u())
	rec.Dirs = make([]confineWalkDir, d.n())
	for k := range rec.Dirs {
		dir := &rec.Dirs[k]
		dir.P, dir.S = d.s(), d.st()
		flags := d.u()
		dir.Plant, dir.Git = flags&1 != 0, flags&2 != 0
		dir.C = [2]int64{d.i(), d.i()}
		dir.ID = [2]uint64{d.u(), d.u()}
		dir.Off, dir.Len = int(d.u()), int(d.u())
	}
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

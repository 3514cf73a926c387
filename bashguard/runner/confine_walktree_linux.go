//go:build linux

package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// The walk kept between processes, walked again where it changed. A
// walk file (confine_walkfile_linux.go) holds, besides the rules and
// binds a run needs when nothing changed, the walk itself as the kept
// tree of a Shell holds it (confine_facts_linux.go): every directory
// listed, with its stamp, and every entry judged. A later process that
// finds nothing changed reads only the tree's table of directories. One
// that finds a directory changed does not walk the roots again: it takes
// the tree from the file, stats every directory in it, lists again only
// those whose stamp moved (judging their new entries, walking their new
// directories, forgetting what went away), judges again the entries
// whose identity joined or left the recorded secrets' identities, and
// makes the rules, the binds, the count, the hidden identities and the
// plant snapshot from the result, as the kept tree of a Shell does after
// its events.
//
// A directory is taken as unchanged by the same test the walk file
// always made (the same device, inode, modification and change times),
// so the result is the walk's: a test that changes a project at random
// checks it against a walk from scratch after every change. What the
// test cannot decide cheaply falls back to that walk: a mount table that
// changed, a tree that does not decode, a symbolic link made, changed or
// removed, more entries than MaxWalk (the walk then fails as a walk
// does).
//
// What no directory's stamp shows is not seen, by the record taken
// unchanged as by the tree walked again: a file's content rewritten in
// place, a hard link to a file of the roots made from a directory the
// walk does not list (outside the roots, in a secret directory).

// confineTreeMaxDepth bounds the depth of a decoded tree: a path longer
// than PATH_MAX cannot be listed, so a walk never goes deeper than
// this.
const confineTreeMaxDepth = 4096

// confineKeptRun is a walk of the roots for one process that keeps its
// walk in a file: the tree, when it was walked, and what the record of
// it needs.
type confineKeptRun struct {
	tree *confineTree
	// start is when the walk began; idents the identity record's stamp
	// as the walk read it, and known the identities it judged by.
	start  time.Time
	idents string
	known  map[confineIdentity]bool
	// incremental is true when the tree came from the file.
	incremental bool
}

// confineKeptWalk walks c's roots, from rec's tree where rec can serve
// (only the directories changed since are listed), else from scratch.
func confineKeptWalk(c runConfig, rec *confineWalkRecord) (*confineKeptRun, error) {
	r := &confineKeptRun{start: time.Now(), idents: confineFileStamp(c.confine.IdentityFile)}
	t := newConfineTree(c)
	t.kept = true
	r.known = t.w.known
	if rec != nil && rec.Key == confineWalkKey(c) && rec.Mounts == confineMountsStamp() {
		if roots, entries, ok := confineTreeDecode(rec.Tree, c.roots); ok {
			t.roots, t.entries = roots, entries
			if t.refreshAll(confineKnownDiff(r.known, rec.Known)) == nil {
				r.tree, r.incremental = t, true
			}
		}
	}
	if r.tree == nil {
		t = newConfineTree(c)
		t.kept = true
		t.w.known = r.known
		for _, root := range c.roots {
			n, err := t.node(root, confineWalkAt{}, 0)
			if errors.Is(err, errConfineWalkBudget) {
				return nil, t.budgetError()
			}
			if err != nil {
				return nil, fmt.Errorf("%w: %w", ErrConfineFailed, err)
			}
			t.roots = append(t.roots, n)
		}
		r.tree = t
	}
	r.tree.emit()
	if r.known != nil && !confineSameIdentities(r.known, r.tree.hidden) {
		// Only when they changed: a record rewritten by every walk would
		// make every kept walk of these roots judge again.
		if err := confineSaveIdentities(c.confine.IdentityFile, r.tree.hidden); err != nil {
			return nil, fmt.Errorf("%w: recording the secret paths' identities in %s: %w", ErrConfineFailed, c.confine.IdentityFile, err)
		}
	}
	return r, nil
}

// confineKnownDiff is the identities in one of a and b but not both:
// the entries whose judgement a change of the recorded identities may
// change.
func confineKnownDiff(now map[confineIdentity]bool, then []confineIdentity) map[confineIdentity]bool {
	diff := map[confineIdentity]bool{}
	was := make(map[confineIdentity]bool, len(then))
	for _, id := range then {
		was[id] = true
		if !now[id] {
			diff[id] = true
		}
	}
	for id := range now {
		if !was[id] {
			diff[id] = true
		}
	}
	return diff
}

// errConfineLinked stops the walk again of a tree in which a symbolic
// link was made, changed or removed.
var errConfineLinked = errors.New("a symbolic link changed")

// refreshAll brings the tree from the file up to date. Its running count
// of entries may pass the limit while removed entries are still counted,
// so it runs with twice the limit (the record held at most the limit,
// and no more can be removed) and checks the limit at the end; a tree
// past it is left for the walk from scratch, which fails as a walk
// does.
func (t *confineTree) refreshAll(diff map[confineIdentity]bool) error {
	limit := t.w.limit
	t.w.limit = 2 * limit
	t.links = map[confineIdentity]bool{}
	defer func() { t.w.limit, t.links = limit, nil }()
	for _, r := range t.roots {
		if err := t.refresh(r, diff); err != nil {
			return err
		}
	}
	if t.linked {
		return errConfineLinked
	}
	if err := t.relink(); err != nil {
		return err
	}
	if t.entries > limit {
		return errConfineWalkBudget
	}
	return nil
}

// refresh brings node n up to date: listed again when its stamp moved,
// else its entries whose identity is in diff judged again, and its
// directories refreshed in turn.
func (t *confineTree) refresh(n *confineNode, diff map[confineIdentity]bool) error {
	now, ok := confineStampOf(n.path)
	if !n.stamped || !ok || now != (confineDirStamp{path: n.path, dev: n.dev, ino: n.ino, mtime: n.mtime, ctime: n.ctime}) {
		return t.relist(n, diff)
	}
	for i, e := range n.entries {
		if e.idOK && diff[e.id] {
			ne, err := t.rejudge(n, e, nil, diff)
			if err != nil {
				return err
			}
			if ne == nil {
				// Gone since the stamp: the directory changed after
				// all; list it again.
				n.entries = slices.Delete(n.entries, i, i+1)
				return t.relist(n, diff)
			}
			n.entries[i] = ne
			continue
		}
		if e.child != nil {
			if err := t.refresh(e.child, diff); err != nil {
				return err
			}
		}
	}
	return nil
}

// relink judges again every file of the tree whose count of links may
// have changed (t.links): a hard link made or removed changes no
// directory of the file's other names.
func (t *confineTree) relink() error {
	if len(t.links) == 0 {
		return nil
	}
	var err error
	t.eachNode(func(n *confineNode) {
		for i := 0; i < len(n.entries) && err == nil; i++ {
			e := n.entries[i]
			if e.dir || e.symlink || !t.links[e.id] {
				continue
			}
			var ne *confineEntry
			if ne, err = t.rejudge(n, e, nil, nil); ne == nil {
				n.entries = slices.Delete(n.entries, i, i+1)
				i--
				continue
			}
			n.entries[i] = ne
		}
	})
	return err
}

// relist lists n again: an entry that is new is judged (a directory
// walked), one that went away is forgotten, and one still there is
// judged again, its directory's node kept to be refreshed.
func (t *confineTree) relist(n *confineNode, diff map[confineIdentity]bool) error {
	t.relisted++
	old := n.entries
	n.entries, n.unlisted, n.stamped, n.plant = nil, false, false, false
	byName := make(map[string]*confineEntry, len(old))
	for _, e := range old {
		byName[e.name] = e
	}
	// The new listing, judged as the walk judges it; a directory still
	// there keeps its node. What is left in byName went away.
	err := t.listWith(n, func(e fs.DirEntry) (*confineEntry, error) {
		o := byName[e.Name()]
		if o == nil {
			return t.judge(n, e.Name(), e)
		}
		delete(byName, e.Name())
		return t.rejudge(n, o, e, diff)
	})
	for _, e := range byName {
		t.entries--
		t.forgetLinks(e)
		t.forget(e.child)
	}
	return err
}

// listWith is list with the judgement of each entry given (a walk
// again keeps the entries it already knows).
func (t *confineTree) listWith(n *confineNode, judge func(fs.DirEntry) (*confineEntry, error)) error {
	if t.kept {
		st, ok := confineStampOf(n.path)
		if !ok {
			n.unlisted = true
			return nil
		}
		n.stamped, n.dev, n.ino, n.mtime, n.ctime = true, st.dev, st.ino, st.mtime, st.ctime
	}
	entries, err := confineReadDir(n.path)
	if err != nil {
		n.unlisted = true
		return nil
	}
	if t.kept {
		var st unix.Stat_t
		n.plant = unix.Lstat(n.path, &st) == nil
		n.pctime = st.Ctim
	}
	for _, e := range entries {
		ent, err := judge(e)
		if err != nil {
			return err
		}
		if ent != nil {
			n.entries = append(n.entries, ent)
		}
	}
	return nil
}

// rejudge judges again o, an entry of n (e, when a listing gave it; else
// it is looked up), keeping o's directory node, refreshed, when the
// entry is still a directory that may be granted below the same place.
// It returns nil for an entry that is gone.
func (t *confineTree) rejudge(n *confineNode, o *confineEntry, e fs.DirEntry, diff map[confineIdentity]bool) (*confineEntry, error) {
	t.entries--
	linked := t.linked
	ent, sub, err := t.judgeEntry(n, o.name, e)
	if ent != nil && ent.symlink && o.symlink && ent.id == o.id && ent.target == o.target {
		t.linked = linked // the same link as before
	}
	if ent == nil || ent.id != o.id {
		t.forgetLinks(o)
	}
	if err != nil || ent == nil || !ent.dir || ent.secret {
		t.forget(o.child)
		return ent, err
	}
	if o.child != nil && !o.child.gone && o.child.at == sub {
		ent.child = o.child
		return ent, t.refresh(ent.child, diff)
	}
	t.forget(o.child)
	child, err := t.node(n.childPath(o.name), sub, n.dev)
	if err != nil {
		return nil, err
	}
	ent.child = child
	return ent, nil
}

// eachNode calls fn on every node of t, in the order of the walk.
func (t *confineTree) eachNode(fn func(*confineNode)) {
	var visit func(n *confineNode)
	visit = func(n *confineNode) {
		fn(n)
		for _, e := range n.entries {
			if e.child != nil {
				visit(e.child)
			}
		}
	}
	for _, r := range t.roots {
		visit(r)
	}
}

// The tree's encoding, in the header's varints (confineWalkEnc): the
// roots' paths; the count of nodes; the table of the nodes, in the order of the walk; then
// each node's block of entries, in the same order. A node in the table is
// where it is (its parent's place in the table plus one, 0 for a root;
// its name), its flags, its stamp, the plant check's change time, its
// count of entries and the length of its block. An entry is its flags,
// its name, its identity (the device only where it is not its
// directory's; the inode as the difference from the entry before) and a
// link's target. A node whose stamp was taken too close to the walk
// (confineStampRacy) is marked racy, its stamp not trusted: the next
// process lists it again.
//
// The table is all a process that finds nothing changed reads: every
// directory's path and stamp, and for the plant check each block as
// bytes, read only when the command changes that directory. A name is
// written once: the plant check reads its names from the blocks, and a
// decoded tree's names are parts of one string of the blocks, its
// entries parts of one slice a node.

// The flags of a node in the table: stamped, with a stamp to trust;
// racy, stamped too close to the walk to be trusted; and the node's own.
const (
	treeNodeStamped = 1 << iota
	treeNodeUnlisted
	treeNodePlant
	treeNodeInGit
	treeNodeReadOnly
	treeNodeRacy
	treeNodeAll = 1<<iota - 1
)

// The flags of an entry in a block: the entry's own; child, a node of
// the table below it (the next one of the table not yet taken); otherDev,
// a device that is not its directory's, written after the name.
const (
	treeEntSymlink = 1 << iota
	treeEntDir
	treeEntSecret
	treeEntBind
	treeEntIDOK
	treeEntChild
	treeEntOtherDev
	treeEntAll = 1<<iota - 1
)

// confineTreeDir is one node of a tree's table, as decoded.
type confineTreeDir struct {
	path   string
	parent int // the parent's place in the table; -1 for a root
	name   string
	flags  uint64
	dev    uint64
	ino    uint64
	mtime  unix.Timespec
	ctime  unix.Timespec
	pctime unix.Timespec
	count  int
	// block is the node's entries as encoded, size bytes at off in the
	// tree's bytes.
	block []byte
	size  int
	off   int
}

// stamp is the directory's stamp as recorded.
func (d *confineTreeDir) stamp() confineDirStamp {
	return confineDirStamp{path: d.path, dev: d.dev, ino: d.ino, mtime: d.mtime, ctime: d.ctime}
}

// confineTreeEncode encodes t, its nodes stamped before start-racy
// stamped no more.
func confineTreeEncode(t *confineTree, start time.Time) []byte {
	var table, blocks confineWalkEnc
	// Ten bytes an entry, as a walk's names are.
	blocks.b = make([]byte, 0, 10*max(t.entries, 0))
	count := 0
	var node func(n *confineNode, parent int, name string)
	node = func(n *confineNode, parent int, name string) {
		at := count
		count++
		size := len(blocks.b)
		confineTreeEncodeBlock(&blocks, n)
		racy := n.stamped && confineStampRacy(confineDirStamp{ctime: n.ctime}, start)
		table.u(uint64(parent + 1))
		table.s(name)
		table.u(confineBit(n.stamped && !racy, treeNodeStamped) | confineBit(racy, treeNodeRacy) |
			confineBit(n.unlisted, treeNodeUnlisted) | confineBit(n.plant, treeNodePlant) |
			confineBit(n.at.inGit, treeNodeInGit) | confineBit(n.at.readOnly, treeNodeReadOnly))
		table.u(n.dev)
		table.u(n.ino)
		for _, ts := range [...]unix.Timespec{n.mtime, n.ctime, n.pctime} {
			table.i(ts.Sec)
			table.i(ts.Nsec)
		}
		table.u(uint64(len(n.entries)))
		table.u(uint64(len(blocks.b) - size))
		for _, x := range n.entries {
			if x.child != nil {
				node(x.child, at, x.name)
			}
		}
	}
	for _, r := range t.roots {
		node(r, -1, "")
	}
	var e confineWalkEnc
	e.b = make([]byte, 0, len(table.b)+len(blocks.b)+64)
	e.u(uint64(len(t.roots)))
	for _, r := range t.roots {
		e.s(r.path)
	}
	e.u(uint64(count))
	e.b = append(e.b, table.b...)
	e.b = append(e.b, blocks.b...)
	return e.b
}

// confineTreeEncodeBlock appends the block of n's entries to e.
func confineTreeEncodeBlock(e *confineWalkEnc, n *confineNode) {
	var prev uint64
	for _, x := range n.entries {
		other := x.id.Dev != n.dev
		e.u(confineBit(x.symlink, treeEntSymlink) | confineBit(x.dir, treeEntDir) | confineBit(x.secret, treeEntSecret) |
			confineBit(x.bind, treeEntBind) | confineBit(x.idOK, treeEntIDOK) | confineBit(x.child != nil, treeEntChild) |
			confineBit(other, treeEntOtherDev))
		e.s(x.name)
		if other {
			e.u(x.id.Dev)
		}
		e.i(int64(x.id.Ino - prev))
		prev = x.id.Ino
		if x.symlink {
			e.s(x.target)
		}
	}
}

// confineTreeTable decodes the table of what confineTreeEncode wrote of
// the roots roots, each node's block left as bytes; ok is false for
// anything else: roots that are not these, a parent that does not come
// before its child, a name that is not one, flags a walk does not make,
// blocks that are not the rest of the bytes.
func confineTreeTable(b []byte, roots []string) (dirs []confineTreeDir, ok bool) {
	d := &confineWalkDec{b: b}
	if d.n() != len(roots) {
		return nil, false
	}
	for _, root := range roots {
		if d.s() != root || d.bad {
			return nil, false
		}
	}
	// A node takes 13 bytes at least.
	count := d.n()
	if d.bad || count > len(d.b)/13 {
		return nil, false
	}
	dirs = make([]confineTreeDir, count)
	seen := 0
	for i := range dirs {
		if !confineTreeTableNode(d, dirs, i, roots, &seen) {
			return nil, false
		}
	}
	if seen != len(roots) {
		return nil, false
	}
	off := len(b) - len(d.b)
	for i := range dirs {
		x := &dirs[i]
		if x.size > len(d.b) {
			return nil, false
		}
		x.block, x.off = d.b[:x.size:x.size], off
		d.b, off = d.b[x.size:], off+x.size
	}
	return dirs, !d.bad && len(d.b) == 0
}

// confineTreeTableNode decodes the node i of the table into dirs[i],
// the roots seen so far counted in seen. The node's block is only
// measured: dirs[i].block has its length, not yet its bytes.
func confineTreeTableNode(d *confineWalkDec, dirs []confineTreeDir, i int, roots []string, seen *int) bool {
	x := &dirs[i]
	parent := d.u()
	if parent > uint64(i) {
		// A parent comes before its child.
		return false
	}
	x.parent = int(parent) - 1
	x.name = d.s()
	x.flags = d.u()
	x.dev, x.ino = d.u(), d.u()
	for _, ts := range []*unix.Timespec{&x.mtime, &x.ctime, &x.pctime} {
		*ts = unix.Timespec{Sec: d.i(), Nsec: d.i()}
	}
	x.count = d.n()
	size := d.n()
	if d.bad || x.flags&^treeNodeAll != 0 || x.flags&(treeNodeStamped|treeNodeRacy) == treeNodeStamped|treeNodeRacy ||
		(x.flags&treeNodeUnlisted != 0 && x.count > 0) {
		return false
	}
	switch {
	case x.parent < 0:
		if x.name != "" || *seen == len(roots) {
			return false
		}
		x.path = roots[*seen]
		*seen++
	case !confineTreeName(x.name):
		return false
	default:
		p := &dirs[x.parent]
		x.path = (&confineNode{path: p.path}).childPath(x.name)
	}
	// The block's bytes follow the table: its length for now. An entry
	// takes four bytes at least.
	x.size = size
	return x.count <= size/4
}

// confineTreeDecode decodes what confineTreeEncode wrote of the roots
// roots, with its count of entries; ok is false for anything else: a
// table that does not decode (confineTreeTable), a name that is not one,
// names out of order, flags a walk does not make, a node that is not
// below the entry of its name, a tree deeper than a walk goes.
func confineTreeDecode(b []byte, roots []string) (nodes []*confineNode, entries int, ok bool) {
	dirs, ok := confineTreeTable(b, roots)
	if !ok {
		return nil, 0, false
	}
	x := &confineTreeDec{dirs: dirs, all: string(b)}
	for range roots {
		if x.next >= len(dirs) || dirs[x.next].parent >= 0 {
			return nil, 0, false
		}
		x.next++
		n := x.node(x.next-1, 0)
		if n == nil {
			return nil, 0, false
		}
		nodes = append(nodes, n)
	}
	if x.next != len(dirs) {
		return nil, 0, false
	}
	return nodes, x.entries, true
}

// confineTreeDec decodes a tree from its table: the nodes in the order
// of the walk, next the place of the next one, the names parts of all,
// the tree's bytes.
type confineTreeDec struct {
	dirs    []confineTreeDir
	all     string
	next    int
	entries int
}

// node decodes the node i of the table, at depth, with its entries and
// the nodes below them; nil when they are not a walk's.
func (x *confineTreeDec) node(i, depth int) *confineNode {
	td := &x.dirs[i]
	if depth > confineTreeMaxDepth {
		return nil
	}
	n := &confineNode{path: td.path, dev: td.dev, ino: td.ino, mtime: td.mtime, ctime: td.ctime, pctime: td.pctime,
		stamped: td.flags&treeNodeStamped != 0, unlisted: td.flags&treeNodeUnlisted != 0, plant: td.flags&treeNodePlant != 0,
		at: confineWalkAt{inGit: td.flags&treeNodeInGit != 0, readOnly: td.flags&treeNodeReadOnly != 0}}
	if td.count == 0 {
		if len(td.block) != 0 {
			return nil
		}
		n.entries = []*confineEntry{}
		return n
	}
	// One allocation for the entries, one for the pointers to them.
	slab := make([]confineEntry, td.count)
	n.entries = make([]*confineEntry, td.count)
	k := confineTreeBlock{d: confineWalkDec{b: td.block}, all: x.all, end: td.off + len(td.block), dev: td.dev}
	for j := range slab {
		e := &slab[j]
		flags := k.entry(e)
		child := flags&treeEntChild != 0
		if k.d.bad || !confineTreeEntryOK(e, flags) || (j > 0 && slab[j-1].name >= e.name) {
			return nil
		}
		if child {
			c := x.next
			if c >= len(x.dirs) || x.dirs[c].parent != i || x.dirs[c].name != e.name {
				return nil
			}
			x.next++
			if e.child = x.node(c, depth+1); e.child == nil {
				return nil
			}
		}
		n.entries[j] = e
	}
	if len(k.d.b) != 0 {
		return nil
	}
	x.entries += td.count
	return n
}

// confineTreeEntryOK reports whether e, read with flags, is an entry a
// walk makes: a name that is one, a link with no other flag, a node
// exactly below a directory that may be granted.
func confineTreeEntryOK(e *confineEntry, flags uint64) bool {
	child := flags&treeEntChild != 0
	return flags&^treeEntAll == 0 && confineTreeName(e.name) &&
		(!e.symlink || flags&^treeEntOtherDev == treeEntSymlink) && child == (e.dir && !e.secret && !e.symlink)
}

// confineTreeBlock reads one node's block of entries: names are parts
// of all, which ends with the block at end, or copies when all is "".
type confineTreeBlock struct {
	d    confineWalkDec
	all  string
	end  int
	dev  uint64 // the directory's device
	prev uint64 // the inode of the entry before
}

// str reads a string of the block.
func (k *confineTreeBlock) str() string {
	n := k.d.n()
	if k.d.bad {
		return ""
	}
	var v string
	if k.all != "" {
		at := k.end - len(k.d.b)
		v = k.all[at : at+n]
	} else {
		v = string(k.d.b[:n])
	}
	k.d.b = k.d.b[n:]
	return v
}

// entry reads the next entry into e and returns its flags.
func (k *confineTreeBlock) entry(e *confineEntry) uint64 {
	flags := k.d.u()
	e.name = k.str()
	e.id.Dev = k.dev
	if flags&treeEntOtherDev != 0 {
		e.id.Dev = k.d.u()
	}
	k.prev += uint64(k.d.i())
	e.id.Ino = k.prev
	e.symlink, e.dir, e.secret = flags&treeEntSymlink != 0, flags&treeEntDir != 0, flags&treeEntSecret != 0
	e.bind, e.idOK = flags&treeEntBind != 0, flags&treeEntIDOK != 0
	if e.symlink {
		e.target = k.str()
	}
	return flags
}

// confineTreePlantNames are the names of the entries of block, a block
// of a directory on device dev, as the plant check keeps them; ok is
// false when the block does not decode.
func confineTreePlantNames(block []byte, dev uint64) ([]confinePlantName, bool) {
	k := confineTreeBlock{d: confineWalkDec{b: block}, dev: dev}
	var names []confinePlantName
	for len(k.d.b) > 0 {
		var e confineEntry
		flags := k.entry(&e)
		if k.d.bad || !confineTreeEntryOK(&e, flags) {
			return nil, false
		}
		pn := confinePlantName{name: e.name, dir: e.dir && !e.symlink}
		if pn.dir {
			pn.id = e.id
		}
		names = append(names, pn)
	}
	return names, true
}

// confineTreeName reports whether s can be the name of a directory's
// entry.
func confineTreeName(s string) bool {
	return s != "" && s != "." && s != ".." && strings.IndexByte(s, '/') < 0 && strings.IndexByte(s, 0) < 0
}

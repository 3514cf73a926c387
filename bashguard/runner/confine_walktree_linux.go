//go:build linux

package runner

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// The walk kept between processes, walked again where it changed. A
// walk file (confine_walkfile_linux.go) holds, besides what a run needs
// when nothing changed, the walk itself as the kept tree of a Shell
// holds it (confine_facts_linux.go): every directory listed, with its
// stamp, and every entry judged. A later process that finds a directory
// changed does not walk the roots again: it takes the tree from the
// file, stats every directory in it, lists again only those whose stamp
// moved (judging their new entries, walking their new directories,
// forgetting what went away), judges again the entries whose identity
// joined or left the recorded secrets' identities, and makes the rules,
// the binds, the count, the hidden identities and the plant snapshot
// from the result, as the kept tree of a Shell does after its events.
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
	// dirs are the directories listed, for the record and the plant
	// snapshot, their names in names (confineWalkDirs).
	dirs  []confineWalkDir
	names []byte
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
	var names bytes.Buffer
	r.dirs = confineWalkDirs(r.tree, r.start, &names)
	r.names = names.Bytes()
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

// confinePlantNames are the names of n's entries as the plant check
// keeps them.
func confinePlantNames(n *confineNode) []confinePlantName {
	names := make([]confinePlantName, 0, len(n.entries))
	for _, e := range n.entries {
		pn := confinePlantName{name: e.name, dir: e.dir && !e.symlink}
		if pn.dir {
			pn.id = e.id
		}
		names = append(names, pn)
	}
	return names
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

// The tree's encoding, in the header's varints (confineWalkEnc): each
// root's path and node; a node is its flags, its stamp, the plant
// check's change time, its entries; an entry is its name, its flags, its
// identity, and the node of a directory that may be granted. A node whose
// stamp was taken too close to the walk (confineStampRacy) is written
// without it, and listed again by the next process.

const (
	treeNodeStamped = 1 << iota
	treeNodeUnlisted
	treeNodePlant
	treeNodeInGit
	treeNodeReadOnly
	treeNodeAll = 1<<iota - 1
)

const (
	treeEntSymlink = 1 << iota
	treeEntDir
	treeEntSecret
	treeEntBind
	treeEntIDOK
	treeEntChild
	treeEntAll = 1<<iota - 1
)

// confineTreeEncode encodes t, its nodes stamped before start-racy
// stamped no more.
func confineTreeEncode(t *confineTree, start time.Time) []byte {
	var e confineWalkEnc
	var node func(n *confineNode)
	node = func(n *confineNode) {
		stamped := n.stamped && !confineStampRacy(confineDirStamp{ctime: n.ctime}, start)
		e.u(confineBit(stamped, treeNodeStamped) | confineBit(n.unlisted, treeNodeUnlisted) | confineBit(n.plant, treeNodePlant) |
			confineBit(n.at.inGit, treeNodeInGit) | confineBit(n.at.readOnly, treeNodeReadOnly))
		e.u(n.dev)
		e.u(n.ino)
		e.i(n.mtime.Sec)
		e.i(n.mtime.Nsec)
		e.i(n.ctime.Sec)
		e.i(n.ctime.Nsec)
		e.i(n.pctime.Sec)
		e.i(n.pctime.Nsec)
		e.u(uint64(len(n.entries)))
		for _, x := range n.entries {
			e.s(x.name)
			e.u(confineBit(x.symlink, treeEntSymlink) | confineBit(x.dir, treeEntDir) | confineBit(x.secret, treeEntSecret) |
				confineBit(x.bind, treeEntBind) | confineBit(x.idOK, treeEntIDOK) | confineBit(x.child != nil, treeEntChild))
			e.u(x.id.Dev)
			e.u(x.id.Ino)
			if x.symlink {
				e.s(x.target)
			}
			if x.child != nil {
				node(x.child)
			}
		}
	}
	e.u(uint64(len(t.roots)))
	for _, r := range t.roots {
		e.s(r.path)
		node(r)
	}
	return e.b
}

// confineTreeDecode decodes what confineTreeEncode wrote of the roots
// roots, with its count of entries; ok is false for anything else: a
// name that is not one, names out of order, flags a walk does not make,
// a tree deeper than a walk goes.
func confineTreeDecode(b []byte, roots []string) (nodes []*confineNode, entries int, ok bool) {
	d := &confineWalkDec{b: b}
	var node func(path string, depth int) *confineNode
	node = func(path string, depth int) *confineNode {
		if depth > confineTreeMaxDepth {
			d.bad, d.b = true, nil
			return nil
		}
		n := &confineNode{path: path}
		flags := d.u()
		n.stamped, n.unlisted, n.plant = flags&treeNodeStamped != 0, flags&treeNodeUnlisted != 0, flags&treeNodePlant != 0
		n.at = confineWalkAt{inGit: flags&treeNodeInGit != 0, readOnly: flags&treeNodeReadOnly != 0}
		n.dev, n.ino = d.u(), d.u()
		n.mtime = unix.Timespec{Sec: d.i(), Nsec: d.i()}
		n.ctime = unix.Timespec{Sec: d.i(), Nsec: d.i()}
		n.pctime = unix.Timespec{Sec: d.i(), Nsec: d.i()}
		count := d.n()
		if flags&^treeNodeAll != 0 || (n.unlisted && count > 0) {
			d.bad, d.b = true, nil
			return nil
		}
		n.entries = make([]*confineEntry, 0, count)
		for k := range count {
			e := &confineEntry{name: d.s()}
			ef := d.u()
			e.id = confineIdentity{Dev: d.u(), Ino: d.u()}
			e.symlink, e.dir, e.secret = ef&treeEntSymlink != 0, ef&treeEntDir != 0, ef&treeEntSecret != 0
			e.bind, e.idOK = ef&treeEntBind != 0, ef&treeEntIDOK != 0
			child := ef&treeEntChild != 0
			if e.symlink {
				e.target = d.s()
			}
			if d.bad || ef&^treeEntAll != 0 || !confineTreeName(e.name) || (k > 0 && n.entries[k-1].name >= e.name) ||
				(e.symlink && ef != treeEntSymlink) || child != (e.dir && !e.secret && !e.symlink) {
				d.bad, d.b = true, nil
				return nil
			}
			if child {
				if e.child = node(n.childPath(e.name), depth+1); e.child == nil {
					return nil
				}
			}
			entries++
			n.entries = append(n.entries, e)
		}
		return n
	}
	if d.n() != len(roots) {
		return nil, 0, false
	}
	for _, root := range roots {
		if d.s() != root || d.bad {
			return nil, 0, false
		}
		n := node(root, 0)
		if n == nil {
			return nil, 0, false
		}
		nodes = append(nodes, n)
	}
	if d.bad || len(d.b) != 0 {
		return nil, 0, false
	}
	return nodes, entries, true
}

// confineTreeName reports whether s can be the name of a directory's
// entry.
func confineTreeName(s string) bool {
	return s != "" && s != "." && s != ".." && !strings.ContainsAny(s, "/\x00")
}

// confineWalkDirs are the stamps of the directories t listed, for the
// record, in the order of the walk, with each one's plant record.
func confineWalkDirs(t *confineTree, start time.Time, names *bytes.Buffer) []confineWalkDir {
	var dirs []confineWalkDir
	t.eachNode(func(n *confineNode) {
		if !n.stamped {
			return
		}
		s := confineDirStamp{path: n.path, dev: n.dev, ino: n.ino, mtime: n.mtime, ctime: n.ctime}
		d := confineWalkDir{P: n.path, S: stampPack(s)}
		if confineStampRacy(s, start) {
			// A directory changed within the file system's clock tick
			// of the walk could change again with the same stamp: the
			// record holds a stamp no directory has, and the next
			// process lists it again.
			d.S = [6]int64{}
		}
		if !n.unlisted && n.plant && !n.at.readOnly {
			d.Plant, d.Git, d.C, d.ID, d.Off = true, n.at.inGit, [2]int64{n.pctime.Sec, n.pctime.Nsec}, [2]uint64{n.dev, n.ino}, names.Len()
			confinePlantPack(names, confinePlantNames(n))
			d.Len = names.Len() - d.Off
		}
		dirs = append(dirs, d)
	})
	return dirs
}

//go:build linux

package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/permission"
)

// Workspace facts once per session. The walk for secret and protected
// paths (confineWalk) is done once per [Shell] and kept up to date by
// inotify watches on every directory it listed: at each run the runner
// reads the events queued since the last one and judges again only the
// entries they name (a directory that appeared is walked, one that went
// away is forgotten). From the walk it builds the Landlock ruleset once,
// in the runner, and hands the launcher its descriptor, so a run opens no
// path of the roots; the ruleset is built again only when the rules
// change. The run's private temporary directory, which changes every
// run, is not in the ruleset: the ruleset grants an empty directory of
// the Shell (the slot), and the launcher's mount namespace binds the
// run's directory onto it.
//
// Where the facts cannot be kept (no inotify, too few watches, a file
// system whose changes inotify may miss, a mount table that changed, a
// queue that overflowed), the runner walks again: per run where it must,
// as before.

// confineFacts is what a Shell keeps between runs; the zero value is
// empty. Its methods hold mu.
type confineFacts struct {
	mu sync.Mutex
	// key and checker are the configuration the tree was built for.
	key     string
	checker bashguard.PathChecker
	tree    *confineTree
	cleanup runtime.Cleanup // closes tree once the facts are gone
	// unwatched, when not empty, is the key of a configuration whose
	// roots cannot be watched: it is walked per run.
	unwatched string
	// ns caches the namespace probe, by newNet.
	ns map[bool]string
	// walked counts the runs walked per run before the facts were kept:
	// a Shell's first run walks as a one-shot process must (toolgate
	// check runs one command a process), so that neither the watches nor
	// the slot are made for a Shell that never runs again; the facts are
	// kept from its second run on.
	walked int
	// plants are the snapshots of the runs still going that refer to
	// the tree's nodes (confine_plant_linux.go).
	plants []*confinePlantSnap
	// grants are the read-only grants' walks (confine_grants_linux.go),
	// under a lock of their own.
	grants confineGrants
}

// drop closes the kept tree.
func (f *confineFacts) drop() {
	if f.tree != nil {
		f.cleanup.Stop()
		f.tree.close()
		f.tree = nil
	}
}

// confineTree is a walk of the roots kept current by inotify, and the
// rules, binds and ruleset made from it.
type confineTree struct {
	inotify int // -1: none
	mounts  int // /proc/self/mountinfo, polled for changes; -1: none
	roots   []*confineNode
	byWD    map[int32]*confineNode
	w       confineWalk // the checker, names, known identities, limit
	entries int
	buf     []byte // for the events
	// kept marks a tree kept in the walk file between processes
	// (confine_walktree_linux.go): it has no watches, and its nodes
	// carry the stamps that revalidate them.
	kept bool
	// relisted counts the directories a kept tree listed again.
	relisted int
	// links, while a kept tree is brought up to date, holds the
	// identities of the files whose count of links may have changed
	// since the record: a name of theirs made, judged again or gone. The
	// checker judges a file with several names by its other names, so
	// every name of these is judged again (refreshAll).
	links map[confineIdentity]bool
	// linked notes, at the same time, that a symbolic link was made,
	// judged again or gone: the checker judges what a link of a
	// protected or secret name reaches as what it names, wherever that
	// is, so the tree is walked from scratch.
	linked bool

	// Made from the tree; rules excludes the temporary directory.
	rules   []confineRule
	binds   []string
	covers  []string
	secrets int
	hidden  []confineIdentity
	saved   []confineIdentity // last written to the IdentityFile

	ruleset      int // -1: not built
	rulesetFlags uint32
	rulesetKey   string
	gen          uint64 // counts the changes of rules
	// hiddenRules caches confineRulesHidden for hiddenKey.
	hiddenKey   string
	hiddenRules bool
	slot        string // the directory the ruleset grants for TMPDIR
	// emitting holds, while emitNode runs, the rules of the entries whose
	// paths are made only if the rules stay.
	emitting []confineEmitting
}

// confineEmitting is a rule of emitNode's, at in the rules, for the entry
// name of the directory being emitted.
type confineEmitting struct {
	at   int
	name string
}

// confineNode is a directory of the walk.
type confineNode struct {
	path     string
	at       confineWalkAt
	wd       int32
	dev      uint64
	ino      uint64
	unlisted bool            // could not be listed: not granted
	gone     bool            // forgotten since the event was queued
	entries  []*confineEntry // sorted by name
	// In a kept tree: the stamp taken before the listing (stamped is
	// false where there is none, or where it cannot be trusted, and
	// the directory is listed again), and the change time after it, for
	// the plant check (plant is false where it could not be read).
	stamped, plant bool
	mtime, ctime   unix.Timespec
	pctime         unix.Timespec
}

// confineEntry is one judged entry of a directory.
type confineEntry struct {
	name string
	// target is, in a kept tree, what a symbolic link holds.
	target string
	// id is the entry's identity: of every entry when idOK (the
	// identities are recorded), else, in a kept tree, of a directory.
	id      confineIdentity
	child   *confineNode // a directory that is not secret
	idOK    bool
	symlink bool
	dir     bool
	secret  bool
	bind    bool
}

// confineWatchMask is every change to a directory's entries, their
// contents, modes and link counts, and to the directory itself.
const confineWatchMask = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MOVED_FROM | unix.IN_MOVED_TO |
	unix.IN_MODIFY | unix.IN_CLOSE_WRITE | unix.IN_ATTRIB | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF |
	unix.IN_ONLYDIR | unix.IN_DONT_FOLLOW

// confineWatchedFS are the file systems whose every change inotify sees
// (local ones; a network or FUSE file system changes without events).
var confineWatchedFS = map[int64]bool{
	0xEF53:     true, // ext2, ext3, ext4
	0x58465342: true, // xfs
	0x9123683E: true, // btrfs
	0x01021994: true, // tmpfs
	0xF2F52010: true, // f2fs
}

// errConfineUnwatched says that the tree cannot be kept current: the
// runner walks per run instead.
var errConfineUnwatched = errors.New("the roots cannot be watched")

// confineFactsKey is the configuration a tree depends on.
func confineFactsKey(c runConfig) string {
	k := c.confine
	return fmt.Sprintf("%q|%q|%q|%d|%v", c.roots, k.Protect, k.IdentityFile, k.MaxWalk, k.ReadSecrets)
}

// sameChecker reports whether a and b are the same checker.
func sameChecker(a, b bashguard.PathChecker) bool {
	if a == nil || b == nil {
		return a == b
	}
	ta, tb := reflect.TypeOf(a), reflect.TypeOf(b)
	if ta != tb {
		return false
	}
	if ta.Comparable() {
		return a == b
	}
	return reflect.DeepEqual(a, b)
}

// nsProbe is the namespace probe, cached: the kernel's answer does not
// change within a session (and where it does, the launcher, which needs
// the namespaces, fails closed).
func (f *confineFacts) nsProbe(probe func(bool) string, newNet bool) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if why, ok := f.ns[newNet]; ok {
		return why
	}
	why := probe(newNet)
	if f.ns == nil {
		f.ns = map[bool]string{}
	}
	f.ns[newNet] = why
	return why
}

// prepare is confinePrepare from the kept facts: the plan carries the
// ruleset's descriptor instead of the rules, and the binds of the kept
// walk. It returns the ruleset, a descriptor the caller closes once the
// launcher has it; or, when the facts are not kept for this run (the
// first, or roots that cannot be watched), perRun and nothing else: the
// caller prepares the plan of a walk for this run (confinePrepare).
func (f *confineFacts) prepare(c runConfig, abi int, tmp string) (plan confinePlan, lvl ConfineLevel, ruleset int, perRun bool, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.plantsFill() // the runs still going keep the tree as they began
	key := confineFactsKey(c)
	if f.tree != nil && (f.key != key || !sameChecker(f.checker, c.checker)) {
		f.drop()
	}
	if f.tree != nil {
		if err := f.tree.update(); err != nil {
			f.drop()
			if !errors.Is(err, errConfineUnwatched) {
				return confinePlan{}, ConfineLevel{}, -1, false, err
			}
		}
	}
	if f.tree == nil && f.walked == 0 {
		f.walked++
		return confinePlan{}, ConfineLevel{}, -1, true, nil
	}
	if f.tree == nil {
		if f.unwatched == key {
			return confinePlan{}, ConfineLevel{}, -1, true, nil
		}
		t, err := confineBuildTree(c)
		if errors.Is(err, errConfineUnwatched) {
			f.unwatched = key
			return confinePlan{}, ConfineLevel{}, -1, true, nil
		}
		if err != nil {
			return confinePlan{}, ConfineLevel{}, -1, false, err
		}
		f.tree, f.key, f.checker = t, key, c.checker
		// The descriptors and the slot go with the facts.
		f.cleanup = runtime.AddCleanup(f, func(t *confineTree) { t.close() }, t)
	}
	t := f.tree
	if err := t.saveIdentities(c); err != nil {
		return confinePlan{}, ConfineLevel{}, -1, false, err
	}
	p, lvl := confinePlanBase(c, abi, tmp)
	p.Binds, p.Covers = t.binds, t.covers
	p.plants = f.plantSnap(c.roots)
	lvl.Secrets += t.secrets
	hiddenKey := fmt.Sprintf("%d|%q|%v", t.gen, p.Hidden, p.Rules)
	if t.hiddenKey != hiddenKey {
		t.hiddenKey, t.hiddenRules = hiddenKey, confineRulesHidden(p.Hidden, p.Rules, t.rules)
	}
	if t.hiddenRules {
		// A granted location that the mount namespace covers is granted
		// as what covers it, which only the launcher can open: it makes
		// the ruleset, from the kept rules.
		p.Rules = append(append(p.Rules, confineRule{Path: tmp, Access: confineAll}), t.rules...)
		return p, lvl, -1, false, nil
	}
	// The run's own entry of the slot, where its directory is bound.
	mount := t.slot + "/" + filepath.Base(tmp)
	if err := os.Mkdir(mount, 0o755); err != nil {
		return p, lvl, -1, false, fmt.Errorf("%w: private temporary directory: %w", ErrConfineFailed, err)
	}
	if err := t.buildRuleset(p); err != nil {
		os.Remove(mount)
		return p, lvl, -1, false, err
	}
	// The caller's own descriptor: a later run may replace the kept one
	// before this run's launcher has it.
	fd, err := unix.FcntlInt(uintptr(t.ruleset), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		os.Remove(mount)
		return p, lvl, -1, false, fmt.Errorf("%w: %w", ErrConfineFailed, err)
	}
	p.Rules = nil
	p.Ruleset = true
	p.RulesetFlags = t.rulesetFlags
	p.TmpBind = [2]string{tmp, mount}
	return p, lvl, fd, false, nil
}

// confineBuildTree walks the roots, watching every directory it lists.
func confineBuildTree(c runConfig) (*confineTree, error) {
	t := newConfineTree(c)
	var err error
	if t.inotify, err = unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC); err != nil {
		return nil, fmt.Errorf("%w: inotify: %w", errConfineUnwatched, err)
	}
	if t.mounts, err = unix.Open("/proc/self/mountinfo", unix.O_RDONLY|unix.O_CLOEXEC, 0); err != nil {
		t.close()
		return nil, fmt.Errorf("%w: %w", errConfineUnwatched, err)
	}
	t.mountsChanged() // the first poll reports the table as it is
	for _, root := range c.roots {
		n, err := t.node(root, confineWalkAt{}, 0)
		if errors.Is(err, errConfineWalkBudget) {
			err = t.budgetError()
		}
		if err != nil {
			t.close()
			return nil, err
		}
		t.roots = append(t.roots, n)
	}
	// The slot is what the ruleset grants; the mount namespace binds it
	// read-only, and the run's directory onto the run's own entry in it
	// (a rule on the directory a mount covers would not count; the
	// entries of other runs are empty directories there).
	slot, err := os.MkdirTemp("", "toolgate-tmp-")
	if err == nil {
		t.slot = slot
		err = os.Chmod(slot, 0o755)
	}
	if err != nil {
		t.close()
		return nil, fmt.Errorf("%w: private temporary directory: %w", ErrConfineFailed, err)
	}
	t.emit()
	return t, nil
}

// newConfineTree is an empty tree for c's roots, without descriptors:
// the walk's checker, names, limit and the recorded identities.
func newConfineTree(c runConfig) *confineTree {
	t := &confineTree{inotify: -1, mounts: -1, ruleset: -1, byWD: map[int32]*confineNode{}}
	t.w = confineWalk{checker: c.checker, limit: c.confine.MaxWalk, names: map[string]bool{}}
	for _, name := range c.confine.Protect {
		t.w.names[name] = true
	}
	if t.w.limit == 0 {
		t.w.limit = ConfineMaxWalk
	}
	if c.confine.IdentityFile != "" {
		t.w.known = confineLoadIdentities(c.confine.IdentityFile)
	}
	t.w.cover = !c.confine.ReadSecrets && confineCoverable(c.roots)
	return t
}

// budgetError is the error of a walk that met more than MaxWalk
// entries.
func (t *confineTree) budgetError() error {
	return fmt.Errorf("%w: the roots hold more than %d entries, too many to find their secret paths (see Confinement.MaxWalk and ReadSecrets)", ErrConfineFailed, t.w.limit)
}

// close releases the descriptors and the slot.
func (t *confineTree) close() {
	for _, fd := range []*int{&t.inotify, &t.mounts, &t.ruleset} {
		if *fd >= 0 {
			unix.Close(*fd)
			*fd = -1
		}
	}
	if t.slot != "" {
		os.RemoveAll(t.slot)
		t.slot = ""
	}
}

// mountsChanged reports whether the mount table changed since the last
// call (the kernel marks /proc/self/mountinfo with POLLPRI).
func (t *confineTree) mountsChanged() bool {
	fds := []unix.PollFd{{Fd: int32(t.mounts), Events: unix.POLLPRI}}
	if _, err := unix.Poll(fds, 0); err != nil {
		return true
	}
	if fds[0].Revents&(unix.POLLPRI|unix.POLLERR) == 0 {
		return false
	}
	// Reading to the end clears the mark.
	var buf [16 << 10]byte
	_, _ = unix.Seek(t.mounts, 0, 0)
	for {
		k, err := unix.Read(t.mounts, buf[:])
		if k <= 0 || err != nil {
			break
		}
	}
	return true
}

// node watches and lists dir and judges its entries, as confineWalk.walk
// does; parentDev is the device of the directory above (0 for a root).
func (t *confineTree) node(dir string, at confineWalkAt, parentDev uint64) (*confineNode, error) {
	n := &confineNode{path: dir, at: at}
	var st unix.Stat_t
	if err := unix.Lstat(dir, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR {
		n.unlisted = true
		return n, nil
	}
	n.dev, n.ino = uint64(st.Dev), st.Ino
	if t.kept {
		return n, t.list(n)
	}
	if n.dev != parentDev {
		var sfs unix.Statfs_t
		if err := unix.Statfs(dir, &sfs); err != nil || !confineWatchedFS[int64(sfs.Type)] {
			return nil, fmt.Errorf("%w: %s is on a file system whose changes inotify may not see", errConfineUnwatched, dir)
		}
	}
	wd, err := unix.InotifyAddWatch(t.inotify, dir, confineWatchMask)
	if err != nil {
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.EACCES) || errors.Is(err, unix.ENOTDIR) {
			n.unlisted = true
			return n, nil
		}
		return nil, fmt.Errorf("%w: watching %s: %w", errConfineUnwatched, dir, err)
	}
	if _, dup := t.byWD[int32(wd)]; dup {
		// The same directory twice (a bind mount): one watch cannot
		// serve both.
		return nil, fmt.Errorf("%w: %s is reached twice", errConfineUnwatched, dir)
	}
	n.wd = int32(wd)
	t.byWD[n.wd] = n
	return n, t.list(n)
}

// list lists n and judges its entries. In a kept tree it first stamps n
// (n's identity was just read: its times are read again with it, as
// the walk per run stamps a directory before it lists it), and after
// the listing reads the change time the plant check starts from.
func (t *confineTree) list(n *confineNode) error {
	return t.listWith(n, func(e fs.DirEntry) (*confineEntry, error) { return t.judge(n, e.Name(), e) })
}

// judge judges the entry name of n (e, when the listing gave it; else it
// is looked up), and walks it when it is a directory that may be
// granted. It returns nil for an entry that is gone.
func (t *confineTree) judge(n *confineNode, name string, e fs.DirEntry) (*confineEntry, error) {
	ent, sub, err := t.judgeEntry(n, name, e)
	if err != nil || ent == nil || !ent.dir || ent.secret {
		return ent, err
	}
	child, err := t.node(n.childPath(name), sub, n.dev)
	if err != nil {
		return nil, err
	}
	ent.child = child
	return ent, nil
}

// childPath is the path of n's entry name.
func (n *confineNode) childPath(name string) string {
	if n.path == "/" {
		return "/" + name
	}
	return n.path + "/" + name
}

// judgeEntry judges the entry name of n as judge does, without walking
// it, and says where the walk is below it.
func (t *confineTree) judgeEntry(n *confineNode, name string, e fs.DirEntry) (*confineEntry, confineWalkAt, error) {
	if t.entries++; t.entries > t.w.limit {
		return nil, confineWalkAt{}, errConfineWalkBudget
	}
	path := n.childPath(name)
	if e == nil {
		var st unix.Stat_t
		if err := unix.Lstat(path, &st); err != nil {
			t.entries--
			return nil, confineWalkAt{}, nil
		}
		e = fs.FileInfoToDirEntry(confineStatInfo{name, st})
	}
	ent := &confineEntry{name: name}
	typ := e.Type()
	if typ&fs.ModeSymlink != 0 {
		ent.symlink = true
		if t.kept {
			ent.id, _, _ = confineIdentityLinks(e)
			ent.target, _ = os.Readlink(path)
			t.linked = t.linked || t.links != nil
		}
		return ent, confineWalkAt{}, nil
	}
	ent.dir = typ.IsDir()
	before := len(t.w.binds)
	sub := t.w.protect(path, name, ent.dir, n.at)
	ent.bind = len(t.w.binds) > before
	t.w.binds = t.w.binds[:0]
	if t.kept {
		id, nlink, ok := confineIdentityLinks(e)
		ent.id, ent.idOK = id, ok && t.w.known != nil
		if t.links != nil && !ent.dir && nlink > 1 {
			t.links[id] = true
		}
	} else if t.w.known != nil {
		ent.id, ent.idOK = confineIdentityOf(e)
	}
	if d, _ := runCheckEntry(t.w.checker, n.path, name, false); d != permission.Allow || (ent.idOK && t.w.known[ent.id]) {
		ent.secret = true
	}
	return ent, sub, nil
}

// confineStatInfo is a Stat_t as an fs.FileInfo, for an entry that was
// looked up rather than listed.
type confineStatInfo struct {
	name string
	st   unix.Stat_t
}

func (i confineStatInfo) Name() string { return i.name }
func (i confineStatInfo) Size() int64  { return i.st.Size }
func (i confineStatInfo) Mode() fs.FileMode {
	m := fs.FileMode(i.st.Mode & 0o777)
	switch i.st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		m |= fs.ModeDir
	case unix.S_IFLNK:
		m |= fs.ModeSymlink
	case unix.S_IFIFO:
		m |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		m |= fs.ModeSocket
	case unix.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		m |= fs.ModeDevice
	}
	return m
}
func (i confineStatInfo) ModTime() time.Time { return time.Unix(i.st.Mtim.Unix()) }
func (i confineStatInfo) IsDir() bool        { return i.Mode().IsDir() }
func (i confineStatInfo) Sys() any           { return &syscall.Stat_t{Dev: i.st.Dev, Ino: i.st.Ino} }

// forget drops the watches of n and of every directory below it.
func (t *confineTree) forget(n *confineNode) {
	if n == nil || n.gone {
		return
	}
	n.gone = true
	if n.wd > 0 {
		if t.byWD[n.wd] == n {
			delete(t.byWD, n.wd)
			_, _ = unix.InotifyRmWatch(t.inotify, uint32(n.wd))
		}
	}
	for _, e := range n.entries {
		t.entries--
		t.forgetLinks(e)
		t.forget(e.child)
	}
}

// forgetLinks notes, in a kept tree being brought up to date, that the
// file e names lost that name.
func (t *confineTree) forgetLinks(e *confineEntry) {
	switch {
	case t.links == nil:
	case e.symlink:
		t.linked = true
	case !e.dir:
		t.links[e.id] = true
	}
}

// confinePending is an entry an event named.
type confinePending struct {
	n    *confineNode
	name string
}

// update reads the queued events and judges again the entries they
// name; the rules are made again when anything changed.
func (t *confineTree) update() error {
	if t.mountsChanged() {
		return fmt.Errorf("%w: the mount table changed", errConfineUnwatched)
	}
	if err := t.rootsInPlace(); err != nil {
		return err
	}
	pending, err := t.readEvents()
	if err != nil || len(pending) == 0 {
		return err
	}
	// First forget what is gone or replaced, so that a directory moved
	// within the roots is watched afresh under its new name.
	for _, p := range pending {
		t.forgetPending(p)
	}
	for _, p := range pending {
		if err := t.judgePending(p); err != nil {
			return err
		}
	}
	t.emit()
	return nil
}

// rootsInPlace reports a root that is no longer the directory the tree
// was made from.
func (t *confineTree) rootsInPlace() error {
	for _, r := range t.roots {
		var st unix.Stat_t
		if err := unix.Lstat(r.path, &st); err != nil || uint64(st.Dev) != r.dev || st.Ino != r.ino {
			return fmt.Errorf("%w: the root %s was replaced", errConfineUnwatched, r.path)
		}
	}
	return nil
}

// readEvents reads every queued inotify event and returns the entries
// they name, each once, in the order first named.
func (t *confineTree) readEvents() ([]confinePending, error) {
	var pending []confinePending
	seen := map[confinePending]bool{}
	if t.buf == nil {
		t.buf = make([]byte, 64<<10)
	}
	for {
		k, err := unix.Read(t.inotify, t.buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if errors.Is(err, unix.EAGAIN) || k == 0 {
			return pending, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%w: reading inotify: %w", errConfineUnwatched, err)
		}
		if pending, err = t.parseEvents(t.buf[:k], seen, pending); err != nil {
			return nil, err
		}
	}
}

// parseEvents appends to pending the entries the events in buf name and
// seen does not hold yet.
func (t *confineTree) parseEvents(buf []byte, seen map[confinePending]bool, pending []confinePending) ([]confinePending, error) {
	for off := 0; off+unix.SizeofInotifyEvent <= len(buf); {
		ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
		nameBytes := buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(ev.Len)]
		off += unix.SizeofInotifyEvent + int(ev.Len)
		if ev.Mask&unix.IN_Q_OVERFLOW != 0 {
			return nil, fmt.Errorf("%w: the event queue overflowed", errConfineUnwatched)
		}
		n := t.byWD[ev.Wd]
		if n == nil {
			continue
		}
		name := strings.TrimRight(string(nameBytes), "\x00")
		if name == "" {
			if ev.Mask&(unix.IN_DELETE_SELF|unix.IN_MOVE_SELF) != 0 && slices.Contains(t.roots, n) {
				return nil, fmt.Errorf("%w: the root %s moved", errConfineUnwatched, n.path)
			}
			continue // the directory above has its own event
		}
		p := confinePending{n, name}
		if !seen[p] {
			seen[p] = true
			pending = append(pending, p)
		}
	}
	return pending, nil
}

// pendingIndex is where the entry p names is, or would be, in its
// directory's sorted entries, and whether it is there.
func pendingIndex(p confinePending) (int, bool) {
	return slices.BinarySearchFunc(p.n.entries, p.name, func(e *confineEntry, name string) int { return strings.Compare(e.name, name) })
}

// forgetPending drops the entry p names, and the watches below it.
func (t *confineTree) forgetPending(p confinePending) {
	if p.n.gone {
		return
	}
	i, ok := pendingIndex(p)
	if !ok {
		return
	}
	e := p.n.entries[i]
	t.entries--
	t.forget(e.child)
	p.n.entries = slices.Delete(p.n.entries, i, i+1)
}

// judgePending judges the entry p names afresh and puts it in its
// directory, unless it was judged already (the same name twice).
func (t *confineTree) judgePending(p confinePending) error {
	if p.n.gone {
		return nil
	}
	i, ok := pendingIndex(p)
	if ok {
		return nil // judged already (the same name twice)
	}
	e, err := t.judge(p.n, p.name, nil)
	if errors.Is(err, errConfineWalkBudget) {
		return t.budgetError()
	}
	if err != nil {
		return err
	}
	if e != nil {
		p.n.entries = slices.Insert(p.n.entries, i, e)
	}
	return nil
}

// emit makes the rules, binds, count and identities from the tree, as
// confineWalk does.
func (t *confineTree) emit() {
	old := t.rules
	t.rules, t.binds, t.covers, t.secrets, t.hidden = make([]confineRule, 0, len(old)), nil, nil, 0, nil
	for _, r := range t.roots {
		if !t.emitNode(r) {
			t.rules = append(t.rules, confineRule{Path: r.path, Access: confineAll})
		}
	}
	if t.gen == 0 || !slices.Equal(old, t.rules) {
		t.gen++
	}
	if t.w.known != nil {
		// Exactly what this walk hides, as a walk per run records it:
		// a secret renamed since stays hidden by its identity.
		t.w.known = make(map[confineIdentity]bool, len(t.hidden))
		for _, id := range t.hidden {
			t.w.known[id] = true
		}
	}
}

func (t *confineTree) emitNode(n *confineNode) (secretBelow bool) {
	if n.unlisted {
		return true
	}
	start, own := len(t.rules), len(t.emitting)
	for _, e := range n.entries {
		if e.symlink {
			continue
		}
		if e.secret {
			t.secrets++
			if e.idOK {
				t.hidden = append(t.hidden, e.id)
			}
			if t.w.cover && (e.bind || n.at.readOnly) {
				// Covered in the mount namespace (confine_cover_linux.go).
				t.covers = append(t.covers, n.childPath(e.name))
				continue
			}
			if e.bind {
				t.binds = append(t.binds, n.childPath(e.name))
			}
			secretBelow = true
			continue
		}
		if e.bind {
			t.binds = append(t.binds, n.childPath(e.name))
		}
		var access uint64 = confineAll & confineFileRights
		if e.dir {
			if t.emitNode(e.child) {
				secretBelow = true
				continue
			}
			access = confineAll
		}
		// The path is made below, if the rule stays: most directories
		// hold no secret, and their rules give way to their parent's.
		t.emitting = append(t.emitting, confineEmitting{at: len(t.rules), name: e.name})
		t.rules = append(t.rules, confineRule{Access: access})
	}
	mine := t.emitting[own:]
	t.emitting = t.emitting[:own]
	if !secretBelow {
		t.rules = t.rules[:start]
		return false
	}
	for _, r := range mine {
		t.rules[r.at].Path = n.childPath(r.name)
	}
	t.rules = append(t.rules, confineRule{Path: n.path, Access: confineNoRead})
	return true
}

// saveIdentities records the identities the walk hides, when they
// changed since the last record.
func (t *confineTree) saveIdentities(c runConfig) error {
	if c.confine.IdentityFile == "" || c.confine.ReadSecrets {
		return nil
	}
	if t.saved != nil && slices.Equal(t.saved, t.hidden) {
		return nil
	}
	if err := confineSaveIdentities(c.confine.IdentityFile, t.hidden); err != nil {
		return fmt.Errorf("%w: recording the secret paths' identities in %s: %w", ErrConfineFailed, c.confine.IdentityFile, err)
	}
	t.saved = append(make([]confineIdentity, 0, len(t.hidden)), t.hidden...)
	return nil
}

// confineRulesHidden reports whether a rule grants a location at or
// below one of hidden.
func confineRulesHidden(hidden []string, rules ...[]confineRule) bool {
	for _, h := range hidden {
		for _, list := range rules {
			for _, r := range list {
				if r.Path == h || strings.HasPrefix(r.Path, h+"/") {
					return true
				}
			}
		}
	}
	return false
}

// buildRuleset makes the Landlock ruleset of p's handled rights from
// p's rules (the system locations), the slot and the tree's rules, unless
// the one built last holds the same.
func (t *confineTree) buildRuleset(p confinePlan) error {
	// The key is what the ruleset is made of: the tree's rules by their
	// generation, the rest (a few system locations) whole.
	var key strings.Builder
	fmt.Fprintf(&key, "%d|%d|%d|%d|%d|", p.ABI, p.FS, p.Net, p.Scoped, t.gen)
	for _, r := range p.Rules {
		key.WriteString(r.Path)
		key.WriteByte(0)
		key.WriteString(strconv.FormatUint(r.Access, 16))
		if r.Follow {
			key.WriteByte('f')
		}
		key.WriteByte(0)
	}
	if t.ruleset >= 0 && t.rulesetKey == key.String() {
		return nil
	}
	fd, flags, err := landlockRuleset(p.handled())
	if err != nil {
		return fmt.Errorf("%w: creating the Landlock ruleset: %w", ErrConfineFailed, err)
	}
	if fd < 0 {
		return fmt.Errorf("%w: the Landlock ruleset restricts nothing", ErrConfineFailed)
	}
	rules := append(append(slices.Clip(p.Rules), confineRule{Path: t.slot, Access: confineAll}), t.rules...)
	for _, r := range rules {
		if err := confineAddRule(fd, r, p.FS); err != nil {
			unix.Close(fd)
			return fmt.Errorf("%w: %w", ErrConfineFailed, err)
		}
	}
	if t.ruleset >= 0 {
		unix.Close(t.ruleset)
	}
	t.ruleset, t.rulesetFlags, t.rulesetKey = fd, flags, key.String()
	return nil
}

package sandbox

import (
	"sync"
	"sync/atomic"

	"github.com/toolgate/toolgate/internal/fswatch"
)

// A long-lived Sandbox keeps the lookups its views make (see lookups) in
// a watched cache, shared by every view, where inotify is available
// (internal/fswatch): a directory or file looked up by one call's view is
// answered for the next call's without an lstat while nothing on its way
// has changed. Each entry depends on the entry of every component of its
// path in its directory and on the directory or file itself (its entries,
// its size, its links and times, changed through whichever name); the
// watches are added before the lstat whose answer is kept, so that a
// change after them is an event and one before is in the answer. Each
// view syncs the watcher once, before the first kept answer it trusts,
// unless a Sync begun after the view was taken ([Sandbox.Pin]) has ended
// already (fswatch.Watcher.SyncSince): the kernel queues an event within
// the call that makes the change, so a change made before the call began
// is seen, and a view that trusts no kept answer makes no poll. The
// sandbox's own use (not a view) syncs before each. A link is never
// kept, as in a view; a missing entry is (a view does not keep one), its
// creation being an event in its directory. A path the watcher cannot cover (a link on
// the way, a file system outside its allow-list, past its limits) is
// looked up each time; a lost event or a changed mount table drops every
// entry. The watcher is made when the second view is taken, so that a
// process that judges one call never makes one; Sandbox.Close releases
// it, and a Sandbox dropped without Close releases it when collected.
type watched struct {
	pins    atomic.Int64
	off     atomic.Bool
	watcher atomic.Pointer[fswatch.Watcher]
	mu      sync.Mutex
	ents    map[string]watchedEnt
}

// idsCover is what the watcher watches for one search of the protected
// and secret locations (identity.go), shared by the copies Forget and its
// revalidation make: its watches (whose stats say the search still holds)
// and, for a forgotten search, its watches and reads together. A nil Set
// was not made yet; tried says it cannot be.
type idsCover struct {
	watches, all           atomic.Pointer[fswatch.Set]
	watchesTried, allTried atomic.Bool
}

// watchedEnt is one kept lookup (err, when set, says the entry is
// missing), or a path the watcher cannot cover (deps nil), looked up
// each time.
type watchedEnt struct {
	kind fileKind
	st   fileStat
	err  error
	deps *fswatch.Set
}

// maxWatched bounds the entries kept; past it they are dropped together.
const maxWatched = 4096

// viewSync is one view's sync of the shared watcher: made once, before
// the first kept answer the view trusts (watched.synced).
type viewSync struct {
	mark uint64 // the watcher's Mark when the view was taken
	done atomic.Bool
}

// synced makes sure the watcher w has read what changed before the view
// whose sync is vs was taken (nil: the sandbox's own use, which syncs
// each time), and reports whether it still works; one that fails is
// dropped.
func (c *watched) synced(vs *viewSync, w *fswatch.Watcher) bool {
	if vs != nil && vs.done.Load() {
		return true
	}
	var ok bool
	if vs == nil {
		ok = w.Sync()
	} else {
		ok = w.SyncSince(vs.mark)
	}
	if !ok {
		_ = c.close()
		return false
	}
	if vs != nil {
		vs.done.Store(true)
	}
	return true
}

// pin is called for each view: the second makes the watcher. It returns
// the watcher's Mark for the view's sync (0 without a watcher: one made
// later has seen no change yet).
func (c *watched) pin() uint64 {
	if c == nil || c.off.Load() {
		return 0
	}
	if w := c.watcher.Load(); w != nil {
		return w.Mark()
	}
	if c.pins.Add(1) < 2 {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.watcher.Load() != nil || c.off.Load() {
		return 0
	}
	w, err := fswatch.New()
	if err != nil {
		c.off.Store(true)
		return 0
	}
	c.watcher.Store(w)
	return 0
}

// close drops the watcher for good and releases it.
func (c *watched) close() error {
	if c == nil {
		return nil
	}
	c.off.Store(true)
	c.mu.Lock()
	c.ents = nil
	c.mu.Unlock()
	if w := c.watcher.Swap(nil); w != nil {
		return w.Close()
	}
	return nil
}

// lstat answers the lookup of p from the cache, or makes it, keeping
// what the watcher covers; ok false when there is no watcher. vs is the
// view's sync of the watcher (nil: the sandbox's own lookup).
func (c *watched) lstat(vs *viewSync, p []byte, st *statBuf) (kind fileKind, fs fileStat, ok bool, err error) {
	if c == nil {
		return kindOther, fileStat{}, false, nil
	}
	w := c.watcher.Load()
	if w == nil {
		return kindOther, fileStat{}, false, nil
	}
	c.mu.Lock()
	e, found := c.ents[string(p)]
	c.mu.Unlock()
	if found && e.deps == nil {
		kind, err = lstatKind(p, st)
		return kind, fileStatOf(st), true, err
	}
	if found && c.synced(vs, w) && w.Valid(e.deps) {
		return e.kind, e.st, true, e.err
	}
	// A link is never kept: one lstat answers it, with no watches, which
	// only a kept answer needs. A missing entry is kept, depending on the
	// entry of each component in its directory down to the first missing
	// one, whose creation (a file, a directory, a link planted under the
	// name) is an event there: the targets of a command that creates
	// files are missing at every call (BenchmarkToolgateCommands in
	// bench).
	kind, err = lstatKind(p, st)
	missing := err != nil && isNotExist(err)
	if err != nil && !missing || kind == kindLink {
		return kind, fileStatOf(st), true, err
	}
	key := string(p)
	deps := w.NewSet()
	if missing {
		w.PathMode(deps, key, true, false, 0)
	} else {
		w.Path(deps, key, true, false)
	}
	kind2, err2 := lstatKind(p, st)
	fs = fileStatOf(st)
	switch {
	case missing && err2 != nil && isNotExist(err2):
		kind, fs, err = kindOther, fileStat{}, err2
	case !missing && err2 == nil && kind2 != kindLink:
		kind, err = kind2, nil
	default:
		// It changed between the lstats: the second one answers, and
		// is not kept.
		return kind2, fs, true, err2
	}
	if !deps.OK() {
		deps = nil
	}
	c.mu.Lock()
	if c.ents == nil || len(c.ents) >= maxWatched {
		c.ents = make(map[string]watchedEnt)
	}
	c.ents[key] = watchedEnt{kind: kind, st: fs, err: err, deps: deps}
	c.mu.Unlock()
	return kind, fs, true, err
}

// holds reports whether the search ids still holds: its watches (and,
// with reads, everything it read) are as recorded. A long-lived sandbox
// asks its watcher, watching them first and stating them once; else (or
// when they cannot be covered) they are stated. vs is the view's sync of
// the watcher (nil: the sandbox's own).
func (c *watched) holds(vs *viewSync, ids *identities, reads bool) bool {
	stat := ids.valid
	if reads {
		stat = ids.unchanged
	}
	var w *fswatch.Watcher
	if c != nil {
		w = c.watcher.Load()
	}
	if w == nil || ids.cover == nil {
		return stat()
	}
	set, tried := &ids.cover.watches, &ids.cover.watchesTried
	if reads {
		set, tried = &ids.cover.all, &ids.cover.allTried
	}
	if d := set.Load(); d != nil && c.synced(vs, w) && w.Valid(d) {
		return true
	}
	if tried.Load() {
		return stat()
	}
	// Watched before the stats (see above).
	d := w.NewSet()
	for i := range ids.watches {
		w.Path(d, ids.watches[i].path, true, true)
	}
	if reads {
		for i := range ids.reads {
			w.Path(d, ids.reads[i].path, true, true)
		}
	}
	if !d.OK() {
		tried.Store(true)
		return stat()
	}
	if !stat() {
		return false
	}
	set.Store(d)
	return true
}

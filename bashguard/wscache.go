package bashguard

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/toolgate/toolgate/internal/fswatch"
	"github.com/toolgate/toolgate/internal/stattime"
)

// The workspace facts git reads (which repository git finds from a
// directory, what its index tracks, the keys and remotes of its config)
// are the same for every command of a session until a file they come from
// changes. A Guard keeps them in a wsCache: each fact is computed once,
// with the change stamps (device, inode, mode, size, mtime, ctime) of every
// file and directory it was read from, and reused while a fresh lstat or
// stat of each of those gives the same stamp. A stamp is only trusted when
// it is older than the moment the fact was read by more than the file
// system's timestamp granularity: a file changed in the same tick as it was
// read could otherwise keep its stamp (git's "racily clean" entries).
//
// Where inotify is available (internal/fswatch), a Guard that keeps its
// facts checks them without a call per stamp: the first time a kept fact
// is used again, the cache watches every directory on the way to each
// file it was read from (and the file, or the listed directory, itself),
// then checks its stamps as above; while the watcher has seen no change to
// any of them, the fact holds with no call at all. A change after the
// watches were added is an event (the kernel queues it within the call
// that makes it, so the one poll a Judge makes before it first trusts a
// kept fact finds it once the command that made it has returned, and so
// does another Judge's poll begun after this Judge began: see wsCache and
// fswatch.Watcher.SyncSince); one before shows in the stamps
// checked after the watches were in place, which the reading trusted for
// the same reason it trusts them without a watcher. What the watcher
// cannot cover (a link on the way, a file system outside its allow-list,
// its limits, a lost event, a changed mount table) is checked by its
// stamps, as without one.

// maxWSFacts bounds the facts a Guard keeps; the least recently used goes
// first.
const maxWSFacts = 256

// wsCache is a use of the workspace facts of one Guard (a wsStore): one
// Judge's, which syncs the watcher once, before the first kept fact it
// checks against it (so that a Judge whose commands read no kept fact
// makes no poll), and not at all when a Sync begun after the Judge did
// has ended already (another Judge's); or the Guard's own, which syncs
// before every kept fact it trusts. A Judge's is used by that Judge's
// goroutine only.
type wsCache struct {
	*wsStore
	judge  bool   // one Judge's use: sync before the first kept fact is trusted
	mark   uint64 // the watcher's Mark when the Judge began
	synced bool   // the Judge's sync was made
}

// judgeUse returns the use of c's facts for a Judge beginning now.
func (c *wsCache) judgeUse() wsCache {
	u := wsCache{wsStore: c.wsStore, judge: true}
	if w := c.watcher.Load(); w != nil {
		u.mark = w.Mark()
	}
	return u
}

// factKey names one fact: what it is (kind: "top", "lexists", ...) and
// the paths or names it is of. A struct, not a joined string, so that a
// fact found kept costs no key built (BenchmarkToolgateCommands in bench).
type factKey struct {
	kind, a, b string
}

// less orders keys as their fields joined would be, for an eviction
// that does not depend on the map's order.
func (k factKey) less(o factKey) bool {
	if k.kind != o.kind {
		return k.kind < o.kind
	}
	if k.a != o.a {
		return k.a < o.a
	}
	return k.b < o.b
}

// wsStore holds the workspace facts of one Guard. It is safe for
// concurrent use.
type wsStore struct {
	mu    sync.Mutex
	facts map[factKey]*wsFact
	tick  uint64
	racy  time.Duration // extra age a stamp needs to be trusted, beyond the granularity; tests lower it
	noTTL bool          // tests: trust every stamp however recent
	// histBudget bounds the reading of a repository's history; nil is
	// defaultHistBudget (tests lower it).
	histBudget *histBudget
	// noWatch keeps the cache from watching (tests: inotify forced
	// unavailable); watchOff is set once a watcher cannot be had or was
	// closed.
	noWatch  bool
	watchOff atomic.Bool
	watcher  atomic.Pointer[fswatch.Watcher]
}

// wsFact is one computed fact and the stamps it depends on. It is not
// changed once stored.
type wsFact struct {
	val    any
	stamps []fileStamp
	used   uint64 // guarded by wsCache.mu
	levels bool   // some stamps stand for a directory's (fileStamp.level)
	retry  int64  // ns: when check may next stat a level directory to see it aged
	// deps is what the watcher watches for the fact: when it is valid,
	// the stamps need not be checked. noCover: the watcher cannot cover
	// the fact's stamps (not tried again for this reading).
	deps    *fswatch.Set
	noCover bool
}

// fileStamp is what an lstat (or stat) of path said when the fact was read.
type fileStamp struct {
	path   string
	follow bool // stat rather than lstat
	ident  bool // only the identity matters: type, device, inode (a directory above the repository)
	ok     bool // the file existed
	dev    uint64
	ino    uint64
	mode   uint32
	size   int64
	mtime  int64         // ns
	ctime  int64         // ns
	errno  syscall.Errno // why the file could not be stamped (not compared)
	// level is the directory d when this stamp is one of those that
	// stand for d's own (see stampRec.level and stampRec.exists): d's
	// identity and the entries looked up in it. A level's stamps are
	// recorded one after the other, its identity first.
	level string
}

// stampRec records the stamps a fact is read from. A nil *stampRec
// records nothing.
type stampRec struct {
	stamps []fileStamp
	start  int64 // ns, when the reading began
	bad    bool  // some stamp cannot be trusted: the fact is not kept
}

func newStampRec() *stampRec { return &stampRec{start: time.Now().UnixNano()} }

// stamp takes the stamp of path now.
func stamp(path string, follow, ident bool) fileStamp {
	return fullStamp(path, follow).as(ident)
}

// fullStamp takes the whole stamp of path now, as stamp without ident.
func fullStamp(path string, follow bool) fileStamp {
	s := fileStamp{path: path, follow: follow}
	var st syscall.Stat_t
	var err error
	if follow {
		err = syscall.Stat(path, &st)
	} else {
		err = syscall.Lstat(path, &st)
	}
	if err != nil {
		s.errno, _ = err.(syscall.Errno)
		// Only a missing file is a state worth keeping; any other error
		// (permissions, a loop) is kept too, as "absent", and compared
		// the same way: it makes the fact recomputed when it clears.
		return s
	}
	s.ok = true
	s.dev, s.ino, s.mode = uint64(st.Dev), uint64(st.Ino), uint32(st.Mode)
	s.size = st.Size
	mtime, ctime := stattime.Times(&st)
	s.mtime, s.ctime = mtime.Nano(), ctime.Nano()
	return s
}

// as is the stamp s (a whole one) keeps when only its identity matters
// (ident): the size and times go, except a link's.
func (s fileStamp) as(ident bool) fileStamp {
	s.ident = ident
	if ident && s.mode&syscall.S_IFMT != syscall.S_IFLNK {
		s.size, s.mtime, s.ctime = 0, 0, 0
	}
	return s
}

// same reports whether t, taken now, shows what s showed.
func (s fileStamp) same(t fileStamp) bool {
	return s.ok == t.ok && s.dev == t.dev && s.ino == t.ino && s.mode == t.mode &&
		s.size == t.size && s.mtime == t.mtime && s.ctime == t.ctime
}

// add records the stamp of path (lstat, or stat when follow).
func (r *stampRec) add(path string, follow, ident bool) {
	if r != nil {
		r.stamps = append(r.stamps, stamp(path, follow, ident))
	}
}

// regular stamps p (lstat) and reports whether it is a regular file, as
// os.Lstat would: the stamp answers, no second call is made.
func (r *stampRec) regular(p string) bool {
	if r == nil {
		fi, err := os.Lstat(p)
		return err == nil && fi.Mode().IsRegular()
	}
	r.add(p, false, false)
	s := r.stamps[len(r.stamps)-1]
	return s.ok && s.mode&syscall.S_IFMT == syscall.S_IFREG
}

// isDir stamps p (stat) and reports whether it is a directory with its
// links followed, as os.Stat would: the stamp answers.
func (r *stampRec) isDir(p string) bool {
	if r == nil {
		fi, err := os.Stat(p)
		return err == nil && fi.IsDir()
	}
	r.add(p, true, false)
	s := r.stamps[len(r.stamps)-1]
	return s.ok && s.mode&syscall.S_IFMT == syscall.S_IFDIR
}

// lexists stamps p (lstat) and reports whether it exists, as os.Lstat
// would (a link counts, wherever it leads): the stamp answers.
func (r *stampRec) lexists(p string) bool {
	if r == nil {
		_, err := os.Lstat(p)
		return err == nil
	}
	r.add(p, false, false)
	return r.stamps[len(r.stamps)-1].ok
}

// missing returns the error os.Open gives for p when the stamp just
// added says p does not exist, so that the read need not try; or nil.
func (r *stampRec) missing(p string) error {
	if r == nil || len(r.stamps) == 0 {
		return nil
	}
	if s := r.stamps[len(r.stamps)-1]; s.path == p && !s.ok && s.errno == syscall.ENOENT {
		return &fs.PathError{Op: "open", Path: p, Err: syscall.ENOENT}
	}
	return nil
}

// granularity is how coarse a file system's timestamps may be, judged
// from one of them: a time on a whole second may come from one that keeps
// seconds only (or two, as FAT); others keep at least the kernel's tick.
func granularity(ns int64) int64 {
	if ns%int64(time.Second) == 0 {
		return int64(2 * time.Second)
	}
	return int64(100 * time.Millisecond)
}

// trusted reports whether every recorded stamp is old enough, against
// the moment the reading began, that a change since would show.
func (c *wsStore) trusted(r *stampRec) bool {
	if r.bad {
		return false
	}
	if c.noTTL {
		return true
	}
	for _, s := range r.stamps {
		if !s.ok || s.ident && s.mode&syscall.S_IFMT != syscall.S_IFLNK {
			continue
		}
		for _, t := range [2]int64{s.mtime, s.ctime} {
			if t+granularity(t)+int64(c.racy) >= r.start {
				return false
			}
		}
	}
	return true
}

// get returns the fact kept under key when every stamp it depends on
// still holds, or computes it with fill (which records its stamps in the
// stampRec it is given) and keeps it when its stamps can be trusted. A nil
// cache computes every time.
func (c *wsCache) get(key factKey, fill func(*stampRec) any) any {
	if c == nil {
		return fill(nil)
	}
	c.mu.Lock()
	f := c.facts[key]
	if f != nil {
		c.tick++
		f.used = c.tick
	}
	c.mu.Unlock()
	if f != nil {
		w := c.watcher.Load()
		if w != nil && f.deps != nil && c.syncFirst(w) && w.Valid(f.deps) {
			return f.val
		}
		// Watch what the fact depends on before its stamps are checked
		// (see above), unless the watcher cannot cover it.
		var deps *fswatch.Set
		if !f.noCover {
			deps = c.cover(f)
		}
		if ok, stamps, retry := f.check(c); ok {
			if stamps != nil || deps != nil || f.deps != nil || !f.noCover && c.watcher.Load() != nil {
				c.replace(key, f, stamps, retry, deps)
			}
			return f.val
		}
	}
	r := newStampRec()
	v := fill(r)
	if !c.trusted(r) {
		c.mu.Lock()
		if c.facts[key] == f {
			delete(c.facts, key)
		}
		c.mu.Unlock()
		return v
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.facts == nil {
		c.facts = make(map[factKey]*wsFact)
	}
	if _, ok := c.facts[key]; !ok && len(c.facts) >= maxWSFacts {
		c.evict()
	}
	c.tick++
	c.facts[key] = newWSFact(v, r.stamps, c.tick, 0)
	return v
}

func newWSFact(v any, stamps []fileStamp, used uint64, retry int64) *wsFact {
	f := &wsFact{val: v, stamps: stamps, used: used, retry: retry}
	for _, s := range stamps {
		f.levels = f.levels || s.level != ""
	}
	return f
}

// replace keeps the fact f under key with the stamps its check found a
// reading made now would keep (nil: f's own), its next retry time, and
// the watcher's cover of it (nil when it cannot be covered), unless
// another fact took its place.
func (c *wsStore) replace(key factKey, f *wsFact, stamps []fileStamp, retry int64, deps *fswatch.Set) {
	if stamps == nil {
		stamps, retry = f.stamps, f.retry
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.facts[key] == f {
		nf := newWSFact(f.val, stamps, f.used, retry)
		nf.deps = deps
		nf.noCover = deps == nil && c.watcher.Load() != nil
		c.facts[key] = nf
	}
}

// cover watches every path the fact f's stamps were taken of and returns
// what the fact then depends on, or nil when the watcher cannot cover it
// (or there is no watcher). The first call makes the watcher.
func (c *wsStore) cover(f *wsFact) *fswatch.Set {
	w := c.watch()
	if w == nil {
		return nil
	}
	s := w.NewSet()
	for _, st := range f.stamps {
		mode := uint32(0) // missing
		if st.ok {
			mode = st.mode & syscall.S_IFMT
		}
		w.PathMode(s, st.path, !st.ident, st.follow, mode)
	}
	if !s.OK() {
		return nil
	}
	return s
}

// watch returns the cache's watcher, made on first use, or nil when there
// is none to be had.
func (c *wsStore) watch() *fswatch.Watcher {
	if w := c.watcher.Load(); w != nil || c.noWatch || c.watchOff.Load() {
		return w
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if w := c.watcher.Load(); w != nil || c.watchOff.Load() {
		return w
	}
	w, err := fswatch.New()
	if err != nil {
		c.watchOff.Store(true)
		return nil
	}
	// A Guard dropped without Close gives its inotify instance back when
	// it is collected (the watcher does not refer to the cache).
	goruntime.AddCleanup(c, func(w *fswatch.Watcher) { _ = w.Close() }, w)
	// The facts kept so far are checked by their stamps once more,
	// then covered.
	c.watcher.Store(w)
	return w
}

// lexists reports whether p exists (an lstat finds it, a link whatever it
// leads to), kept on the cache while p's entry stays what it was: a
// command's words are looked up as possible files at every call (git push
// origin main, npm install left-pad: BenchmarkToolgateCommands in bench).
func (c *wsCache) lexists(p string) bool {
	return c.get(factKey{kind: "lexists", a: p}, func(r *stampRec) any {
		if r == nil {
			_, err := os.Lstat(p)
			return err == nil
		}
		r.add(p, false, true)
		return r.stamps[len(r.stamps)-1].ok
	}).(bool)
}

// isDir reports whether p is a directory, its links followed (as
// os.Stat), kept on the cache as lexists.
func (c *wsCache) isDir(p string) bool {
	return c.get(factKey{kind: "isdir", a: p}, func(r *stampRec) any {
		if r == nil {
			return isDir(p)
		}
		r.add(p, true, true)
		s := r.stamps[len(r.stamps)-1]
		return s.ok && s.mode&syscall.S_IFMT == syscall.S_IFDIR
	}).(bool)
}

// syncFirst makes a Judge's first use of the watcher read what it saw
// change since a Sync begun after the Judge did (one poll when nothing
// did, none when another Judge's was made since), so that a change made
// before the Judge began counts; it reports whether w still works. A
// watcher that fails is dropped: the facts are checked by their stamps
// again. The Guard's own use syncs each time.
func (c *wsCache) syncFirst(w *fswatch.Watcher) bool {
	if c.synced {
		return true
	}
	if !c.judge {
		if w.Sync() {
			return true
		}
		c.close()
		return false
	}
	c.synced = true
	if w.SyncSince(c.mark) {
		return true
	}
	c.close()
	return false
}

// close drops the watcher for good and releases it.
func (c *wsStore) close() error {
	c.watchOff.Store(true)
	if w := c.watcher.Swap(nil); w != nil {
		return w.Close()
	}
	return nil
}

// evict drops the least recently used fact. c.mu is held.
func (c *wsStore) evict() {
	var old factKey
	var oldest uint64
	first := true
	for k, f := range c.facts {
		if first || f.used < oldest || f.used == oldest && k.less(old) {
			old, oldest, first = k, f.used, false
		}
	}
	delete(c.facts, old)
}

// valid re-stamps every file the fact depends on.
func (f *wsFact) valid() bool {
	ok, _, _ := f.check(nil)
	return ok
}

// levelRetry is how long a fact whose levels are stamped by their
// entries alone waits before its check looks again whether their
// directories have aged (one more call for each).
const levelRetry = int64(time.Second)

// check re-stamps every file the fact depends on and reports whether each
// shows what it showed.
//
// A level, a directory whose entries the fact depends on (fileStamp.level),
// is stamped by those entries, one call for each, when the directory was
// too young to be trusted by its own stamp when the fact was read, or
// when the reading looked up only the entries: the directory may since
// have aged enough to stand for them. When c is given and the fact holds,
// check also returns the stamps a reading made now would keep, each aged
// level's directory stamped whole in place of its entries (and identity),
// and the fact's next retry time; nil stamps and a zero time when nothing
// changes. A level with an identity stamp gives the directory's whole
// stamp for free; one without costs a stat of the directory, taken only
// from the fact's retry time on. The whole stamp is taken before the
// entries are checked, and is trusted only under the conditions a
// reading's are (wsCache.trusted), so that a change after it shows in it,
// and one before it in the entries.
func (f *wsFact) check(c *wsCache) (bool, []fileStamp, int64) {
	var at int64
	if c != nil && f.levels {
		at = time.Now().UnixNano()
	}
	retry := at != 0 && at >= f.retry
	var aged map[string]fileStamp
	tried := false
	cur := ""
	for _, s := range f.stamps {
		if at != 0 && s.level != "" && s.level != cur {
			// The first stamp of a level: its identity, or an entry.
			cur = s.level
			if retry && (!s.ident || s.path != s.level) {
				tried = true
				if t := fullStamp(s.level, true); c.agedAt(t, at) {
					aged = addAged(aged, s.level, t)
				}
			}
		}
		t := fullStamp(s.path, s.follow)
		if !s.same(t.as(s.ident)) {
			return false, nil, 0
		}
		if at != 0 && s.ident && s.path == s.level && c.agedAt(t, at) {
			aged = addAged(aged, s.level, t)
		}
	}
	if aged == nil {
		if tried {
			return true, f.stamps, at + levelRetry
		}
		return true, nil, 0
	}
	out := make([]fileStamp, 0, len(f.stamps))
	done := map[string]bool{}
	for _, s := range f.stamps {
		t, ok := aged[s.level]
		switch {
		case !ok:
			out = append(out, s)
		case !done[s.level]:
			done[s.level] = true
			out = append(out, t)
		}
	}
	return true, out, at + levelRetry
}

func addAged(m map[string]fileStamp, d string, t fileStamp) map[string]fileStamp {
	if m == nil {
		m = make(map[string]fileStamp, 2)
	}
	m[d] = t
	return m
}

// agedAt reports whether the whole stamp s of a directory, taken at or
// after at, is old enough to stand for the directory's entries in a fact
// read at at: what stampRec.young and wsCache.trusted ask of a reading's.
func (c *wsStore) agedAt(s fileStamp, at int64) bool {
	if !s.ok || s.mode&syscall.S_IFMT != syscall.S_IFDIR {
		return false
	}
	margin := int64(c.racy)
	if c.noTTL {
		margin = 0
	}
	for _, t := range [2]int64{s.mtime, s.ctime} {
		if t+granularity(t)+margin >= at {
			return false
		}
	}
	return true
}

// readSmall is readSmall for a fact: it stamps the file (following links,
// as the read does) before reading it, so that a change during the read
// shows at the next check.
func (r *stampRec) readSmall(p string, limit int64) (string, error) {
	r.add(p, true, false)
	if err := r.missing(p); err != nil {
		return "", err
	}
	return readSmall(p, limit)
}

// readAtMost is readAtMost for a fact, as readSmall.
func (r *stampRec) readAtMost(p string, n int64) ([]byte, error) {
	r.add(p, true, false)
	if err := r.missing(p); err != nil {
		return nil, err
	}
	return readAtMost(p, n)
}

// level records what git's lookup of its repository in the directory d
// depends on: d's entries (.git, HEAD, objects, refs). That is d's own
// stamp, one call to check, unless d changed too recently to trust it (a
// busy directory such as /tmp, above a working directory outside any
// repository): then the stamps of those entries themselves and of d's
// identity, which its other entries do not change.
func (r *stampRec) level(d string) {
	if r == nil {
		return
	}
	r.levelStamp(d, stamp(d, false, false))
}

// levelStamp is level with d's stamp taken already.
func (r *stampRec) levelStamp(d string, s fileStamp) {
	if r == nil {
		return
	}
	if !r.young(s) {
		r.stamps = append(r.stamps, s)
		return
	}
	first := len(r.stamps)
	defer func() {
		for i := first; i < len(r.stamps); i++ {
			r.stamps[i].level = d
		}
	}()
	r.add(d, false, true)
	r.add(filepath.Join(d, ".git"), false, false)
	r.add(filepath.Join(d, "HEAD"), true, false)
	if head := r.stamps[len(r.stamps)-1]; !head.ok && head.errno == syscall.ENOENT {
		// No HEAD, no bare repository, whatever objects and refs are:
		// the stamp of the missing HEAD tells when that changes.
		return
	}
	r.add(filepath.Join(d, "objects"), true, false)
	r.add(filepath.Join(d, "refs"), true, false)
}

// young reports a stamp too recent, against the start of the reading, to
// trust (see wsCache.trusted, which also counts the cache's own margin).
func (r *stampRec) young(s fileStamp) bool {
	if !s.ok || s.ident && s.mode&syscall.S_IFMT != syscall.S_IFLNK {
		return false
	}
	for _, t := range [2]int64{s.mtime, s.ctime} {
		if t+granularity(t) >= r.start {
			return true
		}
	}
	return false
}

// dedupe drops the identity stamp of a path that a whole stamp covers,
// and repeated stamps.
func (r *stampRec) dedupe() {
	full := make(map[string]bool, len(r.stamps))
	for _, s := range r.stamps {
		if !s.ident {
			full[s.path] = true
		}
	}
	seen := make(map[fileStamp]bool, len(r.stamps))
	out := r.stamps[:0]
	for _, s := range r.stamps {
		if (!s.ident || !full[s.path]) && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	r.stamps = out
}

// entry reports whether p, an entry of the directory d, exists, as
// os.Lstat finds it (a link counts, wherever it leads), stamping it as an
// entry of the level d. A nil *stampRec only lstats.
func (r *stampRec) entry(p, d string) bool {
	if r == nil {
		_, err := os.Lstat(p)
		return err == nil
	}
	s := stamp(p, false, false)
	s.level = d
	r.stamps = append(r.stamps, s)
	return s.ok
}

// exists reports whether p, an entry of the directory d, exists with its
// links followed, as os.Stat finds it, stamping it as an entry of the
// level d (lstat: what d's own stamp stands for once d has aged) and,
// where it is a link, what it leads to (stat), which d's stamp does not
// cover. A nil *stampRec only stats.
func (r *stampRec) exists(p, d string) bool {
	if r == nil {
		_, err := os.Stat(p)
		return err == nil
	}
	s := stamp(p, false, false)
	s.level = d
	r.stamps = append(r.stamps, s)
	if !s.ok {
		return false
	}
	if s.mode&syscall.S_IFMT != syscall.S_IFLNK {
		return true
	}
	r.add(p, true, false)
	return r.stamps[len(r.stamps)-1].ok
}

// The facts of a repository's config the models read through the cache:
// where its config is, and what it says of the remotes.

// gitRemoteConfig is what the repository's config says of its remotes.
type gitRemoteConfig struct {
	urls     map[string][]string // url and pushurl of each remote
	defaults []string            // branch.*.remote, branch.*.pushRemote, remote.pushDefault
}

// maxGitConfig bounds the config read.
const maxGitConfig = 64 << 10

// remoteFact is what the config of a repository says of its remotes, or
// why it cannot be read.
type remoteFact struct {
	cfg *gitRemoteConfig
	why string
}

// remotes reads the remotes of the repository whose top is top ("" for
// none) from the keys of its config and config.worktree, which the cache
// keeps (configKeys). The result is shared: it is not changed.
func (c *wsCache) remotes(top string) remoteFact {
	k := c.configKeys(top)
	switch {
	case k.none:
		return remoteFact{why: "is in a repository that is not known here"}
	case k.why != "":
		return remoteFact{why: "is in the repository's config, which " + k.why}
	}
	cfg, why := gitRemotes(k.keys)
	return remoteFact{cfg, why}
}

// gitCommonDirRec finds the directory that holds the config of the
// repository whose top (as gitTop gives it) is top, stamping every file
// it reads.
func gitCommonDirRec(top string, r *stampRec) (string, string) {
	_, common, why := gitDirsRec(top, r)
	return common, why
}

// gitDirsRec finds the git directory of the work tree whose top is top
// (its .git, or the directory a .git file names) and the common directory
// that holds the repository's config (the git directory's commondir, or
// the git directory itself), stamping every file it reads.
func gitDirsRec(top string, r *stampRec) (gitDir, common, why string) {
	if top == "" {
		return "", "", "is in a repository that is not known here"
	}
	gitDir = filepath.Join(top, ".git")
	common = gitDir
	if r.regular(gitDir) {
		// A worktree or submodule: "gitdir: <path>", whose commondir
		// holds the shared config.
		b, err := r.readSmall(gitDir, 4096)
		gitDir = strings.TrimSpace(strings.TrimPrefix(b, "gitdir: "))
		if err != nil || !strings.HasPrefix(b, "gitdir: ") || gitDir == "" {
			return "", "", "is in a repository whose .git file is not read here"
		}
		if !filepath.IsAbs(gitDir) {
			gitDir = filepath.Join(top, gitDir)
		}
		common = gitDir
		if cd, err := r.readSmall(filepath.Join(gitDir, "commondir"), 4096); err == nil {
			cd = strings.TrimSpace(cd)
			if !filepath.IsAbs(cd) {
				cd = filepath.Join(gitDir, cd)
			}
			common = cd
		}
	}
	return gitDir, common, ""
}

// readSmall reads the regular file p whole, when it holds at most limit
// bytes (errTooLarge when it holds more).
func readSmall(p string, limit int64) (string, error) {
	// Not blocking on a FIFO or a device planted under a config's name.
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return "", errNotRegular
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return "", err
	}
	if int64(len(b)) > limit {
		return "", errTooLarge
	}
	return string(b), nil
}

type tooLarge struct{}

func (tooLarge) Error() string { return "it is too large" }

var errTooLarge error = tooLarge{}

// errNotRegular is readSmall's refusal of a file that is not a regular
// one (a FIFO would block the read).
var errNotRegular = errors.New("it is not a regular file")

// gitRemotes reads the remote URLs from the keys of a repository's
// config (parseGitConfigKeys). A key that can change them and is not
// read here (an include, a URL rewrite) makes the whole answer unknown.
func gitRemotes(keys []gitConfigKey) (*gitRemoteConfig, string) {
	cfg := &gitRemoteConfig{urls: map[string][]string{}}
	for _, k := range keys {
		section, rest, _ := strings.Cut(k.name, ".")
		sub, key := "", rest
		if i := strings.LastIndexByte(rest, '.'); i >= 0 {
			sub, key = rest[:i], rest[i+1:]
		}
		switch {
		case section == "include" || section == "includeif" || section == "url":
			return nil, "may be rewritten by its config (" + k.name + "), which is not read here"
		case section == "remote" && sub != "" && (key == "url" || key == "pushurl"):
			cfg.urls[sub] = append(cfg.urls[sub], k.val)
		case section == "remote" && sub == "" && key == "pushdefault",
			section == "branch" && sub != "" && (key == "remote" || key == "pushremote"):
			cfg.defaults = append(cfg.defaults, k.val)
		}
	}
	return cfg, ""
}

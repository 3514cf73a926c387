//go:build linux

package fswatch

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

const (
	// watchMask is what every watch asks for: the changes to a
	// directory's entries and to the watched file or directory itself;
	// never a read (IN_ACCESS, IN_OPEN, IN_CLOSE_NOWRITE), so that the
	// cache's own reads send nothing.
	watchMask = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MOVED_FROM | unix.IN_MOVED_TO |
		unix.IN_ATTRIB | unix.IN_MODIFY | unix.IN_CLOSE_WRITE | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF |
		unix.IN_DONT_FOLLOW | unix.IN_EXCL_UNLINK
	// entryEvents change a directory's list of entries.
	entryEvents = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MOVED_FROM | unix.IN_MOVED_TO
	// selfGone are the events after which a watch no longer stands for
	// the path it was added for.
	selfGone = unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_UNMOUNT | unix.IN_IGNORED

	// maxWatches bounds the watches of one Watcher (the user's limit,
	// fs.inotify.max_user_watches, is shared by all of their programs);
	// a path that would need more is not covered.
	maxWatches = 4096
	// maxNames bounds the entry names a Watcher counts; past it every
	// Set is dropped and counting starts again.
	maxNames = 1 << 16
	// eventBuf is the size of one read of the queue; maxDrain bounds the
	// reads of one Sync (past it every Set is dropped).
	eventBuf = 64 << 10
	maxDrain = 64
)

// localFS reports a file system (statfs f_type) all of whose changes go
// through this kernel's VFS, where inotify sees them: ext2/3/4, XFS,
// Btrfs, F2FS, tmpfs, ramfs and overlayfs (whose layers must not be
// changed underneath it while it is mounted: the kernel leaves that
// undefined). FUSE (virtiofs and sshfs among them), NFS, 9p, SMB, Ceph
// and every other file system a change can reach without this kernel
// are not covered.
func localFS(t int64) bool {
	switch t {
	case unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC, unix.F2FS_SUPER_MAGIC,
		unix.TMPFS_MAGIC, unix.RAMFS_MAGIC, unix.OVERLAYFS_SUPER_MAGIC:
		return true
	}
	return false
}

// watch is one inotify watch: a directory on the way to a fact's files,
// or a file a fact read.
type watch struct {
	wd      int32
	local   bool
	dir     bool
	dead    bool               // the kernel dropped it (IN_IGNORED)
	self    uint64             // events on the watched file or directory itself
	entries uint64             // entries made, removed or renamed in it
	names   map[string]*uint64 // events naming each entry a Set depends on
	kids    map[string]*watch  // the watch of each entry reached through it
}

// Watcher watches the directories and files the Sets it fills depend on.
// It is safe for concurrent use. Close releases its inotify instance; a
// closed Watcher covers nothing and validates nothing.
type Watcher struct {
	mu     sync.Mutex
	fd     int // the inotify instance, -1 when closed
	mounts int // /proc/self/mountinfo, polled for changes of the mount table
	root   *watch
	byWd   map[int32]*watch
	epoch  uint64 // bumped when every Set is dropped
	seq    uint64 // events read
	names  int
	buf    []byte
	// syncs counts the Syncs begun (each under mu, so one ends before the
	// next begins); see Mark.
	syncs atomic.Uint64
}

// New returns a Watcher, or an error when inotify (or the mount table's
// notification) is not available.
func New() (*Watcher, error) {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil, err
	}
	m, err := unix.Open("/proc/self/mountinfo", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		_ = unix.Close(fd)
		return nil, err
	}
	return &Watcher{fd: fd, mounts: m, byWd: make(map[int32]*watch)}, nil
}

// Close releases the Watcher's inotify instance. It may be called more
// than once.
func (w *Watcher) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fd < 0 {
		return nil
	}
	err := errors.Join(unix.Close(w.fd), unix.Close(w.mounts))
	w.fd, w.mounts = -1, -1
	w.flush()
	w.byWd, w.root = nil, nil
	return err
}

// Sync reads what changed since the last Sync: one poll when nothing
// did. It reports whether the Watcher still works.
func (w *Watcher) Sync() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.sync()
}

// Mark returns a mark of the moment it is called, for SyncSince: how
// many Syncs had begun by then.
func (w *Watcher) Mark() uint64 { return w.syncs.Load() }

// SyncSince makes sure a Sync has begun after mark was taken (Mark) and
// ended, and reports whether the Watcher still works: it syncs unless
// such a Sync was made already, by this goroutine or another. A cache
// takes the mark when a use of its facts begins and calls SyncSince
// before it first trusts one: a change made before the mark is then
// counted (the kernel had queued its event before the Sync read the
// queue), and the uses that trust no kept fact make no poll at all.
func (w *Watcher) SyncSince(mark uint64) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.syncs.Load() > mark {
		// Syncs run under w.mu: the one numbered past mark has ended.
		return w.fd >= 0
	}
	return w.sync()
}

// sync is Sync. w.mu is held.
func (w *Watcher) sync() bool {
	w.syncs.Add(1)
	if w.fd < 0 {
		return false
	}
	fds := [2]unix.PollFd{{Fd: int32(w.fd), Events: unix.POLLIN}, {Fd: int32(w.mounts), Events: unix.POLLPRI}}
	for {
		_, err := unix.Poll(fds[:], 0)
		if err == nil {
			break
		}
		if err != unix.EINTR {
			w.broken()
			return false
		}
	}
	// poll on mountinfo reports a change of the mount table once, and
	// resets as it reports it.
	if fds[1].Revents&(unix.POLLPRI|unix.POLLERR) != 0 {
		w.flush()
	}
	if fds[0].Revents&(unix.POLLERR|unix.POLLHUP|unix.POLLNVAL) != 0 || fds[1].Revents&(unix.POLLHUP|unix.POLLNVAL) != 0 {
		w.broken()
		return false
	}
	if fds[0].Revents&unix.POLLIN != 0 && !w.drain() {
		w.broken()
		return false
	}
	return true
}

// broken closes a Watcher that can no longer be read. w.mu is held.
func (w *Watcher) broken() {
	_ = unix.Close(w.fd)
	_ = unix.Close(w.mounts)
	w.fd, w.mounts = -1, -1
	w.flush()
	w.byWd, w.root = nil, nil
}

// drain reads the queue until it is empty. w.mu is held.
func (w *Watcher) drain() bool {
	if w.buf == nil {
		w.buf = make([]byte, eventBuf)
	}
	for range maxDrain {
		n, err := unix.Read(w.fd, w.buf)
		switch {
		case err == unix.EAGAIN:
			return true
		case err == unix.EINTR:
			continue
		case err != nil || n <= 0:
			return false
		}
		w.parse(w.buf[:n])
		// The kernel copies whole events while they fit: room left for
		// the largest one means none was left behind.
		if n <= len(w.buf)-(unix.SizeofInotifyEvent+unix.NAME_MAX+1) {
			return true
		}
	}
	w.flush()
	return true
}

func (w *Watcher) parse(b []byte) {
	for off := 0; off+unix.SizeofInotifyEvent <= len(b); {
		ev := (*unix.InotifyEvent)(unsafe.Pointer(&b[off]))
		end := off + unix.SizeofInotifyEvent + int(ev.Len)
		if end > len(b) {
			w.flush()
			return
		}
		name := b[off+unix.SizeofInotifyEvent : end]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		w.event(ev.Wd, ev.Mask, string(name))
		off = end
	}
}

// event counts one event. w.mu is held.
func (w *Watcher) event(wd int32, mask uint32, name string) {
	w.seq++
	if mask&unix.IN_Q_OVERFLOW != 0 {
		w.flush()
		return
	}
	x := w.byWd[wd]
	if x == nil {
		return
	}
	if name == "" {
		x.self++
		if mask&selfGone != 0 {
			x.kids = nil // what it leads to is looked up again
		}
		if mask&unix.IN_IGNORED != 0 {
			x.dead = true
			delete(w.byWd, wd)
		}
		return
	}
	if c := x.names[name]; c != nil {
		*c++
	}
	if mask&entryEvents != 0 {
		x.entries++
	}
	// The name may now lead to another file: its watch is looked up
	// again.
	delete(x.kids, name)
}

// flush drops every Set and what the watches lead to. w.mu is held.
func (w *Watcher) flush() {
	w.epoch++
	for _, x := range w.byWd {
		x.names, x.kids = nil, nil
	}
	w.names = 0
}

// NewSet returns an empty Set, to be filled by Path before the fact's
// stamps are checked.
func (w *Watcher) NewSet() *Set {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := &Set{epoch: w.epoch, seq: w.seq}
	if w.fd < 0 {
		s.fail("the watcher is closed")
	}
	return s
}

// Valid reports whether nothing s depends on has changed by the last
// Sync.
func (w *Watcher) Valid(s *Set) bool {
	if !s.OK() {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fd < 0 || s.epoch != w.epoch {
		return false
	}
	if s.seq == w.seq {
		return true
	}
	for _, d := range s.deps {
		if *d.ctr != d.gen {
			return false
		}
	}
	s.seq = w.seq
	return true
}

// Path adds to s what the absolute path p names: the entry of each of
// its components in its directory (the last one not followed) and, when
// p is a directory, the directory itself (its attributes). With inode, s
// also depends on p itself: a file's content and attributes, changed
// through whichever name, or a directory's list of entries. With follow,
// the fact read p with its links followed: p is covered only when it is
// not a link. A path that goes through a link, or through a file system
// inotify does not see all of, is not covered.
func (w *Watcher) Path(s *Set, p string, inode, follow bool) {
	w.PathMode(s, p, inode, follow, ^uint32(0))
}

// PathMode is Path for a p whose type (mode&S_IFMT, 0 when it is
// missing) an lstat already told, saving the call Path makes to learn it;
// ^0 when it is not known. A followed p is always looked at: only an
// lstat tells a link.
func (w *Watcher) PathMode(s *Set, p string, inode, follow bool, mode uint32) {
	if s.bad {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fd < 0 {
		s.fail("the watcher is closed")
		return
	}
	if !filepath.IsAbs(p) {
		s.fail("a relative path")
		return
	}
	p = filepath.Clean(p)
	if w.root == nil || w.root.dead {
		x, err := w.add("/", true)
		if err != nil {
			s.fail("/ cannot be watched: " + err.Error())
			return
		}
		w.root = x
	}
	parent := w.root
	if !w.use(s, parent) {
		return
	}
	if p == "/" {
		if inode {
			s.add(&parent.entries)
		}
		return
	}
	rest := p[1:]
	for {
		i := strings.IndexByte(rest, '/')
		name := rest
		if i >= 0 {
			name = rest[:i]
		}
		cur := p[:len(p)-len(rest)+len(name)]
		if !w.entry(s, parent, name) {
			return
		}
		if i < 0 {
			w.last(s, parent, name, cur, inode, follow, mode)
			return
		}
		next, stop := w.child(s, parent, name, cur)
		if stop {
			return
		}
		parent, rest = next, rest[i+1:]
	}
}

// use makes s depend on the watch x itself, if it is one whose changes
// inotify sees. w.mu is held.
func (w *Watcher) use(s *Set, x *watch) bool {
	if !x.local {
		s.fail("a file system whose changes inotify may not see")
		return false
	}
	s.add(&x.self)
	return true
}

// entry makes s depend on the entry name of the directory x. w.mu is
// held.
func (w *Watcher) entry(s *Set, x *watch, name string) bool {
	c := x.names[name]
	if c == nil {
		if w.names >= maxNames {
			w.flush()
			s.fail("too many names watched")
			return false
		}
		if x.names == nil {
			x.names = make(map[string]*uint64)
		}
		c = new(uint64)
		x.names[name] = c
		w.names++
	}
	s.add(c)
	return true
}

// child returns the watch of the directory cur, the entry name of
// parent, and makes s depend on it; stop when the walk ends here (p
// cannot exist below an entry that is missing or not a directory; a link
// is not covered). w.mu is held.
func (w *Watcher) child(s *Set, parent *watch, name, cur string) (*watch, bool) {
	if x := parent.kids[name]; x != nil && !x.dead {
		return x, !w.use(s, x)
	}
	x, err := w.add(cur, true)
	switch {
	case err == unix.ENOENT:
		return nil, true // the entry's events tell when it appears
	case err == unix.ENOTDIR:
		var st unix.Stat_t
		if lerr := unix.Lstat(cur, &st); lerr == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK || lerr != nil && lerr != unix.ENOENT {
			s.fail(cur + " is a link, or cannot be looked at")
		}
		return nil, true
	case err != nil:
		s.fail(cur + " cannot be watched: " + err.Error())
		return nil, true
	}
	if parent.kids == nil {
		parent.kids = make(map[string]*watch)
	}
	parent.kids[name] = x
	return x, !w.use(s, x)
}

// last makes s depend on p (cur), the entry name of parent, itself. w.mu
// is held.
func (w *Watcher) last(s *Set, parent *watch, name, cur string, inode, follow bool, mode uint32) {
	if follow || mode == ^uint32(0) {
		var st unix.Stat_t
		err := unix.Lstat(cur, &st)
		switch {
		case err == unix.ENOENT:
			return
		case err != nil:
			s.fail(cur + " cannot be looked at: " + err.Error())
			return
		}
		mode = st.Mode
	}
	switch mode & unix.S_IFMT {
	case 0:
		return // missing: the entry's events tell when it appears
	case unix.S_IFLNK:
		if follow {
			s.fail(cur + " is a link")
		}
	case unix.S_IFDIR:
		x, stop := w.child(s, parent, name, cur)
		if !stop && inode {
			s.add(&x.entries)
		}
	default:
		if !inode {
			return
		}
		x, err := w.add(cur, false)
		if err != nil {
			s.fail(cur + " cannot be watched")
			return
		}
		w.use(s, x)
	}
}

// add adds a watch of p (a directory when dir). w.mu is held.
func (w *Watcher) add(p string, dir bool) (*watch, error) {
	if len(w.byWd) >= maxWatches {
		return nil, errors.New("too many watches")
	}
	mask := uint32(watchMask)
	if dir {
		mask |= unix.IN_ONLYDIR
	}
	var wd int
	var err error
	for {
		wd, err = unix.InotifyAddWatch(w.fd, p, mask)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	if x := w.byWd[int32(wd)]; x != nil {
		return x, nil // the same file, reached again
	}
	var sf unix.Statfs_t
	local := unix.Statfs(p, &sf) == nil && localFS(int64(sf.Type))
	x := &watch{wd: int32(wd), local: local, dir: dir}
	w.byWd[int32(wd)] = x
	return x, nil
}

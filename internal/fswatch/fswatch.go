// Package fswatch tells a long-lived cache, without a system call per
// fact, whether the files and directories a cached fact was read from
// may have changed since: a [Watcher] owns an inotify instance (Linux)
// watching every directory on the way to those files, and one poll per
// use (Watcher.Sync, or Watcher.SyncSince, which a use that began after
// another's poll began does not need) reads what changed.
//
// # Soundness
//
// The kernel queues an inotify event inside the system call that makes
// the change (fsnotify is called by the VFS before the call returns), so
// once a change has completed — the command that made it has returned —
// its event is in the queue, and a read of the queue made afterwards
// finds it: an empty queue read after a change says nothing that the
// watches cover changed. A fact is covered only when every path it
// depends on is: each component's entry in its parent directory (a watch
// on every directory from / down, each on a file system whose changes
// inotify sees), and, where the fact depends on a file's content or a
// directory's list of entries, the file or directory itself (its own
// watch sees writes through any name, a hard link's too). What inotify
// cannot see makes a fact uncovered, and its cache then revalidates it
// as it would without a Watcher (by stamps): a path through a symbolic
// link, a file system outside a local allow-list (FUSE, NFS, 9p,
// virtiofs, SMB and every other network or virtual file system), a
// watch that cannot be added (the user's watch limit). A lost event
// (IN_Q_OVERFLOW) or a change of the process's mount table (a mount over
// a watched directory sends no inotify event; /proc/self/mountinfo
// reports it to poll) drops every dependency.
//
// A Set is meant to be filled after the fact was read and before its
// stamps are checked once more (the cache does so on the first use of a
// fact it keeps): a change after the watches were added is an event, one
// before shows in the stamps. Writes through a shared memory mapping send
// no event; they are not how the programs a guard allows change files.
package fswatch

// Set is the dependencies of one fact: a counter of the Watcher for each
// thing it depends on, and the value it had when the Set was filled. A
// Set is filled by one goroutine, then only read (through Watcher.Valid).
type Set struct {
	deps  []dep
	epoch uint64
	seq   uint64 // guarded by the Watcher's mutex: events seen at the last Valid that held
	bad   bool
	why   string
}

type dep struct {
	ctr *uint64
	gen uint64
}

// OK reports whether every path added to s is covered: s can stand for
// the fact's stamps.
func (s *Set) OK() bool { return s != nil && !s.bad && len(s.deps) > 0 }

// Why says why s is not covered ("" when it is).
func (s *Set) Why() string {
	if s == nil {
		return "no watcher"
	}
	return s.why
}

func (s *Set) fail(why string) {
	if !s.bad {
		s.bad, s.why = true, why
	}
}

func (s *Set) add(ctr *uint64) {
	for _, d := range s.deps {
		if d.ctr == ctr {
			return
		}
	}
	s.deps = append(s.deps, dep{ctr, *ctr})
}

package sandbox

import (
	"bytes"
	"sync"
)

// lookups keeps, for a view of one decision ([Sandbox.Pin]), the
// directories and files the lookups of its walks by absolute path found:
// a command whose operands share directories (cp src/a src/b, every file
// of a glob or a recursive read) looks each directory up once, not once
// for each path that goes through it, and a file it judges more than once
// (as read and as written, by the guard and by the file judge) once. The
// view's contract is a snapshot: a change after the view first looked is
// seen by the next view, as for the identities it pins. A link or a
// missing entry is not kept: it is looked up afresh each time, so that a
// stat that follows a walk (statPath, when the walk did not end on its
// result) never finds what the walk did not. The zero value is ready to
// use; it is safe for concurrent use.
type lookups struct {
	mu    sync.Mutex
	names []byte // the paths looked up, end to end
	ents  []lookup
	// shared is the sandbox's watched cache, asked before an lstat (nil:
	// none); sync is the view's sync of its watcher.
	shared *watched
	sync   *viewSync
}

// lookupBuf is the room a view's first lookups are kept in, made with
// the first one kept: one command's paths, most often (the components of
// a project directory and a file or two below it), in one allocation and
// none for a call that looks nothing up (BenchmarkToolgateCommands in
// bench).
type lookupBuf struct {
	names [320]byte
	ents  [8]lookup
}

// lookup is what one lstat of names[off:end], a directory or a file,
// said.
type lookup struct {
	off, end int32
	kind     fileKind
	st       fileStat
}

// maxLookups bounds what a view keeps; past it, lookups are made afresh.
// A view judges one call's paths: a few dozen directories and files.
const maxLookups = 64

// maxLookupBytes bounds the names a view keeps.
const maxLookupBytes = 16 << 10

// lstat is lstatKind through the view's memory, with what the walk keeps
// of the stat. A nil *lookups keeps nothing.
func (l *lookups) lstat(p []byte, st *statBuf) (fileKind, fileStat, error) {
	if l == nil {
		kind, err := lstatKind(p, st)
		return kind, fileStatOf(st), err
	}
	l.mu.Lock()
	for i := range l.ents {
		if e := &l.ents[i]; bytes.Equal(l.names[e.off:e.end], p) {
			kind, fs := e.kind, e.st
			l.mu.Unlock()
			return kind, fs, nil
		}
	}
	l.mu.Unlock()
	kind, fs, ok, err := l.shared.lstat(l.sync, p, st)
	if !ok {
		kind, err = lstatKind(p, st)
		fs = fileStatOf(st)
	}
	if err != nil || kind == kindLink {
		return kind, fs, err
	}
	l.mu.Lock()
	if len(l.ents) < maxLookups && len(l.names)+len(p) <= maxLookupBytes {
		if l.ents == nil {
			b := new(lookupBuf)
			l.ents, l.names = b.ents[:0], b.names[:0]
		}
		off := int32(len(l.names))
		l.names = append(l.names, p...)
		l.ents = append(l.ents, lookup{off: off, end: int32(len(l.names)), kind: kind, st: fs})
	}
	l.mu.Unlock()
	return kind, fs, err
}

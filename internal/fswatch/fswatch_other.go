//go:build !linux

package fswatch

import "errors"

// Watcher is not available on this system: New fails, and a cache
// revalidates its facts by their stamps.
type Watcher struct{}

// New fails: only Linux has inotify.
func New() (*Watcher, error) { return nil, errors.New("fswatch: no inotify on this system") }

// Close does nothing.
func (w *Watcher) Close() error { return nil }

// Sync reports that the Watcher does not work.
func (w *Watcher) Sync() bool { return false }

// Mark returns 0.
func (w *Watcher) Mark() uint64 { return 0 }

// SyncSince reports that the Watcher does not work.
func (w *Watcher) SyncSince(uint64) bool { return false }

// NewSet returns a Set that covers nothing.
func (w *Watcher) NewSet() *Set {
	s := &Set{}
	s.fail("no inotify on this system")
	return s
}

// Valid reports false: nothing is covered.
func (w *Watcher) Valid(*Set) bool { return false }

// Path covers nothing.
func (w *Watcher) Path(s *Set, _ string, _, _ bool) { s.fail("no inotify on this system") }

// PathMode covers nothing.
func (w *Watcher) PathMode(s *Set, _ string, _, _ bool, _ uint32) {
	s.fail("no inotify on this system")
}

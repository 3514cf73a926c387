// Package fanout shares a run of independent checks, each a system call
// of a few microseconds (a stat of every directory a kept walk or search
// recorded, before a command and after it), among a few goroutines.
package fanout

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Workers is the most goroutines All uses; never more than GOMAXPROCS.
const Workers = 4

// minShare is the fewest checks a goroutine is started for: below it
// the start costs more than the share saves.
const minShare = 64

// All calls check(i) for every i below n and reports whether every call
// returned true. Once one returns false the others stop early, so which
// calls are made is then unspecified. check must be safe to call from
// several goroutines at once.
func All(n int, check func(i int) bool) bool {
	k := min(Workers, runtime.GOMAXPROCS(0), max(n/minShare, 1))
	if k == 1 {
		for i := range n {
			if !check(i) {
				return false
			}
		}
		return true
	}
	var failed atomic.Bool
	var wg sync.WaitGroup
	for g := range k {
		wg.Go(func() {
			for i := g; i < n && !failed.Load(); i += k {
				if !check(i) {
					failed.Store(true)
				}
			}
		})
	}
	wg.Wait()
	return !failed.Load()
}

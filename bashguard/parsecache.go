package bashguard

import (
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// parses keeps the trees of the scripts a Guard parsed last, so that a
// script seen again (an agent repeats `git status`, `ls`, `go test ./...`
// through a session) is not parsed again: the parse is a pure function of
// the text, and a parse allocates at least two batches of nodes (mvdan's
// Parser drops its node batches at every Parse), a third of what a Check
// of a short command allocates (BenchmarkToolgateCommands in bench). A
// kept tree is shared by every Judge that finds it and is only read:
// nothing in the package writes to a syntax node (hasBraceExp and
// bashFuncDecl work on copies). Only scripts that parsed are kept, each at
// most maxParsedBytes long, at most maxParsed of them; the oldest goes
// first. It is safe for concurrent use.
type parses struct {
	mu   sync.Mutex
	m    map[string]*syntax.File
	ring []string // the kept scripts, oldest at next
	next int
}

const (
	maxParsed      = 64
	maxParsedBytes = 4 << 10
)

// get returns the tree kept for script, or nil.
func (c *parses) get(script string) *syntax.File {
	if c == nil || len(script) > maxParsedBytes {
		return nil
	}
	c.mu.Lock()
	f := c.m[script]
	c.mu.Unlock()
	return f
}

// put keeps f as the tree of script.
func (c *parses) put(script string, f *syntax.File) {
	if c == nil || len(script) > maxParsedBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[script]; ok {
		return
	}
	if c.m == nil {
		c.m = make(map[string]*syntax.File, maxParsed)
		c.ring = make([]string, 0, maxParsed)
	}
	if len(c.ring) < maxParsed {
		c.ring = append(c.ring, script)
	} else {
		delete(c.m, c.ring[c.next])
		c.ring[c.next] = script
		c.next = (c.next + 1) % maxParsed
	}
	c.m[script] = f
}

package runner

import (
	"errors"
	"io"
	"strconv"
	"sync"
	"sync/atomic"
)

// errOutputCap ends the copy of a stream past [Shell.MaxOutputBytes].
var errOutputCap = errors.New("runner: output cap exceeded")

// runByteCap counts the bytes a command writes to its standard output and
// standard error together, and says, once, when they pass the cap. It is
// safe for the concurrent copies of the two streams.
type runByteCap struct {
	max  int64
	n    atomic.Int64
	once sync.Once
	over chan struct{} // closed when the count passes max
}

func newRunByteCap(max int64) *runByteCap {
	return &runByteCap{max: max, over: make(chan struct{})}
}

// take counts n more bytes and returns how many of them are within the
// cap; when some are not, it closes over.
func (c *runByteCap) take(n int) int {
	total := c.n.Add(int64(n))
	if total <= c.max {
		return n
	}
	c.once.Do(func() { close(c.over) })
	return int(max(int64(n)-(total-c.max), 0))
}

// exceeded reports whether the count has passed the cap.
func (c *runByteCap) exceeded() bool {
	select {
	case <-c.over:
		return true
	default:
		return false
	}
}

// reason is the line that ends the output of a command the cap killed.
func (c *runByteCap) reason() string {
	return "toolgate: the command was killed: it wrote more than " + strconv.FormatInt(c.max, 10) +
		" bytes of output (the runner's MaxOutputBytes)\n"
}

// runCapWriter passes a stream's bytes to w while they are within the cap.
type runCapWriter struct {
	w io.Writer
	c *runByteCap
}

func (w *runCapWriter) Write(p []byte) (int, error) {
	k := w.c.take(len(p))
	if k > 0 {
		if n, err := w.w.Write(p[:k]); err != nil {
			return n, err
		}
	}
	if k < len(p) {
		return k, errOutputCap
	}
	return k, nil
}

// runCapReader reads a stream while its bytes are within the cap, and
// ends it, with errOutputCap, at the first byte past it.
type runCapReader struct {
	r io.Reader
	c *runByteCap
}

func (r *runCapReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if k := r.c.take(n); k < n {
		return k, errOutputCap
	}
	return n, err
}

// runSameWriter reports whether a and b are the same writer, as os/exec
// decides it (a type that cannot be compared is never the same).
func runSameWriter(a, b io.Writer) (same bool) {
	defer func() {
		if recover() != nil {
			same = false
		}
	}()
	return a == b
}

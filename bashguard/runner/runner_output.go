package runner

import (
	"encoding/binary"
	"io"
	"unicode/utf8"

	"github.com/toolgate/toolgate/internal/truncate"
)

// runOutput keeps the head and tail of a stream of characters in memory
// of a fixed size, counting the characters it drops. Bytes are decoded as
// UTF-8 across chunk boundaries; each byte that does not belong to a valid
// encoding counts as one character, U+FFFD.
type runOutput struct {
	max   int    // the cap, in characters, marker included
	head  []rune // the first len(head) characters, at most cap(head)
	tail  []rune // a ring of the last characters after the head
	next  int    // where the next tail character goes
	total int    // characters seen
}

func newRunOutput(max int) *runOutput {
	h := max / 2
	return &runOutput{max: max, head: make([]rune, 0, h), tail: make([]rune, 0, max-h)}
}

func (o *runOutput) add(r rune) {
	o.total++
	if len(o.head) < cap(o.head) {
		o.head = append(o.head, r)
		return
	}
	if len(o.tail) < cap(o.tail) {
		o.tail = append(o.tail, r)
		return
	}
	o.tail[o.next] = r
	o.next++
	if o.next == len(o.tail) {
		o.next = 0
	}
}

// addASCII adds a run of ASCII characters once the head is full: only
// the last of them can stay in the tail.
func (o *runOutput) addASCII(s []byte) {
	o.total += len(s)
	for len(s) > 0 && len(o.tail) < cap(o.tail) {
		o.tail = append(o.tail, rune(s[0]))
		s = s[1:]
	}
	if len(s) > len(o.tail) {
		s = s[len(s)-len(o.tail):]
	}
	for _, b := range s {
		o.tail[o.next] = rune(b)
		o.next++
		if o.next == len(o.tail) {
			o.next = 0
		}
	}
}

// runASCIIEnd returns the end of the run of ASCII bytes at p[i:], eight
// bytes at a time where it can.
func runASCIIEnd(p []byte, i int) int {
	for i+8 <= len(p) && binary.LittleEndian.Uint64(p[i:])&0x8080808080808080 == 0 {
		i += 8
	}
	for i < len(p) && p[i] < utf8.RuneSelf {
		i++
	}
	return i
}

// consume decodes p and returns how many bytes it used: all of them when
// final, else all but an incomplete encoding at the end, which the caller
// passes again with the bytes that follow.
func (o *runOutput) consume(p []byte, final bool) int {
	i := 0
	for i < len(p) {
		if b := p[i]; b < utf8.RuneSelf {
			if len(o.head) < cap(o.head) {
				o.add(rune(b))
				i++
				continue
			}
			j := runASCIIEnd(p, i)
			o.addASCII(p[i:j])
			i = j
			continue
		}
		if !final && !utf8.FullRune(p[i:]) {
			break
		}
		r, size := utf8.DecodeRune(p[i:])
		o.add(r)
		i += size
	}
	return i
}

// readFrom reads r to its end or first error through one fixed buffer.
func (o *runOutput) readFrom(r io.Reader) {
	buf := make([]byte, 32<<10)
	keep := 0
	for {
		n, err := r.Read(buf[keep:])
		n += keep
		used := o.consume(buf[:n], false)
		keep = copy(buf, buf[used:n])
		if err != nil {
			break
		}
	}
	o.consume(buf[:keep], true)
}

// runCutMarker is the line that stands for cut characters.
func runCutMarker(cut int) string { return truncate.Marker(cut) }

// result returns the capped text, whether it was cut and how many
// characters were cut. The text keeps the first keep/2 and the last
// keep-keep/2 characters, where keep is the cap less the marker's length.
func (o *runOutput) result() (text string, truncated bool, cut int) {
	ordered := make([]rune, 0, len(o.tail))
	ordered = append(ordered, o.tail[o.next:]...)
	ordered = append(ordered, o.tail[:o.next]...)
	if o.total <= o.max {
		return string(o.head) + string(ordered), false, 0
	}
	// The marker's length depends on the count it prints, and the count
	// on the marker's length: iterate to the fixed point (two or three
	// rounds; the bound only guards the loop).
	keep := o.max
	var marker string
	for range 8 {
		marker = runCutMarker(o.total - keep)
		k := o.max - utf8.RuneCountInString(marker)
		if k == keep {
			break
		}
		keep = k
	}
	if keep < 0 {
		keep = 0
	}
	h := min(keep/2, len(o.head))
	t := min(keep-h, len(ordered))
	cut = o.total - h - t
	marker = runCutMarker(cut)
	return string(o.head[:h]) + marker + string(ordered[len(ordered)-t:]), true, cut
}

// Package wire writes and reads the compact form toolgate keeps its own
// files in and sends over its own pipes: numbers as varints, a string or
// a list with its length first, a boolean as one byte, 0 or 1, in a fixed
// order the two ends agree on. A Reader that meets an item that does not
// parse turns bad, and every read after that returns the zero value, so
// a decoder reads every field and checks [Reader.Done] once, at the end.
package wire

import "encoding/binary"

// AppendUvarint appends v.
func AppendUvarint(b []byte, v uint64) []byte { return binary.AppendUvarint(b, v) }

// AppendVarint appends v.
func AppendVarint(b []byte, v int64) []byte { return binary.AppendVarint(b, v) }

// AppendString appends s, its length first.
func AppendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// AppendStrings appends ss, its length first.
func AppendStrings(b []byte, ss []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(ss)))
	for _, s := range ss {
		b = AppendString(b, s)
	}
	return b
}

// AppendBool appends v as one byte.
func AppendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// Reader reads the items of one message, in the order they were
// appended. The zero Reader has nothing to read.
type Reader struct {
	b   []byte
	bad bool
}

// NewReader returns a Reader of b.
func NewReader(b []byte) *Reader { return &Reader{b: b} }

// Done reports whether every item read parsed and nothing is left.
func (r *Reader) Done() bool { return !r.bad && len(r.b) == 0 }

// Bad reports whether an item read did not parse.
func (r *Reader) Bad() bool { return r.bad }

// Fail turns the reader bad: an item parsed but holds what the decoder
// refuses.
func (r *Reader) Fail() { r.bad = true }

// Uvarint reads a number AppendUvarint wrote.
func (r *Reader) Uvarint() uint64 {
	if r.bad {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.bad = true
		return 0
	}
	r.b = r.b[n:]
	return v
}

// Varint reads a number AppendVarint wrote.
func (r *Reader) Varint() int64 {
	if r.bad {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.bad = true
		return 0
	}
	r.b = r.b[n:]
	return v
}

// Small reads a number AppendUvarint wrote that must fit in bits bits.
func (r *Reader) Small(bits uint) uint64 {
	v := r.Uvarint()
	if v>>bits != 0 {
		r.bad = true
		return 0
	}
	return v
}

// Count reads a list's length. Each item takes a byte at least, so a
// length past the bytes left does not parse: a forged one cannot make a
// large allocation.
func (r *Reader) Count() int {
	n := r.Uvarint()
	if r.bad || n > uint64(len(r.b)) {
		r.bad = true
		return 0
	}
	return int(n)
}

// Str reads a string AppendString wrote.
func (r *Reader) Str() string {
	n := r.Count()
	if r.bad {
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

// Strs reads a list AppendStrings wrote; nil for an empty one.
func (r *Reader) Strs() []string {
	n := r.Count()
	if n == 0 {
		return nil
	}
	ss := make([]string, n)
	for i := range ss {
		ss[i] = r.Str()
	}
	return ss
}

// Bool reads a boolean AppendBool wrote: a byte other than 0 or 1 does
// not parse.
func (r *Reader) Bool() bool {
	if r.bad || len(r.b) == 0 || r.b[0] > 1 {
		r.bad = true
		return false
	}
	v := r.b[0] == 1
	r.b = r.b[1:]
	return v
}

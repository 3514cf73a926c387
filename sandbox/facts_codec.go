package sandbox

import (
	"encoding/binary"
	"errors"
)

// The facts file's encoding: a magic, then every field of factsData in
// order, numbers as varints, strings and lists with their length first.
// A hook process loads the file once per call, so it is read without
// reflection (encoding/json's first decode of these types cost a quarter
// of a millisecond a call). The decoder is strict: anything malformed,
// truncated or followed by more bytes is an error, and the file is then
// ignored as an untrusted one is.

// factsMagic starts the file; its digit is the encoding's version.
const factsMagic = "TGF\x02"

// errFactsMalformed is what the decoder reports for any malformed file.
var errFactsMalformed = errors.New("sandbox: malformed facts file")

// encodeFacts returns the file's bytes for d.
func encodeFacts(d *factsData) []byte {
	b := []byte(factsMagic)
	b = binary.AppendUvarint(b, uint64(d.Version))
	b = appendString(b, d.Key)
	b = binary.AppendVarint(b, d.Start)
	b = appendBool(b, d.Complete)
	b = binary.AppendUvarint(b, uint64(len(d.Moved)))
	for _, a := range d.Moved {
		b = appendAnchor(b, a)
	}
	b = binary.AppendUvarint(b, uint64(len(d.Files)))
	for _, f := range d.Files {
		b = binary.AppendUvarint(b, f.Dev)
		b = binary.AppendUvarint(b, f.Ino)
		b = appendAnchor(b, f.Anchor)
	}
	for _, ws := range [][]factsWatch{d.Watches, d.Reads} {
		b = binary.AppendUvarint(b, uint64(len(ws)))
		for _, w := range ws {
			b = appendString(b, w.Path)
			b = appendBool(b, w.Exists)
			b = binary.AppendUvarint(b, w.Dev)
			b = binary.AppendUvarint(b, w.Ino)
			b = binary.AppendVarint(b, w.Ctime)
			b = binary.AppendVarint(b, w.Size)
		}
	}
	return b
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

func appendAnchor(b []byte, a factsAnchor) []byte {
	b = appendString(b, a.Loc)
	b = appendString(b, a.Real)
	b = appendBool(b, a.Secret)
	return appendString(b, a.Pat)
}

// decodeFacts reads what encodeFacts wrote.
func decodeFacts(b []byte) (factsData, error) {
	if len(b) < len(factsMagic) || string(b[:len(factsMagic)]) != factsMagic {
		return factsData{}, errFactsMalformed
	}
	r := factsReader{b: b[len(factsMagic):]}
	var d factsData
	d.Version = int(r.uvarint())
	d.Key = r.string()
	d.Start = r.varint()
	d.Complete = r.bool()
	// A count is at most the bytes left: every element takes at least
	// one, so a forged count cannot make a large allocation.
	n := r.count()
	d.Moved = make([]factsAnchor, 0, n)
	for range n {
		d.Moved = append(d.Moved, r.anchor())
	}
	n = r.count()
	d.Files = make([]factsFileID, 0, n)
	for range n {
		d.Files = append(d.Files, factsFileID{Dev: r.uvarint(), Ino: r.uvarint(), Anchor: r.anchor()})
	}
	for _, ws := range []*[]factsWatch{&d.Watches, &d.Reads} {
		n = r.count()
		*ws = make([]factsWatch, 0, n)
		for range n {
			*ws = append(*ws, factsWatch{Path: r.string(), Exists: r.bool(), Dev: r.uvarint(), Ino: r.uvarint(),
				Ctime: r.varint(), Size: r.varint()})
		}
	}
	if r.bad || len(r.b) > 0 {
		return factsData{}, errFactsMalformed
	}
	return d, nil
}

// factsReader reads the encoding's items off b; a malformed item sets
// bad, and every later read returns the zero value.
type factsReader struct {
	b   []byte
	bad bool
}

func (r *factsReader) uvarint() uint64 {
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

func (r *factsReader) varint() int64 {
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

func (r *factsReader) count() int {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.bad = true
		return 0
	}
	return int(n)
}

func (r *factsReader) string() string {
	n := r.count()
	if r.bad {
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

func (r *factsReader) bool() bool {
	if r.bad || len(r.b) == 0 || r.b[0] > 1 {
		r.bad = true
		return false
	}
	v := r.b[0] == 1
	r.b = r.b[1:]
	return v
}

func (r *factsReader) anchor() factsAnchor {
	return factsAnchor{Loc: r.string(), Real: r.string(), Secret: r.bool(), Pat: r.string()}
}

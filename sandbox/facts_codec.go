package sandbox

import (
	"errors"

	"github.com/toolgate/toolgate/internal/wire"
)

// The facts file's encoding: a magic, then every field of factsData in
// order, in internal/wire's form (numbers as varints, strings and lists
// with their length first).
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
	b = wire.AppendUvarint(b, uint64(d.Version))
	b = wire.AppendString(b, d.Key)
	b = wire.AppendVarint(b, d.Start)
	b = wire.AppendBool(b, d.Complete)
	b = wire.AppendUvarint(b, uint64(len(d.Moved)))
	for _, a := range d.Moved {
		b = appendAnchor(b, a)
	}
	b = wire.AppendUvarint(b, uint64(len(d.Files)))
	for _, f := range d.Files {
		b = wire.AppendUvarint(b, f.Dev)
		b = wire.AppendUvarint(b, f.Ino)
		b = appendAnchor(b, f.Anchor)
	}
	for _, ws := range [][]factsWatch{d.Watches, d.Reads} {
		b = wire.AppendUvarint(b, uint64(len(ws)))
		for _, w := range ws {
			b = wire.AppendString(b, w.Path)
			b = wire.AppendBool(b, w.Exists)
			b = wire.AppendUvarint(b, w.Dev)
			b = wire.AppendUvarint(b, w.Ino)
			b = wire.AppendVarint(b, w.Ctime)
			b = wire.AppendVarint(b, w.Size)
		}
	}
	return b
}

func appendAnchor(b []byte, a factsAnchor) []byte {
	b = wire.AppendString(b, a.Loc)
	b = wire.AppendString(b, a.Real)
	b = wire.AppendBool(b, a.Secret)
	return wire.AppendString(b, a.Pat)
}

// decodeFacts reads what encodeFacts wrote.
func decodeFacts(b []byte) (factsData, error) {
	if len(b) < len(factsMagic) || string(b[:len(factsMagic)]) != factsMagic {
		return factsData{}, errFactsMalformed
	}
	r := factsReader{wire.NewReader(b[len(factsMagic):])}
	var d factsData
	d.Version = int(r.Uvarint())
	d.Key = r.Str()
	d.Start = r.Varint()
	d.Complete = r.Bool()
	// A count is at most the bytes left: every element takes at least
	// one, so a forged count cannot make a large allocation.
	n := r.Count()
	d.Moved = make([]factsAnchor, 0, n)
	for range n {
		d.Moved = append(d.Moved, r.anchor())
	}
	n = r.Count()
	d.Files = make([]factsFileID, 0, n)
	for range n {
		d.Files = append(d.Files, factsFileID{Dev: r.Uvarint(), Ino: r.Uvarint(), Anchor: r.anchor()})
	}
	for _, ws := range []*[]factsWatch{&d.Watches, &d.Reads} {
		n = r.Count()
		*ws = make([]factsWatch, 0, n)
		for range n {
			*ws = append(*ws, factsWatch{Path: r.Str(), Exists: r.Bool(), Dev: r.Uvarint(), Ino: r.Uvarint(),
				Ctime: r.Varint(), Size: r.Varint()})
		}
	}
	if !r.Done() {
		return factsData{}, errFactsMalformed
	}
	return d, nil
}

// factsReader reads the encoding's items off its bytes (wire.Reader).
type factsReader struct{ *wire.Reader }

func (r *factsReader) anchor() factsAnchor {
	return factsAnchor{Loc: r.Str(), Real: r.Str(), Secret: r.Bool(), Pat: r.Str()}
}

package sandbox

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/toolgate/toolgate/internal/safefile"
	"github.com/toolgate/toolgate/internal/wire"
)

// The walk's listings (walkListing) are kept between processes beside the
// facts file, in a file of their own (the facts file's name and
// ".dirs"): the facts file is read by every call, the listings only by a
// call that searches again, and they are the larger of the two (a stamp
// for each directory walked, and the entries of each the walk looks at). The file names the
// facts file's key and its search's start, and is believed only for that
// search, and only as the facts file is (safefile.ReadPrivate, the same
// strict decoding).

// listingsMagic starts the listings file; its digit is the encoding's
// version.
const listingsMagic = "TGL\x01"

// maxListingsBytes bounds the listings file: the directories the walk
// enters and the few entries of each it looks at, within maxWalk.
const maxListingsBytes = 16 << 20

// listingsPath is the sandbox's listings file, or "" without a facts
// file.
func (s *Sandbox) listingsPath() string {
	if s.factsFile == "" {
		return ""
	}
	return s.factsFile + ".dirs"
}

// encodeListings returns the listings file's bytes for the search of key
// that began at start.
func encodeListings(key string, start int64, listed map[string]*walkListing) []byte {
	b := wire.AppendString([]byte(listingsMagic), key)
	b = wire.AppendVarint(b, start)
	b = wire.AppendUvarint(b, uint64(len(listed)))
	for _, l := range listed {
		b = wire.AppendString(b, l.st.path)
		b = wire.AppendUvarint(b, l.st.dev)
		b = wire.AppendUvarint(b, l.st.ino)
		b = wire.AppendVarint(b, l.st.ctime)
		b = wire.AppendVarint(b, l.st.size)
		b = wire.AppendUvarint(b, uint64(l.entries))
		b = wire.AppendUvarint(b, uint64(len(l.looked)))
		for _, e := range l.looked {
			b = wire.AppendUvarint(b, uint64(e.at))
			b = wire.AppendString(b, e.name)
			b = wire.AppendUvarint(b, uint64(e.typ))
		}
	}
	return b
}

// decodeListings reads what encodeListings wrote, for the search of key
// that began at start; anything else, malformed, truncated or followed by
// more bytes, is an error.
func decodeListings(b []byte, key string, start int64) (map[string]*walkListing, error) {
	if len(b) < len(listingsMagic) || string(b[:len(listingsMagic)]) != listingsMagic {
		return nil, errFactsMalformed
	}
	r := factsReader{wire.NewReader(b[len(listingsMagic):])}
	if r.Str() != key || r.Varint() != start {
		return nil, errFactsMalformed
	}
	n := r.Count()
	listed := make(map[string]*walkListing, n)
	for range n {
		l := &walkListing{st: watch{path: r.Str(), exists: true, dev: r.Uvarint(), ino: r.Uvarint(), ctime: r.Varint(), size: r.Varint()}}
		l.entries = int(r.Uvarint())
		m := r.Count()
		if m > 0 {
			l.looked = make([]keptEntry, 0, m)
		}
		for range m {
			e := keptEntry{at: int(r.Uvarint()), name: r.Str(), typ: fs.FileMode(r.Uvarint())}
			// In order, within the directory's count, a type alone.
			if e.at < 0 || e.at >= l.entries || len(l.looked) > 0 && e.at <= l.looked[len(l.looked)-1].at || e.typ&^fs.ModeType != 0 {
				r.Fail()
			}
			l.looked = append(l.looked, e)
		}
		if r.Bad() || l.entries > maxWalk {
			r.Fail()
			break
		}
		listed[l.st.path] = l
	}
	if !r.Done() || len(listed) != n {
		return nil, errFactsMalformed
	}
	return listed, nil
}

// saveListings writes the listings of ids beside the facts file, as
// saveFacts writes the facts.
func (s *Sandbox) saveListings(ids *identities) {
	path := s.listingsPath()
	if path == "" || len(ids.listed) == 0 {
		return
	}
	b := encodeListings(s.factsKey, ids.start, ids.listed)
	if len(b) > maxListingsBytes {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".dirs-*")
	if err != nil {
		return
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.Write(b)
	if cerr := tmp.Close(); werr != nil || cerr != nil {
		return
	}
	_ = os.Rename(tmp.Name(), path)
}

// loadListings returns the walk's listings of the search last: its own,
// or, for a search loaded from the facts file, those of the listings file
// when it is that search's; nil when there are none to trust.
func (s *Sandbox) loadListings(last *identities) map[string]*walkListing {
	if last.listed != nil {
		return last.listed
	}
	path := s.listingsPath()
	if path == "" {
		return nil
	}
	b, err := safefile.ReadPrivate(path, maxListingsBytes)
	if err != nil {
		return nil
	}
	listed, err := decodeListings(b, s.factsKey, last.start)
	if err != nil {
		return nil
	}
	return listed
}

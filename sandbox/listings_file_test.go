package sandbox

import (
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sampleListings are kept listings of three directories, one with no
// entry the walk looks at.
func sampleListings() map[string]*walkListing {
	return map[string]*walkListing{
		"/p":     {st: watch{path: "/p", exists: true, dev: 8, ino: 2, ctime: 1700000000123456789, size: 4096}, entries: 5, looked: []keptEntry{{0, ".env", 0}, {3, "src", fs.ModeDir}, {4, "l", fs.ModeSymlink}}},
		"/p/src": {st: watch{path: "/p/src", exists: true, dev: 8, ino: 3, ctime: 1700000000000000000, size: 4096}, entries: 2},
		"/p/x":   {st: watch{path: "/p/x", exists: true, dev: 8, ino: 9, ctime: -1, size: 0}, entries: 1, looked: []keptEntry{{0, "id_rsa", 0}}},
	}
}

// The listings file reads back what was written, for its own key and
// search only, and refuses every truncation and anything after its end.
func TestListingsCodec(t *testing.T) {
	want := sampleListings()
	b := encodeListings("key", 42, want)
	got, err := decodeListings(b, "key", 42)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	_, err = decodeListings(b, "other", 42)
	assert.ErrorIs(t, err, errFactsMalformed, "another key's listings")
	_, err = decodeListings(b, "key", 43)
	assert.ErrorIs(t, err, errFactsMalformed, "another search's listings")
	for n := range len(b) {
		_, err := decodeListings(b[:n], "key", 42)
		require.ErrorIs(t, err, errFactsMalformed, "truncated to %d of %d bytes", n, len(b))
	}
	_, err = decodeListings(append(b, 0), "key", 42)
	assert.ErrorIs(t, err, errFactsMalformed, "a byte after the end")
}

// FuzzListingsDecode: whatever the bytes, the decoder does not panic,
// allocates no more entries than there are bytes, keeps every entry in
// order within its directory's count, and what it accepts encodes back to
// itself.
func FuzzListingsDecode(f *testing.F) {
	f.Add(encodeListings("key", 42, sampleListings()))
	f.Add(encodeListings("key", 42, nil))
	f.Add([]byte(listingsMagic + "\x03key\x54\xff\xff\xff\xff\x0f"))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := decodeListings(b, "key", 42)
		if err != nil {
			return
		}
		n := 0
		for _, l := range got {
			n += 1 + len(l.looked)
			for i, e := range l.looked {
				require.Less(t, e.at, l.entries)
				require.Zero(t, e.typ&^fs.ModeType)
				if i > 0 {
					require.Greater(t, e.at, l.looked[i-1].at)
				}
			}
		}
		require.LessOrEqual(t, n, len(b))
		again, err := decodeListings(encodeListings("key", 42, got), "key", 42)
		require.NoError(t, err)
		assert.Equal(t, got, again)
	})
}

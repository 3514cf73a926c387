package sandbox

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sampleFacts is a facts file's content with every field set.
func sampleFacts() factsData {
	return factsData{Version: factsVersion, Key: "k3y", Start: -17, Complete: true,
		Moved:   []factsAnchor{{Loc: "/w/.env", Real: "/w/.env", Secret: true, Pat: ".env"}},
		Files:   []factsFileID{{Dev: 65024, Ino: 1 << 40, Anchor: factsAnchor{Loc: "/w/.git/config", Real: "/w/.git/config", Pat: ".git/"}}},
		Watches: []factsWatch{{Path: "/w", Exists: true, Dev: 1, Ino: 2, Ctime: 1796275923128795410, Size: -1}},
		Reads:   []factsWatch{{Path: "/w/missing"}},
	}
}

// What encodeFacts writes, decodeFacts reads back whole.
func TestFactsCodecRoundTrip(t *testing.T) {
	for _, d := range []factsData{sampleFacts(), {Moved: []factsAnchor{}, Files: []factsFileID{}, Watches: []factsWatch{}, Reads: []factsWatch{}}} {
		got, err := decodeFacts(encodeFacts(&d))
		require.NoError(t, err)
		assert.Equal(t, d, got)
	}
}

// The decoder refuses, with errFactsMalformed, every file that is not
// exactly one encoding: each truncation of a good one, one with a byte
// more, a bool that is neither 0 nor 1, another magic, and the JSON of
// the earlier version (which a new process then ignores, searching
// again).
func TestFactsCodecRefusesMalformed(t *testing.T) {
	d := sampleFacts()
	good := encodeFacts(&d)
	for n := range len(good) {
		_, err := decodeFacts(good[:n])
		assert.ErrorIs(t, err, errFactsMalformed, "truncated to %d of %d bytes", n, len(good))
	}
	_, err := decodeFacts(append(bytes.Clone(good), 0))
	assert.ErrorIs(t, err, errFactsMalformed, "a byte after the encoding")
	bad := bytes.Clone(good)
	bad[len(factsMagic)+1+1+len(d.Key)+len(binary.AppendVarint(nil, d.Start))] = 2 // Complete
	_, err = decodeFacts(bad)
	assert.ErrorIs(t, err, errFactsMalformed, "a bool of 2")
	_, err = decodeFacts(append([]byte("TGF\x01"), good[len(factsMagic):]...))
	assert.ErrorIs(t, err, errFactsMalformed, "another magic")
	old, err := json.Marshal(d)
	require.NoError(t, err)
	_, err = decodeFacts(old)
	assert.ErrorIs(t, err, errFactsMalformed, "the JSON of version 1")
}

// Whatever the bytes, decodeFacts does not panic, allocates no more than
// the input can hold, and what it accepts encodes to a file it reads
// back the same.
func FuzzFactsDecode(f *testing.F) {
	d := sampleFacts()
	f.Add(encodeFacts(&d))
	f.Add(encodeFacts(&factsData{}))
	f.Add([]byte(factsMagic + "\x02\xff\xff\xff\xff\x0f"))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := decodeFacts(b)
		if err != nil {
			return
		}
		again, err := decodeFacts(encodeFacts(&got))
		require.NoError(t, err)
		assert.Equal(t, got, again)
		assert.LessOrEqual(t, len(got.Files)+len(got.Moved)+len(got.Watches)+len(got.Reads), len(b))
	})
}

package wire

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRoundTrip reads back what was appended, item by item, and nothing
// more.
func TestRoundTrip(t *testing.T) {
	var b []byte
	b = AppendUvarint(b, math.MaxUint64)
	b = AppendVarint(b, math.MinInt64)
	b = AppendString(b, "héllo\x00")
	b = AppendStrings(b, []string{"a", "", "c"})
	b = AppendStrings(b, nil)
	b = AppendBool(b, true)
	b = AppendBool(b, false)
	b = AppendUvarint(b, 255)
	r := NewReader(b)
	assert.Equal(t, uint64(math.MaxUint64), r.Uvarint())
	assert.Equal(t, int64(math.MinInt64), r.Varint())
	assert.Equal(t, "héllo\x00", r.Str())
	assert.Equal(t, []string{"a", "", "c"}, r.Strs())
	assert.Nil(t, r.Strs())
	assert.True(t, r.Bool())
	assert.False(t, r.Bool())
	assert.Equal(t, uint64(255), r.Small(8))
	require.True(t, r.Done(), "every item read, nothing left")
}

// TestRefuses: an item that does not parse turns the reader bad, and
// every read after it is zero.
func TestRefuses(t *testing.T) {
	for name, c := range map[string]struct {
		b    []byte
		read func(*Reader)
	}{
		"empty":          {nil, func(r *Reader) { r.Uvarint() }},
		"cut number":     {[]byte{0x80}, func(r *Reader) { r.Uvarint() }},
		"long string":    {AppendUvarint(nil, 5), func(r *Reader) { _ = r.Str() }},
		"huge count":     {AppendUvarint(nil, 1<<40), func(r *Reader) { r.Strs() }},
		"bool 2":         {[]byte{2}, func(r *Reader) { r.Bool() }},
		"small too wide": {AppendUvarint(nil, 256), func(r *Reader) { r.Small(8) }},
	} {
		r := NewReader(c.b)
		c.read(r)
		assert.True(t, r.Bad(), "%s: refused", name)
		assert.False(t, r.Done(), name)
		assert.Zero(t, r.Uvarint(), "%s: reads after are zero", name)
		assert.Empty(t, r.Str(), name)
	}
	r := NewReader(AppendBool(AppendBool(nil, true), true))
	r.Bool()
	assert.False(t, r.Done(), "a byte left over is not done")
	assert.False(t, r.Bad())
}

// FuzzReader: any bytes read as any items never panic, and a reader that
// says it is done read them all.
func FuzzReader(f *testing.F) {
	f.Add(AppendStrings(AppendUvarint(nil, 3), []string{"x"}))
	f.Fuzz(func(t *testing.T, b []byte) {
		r := NewReader(b)
		for !r.Bad() && !r.Done() {
			switch len(r.b) % 5 {
			case 0:
				r.Uvarint()
			case 1:
				r.Varint()
			case 2:
				_ = r.Str()
			case 3:
				r.Strs()
			default:
				r.Bool()
			}
		}
		if r.Done() {
			require.Empty(t, r.b)
		}
	})
}

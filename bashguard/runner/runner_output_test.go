package runner

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runOutputReference caps text the slow, obvious way: decode all of it,
// find the largest keep for which keep characters plus the marker fit in
// max, and keep keep/2 characters of head and the rest of tail.
func runOutputReference(data []byte, max int) (string, bool, int) {
	all := []rune(string(data)) // each invalid byte becomes U+FFFD
	if len(all) <= max {
		return string(all), false, 0
	}
	for keep := max; keep >= 0; keep-- {
		marker := fmt.Sprintf("\n[... %d characters cut ...]\n", len(all)-keep)
		if keep+utf8.RuneCountInString(marker) <= max {
			h := keep / 2
			return string(all[:h]) + marker + string(all[len(all)-(keep-h):]), true, len(all) - keep
		}
	}
	panic("unreachable for max >= MinOutput")
}

// runOutputFeed passes data to a runOutput in chunks of the given sizes
// (cycling), keeping incomplete encodings for the next chunk as readFrom
// does.
func runOutputFeed(data []byte, max int, sizes []int) (string, bool, int) {
	o := newRunOutput(max)
	var pending []byte
	for i := 0; len(data) > 0; i++ {
		n := 1
		if len(sizes) > 0 {
			n = max1(sizes[i%len(sizes)])
		}
		n = min(n, len(data))
		pending = append(pending, data[:n]...)
		data = data[n:]
		used := o.consume(pending, false)
		pending = append(pending[:0], pending[used:]...)
	}
	o.consume(pending, true)
	return o.result()
}

func max1(n int) int {
	if n < 1 {
		return 1
	}
	return n
}

func TestRunOutputCapMatchesReference(t *testing.T) {
	inputs := []string{
		"",
		"short",
		strings.Repeat("a", 64),
		strings.Repeat("a", 65),
		strings.Repeat("é日本語\n", 100),
		strings.Repeat("x\xff\xe6\x97y", 50), // invalid bytes and a cut-off encoding
		strings.Repeat("0123456789", 1000),
		strings.Repeat("🙂", 10000),
	}
	for _, in := range inputs {
		for _, max := range []int{64, 65, 100, 999, 4000} {
			want, wantTrunc, wantCut := runOutputReference([]byte(in), max)
			for _, sizes := range [][]int{nil, {1}, {2, 3}, {7}, {32 << 10}} {
				got, trunc, cut := runOutputFeed([]byte(in), max, sizes)
				require.Equal(t, want, got, "input %.20q max %d sizes %v", in, max, sizes)
				assert.Equal(t, wantTrunc, trunc)
				assert.Equal(t, wantCut, cut)
				assert.LessOrEqual(t, utf8.RuneCountInString(got), max)
				assert.True(t, utf8.ValidString(got))
			}
		}
	}
}

func TestRunOutputReadFrom(t *testing.T) {
	in := strings.Repeat("日本\xff", 30000) // crosses the 32 KiB buffer mid-encoding
	o := newRunOutput(200)
	o.readFrom(strings.NewReader(in))
	got, trunc, cut := o.result()
	want, wantTrunc, wantCut := runOutputReference([]byte(in), 200)
	assert.Equal(t, want, got)
	assert.Equal(t, wantTrunc, trunc)
	assert.Equal(t, wantCut, cut)
	assert.Equal(t, 90000-(200-len([]rune(runCutMarker(cut)))), cut)
}

// FuzzRunOutput checks the cap against the reference for any bytes, cap
// and chunking: the result never exceeds the cap, is valid UTF-8, and
// keeps exactly the reference's head, marker and tail.
func FuzzRunOutput(f *testing.F) {
	f.Add([]byte("hello"), uint16(0), uint8(1))
	f.Add([]byte(strings.Repeat("é日\n", 40)), uint16(10), uint8(2))
	f.Add([]byte(strings.Repeat("a\xe6\x97", 100)), uint16(36), uint8(5))
	f.Add(bytes.Repeat([]byte{0xf0, 0x9f, 0x99}, 90), uint16(1), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, extra uint16, chunk uint8) {
		max := MinOutput + int(extra%512)
		want, wantTrunc, wantCut := runOutputReference(data, max)
		got, trunc, cut := runOutputFeed(data, max, []int{int(chunk), int(chunk) / 2})
		if got != want || trunc != wantTrunc || cut != wantCut {
			t.Fatalf("max %d chunk %d: got %q %v %d, want %q %v %d", max, chunk, got, trunc, cut, want, wantTrunc, wantCut)
		}
		if n := utf8.RuneCountInString(got); n > max || !utf8.ValidString(got) {
			t.Fatalf("result of %d characters (cap %d), valid %v", n, max, utf8.ValidString(got))
		}
	})
}

func BenchmarkRunOutput(b *testing.B) {
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"ascii", bytes.Repeat([]byte("go test ./... ok  \n"), 1<<16)},
		{"utf8", bytes.Repeat([]byte("日本語のテキスト\n"), 1<<15)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(tc.data)))
			for b.Loop() {
				o := newRunOutput(DefaultMaxOutput)
				o.readFrom(bytes.NewReader(tc.data))
				_, _, _ = o.result()
			}
		})
	}
}

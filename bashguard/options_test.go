package bashguard

import (
	"strings"
	"testing"
)

// FuzzLongIs checks longIs against its definition: name is one of the
// long options, or a prefix of one at least three bytes long (GNU's
// abbreviations, "--" and one letter at least).
func FuzzLongIs(f *testing.F) {
	for _, s := range [][3]string{
		{"--out", "--output", "--set"}, {"--output", "--output", ""}, {"--", "--output", "--"},
		{"-o", "-o", "--o"}, {"--o", "--output", "--x"}, {"--outputs", "--output", "--outputs"},
		{"", "", "--"}, {"--se", "--set", "--search-zip"}, {"x", "xy", "x"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, name, a, b string) {
		want := false
		for _, full := range []string{a, b} {
			if name == full || len(name) >= 3 && strings.HasPrefix(full, name) {
				want = true
			}
		}
		if got := longIs(name, a, b); got != want {
			t.Fatalf("longIs(%q, %q, %q) = %v, want %v", name, a, b, got, want)
		}
	})
}

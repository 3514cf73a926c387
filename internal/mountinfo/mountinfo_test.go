package mountinfo

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The kernel's escapes decode; anything else stays as written.
func TestUnescape(t *testing.T) {
	for in, want := range map[string]string{
		`/a\040b`: "/a b", `/t\011x`: "/t\tx", `/n\012`: "/n\n", `/b\134s`: `/b\s`, `/plain`: "/plain",
		`/x\9`: `/x\9`, `/y\04`: `/y\04`, `/z\999`: `/z\999`, `\040\040`: "  ",
	} {
		assert.Equal(t, want, Unescape(in), "Unescape(%q)", in)
	}
}

// Every input decodes without a panic, to no more bytes than it has, and
// one without a backslash to itself.
func FuzzUnescape(f *testing.F) {
	f.Add(`/a\040b`)
	f.Add(`\`)
	f.Fuzz(func(t *testing.T, s string) {
		got := Unescape(s)
		if len(got) > len(s) {
			t.Fatalf("Unescape(%q) = %q, longer than its input", s, got)
		}
		if !containsBackslash(s) && got != s {
			t.Fatalf("Unescape(%q) = %q, changed an input without escapes", s, got)
		}
	})
}

func containsBackslash(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			return true
		}
	}
	return false
}

package sandbox

import (
	"strings"
	"testing"
)

// FuzzParseHooksPath: the parse is total, and a value set plainly in a
// [core] section is the one read, whatever text comes before it.
func FuzzParseHooksPath(f *testing.F) {
	for _, s := range []string{"", "[core]\n\thooksPath = x\n", "[Core]\nHOOKSPATH=\"a b\"", "[core] hooksPath = y ; c", "[user]\nhooksPath = z"} {
		f.Add(s, "hooks")
	}
	f.Fuzz(func(t *testing.T, prefix, val string) {
		parseHooksPath([]byte(prefix))
		if val == "" || strings.TrimSpace(val) != val || strings.ContainsAny(val, "\"#;\\\n\r") {
			return
		}
		got, ok := parseHooksPath([]byte(prefix + "\n[core]\n\thooksPath = " + val + "\n"))
		if !ok || got != val {
			t.Fatalf("after %q: got %q, %v, want %q", prefix, got, ok, val)
		}
	})
}

package content

import (
	"strings"
	"testing"
)

// FuzzDomainEntry: a domain entry that is accepted comes out as the form
// rules are held against — lower case, ASCII, no white space, no trailing
// dot — and reading it again gives it back (so no second spelling of one
// host reaches the rules); internalHost never panics on it.
func FuzzDomainEntry(f *testing.F) {
	for _, s := range []string{"evil.com", " evil.com", "EVIL.com..", "https://evil.com/x", "evil.com/x?y", "ｅvil.com",
		"[::a9fe:a9fe]", "64:ff9b::a9fe:a9fe", "0x7f.1", "2130706433", "localhost.", "", ".", "..", "http://", "a b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, entry string) {
		host, err := domainEntry(entry)
		if err != nil || host == "" {
			return
		}
		_ = internalHost(host)
		if strings.ToLower(host) != host || strings.HasSuffix(host, ".") || strings.TrimSpace(host) != host {
			t.Fatalf("domainEntry(%q) = %q: not in canonical form", entry, host)
		}
		for i := 0; i < len(host); i++ {
			if host[i] >= 0x80 {
				t.Fatalf("domainEntry(%q) = %q: not ASCII", entry, host)
			}
		}
		again, err := domainEntry(host)
		if err != nil || again != host {
			t.Fatalf("domainEntry(%q) = %q, but domainEntry(%q) = %q, %v", entry, host, host, again, err)
		}
	})
}

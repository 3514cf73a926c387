package bashguard

import (
	"net"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// netLoopback is the loopback test as net.ParseIP gives it, which
// isLoopbackHost answered with before it used net/netip (net's cgo build
// linked the C library into the hook).
func netLoopback(h string) bool {
	h = strings.TrimSuffix(strings.ToLower(strings.Trim(h, "[]")), ".")
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// isLoopbackHost agrees with net.ParseIP on every spelling of an address:
// the IPv4-mapped forms, zones, leading zeros, shortened and hexadecimal
// IPv4, brackets, a trailing dot and case.
func TestLoopbackHostAgreesWithNet(t *testing.T) {
	for _, h := range []string{
		"127.0.0.1", "127.255.0.9", "::1", "[::1]", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1", "[::ffff:7f00:1]",
		"localhost", "LOCALHOST", "localhost.", "::1%lo", "fe80::1%eth0", "127.1", "0x7f000001", "0177.0.0.1",
		"127.000.0.1", "2130706433", "::", "0.0.0.0", "128.0.0.1", "::2", "localhost.localdomain", "", "[", "1.2.3.4",
	} {
		assert.Equal(t, netLoopback(h), isLoopbackHost(h), "%q", h)
	}
}

// The same, for every string.
func FuzzLoopbackHostAgreesWithNet(f *testing.F) {
	for _, h := range []string{"127.0.0.1", "::ffff:127.0.0.1", "::1%lo", "[::1]", "localhost."} {
		f.Add(h)
	}
	f.Fuzz(func(t *testing.T, h string) {
		if got, want := isLoopbackHost(h), netLoopback(h); got != want {
			t.Errorf("isLoopbackHost(%q) = %v, net.ParseIP says %v", h, got, want)
		}
	})
}

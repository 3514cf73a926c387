package content

import (
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// canonicalHost returns the host a URL reaches, in the form domain rules
// are written in: lower case; an IPv4 address in dotted decimal however it
// was written ("16909060", "0x01020304" and "1.2.772" are 1.2.3.4 to the
// WHATWG URL parser of browsers and Node); an IPv6 address in its short
// form, and an IPv4-mapped one ("::ffff:1.2.3.4") as the IPv4 address it
// reaches. A host that is not ASCII is an error: IDNA mapping turns
// "ｅvil.com" into "evil.com", so a rule could not be matched safely.
func canonicalHost(host string) (string, error) {
	for i := 0; i < len(host); i++ {
		if host[i] >= 0x80 {
			return "", fmt.Errorf("host %q is not ASCII: write it in its punycode (xn--) form", host)
		}
	}
	host = strings.ToLower(host)
	if strings.Contains(host, ":") {
		a, err := netip.ParseAddr(host)
		if err != nil {
			return "", fmt.Errorf("host %q is not an IP address", host)
		}
		return v4Of(a.WithZone("")).String(), nil
	}
	// Trailing dots name the same host to a resolver ("evil.com.." too).
	if t := strings.TrimRight(host, "."); t != host {
		if t == "" {
			return "", fmt.Errorf("host %q has no name", host)
		}
		host = t
	}
	if !endsInNumber(host) {
		return host, nil
	}
	a, err := parseIPv4(host)
	if err != nil {
		return "", fmt.Errorf("host %q: %v", host, err)
	}
	return a.String(), nil
}

// v4Of returns the IPv4 address an IPv6 address reaches when it is one in
// another spelling: IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible
// (::a.b.c.d, but not :: or ::1) or the well-known NAT64 prefix
// (64:ff9b::a.b.c.d), so that a rule for the IPv4 address holds for
// them. Any other address is returned as it is.
func v4Of(a netip.Addr) netip.Addr {
	if a.Is4In6() {
		return a.Unmap()
	}
	if !a.Is6() {
		return a
	}
	b := a.As16()
	v4 := netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
	zero := true
	for _, x := range b[:12] {
		zero = zero && x == 0
	}
	switch {
	case zero && (b[12] != 0 || b[13] != 0 || b[14] != 0 || b[15] > 1):
		return v4 // IPv4-compatible
	case wellKnownNAT64.Contains(a):
		return v4
	}
	return a
}

var wellKnownNAT64 = netip.MustParsePrefix("64:ff9b::/96")

// endsInNumber is the WHATWG URL standard's test for a host that must be
// read as an IPv4 address: its last label (a trailing dot aside) is a
// number.
func endsInNumber(host string) bool {
	parts := strings.Split(host, ".")
	if len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	last := parts[len(parts)-1]
	if last == "" {
		return false
	}
	if strings.Trim(last, "0123456789") == "" {
		return true
	}
	_, err := ipv4Number(last)
	return err == nil
}

// parseIPv4 is the WHATWG URL standard's IPv4 parser: up to four parts,
// each decimal, octal (leading 0) or hexadecimal (0x), the last filling
// the bytes the others leave.
func parseIPv4(host string) (netip.Addr, error) {
	parts := strings.Split(host, ".")
	if len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 4 {
		return netip.Addr{}, errors.New("not an IPv4 address: more than four parts")
	}
	var v uint64
	for i, p := range parts {
		n, err := ipv4Number(p)
		if err != nil {
			return netip.Addr{}, err
		}
		if i < len(parts)-1 {
			if n > 255 {
				return netip.Addr{}, fmt.Errorf("not an IPv4 address: part %q is over 255", p)
			}
			v |= n << (8 * (3 - i))
			continue
		}
		if n >= 1<<(8*(5-len(parts))) {
			return netip.Addr{}, fmt.Errorf("not an IPv4 address: part %q is too big", p)
		}
		v |= n
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), nil
}

func ipv4Number(s string) (uint64, error) {
	if s == "" {
		return 0, errors.New("not an IPv4 address: an empty part")
	}
	base := 10
	switch {
	case len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X"):
		s, base = s[2:], 16
		if s == "" {
			return 0, nil
		}
	case len(s) >= 2 && s[0] == '0':
		s, base = s[1:], 8
	}
	if strings.ContainsAny(s, "+-_") {
		return 0, fmt.Errorf("not an IPv4 address: part %q is not a number", s)
	}
	n, err := strconv.ParseUint(s, base, 64)
	if err != nil {
		return 0, fmt.Errorf("not an IPv4 address: part %q is not a number", s)
	}
	return n, nil
}

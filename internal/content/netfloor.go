package content

import (
	"errors"
	"net/netip"
	"net/url"
	"strings"
)

// Hosts whose names reach a cloud's instance metadata service.
var metadataNames = []string{"metadata", "metadata.google.internal", "metadata.goog", "instance-data", "instance-data.ec2.internal"}

// Addresses of instance metadata services: AWS, GCP, Azure and others
// (169.254.169.254), AWS ECS (169.254.170.2), Alibaba (100.100.100.200),
// AWS over IPv6 (fd00:ec2::254).
var metadataAddrs = []netip.Addr{
	netip.MustParseAddr("169.254.169.254"), netip.MustParseAddr("169.254.170.2"),
	netip.MustParseAddr("100.100.100.200"), netip.MustParseAddr("fd00:ec2::254"),
}

var (
	sharedNet   = netip.MustParsePrefix("100.64.0.0/10") // carrier-grade NAT, and Alibaba's metadata
	thisNet     = netip.MustParsePrefix("0.0.0.0/8")
	sixToFour   = netip.MustParsePrefix("2002::/16")
	localNAT64  = netip.MustParsePrefix("64:ff9b:1::/48")
	benchmarkV4 = netip.MustParsePrefix("198.18.0.0/15")
)

// internalHost says what a canonical host (see canonicalHost) reaches when
// it is inside the machine or its network — loopback, link-local, cloud
// metadata, private, shared or unspecified addresses, and the names of
// loopback and metadata hosts — or returns "" for a host on the
// internet. IPv6 spellings that carry an IPv4 address (6to4, a local
// NAT64 prefix; mapped, compatible and well-known NAT64 forms are made
// IPv4 by canonicalHost) are judged by the address they carry.
func internalHost(host string) string {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return "the loopback host"
	}
	for _, n := range metadataNames {
		if host == n {
			return "a cloud metadata host"
		}
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return ""
	}
	a = a.WithZone("")
	if a.Is6() && !a.Is4In6() {
		b := a.As16()
		switch {
		case sixToFour.Contains(a):
			a = netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})
		case localNAT64.Contains(a):
			a = netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
		}
	}
	a = a.Unmap()
	for _, m := range metadataAddrs {
		if a == m {
			return "a cloud metadata address"
		}
	}
	switch {
	case a.IsLoopback():
		return "a loopback address"
	case a.IsUnspecified() || a.Is4() && thisNet.Contains(a):
		return "this machine (an unspecified address)"
	case a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast():
		return "a link-local address"
	case a.IsPrivate():
		return "a private address"
	case a.Is4() && (sharedNet.Contains(a) || benchmarkV4.Contains(a)):
		return "a shared or private-use address"
	}
	return ""
}

// domainEntry brings an entry of a domain list (WebSearch's
// allowed_domains) to the form a URL's host takes (see canonicalHost):
// white space around it trimmed, a whole URL cut to its host, a path cut
// off, trailing dots dropped. An entry that is not ASCII is an error, as
// for URLs: IDNA mapping makes "ｅvil.com" evil.com. It returns "" for an
// entry with no host. A wildcard or any other character a host name does
// not hold is an error: a pattern could cover a denied host.
func domainEntry(entry string) (string, error) {
	e := strings.TrimSpace(entry)
	if strings.Contains(e, "://") {
		u, err := url.Parse(e)
		if err != nil || u.Hostname() == "" {
			return "", errors.New("not a host name or a URL")
		}
		e = u.Hostname()
	} else if i := strings.IndexAny(e, "/?#"); i >= 0 {
		e = e[:i]
	}
	if strings.HasPrefix(e, "[") && strings.HasSuffix(e, "]") {
		e = e[1 : len(e)-1]
	}
	if e == "" {
		return "", nil
	}
	host, err := canonicalHost(e)
	if err != nil {
		return "", err
	}
	for i := 0; i < len(host); i++ {
		c := host[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_' || c == ':') {
			return "", errors.New("not a host name")
		}
	}
	return host, nil
}

// Package sysread is the one rule by which a read outside the allowed
// roots needs no person: a world-readable system file, or a file of the
// Go module cache. The shell guard (bashguard) lifts its path judge's Ask
// for a command's read by it, and the content stage (internal/content)
// the sandbox's refusal of a file tool's read (Read, Grep, Glob): one
// table, one function, read by both.
//
// # System files
//
// World-readable system files are not secrets. A file or directory the
// system installed, below Prefixes, is one every user of the machine may
// read when, with every link followed, it stays below them, its mode bits
// let every user read it (and every directory above it lets every user
// pass), no directory from the prefix down to it lets every user write
// (where another user could put a link to the reader's own files in its
// place between the check and the read), and its name is not one a
// credential goes by (SecretName). Mode bits, not the caller's rights: the
// hook may run as root, who reads /etc/shadow, which mode 0640 keeps from
// everyone else, and keeps asked. The home, other users' files and other
// projects stay asked, as does anything below /tmp, /var or /srv, where
// anyone may write.
//
// # The Go module cache
//
// go keeps the modules it downloads under GOMODCACHE, each at
// path@version, unpacked read-only: published source, fetched through a
// checksum database that every other user of the module sees the same. A
// path that lies, with every link followed, under the cache (with its
// links followed) is read unasked; the host leaves the cache unset when it
// may hold private modules. Writes there are never lifted.
package sysread

import (
	"path"
	"path/filepath"
	"strings"
	"syscall"
)

// Prefixes are where the system keeps what it installs and configures:
// the default system roots.
var Prefixes = []string{"/usr", "/opt", "/etc", "/lib", "/lib64"}

// Info are the files of /proc that say what the machine is, each readable
// by every user; the rest of /proc (other processes' command lines and
// environments among it) stays asked. They go with the default Prefixes.
var Info = map[string]bool{"/proc/cpuinfo": true, "/proc/meminfo": true, "/proc/version": true, "/proc/loadavg": true,
	"/proc/uptime": true, "/proc/filesystems": true, "/proc/swaps": true}

// SecretWords are parts of names credentials go by, in system
// configuration too (ssl/private, *.key, shadow, htpasswd, ...).
var SecretWords = []string{"shadow", "passwd-", "htpasswd", "secret", "private", "credential", "token", "password",
	".key", ".pem", ".p12", ".pfx", ".jks", ".keystore", ".keytab", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", ".env",
	"sudoers", "krb5", "ssh_host_", "auth"}

// The rules a file tool's lifted read reports (internal/content).
const (
	RuleSystem   = "sandbox:system-read"
	RuleModCache = "sandbox:go-module-cache"
)

// ModCacheReason is why a read in the Go module cache needs no person.
const ModCacheReason = "in the Go module cache, downloaded public module source that go keeps read-only"

// Places are where reads outside the roots need no person. The zero value
// is the default system roots and no module cache.
type Places struct {
	// System are the system roots: absolute directories. Nil means
	// Prefixes with Info; an empty, non-nil slice lifts no system read.
	System []string
	// ModCache is the Go module cache (GOMODCACHE), absolute; empty
	// means none.
	ModCache string
}

// SystemReason is why a read of a world-readable system file below
// prefixes needs no person.
func SystemReason(prefixes []string) string {
	return "a system file every user may read (its mode bits say so), below " + strings.Join(prefixes, ", ")
}

// Why reports why a read of p (absolute; for a pattern, the directory it
// starts in is judged) needs no person, or "" when it does: a system file
// every user may read, or a file of the module cache.
func (pl Places) Why(p string) string {
	if InModCache(p, pl.ModCache) {
		return ModCacheReason
	}
	prefixes := pl.System
	if prefixes == nil {
		if Info[p] {
			return SystemReason(Prefixes)
		}
		prefixes = Prefixes
	}
	if WorldReadable(p, prefixes) {
		return SystemReason(prefixes)
	}
	return ""
}

// patternDir gives, for a path with glob characters, the directory before
// its first pattern component; ok is false when a ".." follows it (its
// matches could leave the directory).
func patternDir(p string) (string, bool) {
	i := strings.IndexAny(p, "*?[")
	if i < 0 {
		return p, true
	}
	dir, rest := path.Split(p[:i])
	for e := range strings.SplitSeq(rest+p[i:], "/") {
		if e == ".." {
			return "", false
		}
	}
	return dir, true
}

// WorldReadable reports whether p, absolute, names an existing file or
// directory below prefixes, there too with every link followed, that
// every user may read and no other user may replace, and no name on the
// way is a credential's (see the package documentation). For a pattern,
// the directory it starts in is judged (its matches are judged one by
// one).
func WorldReadable(p string, prefixes []string) bool {
	_, _, ok := worldReadable(p, prefixes)
	return ok
}

// worldReadable is WorldReadable, which also gives the file with every
// link followed (real) and the prefix it lies below (pre).
func worldReadable(p string, prefixes []string) (real, pre string, ok bool) {
	if !path.IsAbs(p) {
		return "", "", false
	}
	p, ok = patternDir(p)
	if !ok {
		return "", "", false
	}
	p = path.Clean(p)
	if under(p, prefixes) == "" || SecretName(p) {
		return "", "", false
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil || SecretName(real) {
		return "", "", false
	}
	pre = under(real, prefixes)
	if pre == "" {
		return "", "", false
	}
	for d, first := real, true; ; d, first = filepath.Dir(d), false {
		var st syscall.Stat_t
		if syscall.Stat(d, &st) != nil || !modeOK(uint32(st.Mode), first, len(d) >= len(pre)) {
			return "", "", false
		}
		if d == "/" {
			return real, pre, true
		}
	}
}

// modeOK is the test of one step of the way to a system file, on its mode
// bits: the file itself (last) is a regular file every user may read or a
// directory every user may list and pass through; a directory above it
// one every user may pass; and from the prefix down (below) no directory
// every user may write. Open checks the same on each descriptor it opens.
func modeOK(mode uint32, last, below bool) bool {
	dir := mode&syscall.S_IFMT == syscall.S_IFDIR
	switch {
	case last && dir && mode&0o005 != 0o005:
		return false // every user may list it and pass through it
	case last && !dir && (mode&syscall.S_IFMT != syscall.S_IFREG || mode&0o004 == 0):
		return false // a regular file every user may read
	case !last && (!dir || mode&0o001 == 0):
		return false // a directory above it that not every user may pass
	case dir && mode&0o002 != 0 && below:
		return false // below the prefix, a directory every user may write
	}
	return true
}

// under gives the prefix p is or lies below, or "".
func under(p string, prefixes []string) string {
	for _, pre := range prefixes {
		if p == pre || strings.HasPrefix(p, pre+"/") {
			return pre
		}
	}
	return ""
}

// SecretName reports a path with a component a credential goes by.
func SecretName(p string) bool {
	low := strings.ToLower(p)
	for e := range strings.SplitSeq(low, "/") {
		for _, w := range SecretWords {
			if strings.Contains(e, w) {
				return true
			}
		}
	}
	return false
}

// InModCache reports whether p, absolute, names an existing file or
// directory that lies, with every link followed, under the module cache
// mc (with its links followed); for a pattern, the directory it starts
// in. An empty or relative mc holds nothing.
func InModCache(p, mc string) bool {
	_, _, ok := inModCache(p, mc)
	return ok
}

// inModCache is InModCache, which also gives the path with every link
// followed (real) and the cache's (base).
func inModCache(p, mc string) (real, base string, ok bool) {
	if !filepath.IsAbs(mc) || !path.IsAbs(p) {
		return "", "", false
	}
	p, ok = patternDir(p)
	if !ok {
		return "", "", false
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", "", false
	}
	base, err = filepath.EvalSymlinks(mc)
	if err != nil || base == "/" {
		return "", "", false
	}
	if real == base || strings.HasPrefix(real, base+string(filepath.Separator)) {
		return real, base, true
	}
	return "", "", false
}

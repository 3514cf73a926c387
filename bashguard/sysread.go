package bashguard

import (
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/toolgate/toolgate/permission"
)

// World-readable system files are not secrets. A read-only command that
// reads or lists a file or directory the system installed, below
// systemReadPrefixes, reads what every user of the machine may read: the
// path judge's Ask for a read outside the roots is lifted when the path,
// with every link followed, stays below them, its mode bits let every
// user read it (and every directory above it lets every user pass), and
// its name is not one a credential goes by (systemSecretName). Mode bits,
// not the caller's rights: the hook may run as root, who reads
// /etc/shadow, which mode 0640 keeps from everyone else, and keeps asked
// here. The home, other users' files and other projects stay asked, as
// does anything below /tmp, /var or /srv, where anyone may write. A
// secret name the path judge knows is denied before this lift is asked
// (the content stage's judge denies a read of a secret path outside the
// roots); this check is the guard's own second line.

// systemReadPrefixes are where the system keeps what it installs and
// configures.
var systemReadPrefixes = []string{"/usr", "/opt", "/etc", "/lib", "/lib64"}

// systemSecretWords are parts of names credentials go by, in system
// configuration too (ssl/private, *.key, shadow, htpasswd, ...).
var systemSecretWords = []string{"shadow", "passwd-", "htpasswd", "secret", "private", "credential", "token", "password",
	".key", ".pem", ".p12", ".pfx", ".jks", ".keystore", ".keytab", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", ".env",
	"sudoers", "krb5", "ssh_host_", "auth"}

// liftSystemRead turns the path judge's Ask for a read or probe of p
// outside the roots into an Allow when p is a world-readable system file
// or directory (see above).
func (a *analyzer) liftSystemRead(p string, access Access, r permission.Result) permission.Result {
	if access == Write || r.Decision != permission.Ask || !strings.HasPrefix(r.Reason, "outside the allowed roots") {
		return r
	}
	if !worldReadableSystem(p) {
		return r
	}
	return permission.Result{Decision: permission.Allow, Layer: permission.LayerShell, Rule: RulePathRead,
		Reason: "a system file every user may read (its mode bits say so), below " + strings.Join(systemReadPrefixes, ", ")}
}

// worldReadableSystem reports whether p, absolute, names an existing
// file or directory below systemReadPrefixes, there too with every link
// followed, that every user may read, and no name on the way is a
// credential's. For a pattern, the directory it starts in is judged (its
// matches are judged one by one).
func worldReadableSystem(p string) bool {
	return systemInfo[p] || worldReadableUnder(p, systemReadPrefixes)
}

// systemInfo are the files of /proc that say what the machine is, each
// readable by every user; the rest of /proc (other processes' command
// lines and environments among it) stays asked.
var systemInfo = map[string]bool{"/proc/cpuinfo": true, "/proc/meminfo": true, "/proc/version": true, "/proc/loadavg": true,
	"/proc/uptime": true, "/proc/filesystems": true, "/proc/swaps": true}

// worldReadableUnder is worldReadableSystem for the prefixes given.
func worldReadableUnder(p string, prefixes []string) bool {
	if !path.IsAbs(p) {
		return false
	}
	if i := strings.IndexAny(p, "*?["); i >= 0 {
		dir, rest := path.Split(p[:i])
		for e := range strings.SplitSeq(rest+p[i:], "/") {
			if e == ".." {
				return false
			}
		}
		p = dir
	}
	p = path.Clean(p)
	if !under(p, prefixes) || systemSecretName(p) {
		return false
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil || !under(real, prefixes) || systemSecretName(real) {
		return false
	}
	for d, first := real, true; ; d, first = filepath.Dir(d), false {
		var st syscall.Stat_t
		if syscall.Stat(d, &st) != nil {
			return false
		}
		dir := st.Mode&syscall.S_IFMT == syscall.S_IFDIR
		switch {
		case first && dir && st.Mode&0o005 != 0o005:
			return false // every user may list it and pass through it
		case first && !dir && (st.Mode&syscall.S_IFMT != syscall.S_IFREG || st.Mode&0o004 == 0):
			return false // a regular file every user may read
		case !first && st.Mode&0o001 == 0:
			return false // a directory above it that not every user may pass
		}
		if d == "/" {
			return true
		}
	}
}

// under reports whether p is one of prefixes or lies below one.
func under(p string, prefixes []string) bool {
	for _, pre := range prefixes {
		if p == pre || strings.HasPrefix(p, pre+"/") {
			return true
		}
	}
	return false
}

// systemSecretName reports a path with a component a credential goes by.
func systemSecretName(p string) bool {
	low := strings.ToLower(p)
	for e := range strings.SplitSeq(low, "/") {
		for _, w := range systemSecretWords {
			if strings.Contains(e, w) {
				return true
			}
		}
	}
	return false
}

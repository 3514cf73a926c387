package bashguard

import (
	"path/filepath"
	"strings"
	"syscall"
)

// A toolchain named by its path outside the standard directories
// ("/usr/lib/jvm/java-17-openjdk-amd64/bin/java -version") is judged
// like the one on PATH when the line only asks for its version and the
// program is one the system installed: what its name says, as much as
// /usr/bin/java is. A program the agent could have written (in the
// workspace, /tmp, the home) stays "not a standard command".

// systemPrefixes are where the system installs programs outside the
// standard directories.
var systemPrefixes = []string{"/usr/", "/opt/", "/lib/", "/lib64/"}

// systemVersion allows the line v of the program raw, named name, when
// every argument is a version option of name's spec and raw is a system
// program (systemProgram). It reports whether it decided.
func (m *cmdCall) systemVersion(c *verdictAcc, raw, name string, v *argv) bool {
	s := sysSpecs()[name]
	if s == nil || v.len() < 2 {
		return false
	}
	for i := 1; i < v.len(); i++ {
		if !v.literal(i) || !versionSpelling(s, v.vals[i]) {
			return false
		}
	}
	if !systemProgram(raw) {
		return false
	}
	c.allow(RuleSafe, "prints its version ("+raw+" is a program the system installed)")
	return true
}

// versionSpelling reports whether w is, whole, one of the version
// options of s.
func versionSpelling(s *spec, w string) bool {
	var sp *spelling
	switch {
	case len(w) == 2 && w[0] == '-' && w[1] != '-':
		sp = s.tables().short[w[1]]
	case strings.HasPrefix(w, "-"):
		sp = s.longExact(w)
	}
	return sp != nil && sp.arg == argNone && sp.opt.kind == kVersion
}

// systemProgram reports whether p names a program the system installed:
// an absolute, clean path below systemPrefixes whose file, after its
// links, lies below them too, and that file and every directory above it
// belong to root and are writable by no one else (by their mode bits,
// whoever asks). It stats at most the components of two paths.
func systemProgram(p string) bool {
	if !filepath.IsAbs(p) || filepath.Clean(p) != p || !underSystem(p) {
		return false
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil || !underSystem(real) {
		return false
	}
	for d, first := real, true; ; d, first = filepath.Dir(d), false {
		var st syscall.Stat_t
		if syscall.Lstat(d, &st) != nil || st.Uid != 0 || st.Mode&0o022 != 0 {
			return false
		}
		if first && (st.Mode&syscall.S_IFMT != syscall.S_IFREG || st.Mode&0o111 == 0) {
			return false
		}
		if d == "/" {
			return true
		}
	}
}

func underSystem(p string) bool {
	for _, pre := range systemPrefixes {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	return false
}

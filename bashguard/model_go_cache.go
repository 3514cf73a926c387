package bashguard

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// A go command in a module reaches the module proxy only for what it
// lacks (model_go_toolchain.go): a toolchain newer than the installed one that
// the module's go or toolchain line asks for, and modules its go.sum
// records that the module cache does not hold. When the host says which
// go is installed (Policy.GoVersion) and where its module cache is
// (Policy.GoModCache), the guard looks: a module whose go line the
// installed go satisfies and whose go.sum the cache holds whole (the
// .zip of every module with a content hash, the .mod of every one with a
// go.mod hash) downloads nothing, so no host is judged. go reports a
// requirement go.sum lacks ("missing go.sum entry") rather than fetching
// it. A go.work, a replace to another module, GOFLAGS, GOMODCACHE or
// GOTOOLCHAIN in the command's environment, or a file over the bound:
// the hosts are judged as before.

// maxGoFileBytes bounds the go.mod and go.sum the guard reads.
const maxGoFileBytes = 4 << 20

// goFetchesNothing reports whether the go command v, run in the
// call's working directory, surely downloads nothing: neither a
// toolchain nor a module.
func (m *cmdCall) goFetchesNothing(v *argv) bool {
	pol := m.pol
	if pol.GoVersion == "" || pol.GoModCache == "" || pol.GoModCache != "off" && !filepath.IsAbs(pol.GoModCache) || m.dir == "" {
		return false
	}
	if !m.goPlainLine(v) {
		return false
	}
	if pol.GoModCache == "off" && pol.GoVersion == "local" {
		return true // GOPROXY=off and GOTOOLCHAIN=local: go downloads nothing
	}
	local, ok := goRelease(strings.TrimPrefix(pol.GoVersion, "go"))
	if !ok && pol.GoVersion != "local" {
		return false
	}
	modDir := ""
	if f := m.ws.goModule(m.dir); f.dir != "" && !f.work {
		modDir = f.dir // go.work first, as go looks: a workspace is not a module's own
	}
	if modDir == "" {
		return false
	}
	gomod, err := readAtMost(filepath.Join(modDir, "go.mod"), maxGoFileBytes)
	if err != nil || !goModLocal(gomod, pol.GoVersion == "local", local) {
		return false
	}
	if pol.GoModCache == "off" {
		return true // GOPROXY=off: no module is downloaded
	}
	sum, err := readAtMost(filepath.Join(modDir, "go.sum"), maxGoFileBytes)
	if os.IsNotExist(err) {
		return !goRequires(gomod)
	}
	return err == nil && goSumCached(sum, pol.GoModCache)
}

// goPlainLine reports a go command line that works on the module of the
// working directory as its go.mod says: no -C, -modfile or -mod=mod, no
// word only known at run time, none of goModuleEnv in its environment.
func (m *cmdCall) goPlainLine(v *argv) bool {
	for i := 1; i < v.len(); i++ {
		if w := strings.TrimLeft(v.vals[i], "-"); !v.literal(i) || w == "C" || strings.HasPrefix(w, "C=") || strings.HasPrefix(w, "modfile") || strings.HasPrefix(w, "mod=mod") {
			return false // another module, another go.mod, or one go may rewrite
		}
	}
	for _, e := range m.cmdEnv {
		if slices.Contains(goModuleEnv, e.name) {
			return false
		}
	}
	return true
}

// goModLocal reports a go.mod whose go and toolchain lines the installed
// go (local; any, with anyGo: GOTOOLCHAIN=local) satisfies and whose
// replaces are directories.
func goModLocal(gomod []byte, anyGo bool, local [4]int) bool {
	for line := range strings.SplitSeq(string(gomod), "\n") {
		f := strings.Fields(strings.TrimSpace(strings.SplitN(line, "//", 2)[0]))
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "go", "toolchain":
			if len(f) != 2 {
				return false
			}
			if anyGo {
				continue // GOTOOLCHAIN=local: the installed go, or an error
			}
			want, ok := goRelease(strings.TrimPrefix(f[1], "go"))
			if !ok || goNewer(want, local) {
				return false // GOTOOLCHAIN=auto switches to a newer release
			}
		case "replace":
			// A replace to a local directory ("=> ../x") downloads nothing;
			// one to another module version does, and is not followed here.
			if i := strings.Index(line, "=>"); i < 0 || !goLocalReplace(line[i+2:]) {
				return false
			}
		}
	}
	return true
}

// goSumCached reports whether the module cache at cache holds every file
// the go.sum sum records: the .zip of every module with a content hash,
// the .mod of every one with a go.mod hash.
func goSumCached(sum []byte, cache string) bool {
	sc := bufio.NewScanner(bytes.NewReader(sum))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if len(f) != 3 {
			return false
		}
		mod, ver := f[0], f[1]
		file := ".zip"
		if v, ok := strings.CutSuffix(ver, "/go.mod"); ok {
			ver, file = v, ".mod"
		}
		esc, ok := goEscape(mod)
		escVer, okv := goEscape(ver)
		if !ok || !okv {
			return false
		}
		if _, err := os.Stat(filepath.Join(cache, "cache", "download", esc, "@v", escVer+file)); err != nil {
			return false
		}
	}
	return sc.Err() == nil
}

// goRequires reports a go.mod that requires a module.
func goRequires(gomod []byte) bool {
	for line := range strings.SplitSeq(string(gomod), "\n") {
		if f := strings.Fields(line); len(f) > 0 && (f[0] == "require" || f[0] == "tool") {
			return true
		}
	}
	return false
}

// goLocalReplace reports the right side of a replace that is a directory.
func goLocalReplace(s string) bool {
	f := strings.Fields(strings.SplitN(s, "//", 2)[0])
	return len(f) == 1 && (strings.HasPrefix(f[0], "./") || strings.HasPrefix(f[0], "../") || filepath.IsAbs(f[0]))
}

// goEscape is the module cache's spelling of a module path or version:
// each upper-case letter as "!" and its lower case (golang.org/x/mod's
// module.EscapePath). Anything unusual is refused.
func goEscape(s string) (string, bool) {
	if s == "" || strings.Contains(s, "..") || strings.HasPrefix(s, "/") {
		return "", false
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'A' && r <= 'Z':
			b.WriteByte('!')
			b.WriteRune(r + 'a' - 'A')
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', strings.ContainsRune("-._~/+", r):
			b.WriteRune(r)
		default:
			return "", false
		}
	}
	return b.String(), true
}

// goRelease parses a Go release ("1.26", "1.26.8", "1.27rc1") into
// major, minor, patch and a pre-release rank (rc and beta sort before
// the release).
func goRelease(s string) ([4]int, bool) {
	var r [4]int
	r[3] = 1 << 20 // a release sorts after its betas and rcs
	if i := strings.IndexAny(s, "br"); i > 0 {
		pre := s[i:]
		s = s[:i]
		n, err := 0, error(nil)
		switch {
		case strings.HasPrefix(pre, "rc"):
			n, err = strconv.Atoi(pre[2:])
			r[3] = 1000 + n
		case strings.HasPrefix(pre, "beta"):
			n, err = strconv.Atoi(pre[4:])
			r[3] = n
		default:
			return r, false
		}
		if err != nil {
			return r, false
		}
	}
	parts := strings.Split(s, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return r, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return r, false
		}
		r[i] = n
	}
	return r, true
}

// goNewer reports whether release a is newer than b.
func goNewer(a, b [4]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] > b[i]
		}
	}
	return false
}

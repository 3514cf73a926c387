package bashguard

import (
	"path/filepath"
)

// A go command run in a module may reach the network before it does what
// it was asked: with GOTOOLCHAIN=auto (the default of the go
// distribution), a go.mod or go.work whose go or toolchain line names a
// newer release than the installed one makes every go command, go
// version and go env included, download that toolchain from the module
// proxy (golang.org/toolchain) and run it; and go list loads the main
// module's packages, downloading the modules go.mod requires that the
// module cache lacks. So a go command in a module reaches the module
// proxy and the checksum database, whose hosts go to the HostJudge
// (goProxyHosts); GOTOOLCHAIN=local in its environment keeps the
// installed toolchain. Without domain rules nothing changes.

// maxGoModUp bounds the directories looked at for a go.mod or go.work.
const maxGoModUp = 64

// inGoModule reports whether go, started in the call's working
// directory, finds a go.mod or go.work there or in a parent.
func (m *cmdCall) inGoModule() bool {
	if m.dir == "" {
		return true // cannot tell: as if in one
	}
	f := m.ws.goModule(m.dir)
	return f.dir != "" || f.deep
}

// goToolchainLocal reports GOTOOLCHAIN=local (or a literal go1.N... that
// is not +auto) in the command's environment: go runs the installed
// toolchain and downloads none.
func (m *cmdCall) goToolchainLocal() bool {
	for _, e := range m.cmdEnv {
		if e.name == "GOTOOLCHAIN" && e.lit && e.val == "local" {
			return true
		}
	}
	return false
}

// goModuleHosts judges the hosts a go command in a module reaches for its
// toolchain and, for go list, for the modules it loads. Subcommands that
// fetch anyway are judged by goHosts.
func (m *cmdCall) goModuleHosts(c *verdictAcc, v *argv, sub string) {
	f := goSubFetch()[sub]
	if f.fetchesAnyway() || !m.inGoModule() || m.goFetchesNothing(v) {
		return
	}
	if f == goFetchList {
		m.goProxyHosts(c, v, true, false)
		return
	}
	if !m.goToolchainLocal() {
		m.goProxyHosts(c, v, false, false)
	}
}

// modFact is where go, started in a directory, finds its module: the
// first directory up from it that holds a go.mod or a go.work.
type modFact struct {
	dir       string // that directory, or "" for none
	mod, work bool   // which of the two it holds
	deep      bool   // none within maxGoModUp directories: cannot tell
}

// goModule is the modFact of dir, kept on the cache: each directory on
// the way is stamped by the two entries looked up in it, and once it has
// aged by its own stamp (see wsFact.check). A relative dir is looked up
// afresh each time: it depends on the process's directory.
func (c *wsCache) goModule(dir string) modFact {
	if !filepath.IsAbs(dir) {
		c = nil
	}
	return c.get(factKey{kind: "gomod", a: dir}, func(r *stampRec) any {
		var f modFact
		d := filepath.Clean(dir)
		for range maxGoModUp {
			f.work = r.exists(filepath.Join(d, "go.work"), d)
			f.mod = r.exists(filepath.Join(d, "go.mod"), d)
			if f.work || f.mod {
				f.dir = d
				return f
			}
			up := filepath.Dir(d)
			if up == d {
				return f
			}
			d = up
		}
		f.deep = true
		return f
	}).(modFact)
}

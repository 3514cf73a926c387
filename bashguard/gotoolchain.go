package bashguard

import (
	"os"
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

// inGoModule reports whether go, started in the analyzer's working
// directory, finds a go.mod or go.work there or in a parent.
func (a *analyzer) inGoModule() bool {
	if a.dir == "" {
		return true // cannot tell: as if in one
	}
	d := filepath.Clean(a.dir)
	for range maxGoModUp {
		for _, f := range []string{"go.mod", "go.work"} {
			if _, err := os.Stat(filepath.Join(d, f)); err == nil {
				return true
			}
		}
		up := filepath.Dir(d)
		if up == d {
			return false
		}
		d = up
	}
	return true
}

// goToolchainLocal reports GOTOOLCHAIN=local (or a literal go1.N... that
// is not +auto) in the command's environment: go runs the installed
// toolchain and downloads none.
func (a *analyzer) goToolchainLocal() bool {
	for _, e := range a.cmdEnv {
		if e.name == "GOTOOLCHAIN" && e.lit && e.val == "local" {
			return true
		}
	}
	return false
}

// goModuleHosts judges the hosts a go command in a module reaches for its
// toolchain and, for go list, for the modules it loads. Subcommands that
// fetch anyway are judged by goHosts.
func (a *analyzer) goModuleHosts(c *verdictAcc, v *argv, sub string) {
	f := goSubFetch[sub]
	if f.fetchesAnyway() || !a.inGoModule() || a.goFetchesNothing(v) {
		return
	}
	if f == goFetchList {
		a.goProxyHosts(c, v, true, false)
		return
	}
	if !a.goToolchainLocal() {
		a.goProxyHosts(c, v, false, false)
	}
}

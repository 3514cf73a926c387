package bashguard

import (
	"path/filepath"
)

// The Go module cache as a place a command may read.
//
// go keeps the modules it downloads under GOMODCACHE, each at
// path@version, unpacked read-only (go makes the files and directories
// unwritable, and "go clean -modcache" is the only sanctioned way to
// remove them): it is published source, fetched through a checksum
// database that every other user of the module sees the same. Reading it
// is what an agent does to learn a dependency's API, and it holds no
// secret of the user's, provided the cache holds only public modules:
// the host leaves ModCache empty when GOPRIVATE, GONOPROXY, GONOSUMDB,
// GOINSECURE or GOPROXY say go may fetch modules the public proxy does
// not serve (cmd/toolgate's goDirs).
//
// So a read or probe the path judge asks about only because it lies
// outside the roots ("outside the allowed roots: ...") is allowed when
// the path, with every link followed, lies under ModCache with every link
// followed. A path the judge denies (a Deny rule, a secret path) or asks
// about for another reason (an Ask rule) keeps that answer, and a write
// is never lifted. The build cache (GOCACHE) is not a place to read: it
// holds what go built from every project on the machine, private ones
// included, and the output of their cached tests, which may print
// anything; a read there is asked as any read outside the roots is.
//
// $(go env NAME) for GOMODCACHE, GOCACHE or GOPATH (one name, no option,
// no assignment, go not shadowed by a function) stands for the host's
// value of that name, as $(pwd) stands for the working directory: "go
// env" prints the variable of the environment, else the go env file's,
// else the default, which the host computed the same way. A script
// cannot change those names for the substitution without an assignment
// to an upper-case variable, which is asked (vars.go).

// goEnvValue is the host's value of a name "go env" prints, or "".
func (m *cmdCall) goEnvValue(name string) string {
	var v string
	switch e := m.pol.GoEnv; name {
	case "GOMODCACHE":
		v = e.ModCache
	case "GOCACHE":
		v = e.Cache
	case "GOPATH":
		v = e.Path
	}
	if !filepath.IsAbs(v) {
		return ""
	}
	return v
}

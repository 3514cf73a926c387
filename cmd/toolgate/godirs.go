package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/toolgate/toolgate/bashguard"
)

// goDirVars are the variables that, in a go env file, change where go
// keeps what it downloads and builds or which modules it may download.
var goDirVars = []string{"GOMODCACHE", "GOPATH", "GOCACHE", "GOPRIVATE", "GONOPROXY", "GONOSUMDB", "GONOSUMCHECK", "GOINSECURE", "GOSUMDB", "GOFLAGS"}

// goPrivateVars are the variables with which go may fetch modules the
// public proxy and checksum database do not vouch for (private ones, or
// unverified): then the module cache may hold private source, and it is
// not given as readable.
var goPrivateVars = []string{"GOPRIVATE", "GONOPROXY", "GONOSUMDB", "GONOSUMCHECK", "GOINSECURE", "GOSUMDB"}

// goDirs computes, for bashguard.Policy.GoEnv, what "go env GOMODCACHE
// GOCACHE GOPATH" prints in the environment Claude Code runs commands
// in, the way go computes it: the variable when set, else the default
// (GOPATH: $HOME/go; GOMODCACHE: GOPATH's first entry + /pkg/mod;
// GOCACHE: $XDG_CACHE_HOME/go-build, else $HOME/.cache/go-build). It is
// computed, not run: once per check, at no cost, and without running the
// go that PATH names. What it cannot be sure of is left empty, and the
// guard then treats the value as unknown: GOENV set, or a go env file
// (go env -w) that sets one of goDirVars or cannot be read, a relative
// value, GOCACHE=off. ModCache is also left empty when one of
// goPrivateVars, or -insecure in GOFLAGS, says the cache may hold
// private or unverified modules: the guard lets commands read the cache
// as public source only.
func goDirs(getenv func(string) string, home string) bashguard.GoEnv {
	var e bashguard.GoEnv
	if getenv == nil || getenv("GOENV") != "" {
		return e
	}
	envFile := ""
	if x := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
		envFile = filepath.Join(x, "go", "env")
	} else if filepath.IsAbs(home) {
		envFile = filepath.Join(home, ".config", "go", "env")
	}
	if envFile != "" {
		b, err := os.ReadFile(envFile)
		if err != nil && !os.IsNotExist(err) {
			return e
		}
		for _, name := range goDirVars {
			if strings.Contains(string(b), name) {
				return e
			}
		}
	}
	abs := func(p string) string {
		if !filepath.IsAbs(p) {
			return ""
		}
		return filepath.Clean(p)
	}
	if gp := getenv("GOPATH"); gp != "" {
		first, _, _ := strings.Cut(gp, string(filepath.ListSeparator))
		e.Path = abs(first)
	} else if filepath.IsAbs(home) {
		e.Path = filepath.Join(home, "go")
	}
	switch c := getenv("GOCACHE"); {
	case c != "":
		e.Cache = abs(c)
	case filepath.IsAbs(getenv("XDG_CACHE_HOME")):
		e.Cache = filepath.Join(getenv("XDG_CACHE_HOME"), "go-build")
	case filepath.IsAbs(home):
		e.Cache = filepath.Join(home, ".cache", "go-build")
	}
	if mc := getenv("GOMODCACHE"); mc != "" {
		e.ModCache = abs(mc)
	} else if e.Path != "" {
		e.ModCache = filepath.Join(e.Path, "pkg", "mod")
	}
	for _, name := range goPrivateVars {
		if getenv(name) != "" {
			e.ModCache = ""
		}
	}
	if strings.Contains(getenv("GOFLAGS"), "insecure") {
		e.ModCache = ""
	}
	return e
}

package main

import (
	"os"
	"path/filepath"
	"strings"
)

// goFacts finds, in the environment Claude Code runs commands in, the
// release of the go its PATH runs and the directory of its module cache,
// for bashguard.Policy.GoVersion and GoModCache: with them the guard
// sees that a go build in a module whose modules are all cached reaches
// no host. GOTOOLCHAIN=local and GOPROXY=off in the environment are
// given as "local" and "off". Anything else it cannot tell for sure
// leaves both empty, and go's module proxy is judged as a host: GOROOT,
// GOENV, GOWORK, another GOTOOLCHAIN or GOPROXY, GOFLAGS (unless GOPROXY
// is off) set in the environment, or a go env file (go env -w) that sets
// what go downloads or where it keeps it.
func goFacts(getenv func(string) string, home string) (version, modCache string) {
	return goFactsRead(getenv, home, os.ReadFile)
}

// goFactsRead is goFacts reading the go env file and GOROOT's VERSION
// with readFile (a warm process's reads them again only when their stat
// changed: warmCache.readFile).
func goFactsRead(getenv func(string) string, home string, readFile func(string) ([]byte, error)) (version, modCache string) {
	if getenv == nil {
		return "", ""
	}
	for _, name := range []string{"GOROOT", "GOENV", "GOWORK"} {
		if getenv(name) != "" {
			return "", ""
		}
	}
	off := getenv("GOPROXY") == "off"
	switch {
	case getenv("GOPROXY") != "" && !off, getenv("GOFLAGS") != "" && !off:
		return "", ""
	case getenv("GOTOOLCHAIN") == "local" && off:
		return "local", "off"
	case getenv("GOTOOLCHAIN") != "" && getenv("GOTOOLCHAIN") != "local":
		return "", ""
	}
	defer func() {
		if version != "" && getenv("GOTOOLCHAIN") == "local" {
			version = "local"
		}
		if version != "" && off {
			modCache = "off"
		}
	}()
	envFile := ""
	if x := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
		envFile = filepath.Join(x, "go", "env")
	} else if home != "" {
		envFile = filepath.Join(home, ".config", "go", "env")
	}
	if envFile != "" {
		if b, err := readFile(envFile); err == nil {
			for _, name := range []string{"GOMODCACHE", "GOPATH", "GOFLAGS", "GOTOOLCHAIN", "GOPROXY", "GOROOT"} {
				if strings.Contains(string(b), name) {
					return "", ""
				}
			}
		} else if !os.IsNotExist(err) {
			return "", ""
		}
	}
	goBin := ""
	for dir := range strings.SplitSeq(getenv("PATH"), ":") {
		if !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, "go")
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			goBin = p
			break
		}
	}
	if goBin == "" {
		return "", ""
	}
	real, err := filepath.EvalSymlinks(goBin)
	if err != nil {
		return "", ""
	}
	// The go command finds its GOROOT above its own bin directory.
	b, err := readFile(filepath.Join(filepath.Dir(filepath.Dir(real)), "VERSION"))
	if err != nil {
		return "", ""
	}
	version, _, _ = strings.Cut(string(b), "\n")
	if !strings.HasPrefix(version, "go1.") {
		return "", ""
	}
	switch gp := getenv("GOPATH"); {
	case getenv("GOMODCACHE") != "":
		modCache = getenv("GOMODCACHE")
	case gp != "":
		first, _, _ := strings.Cut(gp, ":")
		modCache = filepath.Join(first, "pkg", "mod")
	case home != "":
		modCache = filepath.Join(home, "go", "pkg", "mod")
	}
	if !filepath.IsAbs(modCache) {
		return "", ""
	}
	return version, modCache
}

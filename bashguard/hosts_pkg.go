package bashguard

import (
	"strings"
)

// The package managers with a reader of their own: go get and go
// install PKG@VERSION reach the module proxy, the checksum database and
// the module's host (its path's first element), go build and the like
// the proxy and the checksum database; pip install reaches its index
// (pypi.org, or the one -i names) and the URLs it is given. The other
// package managers are rows of the netTools table (hosts_tools.go). What
// the project's own files name (go.mod, requirements files) is only known
// at run time here.

// goValFlags are the flags of go get and go install that take a value
// (go help get, go help build). Go's flag package takes "-flag value" for
// them and "-flag" alone for the boolean ones.
var goValFlags = []string{"C", "p", "asmflags", "buildmode", "compiler", "gccgoflags", "gcflags", "installsuffix",
	"ldflags", "mod", "modfile", "overlay", "pgo", "pkgdir", "tags", "toolexec", "covermode", "coverpkg", "o", "exec"}

func (a *analyzer) goHosts(c *verdictAcc, v *argv) {
	sub := v.vals[1]
	a.goModuleHosts(c, v, sub)
	if sub == "mod" || sub == "work" {
		if v.len() > 2 && goModFetch[sub+" "+v.vals[2]] {
			a.goProxyHosts(c, v, true, false)
		}
		return
	}
	if sub == "env" {
		a.goEnvWrite(c, v)
		return
	}
	if goBuildFetch[sub] && sub != "run" {
		// Outside a module go builds against the standard library alone,
		// and downloads nothing.
		if a.inGoModule() && !a.goFetchesNothing(v) {
			a.goProxyHosts(c, v, true, false)
		}
		return
	}
	if sub != "get" && sub != "install" && sub != "run" {
		return
	}
	if !a.goProxyHosts(c, v, sub != "get", true) {
		return
	}
	var pkgs []int
	for i := 2; i < v.len(); i++ {
		w := v.vals[i]
		if !v.literal(i) {
			pkgs = append(pkgs, i)
			continue
		}
		if w == "--" {
			for i++; i < v.len(); i++ {
				pkgs = append(pkgs, i)
			}
			break
		}
		if !strings.HasPrefix(w, "-") {
			pkgs = append(pkgs, i)
			continue
		}
		name := strings.TrimLeft(w, "-")
		if strings.Contains(name, "=") {
			continue
		}
		for _, f := range goValFlags {
			if name == f {
				i++
				break
			}
		}
	}
	if sub == "get" && len(pkgs) == 0 {
		a.unknownHost(c, "the hosts of the modules go.mod requires, which are not read here")
		return
	}
	for _, i := range pkgs {
		if !v.literal(i) {
			a.unknownHost(c, "a host only known at run time ("+v.vals[i]+")")
			continue
		}
		path, version, versioned := strings.Cut(v.vals[i], "@")
		if sub != "get" && !versioned {
			continue // builds the main module's packages (or go run's arguments)
		}
		first, _, _ := strings.Cut(path, "/")
		switch {
		case path == "" || first == "." || first == ".." || strings.HasPrefix(path, "/") || path == "all" || path == "std" || path == "cmd" ||
			!strings.Contains(first, ".") && !strings.ContainsAny(first, "*"):
			if sub == "get" {
				a.unknownHost(c, "the hosts of the modules "+v.vals[i]+" needs, which are not read here")
			}
		case !validHost(first, false):
			a.unknownHost(c, "the host of the module "+path+", which is not read here")
		default:
			_ = version
			a.judgeHost(c, first)
		}
	}
}

func isPip(name string) bool {
	if name == "pip" || name == "pip3" {
		return true
	}
	return strings.HasPrefix(name, "pip3.") && strings.Trim(name[len("pip3."):], "0123456789") == ""
}

// pipGlobalVal are pip's general options that take a value (pip help).
var pipGlobalVal = []string{"--python", "--log", "--log-file", "--local-log", "--keyring-provider", "--proxy", "--retries",
	"--timeout", "--exists-action", "--trusted-host", "--cert", "--client-cert", "--cache-dir", "--use-feature", "--use-deprecated",
	"--resume-retries"}

// pipInstallVal are the options of pip install, download and wheel that
// take a value (pip help install).
var pipInstallVal = append([]string{"--requirement", "--constraint", "--editable", "--target", "--platform", "--python-version",
	"--implementation", "--abi", "--root", "--prefix", "--src", "--upgrade-strategy", "--global-option", "--config-settings",
	"--no-binary", "--only-binary", "--progress-bar", "--root-user-action", "--report", "--index-url", "--extra-index-url",
	"--find-links", "--dest", "--wheel-dir", "--build-option", "--group"}, pipGlobalVal...)

// pipHosts judges pip's command line (v.vals[0] is pip).
func (a *analyzer) pipHosts(c *verdictAcc, v argv) {
	i := 1
	for ; i < v.len() && strings.HasPrefix(v.vals[i], "-"); i++ {
		name, _, has := strings.Cut(v.vals[i], "=")
		if !has && takesValue(name, pipGlobalVal, true) {
			if optIs(name, true, "--proxy") {
				a.unknownHost(c, "the hosts pip reaches through its --proxy, which are not read here")
				return
			}
			i++
		}
	}
	if i >= v.len() || !v.literal(i) {
		return
	}
	switch v.vals[i] {
	case "install", "download", "wheel", "index":
	case "config":
		// pip config set global.index-url URL: where later installs go.
		for j := i + 1; j < v.len(); j++ {
			if w := v.vals[j]; !v.literal(j) {
				a.unknownHost(c, "a host only known at run time ("+w+")")
			} else if strings.Contains(w, "://") {
				a.literalURLHost(c, w[schemeStart(w):], false)
			}
		}
		return
	default:
		return
	}
	index, unknown := "pypi.org", ""
	var extra []string
	for _, e := range a.cmdEnv {
		eff := effectOf(pipEnv, e.name, false)
		switch {
		case eff == 0:
		case !e.lit || eff == effUnknown:
			unknown = e.name + "="
		case eff == effReplace:
			index = ""
			extra = append(extra, e.val)
		case eff == effAdd:
			extra = append(extra, strings.Fields(e.val)...)
		}
	}
	ops := optScan(&v, i+1, "rcetiCfd", pipInstallVal, true, func(name, val string, at int) {
		switch {
		case name == "-i" || optIs(name, true, "--index-url"):
			index = ""
			extra = append(extra, val)
		case optIs(name, true, "--extra-index-url") || name == "-f" || optIs(name, true, "--find-links"):
			extra = append(extra, val)
		case name == "-e" || optIs(name, true, "--editable"):
			extra = append(extra, val)
		case name == "-r" || name == "-c" || optIs(name, true, "--requirement", "--constraint", "--proxy", "--group"):
			unknown = name
		}
	})
	if unknown != "" {
		a.unknownHost(c, "the hosts the requirements of "+unknown+" name, which are not read here")
		return
	}
	if index != "" {
		a.judgeHost(c, index)
		a.judgeHost(c, "files.pythonhosted.org") // where PyPI's files are
	}
	for _, e := range extra {
		if strings.Contains(e, "://") {
			a.literalURLHost(c, e[schemeStart(e):], false)
		} else if !strings.HasPrefix(e, "/") && !strings.HasPrefix(e, ".") {
			a.unknownHost(c, "the host of "+e+", which is not read here")
		}
	}
	for _, j := range ops {
		w := v.vals[j]
		switch {
		case !v.literal(j):
			a.unknownHost(c, "a host only known at run time ("+w+")")
		case strings.Contains(w, "://"):
			a.literalURLHost(c, w[schemeStart(w):], false)
		case w == "." || strings.HasPrefix(w, "./") || strings.HasPrefix(w, "/") || strings.HasPrefix(w, "../"):
			a.unknownHost(c, "the hosts the project "+w+" names for its dependencies, which are not read here")
		}
	}
}

// schemeStart returns where the scheme of the URL inside w starts ("name
// @ https://..." and "git+https://..." hold one).
func schemeStart(w string) int {
	i := strings.Index(w, "://")
	j := i
	for j > 0 && (w[j-1] >= 'a' && w[j-1] <= 'z' || w[j-1] >= 'A' && w[j-1] <= 'Z' || w[j-1] >= '0' && w[j-1] <= '9' || w[j-1] == '+' || w[j-1] == '.' || w[j-1] == '-') {
		j--
	}
	return j
}

// goEnvWrite judges go env -w: a GOPROXY or GOSUMDB it writes is where
// later go commands connect.
func (a *analyzer) goEnvWrite(c *verdictAcc, v *argv) {
	w := false
	for i := 2; i < v.len(); i++ {
		s := v.vals[i]
		switch {
		case s == "-w":
			w = true
		case !w || strings.HasPrefix(s, "-"):
		case !v.literal(i):
			a.unknownHost(c, "a host only known at run time ("+s+")")
		default:
			name, val, _ := strings.Cut(s, "=")
			switch name {
			case "GOPROXY":
				for _, p := range strings.FieldsFunc(val, func(r rune) bool { return r == ',' || r == '|' }) {
					if strings.Contains(p, "://") {
						a.literalURLHost(c, p, false)
					}
				}
			case "GOSUMDB":
				if f := strings.Fields(val); len(f) > 1 {
					a.literalURLHost(c, f[1], true)
				} else if len(f) == 1 && f[0] != "off" {
					n, _, _ := strings.Cut(f[0], "+")
					a.literalURLHost(c, n, true)
				}
			}
		}
	}
}

// goBuildFetch are the go subcommands that load the main module's
// packages, downloading the modules go.mod requires that the module cache
// lacks (go help modules); goModFetch are those of go mod and go work.
// go list is not here: without -u or -versions, which the safe list does
// not allow, it answers from the module cache.
var (
	goBuildFetch = map[string]bool{"build": true, "test": true, "run": true, "vet": true, "generate": true, "fix": true}
	goModFetch   = map[string]bool{"mod download": true, "mod tidy": true, "mod graph": true, "mod why": true,
		"mod verify": true, "work sync": true, "work vendor": true, "mod vendor": true}
)

// goProxyHosts judges the module proxy and checksum database a go command
// reaches: GOPROXY's (proxy.golang.org by default) and GOSUMDB's
// (sum.golang.org), as the command's environment sets them. The default
// GOPROXY's ",direct" is a fallback for modules the proxy does not serve;
// a GOPROXY that names direct itself, or GOPRIVATE, GONOPROXY and
// GOINSECURE, send modules to their own hosts: named ones are judged by
// their caller (named set), those go.mod requires are only known at run
// time. -mod=vendor (as a flag or in GOFLAGS) and GOPROXY=off reach no
// host. It reports whether the caller goes on to judge named modules.
func (a *analyzer) goProxyHosts(c *verdictAcc, v *argv, project, named bool) bool {
	proxy, sumdb, direct := "https://proxy.golang.org,direct", "sum.golang.org", false
	for _, e := range a.cmdEnv {
		if !strings.HasPrefix(e.name, "GO") {
			continue
		}
		switch e.name {
		case "GOPROXY", "GOSUMDB", "GOFLAGS", "GOPRIVATE", "GONOPROXY", "GONOSUMDB", "GOINSECURE", "GOENV", "GOTOOLCHAIN", "GOAUTH":
		default:
			continue
		}
		if !e.lit {
			a.unknownHost(c, "the hosts go reaches with "+e.name+"=, which is only known at run time")
			return false
		}
		switch e.name {
		case "GOPROXY":
			proxy = e.val
		case "GOSUMDB":
			sumdb = e.val
		case "GOFLAGS":
			for _, f := range strings.Fields(e.val) {
				if f == "-mod=vendor" && project {
					return false
				}
				if strings.HasPrefix(f, "-modfile") || strings.HasPrefix(f, "-C") {
					a.unknownHost(c, "the hosts go reaches with GOFLAGS="+e.val+", which are not read here")
					return false
				}
			}
		case "GOENV":
			a.unknownHost(c, "the hosts the go environment file of GOENV names, which are not read here")
			return false
		case "GOPRIVATE", "GONOPROXY", "GOINSECURE":
			if e.val != "" {
				direct = true
			}
		}
	}
	if project {
		for i := 2; i < v.len(); i++ {
			if w := v.vals[i]; w == "-mod=vendor" || w == "--mod=vendor" || (w == "-mod" || w == "--mod") && i+1 < v.len() && v.vals[i+1] == "vendor" {
				return false
			}
		}
	}
	if proxy == "" {
		proxy = "https://proxy.golang.org,direct"
	}
	entries := strings.FieldsFunc(proxy, func(r rune) bool { return r == ',' || r == '|' })
	for n, p := range entries {
		switch {
		case p == "off":
			if n == 0 {
				return false // nothing is downloaded
			}
		case p == "direct":
			if n == 0 || proxy != "https://proxy.golang.org,direct" {
				direct = true
			}
		case strings.Contains(p, "://"):
			a.literalURLHost(c, p, false)
		default:
			a.unknownHost(c, "the module proxy "+p+", which is not read here")
		}
		if p == "off" || p == "direct" && n == 0 {
			break
		}
	}
	switch f := strings.Fields(sumdb); {
	case sumdb == "off" || len(f) == 0:
	case len(f) > 1:
		a.literalURLHost(c, f[1], true)
	default:
		name, _, _ := strings.Cut(f[0], "+")
		a.literalURLHost(c, name, true)
	}
	if direct && project {
		a.unknownHost(c, "the hosts of the modules go.mod requires, which go reaches directly and are not read here")
	}
	return named
}

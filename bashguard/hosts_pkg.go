package bashguard

import (
	"os"
	"path/filepath"
	"strings"
)

// The package managers: go get and go install PKG@VERSION reach the
// module's host (its path's first element); pip install reaches its index
// (pypi.org, or the one -i names) and the URLs it is given; npm install
// reaches its registry (registry.npmjs.org, or the one --registry names)
// and the hosts of URL and git specs. What the project's own files name
// (go.mod, requirements files, package.json and its lockfile, a
// project .npmrc) is only known at run time here.

// goValFlags are the flags of go get and go install that take a value
// (go help get, go help build). Go's flag package takes "-flag value" for
// them and "-flag" alone for the boolean ones.
var goValFlags = []string{"C", "p", "asmflags", "buildmode", "compiler", "gccgoflags", "gcflags", "installsuffix",
	"ldflags", "mod", "modfile", "overlay", "pgo", "pkgdir", "tags", "toolexec", "covermode", "coverpkg", "o", "exec"}

func (a *analyzer) goHosts(c *verdictAcc, v *argv) {
	sub := v.vals[1]
	if sub != "get" && sub != "install" {
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
		if sub == "install" && !versioned {
			continue // builds the main module's packages
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
	case "install", "download", "wheel":
	default:
		return
	}
	index, unknown := "pypi.org", ""
	var extra []string
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

var npmInstall = map[string]bool{
	"install": true, "i": true, "in": true, "ins": true, "inst": true, "insta": true, "instal": true, "isnt": true, "isnta": true,
	"isntal": true, "isntall": true, "add": true, "ci": true, "clean-install": true, "ic": true, "install-clean": true,
	"isntall-clean": true, "update": true, "up": true, "upgrade": true, "udpate": true, "install-test": true, "it": true,
	"install-ci-test": true, "cit": true,
}

// npmValLong are npm's options that take a value and may come before or
// after the subcommand (npm help install, npm help config).
var npmValLong = []string{"--registry", "--tag", "--prefix", "--workspace", "--omit", "--include", "--install-strategy",
	"--cache", "--userconfig", "--globalconfig", "--save-prefix", "--loglevel", "--before", "--cpu", "--os", "--libc"}

func (a *analyzer) npmHosts(c *verdictAcc, v *argv) {
	registry, unknown := "registry.npmjs.org", ""
	var scoped []string
	ops := optScan(v, 1, "w", npmValLong, false, func(name, val string, at int) {
		switch {
		case name == "--registry":
			registry = val
		case strings.HasPrefix(name, "--@") && strings.HasSuffix(name, ":registry"):
			scoped = append(scoped, val)
		case name == "--userconfig" || name == "--globalconfig":
			unknown = name
		}
	})
	if len(ops) == 0 || !v.literal(ops[0]) || !npmInstall[v.vals[ops[0]]] {
		return
	}
	if unknown != "" {
		a.unknownHost(c, "the registry npm's "+unknown+" names, which is not read here")
		return
	}
	if a.dir != "" && registry == "registry.npmjs.org" {
		if _, err := os.Lstat(filepath.Join(a.dir, ".npmrc")); err == nil {
			a.unknownHost(c, "the registry the project's .npmrc names, which is not read here")
			return
		}
	}
	if strings.Contains(registry, "://") {
		a.literalURLHost(c, registry, false)
	} else {
		a.judgeHost(c, registry)
	}
	for _, s := range scoped {
		a.literalURLHost(c, s, false)
	}
	specs := ops[1:]
	if len(specs) == 0 {
		a.unknownHost(c, "the hosts package.json and its lockfile name, which are not read here")
		return
	}
	for _, j := range specs {
		w := v.vals[j]
		switch {
		case !v.literal(j):
			a.unknownHost(c, "a host only known at run time ("+w+")")
		case strings.Contains(w, "://"):
			a.literalURLHost(c, w[schemeStart(w):], false)
		case strings.HasPrefix(w, "github:") || !strings.HasPrefix(w, "@") && strings.Count(w, "/") == 1 &&
			!strings.HasPrefix(w, ".") && !strings.HasPrefix(w, "/") && !strings.HasPrefix(w, "~") && !strings.Contains(w, ":"):
			a.judgeHost(c, "github.com")
		case strings.HasPrefix(w, "gitlab:"):
			a.judgeHost(c, "gitlab.com")
		case strings.HasPrefix(w, "bitbucket:"):
			a.judgeHost(c, "bitbucket.org")
		case strings.HasPrefix(w, "gist:"):
			a.judgeHost(c, "gist.github.com")
		case strings.HasPrefix(w, "file:") || strings.HasPrefix(w, ".") || strings.HasPrefix(w, "/") || strings.HasPrefix(w, "~"):
			a.unknownHost(c, "the hosts the package "+w+" names for its dependencies, which are not read here")
		default:
			if h, ok := scpHost(strings.TrimPrefix(w, "git+ssh:")); ok && strings.Contains(w, "@") && !strings.HasPrefix(w, "@") {
				a.judgeHost(c, h)
			}
			// A name from the registry, judged above.
		}
	}
}

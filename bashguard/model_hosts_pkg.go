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

// goFetch is what a go subcommand downloads, a row of goSubFetch.
type goFetch uint8

const (
	// goFetchToolchain: at most the toolchain go.mod names.
	goFetchToolchain goFetch = iota
	// goFetchBuild: it loads the main module's packages, downloading the
	// modules go.mod requires that the module cache lacks.
	goFetchBuild
	// goFetchPackages: the modules its operands name at a version; the
	// main module's otherwise (go install, go run).
	goFetchPackages
	// goFetchGet: the modules its operands name, or those go.mod
	// requires.
	goFetchGet
	// goFetchModSub: what its own subcommand downloads (goModFetch).
	goFetchModSub
	// goFetchEnv: none, but go env -w may change where later commands
	// download from.
	goFetchEnv
	// goFetchList: the toolchain and the modules the main module loads.
	goFetchList
)

// fetchesAnyway reports a subcommand that downloads what go.mod requires
// whatever the toolchain, judged by goHosts rather than goModuleHosts.
func (f goFetch) fetchesAnyway() bool {
	return f == goFetchBuild || f == goFetchPackages || f == goFetchGet || f == goFetchModSub
}

func (m *cmdCall) goHosts(c *verdictAcc, v *argv) {
	sub := v.vals[1]
	m.goModuleHosts(c, v, sub)
	switch f := goSubFetch()[sub]; f {
	case goFetchModSub:
		if v.len() > 2 && goModFetch()[sub+" "+v.vals[2]] {
			m.goProxyHosts(c, v, true, false)
		}
	case goFetchEnv:
		m.goEnvWrite(c, v)
	case goFetchBuild:
		// Outside a module go builds against the standard library alone,
		// and downloads nothing.
		if m.inGoModule() && !m.goFetchesNothing(v) {
			m.goProxyHosts(c, v, true, false)
		}
	case goFetchPackages, goFetchGet:
		if m.goProxyHosts(c, v, f != goFetchGet, true) {
			m.goPackageHosts(c, v, f == goFetchGet)
		}
	}
}

// goPackageHosts judges the hosts of the modules go get (get), install or
// run name among their operands.
func (m *cmdCall) goPackageHosts(c *verdictAcc, v *argv, get bool) {
	var pkgs []int
	scanSpec(goFlagSpec(), v, 2, false, func(e *scanned) {
		if e.opt == nil && e.problem == "" {
			pkgs = append(pkgs, e.at)
		}
	})
	if get && len(pkgs) == 0 {
		m.unknownHost(c, "the hosts of the modules go.mod requires, which are not read here")
		return
	}
	for _, i := range pkgs {
		if !v.literal(i) {
			m.unknownHost(c, "a host only known at run time ("+v.vals[i]+")")
			continue
		}
		path, _, versioned := strings.Cut(v.vals[i], "@")
		if !get && !versioned {
			continue // builds the main module's packages (or go run's arguments)
		}
		m.goModuleHost(c, v.vals[i], path, get)
	}
}

// goModuleHost judges the host of the module path (of the operand w): its
// first element, when it names one. For go get, a path that names none
// (a package of the main module, all, std) needs modules whose hosts
// are only known at run time.
func (m *cmdCall) goModuleHost(c *verdictAcc, w, path string, get bool) {
	first, _, _ := strings.Cut(path, "/")
	switch {
	case path == "" || first == "." || first == ".." || strings.HasPrefix(path, "/") || path == "all" || path == "std" || path == "cmd" ||
		!strings.Contains(first, ".") && !strings.ContainsAny(first, "*"):
		if get {
			m.unknownHost(c, "the hosts of the modules "+w+" needs, which are not read here")
		}
	case !validHost(first, false):
		m.unknownHost(c, "the host of the module "+path+", which is not read here")
	default:
		m.judgeHost(c, first)
	}
}

// isPip reports one of pipNames, or pip3.N.
func isPip(name string) bool {
	if pipNames()[name] {
		return true
	}
	return strings.HasPrefix(name, "pip3.") && strings.Trim(name[len("pip3."):], "0123456789") == ""
}

// pipReach is what a pip subcommand reaches, a row of pipSubs.
type pipReach uint8

const (
	pipReachNone    pipReach = iota
	pipReachInstall          // its index and the URLs it is given (pipInstallHosts)
	pipReachConfig           // the URLs it writes to the configuration, where later installs go
)

// pipHosts judges pip's command line (v.vals[0] is pip).
func (m *cmdCall) pipHosts(c *verdictAcc, v argv) {
	moved := ""
	i := scanSpec(pipSpec(), &v, 1, true, func(e *scanned) {
		switch {
		case moved != "":
		case e.problem != "":
			moved = writtenName(e)
		case pipOpts()[e.spell] == effUnknown:
			moved = e.spell
		}
	})
	switch {
	case moved == "--proxy":
		m.unknownHost(c, "the hosts pip reaches through its --proxy, which are not read here")
		return
	case moved != "":
		m.unknownHost(c, "the hosts pip reaches with "+moved+", which are not read here")
		return
	case i >= v.len() || !v.literal(i):
		return
	}
	switch pipSubs()[v.vals[i]] {
	case pipReachInstall:
		m.pipInstallHosts(c, &v, i+1)
	case pipReachConfig:
		// pip config set global.index-url URL: where later installs go.
		for j := i + 1; j < v.len(); j++ {
			if w := v.vals[j]; !v.literal(j) {
				m.unknownHost(c, "a host only known at run time ("+w+")")
			} else if strings.Contains(w, "://") {
				m.literalURLHost(c, w[schemeStart(w):], false)
			}
		}
	}
}

// pipSources are where pip install finds packages, as its environment
// and options say.
type pipSources struct {
	index   string   // the index, "" when an option or variable replaces it
	extra   []string // further indexes and sources
	unknown string   // what names sources not read here
}

// pipEnvSources reads the command's environment for pip's sources.
func (m *cmdCall) pipEnvSources() pipSources {
	r := pipSources{index: "pypi.org"}
	for _, e := range m.cmdEnv {
		eff := effectOf(pipEnv(), e.name, false)
		switch {
		case eff == 0:
		case !e.lit || eff == effUnknown:
			r.unknown = e.name + "="
		case eff == effReplace:
			r.index = ""
			r.extra = append(r.extra, e.val)
		case eff == effAdd:
			r.extra = append(r.extra, strings.Fields(e.val)...)
		}
	}
	return r
}

// pipInstallHosts judges pip install, download, wheel and index, whose
// options and operands start at the word from.
func (m *cmdCall) pipInstallHosts(c *verdictAcc, v *argv, from int) {
	r := m.pipEnvSources()
	var ops []int
	moved := ""
	scanSpec(pipInstallSpec(), v, from, false, func(e *scanned) {
		switch eff := pipOpts()[e.spell]; {
		case e.opt == &dashDashOpt:
		case e.problem != "":
			moved = orText(moved, writtenName(e))
		case e.opt == nil:
			ops = append(ops, e.at)
		case eff == effReplace:
			r.index = ""
			r.extra = append(r.extra, e.val)
		case eff == effAdd:
			r.extra = append(r.extra, e.val)
		case eff == effUnknown:
			r.unknown = writtenName(e)
		}
	})
	switch {
	case moved != "":
		m.unknownHost(c, "the hosts pip reaches with "+moved+", which are not read here")
		return
	case r.unknown != "":
		m.unknownHost(c, "the hosts the requirements of "+r.unknown+" name, which are not read here")
		return
	case r.index != "":
		m.judgeHost(c, r.index)
		m.judgeHost(c, "files.pythonhosted.org") // where PyPI's files are
	}
	for _, e := range r.extra {
		if strings.Contains(e, "://") {
			m.literalURLHost(c, e[schemeStart(e):], false)
		} else if !strings.HasPrefix(e, "/") && !strings.HasPrefix(e, ".") {
			m.unknownHost(c, "the host of "+e+", which is not read here")
		}
	}
	for _, j := range ops {
		m.pipOperandHost(c, v, j)
	}
}

// pipOperandHost judges one requirement operand of pip install.
func (m *cmdCall) pipOperandHost(c *verdictAcc, v *argv, j int) {
	w := v.vals[j]
	switch {
	case !v.literal(j):
		m.unknownHost(c, "a host only known at run time ("+w+")")
	case strings.Contains(w, "://"):
		m.literalURLHost(c, w[schemeStart(w):], false)
	case w == "." || strings.HasPrefix(w, "./") || strings.HasPrefix(w, "/") || strings.HasPrefix(w, "../"):
		m.unknownHost(c, "the hosts the project "+w+" names for its dependencies, which are not read here")
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
func (m *cmdCall) goEnvWrite(c *verdictAcc, v *argv) {
	w := false
	for i := 2; i < v.len(); i++ {
		s := v.vals[i]
		switch {
		case s == "-w":
			w = true
		case !w || strings.HasPrefix(s, "-"):
		case !v.literal(i):
			m.unknownHost(c, "a host only known at run time ("+s+")")
		default:
			name, val, _ := strings.Cut(s, "=")
			switch goEnvRoles()[name] {
			case goProxyVar:
				for _, p := range goProxyList(val) {
					if strings.Contains(p, "://") {
						m.literalURLHost(c, p, false)
					}
				}
			case goSumDBVar:
				m.goSumDBHost(c, val)
			}
		}
	}
}

// goProxyList splits a GOPROXY into its entries.
func goProxyList(val string) []string {
	return strings.FieldsFunc(val, func(r rune) bool { return r == ',' || r == '|' })
}

// goSumDBHost judges the checksum database a GOSUMDB names: "off", a
// name ("sum.golang.org", "name+key"), or a name, a key and a URL.
func (m *cmdCall) goSumDBHost(c *verdictAcc, val string) {
	switch f := strings.Fields(val); {
	case val == "off" || len(f) == 0:
	case len(f) > 1:
		m.literalURLHost(c, f[1], true)
	default:
		name, _, _ := strings.Cut(f[0], "+")
		m.literalURLHost(c, name, true)
	}
}

// goEnvRole is what a variable of go's environment says of where go
// downloads modules from (go help environment, go help module-auth).
type goEnvRole uint8

const (
	goProxyVar   goEnvRole = iota + 1 // the module proxies, in order
	goSumDBVar                        // the checksum database
	goFlagsVar                        // flags of every go command: -mod=vendor reaches no host; -modfile and -C read another go.mod
	goEnvFileVar                      // a file of further variables, not read here
	goDirectVar                       // modules go fetches from their own hosts
	goOtherVar                        // read only for being known before run time
)

// defaultGoProxy is GOPROXY's default.
const defaultGoProxy = "https://proxy.golang.org,direct"

// goEnv is where the command's environment sends go.
type goEnv struct {
	proxy, sumdb string
	direct       bool // modules are fetched from their own hosts
}

// readGoEnv reads the command's environment for where go downloads from.
// It reports false when go reaches no host its caller judges further:
// none at all, or hosts only known at run time (judged here).
func (m *cmdCall) readGoEnv(c *verdictAcc, project bool) (goEnv, bool) {
	env := goEnv{proxy: defaultGoProxy, sumdb: "sum.golang.org"}
	for _, e := range m.cmdEnv {
		role := goEnvRoles()[e.name]
		if role == 0 {
			continue
		}
		if !e.lit {
			m.unknownHost(c, "the hosts go reaches with "+e.name+"=, which is only known at run time")
			return env, false
		}
		switch role {
		case goProxyVar:
			env.proxy = e.val
		case goSumDBVar:
			env.sumdb = e.val
		case goFlagsVar:
			if !m.goFlagsEnv(c, e.val, project) {
				return env, false
			}
		case goEnvFileVar:
			m.unknownHost(c, "the hosts the go environment file of GOENV names, which are not read here")
			return env, false
		case goDirectVar:
			env.direct = env.direct || e.val != ""
		}
	}
	if env.proxy == "" {
		env.proxy = defaultGoProxy
	}
	return env, true
}

// goFlagsEnv reads a GOFLAGS: false when it vendors a project's modules
// (no host) or reads another go.mod (hosts only known at run time,
// judged here).
func (m *cmdCall) goFlagsEnv(c *verdictAcc, val string, project bool) bool {
	for _, f := range strings.Fields(val) {
		if f == "-mod=vendor" && project {
			return false
		}
		if strings.HasPrefix(f, "-modfile") || strings.HasPrefix(f, "-C") {
			m.unknownHost(c, "the hosts go reaches with GOFLAGS="+val+", which are not read here")
			return false
		}
	}
	return true
}

// goVendored reports whether the go command line v gives -mod=vendor, in
// any spelling Go's flag package reads.
func goVendored(v *argv) bool {
	vendored := false
	scanSpec(goFlagSpec(), v, 2, false, func(e *scanned) {
		if e.opt != nil && e.opt.name == "-mod" && e.val == "vendor" {
			vendored = true
		}
	})
	return vendored
}

// goProxyHosts judges the module proxy and checksum database a go command
// reaches: GOPROXY's (proxy.golang.org by default) and GOSUMDB's
// (sum.golang.org), as the command's environment sets them. The default
// GOPROXY's ",direct" is a fallback for modules the proxy does not serve;
// a GOPROXY that names direct itself, or GOPRIVATE, GONOPROXY and
// GOINSECURE, send modules to their own hosts: named ones are judged by
// their caller (named set), those go.mod requires are only known at run
// time. -mod=vendor (as a flag or in GOFLAGS) and GOPROXY=off reach no
// host. It reports whether the caller goes on to judge named modules.
func (m *cmdCall) goProxyHosts(c *verdictAcc, v *argv, project, named bool) bool {
	env, ok := m.readGoEnv(c, project)
	if !ok || project && goVendored(v) {
		return false
	}
	direct, fetches := m.goProxies(c, env.proxy)
	if !fetches {
		return false // nothing is downloaded
	}
	m.goSumDBHost(c, env.sumdb)
	if (direct || env.direct) && project {
		m.unknownHost(c, "the hosts of the modules go.mod requires, which go reaches directly and are not read here")
	}
	return named
}

// goProxies judges the module proxies of GOPROXY, up to the first "off"
// or a leading "direct". It reports whether modules are fetched from
// their own hosts (direct), and whether anything is fetched at all.
func (m *cmdCall) goProxies(c *verdictAcc, proxy string) (direct, fetches bool) {
	for n, p := range goProxyList(proxy) {
		switch {
		case p == "off":
			return direct, n > 0
		case p == "direct":
			if n == 0 || proxy != defaultGoProxy {
				direct = true
			}
			if n == 0 {
				return direct, true
			}
		case strings.Contains(p, "://"):
			m.literalURLHost(c, p, false)
		default:
			m.unknownHost(c, "the module proxy "+p+", which is not read here")
		}
	}
	return direct, true
}

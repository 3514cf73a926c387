package bashguard

import (
	"slices"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// The tool queries whose forms need code of their own (sysTools): ulimit,
// hash, printenv, go, gofmt, yq, npm run, rustup, rustc and pip. The
// read-only tools with plain options are specs (specs_tools.go).

// plainEnvVars are environment variables that name places, the user, the
// terminal or the locale, never a secret: printenv may print them.
var plainEnvVars = map[string]bool{
	"HOME": true, "PATH": true, "SHELL": true, "USER": true, "LOGNAME": true, "PWD": true, "OLDPWD": true,
	"LANG": true, "LANGUAGE": true, "TERM": true, "TZ": true, "HOSTNAME": true, "EDITOR": true, "VISUAL": true,
	"PAGER": true, "TMPDIR": true, "SHLVL": true, "COLUMNS": true, "LINES": true, "DISPLAY": true,
	"GOPATH": true, "GOROOT": true, "GOBIN": true, "JAVA_HOME": true, "CARGO_HOME": true, "RUSTUP_HOME": true,
	"VIRTUAL_ENV": true, "CONDA_DEFAULT_ENV": true, "PYENV_VERSION": true, "NVM_DIR": true, "XDG_RUNTIME_DIR": true,
	"XDG_CONFIG_HOME": true, "XDG_DATA_HOME": true, "XDG_CACHE_HOME": true, "XDG_STATE_HOME": true,
}

// pipReadOnly are pip's subcommands that read the installed packages'
// metadata and print it, with their allowed options; global options are
// -v, -q and --no-color. pip list (not freeze or show) asks the package
// index whether a newer pip exists unless told not to, so it is allowed
// only with --no-index or --disable-pip-version-check; its --outdated and
// --uptodate reach the index, and --path, -r, --python and --log read or
// write files or run another interpreter.
var pipReadOnly = map[string][]string{
	"freeze": {"--all", "-l", "--local", "--user", "--exclude-editable"},
	"show":   {"-f", "--files", "--verbose"},
	"list": {"-l", "--local", "--user", "-e", "--editable", "--not-required", "--exclude-editable", "--include-editable",
		"--format=columns", "--format=freeze", "--format=json", "--no-index", "--disable-pip-version-check"},
}

// toolAsks say why the everyday toolchain queries that are not harmless
// stay asked.
var toolAsks = map[string]string{
	"npm view": "asks the package registry over the network", "npm info": "asks the package registry over the network",
	"npm show": "asks the package registry over the network", "npm outdated": "asks the package registry over the network",
	"npm search": "asks the package registry over the network", "npm audit": "sends the dependency tree to the registry",
	"pnpm outdated": "asks the package registry over the network", "yarn outdated": "asks the package registry over the network",
	"npm config":     "prints or changes npm's configuration, which can hold registry tokens",
	"go vet":         "compiles the packages (cgo runs the C compiler) and writes the build cache",
	"go build":       "compiles the packages and writes the binaries and the build cache",
	"cargo tree":     "runs the rustc that the repository's .cargo/config.toml or rust-toolchain.toml may name, and may update the index",
	"cargo metadata": "runs the rustc that the repository's .cargo/config.toml or rust-toolchain.toml may name, and may update the index",
	"rustup show":    "may install the toolchain that the repository's rust-toolchain.toml names, and runs it",
}

// rustcPrints are the values of rustc --print that print without
// compiling anything.
var rustcPrints = []string{"cfg", "sysroot", "target-list", "target-cpus", "target-features", "target-libdir",
	"host-tuple", "crate-name", "file-names", "code-models", "relocation-models", "tls-models", "split-debuginfo",
	"stack-protector-strategies", "calling-conventions", "all-target-specs-json", "target-spec-json", "deployment-target"}

// sysTools judges the tool queries that need code of their own: ulimit,
// printenv of named variables, go help, go mod graph and why, gofmt
// without -w, rustc --print, pip freeze, show and list. It reports whether
// it decided.
func (a *analyzer) sysTools(c *verdictAcc, name string, v *argv) bool {
	for i := 0; i < v.len(); i++ {
		if !v.literal(i) {
			return false
		}
	}
	args := v.vals[1:]
	switch name {
	case "ulimit":
		// Options alone print limits; a value sets one.
		for _, s := range args {
			if len(s) < 2 || s[0] != '-' || strings.Trim(s[1:], "SHabcdefiklmnpqrstuvxPRT") != "" {
				return false
			}
		}
		c.allow(RuleSafe, "ulimit without a value prints the limits")
		return true
	case "hash":
		// Without names or -r, -p, -d, hash prints the table.
		for _, s := range args {
			if s != "-l" && s != "-t" && (strings.HasPrefix(s, "-") || len(args) == 0 || args[0] != "-t") {
				return false
			}
		}
		c.allow(RuleSafe, "hash without names prints where commands were found")
		return true
	case "printenv":
		for _, s := range args {
			if !plainEnvName(s) {
				return false
			}
		}
		if len(args) == 0 {
			return false
		}
		c.allow(RuleSafe, "printenv prints variables that hold no secret")
		return true
	case "go":
		if len(args) > 0 && toolAsks["go "+args[0]] != "" {
			c.addf(permission.Ask, RuleUnlisted, "not on the safe list (", "go "+args[0]+" "+toolAsks["go "+args[0]], ")", true)
			return true
		}
		if len(args) > 0 && args[0] == "help" {
			c.allow(RuleSafe, "go help prints documentation")
			return true
		}
		if len(args) > 1 && args[0] == "mod" && (args[1] == "graph" || args[1] == "why") {
			// Like go list -m all: the module graph, read from go.mod
			// files (fetched into the module cache when missing).
			for _, s := range args[2:] {
				if strings.HasPrefix(s, "-") && s != "-m" && s != "-vendor" && !strings.HasPrefix(s, "-go=") {
					return false
				}
			}
			c.allow(RuleSafe, "go mod "+args[1]+" prints the module graph")
			return true
		}
	case "gofmt":
		return a.gofmt(c, v)
	case "yq":
		return a.yq(c, v)
	case "npm", "pnpm", "yarn", "cargo", "rustup", "mvn":
		if (name == "npm" || name == "pnpm") && len(args) == 1 && (args[0] == "run" || args[0] == "run-script") {
			// Without a script name, npm run lists the scripts of
			// package.json.
			c.allow(RuleSafe, name+" run lists the package's scripts")
			return true
		}
		if name == "rustup" && len(args) >= 2 && args[0] == "toolchain" && args[1] == "list" {
			for _, s := range args[2:] {
				if s != "-v" && s != "--verbose" && s != "-q" && s != "--quiet" {
					return false
				}
			}
			c.allow(RuleSafe, "rustup toolchain list lists the installed toolchains")
			return true
		}
		if len(args) > 0 {
			if why := toolAsks[name+" "+args[0]]; why != "" {
				c.addf(permission.Ask, RuleUnlisted, "not on the safe list (", name+" "+args[0]+" "+why, ")", true)
				return true
			}
		}
	case "rustc":
		if len(args) == 0 {
			return false
		}
		for k := 0; k < len(args); k++ {
			s, val := args[k], ""
			switch {
			case s == "--print" && k+1 < len(args):
				k++
				val = args[k]
			case strings.HasPrefix(s, "--print="):
				val = s[len("--print="):]
			default:
				return false
			}
			if !slices.Contains(rustcPrints, val) {
				return false
			}
		}
		c.allow(RuleSafe, "rustc --print prints the compiler's settings")
		return true
	case "pip", "pip3":
		if len(args) == 0 {
			return false
		}
		k := 0
		for k < len(args) && slices.Contains([]string{"-v", "-q", "--no-color"}, args[k]) {
			k++
		}
		if k == len(args) {
			return false
		}
		allowed, ok := pipReadOnly[args[k]]
		if !ok {
			return false
		}
		quiet := false
		for _, s := range args[k+1:] {
			if s == "--no-index" || s == "--disable-pip-version-check" {
				quiet = true
			}
			if strings.HasPrefix(s, "-") && !slices.Contains(allowed, s) {
				return false
			}
		}
		if args[k] == "list" && !quiet {
			c.add(permission.Ask, RuleUnlisted, "pip list asks the package index over the network whether a newer pip exists (add --disable-pip-version-check)", true)
			return true
		}
		c.allow(RuleSafe, "pip "+args[k]+" prints the installed packages")
		return true
	}
	return false
}

// gofmt allows gofmt with -l, -d, -e, -s and -r RULE: it prints the
// formatting, or the files that need it, of the files and the trees it is
// given (standard input without). -w rewrites the files and -cpuprofile
// writes one: they are asked. Go's flags end at the first operand.
func (a *analyzer) gofmt(c *verdictAcc, v *argv) bool {
	i := 1
	for ; i < v.len(); i++ {
		s := strings.TrimPrefix(v.vals[i], "-")
		if s == v.vals[i] || s == "" {
			break // an operand, or "-"
		}
		if s == "-" {
			i++
			break
		}
		s = strings.TrimPrefix(s, "-")
		switch {
		case s == "l" || s == "d" || s == "e" || s == "s" || strings.HasPrefix(s, "r="):
		case s == "r":
			i++
		default:
			c.addf(permission.Ask, ArgsRule("gofmt"), "uses the gofmt option -", s, ", which writes files or is not known to be harmless", false)
			return true
		}
	}
	for ; i < v.len(); i++ {
		if a.readPath(c, v.vals[i], v.flags[i], "gofmt") {
			a.walkRoot(c, v.vals[i], v.flags[i], "gofmt", walkOpts{recursive: true, content: true, hidden: true})
		}
	}
	c.allow(RuleSafe, "gofmt prints the formatting of files inside the allowed roots")
	return true
}

// yqOpts are the options yq takes in both of its kinds, mikefarah's (Go)
// and kislyuk's (Python, around jq), that only change what it prints: -i
// writes the file in place, -s splits the output into files (mikefarah;
// kislyuk's slurp), -f and --from-file read the expression from a file,
// --rawfile and --slurpfile read files, --front-matter and the
// preprocessors change what is read.
var yqOpts = []string{"-r", "-e", "-P", "-C", "-M", "-n", "-y", "-j", "-c", "-N",
	"--raw-output", "--exit-status", "--prettyPrint", "--colors", "--no-colors", "--null-input", "--yaml-output", "--no-doc",
	"--compact-output", "--unwrapScalar", "--tojson", "--help", "--version"}

// yqValOpts take a value that is a format, an indent or a name.
var yqValOpts = []string{"-o", "-p", "-I", "--output-format", "--input-format", "--indent"}

// yqWords are the operators of either yq's expression language that
// read a file (load, load_str, import, include, input), the environment
// (env, strenv, envsubst, $ENV) or evaluate a string as an expression
// (mikefarah's eval): an expression that names one is asked.
var yqWords = []string{"load", "import", "include", "input", "env", "ENV", "eval", "modulemeta", "getpath"}

// yq allows yq printing a query of files inside the roots: options of
// yqOpts, an expression without the words of yqWords, files that are
// reads (the first operand, too: mikefarah's yq takes an existing file
// there for the file, with the expression ".").
func (a *analyzer) yq(c *verdictAcc, v *argv) bool {
	var ops []int
	for i := 1; i < v.len(); i++ {
		s := v.vals[i]
		name, _, has := strings.Cut(s, "=")
		switch {
		case s == "-" || !strings.HasPrefix(s, "-"):
			ops = append(ops, i)
		case slices.Contains(yqOpts, s):
		case slices.Contains(yqValOpts, name):
			if !has {
				i++
			}
		default:
			c.addf(permission.Ask, ArgsRule("yq"), "uses the yq option ", s, ", which writes files, reads files that are not operands or is not known to be harmless", false)
			return true
		}
	}
	if len(ops) > 0 {
		switch v.vals[ops[0]] {
		case "eval", "e", "eval-all", "ea":
			ops = ops[1:] // mikefarah's subcommands
		}
	}
	for n, k := range ops {
		s := v.vals[k]
		a.readPath(c, s, v.flags[k], "yq")
		for _, w := range yqWords {
			// Only the first operand is an expression; the others are
			// files.
			if n == 0 && strings.Contains(s, w) {
				c.addf(permission.Ask, ArgsRule("yq"), "yq expression ", s, " may read files or the environment ("+w+")", false)
				return true
			}
		}
	}
	c.allow(RuleSafe, "yq prints a query of files inside the allowed roots")
	return true
}

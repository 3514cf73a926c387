package bashguard

import "sync"

// The command lines of the package tools whose downloads the host judge
// follows (model_hosts_pkg.go): pip's names, general and install options and
// the subcommands that reach a host; go's build flags, what each go
// subcommand downloads, and the variables of go's environment that
// choose where from.

// goFlagSpec is the flags of go get, install, run and build (go help
// get, go help build), as Go's flag package reads them: -flag=value or
// -flag value for those that take one, -flag alone for the others, one
// dash or two, no abbreviation. A flag it does not know is read as one
// without a value, so that the word after it is judged as a package.
var goFlagSpec = sync.OnceValue(func() *spec {
	return (&spec{
		name:    "go",
		grammar: grammar{oneDash: true, permute: true},
		joined: join(
			each(kWord, "", "-C= --C=", "-p= --p=", "-asmflags= --asmflags=", "-buildmode= --buildmode=", "-compiler= --compiler=",
				"-gccgoflags= --gccgoflags=", "-gcflags= --gcflags=", "-installsuffix= --installsuffix=", "-ldflags= --ldflags=",
				"-mod= --mod=", "-modfile= --modfile=", "-overlay= --overlay=", "-pgo= --pgo=", "-pkgdir= --pkgdir=", "-tags= --tags=",
				"-toolexec= --toolexec=", "-covermode= --covermode=", "-coverpkg= --coverpkg=", "-o= --o=", "-exec= --exec="),
			each(kFlag, "", "-a --a", "-n --n", "-race --race", "-msan --msan", "-asan --asan", "-cover --cover", "-v --v",
				"-work --work", "-x --x", "-json --json", "-linkshared --linkshared", "-modcacherw --modcacherw",
				"-trimpath --trimpath", "-buildvcs[=] --buildvcs[=]", "-t --t", "-u[=] --u[=]", "-tool --tool", "-d --d"),
		),
	}).compile()
})

// pipSpec is pip's general options, before its subcommand (pip --help,
// pip 23): optparse's, which takes a unique prefix of a long option and
// stops at the subcommand.
var pipSpec = sync.OnceValue(func() *spec {
	return (&spec{
		name:    "pip",
		grammar: grammar{abbrev: true},
		joined: join(
			each(kFlag, "",
				"-h --help", "--debug", "--isolated", "--require-virtualenv", "-v --verbose", "-V --version", "-q --quiet",
				"--no-input", "--no-cache-dir", "--disable-pip-version-check", "--no-color", "--no-python-version-warning"),
			each(kWord, "",
				"--python=", "--log= --log-file= --local-log=", "--keyring-provider=", "--proxy=", "--retries=", "--timeout=",
				"--exists-action=", "--trusted-host=", "--cert=", "--client-cert=", "--cache-dir=", "--use-feature=",
				"--use-deprecated=", "--resume-retries="),
		),
	}).compile()
})

// pipInstallSpec is the options of pip install, download, wheel and
// index, with the general ones (pip help install, download, wheel,
// index), which take options after operands. What an option does to
// where pip connects is pipOpts's (hosts_tools.go).
var pipInstallSpec = sync.OnceValue(func() *spec {
	return (&spec{
		name:    "pip install",
		grammar: gnuGrammar,
		joined: join(
			each(kFlag, "",
				"--no-deps", "--pre", "--dry-run", "--user", "-U --upgrade", "--force-reinstall", "-I --ignore-installed",
				"--ignore-requires-python", "--no-build-isolation", "--use-pep517", "--check-build-dependencies",
				"--break-system-packages", "--compile", "--no-compile", "--no-warn-script-location", "--no-warn-conflicts",
				"--prefer-binary", "--require-hashes", "--no-clean", "--no-index", "-h --help", "--debug", "--isolated",
				"--require-virtualenv", "-v --verbose", "-V --version", "-q --quiet", "--no-input", "--no-cache-dir",
				"--disable-pip-version-check", "--no-color", "--no-python-version-warning", "--no-verify"),
			each(kWord, "",
				"-r= --requirement=", "-c= --constraint=", "-e= --editable=", "-t= --target=", "--platform=", "--python-version=",
				"--implementation=", "--abi=", "--root=", "--prefix=", "--src=", "--upgrade-strategy=", "-C= --config-settings=",
				"--global-option=", "--no-binary=", "--only-binary=", "--progress-bar=", "--root-user-action=", "--report=",
				"-i= --index-url=", "--extra-index-url=", "-f= --find-links=", "--python=", "--log= --log-file= --local-log=",
				"--keyring-provider=", "--proxy=", "--retries=", "--timeout=", "--exists-action=", "--trusted-host=", "--cert=",
				"--client-cert=", "--cache-dir=", "--use-feature=", "--use-deprecated=", "-d= --dest=", "-w= --wheel-dir=",
				"--build-option=", "--resume-retries=", "--group="),
		),
	}).compile()
})

// goSubFetch is what each go subcommand downloads (go help modules); a
// subcommand not here downloads at most the toolchain go.mod names. go
// list answers from the module cache without -u or -versions, which the
// safe list does not allow, but loads the modules of the main module.
var goSubFetch = sync.OnceValue(func() map[string]goFetch {
	return map[string]goFetch{
		"build": goFetchBuild, "test": goFetchBuild, "vet": goFetchBuild, "generate": goFetchBuild, "fix": goFetchBuild,
		"run": goFetchPackages, "install": goFetchPackages, "get": goFetchGet,
		"mod": goFetchModSub, "work": goFetchModSub,
		"env": goFetchEnv, "list": goFetchList,
	}
})

// goModFetch are the subcommands of go mod and go work that download
// the modules go.mod requires.
var goModFetch = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"mod download": true, "mod tidy": true, "mod graph": true, "mod why": true,
		"mod verify": true, "work sync": true, "work vendor": true, "mod vendor": true}
})

// goEnvRoles are the variables of go's environment that say where it
// downloads from.
var goEnvRoles = sync.OnceValue(func() map[string]goEnvRole {
	return map[string]goEnvRole{"GOPROXY": goProxyVar, "GOSUMDB": goSumDBVar, "GOFLAGS": goFlagsVar,
		"GOENV": goEnvFileVar, "GOPRIVATE": goDirectVar, "GONOPROXY": goDirectVar, "GOINSECURE": goDirectVar,
		"GONOSUMDB": goOtherVar, "GOTOOLCHAIN": goOtherVar, "GOAUTH": goOtherVar}
})

// pipNames are the names pip is run by (and pip3.N).
var pipNames = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"pip": true, "pip3": true}
})

// pipSubs are the pip subcommands that reach a host, or write one where
// later installs go (pip config set global.index-url URL).
var pipSubs = sync.OnceValue(func() map[string]pipReach {
	return map[string]pipReach{
		"install": pipReachInstall, "download": pipReachInstall, "wheel": pipReachInstall, "index": pipReachInstall,
		"config": pipReachConfig,
	}
})

package bashguard

import (
	"maps"
	"sync"
)

// The package managers and network clients a coding agent runs, as data
// for the host reader of model_hosts_table.go: for each tool, the subcommands
// that reach other machines and how their operands name a host, the
// default registry, the options and environment variables that move it,
// and the configuration files that may name another one. Each row is
// read from the tool's own documentation (npm help config and npm help
// install, yarn's CLI reference for classic and berry, pnpm's, bun's and
// deno's CLI documentation, pip help install, uv help, pipx, poetry and
// conda's references, cargo help, gem help install, bundle, composer, mvn
// and gradle's command-line references, docker and podman pull, helm
// repo, httpie's and aria2c's manuals).
//
// Where a tool's hosts come from a configuration the guard does not read
// (kubectl's kubeconfig, the cloud CLIs' profiles, apt's sources, brew's
// formulae, a container's own traffic), the subcommand is a host only
// known at run time, with the reason. A tool or subcommand not in this
// table reaches no host the guard knows of, or runs code whose traffic is
// the program's own (npm run, cargo run's binary), as for python.

// netSubKind says how the operands of a subcommand name the hosts it
// reaches.
type netSubKind uint8

const (
	// subReg reaches the registry; operands are package specs (a name
	// is from the registry, a URL or git spec names its own host).
	subReg netSubKind = iota + 1
	// subPkgs is subReg, and without operands installs what the
	// project's manifest names, whose hosts are not read here.
	subPkgs
	// subProject reaches the registry for what the project's manifest
	// names, and the hosts the manifest names itself; operands are not
	// packages.
	subProject
	// subRun reaches the registry for its first operand, a package spec;
	// the rest are the package's own arguments.
	subRun
	// subURLs reaches the URL of every operand ("host/path" counts).
	subURLs
	// subHTTPie reaches the URL of its first operand after an optional
	// method; the rest are request items.
	subHTTPie
	// subSecondURL reaches the URL of its second operand (helm repo add
	// NAME URL).
	subSecondURL
	// subImage reaches the registry of the image its first operand names.
	subImage
	// subRuntime reaches hosts only known at run time (why says where
	// they come from), unless an option names the host or the tool's
	// registry is its one host (gh's api.github.com).
	subRuntime
	// subConfig writes the tool's configuration (npm config set
	// registry URL): a URL among its operands is where later commands
	// connect, and is judged as if reached.
	subConfig
	// subHosts reaches every operand as a host name or address (ping,
	// dig, traceroute); dig's @server too, DNS types and +options are
	// not hosts.
	subHosts
	// subDB is a database client: it reaches the hosts its options name
	// (-h, --host: effHost), the URLs and the host= of the connection
	// strings among its operands; without one it connects to a local
	// socket.
	subDB
	// subFirstHost reaches its first operand, [user@]host[:port] (mosh,
	// ssh-copy-id, tftp) or //host/share (smbclient).
	subFirstHost
	// subRepo reaches the URLs among its operands ([user@]host:path
	// counts); without one, the repository the working copy names, only
	// known at run time (why).
	subRepo
)

// netSub is one subcommand of a netTool.
type netSub struct {
	kind netSubKind
	why  string // for subRuntime and subProject: where the hosts come from
}

// netEffect is what an option or environment variable does to where a
// tool connects.
type netEffect uint8

const (
	// effReplace: the value is the URL (or host) of the registry, in
	// place of the default.
	effReplace netEffect = iota + 1
	// effAdd: the value is the URL of a further registry or source.
	effAdd
	// effUnknown: the value changes where the tool connects in a way not
	// read here (a configuration file, a registry's name, a proxy).
	effUnknown
	// effOffline: the tool reaches no host.
	effOffline
	// effNoIndex: the default registry is not used (pip --no-index);
	// further sources still are.
	effNoIndex
	// effRepo: the value is [HOST/]OWNER/REPO (gh -R); a HOST replaces
	// the default.
	effRepo
	// effHost: the value is a host[:port] the tool connects to
	// (openssl s_client -connect).
	effHost
	// effDir: the value is the project's directory, where the tool's
	// configuration files are looked for in place of the working
	// directory (npm --prefix).
	effDir
	// effConn: the value is a database to connect to, a name, a URL or
	// a connection string ("host=db.example dbname=x"), whose host is
	// judged (psql -d, pg_dump --dbname).
	effConn
)

// netTool is one row of the table.
type netTool struct {
	// subs maps a subcommand (one word, or two: "pip install") to what it
	// reaches. "" is the tool run without a subcommand; "*" is a tool
	// without subcommands, whose every operand counts.
	subs map[string]netSub
	// registry are the hosts of the default registry.
	registry []string
	// spec reads a package operand's host.
	spec specKind
	// options, when set, is the tool's spec, its options written as
	// rows (kubeSpec): valShort, valLong and netToolFlags are then not
	// read, and every option of opts is one of its spellings.
	options func() *spec
	// whole: options is every option of the tool, and the only spec
	// that judges its line (no sysSpecs row, no model of its own reads
	// it), so an option it cannot resolve asks, naming it, with or
	// without domain rules (netToolSpec); without whole, the host
	// reader alone asks for it, as an option that may move the tool.
	whole bool
	// partial: options lists only some of the tool's options, those that
	// read, write or run, its API's parameters read by class (aws,
	// gcloud, az, terraform): a model that needs every option (the
	// secret prints' reader) does not take it for the whole list.
	partial bool
	// kinds are the options of a tool still on the fields below (no
	// options spec) that read, write or run, as spec rows: they join
	// its spec first (toSpec), and are judged by their kinds as a spec's
	// are (netToolSpec), with the spec's leadCommands and scriptOps of
	// kindsSpec.
	kinds     []optRow
	kindsSpec *spec
	// valShort and valLong are the options that take a value (long ones
	// also with "="); abbrev lets a long option be abbreviated, as the
	// tool's parser does, for the effects below.
	valShort string
	valLong  []string
	abbrev   bool
	// opts are the options that move the registry; a name ending in "*"
	// is a prefix ("--@*" is npm's --@scope:registry).
	opts map[string]netEffect
	// env are the environment variables that do.
	env map[string]netEffect
	// config are files that may name another registry, looked for in the
	// working directory and each directory above it; "name:text" counts
	// the file only when it holds text.
	config []string
	// local are the first operands of a tool whose subs is "*" that reach
	// no host (kubectl config, aws configure).
	local map[string]bool
	// manifest names the project's files whose dependencies are
	// installed ("package.json and its lockfile").
	manifest string
	// lead are words that come before the subcommand, each with the
	// number of words it takes (yarn workspace NAME add ...).
	lead map[string]int
	// singleDash: long options are written with one dash (openssl's
	// -connect), each a word of its own.
	singleDash bool
	// stdinScript, when set, says what the tool runs when it reads its
	// script from its input, a pipe or a redirection, because no option
	// of kind kClientScript or kProgram gave it one (psql db < x.sql): a
	// script not analysed, which asks past an allow rule for the tool.
	stdinScript string
	// early are options the tool reads from anywhere on its line before
	// "--", whatever the words before them (Mercurial's --config, --cwd
	// and -R, which it reads before the command's own options): each
	// word that is one, written whole or with "=VALUE" (a letter with its
	// value attached), is judged by its row of options wherever the scan
	// of the line left it.
	early []string
	// runsConf are configuration files the tool reads from the
	// workspace that can make it run programs (yt-dlp.conf, which may
	// say --exec; Mercurial's .hg/hgrc, its hooks): one that does asks,
	// past any allow rule (confruns.go).
	runsConf []confFile
	// abbrevSubs: the tool takes a unique prefix of a command's name for
	// the command (Mercurial: hg clo is hg clone), so a word that begins
	// one of subs is read as it (the first, in order, of those it begins).
	abbrevSubs bool
	// remotes: the tool picks its host from the repository's git remotes
	// (gh, glab), which are judged too.
	remotes bool
	// shortImages: an image named without a registry is looked for in
	// the registries registries.conf names (podman), not on Docker Hub.
	shortImages bool
}

// specKind is how a tool reads a package operand.
type specKind uint8

const (
	specName  specKind = iota + 1 // a name from the registry, or a path
	specNpm                       // npm's specs: name@range, URL, git, github:o/r, o/r, file:
	specPip                       // pip's requirement specs: name, URL, VCS URL, path
	specDeno                      // deno's specifiers: npm:, jsr:, URL, file
	specImage                     // a container image reference
	specURL                       // a URL, or host/path
	specCargo                     // a crate name, or a path
)

// prefixHost is a prefix of a package operand and the host it names.
type prefixHost struct{ prefix, host string }

// specPrefixes are, by how a tool reads its package operands, the
// prefixes that name the host a package is fetched from (npm help
// package-spec; deno's npm: and jsr: specifiers), tried in order after
// a URL.
var specPrefixes = sync.OnceValue(func() map[specKind][]prefixHost {
	return map[specKind][]prefixHost{
		specNpm:  {{"github:", "github.com"}, {"gitlab:", "gitlab.com"}, {"bitbucket:", "bitbucket.org"}, {"gist:", "gist.github.com"}},
		specDeno: {{"npm:", "registry.npmjs.org"}, {"jsr:", "jsr.io"}},
	}
})

// dnsTypes are the record types and classes dig, host and nslookup take
// as operands, which are not names.
var dnsTypes = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"A": true, "AAAA": true, "MX": true, "NS": true, "TXT": true, "CNAME": true, "SOA": true,
		"PTR": true, "SRV": true, "ANY": true, "CAA": true, "DS": true, "DNSKEY": true, "IN": true, "CH": true, "HS": true,
		"AXFR": true, "IXFR": true, "HTTPS": true, "SVCB": true, "NAPTR": true, "SPF": true, "TLSA": true, "RRSIG": true}
})

// dockerHubNames are the names of Docker Hub in an image reference, and
// dockerHubHosts the hosts a pull from it reaches (its registry and its
// token service).
var (
	dockerHubNames = []string{"docker.io", "index.docker.io"}
	dockerHubHosts = []string{"registry-1.docker.io", "auth.docker.io"}
)

// imageLocal are the transports of an image reference (TRANSPORT:REF)
// that name a local directory or archive, which reach no registry; so do
// those that end in "-archive" (docker-archive, oci-archive).
var imageLocal = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"oci": true, "dir": true}
})

var npmOpts = sync.OnceValue(func() map[string]netEffect {
	return map[string]netEffect{
		"--registry": effReplace, "--@*": effAdd, "--userconfig": effUnknown, "--globalconfig": effUnknown,
		"--proxy": effUnknown, "--https-proxy": effUnknown, "--offline": effOffline,
		// The project's .npmrc is looked for in the prefix's directory.
		"--prefix": effDir,
	}
})

// pnpmOpts are pnpm's (pnpm --help); -C is --dir, by its name.
var pnpmOpts = sync.OnceValue(func() map[string]netEffect {
	return map[string]netEffect{"--registry": effReplace, "--@*": effAdd, "--https-proxy": effUnknown,
		"--http-proxy": effUnknown, "--offline": effOffline, "--dir": effDir, "--npmrc-auth-file": effUnknown}
})

var npmEnv = sync.OnceValue(func() map[string]netEffect {
	return map[string]netEffect{
		"npm_config_registry": effReplace, "NPM_CONFIG_REGISTRY": effReplace,
		"npm_config_userconfig": effUnknown, "NPM_CONFIG_USERCONFIG": effUnknown,
		"npm_config_globalconfig": effUnknown, "NPM_CONFIG_GLOBALCONFIG": effUnknown,
		"npm_config_proxy": effUnknown, "NPM_CONFIG_PROXY": effUnknown, "npm_config_https_proxy": effUnknown,
		"NPM_CONFIG_HTTPS_PROXY": effUnknown, "npm_config_offline": effOffline, "NPM_CONFIG_OFFLINE": effOffline,
	}
})

// npmSubs are npm's subcommands that reach the registry, with their
// aliases (npm help <command>).
var npmSubs = sync.OnceValue(func() map[string]netSub {
	return map[string]netSub{
		"install": {kind: subPkgs}, "i": {kind: subPkgs}, "in": {kind: subPkgs}, "ins": {kind: subPkgs}, "inst": {kind: subPkgs},
		"insta": {kind: subPkgs}, "instal": {kind: subPkgs}, "isnt": {kind: subPkgs}, "isnta": {kind: subPkgs}, "isntal": {kind: subPkgs},
		"isntall": {kind: subPkgs}, "add": {kind: subPkgs}, "update": {kind: subPkgs}, "up": {kind: subPkgs}, "upgrade": {kind: subPkgs},
		"udpate": {kind: subPkgs}, "install-test": {kind: subPkgs}, "it": {kind: subPkgs},
		"ci": {kind: subProject}, "clean-install": {kind: subProject}, "ic": {kind: subProject}, "install-clean": {kind: subProject},
		"isntall-clean": {kind: subProject}, "install-ci-test": {kind: subProject}, "cit": {kind: subProject},
		"view": {kind: subReg}, "v": {kind: subReg}, "info": {kind: subReg}, "show": {kind: subReg}, "outdated": {kind: subReg},
		"audit": {kind: subReg}, "publish": {kind: subReg}, "unpublish": {kind: subReg}, "deprecate": {kind: subReg},
		"dist-tag": {kind: subReg}, "search": {kind: subReg}, "s": {kind: subReg}, "find": {kind: subReg}, "se": {kind: subReg},
		"ping": {kind: subReg}, "whoami": {kind: subReg}, "login": {kind: subReg}, "adduser": {kind: subReg}, "logout": {kind: subReg},
		"owner": {kind: subReg}, "access": {kind: subReg}, "team": {kind: subReg}, "token": {kind: subReg}, "fund": {kind: subReg},
		"doctor": {kind: subReg}, "pack": {kind: subReg}, "repo": {kind: subReg}, "docs": {kind: subReg}, "bugs": {kind: subReg},
		"dedupe": {kind: subProject}, "ddp": {kind: subProject}, "prune": {kind: subProject}, "rebuild": {kind: subProject},
		"exec": {kind: subRun}, "x": {kind: subRun}, "init": {kind: subRun}, "create": {kind: subRun},
		"config set": {kind: subConfig}, "set": {kind: subConfig}, "c set": {kind: subConfig},
	}
})

// npmValLong are npm's options that take a value (npm help config).
var npmValLong = []string{"--registry", "--tag", "--prefix", "--workspace", "--omit", "--include", "--install-strategy",
	"--cache", "--userconfig", "--globalconfig", "--save-prefix", "--loglevel", "--before", "--cpu", "--os", "--libc",
	"--proxy", "--https-proxy", "--package", "--call", "--otp", "--access", "--scope", "--auth-type", "--location", "--depth"}

var yarnOpts = sync.OnceValue(func() map[string]netEffect {
	return map[string]netEffect{
		"--registry": effReplace, "--use-yarnrc": effUnknown, "--proxy": effUnknown, "--https-proxy": effUnknown,
		"--offline": effOffline, "--cwd": effUnknown,
	}
})

var yarnEnv = sync.OnceValue(func() map[string]netEffect {
	return map[string]netEffect{
		"YARN_REGISTRY": effReplace, "YARN_NPM_REGISTRY_SERVER": effReplace, "npm_config_registry": effReplace,
		"NPM_CONFIG_REGISTRY": effReplace, "YARN_RC_FILENAME": effUnknown, "YARN_HTTP_PROXY": effUnknown,
		"YARN_HTTPS_PROXY": effUnknown, "YARN_ENABLE_OFFLINE_MODE": effOffline,
	}
})

// yarnSubs are yarn's, classic (1.x) and berry (2+): yarn alone installs.
var yarnSubs = sync.OnceValue(func() map[string]netSub {
	return map[string]netSub{
		"": {kind: subProject}, "install": {kind: subPkgs}, "add": {kind: subPkgs}, "upgrade": {kind: subPkgs}, "up": {kind: subPkgs},
		"upgrade-interactive": {kind: subProject}, "outdated": {kind: subProject}, "audit": {kind: subProject},
		"npm audit": {kind: subProject}, "info": {kind: subReg}, "npm info": {kind: subReg}, "view": {kind: subReg},
		"publish": {kind: subReg}, "npm publish": {kind: subReg}, "login": {kind: subReg}, "npm login": {kind: subReg},
		"dlx": {kind: subRun}, "create": {kind: subRun}, "global add": {kind: subPkgs}, "set version": {kind: subRuntime,
			why: "the release yarn set version downloads, from a host only known at run time"},
		"plugin import": {kind: subRuntime, why: "the plugin yarn plugin import downloads, from a host only known at run time"},
		"dedupe":        {kind: subProject}, "why": {kind: subReg}, "config set": {kind: subConfig},
	}
})

var pnpmSubs = sync.OnceValue(func() map[string]netSub {
	return map[string]netSub{
		"install": {kind: subPkgs}, "i": {kind: subPkgs}, "add": {kind: subPkgs}, "update": {kind: subPkgs}, "up": {kind: subPkgs},
		"upgrade": {kind: subPkgs}, "install-test": {kind: subPkgs}, "it": {kind: subPkgs}, "fetch": {kind: subProject},
		"dedupe": {kind: subProject}, "outdated": {kind: subProject}, "audit": {kind: subProject}, "view": {kind: subReg},
		"info": {kind: subReg}, "publish": {kind: subReg}, "dlx": {kind: subRun}, "create": {kind: subRun},
		"config set": {kind: subConfig}, "set": {kind: subConfig},
	}
})

var bunSubs = sync.OnceValue(func() map[string]netSub {
	return map[string]netSub{
		"install": {kind: subPkgs}, "i": {kind: subPkgs}, "add": {kind: subPkgs}, "a": {kind: subPkgs}, "update": {kind: subPkgs},
		"outdated": {kind: subProject}, "audit": {kind: subProject}, "publish": {kind: subReg}, "info": {kind: subReg},
		"x": {kind: subRun}, "create": {kind: subRun}, "init": {kind: subRun}, "upgrade": {kind: subRuntime,
			why: "the release bun upgrade downloads, from a host only known at run time"},
	}
})

var runAny = sync.OnceValue(func() map[string]netSub {
	return map[string]netSub{"*": {kind: subRun}}
})

var pipOpts = sync.OnceValue(func() map[string]netEffect {
	return map[string]netEffect{
		"-i": effReplace, "--index-url": effReplace, "--extra-index-url": effAdd, "-f": effAdd, "--find-links": effAdd,
		"--proxy": effUnknown, "-r": effUnknown, "--requirement": effUnknown, "-c": effUnknown, "--constraint": effUnknown,
		"--group": effUnknown, "--no-index": effNoIndex, "-e": effAdd, "--editable": effAdd,
	}
})

var pipEnv = sync.OnceValue(func() map[string]netEffect {
	return map[string]netEffect{
		"PIP_INDEX_URL": effReplace, "PIP_EXTRA_INDEX_URL": effAdd, "PIP_FIND_LINKS": effAdd, "PIP_CONFIG_FILE": effUnknown,
		"PIP_PROXY": effUnknown, "PIP_REQUIREMENT": effUnknown,
	}
})

var uvOpts = sync.OnceValue(func() map[string]netEffect {
	return map[string]netEffect{
		"-i": effReplace, "--index-url": effReplace, "--default-index": effReplace, "--index": effAdd, "--extra-index-url": effAdd,
		"-f": effAdd, "--find-links": effAdd, "--offline": effOffline, "--no-index": effNoIndex, "--config-file": effUnknown,
		"-r": effUnknown, "--requirements": effUnknown, "--requirement": effUnknown, "-c": effUnknown, "--constraints": effUnknown,
		"--with-requirements": effUnknown, "--overrides": effUnknown, "--directory": effUnknown, "--project": effUnknown,
	}
})

var uvEnv = sync.OnceValue(func() map[string]netEffect {
	return map[string]netEffect{
		"UV_INDEX_URL": effReplace, "UV_DEFAULT_INDEX": effReplace, "UV_INDEX": effAdd, "UV_EXTRA_INDEX_URL": effAdd,
		"UV_FIND_LINKS": effAdd, "UV_OFFLINE": effOffline, "UV_NO_INDEX": effNoIndex, "UV_CONFIG_FILE": effUnknown,
		"UV_PYTHON_INSTALL_MIRROR": effUnknown, "PIP_INDEX_URL": effUnknown,
	}
})

// uvValLong are uv's options that take a value (uv help).
var uvValLong = []string{"--index-url", "--default-index", "--index", "--extra-index-url", "--find-links", "--config-file",
	"--requirements", "--requirement", "--constraints", "--with", "--with-requirements", "--overrides", "--directory", "--project",
	"--python", "--from", "--group", "--extra", "--package", "--optional", "--dev-group", "--index-strategy", "--keyring-provider",
	"--resolution", "--prerelease", "--exclude-newer", "--cache-dir", "--color", "--branch", "--tag", "--rev", "--script",
	"--output-file", "--target", "--prefix", "--python-platform", "--python-version", "--link-mode", "--refresh-package",
	"--reinstall-package", "--upgrade-package", "--config-setting", "--no-binary-package", "--no-build-package", "--env-file"}

// uvSubs: uv pip install and friends read pip's operands; uv add and
// tool install read requirement specs; sync, lock and run install what
// the project names; python install fetches an interpreter.
var uvSubs = sync.OnceValue(func() map[string]netSub {
	return map[string]netSub{
		"pip install": {kind: subPkgs}, "pip download": {kind: subPkgs}, "pip compile": {kind: subProject}, "pip sync": {kind: subProject},
		"add": {kind: subPkgs}, "tool install": {kind: subPkgs}, "tool upgrade": {kind: subReg}, "tool run": {kind: subRun},
		"sync": {kind: subProject}, "lock": {kind: subProject}, "run": {kind: subProject}, "export": {kind: subProject},
		"tree": {kind: subProject}, "remove": {kind: subProject}, "venv": {kind: subProject},
		"python install": {kind: subRuntime, why: "the interpreter uv python install downloads, from a host only known at run time"},
		"self update":    {kind: subRuntime, why: "the release uv self update downloads, from a host only known at run time"},
	}
})

var poetrySubs = sync.OnceValue(func() map[string]netSub {
	return map[string]netSub{
		"add": {kind: subPkgs}, "install": {kind: subProject}, "update": {kind: subProject}, "lock": {kind: subProject},
		"show": {kind: subProject}, "search": {kind: subReg}, "publish": {kind: subReg}, "self update": {kind: subRuntime,
			why: "the release poetry self update downloads, from a host only known at run time"},
		"source add": {kind: subSecondURL}, "config": {kind: subConfig},
	}
})

var pipxSubs = sync.OnceValue(func() map[string]netSub {
	return map[string]netSub{
		"install": {kind: subPkgs}, "inject": {kind: subPkgs}, "upgrade": {kind: subReg}, "upgrade-all": {kind: subProject,
			why: "the hosts the installed packages came from, which are not read here"},
		"reinstall": {kind: subReg}, "run": {kind: subRun},
	}
})

var pipxOpts = sync.OnceValue(func() map[string]netEffect {
	return map[string]netEffect{"--index-url": effReplace, "-i": effReplace, "--pip-args": effUnknown, "--spec": effAdd}
})

var condaSubs = sync.OnceValue(func() map[string]netSub {
	return map[string]netSub{
		"install": {kind: subPkgs}, "create": {kind: subPkgs}, "update": {kind: subPkgs}, "upgrade": {kind: subPkgs},
		"search": {kind: subReg}, "config": {kind: subConfig}, "env create": {kind: subProject, why: "the channels and packages its environment file names"},
		"env update": {kind: subProject, why: "the channels and packages its environment file names"},
	}
})

var condaOpts = sync.OnceValue(func() map[string]netEffect {
	return map[string]netEffect{
		"-c": effAdd, "--channel": effAdd, "--override-channels": effNoIndex, "--offline": effOffline, "-f": effUnknown,
		"--file": effUnknown,
	}
})

var condaValLong = []string{"--channel", "--name", "--prefix", "--file", "--solver", "--repodata-fn"}

var cargoSubs = sync.OnceValue(func() map[string]netSub {
	return map[string]netSub{
		"install": {kind: subPkgs}, "add": {kind: subReg}, "search": {kind: subReg}, "publish": {kind: subProject},
		"build": {kind: subProject}, "b": {kind: subProject}, "check": {kind: subProject}, "c": {kind: subProject},
		"test": {kind: subProject}, "t": {kind: subProject}, "bench": {kind: subProject}, "run": {kind: subProject},
		"r": {kind: subProject}, "fetch": {kind: subProject}, "update": {kind: subProject}, "generate-lockfile": {kind: subProject},
		"tree": {kind: subProject}, "doc": {kind: subProject}, "d": {kind: subProject}, "clippy": {kind: subProject},
		"vendor": {kind: subProject}, "package": {kind: subProject}, "metadata": {kind: subProject}, "owner": {kind: subReg},
		"yank": {kind: subReg}, "login": {kind: subReg}, "info": {kind: subReg},
	}
})

var cargoOpts = sync.OnceValue(func() map[string]netEffect {
	return map[string]netEffect{
		"--git": effAdd, "--index": effReplace, "--registry": effUnknown, "--config": effUnknown, "--offline": effOffline,
		"--frozen": effOffline, "--manifest-path": effUnknown, "-Z": effUnknown,
	}
})

var cargoEnv = sync.OnceValue(func() map[string]netEffect {
	return map[string]netEffect{
		"CARGO_NET_OFFLINE": effOffline, "CARGO_HOME": effUnknown, "CARGO_REGISTRY_DEFAULT": effUnknown,
		"CARGO_REGISTRIES_CRATES_IO_PROTOCOL": effUnknown, "CARGO_HTTP_PROXY": effUnknown, "HTTPS_PROXY": effUnknown,
	}
})

var gemSubs = sync.OnceValue(func() map[string]netSub {
	return map[string]netSub{
		"install": {kind: subPkgs}, "i": {kind: subPkgs}, "update": {kind: subReg}, "fetch": {kind: subReg}, "search": {kind: subReg},
		"info": {kind: subReg}, "outdated": {kind: subReg}, "push": {kind: subReg}, "yank": {kind: subReg},
		"owner": {kind: subReg}, "specification": {kind: subReg}, "signin": {kind: subReg}, "sources": {kind: subConfig},
	}
})

var gemOpts = sync.OnceValue(func() map[string]netEffect {
	return map[string]netEffect{
		// By the options' long names: a letter is one subcommand's and
		// not another's (-l is install's --local, sources' --list).
		"--source": effAdd, "--clear-sources": effNoIndex, "--config-file": effUnknown, "--http-proxy": effUnknown,
		"--file": effUnknown, "--local": effOffline, "--host": effReplace,
	}
})

var bundleSubs = sync.OnceValue(func() map[string]netSub {
	return map[string]netSub{
		"": {kind: subProject}, "install": {kind: subProject}, "i": {kind: subProject}, "update": {kind: subProject},
		"add": {kind: subProject}, "outdated": {kind: subProject}, "lock": {kind: subProject}, "cache": {kind: subProject},
		"package": {kind: subProject}, "exec": {kind: subProject}, "check": {kind: subProject}, "config": {kind: subConfig},
	}
})

var composerSubs = sync.OnceValue(func() map[string]netSub {
	return map[string]netSub{
		"require": {kind: subPkgs}, "install": {kind: subProject}, "i": {kind: subProject}, "update": {kind: subProject},
		"u": {kind: subProject}, "upgrade": {kind: subProject}, "create-project": {kind: subRun}, "outdated": {kind: subProject},
		"audit": {kind: subProject}, "show": {kind: subProject}, "search": {kind: subReg}, "global require": {kind: subPkgs},
		"self-update": {kind: subRuntime, why: "the release composer self-update downloads, from a host only known at run time"},
		"config":      {kind: subConfig},
	}
})

var composerOpts = sync.OnceValue(func() map[string]netEffect {
	return map[string]netEffect{"--repository": effAdd, "--repository-url": effAdd, "--working-dir": effUnknown,
		"-d": effUnknown}
})

var mvnSubs = sync.OnceValue(func() map[string]netSub {
	return map[string]netSub{"*": {kind: subProject,
		why: "the repositories the project's pom.xml and ~/.m2/settings.xml name, and the plugins the goals run"}}
})

var mvnOpts = sync.OnceValue(func() map[string]netEffect {
	return map[string]netEffect{"-o": effOffline, "--offline": effOffline, "-s": effUnknown, "--settings": effUnknown,
		"-gs": effUnknown, "--global-settings": effUnknown, "-f": effUnknown, "--file": effUnknown}
})

var gradleSubs = sync.OnceValue(func() map[string]netSub {
	return map[string]netSub{"*": {kind: subProject,
		why: "the repositories the build scripts name, and the plugins and the distribution the wrapper downloads"}}
})

var gradleOpts = sync.OnceValue(func() map[string]netEffect {
	return map[string]netEffect{"--offline": effOffline, "-I": effUnknown, "--init-script": effUnknown,
		"-p": effUnknown, "--project-dir": effUnknown}
})

var aptSubs = sync.OnceValue(func() map[string]netSub {
	return runtimeSubs("the mirrors apt's sources list names",
		"install", "update", "upgrade", "dist-upgrade", "full-upgrade", "download", "source", "build-dep", "reinstall")
})

var brewSubs = sync.OnceValue(func() map[string]netSub {
	return mergeSubs(
		runtimeSubs("the hosts brew's formulae and taps name", "install", "reinstall", "upgrade", "fetch"),
		runtimeSubs("the hosts brew's taps name", "update", "tap", "search"),
		runtimeSubs("the hosts brew's formulae name", "info", "outdated"))
})

// runtimeSubs are subcommands that reach hosts only known at run time,
// for the same reason why.
func runtimeSubs(why string, names ...string) map[string]netSub {
	m := make(map[string]netSub, len(names))
	for _, n := range names {
		m[n] = netSub{kind: subRuntime, why: why}
	}
	return m
}

// mergeSubs joins tables of subcommands.
func mergeSubs(ms ...map[string]netSub) map[string]netSub {
	out := map[string]netSub{}
	for _, m := range ms {
		maps.Copy(out, m)
	}
	return out
}

var dockerSubs = sync.OnceValue(func() map[string]netSub {
	return map[string]netSub{
		"pull": {kind: subImage}, "push": {kind: subImage}, "image pull": {kind: subImage}, "image push": {kind: subImage},
		"run":              {kind: subRuntime, why: "the registry of the image and the hosts the container connects to"},
		"container run":    {kind: subRuntime, why: "the registry of the image and the hosts the container connects to"},
		"create":           {kind: subRuntime, why: "the registry of the image"},
		"build":            {kind: subRuntime, why: "the registries and hosts the build's Dockerfile names"},
		"buildx build":     {kind: subRuntime, why: "the registries and hosts the build's Dockerfile names"},
		"image build":      {kind: subRuntime, why: "the registries and hosts the build's Dockerfile names"},
		"compose up":       {kind: subRuntime, why: "the registries and hosts the compose file names"},
		"compose pull":     {kind: subRuntime, why: "the registries the compose file names"},
		"compose build":    {kind: subRuntime, why: "the registries and hosts the compose file names"},
		"login":            {kind: subRuntime, why: "the registry docker login signs in to"},
		"search":           {kind: subRuntime, why: "the registry docker search asks"},
		"manifest inspect": {kind: subImage}, "buildx imagetools": {kind: subRuntime, why: "the registry of the image"},
	}
})

var dockerOpts = sync.OnceValue(func() map[string]netEffect {
	return map[string]netEffect{"-H": effUnknown, "--host": effUnknown, "-c": effUnknown, "--context": effUnknown,
		"--config": effUnknown}
})

var dockerEnv = sync.OnceValue(func() map[string]netEffect {
	return map[string]netEffect{"DOCKER_HOST": effUnknown, "DOCKER_CONTEXT": effUnknown, "DOCKER_CONFIG": effUnknown,
		"CONTAINER_HOST": effUnknown}
})

var helmSubs = sync.OnceValue(func() map[string]netSub {
	return map[string]netSub{
		"repo add": {kind: subSecondURL}, "repo update": {kind: subRuntime, why: "the chart repositories helm's configuration names"},
		"install":           {kind: subRuntime, why: "the cluster's API server from the kubeconfig, and the chart repository"},
		"upgrade":           {kind: subRuntime, why: "the cluster's API server from the kubeconfig, and the chart repository"},
		"pull":              {kind: subRuntime, why: "the chart repositories helm's configuration names"},
		"fetch":             {kind: subRuntime, why: "the chart repositories helm's configuration names"},
		"dependency update": {kind: subRuntime, why: "the chart repositories the chart's Chart.yaml names"},
		"dependency build":  {kind: subRuntime, why: "the chart repositories the chart's Chart.yaml names"},
		"search hub":        {kind: subRuntime, why: "the Artifact Hub host helm's configuration names"},
		"list":              {kind: subRuntime, why: "the cluster's API server from the kubeconfig"}, "ls": {kind: subRuntime, why: "the cluster's API server from the kubeconfig"},
		"status": {kind: subRuntime, why: "the cluster's API server from the kubeconfig"}, "uninstall": {kind: subRuntime, why: "the cluster's API server from the kubeconfig"},
		"rollback": {kind: subRuntime, why: "the cluster's API server from the kubeconfig"}, "get": {kind: subRuntime, why: "the cluster's API server from the kubeconfig"},
		"history": {kind: subRuntime, why: "the cluster's API server from the kubeconfig"}, "test": {kind: subRuntime, why: "the cluster's API server from the kubeconfig"},
		"push": {kind: subRuntime, why: "the OCI registry helm push names"}, "registry login": {kind: subRuntime, why: "the OCI registry helm registry login names"},
	}
})

// kubeLocal: every kubectl subcommand but these few talks to the API
// server of the kubeconfig's current context.
var kubeLocal = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"completion": true, "config": true, "kustomize": true, "plugin": true, "help": true,
		"options": true}
})

var kubeOpts = sync.OnceValue(func() map[string]netEffect {
	return map[string]netEffect{"-s": effReplace, "--server": effReplace, "--kubeconfig": effUnknown,
		"--context": effUnknown, "--cluster": effUnknown}
})

// ghLocal and glabLocal are gh's and glab's subcommands that reach no host.
var ghLocal = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"completion": true, "config": true, "alias": true, "help": true, "version": true,
		"extension": true, "ext": true}
})

// cloudLocal are the cloud CLIs' subcommands that reach no host.
var cloudLocal = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"configure": true, "config": true, "help": true, "version": true, "completion": true,
		"info": true}
})

var pipenvSubs = sync.OnceValue(func() map[string]netSub {
	return map[string]netSub{"install": {kind: subPkgs}, "sync": {kind: subProject}, "lock": {kind: subProject},
		"update": {kind: subProject}, "upgrade": {kind: subPkgs}}
})

var pdmSubs = sync.OnceValue(func() map[string]netSub {
	return map[string]netSub{"add": {kind: subPkgs}, "install": {kind: subProject}, "sync": {kind: subProject},
		"lock": {kind: subProject}, "update": {kind: subProject}, "outdated": {kind: subProject}, "search": {kind: subReg},
		"publish": {kind: subReg}, "config": {kind: subConfig}}
})

var rustupSubs = sync.OnceValue(func() map[string]netSub {
	return map[string]netSub{"toolchain install": {kind: subReg}, "install": {kind: subReg}, "update": {kind: subReg},
		"target add": {kind: subReg}, "component add": {kind: subReg}, "self update": {kind: subReg}, "default": {kind: subReg}}
})

var dotnetSubs = sync.OnceValue(func() map[string]netSub {
	return map[string]netSub{"add package": {kind: subReg}, "restore": {kind: subProject}, "build": {kind: subProject},
		"run": {kind: subProject}, "test": {kind: subProject}, "publish": {kind: subProject}, "pack": {kind: subProject},
		"tool install": {kind: subReg}, "tool update": {kind: subReg}, "tool restore": {kind: subProject},
		"new install": {kind: subReg}, "workload install": {kind: subProject}, "nuget push": {kind: subReg}}
})

// hostOps are the tools whose operands are the hosts they reach (or, for
// the DNS tools, the names they look up, whose servers the query reaches).
var hostOps = sync.OnceValue(func() map[string]netSub {
	return map[string]netSub{"*": {kind: subHosts}}
})

// myOpts are the options of MariaDB's and MySQL's clients that move
// them: the host, and the option files, which can name another.
var myOpts = sync.OnceValue(func() map[string]netEffect {
	return map[string]netEffect{"-h": effHost, "--host": effHost, "--defaults-file": effUnknown,
		"--defaults-extra-file": effUnknown, "--login-path": effUnknown}
})

var tracerouteOpts = sync.OnceValue(func() map[string]netEffect {
	return map[string]netEffect{"-g": effHost, "--gateway": effHost, "-A": effUnknown, "--as-path-lookups": effUnknown}
})

var hgSubs = sync.OnceValue(func() map[string]netSub {
	return map[string]netSub{"clone": {kind: subRepo}, "pull": {kind: subRepo, why: "the repository .hg/hgrc names"},
		"push": {kind: subRepo, why: "the repository .hg/hgrc names"}, "incoming": {kind: subRepo, why: "the repository .hg/hgrc names"},
		"in": {kind: subRepo, why: "the repository .hg/hgrc names"}, "outgoing": {kind: subRepo, why: "the repository .hg/hgrc names"},
		"out": {kind: subRepo, why: "the repository .hg/hgrc names"}, "fetch": {kind: subRepo, why: "the repository .hg/hgrc names"}}
})

var svnSubs = sync.OnceValue(func() map[string]netSub {
	return map[string]netSub{"checkout": {kind: subRepo}, "co": {kind: subRepo}, "export": {kind: subRepo},
		"import": {kind: subRepo}, "list": {kind: subRepo, why: "the repository of the working copy"},
		"ls": {kind: subRepo, why: "the repository of the working copy"}, "cat": {kind: subRepo, why: "the repository of the working copy"},
		"log": {kind: subRepo, why: "the repository of the working copy"}, "update": {kind: subRepo, why: "the repository of the working copy"},
		"up": {kind: subRepo, why: "the repository of the working copy"}, "commit": {kind: subRepo, why: "the repository of the working copy"},
		"ci": {kind: subRepo, why: "the repository of the working copy"}, "switch": {kind: subRepo, why: "the repository of the working copy"},
		"info": {kind: subRepo, why: "the repository of the working copy"}}
})

// httpie is httpie's row, and xh's (http --help, xh --help).
// httpie is HTTPie's http and https; xh, its rewrite, reads the same
// command line with options of its own.
var httpie = &netTool{subs: map[string]netSub{"*": {kind: subHTTPie}}, spec: specURL, options: httpieSpec, whole: true,
	opts: map[string]netEffect{"--proxy": effUnknown, "--session": effUnknown, "--session-read-only": effUnknown}}

var xh = &netTool{subs: map[string]netSub{"*": {kind: subHTTPie}}, spec: specURL, options: xhSpec, whole: true,
	opts: map[string]netEffect{"--proxy": effUnknown, "--unix-socket": effUnknown, "--resolve": effUnknown,
		"--session": effUnknown, "--session-read-only": effUnknown}}

// The options of tools still on the table's fields that read, write or
// run (netTool.kinds): each tool's help names them (yarn 1 --help, bun
// --help, composer --help, dotnet build --help, bundle install --help).
var (
	yarnKinds = []optRow{{"--modules-folder= --cache-folder= --global-folder= --link-folder=", kWrite, ""}}
	bunKinds  = []optRow{
		{"-r= --preload=", kProgram, "loads a module before the program runs, code that runs here"},
		{"--env-file=", kProgram, "loads variables from a file into the environment, where BUN_OPTIONS can preload a module"},
		{"--cwd=", kProgram, "runs in another directory, whose package's scripts run"},
	}
	composerKinds = []optRow{{"-d= --working-dir=", kAsk, "runs in another directory's project, whose scripts and plugins run"}}
	dotnetKinds   = []optRow{{"-o= --output=", kWrite, ""}, {"--project=", kRead, ""}}
	bundleKinds   = []optRow{{"--gemfile=", kScriptFile, "evaluates the Gemfile it names, Ruby code"}}
	// uv's files (uv pip install -r, uv export -o, uv pip install
	// --target); a requirements file's lines are sent to the index.
	uvKinds = []optRow{
		{"-r= --requirements= --requirement= -c= --constraints= --constraint= --overrides= --override= --with-requirements=", kRead, ""},
		{"-o= --output-file= --target= --prefix= --cache-dir=", kWrite, ""},
		{"--env-file=", kProgram, "loads variables from a file into the environment of what it runs, where PYTHONSTARTUP and LD_PRELOAD run code"},
		{"--config-file=", kConfig, "reads uv's configuration, which names the indexes and interpreters uv uses"},
		{"-p= --python=", kInterpreter, ""},
	}
	pipxKinds  = []optRow{{"--python=", kInterpreter, ""}}
	condaKinds = []optRow{{"-f= --file=", kRead, ""}, {"-p= --prefix=", kRead, ""}}
	// brew install FORMULA.rb evaluates the formula's Ruby; glab repo
	// clone REPO DIR writes DIR.
	brewKinds = &spec{scriptOps: []string{".rb"}}
	glabKinds = &spec{leadCommands: []leadCommand{{words: "repo clone", kind: kOutfile}}}
)

var urlOps = sync.OnceValue(func() map[string]netSub {
	return map[string]netSub{"*": {kind: subURLs}}
})

var dbOps = sync.OnceValue(func() map[string]netSub {
	return map[string]netSub{"*": {kind: subDB}}
})

var firstHost = sync.OnceValue(func() map[string]netSub {
	return map[string]netSub{"*": {kind: subFirstHost}}
})

// netToolFlags are each tool's options that take no value and do not
// move it (its help and manual), separated by spaces. With the row's
// valShort, valLong and opts they are the tool's spec (netToolSpecs): an
// option none of them names asks, naming it. A flag read here that takes
// a value in truth makes its value an operand, as the table read every
// option it did not list before.
var netToolFlags = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"pnpx": npmFlags,
		"yarn": "--frozen-lockfile --immutable --immutable-cache --check-cache --pure-lockfile --prefer-offline --ignore-scripts " +
			"--ignore-engines --ignore-optional --silent -s --dev -D --peer -P --optional -O --exact -E --tilde -T --force -W " +
			"--ignore-workspace-root-check --production --non-interactive --json --verbose --inline-builds -i --interactive --all -A",
		"bun": bunFlags, "bunx": bunFlags,
		"deno": "-A --allow-all --allow-read --allow-write --allow-net --allow-env --allow-run --allow-sys --allow-ffi --allow-hrtime " +
			"--allow-import --allow-scripts -R -W -N -E -S -P --no-prompt --reload -r --no-check --check --unstable --watch -q --quiet " +
			"--frozen --no-lock -g --global -f --force --dev -D --no-remote --node-modules-dir",
		"uv": uvFlags, "uvx": uvFlags,
		"pipx": "--force -f --include-deps --include-apps --system-site-packages --global -q --quiet -v --verbose --editable -e " +
			"--skip-maintenance --no-cache",
		"poetry": "--dev -D --no-root --sync --no-interaction -n --no-ansi --ansi -q --quiet -v --verbose --dry-run --lock " +
			"--no-update --all-extras --only-root --editable -e --allow-prereleases --optional --compile --no-plugins --no-cache",
		"conda": condaFlags, "mamba": condaFlags, "micromamba": condaFlags,
		"bundle": "--frozen --deployment --prefer-local --quiet --verbose --full-index --conservative --all --strict --patch " +
			"--minor --major --redownload --force --no-cache",
		"composer": "--no-interaction -n --no-dev --dev --prefer-dist --prefer-source --optimize-autoloader -o --no-scripts " +
			"--no-progress --no-plugins --ignore-platform-reqs -W --with-all-dependencies -w --with-dependencies " +
			"--update-with-dependencies --dry-run --no-install --no-update --quiet -q --verbose -v --ansi --no-ansi " +
			"--classmap-authoritative -a --no-audit --lock --minimal-changes --sort-packages",
		"gradle": "--no-daemon --daemon --build-cache --no-build-cache --parallel --no-parallel --configuration-cache " +
			"--refresh-dependencies --rerun-tasks --stacktrace -s --full-stacktrace -S --info -i --debug -d --quiet -q --warn -w " +
			"--scan --no-scan --continue --dry-run -m --profile",
		"glab": ghFlags,
		"brew": "--cask --formula -f --force -v --verbose -q --quiet -d --debug --HEAD --fetch-HEAD --build-from-source -s " +
			"--force-bottle --ignore-dependencies --only-dependencies --dry-run -n --greedy --overwrite --no-quarantine --json " +
			"--installed --desc",
		"dotnet": "--no-restore --no-build --interactive --force --prerelease --no-cache --nologo --disable-parallel " +
			"--ignore-failed-sources --locked-mode --use-lock-file -g --global --local",
		"pipenv": "--dev -d --deploy --system --skip-lock --pre --keep-outdated --selective-upgrade -v --verbose",
		"pdm":    "--dev -d --prod --no-self --no-editable --no-lock --frozen-lockfile --dry-run --no-sync --verbose -q --quiet",
	}
})

// The flags several tools share (netToolFlags).
const (
	npmFlags = "-g --global -D --save-dev -P --save-prod -O --save-optional -E --save-exact -S --save --no-save -B " +
		"--save-bundle --save-peer -f --force -y --yes --no --legacy-peer-deps --strict-peer-deps --ignore-scripts --no-audit " +
		"--no-fund --audit --fund --dry-run --prefer-offline --prefer-online --production --no-package-lock --package-lock-only " +
		"--json --parseable -s --silent -q --quiet --workspaces --include-workspace-root --no-optional --install-links " +
		"--foreground-scripts --long -l --all -a --no-progress --no-bin-links --global-style --link --no-update-notifier"
	bunFlags = "-d --dev -D -g --global --production -p --frozen-lockfile --no-save --exact -E --optional --peer --force -f " +
		"--silent --verbose --dry-run -y --yes --no-cache --bun"
	uvFlags = "-U --upgrade --dev --no-dev --frozen --locked --all-extras --no-cache -n --system --break-system-packages -q " +
		"--quiet -v --verbose --native-tls --no-progress --preview --isolated --no-sync --all-packages --inexact --exact " +
		"--editable -e --reinstall --compile-bytecode --seed --no-deps --pre --dry-run --no-build-isolation --strict --force"
	condaFlags = "-y --yes --dry-run -d --json -q --quiet -v --verbose --all --update-deps --no-deps --only-deps " +
		"--force-reinstall --no-pin --strict-channel-priority --use-local --copy --show-channel-urls"
	ghFlags = "--web -w --draft -d --fill --paginate --silent --include -i --verbose --watch --exit-status --yes -y --all " +
		"--merged --closed --delete-branch --squash --rebase --merge --auto --admin"
)

// netTools is the table.
var netTools = sync.OnceValue(func() map[string]*netTool {
	return map[string]*netTool{
		"npm": {subs: npmSubs(), registry: []string{"registry.npmjs.org"}, spec: specNpm, options: npmHostSpec,
			opts: npmOpts(), env: npmEnv(), config: []string{".npmrc"}, manifest: "package.json and its lockfile"},
		"npx": {subs: runAny(), registry: []string{"registry.npmjs.org"}, spec: specNpm, options: npxHostSpec,
			opts: npmOpts(), env: npmEnv(), config: []string{".npmrc"}},
		"yarn": {kinds: yarnKinds, lead: map[string]int{"workspace": 1}, subs: yarnSubs(), manifest: "package.json and its lockfile", registry: []string{"registry.yarnpkg.com"}, spec: specNpm, valLong: []string{"--registry", "--cwd",
			"--use-yarnrc", "--proxy", "--https-proxy", "--cache-folder", "--modules-folder", "--network-timeout", "--mode"},
			opts: yarnOpts(), env: yarnEnv(), config: []string{".yarnrc", ".yarnrc.yml", ".npmrc"}},
		"pnpm": {subs: pnpmSubs(), manifest: "package.json and its lockfile", registry: []string{"registry.npmjs.org"}, spec: specNpm,
			options: pnpmHostSpec, abbrev: true, opts: pnpmOpts(), env: npmEnv(), config: []string{".npmrc", "pnpm-workspace.yaml"}},
		"pnpx": {subs: runAny(), registry: []string{"registry.npmjs.org"}, spec: specNpm, valLong: npmValLong, opts: npmOpts(),
			env: npmEnv(), config: []string{".npmrc"}},
		"bun": {kinds: bunKinds, subs: bunSubs(), manifest: "package.json and its lockfile", registry: []string{"registry.npmjs.org"}, spec: specNpm, valLong: []string{"--registry", "--cwd",
			"--config", "--backend", "--cache-dir"}, opts: map[string]netEffect{"--registry": effReplace, "--config": effUnknown,
			"-c": effUnknown, "--cwd": effUnknown}, env: map[string]netEffect{"BUN_CONFIG_REGISTRY": effReplace,
			"NPM_CONFIG_REGISTRY": effReplace, "npm_config_registry": effReplace}, config: []string{"bunfig.toml", ".npmrc"}},
		"bunx": {subs: runAny(), registry: []string{"registry.npmjs.org"}, spec: specNpm, opts: map[string]netEffect{"--registry": effReplace},
			valLong: []string{"--registry"}, env: map[string]netEffect{"BUN_CONFIG_REGISTRY": effReplace, "NPM_CONFIG_REGISTRY": effReplace,
				"npm_config_registry": effReplace}, config: []string{"bunfig.toml", ".npmrc"}},
		"deno": {manifest: "deno.json and its lockfile", subs: map[string]netSub{"run": {kind: subRun}, "install": {kind: subRun}, "i": {kind: subRun}, "add": {kind: subPkgs},
			"cache": {kind: subPkgs}, "compile": {kind: subRun}, "x": {kind: subRun}, "test": {kind: subProject,
				why: "the modules the tests import"}, "bench": {kind: subProject, why: "the modules the benchmarks import"},
			"check": {kind: subProject, why: "the modules the code imports"}, "upgrade": {kind: subRuntime,
				why: "the release deno upgrade downloads, from a host only known at run time"}, "outdated": {kind: subProject}},
			spec: specDeno, valLong: []string{"--config", "--import-map", "--cert", "--location", "--seed",
				"--output", "--target", "--root", "--name", "--ext"},
			valShort: "co", opts: map[string]netEffect{"--config": effUnknown, "-c": effUnknown, "--import-map": effUnknown,
				"--cached-only": effOffline}, env: map[string]netEffect{"DENO_DIR": effUnknown, "NPM_CONFIG_REGISTRY": effUnknown,
				"JSR_URL": effUnknown}, config: []string{"deno.json", "deno.jsonc", "import_map.json"}},
		"uv": {kinds: uvKinds, subs: uvSubs(), manifest: "pyproject.toml and uv.lock", registry: []string{"pypi.org", "files.pythonhosted.org"}, spec: specPip, valShort: "ifrcwp",
			valLong: uvValLong, opts: uvOpts(), env: uvEnv(), config: []string{"uv.toml", "pyproject.toml:[[tool.uv.index]]",
				"pyproject.toml:index-url", "pyproject.toml:find-links", "pyproject.toml:[tool.uv.sources]", "pyproject.toml:[tool.uv.pip]",
				"pyproject.toml:@ git+", "pyproject.toml:@ http", "pyproject.toml:@ file:"}},
		"uvx": {subs: runAny(), registry: []string{"pypi.org", "files.pythonhosted.org"}, spec: specPip, valShort: "ifw",
			valLong: uvValLong, opts: uvOpts(), env: uvEnv(), config: []string{"uv.toml", "pyproject.toml:[[tool.uv.index]]",
				"pyproject.toml:index-url"}},
		"pipx": {kinds: pipxKinds, subs: pipxSubs(), registry: []string{"pypi.org", "files.pythonhosted.org"}, spec: specPip, valShort: "i",
			valLong: []string{"--index-url", "--pip-args", "--spec", "--python", "--suffix"}, opts: pipxOpts(), env: pipEnv()},
		"poetry": {subs: poetrySubs(), manifest: "pyproject.toml and poetry.lock", registry: []string{"pypi.org", "files.pythonhosted.org"}, spec: specPip,
			valLong: []string{"--source", "--group", "--directory", "--project", "--extras", "--repository", "--priority",
				"--only", "--with", "--without", "-P"}, valShort: "CGEr",
			opts: map[string]netEffect{"--source": effUnknown, "--directory": effUnknown, "-C": effUnknown, "--project": effUnknown,
				"-P": effUnknown, "--repository": effUnknown, "-r": effUnknown},
			env:    map[string]netEffect{"POETRY_CONFIG_DIR": effUnknown, "POETRY_REPOSITORIES_*": effUnknown},
			config: []string{"poetry.toml", "pyproject.toml:[[tool.poetry.source]]", "pyproject.toml:git =", "pyproject.toml:url ="}},
		"conda": {kinds: condaKinds, subs: condaSubs(), manifest: "the environment file", registry: []string{"conda.anaconda.org", "repo.anaconda.com"}, spec: specName, valShort: "cnpf",
			valLong: condaValLong, opts: condaOpts(), env: map[string]netEffect{"CONDARC": effUnknown, "CONDA_CHANNELS": effUnknown},
			config: []string{".condarc"}},
		"cargo": {subs: cargoSubs(), manifest: "Cargo.toml and Cargo.lock", registry: []string{"index.crates.io", "static.crates.io", "crates.io"}, spec: specCargo,
			options: cargoHostSpec, opts: cargoOpts(), env: cargoEnv(),
			config: []string{".cargo/config.toml", ".cargo/config", "Cargo.toml:git =", "Cargo.toml:registry", "Cargo.toml:[patch",
				"Cargo.toml:[source"}},
		"gem": {subs: gemSubs(), manifest: "the gem dependencies file", registry: []string{"rubygems.org", "index.rubygems.org"}, spec: specName, options: gemSpec, opts: gemOpts(), env: map[string]netEffect{"GEMRC": effUnknown,
			"http_proxy": effUnknown, "RUBYGEMS_HOST": effReplace}, config: []string{".gemrc"}},
		"bundle": {kinds: bundleKinds, subs: bundleSubs(), manifest: "the Gemfile and its lockfile", registry: []string{"rubygems.org", "index.rubygems.org"}, spec: specName,
			valLong: []string{"--gemfile", "--path", "--jobs", "--retry", "--without", "--with", "--source", "--version", "--group"},
			opts:    map[string]netEffect{"--gemfile": effUnknown, "--source": effAdd, "--local": effOffline},
			env:     map[string]netEffect{"BUNDLE_GEMFILE": effUnknown, "BUNDLE_MIRROR__ALL": effUnknown}, config: []string{".bundle/config"}},
		"composer": {kinds: composerKinds, subs: composerSubs(), manifest: "composer.json and composer.lock", registry: []string{"repo.packagist.org", "packagist.org"}, spec: specName, valShort: "d",
			valLong: []string{"--repository", "--repository-url", "--working-dir", "--stability"}, opts: composerOpts(),
			env:    map[string]netEffect{"COMPOSER": effUnknown, "COMPOSER_HOME": effUnknown, "COMPOSER_AUTH": effUnknown},
			config: []string{"composer.json:\"repositories\""}},
		"mvn": {subs: mvnSubs(), registry: []string{"repo.maven.apache.org"}, options: mvnHostSpec,
			opts: mvnOpts(), config: []string{".mvn/maven.config", ".mvn/wrapper/maven-wrapper.properties"}},
		"gradle": {subs: gradleSubs(), registry: []string{"repo.maven.apache.org", "plugins.gradle.org"}, valShort: "IpxPDb",
			valLong: []string{"--init-script", "--project-dir", "--exclude-task", "--project-prop", "--system-prop", "--build-file",
				"--settings-file", "--gradle-user-home", "--max-workers", "--console", "--warning-mode", "--priority"}, opts: gradleOpts()},
		"kubectl": {subs: map[string]netSub{"*": {kind: subRuntime, why: "the cluster's API server, from the kubeconfig"}},
			local: kubeLocal(), options: kubeSpec, opts: kubeOpts(), env: map[string]netEffect{"KUBECONFIG": effUnknown}},
		"oc": {subs: map[string]netSub{"*": {kind: subRuntime, why: "the cluster's API server, from the kubeconfig"}},
			local: kubeLocal(), options: ocSpec, opts: kubeOpts(), env: map[string]netEffect{"KUBECONFIG": effUnknown}},
		"gh": {subs: map[string]netSub{"*": {kind: subRuntime, why: "the GitHub host gh is configured for"}}, registry: []string{"api.github.com"},
			local: ghLocal(), remotes: true, options: ghSpec,
			opts: map[string]netEffect{"--hostname": effReplace, "-h": effReplace, "-R": effRepo, "--repo": effRepo}, env: map[string]netEffect{"GH_HOST": effReplace,
				"GH_ENTERPRISE_TOKEN": effUnknown, "GH_CONFIG_DIR": effUnknown}},
		"glab": {kindsSpec: glabKinds, subs: map[string]netSub{"*": {kind: subRuntime, why: "the GitLab host glab is configured for"}}, registry: []string{"gitlab.com"},
			local: ghLocal(), remotes: true, valShort: "Rtl", valLong: []string{"--repo", "--hostname", "--title", "--description",
				"--label", "--per-page", "--page", "--output", "--method", "--field", "--raw-field", "--header"},
			opts: map[string]netEffect{"--hostname": effReplace, "-R": effRepo, "--repo": effRepo}, env: map[string]netEffect{"GITLAB_HOST": effReplace,
				"GITLAB_URI": effReplace, "GL_HOST": effReplace, "GLAB_CONFIG_DIR": effUnknown}},
		"aws": {subs: map[string]netSub{"*": {kind: subRuntime, why: "the endpoints aws picks from its profile and region"}},
			env:   map[string]netEffect{"AWS_ENDPOINT_URL": effReplace, "AWS_CONFIG_FILE": effUnknown, "AWS_PROFILE": effUnknown},
			local: cloudLocal(), options: awsSpec, partial: true, opts: map[string]netEffect{"--endpoint-url": effReplace}},
		"gcloud": {subs: map[string]netSub{"*": {kind: subRuntime, why: "the Google Cloud endpoints gcloud's configuration picks"}},
			local: cloudLocal(), options: gcloudSpec, partial: true},
		"az": {subs: map[string]netSub{"*": {kind: subRuntime, why: "the Azure endpoints az's cloud configuration picks"}},
			local: cloudLocal(), options: azSpec, partial: true},
		"mamba": {subs: condaSubs(), registry: []string{"conda.anaconda.org", "repo.anaconda.com"}, spec: specName, valShort: "cnpf",
			valLong: condaValLong, opts: condaOpts(), env: map[string]netEffect{"CONDARC": effUnknown, "MAMBARC": effUnknown},
			config: []string{".condarc", ".mambarc"}, manifest: "the environment file"},
		"micromamba": {subs: condaSubs(), registry: []string{"conda.anaconda.org"}, spec: specName, valShort: "cnpf",
			valLong: condaValLong, opts: condaOpts(), env: map[string]netEffect{"CONDARC": effUnknown, "MAMBARC": effUnknown},
			config: []string{".condarc", ".mambarc"}, manifest: "the environment file"},
		"pipenv": {subs: pipenvSubs(), registry: []string{"pypi.org", "files.pythonhosted.org"}, spec: specPip,
			valLong: []string{"--index", "--extra-index-url", "--python", "--requirements", "--categories"}, valShort: "ir",
			opts: map[string]netEffect{"--index": effReplace, "-i": effReplace, "--extra-index-url": effAdd, "-r": effUnknown,
				"--requirements": effUnknown}, env: map[string]netEffect{"PIPENV_PYPI_MIRROR": effReplace, "PIP_INDEX_URL": effReplace},
			config: []string{"Pipfile:[[source]]"}, manifest: "the Pipfile and its lockfile"},
		"pdm": {subs: pdmSubs(), registry: []string{"pypi.org", "files.pythonhosted.org"}, spec: specPip,
			valLong: []string{"--group", "--project", "--lockfile", "--venv"}, valShort: "Gpv",
			opts: map[string]netEffect{"--project": effUnknown, "-p": effUnknown}, env: map[string]netEffect{"PDM_PYPI_URL": effReplace},
			config:   []string{"pdm.toml", "pyproject.toml:[[tool.pdm.source]]", "pyproject.toml:git+", "pyproject.toml:@ http"},
			manifest: "pyproject.toml and pdm.lock"},
		"rustup": {subs: rustupSubs(), registry: []string{"static.rust-lang.org"}, options: rustupSpec,
			env: map[string]netEffect{"RUSTUP_DIST_SERVER": effReplace, "RUSTUP_UPDATE_ROOT": effAdd}, manifest: "the toolchain file"},
		"dotnet": {kinds: dotnetKinds, subs: dotnetSubs(), registry: []string{"api.nuget.org"}, spec: specName, valShort: "svcfo",
			valLong: []string{"--source", "--version", "--configfile", "--framework", "--configuration", "--output", "--runtime",
				"--verbosity", "--package-directory", "--project", "--add-source"}, opts: map[string]netEffect{"--source": effAdd, "-s": effAdd,
				"--configfile": effUnknown, "--add-source": effAdd}, config: []string{"nuget.config", "NuGet.Config", "NuGet.config"},
			manifest: "the project's package references"},
		"terraform": {options: terraformSpec, partial: true, subs: map[string]netSub{"init": {kind: subProject, why: "the providers and modules the configuration names"},
			"get": {kind: subProject, why: "the modules the configuration names"}, "plan": {kind: subRuntime,
				why: "the APIs the providers reach"}, "apply": {kind: subRuntime, why: "the APIs the providers reach"},
			"destroy": {kind: subRuntime, why: "the APIs the providers reach"}, "refresh": {kind: subRuntime,
				why: "the APIs the providers reach"}, "import": {kind: subRuntime, why: "the APIs the providers reach"}}},
		"ping": {subs: hostOps(), options: pingSpec, whole: true}, "ping6": {subs: hostOps(), options: pingSpec, whole: true},
		// traceroute -g routes through a gateway, judged as the
		// destination is; -A asks the routing registries (whois.radb.net).
		"traceroute":  {subs: hostOps(), options: tracerouteSpec, whole: true, opts: tracerouteOpts()},
		"traceroute6": {subs: hostOps(), options: tracerouteSpec, whole: true, opts: tracerouteOpts()},
		"tracepath":   {subs: hostOps(), options: tracepathSpec, whole: true},
		"mtr":         {subs: hostOps(), options: mtrSpec, whole: true, opts: map[string]netEffect{"-F": effUnknown}},
		// dig -q NAME is the name an operand is; -f FILE, queries not read here.
		"dig":  {subs: hostOps(), options: digSpec, whole: true, opts: map[string]netEffect{"-q": effHost, "-f": effUnknown}},
		"host": {subs: hostOps(), options: hostSpec, whole: true}, "nslookup": {subs: hostOps(), options: nslookupSpec, whole: true},
		// drill @server asks that server, -c the servers a file names.
		"drill": {subs: hostOps(), options: drillSpec, whole: true, opts: map[string]netEffect{"-c": effUnknown, "-f": effUnknown}},
		// nmap -b, --sI, --proxies, --dns-servers reach hosts beside
		// its targets; -iL names them in a file.
		"nmap": {subs: hostOps(), options: nmapSpec, whole: true, opts: map[string]netEffect{"-i": effUnknown, "-b": effUnknown,
			"--sI": effUnknown, "--proxies": effUnknown, "--dns-servers": effUnknown}},
		"ssh-keyscan": {subs: hostOps(), options: sshKeyscanSpec, whole: true, opts: map[string]netEffect{"-f": effUnknown}},
		"whois": {subs: map[string]netSub{"*": {kind: subRuntime, why: "the whois servers it asks"}}, options: whoisSpec, whole: true,
			opts: map[string]netEffect{"-h": effReplace}},
		"openssl": {singleDash: true, subs: map[string]netSub{"s_client": {kind: subHosts}, "s_time": {kind: subHosts},
			"ocsp": {kind: subRuntime, why: "the responder its certificate names"}}, options: opensslSpec, opts: map[string]netEffect{"-connect": effHost,
			"-host": effHost, "-url": effAdd, "-proxy": effUnknown, "-unix": effUnknown}},
		"lftp": {subs: map[string]netSub{"*": {kind: subURLs}}, options: lftpSpec, whole: true,
			stdinScript: "lftp's commands, which read and write files of this machine and run programs (!)", opts: map[string]netEffect{"-e": effUnknown,
				"-c": effUnknown, "-f": effUnknown}},
		"hg": {subs: hgSubs(), abbrevSubs: true, options: hgSpec, early: []string{"--config", "--cwd", "-R", "--repository"}, runsConf: hgConf,
			opts: map[string]netEffect{"--config": effUnknown, "--ssh": effUnknown, "-e": effUnknown}},
		"svn": {subs: svnSubs(), options: svnSpec, whole: true, opts: map[string]netEffect{"--config-dir": effUnknown, "--config-option": effUnknown}},
		"lynx": {subs: urlOps(), options: lynxSpec, whole: true,
			stdinScript: "options (its - operand), which can name configuration that runs programs",
			opts:        map[string]netEffect{"-cfg": effUnknown, "-cmd_script": effUnknown, "-socks5_proxy": effUnknown}},
		"w3m": {subs: urlOps(), options: w3mSpec, whole: true, opts: map[string]netEffect{"-config": effUnknown, "-o": effUnknown}},
		"links": {subs: urlOps(), options: linksSpec, whole: true, opts: map[string]netEffect{"-http-proxy": effUnknown,
			"-https-proxy": effUnknown, "-ftp-proxy": effUnknown, "-socks-proxy": effUnknown, "-dns-over-https": effUnknown}},
		"elinks": {subs: urlOps(), options: elinksSpec, whole: true, opts: map[string]netEffect{"-config-file": effUnknown,
			"-config-dir": effUnknown, "-eval": effUnknown, "-remote": effUnknown}},
		"yt-dlp": {subs: urlOps(), options: ytdlpSpec, whole: true, runsConf: []confFile{{name: "yt-dlp.conf"}},
			opts: map[string]netEffect{"-a": effUnknown, "--batch-file": effUnknown, "--proxy": effUnknown, "--config-locations": effUnknown,
				"--geo-verification-proxy": effUnknown, "--cn-verification-proxy": effUnknown, "--source-address": effUnknown,
				"--sponsorblock-api": effUnknown, "--default-search": effUnknown}},
		"youtube-dl": {subs: urlOps(), options: youtubeDLSpec, whole: true, opts: map[string]netEffect{"-a": effUnknown,
			"--proxy": effUnknown, "--geo-verification-proxy": effUnknown, "--cn-verification-proxy": effUnknown,
			"--source-address": effUnknown, "--default-search": effUnknown}},
		"psql": {subs: dbOps(), options: psqlSpec, whole: true, stdinScript: "SQL and psql's own commands, which run programs (\\!)", opts: map[string]netEffect{"-h": effHost, "--host": effHost, "-d": effConn,
			"--dbname": effConn},
			env: map[string]netEffect{"PGHOST": effHost, "PGSERVICE": effUnknown, "PGSERVICEFILE": effUnknown}},
		"pg_dump": {subs: dbOps(), options: pgDumpSpec, whole: true, opts: map[string]netEffect{"-h": effHost, "--host": effHost, "-d": effConn, "--dbname": effConn},
			env: map[string]netEffect{"PGHOST": effHost, "PGSERVICE": effUnknown}},
		"mysql":   {subs: dbOps(), options: mysqlSpec, whole: true, stdinScript: mysqlStdin, opts: myOpts(), env: map[string]netEffect{"MYSQL_HOST": effHost}},
		"mariadb": {subs: dbOps(), options: mysqlSpec, whole: true, stdinScript: mysqlStdin, opts: myOpts(), env: map[string]netEffect{"MYSQL_HOST": effHost}},
		"mysqldump": {subs: dbOps(), options: mysqldumpSpec, whole: true, opts: myOpts(),
			env: map[string]netEffect{"MYSQL_HOST": effHost}},
		"redis-cli": {subs: dbOps(), options: redisSpec, whole: true, opts: map[string]netEffect{"-h": effHost},
			stdinScript: "Redis commands, which can make a server of this machine write files (CONFIG SET dir) and load code (MODULE LOAD)"},
		"mongosh": {subs: dbOps(), options: mongoshSpec, whole: true, opts: map[string]netEffect{"--host": effHost},
			stdinScript: "JavaScript, which can read and write files and run programs"},
		"mongo": {subs: dbOps(), options: mongoshSpec, whole: true, opts: map[string]netEffect{"--host": effHost},
			stdinScript: "JavaScript, which can read and write files and run programs"}, "mosh": {subs: firstHost(), options: moshSpec, whole: true, opts: map[string]netEffect{"-ssh": effUnknown}},
		"ssh-copy-id": {subs: firstHost(), options: sshCopyIDSpec, whole: true, opts: map[string]netEffect{"-F": effUnknown, "-o": effUnknown}},
		"autossh":     {subs: firstHost(), options: autosshSpec, whole: true, opts: map[string]netEffect{"-F": effUnknown, "-o": effUnknown, "-J": effUnknown}},
		"tftp": {subs: firstHost(), options: tftpSpec, whole: true,
			stdinScript: "tftp's commands, whose put sends any file of this machine and whose get writes any"},
		"smbclient": {subs: firstHost(), options: smbclientSpec, whole: true,
			stdinScript: "smbclient's commands, which read and write files of this machine and run programs (!)",
			opts: map[string]netEffect{"-I": effHost, "--ip-address": effHost, "-L": effHost, "--list": effHost, "-M": effHost,
				"--message": effHost, "-s": effUnknown, "--configfile": effUnknown, "--option": effUnknown}},
		"apt":     {subs: aptSubs(), options: aptSpec},
		"apt-get": {subs: aptSubs(), options: aptSpec},
		"brew":    {subs: brewSubs(), kindsSpec: brewKinds},
		"docker":  {subs: dockerSubs(), spec: specImage, options: dockerSpec, opts: dockerOpts(), env: dockerEnv()},
		"podman": {subs: dockerSubs(), spec: specImage, options: podmanSpec, opts: map[string]netEffect{"-c": effUnknown,
			"--connection": effUnknown, "--url": effUnknown, "-r": effUnknown, "--remote": effUnknown}, env: dockerEnv(), shortImages: true},
		"helm": {subs: helmSubs(), spec: specURL, options: helmSpec, opts: map[string]netEffect{"--repository-config": effUnknown,
			"--repo": effAdd, "--kube-apiserver": effUnknown, "--kubeconfig": effUnknown}},
		"http":  httpie,
		"https": httpie,
		"xh":    xh,
		"xhs":   xh,
		"aria2c": {subs: map[string]netSub{"*": {kind: subURLs}}, spec: specURL, options: aria2Spec, whole: true,
			opts: map[string]netEffect{"-i": effUnknown, "--input-file": effUnknown, "--conf-path": effUnknown, "--all-proxy": effUnknown,
				"--http-proxy": effUnknown, "--https-proxy": effUnknown, "--ftp-proxy": effUnknown, "-T": effUnknown,
				"--torrent-file": effUnknown, "-M": effUnknown, "--metalink-file": effUnknown}},
	}
})

// npmManifestKeys are the fields of package.json whose values are
// package specs (npm help package.json; yarn's resolutions; npm's and
// pnpm's overrides).
var npmManifestKeys = []string{"dependencies", "devDependencies", "optionalDependencies", "peerDependencies",
	"overrides", "resolutions"}

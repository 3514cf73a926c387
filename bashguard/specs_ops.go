package bashguard

import "sync"

// The inspection tools of Linux servers and containers whose read-only
// queries the guard allows, as data: "docker ps", "apt-cache show",
// "dpkg -l", "tar -tzf", "unzip -l", "lsof -n -p 1", "netstat -tlnp",
// "ip addr show", "ifconfig", "systemctl status", "service
// --status-all", "conda env list", "objdump -f", "nginx -v". The tools
// of subcommands (docker, apt, ip, systemctl, ...) and nginx are marked
// byClass, like the toolchains of specs_sys.go: each spec lists the
// queries it has judged, by their exact names, and a line it does not
// read whole is judged as if the command had no spec (the unlisted Ask,
// or the class's Deny: "systemctl poweroff"). The others are read by the
// tools' engine (model_tools.go): an option their spec does not list asks,
// naming it, and their models (model_ops.go) ask for a line that is not a
// query, saying why. Where the help of the
// installed tool lists every option of a query, the spec lists them all
// too and spec_help_test.go holds it to that help (sysHelp).
//
// What stays asked, and why: "docker compose ps" reads the project's
// compose files, whose include and extends can fetch remote resources;
// "golangci-lint linters" loads the Go plugins a .golangci.yml names;
// "mise tasks" and "mise ls" evaluate mise.toml, whose templates run
// commands, and mise checks for updates over the network; yt-dlp, even
// for --help, reads a yt-dlp.conf in the working directory, which can
// make it print the user's own configuration, and may load plugins; lsof
// and netstat without -n look addresses up in the DNS.

// dockerListRows are the options of docker ps and docker images
// (Docker's pflag: clusters, --long=value or --long value, no
// abbreviations): filters and Go templates over the daemon's answer,
// whose template functions (json, join, upper, ...) read no file and run
// nothing.
var dockerListRows = []optRow{
	{"-a --all", kFlag, ""}, {"-f= --filter=", kWord, ""}, {"--format=", kWord, ""}, {"--no-trunc", kFlag, ""}, {"-q --quiet", kFlag, ""},
}

// systemctlRows are the options of systemctl's queries judged harmless:
// how much they show and in which format. -H and -M reach other hosts
// and machines, and are not here.
var systemctlRows = []optRow{
	{"--no-pager", kFlag, ""}, {"-a --all", kFlag, ""}, {"-l --full", kFlag, ""}, {"--plain", kFlag, ""}, {"--no-legend", kFlag, ""},
	{"-t= --type=", kWord, ""}, {"--state=", kWord, ""}, {"-q --quiet", kFlag, ""}, {"-n= --lines=", kWord, ""}, {"-o= --output=", kWord, ""},
	{"--user", kFlag, ""}, {"--system", kFlag, ""}, {"--failed", kFlag, ""}, {"-p= --property=", kWord, ""}, {"--value", kFlag, ""},
	{"-r --recursive", kFlag, ""}, {"--reverse", kFlag, ""}, {"--before", kFlag, ""}, {"--after", kFlag, ""},
}

// systemctlQueries are systemctl's subcommands that only print the state
// of units.
var systemctlQueries = []string{"list-units", "list-unit-files", "list-timers", "list-sockets", "list-dependencies",
	"status", "show", "is-active", "is-enabled", "is-failed", "is-system-running", "list-jobs"}

// ipRows are the options of ip (iproute2): one dash, by their exact
// names here (ip itself takes prefixes, which then ask). -n and -b run ip
// in another network namespace or from a batch file, and are not here;
// -r resolves names in the DNS.
var ipRows = []optRow{
	{"-4", kFlag, ""}, {"-6", kFlag, ""}, {"-0", kFlag, ""}, {"-br -brief", kFlag, ""}, {"-c -color", kFlag, ""}, {"-j -json", kFlag, ""},
	{"-p -pretty", kFlag, ""}, {"-d -details", kFlag, ""}, {"-s -stats -statistics", kFlag, ""}, {"-o -oneline", kFlag, ""},
	{"-h -human -human-readable", kFlag, ""}, {"-f= -family=", kWord, ""}, {"-V -Version", kVersion, ""},
}

// ipObjects are the objects of ip whose listing is read-only, by the
// spellings ip reads as them (ip takes the first object of its table
// that a prefix names: "a" is address, "r" route, "n" neighbour).
var ipObjects = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"a": "address", "ad": "address", "add": "address", "addr": "address", "addre": "address", "addres": "address", "address": "address",
		"l": "link", "li": "link", "lin": "link", "link": "link",
		"r": "route", "ro": "route", "rou": "route", "rout": "route", "route": "route",
		"n": "neighbour", "ne": "neighbour", "nei": "neighbour", "neigh": "neighbour", "neighbor": "neighbour", "neighbour": "neighbour",
	}
})

// opsSpecs are the inspection tools' specs, by command name; sysSpecs
// holds them beside the toolchains.
func opsSpecs() map[string]*spec {
	ps := func(what string) *spec {
		return &spec{grammar: grammar{permute: true}, allow: "docker " + what + " lists the daemon's containers",
			joined: join(dockerListRows, []optRow{{"-n= --last=", kWord, ""}, {"-l --latest", kFlag, ""}, {"-s --size", kFlag, ""}})}
	}
	images := func(what string) *spec {
		return &spec{grammar: grammar{permute: true}, operands: kWord, allow: "docker " + what + " lists the daemon's images",
			joined: join(dockerListRows, []optRow{{"--digests", kFlag, ""}, {"--tree", kFlag, ""}})}
	}
	composeAsk := "reads the project's compose files, whose include and extends can fetch remote resources, and its .env"
	m := map[string]*spec{
		// docker talks to its daemon over its socket, which the
		// confinement does not bind: confined, these fail, harmlessly.
		// So their allowed examples are in testdata/benign.jsonl, not
		// here, where the effect test would run them.
		"docker": {grammar: grammar{permute: true}, rows: []optRow{{"--version -v", kVersion, ""}}, byClass: true, subs: map[string]*spec{
			"ps": ps("ps"), "images": images("images"),
			"container": {grammar: grammar{permute: true}, subs: map[string]*spec{"ls": ps("container ls"), "list": ps("container list"), "ps": ps("container ps")}},
			"image":     {grammar: grammar{permute: true}, subs: map[string]*spec{"ls": images("image ls"), "list": images("image list")}},
			"compose": {grammar: grammar{permute: true}, subs: map[string]*spec{
				"ps": {ask: composeAsk}, "ls": {ask: composeAsk}, "config": {ask: composeAsk + ", and prints them"},
			}},
			"inspect": {ask: "prints a container's configuration, its environment (which may hold secrets) among it"},
			"logs":    {ask: "prints a container's output, which may hold secrets"},
		}, examples: []example{{"docker --version", "allow"}, {"docker ps -x", "ask"}, {"docker compose ps", "ask"}, {"docker inspect web", "ask"},
			{"docker -H tcp://h:2375 ps", "ask"}, {"docker run x", "ask"}}},
		// apt-cache and apt read the package lists under /var/lib/apt;
		// run as root with a stale cache they rewrite their own
		// /var/cache/apt/*.bin, which only they read. -o and -c set
		// apt's configuration, and are not here.
		"apt-cache": {grammar: grammar{permute: true}, helpers: []string{"dpkg"}, rows: []optRow{{"-v --version", kVersion, ""}, {"-q --quiet", kFlag, ""}}, byClass: true,
			subs: map[string]*spec{
				"search": {grammar: grammar{permute: true}, operands: kWord, allow: "apt-cache search prints the package lists",
					rows: []optRow{{"-n --names-only", kFlag, ""}, {"-f --full", kFlag, ""}, {"-q --quiet", kFlag, ""}}},
				"show": {grammar: grammar{permute: true}, operands: kWord, allow: "apt-cache show prints the package lists",
					rows: []optRow{{"-a --all-versions", kFlag, ""}, {"--no-all-versions", kFlag, ""}, {"-q --quiet", kFlag, ""}}},
				"policy":    aptQuery("apt-cache policy"),
				"showpkg":   aptQuery("apt-cache showpkg"),
				"depends":   aptQuery("apt-cache depends"),
				"rdepends":  aptQuery("apt-cache rdepends"),
				"madison":   aptQuery("apt-cache madison"),
				"pkgnames":  aptQuery("apt-cache pkgnames"),
				"showsrc":   aptQuery("apt-cache showsrc"),
				"stats":     aptQuery("apt-cache stats"),
				"gencaches": {ask: "writes apt's caches"},
			},
			examples: []example{{"apt-cache search bash", "allow"}, {"apt-cache show bash", "allow"}, {"apt-cache policy bash", "allow"},
				{"apt-cache -o Dir::Cache=/tmp show bash", "ask"}, {"apt-cache gencaches", "ask"}}},
		"apt": {grammar: grammar{permute: true}, helpers: []string{"dpkg"}, rows: []optRow{{"-v --version", kVersion, ""}}, byClass: true, subs: map[string]*spec{
			"list": {grammar: grammar{permute: true}, operands: kWord, allow: "apt list prints the package lists",
				rows: []optRow{{"--installed", kFlag, ""}, {"--upgradable", kFlag, ""}, {"-a --all-versions", kFlag, ""},
					{"--manual-installed", kFlag, ""}, {"-q --quiet", kFlag, ""}}},
			"show": {grammar: grammar{permute: true}, operands: kWord, allow: "apt show prints the package lists",
				rows: []optRow{{"-a --all-versions", kFlag, ""}, {"-q --quiet", kFlag, ""}}},
			"search": {grammar: grammar{permute: true}, operands: kWord, allow: "apt search prints the package lists",
				rows: []optRow{{"-n --names-only", kFlag, ""}, {"-f --full", kFlag, ""}, {"-q --quiet", kFlag, ""}}},
			"policy": aptQuery("apt policy"),
		}, examples: []example{{"apt list --installed", "allow"}, {"apt show bash", "allow"}, {"apt install bash", "ask"},
			{"apt list -o Dir=/tmp", "ask"}}},
		// dpkg hands its queries to dpkg-query; one action a line, its
		// operands package names or patterns. --admindir and --root
		// read another database, and are not here.
		"dpkg": {grammar: grammar{permute: true}, rows: dpkgQueryRows, operands: kWord, query: dpkgQuery,
			helpers: []string{"dpkg-query"}, allow: "dpkg prints the package database",
			examples: []example{{"dpkg -l", "allow"}, {"dpkg -l 'bash*'", "allow"}, {"dpkg -L bash", "allow"}, {"dpkg -s bash", "allow"},
				{"dpkg -i x.deb", "ask"}, {"dpkg bash", "ask"}, {"dpkg -l -L bash", "ask"}}},
		"dpkg-query": {grammar: grammar{permute: true}, joined: join(dpkgQueryRows, []optRow{{"-W --show", kFlag, ""}, {"-f= --showformat=", kWord, ""}}),
			operands: kWord, query: []cond{{test: cOneOf, opts: dpkgActions + " -W --show", why: "without exactly one of its query actions"}},
			allow:    "dpkg-query prints the package database",
			examples: []example{{"dpkg-query -W -f '${Version}' bash", "allow"}, {"dpkg-query -l bash", "allow"}, {"dpkg-query --admindir=. -l", "ask"}}},
		// tar -t lists an archive: -f names it, read (an archive name
		// with a colon is a remote tape, reached with rsh: cLocal);
		// -z, -j, -J and --zstd run the decompressor. Extracting, -I, the
		// checkpoint actions and --to-command are not here.
		"tar": {grammar: grammar{permute: true}, operands: kWord, allow: "tar -t lists an archive inside the allowed roots",
			helpers: []string{"gzip", "bzip2", "xz", "zstd"}, rows: []optRow{
				{"-t --list", kFlag, ""}, {"-f= --file=", kRead, ""}, {"-z --gzip --gunzip --ungzip", kFlag, ""}, {"-j --bzip2", kFlag, ""},
				{"-J --xz", kFlag, ""}, {"--zstd", kFlag, ""}, {"-v --verbose", kFlag, ""}, {"--full-time", kFlag, ""}, {"--numeric-owner", kFlag, ""},
				{"--wildcards", kFlag, ""}, {"--no-wildcards", kFlag, ""}, {"--exclude=", kWord, ""}, {"--force-local", kFlag, ""},
				{"--version", kVersion, ""}},
			query: []cond{
				{test: cNeeds, opts: "-t --list", why: "without -t and -f ARCHIVE does not list an archive"},
				{test: cNeeds, opts: "-f --file", why: "without -t and -f ARCHIVE does not list an archive"},
				{test: cLocal, opts: "-f --file", unless: "--force-local", why: "%s names an archive on another host, reached with rsh"},
			},
			examples: []example{{"tar -tzf a.tgz", "allow"}, {"tar -tf a.tar", "allow"}, {"tar --list --file=a.tar", "allow"}, {"tar -tvf a.tar a.txt", "allow"},
				{"tar -xf a.tar", "ask"}, {"tar -tf host:a.tar", "ask"}, {"tar --list --file=host:a.tar", "ask"}, {"tar -t", "ask"}, {"tar -tf .env", "deny"},
				{"tar -tf a.tar --to-command=sh", "ask"}, {"tar tf a.tar", "ask"}}},
		// unzip -l, -v and -t list or test an archive, extracting
		// nothing: the first operand is the archive read, the others
		// names of its members.
		"unzip": {grammar: grammar{permute: true}, leadOps: []kind{kRead}, operands: kWord, allow: "unzip lists an archive inside the allowed roots",
			query: []cond{
				{test: cNeeds, opts: "-l -v -t", why: "without -l, -v or -t extracts the archive"},
				{test: cOperands, opts: "-v", why: "without -l, -v or -t extracts the archive"}, // unzip -v alone prints its version
			},
			rows: []optRow{{"-l", kFlag, ""}, {"-v", kFlag, ""}, {"-t", kFlag, ""}, {"-q", kFlag, ""}},
			examples: []example{{"unzip -l a.zip", "allow"}, {"unzip -v", "allow"}, {"unzip a.zip", "ask"}, {"unzip -l a.zip -d /tmp", "ask"},
				{"unzip -l .env", "deny"}}},
		// lsof prints the open files of processes. Without -n it looks
		// network addresses up in the DNS. Its operands are
		// files whose users it finds, by their metadata; -r repeats without
		// end, +D walks a tree, and are not here.
		"lsof": {grammar: posixGrammar, operands: kProbe, allow: "lsof prints the open files of processes",
			query: []cond{{test: cNeeds, opts: "-n", why: "without -n looks network addresses up in the DNS"}},
			rows: []optRow{{"-p=", kWord, ""}, {"-i[=]", kWord, ""}, {"-n", kFlag, ""}, {"-P", kFlag, ""}, {"-t", kFlag, ""}, {"-a", kFlag, ""},
				{"-l", kFlag, ""}, {"-w", kFlag, ""}, {"-c=", kWord, ""}, {"-u=", kWord, ""}, {"-R", kFlag, ""}, {"-U", kFlag, ""},
				{"-s[=]", kWord, ""}, {"-F[=]", kWord, ""}, {"-d=", kWord, ""}, {"-V", kFlag, ""}, {"-v", kVersion, ""}},
			examples: []example{{"lsof -n -p 1", "allow"}, {"lsof -nP -i :8080", "allow"}, {"lsof -p 1", "ask"}, {"lsof -i :8080", "ask"}, {"lsof -n -r 1", "ask"}}},
		// netstat prints the host's sockets. Without -n it looks addresses
		// up in the DNS, except for the listings of interfaces, statistics
		// and groups; -c lists again without end.
		"netstat": {grammar: grammar{permute: true}, allow: "netstat prints the host's sockets", rows: netstatRows,
			query:    []cond{{test: cNeeds, opts: "-n --numeric-hosts -i -s -g", why: "without -n looks addresses up in the DNS"}},
			examples: []example{{"netstat -tlnp", "allow"}, {"netstat -rn", "allow"}, {"netstat -tlp", "ask"}, {"netstat -tlnc", "ask"}}},
		"ip": {grammar: grammar{oneDash: true}, rows: ipRows, byClass: true, subs: ipSubs(),
			examples: []example{{"ip addr show", "allow"}, {"ip a", "allow"}, {"ip -br -c addr", "allow"}, {"ip -4 route", "allow"}, {"ip link show dev lo", "allow"},
				{"ip addr add 10.0.0.1/24 dev lo", "ask"}, {"ip route get 1.1.1.1", "ask"}, {"ip netns exec x sh", "ask"}, {"ip -b cmds.txt", "ask"},
				{"ip -n x addr", "ask"}, {"ip monitor", "ask"}}},
		// ifconfig alone, or with the name of an interface, prints it;
		// more operands configure it.
		"ifconfig": {grammar: posixGrammar, operands: kWord, allow: "ifconfig prints the host's interfaces",
			query:    []cond{{test: cMaxOps, n: 1, why: "%s configures an interface"}, {test: cPlainOps, why: "%s configures an interface"}},
			rows:     []optRow{{"-a", kFlag, ""}, {"-s", kFlag, ""}, {"-v", kFlag, ""}, {"-V --version", kVersion, ""}},
			examples: []example{{"ifconfig", "allow"}, {"ifconfig -a", "allow"}, {"ifconfig lo", "allow"}, {"ifconfig lo down", "ask"}, {"ifconfig lo 10.0.0.1", "ask"}}},
		// systemctl's queries print the state of units (status their
		// latest log lines too). Without a terminal it runs no pager. In a
		// container without systemd they fail, harmlessly.
		"systemctl": {grammar: grammar{permute: true}, joined: join([]optRow{{"--version", kVersion, ""}}, systemctlRows), byClass: true,
			subs: systemctlSubs(),
			examples: []example{{"systemctl --version", "allow"}, {"systemctl -H h status x", "ask"}, {"systemctl restart nginx", "ask"},
				{"systemctl poweroff", "deny"}}},
		// service --status-all runs every /etc/init.d script with
		// "status" (in an empty environment); service NAME status runs
		// the one (or systemctl status). A name with a "/" would run a
		// script elsewhere: NAME is a plain name (plainName).
		"service": {grammar: posixGrammar, operands: kWord, allow: "service prints the state of services",
			query:    []cond{{test: cForms, values: []string{"--status-all", "NAME status"}, why: "%s is not --status-all or NAME status"}},
			rows:     []optRow{{"--status-all", kFlag, ""}, {"--version", kVersion, ""}},
			examples: []example{{"service nginx restart", "ask"}, {"service ../x status", "ask"}}},
		// conda's queries read its environments and their metadata.
		"conda": {grammar: grammar{permute: true}, rows: []optRow{{"-V --version", kVersion, ""}}, byClass: true, subs: map[string]*spec{
			"env": {grammar: grammar{permute: true}, subs: map[string]*spec{
				"list": {grammar: grammar{permute: true}, allow: "conda env list lists the environments", rows: []optRow{{"--json", kFlag, ""}, {"-q --quiet", kFlag, ""}}},
			}},
			"info": {grammar: grammar{permute: true}, allow: "conda info prints conda's settings",
				rows: []optRow{{"-e --envs", kFlag, ""}, {"--json", kFlag, ""}, {"-q --quiet", kFlag, ""}}},
		}, examples: []example{{"conda install x", "ask"}}},
		// objdump prints what an object file holds. @FILE reads more
		// options (atFiles); -S, -l, -W and -g read the debug
		// information, which can name other files and debuginfod servers,
		// and are not here.
		"objdump": {grammar: grammar{permute: true}, operands: kRead, atFiles: true, allow: "objdump prints object files inside the allowed roots",
			rows: []optRow{{"-f --file-headers", kFlag, ""}, {"-h --section-headers --headers", kFlag, ""}, {"-x --all-headers", kFlag, ""},
				{"-p --private-headers", kFlag, ""}, {"-d", kFlag, ""}, {"--disassemble[=]", kWord, ""}, {"-D --disassemble-all", kFlag, ""},
				{"-t --syms", kFlag, ""}, {"-T --dynamic-syms", kFlag, ""}, {"-r --reloc", kFlag, ""}, {"-R --dynamic-reloc", kFlag, ""},
				{"-a --archive-headers", kFlag, ""}, {"-s --full-contents", kFlag, ""}, {"-C", kFlag, ""}, {"--demangle[=]", kWord, ""},
				{"-w --wide", kFlag, ""}, {"--no-show-raw-insn", kFlag, ""}, {"-M= --disassembler-options=", kWord, ""}, {"-j= --section=", kWord, ""},
				{"-v --version", kVersion, ""}},
			examples: []example{{"objdump -f /bin/true", "ask"}, {"objdump -S a.o", "ask"}, {"objdump -f .env", "deny"}, {"objdump -f @a.txt", "ask"}}},
		// nginx -v and -V print its version and build; -t tests the
		// configuration, opening its logs for writing, and asks.
		"nginx": {grammar: posixGrammar, byClass: true, rows: []optRow{{"-v", kVersion, ""}, {"-V", kVersion, ""}, {"-h -?", kVersion, ""}},
			examples: []example{{"nginx -t", "ask"}, {"nginx -s reload", "ask"}}},
		"golangci-lint": {grammar: grammar{permute: true}, rows: []optRow{{"--version", kVersion, ""}}, byClass: true, subs: map[string]*spec{
			"version": {grammar: grammar{permute: true}, allow: "golangci-lint version prints its version", rows: []optRow{{"--format=", kWord, ""}, {"--debug", kFlag, ""}}},
			"linters": {ask: "loads the configuration, whose plugins (a Go plugin a .golangci.yml names) run code"},
			"help":    {ask: "loads the configuration, whose plugins (a Go plugin a .golangci.yml names) run code"},
		}, examples: []example{{"golangci-lint linters", "ask"}, {"golangci-lint run", "ask"}}},
		"mise": {grammar: grammar{permute: true}, byClass: true, subs: map[string]*spec{
			"tasks":   {ask: "evaluates mise.toml, whose templates and env directives run commands"},
			"ls":      {ask: "evaluates mise.toml, whose templates and env directives run commands"},
			"list":    {ask: "evaluates mise.toml, whose templates and env directives run commands"},
			"version": {ask: "asks over the network whether a newer mise exists"},
		}, examples: []example{{"mise tasks", "ask"}, {"mise ls", "ask"}, {"mise --version", "ask"}}},
	}
	for n, rows := range map[string][]optRow{
		"gh": {{"--version", kVersion, ""}}, "mypy": {{"--version -V", kVersion, ""}}, "ruff": {{"--version -V", kVersion, ""}},
		"ffmpeg": {{"-version", kVersion, ""}}, "ffprobe": {{"-version", kVersion, ""}},
	} {
		m[n] = &spec{grammar: versionGrammar, rows: rows, byClass: true}
	}
	return m
}

// aptQuery is an apt-cache or apt subcommand that prints the package
// lists of the names it is given, without options of its own.
func aptQuery(name string) *spec {
	return &spec{grammar: grammar{permute: true}, operands: kWord, allow: name + " prints the package lists", rows: []optRow{{"-q --quiet", kFlag, ""}}}
}

// dpkgQueryRows are dpkg's and dpkg-query's actions that print the
// package database.
var dpkgQueryRows = []optRow{
	{"-l --list", kFlag, ""}, {"-L --listfiles", kFlag, ""}, {"-s --status", kFlag, ""}, {"-S --search", kFlag, ""},
	{"-p --print-avail", kFlag, ""}, {"--get-selections", kFlag, ""}, {"--print-architecture", kFlag, ""},
	{"--no-pager", kFlag, ""}, {"--version", kVersion, ""},
}

// dpkgActions are the spellings of dpkgQueryRows' actions, and dpkgQuery
// what a line of dpkg must be: one action, or the version.
const dpkgActions = "-l --list -L --listfiles -s --status -S --search -p --print-avail --get-selections --print-architecture"

var dpkgQuery = []cond{{test: cOneOf, opts: dpkgActions, why: "without exactly one of its query actions"}}

// netstatRows are the options of net-tools' netstat, as its --help lists
// them.
var netstatRows = []optRow{
	{"-r --route", kFlag, ""}, {"-i --interfaces", kFlag, ""}, {"-g --groups", kFlag, ""}, {"-s --statistics", kFlag, ""},
	{"-M --masquerade", kFlag, ""}, {"-v --verbose", kFlag, ""}, {"-W --wide", kFlag, ""}, {"-n --numeric", kFlag, ""},
	{"--numeric-hosts", kFlag, ""}, {"--numeric-ports", kFlag, ""}, {"--numeric-users", kFlag, ""}, {"-N --symbolic", kFlag, ""},
	{"-e --extend", kFlag, ""}, {"-p --programs", kFlag, ""}, {"-o --timers", kFlag, ""}, {"-l --listening", kFlag, ""},
	{"-a --all", kFlag, ""}, {"-F --fib", kFlag, ""}, {"-C --cache", kFlag, ""}, {"-Z --context", kFlag, ""},
	{"-t --tcp", kFlag, ""}, {"-u --udp", kFlag, ""}, {"-U --udplite", kFlag, ""}, {"-S --sctp", kFlag, ""}, {"-w --raw", kFlag, ""},
	{"-x --unix", kFlag, ""}, {"-4", kFlag, ""}, {"-6", kFlag, ""}, {"-A=", kWord, ""},
	{"-V --version", kVersion, ""}, {"-h --help", kVersion, ""},
	{"-c --continuous", kAsk, "lists again every second, without end"},
}

// ipListings are the commands of an ip object that list it, spelt whole
// (ip reads a prefix as the first command it names: "a" is add); the
// object alone lists too.
var ipListings = []string{"show", "list", "lst", "ls"}

// ipQuery is what a line of an ip object must be to list it: its
// command, if any, one of ipListings; another is given to ip's class.
var ipQuery = []cond{{test: cFirstIn, values: ipListings, fail: fClass}}

// ipSubs are ip's objects whose listings the guard allows.
func ipSubs() map[string]*spec {
	subs := map[string]*spec{}
	for w, obj := range ipObjects() {
		subs[w] = &spec{grammar: grammar{oneDash: true}, operands: kWord, query: ipQuery, allow: "ip " + obj + " show prints the host's network settings"}
	}
	return subs
}

// systemctlSubs are systemctl's queries.
func systemctlSubs() map[string]*spec {
	subs := map[string]*spec{}
	for _, q := range systemctlQueries {
		subs[q] = &spec{grammar: grammar{permute: true}, operands: kWord, rows: systemctlRows, allow: "systemctl " + q + " prints the state of units"}
	}
	return subs
}

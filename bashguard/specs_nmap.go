package bashguard

import "sync"

// nmap's options, every one of its long_options table and its short
// option string (nmap.cc, 7.93), read as getopt_long_only reads them: a
// one-dash word is a long option first ("-oN F", "-script=x", a unique
// prefix for the name), unless it is one of the short letters alone; a
// word no long option names is a cluster of short ones, a letter's value
// attached or the next word ("-sV", "-p22", "-oNF" is -o with the value
// NF); options anywhere (7.93 no longer takes the names spelled with
// "_" older ones did: they ask). Its scripts (--script, --script-help) are Lua programs that
// read and write files and run programs, as they are told by their
// arguments; an earlier scan's log (--resume) replays its options; the
// output options write files (nmap expands %D, %T and the like in their
// names into digits).
var nmapRows = rows(
	each(kFlag, "", "-6", "-A", "-F", "-f", "-h", "-I", "-n", "-q", "-R", "-r", "-V", "-v[=]", "-d[=]", "-O[=]",
		"--version", "--verbose", "--help", "--iflist", "--release-memory", "--nogcc",
		"--open", "--defeat-rst-ratelimit", "--randomize-hosts",
		"--osscan-limit", "--osscan-guess", "--fuzzy",
		"--packet-trace", "--version-trace", "--send-eth", "--send-ip",
		"--no-stylesheet", "--webxml", "--rH", "--vv", "--ff", "--privileged", "--unprivileged",
		"--append-output", "--noninteractive", "--thc", "--badsum", "--traceroute", "--reason",
		"--allports", "--version-light", "--version-all",
		"--system-dns", "--log-errors", "--deprecated-xml-osclass",
		"--script-trace", "--adler32", "--disable-arp-ping",
		"--debug[=]", "--defeat-icmp-ratelimit", "--discovery-ignore-rst",
		"--resolve-all", "--unique"),
	each(kWord, "", "-D=", "-e=", "-g=", "-M=", "-P=", "-p=", "-S=", "-s=", "-T=",
		"--max-os-tries=", "--max-parallelism=", "--min-parallelism=",
		"--timing=", "--max-rtt-timeout=", "--min-rtt-timeout=",
		"--initial-rtt-timeout=", "--exclude=", "--max-hostgroup=",
		"--min-hostgroup=", "--scanflags=", "--host-timeout=",
		"--scan-delay=", "--max-scan-delay=",
		"--max-retries=", "--iR=", "--source-port=", "--nsock-engine=",
		"--data=", "--data-string=", "--data-length=", "--mtu=",
		"--spoof-mac=", "--ttl=", "--version-intensity=", "--port-ratio=",
		"--top-ports=", "--ip-options=",
		"--min-rate=", "--max-rate=", "--stats-every=",
		"--route-dst=", "--exclude-ports=", "--script-timeout=",
		// The XSL stylesheet's path or URL is written into the XML
		// output, not read.
		"--stylesheet="),
	// Hosts nmap reaches beside its targets: the FTP server a bounce
	// scan goes through, an idle scan's zombie, the proxies and the DNS
	// servers it asks (netTool.opts).
	each(kWord, "", "-b=", "--sI=", "--proxies= --proxy=", "--dns-servers="),
	each(kRead, "", "-i= --iL=", "--excludefile=", "--servicedb=", "--versiondb="),
	each(kWrite, "", "-o=", "-m=", "--oN=", "--oX=", "--oS=", "--oG=", "--oM=", "--oH="),
	// -oA BASE writes BASE.nmap, BASE.gnmap and BASE.xml: BASE is
	// judged as the path written.
	each(kWrite, "", "--oA="),
	each(kProgram, "runs the Lua scripts it names, which read and write files and run programs",
		"--script=", "--script-help="),
	each(kAsk, "gives nmap's scripts arguments, which can name files they read and write",
		"--script-args="),
	each(kConfig, "reads arguments for nmap's scripts, which can name files they read and write",
		"--script-args-file="),
	each(kConfig, "names where nmap finds its data and the scripts -sC and -A run", "--datadir="),
	each(kConfig, "replays the options of the scan its log holds, which can write any file and run scripts",
		"--resume="),
	each(kChange, "rewrites the database of nmap's scripts", "--script-updatedb"),
)

// nmapSpec is nmap's.
var nmapSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "nmap", grammar: grammar{abbrev: true, permute: true, longOnly: true}, rows: nmapRows}).compile()
})

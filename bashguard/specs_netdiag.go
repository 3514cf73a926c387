package bashguard

import "sync"

// The specs of the DNS clients and the network diagnostics, for the host
// reader (netTools): dig, host and nslookup (BIND 9), iputils' ping and
// traceroute. Each operand is a host (subHosts); what the options do to
// that is each row's kind and the row's opts in hosts_tools.go.

// digSpec is dig's (dig -h): dig reads its line in order, options among
// the operands, a cluster of the letters that take no value ending in
// one that takes a value, attached or the next word (-4tA, -q NAME).
// -q names the query, judged as an operand; -f reads a file of queries,
// whose names and servers are not read here; -k reads a TSIG key file.
// The +keyword[=value] options are operands, which are not hosts.
var digSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "dig", grammar: grammar{permute: true}, rows: rows(
		each(kWord, "", "-b=", "-c=", "-p=", "-q=", "-t=", "-x=", "-y="),
		each(kRead, "", "-f=", "-k="),
		each(kFlag, "", "-4", "-6", "-d", "-h", "-i", "-m", "-n", "-r", "-u", "-v"),
	)}).compile()
})

// hostSpec is host's (host without operands prints them): POSIX getopt,
// options before the name and the server.
var hostSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "host", grammar: posixGrammar, rows: rows(
		each(kWord, "", "-c=", "-m=", "-N=", "-p=", "-R=", "-t=", "-W="),
		each(kFlag, "", "-4", "-6", "-a", "-A", "-C", "-d", "-D", "-i", "-l", "-n", "-r", "-s", "-T", "-U", "-v", "-V", "-w"),
	)}).compile()
})

// nslookupSpec is nslookup's (nslookup(1)): each option is a word of its
// own, -keyword or -keyword=value (the value only attached: a next word
// is the name or the server), a keyword of set, which nslookup takes by
// the prefixes it lists (-q, -ty, -po). A keyword nslookup does not know
// it reports and skips; here it asks.
var nslookupSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "nslookup", grammar: grammar{oneDash: true, abbrev: true, permute: true}, rows: rows(
		each(kWord, "", "-class[=]", "-domain[=]", "-port[=]", "-querytype[=]", "-type[=]", "-ndots[=]", "-retry[=]",
			"-timeout[=]"),
		each(kFlag, "", "-all", "-debug", "-nodebug", "-d2", "-nod2", "-search", "-nosearch", "-recurse", "-norecurse",
			"-vc", "-novc", "-fail", "-nofail", "-defname", "-nodefname"),
	)}).compile()
})

// pingSpec is iputils ping's (ping -h), ping6's too: getopt, clusters,
// attached values, options after the destination. -I names an
// interface or the source address; -r sends without the routing tables.
var pingSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "ping", grammar: grammar{permute: true}, rows: rows(
		each(kWord, "", "-c=", "-e=", "-F=", "-I=", "-i=", "-l=", "-m=", "-M=", "-N=", "-p=", "-Q=", "-s=", "-S=", "-t=",
			"-T=", "-w=", "-W="),
		each(kFlag, "", "-4", "-6", "-a", "-A", "-b", "-B", "-C", "-d", "-D", "-f", "-h", "-L", "-n", "-O", "-q", "-r", "-R",
			"-U", "-v", "-V"),
	)}).compile()
})

// tracerouteSpec is traceroute's (traceroute --help; traceroute6 is
// traceroute -6), by its CLIF parser: clusters and attached values of
// the letters, a long option's value only after "=", no abbreviation.
// -g (--gateway) routes the probes through other hosts, judged as the
// destination is; -A looks each hop up in the routing registries, hosts
// not read here. -UL (UDPLITE) is a word CLIF reads whole: here it is
// the letters U and L, and asks.
var tracerouteSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "traceroute", grammar: grammar{permute: true}, rows: rows(
		each(kWord, "", "-f= --first[=]", "-g= --gateway[=]", "-i= --interface[=]", "-m= --max-hops[=]",
			"-N= --sim-queries[=]", "-p= --port[=]", "-t= --tos[=]", "-l= --flowlabel[=]", "-w= --wait[=]", "-q= --queries[=]",
			"-s= --source[=]", "-z= --sendwait[=]", "-M= --module[=]", "-O= --options[=]", "--sport[=]", "--fwmark[=]",
			"-P= --protocol[=]"),
		each(kFlag, "", "-4", "-6", "-d --debug", "-F --dont-fragment", "-I --icmp", "-T --tcp", "-n", "-r",
			"-e --extensions", "-A --as-path-lookups", "-U --udp", "-D --dccp", "--mtu", "--back", "-V --version", "--help"),
	)}).compile()
})

// tracepathSpec is iputils tracepath's (tracepath -h): getopt, clusters,
// attached values, options after the destination.
var tracepathSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "tracepath", grammar: grammar{permute: true}, rows: rows(
		each(kWord, "", "-l=", "-m=", "-p="),
		each(kFlag, "", "-4", "-6", "-b", "-n", "-V"),
	)}).compile()
})

// mtrSpec is mtr's (mtr --help, 0.95): getopt_long. -F reads the hosts
// it traces from a file.
var mtrSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "mtr", grammar: gnuGrammar, rows: rows(
		each(kRead, "", "-F= --filename="),
		each(kWord, "", "-I= --interface=", "-a= --address=", "-f= --first-ttl=", "-m= --max-ttl=", "-U= --max-unknown=",
			"-P= --port=", "-L= --localport=", "-s= --psize=", "-B= --bitpattern=", "-i= --interval=", "-G= --gracetime=",
			"-Q= --tos=", "-Z= --timeout=", "-M= --mark=", "-c= --report-cycles=", "--displaymode=", "-o= --order=",
			"-y= --ipinfo="),
		each(kFlag, "", "-4", "-6", "-u --udp", "-T --tcp", "-e --mpls", "-r --report", "-w --report-wide", "-j --json",
			"-x --xml", "-C --csv", "-l --raw", "-p --split", "-t --curses", "-n --no-dns", "-b --show-ips",
			"-z --aslookup", "-h --help", "-v --version"),
	)}).compile()
})

// drillSpec is ldns drill's (drill -h, 1.8): getopt, options among the
// operands (name, @server, type, class). -f sends the packet a file
// holds, -i prints one, -c reads the resolver's configuration (its
// servers), -k and -r trusted keys and root hints; -w and -q write the
// answer and the query.
var drillSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "drill", grammar: grammar{permute: true}, rows: rows(
		each(kRead, "", "-f=", "-i=", "-c=", "-k=", "-r="),
		each(kWrite, "", "-w=", "-q="),
		each(kWord, "", "-I=", "-V=", "-b=", "-o=", "-p=", "-d=", "-y="),
		each(kFlag, "", "-D", "-T", "-S", "-Q", "-h", "-v", "-4", "-6", "-a", "-s", "-u", "-x", "-t", "-z"),
	)}).compile()
})

// sshKeyscanSpec is ssh-keyscan's (OpenSSH 9.2): getopt. -f reads the
// hosts from a file ("-": the input).
var sshKeyscanSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "ssh-keyscan", grammar: posixGrammar, rows: rows(
		each(kRead, "", "-f="),
		each(kWord, "", "-p=", "-T=", "-t="),
		each(kFlag, "", "-4", "-6", "-c", "-D", "-H", "-v"),
	)}).compile()
})

// whoisSpec is Debian whois's (whois --help, 5.5): getopt_long, options
// after the object; -h (--host) replaces the server it asks, and the
// RIPE flags are words sent to it.
var whoisSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "whois", grammar: gnuGrammar, rows: rows(
		each(kWord, "", "-h= --host=", "-p= --port=", "-i=", "-T=", "-s=", "-g=", "-t=", "-v=", "-q="),
		each(kFlag, "", "-I", "-H", "--verbose", "--no-recursion", "--help", "--version", "-l", "-L", "-m", "-M", "-c",
			"-x", "-b", "-B", "-G", "-d", "-K", "-r", "-R", "-a"),
	)}).compile()
})

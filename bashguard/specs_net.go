package bashguard

import "sync"

// The network clients' specs: every option of curl, wget, ssh, scp,
// sftp, nc and ncat, telnet and ftp, with what it does to where the
// client connects and what it runs here, read by the one scanner
// (scan.go) for the host reader (model_hosts.go), the program check
// (model_net_exec.go) and the loopback check (model_net_loopback.go). Each table is read
// from the tool's own help (curl --help all, wget --help, the usage of
// ssh, scp and sftp, nc -h of OpenBSD netcat), which spec_help_test.go
// holds them to, and from the manuals of those not installed where it
// runs (ncat(1), telnet(1), ftp(1)).
//
// Grammars, as each tool reads its command line: curl takes options
// anywhere, --no-X for its boolean options, and (curl 7, as installed
// here) a unique prefix of a long option; curl 8 drops prefixes and adds
// --opt=value, and a spec that reads both errs towards the option the
// prefix names, never towards skipping it. wget is getopt_long's, with
// --no-X for every boolean option. ssh, scp and sftp use OpenBSD's
// getopt, which stops at the first operand; ssh reads options once more
// after its destination (ssh host -p 2222), and then its command. nc is
// glibc's getopt, which takes options after operands.

// netClient is what a network client's operands say of the hosts it
// reaches, and what it may do to the loopback.
type netClient struct {
	// dest is how the operands name hosts.
	dest netDest
	// subject names the client in the reason of an option that moves it
	// ("the hosts curl connects to with -x"; "it" for ssh and nc).
	subject string
	// reparse: options are read again after the first operand, up to
	// the next operand (ssh's destination, then its command).
	reparse bool
	// loopback are the options the client may take when it reaches only
	// the loopback of its own network namespace (the loopback network
	// mode), each by the name of its row: "-s" with any value that is
	// not curl's @file, "-o=-" with that value only, "--data-raw=*"
	// with any value. An option not listed keeps the Ask.
	loopback []string
	// needs, when set, are the options one of which the loopback mode
	// needs (written as loopback's), and needsWhy why a line without
	// one asks.
	needs    []string
	needsWhy string
}

// netDest is how a network client's operands name the hosts it reaches.
type netDest uint8

const (
	destURLs   netDest = iota + 1 // every operand is a URL, "host/path" too (curl, wget)
	destSSH                       // the first operand is [user@]host[:port] or ssh://...; the rest is a command (ssh, sftp)
	destRemote                    // every operand of the [user@]host:path form, or a URL, names a host (scp)
	destHost                      // the first operand is a host, or [v6]; unless it listens (nc)
	destFirst                     // the first operand is a host or a URL (telnet, ftp)
)

// netSpecs are the network clients, by the names they are run as.
var netSpecs = sync.OnceValue(func() map[string]*spec {
	return map[string]*spec{
		"curl": curlSpec(), "wget": wgetSpec(), "ssh": sshSpec(), "scp": scpSpec(), "sftp": sftpSpec(),
		"nc": ncSpec(), "netcat": ncSpec(), "ncat": ncatSpec(), "telnet": telnetSpec(), "ftp": ftpSpec(),
	}
})

// curlSpec is curl's (curl --help all, curl 7.88).
var curlSpec = sync.OnceValue(func() *spec {
	return (&spec{
		name:    "curl",
		grammar: grammar{abbrev: true, permute: true, negate: true},
		net: &netClient{dest: destURLs, subject: "curl",
			loopback: []string{"-s", "-S", "-f", "--fail-with-body", "-i", "-I", "-v", "-L", "-k", "--compressed",
				"--no-progress-meter", "--http1.1", "--http2", "-4", "-6", "-N", "-g",
				"-m", "--connect-timeout", "-H", "-X", "-d", "--data-raw=*", "--json", "-A", "--retry", "--retry-delay",
				"-w", "-o=-", "-o=/dev/null"}},
		rows: []optRow{
			{"--abstract-unix-socket=", kReroute, ""},
			{"--alt-svc=", kReroute, ""},
			{"--anyauth", kFlag, ""},
			{"-a --append", kFlag, ""},
			{"--aws-sigv4=", kWord, ""},
			{"--basic", kFlag, ""},
			{"--cacert=", kWord, ""},
			{"--capath=", kWord, ""},
			{"-E= --cert=", kWord, ""},
			{"--cert-status", kFlag, ""},
			{"--cert-type=", kWord, ""},
			{"--ciphers=", kWord, ""},
			{"--compressed", kFlag, ""},
			{"--compressed-ssh", kFlag, ""},
			{"-K= --config=", kReroute, ""},
			{"--connect-timeout=", kWord, ""},
			{"--connect-to=", kReroute, ""},
			{"-C= --continue-at=", kWord, ""},
			{"-b= --cookie=", kWord, ""},
			{"-c= --cookie-jar=", kWrite, ""},
			{"--create-dirs", kFlag, ""},
			{"--create-file-mode=", kWord, ""},
			{"--crlf", kFlag, ""},
			{"--crlfile=", kWord, ""},
			{"--curves=", kWord, ""},
			{"-d= --data=", kWord, ""},
			{"--data-ascii=", kWord, ""},
			{"--data-binary=", kWord, ""},
			{"--data-raw=", kWord, ""},
			{"--data-urlencode=", kWord, ""},
			{"--delegation=", kWord, ""},
			{"--digest", kFlag, ""},
			{"-q --disable", kFlag, ""},
			{"--disable-eprt", kFlag, ""},
			{"--disable-epsv", kFlag, ""},
			{"--disallow-username-in-url", kFlag, ""},
			{"--dns-interface=", kWord, ""},
			{"--dns-ipv4-addr=", kWord, ""},
			{"--dns-ipv6-addr=", kWord, ""},
			{"--dns-servers=", kReroute, ""},
			{"--doh-cert-status", kFlag, ""},
			{"--doh-insecure", kFlag, ""},
			{"--doh-url=", kReroute, ""},
			{"-D= --dump-header=", kWrite, ""},
			{"--egd-file=", kWord, ""},
			{"--engine=", kWord, ""},
			{"--etag-compare=", kRead, ""},
			{"--etag-save=", kWrite, ""},
			{"--expect100-timeout=", kWord, ""},
			{"-f --fail", kFlag, ""},
			{"--fail-early", kFlag, ""},
			{"--fail-with-body", kFlag, ""},
			{"--false-start", kFlag, ""},
			{"-F= --form=", kWord, ""},
			{"--form-escape", kFlag, ""},
			{"--form-string=", kWord, ""},
			{"--ftp-account=", kWord, ""},
			{"--ftp-alternative-to-user=", kWord, ""},
			{"--ftp-create-dirs", kFlag, ""},
			{"--ftp-method=", kWord, ""},
			{"--ftp-pasv", kFlag, ""},
			{"-P= --ftp-port=", kWord, ""},
			{"--ftp-pret", kFlag, ""},
			{"--ftp-skip-pasv-ip", kFlag, ""},
			{"--ftp-ssl-ccc", kFlag, ""},
			{"--ftp-ssl-ccc-mode=", kWord, ""},
			{"--ftp-ssl-control", kFlag, ""},
			{"-G --get", kFlag, ""},
			{"-g --globoff", kFlag, ""},
			{"--happy-eyeballs-timeout-ms=", kWord, ""},
			{"--haproxy-protocol", kFlag, ""},
			{"-I --head", kFlag, ""},
			{"-H= --header=", kWord, ""},
			{"-h --help", kFlag, ""},
			{"--hostpubmd5=", kWord, ""},
			{"--hostpubsha256=", kWord, ""},
			{"--hsts=", kWrite, ""},
			{"--http0.9", kFlag, ""},
			{"-0 --http1.0", kFlag, ""},
			{"--http1.1", kFlag, ""},
			{"--http2", kFlag, ""},
			{"--http2-prior-knowledge", kFlag, ""},
			{"--http3", kFlag, ""},
			{"--http3-only", kFlag, ""},
			{"--ignore-content-length", kFlag, ""},
			{"-i --include", kFlag, ""},
			{"-k --insecure", kFlag, ""},
			{"--interface=", kWord, ""},
			{"-4 --ipv4", kFlag, ""},
			{"-6 --ipv6", kFlag, ""},
			{"--json=", kWord, ""},
			{"-j --junk-session-cookies", kFlag, ""},
			{"--keepalive-time=", kWord, ""},
			{"--key=", kWord, ""},
			{"--key-type=", kWord, ""},
			{"--krb=", kWord, ""},
			{"--libcurl=", kWrite, ""},
			{"--limit-rate=", kWord, ""},
			{"-l --list-only", kFlag, ""},
			{"--local-port=", kWord, ""},
			{"-L --location", kFlag, ""},
			{"--location-trusted", kFlag, ""},
			{"--login-options=", kWord, ""},
			{"--mail-auth=", kWord, ""},
			{"--mail-from=", kWord, ""},
			{"--mail-rcpt=", kWord, ""},
			{"--mail-rcpt-allowfails", kFlag, ""},
			{"-M --manual", kFlag, ""},
			{"--max-filesize=", kWord, ""},
			{"--max-redirs=", kWord, ""},
			{"-m= --max-time=", kWord, ""},
			{"--metalink", kFlag, ""},
			{"--negotiate", kFlag, ""},
			{"-n --netrc", kFlag, ""},
			{"--netrc-file=", kRead, ""},
			{"--netrc-optional", kFlag, ""},
			{"-: --next", kFlag, ""},
			{"--no-alpn", kFlag, ""},
			{"-N --no-buffer", kFlag, ""},
			{"--no-clobber", kFlag, ""},
			{"--no-keepalive", kFlag, ""},
			{"--no-npn", kFlag, ""},
			{"--no-progress-meter", kFlag, ""},
			{"--no-sessionid", kFlag, ""},
			{"--noproxy=", kWord, ""},
			{"--ntlm", kFlag, ""},
			{"--ntlm-wb", kFlag, ""},
			{"--oauth2-bearer=", kWord, ""},
			{"-o= --output=", kWrite, ""},
			{"--output-dir=", kWord, ""},
			{"-Z --parallel", kFlag, ""},
			{"--parallel-immediate", kFlag, ""},
			{"--parallel-max=", kWord, ""},
			{"--pass=", kWord, ""},
			{"--path-as-is", kFlag, ""},
			{"--pinnedpubkey=", kWord, ""},
			{"--post301", kFlag, ""},
			{"--post302", kFlag, ""},
			{"--post303", kFlag, ""},
			{"--preproxy=", kReroute, ""},
			{"-# --progress-bar", kFlag, ""},
			{"--proto=", kWord, ""},
			{"--proto-default=", kWord, ""},
			{"--proto-redir=", kWord, ""},
			{"-x= --proxy=", kReroute, ""},
			{"--proxy-anyauth", kFlag, ""},
			{"--proxy-basic", kFlag, ""},
			{"--proxy-cacert=", kWord, ""},
			{"--proxy-capath=", kWord, ""},
			{"--proxy-cert=", kWord, ""},
			{"--proxy-cert-type=", kWord, ""},
			{"--proxy-ciphers=", kWord, ""},
			{"--proxy-crlfile=", kWord, ""},
			{"--proxy-digest", kFlag, ""},
			{"--proxy-header=", kWord, ""},
			{"--proxy-insecure", kFlag, ""},
			{"--proxy-key=", kWord, ""},
			{"--proxy-key-type=", kWord, ""},
			{"--proxy-negotiate", kFlag, ""},
			{"--proxy-ntlm", kFlag, ""},
			{"--proxy-pass=", kWord, ""},
			{"--proxy-pinnedpubkey=", kWord, ""},
			{"--proxy-service-name=", kWord, ""},
			{"--proxy-ssl-allow-beast", kFlag, ""},
			{"--proxy-ssl-auto-client-cert", kFlag, ""},
			{"--proxy-tls13-ciphers=", kWord, ""},
			{"--proxy-tlsauthtype=", kWord, ""},
			{"--proxy-tlspassword=", kWord, ""},
			{"--proxy-tlsuser=", kWord, ""},
			{"--proxy-tlsv1", kFlag, ""},
			{"-U= --proxy-user=", kWord, ""},
			{"--proxy1.0=", kReroute, ""},
			{"-p --proxytunnel", kFlag, ""},
			{"--pubkey=", kWord, ""},
			{"-Q= --quote=", kWord, ""},
			{"--random-file=", kWord, ""},
			{"-r= --range=", kWord, ""},
			{"--rate=", kWord, ""},
			{"--raw", kFlag, ""},
			{"-e= --referer=", kWord, ""},
			{"-J --remote-header-name", kFlag, ""},
			{"-O --remote-name", kFlag, ""},
			{"--remote-name-all", kFlag, ""},
			{"-R --remote-time", kFlag, ""},
			{"--remove-on-error", kFlag, ""},
			{"-X= --request=", kWord, ""},
			{"--request-target=", kWord, ""},
			{"--resolve=", kReroute, ""},
			{"--retry=", kWord, ""},
			{"--retry-all-errors", kFlag, ""},
			{"--retry-connrefused", kFlag, ""},
			{"--retry-delay=", kWord, ""},
			{"--retry-max-time=", kWord, ""},
			{"--sasl-authzid=", kWord, ""},
			{"--sasl-ir", kFlag, ""},
			{"--service-name=", kWord, ""},
			{"-S --show-error", kFlag, ""},
			{"-s --silent", kFlag, ""},
			{"--socks4=", kReroute, ""},
			{"--socks4a=", kReroute, ""},
			{"--socks5=", kReroute, ""},
			{"--socks5-basic", kFlag, ""},
			{"--socks5-gssapi", kFlag, ""},
			{"--socks5-gssapi-nec", kFlag, ""},
			{"--socks5-gssapi-service=", kWord, ""},
			{"--socks5-hostname=", kReroute, ""},
			{"-Y= --speed-limit=", kWord, ""},
			{"-y= --speed-time=", kWord, ""},
			{"--ssl", kFlag, ""},
			{"--ssl-allow-beast", kFlag, ""},
			{"--ssl-auto-client-cert", kFlag, ""},
			{"--ssl-no-revoke", kFlag, ""},
			{"--ssl-reqd", kFlag, ""},
			{"--ssl-revoke-best-effort", kFlag, ""},
			{"-2 --sslv2", kFlag, ""},
			{"-3 --sslv3", kFlag, ""},
			{"--stderr=", kWrite, ""},
			{"--styled-output", kFlag, ""},
			{"--suppress-connect-headers", kFlag, ""},
			{"--tcp-fastopen", kFlag, ""},
			{"--tcp-nodelay", kFlag, ""},
			{"-t= --telnet-option=", kWord, ""},
			{"--tftp-blksize=", kWord, ""},
			{"--tftp-no-options", kFlag, ""},
			{"-z= --time-cond=", kWord, ""},
			{"--tls-max=", kWord, ""},
			{"--tls13-ciphers=", kWord, ""},
			{"--tlsauthtype=", kWord, ""},
			{"--tlspassword=", kWord, ""},
			{"--tlsuser=", kWord, ""},
			{"-1 --tlsv1", kFlag, ""},
			{"--tlsv1.0", kFlag, ""},
			{"--tlsv1.1", kFlag, ""},
			{"--tlsv1.2", kFlag, ""},
			{"--tlsv1.3", kFlag, ""},
			{"--tr-encoding", kFlag, ""},
			{"--trace=", kWrite, ""},
			{"--trace-ascii=", kWrite, ""},
			{"--trace-time", kFlag, ""},
			{"--unix-socket=", kReroute, ""},
			{"-T= --upload-file=", kRead, ""},
			{"--url=", kURL, ""},
			{"--url-query=", kWord, ""},
			{"-B --use-ascii", kFlag, ""},
			{"-u= --user=", kWord, ""},
			{"-A= --user-agent=", kWord, ""},
			{"-v --verbose", kFlag, ""},
			{"-V --version", kFlag, ""},
			{"-w= --write-out=", kWriteOut, ""},
			{"--xattr", kFlag, ""},
		},
	}).compile()
})

// wgetSpec is wget's (wget --help, wget 1.21).
var wgetSpec = sync.OnceValue(func() *spec {
	return (&spec{
		name:    "wget",
		grammar: grammar{abbrev: true, permute: true, negate: true},
		net: &netClient{dest: destURLs, subject: "wget",
			loopback: []string{"-q", "-S", "--spider", "-n=v", "--no-verbose", "-O=-", "-T", "-t", "--header"},
			needs:    []string{"--spider", "-O=-"},
			needsWhy: "it writes what it downloads to a file (-O - sends it to standard output)"},
		rows: []optRow{
			{"-V --version", kFlag, ""},
			{"-h --help", kFlag, ""},
			{"-b --background", kFlag, ""},
			{"-e= --execute=", kConfig, "can run a program (use_askpass)"},
			{"-o= --output-file=", kWrite, ""},
			{"-a= --append-output=", kWrite, ""},
			{"-d --debug", kFlag, ""},
			{"-q --quiet", kFlag, ""},
			{"-v --verbose", kFlag, ""},
			{"--no-verbose", kFlag, ""},
			{"--report-speed=", kWord, ""},
			{"-i= --input-file=", kReroute, ""},
			{"-F --force-html", kFlag, ""},
			{"-B= --base=", kWord, ""},
			{"--config=", kConfig, "can run a program (use_askpass)"},
			{"--no-config", kFlag, ""},
			{"--rejected-log=", kWrite, ""},
			{"-t= --tries=", kWord, ""},
			{"--retry-connrefused", kFlag, ""},
			{"--retry-on-http-error=", kWord, ""},
			{"-O= --output-document=", kWrite, ""},
			{"--no-clobber", kFlag, ""},
			{"--no-netrc", kFlag, ""},
			{"-c --continue", kFlag, ""},
			{"--start-pos=", kWord, ""},
			{"--progress=", kWord, ""},
			{"--show-progress", kFlag, ""},
			{"-N --timestamping", kFlag, ""},
			{"--no-if-modified-since", kFlag, ""},
			{"--no-use-server-timestamps", kFlag, ""},
			{"-S --server-response", kFlag, ""},
			{"--spider", kFlag, ""},
			{"-T= --timeout=", kWord, ""},
			{"--dns-timeout=", kWord, ""},
			{"--connect-timeout=", kWord, ""},
			{"--read-timeout=", kWord, ""},
			{"-w= --wait=", kWord, ""},
			{"--waitretry=", kWord, ""},
			{"--random-wait", kFlag, ""},
			{"--no-proxy", kFlag, ""},
			{"-Q= --quota=", kWord, ""},
			{"--bind-address=", kWord, ""},
			{"--limit-rate=", kWord, ""},
			{"--no-dns-cache", kFlag, ""},
			{"--restrict-file-names=", kWord, ""},
			{"--ignore-case", kFlag, ""},
			{"-4 --inet4-only", kFlag, ""},
			{"-6 --inet6-only", kFlag, ""},
			{"--prefer-family=", kWord, ""},
			{"--user=", kWord, ""},
			{"--password=", kWord, ""},
			{"--ask-password", kFlag, ""},
			{"--use-askpass=", kProgram, "can run a program (use_askpass)"},
			{"--no-iri", kFlag, ""},
			{"--local-encoding=", kWord, ""},
			{"--remote-encoding=", kWord, ""},
			{"--unlink", kFlag, ""},
			{"--xattr", kFlag, ""},
			{"--no-directories", kFlag, ""},
			{"-x --force-directories", kFlag, ""},
			{"--no-host-directories", kFlag, ""},
			{"--protocol-directories", kFlag, ""},
			{"-P= --directory-prefix=", kWord, ""},
			{"--cut-dirs=", kWord, ""},
			{"--http-user=", kWord, ""},
			{"--http-password=", kWord, ""},
			{"--no-cache", kFlag, ""},
			{"--default-page=", kWord, ""},
			{"-E --adjust-extension", kFlag, ""},
			{"--ignore-length", kFlag, ""},
			{"--header=", kWord, ""},
			{"--compression=", kWord, ""},
			{"--max-redirect", kFlag, ""},
			{"--proxy-user=", kWord, ""},
			{"--proxy-password=", kWord, ""},
			{"--referer=", kWord, ""},
			{"--save-headers", kFlag, ""},
			{"-U= --user-agent=", kWord, ""},
			{"--no-http-keep-alive", kFlag, ""},
			{"--no-cookies", kFlag, ""},
			{"--load-cookies=", kRead, ""},
			{"--save-cookies=", kWrite, ""},
			{"--keep-session-cookies", kFlag, ""},
			{"--post-data=", kWord, ""},
			{"--post-file=", kRead, ""},
			{"--method=", kWord, ""},
			{"--body-data=", kWord, ""},
			{"--body-file=", kRead, ""},
			{"--content-disposition", kFlag, ""},
			{"--content-on-error", kFlag, ""},
			{"--auth-no-challenge", kFlag, ""},
			{"--secure-protocol=", kWord, ""},
			{"--https-only", kFlag, ""},
			{"--no-check-certificate", kFlag, ""},
			{"--certificate=", kWord, ""},
			{"--certificate-type=", kWord, ""},
			{"--private-key=", kWord, ""},
			{"--private-key-type=", kWord, ""},
			{"--ca-certificate=", kWord, ""},
			{"--ca-directory=", kWord, ""},
			{"--crl-file=", kWord, ""},
			{"--pinnedpubkey=", kWord, ""},
			{"--ciphers=", kWord, ""},
			{"--no-hsts", kFlag, ""},
			{"--hsts-file", kFlag, ""},
			{"--ftp-user=", kWord, ""},
			{"--ftp-password=", kWord, ""},
			{"--no-remove-listing", kFlag, ""},
			{"--no-glob", kFlag, ""},
			{"--no-passive-ftp", kFlag, ""},
			{"--preserve-permissions", kFlag, ""},
			{"--retr-symlinks", kFlag, ""},
			{"--ftps-implicit", kFlag, ""},
			{"--ftps-resume-ssl", kFlag, ""},
			{"--ftps-clear-data-connection", kFlag, ""},
			{"--ftps-fallback-to-ftp", kFlag, ""},
			{"--warc-file=", kWrite, ""},
			{"--warc-header=", kWord, ""},
			{"--warc-max-size=", kWord, ""},
			{"--warc-cdx", kFlag, ""},
			{"--warc-dedup=", kWord, ""},
			{"--no-warc-compression", kFlag, ""},
			{"--no-warc-digests", kFlag, ""},
			{"--no-warc-keep-log", kFlag, ""},
			{"--warc-tempdir=", kWord, ""},
			{"-r --recursive", kFlag, ""},
			{"-l= --level=", kWord, ""},
			{"--delete-after", kFlag, ""},
			{"-k --convert-links", kFlag, ""},
			{"--convert-file-only", kFlag, ""},
			{"--backups=", kWord, ""},
			{"-K --backup-converted", kFlag, ""},
			{"-m --mirror", kFlag, ""},
			{"-p --page-requisites", kFlag, ""},
			{"--strict-comments", kFlag, ""},
			{"-A= --accept=", kWord, ""},
			{"-R= --reject=", kWord, ""},
			{"--accept-regex=", kWord, ""},
			{"--reject-regex=", kWord, ""},
			{"--regex-type=", kWord, ""},
			{"-D= --domains=", kWord, ""},
			{"--exclude-domains=", kWord, ""},
			{"--follow-ftp", kFlag, ""},
			{"--follow-tags=", kWord, ""},
			{"--ignore-tags=", kWord, ""},
			{"-H --span-hosts", kReroute, ""},
			{"-L --relative", kFlag, ""},
			{"-I= --include-directories=", kWord, ""},
			{"--trust-server-names", kFlag, ""},
			{"-X= --exclude-directories=", kWord, ""},
			{"--no-parent", kFlag, ""},
			{"-n=", kWord, "its value is letters, each a --no- option (-nv: --no-verbose)"},
		},
	}).compile()
})

// The reasons of the ssh options that run programs here.
const (
	sshReadsConfig = "reads an ssh configuration, which can run programs (ProxyCommand)"
	sshConnProgram = "runs a program as the connection"
	sshSftpServer  = "runs a local sftp server program"
)

// sshSpec is ssh's (ssh(1), OpenSSH 9.2).
var sshSpec = sync.OnceValue(func() *spec {
	return (&spec{
		name:    "ssh",
		grammar: posixGrammar,
		net:     &netClient{dest: destSSH, subject: "it", reparse: true},
		joined: join(
			each(kFlag, "", "-4", "-6", "-A", "-a", "-C", "-f", "-G", "-g", "-K", "-k", "-M", "-N", "-n", "-q", "-s", "-T",
				"-t", "-V", "-v", "-X", "-x", "-Y", "-y"),
			each(kWord, "", "-B=", "-b=", "-c=", "-e=", "-l=", "-m=", "-O=", "-p=", "-Q="),
			each(kRead, "an identity file", "-i="),
			each(kWrite, "its log", "-E="),
			each(kConfig, sshReadsConfig, "-F="),
			each(kProgram, "loads a PKCS#11 library", "-I="),
			each(kJump, "", "-J="),
			each(kSSHOption, "", "-o="),
			// The forwardings carry the connection on to hosts the server
			// or this machine reaches (-W host:port, -L and -R
			// port:host:port, -D any host a SOCKS client names, -w a tunnel
			// device); -S joins a master connection, made to any host.
			each(kForward, "", "-D=", "-L=", "-R=", "-W=", "-w=", "-S="),
		),
	}).compile()
})

// scpSpec is scp's (scp(1), OpenSSH 9.2).
var scpSpec = sync.OnceValue(func() *spec {
	return (&spec{
		name:    "scp",
		grammar: posixGrammar,
		net:     &netClient{dest: destRemote, subject: "it"},
		joined: join(
			each(kFlag, "", "-3", "-4", "-6", "-A", "-B", "-C", "-O", "-p", "-q", "-R", "-r", "-s", "-T", "-v"),
			each(kWord, "", "-c=", "-l=", "-P=", "-X="),
			each(kRead, "an identity file", "-i="),
			each(kProgram, sshSftpServer, "-D="),
			each(kConfig, sshReadsConfig, "-F="),
			each(kJump, "", "-J="),
			each(kSSHOption, "", "-o="),
			each(kProgram, sshConnProgram, "-S="),
		),
	}).compile()
})

// sftpSpec is sftp's (sftp(1), OpenSSH 9.2).
var sftpSpec = sync.OnceValue(func() *spec {
	return (&spec{
		name:    "sftp",
		grammar: posixGrammar,
		net:     &netClient{dest: destSSH, subject: "it"},
		joined: join(
			each(kFlag, "", "-4", "-6", "-A", "-a", "-C", "-f", "-N", "-p", "-q", "-r", "-v"),
			each(kWord, "", "-B=", "-c=", "-l=", "-P=", "-R=", "-s=", "-X="),
			each(kRead, "an identity file", "-i="),
			each(kProgram, "reads a batch file, whose ! lines run commands here", "-b="),
			each(kProgram, sshSftpServer, "-D="),
			each(kConfig, sshReadsConfig, "-F="),
			each(kJump, "", "-J="),
			each(kSSHOption, "", "-o="),
			each(kProgram, sshConnProgram, "-S="),
		),
	}).compile()
})

// ncRuns is the reason of the options of the netcats that run a program.
const ncRuns = "runs a program connected to the network"

// ncProxy is how the reasons name a netcat's proxy options.
const ncProxy = "through the proxy of"

// ncSpec is OpenBSD netcat's (nc -h, Debian's netcat-openbsd 1.219),
// with the -e and -c of the traditional netcat, which run a program.
var ncSpec = sync.OnceValue(func() *spec {
	return (&spec{
		name:    "nc",
		grammar: grammar{permute: true},
		net: &netClient{dest: destHost, subject: "it",
			loopback: []string{"-z", "-v", "-n", "-N", "-4", "-6", "-w", "-q"}},
		joined: join(
			each(kFlag, "", "-4", "-6", "-b", "-C", "-D", "-d", "-F", "-h", "-k", "-N", "-n", "-r", "-S", "-t", "-U", "-u",
				"-v", "-Z", "-z"),
			each(kWord, "", "-I=", "-i=", "-M=", "-m=", "-O=", "-P=", "-p=", "-q=", "-s=", "-T=", "-V=", "-W=", "-w="),
			each(kListen, "", "-l"),
			each(kReroute, ncProxy, "-X=", "-x="),
			each(kProgram, ncRuns, "-e=", "-c="),
		),
	}).compile()
})

// ncatSpec is Nmap's ncat's (ncat(1)).
var ncatSpec = sync.OnceValue(func() *spec {
	return (&spec{
		name:    "ncat",
		grammar: gnuGrammar,
		net: &netClient{dest: destHost, subject: "it",
			loopback: []string{"-z", "-v", "-n", "-4", "-6", "-w"}},
		joined: join(
			each(kFlag, "", "-4", "-6", "-U --unixsock", "--vsock", "-C --crlf", "-n --nodns", "-t --telnet", "-u --udp",
				"--sctp", "-v --verbose", "-z", "-k --keep-open", "--send-only", "--recv-only", "--no-shutdown",
				"--allow-broadcast", "--broker", "--chat", "--ssl", "--ssl-verify", "--append-output", "--version",
				"-h --help"),
			each(kWord, "", "-d= --delay=", "-w= --wait=", "-i= --idle-timeout=", "-p= --source-port=", "-s= --source=",
				"-g=", "-G=", "-m= --max-conns=", "--nsock-engine=", "--proxy-type=", "--proxy-auth=", "--proxy-dns=",
				"--ssl-ciphers=", "--ssl-servername=", "--ssl-alpn=", "--allow=", "--deny=", "-q="),
			each(kRead, "", "--allowfile=", "--denyfile=", "--ssl-cert=", "--ssl-key=", "--ssl-trustfile="),
			each(kWrite, "its record of the connection", "-o= --output=", "-x= --hex-dump="),
			each(kListen, "", "-l --listen"),
			each(kReroute, ncProxy, "--proxy="),
			each(kProgram, ncRuns, "-e= --exec=", "-c= --sh-exec=", "--lua-exec="),
		),
	}).compile()
})

// telnetSpec is telnet's (telnet(1) of netkit and inetutils).
var telnetSpec = sync.OnceValue(func() *spec {
	return (&spec{
		name:    "telnet",
		grammar: grammar{permute: true},
		net:     &netClient{dest: destFirst},
		joined: join(
			each(kFlag, "", "-4", "-6", "-7", "-8", "-E", "-F", "-K", "-L", "-a", "-c", "-d", "-f", "-r", "-x"),
			each(kWord, "", "-X=", "-b=", "-e=", "-k=", "-l="),
			each(kWrite, "its trace", "-n="),
		),
	}).compile()
})

// ftpSpec is ftp's (ftp(1) of netkit and inetutils, tnftp's -P, -s, -o).
var ftpSpec = sync.OnceValue(func() *spec {
	return (&spec{
		name:    "ftp",
		grammar: grammar{permute: true},
		net:     &netClient{dest: destFirst},
		joined: join(
			each(kFlag, "", "-4", "-6", "-A", "-d", "-e", "-g", "-i", "-n", "-p", "-t", "-v"),
			each(kWord, "", "-P=", "-s="),
			each(kWrite, "what it downloads", "-o="),
		),
	}).compile()
})

// each is one row of kind k (and reason why) for every option of opts,
// each given by its spellings ("-d= --delay=").
func each(k kind, why string, opts ...string) []optRow {
	out := make([]optRow, len(opts))
	for i, o := range opts {
		out[i] = optRow{o, k, why}
	}
	return out
}

// sshExecKeys are the ssh_config keywords (lower case) whose value runs
// a program or loads code here, or that read more configuration.
var sshExecKeys = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"proxycommand": true, "localcommand": true, "permitlocalcommand": true,
		"knownhostscommand": true, "pkcs11provider": true, "securitykeyprovider": true, "match": true, "include": true}
})

// sshMoves are the ssh_config keywords (lower case) that move where ssh
// connects, or forward the connection on, or read more configuration
// that may: their hosts are not read here.
var sshMoves = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"hostname": true, "proxyjump": true, "proxycommand": true, "canonicalizehostname": true,
		"canonicaldomains": true, "include": true, "match": true, "localforward": true, "remoteforward": true,
		"dynamicforward": true, "tunnel": true, "tunneldevice": true, "controlpath": true, "controlmaster": true}
})

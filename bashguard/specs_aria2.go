package bashguard

import "sync"

// aria2c's options, every one its help lists (aria2c --help=#all, 1.36).
// aria2 reads them with getopt_long: letters clustered, a value attached
// or the next word, an optional value ("[=true|false]") only attached,
// "--long=value", a unique prefix of a long name for the name, options
// anywhere. The programs its hooks run (--on-download-complete, ...) and
// its control interface (--enable-rpc) ask past Bash(aria2c:*); the
// files it writes (-d, -o, --log, --save-session) are judged as writes,
// and its input and configuration files, whose options can run
// programs, ask.
var aria2Rows = rows(
	each(kFlag, "", "-v --version", "-D[=] --daemon[=]", "--allow-overwrite[=]", "--realtime-chunk-checksum[=]",
		"-V[=] --check-integrity[=]", "-c[=] --continue[=]", "-n[=] --no-netrc[=]", "--deferred-input[=]",
		"--optimize-concurrent-downloads[=]", "-Z[=] --force-sequential[=]", "--auto-file-renaming[=]",
		"-P[=] --parameterized-uri[=]", "--allow-piece-length-change[=]", "--no-conf[=]", "-q[=] --quiet[=]",
		"--async-dns[=]", "-R[=] --remote-time[=]", "--rpc-allow-origin-all[=]", "--rpc-secure[=]",
		"--rpc-save-upload-metadata[=]", "--dry-run[=]", "--reuse-uri[=]", "--disable-ipv6[=]", "--human-readable[=]",
		"--remove-control-file[=]", "--always-resume[=]", "--conditional-get[=]", "--enable-async-dns6[=]",
		"--show-console-readout[=]", "--truncate-console-readout[=]", "--pause[=]", "--hash-check-only[=]",
		"--enable-mmap[=]", "--force-save[=]", "--save-not-found[=]", "--enable-color[=]", "--pause-metadata[=]",
		"--stderr[=]", "--keep-unfinished-download-result[=]", "-p[=] --ftp-pasv[=]", "--ftp-reuse-connection[=]",
		"--enable-http-keep-alive[=]", "--enable-http-pipelining[=]", "--check-certificate[=]", "--use-head[=]",
		"--http-auth-challenge[=]", "--http-no-cache[=]", "--http-accept-gzip[=]",
		"--content-disposition-default-utf8[=]", "-S[=] --show-files[=]", "--enable-peer-exchange[=]",
		"--enable-dht[=]", "--enable-dht6[=]", "--bt-require-crypto[=]", "--bt-seed-unverified[=]",
		"--bt-hash-check-seed[=]", "--bt-save-metadata[=]", "--bt-metadata-only[=]", "--bt-enable-lpd[=]",
		"--bt-remove-unselected-file[=]", "--bt-detach-seed-only[=]", "--bt-force-encryption[=]",
		"--bt-enable-hook-after-hash-check[=]", "--bt-load-saved-metadata[=]", "--metalink-enable-unique-protocol[=]"),
	each(kWord, "", "-h[=] --help[=]", "-t= --timeout=", "--connect-timeout=", "-m= --max-tries=",
		"--auto-save-interval=", "-s= --split=", "--referer=", "--lowest-speed-limit=", "--piece-length=",
		"--max-overall-download-limit=", "--max-download-limit=", "--file-allocation=", "--no-file-allocation-limit=",
		"-j= --max-concurrent-downloads=", "--stop=", "--summary-interval=", "--log-level=", "--console-log-level=",
		"--uri-selector=", "--server-stat-timeout=", "--max-file-not-found=", "--event-poll=", "--rpc-listen-port=",
		"--rpc-user=", "--rpc-passwd=", "--rpc-max-request-size=", "--interface=", "--multiple-interface=",
		"--max-resume-failure-tries=", "-x= --max-connection-per-server=", "-k= --min-split-size=",
		"--max-download-result=", "--retry-wait=", "--async-dns-server=", "--stream-piece-selector=",
		"--download-result=", "--checksum=", "--stop-with-process=", "--disk-cache=", "--gid=",
		"--save-session-interval=", "--rpc-secret=", "--dscp=", "--rlimit-nofile=", "--min-tls-version=",
		"--socket-recv-buffer-size=", "--max-mmap-limit=", "--ftp-user=", "--ftp-passwd=", "--ftp-type=",
		"--ssh-host-key-md=", "--http-user=", "--http-passwd=", "-U= --user-agent=", "--header=", "--http-proxy=",
		"--https-proxy=", "--ftp-proxy=", "--all-proxy=", "--no-proxy=", "--proxy-method=", "--http-proxy-user=",
		"--http-proxy-passwd=", "--https-proxy-user=", "--https-proxy-passwd=", "--ftp-proxy-user=",
		"--ftp-proxy-passwd=", "--all-proxy-user=", "--all-proxy-passwd=", "--max-overall-upload-limit=",
		"-u= --max-upload-limit=", "--listen-port=", "--follow-torrent=", "--select-file=", "--seed-time=",
		"--seed-ratio=", "--peer-id-prefix=", "--peer-agent=", "--dht-listen-port=", "--dht-entry-point=",
		"--dht-listen-addr6=", "--dht-entry-point6=", "--bt-min-crypto-level=", "--bt-request-peer-speed-limit=",
		"--bt-max-open-files=", "--bt-max-peers=", "--bt-external-ip=", "--bt-tracker-interval=", "--bt-stop-timeout=",
		"--bt-prioritize-piece=", "--bt-lpd-interface=", "--bt-tracker-timeout=", "--bt-tracker-connect-timeout=",
		"--dht-message-timeout=", "--bt-tracker=", "--bt-exclude-tracker=", "--metalink-version=",
		"--metalink-language=", "--metalink-os=", "--metalink-location=", "--follow-metalink=",
		"--metalink-preferred-protocol=", "--metalink-base-uri="),
	each(kWrite, "", "-l= --log=", "-d= --dir=", "-o= --out=", "--server-stat-of=", "--save-session=",
		"--save-cookies=", "--dht-file-path=", "--dht-file-path6="),
	each(kRead, "", "--netrc-path=", "--server-stat-if=", "--rpc-certificate=", "--rpc-private-key=",
		"--load-cookies=", "--certificate=", "--private-key=", "--ca-certificate=", "-T= --torrent-file=",
		"-M= --metalink-file="),
	each(kConfig, "reads URIs with options of their own, which can write any file", "-i= --input-file="),
	each(kConfig, "reads options, which can run programs and write any file", "--conf-path="),
	each(kAsk, "serves a control interface through which any file can be written and any program run",
		"--enable-rpc[=]", "--rpc-listen-all[=]"),
	each(kProgram, "runs the program it names when a download starts, stops, pauses, fails or completes",
		"--on-download-start=", "--on-download-pause=", "--on-download-stop=", "--on-download-complete=",
		"--on-download-error=", "--on-bt-download-complete="),
	each(kAsk, "names where a file of a torrent is written, which is not read here", "-O= --index-out="),
)

// aria2Spec is aria2c's.
var aria2Spec = sync.OnceValue(func() *spec {
	return (&spec{name: "aria2c", grammar: grammar{abbrev: true, permute: true}, rows: aria2Rows}).compile()
})

package bashguard

import "sync"

// links's options (links -help, 2.28): one dash, each a word of its own,
// a value the next word (never "=", no abbreviation), names read without
// regard to case (-DUMP is -dump), options anywhere. -dump and -source
// take the URL or the file they print; -download-dir and -bookmarks-file
// name where it writes, -ssl.client-cert-* the key and certificate it
// sends. The configuration it runs programs by (associations) is its
// home's, not the workspace's.
var linksRows = rows(
	each(kFlag, "", "-help", "-version", "-g", "-no-g", "-force-html", "-anonymous", "-no-connect", "-no-libevent",
		"-no-openmp"),
	each(kWord, "", "-lookup=", "-driver=", "-mode=", "-display=", "-width=", "-codepage=", "-language=",
		"-max-connections=", "-max-connections-to-host=", "-retries=", "-receive-timeout=",
		"-unrestartable-receive-timeout=", "-timeout-when-trying-multiple-addresses=", "-bind-address=",
		"-bind-address-ipv6=", "-download-utime=", "-format-cache-size=", "-memory-cache-size=", "-image-cache-size=",
		"-font-cache-size=", "-aggressive-cache=", "-address-preference=", "-http-proxy=", "-ftp-proxy=", "-https-proxy=",
		"-socks-proxy=", "-append-text-to-dns-lookups=", "-no-proxy-domains=", "-only-proxies=", "-ssl.certificates=",
		"-ssl.builtin-certificates=", "-ssl.client-cert-password=", "-async-dns=", "-dns-over-https=",
		"-http-bugs.http10=", "-http-bugs.allow-blacklist=", "-http-bugs.bug-no-accept-charset=",
		"-http-bugs.no-compression=", "-http-bugs.retry-internal-errors=", "-http.fake-firefox=", "-http.do-not-track=",
		"-http.referer=", "-http.fake-referer=", "-http.fake-user-agent=", "-http.extra-header=",
		"-ftp.anonymous-password=", "-ftp.use-passive=", "-ftp.use-eprt-epsv=", "-ftp.set-iptos=",
		"-smb.allow-hyperlinks-to-smb=", "-menu-font-size=", "-menu-background-color=", "-menu-foreground-color=",
		"-scroll-bar-area-color=", "-scroll-bar-bar-color=", "-scroll-bar-frame-color=", "-bookmarks-codepage=",
		"-save-url-history=", "-enable-cookies=", "-save-cookies=", "-max-cookie-age=", "-display-red-gamma=",
		"-display-green-gamma=", "-display-blue-gamma=", "-user-gamma=", "-bfu-aspect=", "-dither-letters=",
		"-dither-images=", "-display-optimize=", "-gamma-correction=", "-overwrite-instead-of-scroll=",
		"-html-assume-codepage=", "-html-hard-assume=", "-html-tables=", "-html-frames=", "-html-break-long-lines=",
		"-html-images=", "-html-image-names=", "-html-display-images=", "-html-image-scale=",
		"-html-bare-image-autoscale=", "-html-numbered-links=", "-html-table-order=", "-html-auto-refresh=",
		"-html-target-in-new-window=", "-html-margin=", "-html-user-font-size=", "-html-text-color=", "-html-link-color=",
		"-html-background-color=", "-html-ignore-document-color=", "-html-g-text-color=", "-html-g-link-color=",
		"-html-g-background-color=", "-html-g-ignore-document-color="),
	each(kURLOrFile, "", "-dump=", "-source="),
	each(kWrite, "", "-download-dir=", "-bookmarks-file="),
	each(kRead, "", "-ssl.client-cert-key=", "-ssl.client-cert-crt="),
)

// linksSpec is links's.
var linksSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "links", grammar: grammar{oneDash: true, permute: true, foldCase: true}, rows: linksRows,
		operands: kURLOrFile}).compile()
})

package bashguard

import (
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// The hosts that network commands reach, for a [HostJudge]. Each command
// is read from its own option list (curl --help all, wget --help, the -h
// of git's network subcommands, ssh(1), scp(1), sftp(1), pip's and npm's
// documentation): an option whose value is a host, or that changes where
// the command connects, is known, and a word the command may take for a
// host that cannot be read here is a host only known at run time. Where
// a misread is possible it errs towards judging a word as a host, never
// towards skipping one.

// hosts judges the hosts the command v reaches with the analyzer's
// HostJudge. It does nothing without one, or for a command that reaches
// no other machine.
func (a *analyzer) hosts(c *verdictAcc, name string, v *argv) {
	if a.hj == nil || v.len() < 2 && netTools[name] == nil {
		return
	}
	switch name {
	case "curl":
		a.curlHosts(c, v)
	case "wget":
		a.wgetHosts(c, v)
	case "git":
		a.gitHosts(c, v)
	case "ssh":
		a.sshHosts(c, v, "BbcDEeFIiJLlmOopQRSWw", false)
	case "scp":
		a.sshHosts(c, v, "cDFiJloPSX", true)
	case "sftp":
		a.sshHosts(c, v, "BbcDFiJloPRSsX", false)
	case "rsync":
		a.rsyncHosts(c, v)
	case "nc", "ncat", "netcat":
		a.ncHosts(c, v)
	case "telnet":
		a.firstOperandHost(c, v, "belnXk")
	case "ftp":
		a.firstOperandHost(c, v, "Pso")
	case "socat":
		a.unknownHost(c, "the addresses socat connects to, which are not read here")
	case "go":
		a.goHosts(c, v)
	default:
		if t := netTools[name]; t != nil {
			a.tableHosts(c, name, t, v)
		} else if isPip(name) {
			a.pipHosts(c, *v)
		} else if strings.HasPrefix(name, "python") && v.len() > 3 && v.vals[1] == "-m" && isPip(v.vals[2]) {
			a.pipHosts(c, v.from(2))
		}
	}
}

// netNames are the commands hosts reads hosts from.
var netNames = map[string]bool{"curl": true, "wget": true, "git": true, "ssh": true, "scp": true, "sftp": true, "rsync": true,
	"nc": true, "ncat": true, "netcat": true, "telnet": true, "ftp": true, "socat": true, "go": true, "pip": true, "pip3": true}

// appendedHosts judges a command that xargs runs with further arguments
// read from its input: for a command that reaches hosts, they may name
// one, only known at run time.
func (a *analyzer) appendedHosts(c *verdictAcc, v *argv) {
	if a.hj == nil || v.len() == 0 || !v.literal(0) {
		return
	}
	name := v.vals[0][strings.LastIndexByte(v.vals[0], '/')+1:]
	if netNames[name] || netTools[name] != nil || isPip(name) || strings.HasPrefix(name, "python") {
		a.unknownHost(c, "the hosts the arguments xargs reads from its input may name")
	}
}

// judgeHost judges one host the command names.
func (a *analyzer) judgeHost(c *verdictAcc, host string) {
	r := a.hj.JudgeHost(host)
	d := r.Decision
	if !d.Valid() {
		d = permission.Deny
	}
	if d == permission.Allow {
		return
	}
	c.addc(d, r.Layer, ruleOr(r.Rule, RuleNetworkHost), r.Cause, "reaches ", host, sep(r.Reason), false)
}

// unknownHost judges a host that is only known at run time; what says
// where the command finds it.
func (a *analyzer) unknownHost(c *verdictAcc, what string) {
	r := a.hj.JudgeHost("")
	d := r.Decision
	if !d.Valid() {
		d = permission.Deny
	}
	if d == permission.Allow {
		return
	}
	c.addc(d, r.Layer, ruleOr(r.Rule, RuleNetworkHost), r.Cause, "reaches ", what, sep(r.Reason), false)
}

// urlHost judges the host of a URL word. With bare set, a word without a
// scheme is a URL too (curl and wget read "example.com/x" as one).
func (a *analyzer) urlHost(c *verdictAcc, v *argv, i int, bare bool) {
	if !v.literal(i) {
		a.unknownHost(c, "a host only known at run time ("+v.vals[i]+")")
		return
	}
	a.literalURLHost(c, v.vals[i], bare)
}

// literalURLHost is urlHost for a literal word.
func (a *analyzer) literalURLHost(c *verdictAcc, w string, bare bool) {
	host, local, ok := parseURLHost(w, bare)
	switch {
	case local:
	case !ok:
		a.unknownHost(c, "the host of "+w+", which is not read here")
	default:
		a.judgeHost(c, host)
	}
}

// parseURLHost returns the host of scheme://[user@]host[:port][/...] (or,
// with bare set, of host[:port][/...]). local is set for a URL that
// reaches no host (file:). ok is false when the host cannot be told
// apart safely: several @, a backslash, a percent sign, glob braces or
// any other byte a host name does not hold.
func parseURLHost(s string, bare bool) (host string, local, ok bool) {
	rest := s
	if i := strings.Index(s, "://"); i >= 0 {
		scheme := strings.ToLower(s[:i])
		if scheme == "" || strings.Trim(scheme, "abcdefghijklmnopqrstuvwxyz0123456789+.-") != "" {
			return "", false, false
		}
		if scheme == "file" || strings.HasSuffix(scheme, "+file") {
			return "", true, true
		}
		rest = s[i+3:]
	} else if !bare {
		return "", false, false
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	host, ok = authorityHost(rest)
	return host, false, ok
}

// authorityHost returns the host of [user@]host[:port], or of
// [user@][v6addr][:port].
func authorityHost(auth string) (string, bool) {
	if strings.ContainsAny(auth, "\\%{}*") || strings.Count(auth, "@") > 1 {
		return "", false
	}
	if i := strings.IndexByte(auth, '@'); i >= 0 {
		auth = auth[i+1:]
	}
	if strings.HasPrefix(auth, "[") {
		end := strings.IndexByte(auth, ']')
		if end < 0 {
			return "", false
		}
		host, tail := auth[1:end], auth[end+1:]
		if tail != "" && (tail[0] != ':' || strings.Trim(tail[1:], "0123456789") != "") {
			return "", false
		}
		return host, validHost(host, true)
	}
	if i := strings.IndexByte(auth, ':'); i >= 0 {
		if strings.Trim(auth[i+1:], "0123456789") != "" {
			return "", false
		}
		auth = auth[:i]
	}
	return auth, validHost(auth, false)
}

// validHost reports a host name or address made of the bytes host names
// and addresses hold. Bytes beyond ASCII are let through: the HostJudge
// refuses a name that is not ASCII as the host's network tools do (IDNA
// mapping makes "ｅvil.com" evil.com), with its own reason.
func validHost(h string, v6 bool) bool {
	if h == "" {
		return false
	}
	for i := 0; i < len(h); i++ {
		b := h[i]
		if !(b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '.' || b == '-' || b == '_' || v6 && b == ':' || b >= 0x80) {
			return false
		}
	}
	return true
}

// scpHost returns the host of git's and scp's [user@]host:path form: a
// colon before any slash. ok is false for a word of another form.
func scpHost(s string) (string, bool) {
	colon := strings.IndexByte(s, ':')
	slash := strings.IndexByte(s, '/')
	if colon <= 0 || slash >= 0 && slash < colon || strings.Contains(s, "://") {
		return "", false
	}
	if strings.HasPrefix(s, "[") {
		// [user@host:port]:path or [v6]:path
		end := strings.IndexByte(s, ']')
		if end < 0 || end+1 >= len(s) || s[end+1] != ':' {
			return "", false
		}
		inner := s[1:end]
		if strings.Count(inner, ":") > 1 {
			return inner, validHost(inner, true)
		}
		return authorityHost(inner)
	}
	return authorityHost(s[:colon])
}

// optScan reads the options of a command line for the hosts it names:
// short options in valShort take a value (attached or the next word),
// long options that name (or, with abbrev, abbreviate) one in valLong
// take one unless given with "=". fn sees every option with its value;
// the operands are returned. A word that is not literal is an operand.
func optScan(v *argv, start int, valShort string, valLong []string, abbrev bool, fn func(name, val string, valAt int)) []int {
	var ops []int
	end := false
	for i := start; i < v.len(); i++ {
		w := v.vals[i]
		if end || w == "-" || !strings.HasPrefix(w, "-") || !v.literal(i) {
			ops = append(ops, i)
			continue
		}
		if w == "--" {
			end = true
			continue
		}
		if strings.HasPrefix(w, "--") {
			name, val, has := strings.Cut(w, "=")
			at := -1
			if !has && takesValue(name, valLong, abbrev) && i+1 < v.len() {
				i++
				val, at = v.vals[i], i
			}
			fn(name, val, at)
			continue
		}
		for j := 1; j < len(w); j++ {
			if !hasByte(valShort, w[j]) {
				fn(w[:1]+w[j:j+1], "", -1)
				continue
			}
			val, at := w[j+1:], -1
			if val == "" && i+1 < v.len() {
				i++
				val, at = v.vals[i], i
			}
			fn(w[:1]+w[j:j+1], val, at)
			break
		}
	}
	return ops
}

func takesValue(name string, valLong []string, abbrev bool) bool {
	for _, l := range valLong {
		if name == l || abbrev && len(name) > 2 && strings.HasPrefix(l, name) {
			return true
		}
	}
	return false
}

// optIs reports whether the option name (as optScan gives it) is one of
// full, or with abbrev an abbreviation of one.
func optIs(name string, abbrev bool, full ...string) bool {
	for _, f := range full {
		if name == f || abbrev && strings.HasPrefix(name, "--") && len(name) > 2 && strings.HasPrefix(f, name) {
			return true
		}
	}
	return false
}

// curlValLong are curl's options that take a value (curl --help all).
var curlValLong = []string{"--abstract-unix-socket", "--alt-svc", "--aws-sigv4", "--cacert", "--capath", "--cert", "--cert-type",
	"--ciphers", "--config", "--connect-timeout", "--connect-to", "--continue-at", "--cookie", "--cookie-jar", "--create-file-mode",
	"--crlfile", "--curves", "--data", "--data-ascii", "--data-binary", "--data-raw", "--data-urlencode", "--delegation",
	"--dns-interface", "--dns-ipv4-addr", "--dns-ipv6-addr", "--dns-servers", "--doh-url", "--dump-header", "--egd-file", "--engine",
	"--etag-compare", "--etag-save", "--expect100-timeout", "--form", "--form-string", "--ftp-account", "--ftp-alternative-to-user",
	"--ftp-method", "--ftp-port", "--ftp-ssl-ccc-mode", "--happy-eyeballs-timeout-ms", "--header", "--help", "--hostpubmd5",
	"--hostpubsha256", "--hsts", "--interface", "--json", "--keepalive-time", "--key", "--key-type", "--krb", "--libcurl",
	"--limit-rate", "--local-port", "--login-options", "--mail-auth", "--mail-from", "--mail-rcpt", "--max-filesize", "--max-redirs",
	"--max-time", "--netrc-file", "--noproxy", "--oauth2-bearer", "--output", "--output-dir", "--parallel-max", "--pass",
	"--pinnedpubkey", "--preproxy", "--proto", "--proto-default", "--proto-redir", "--proxy", "--proxy-cacert", "--proxy-capath",
	"--proxy-cert", "--proxy-cert-type", "--proxy-ciphers", "--proxy-crlfile", "--proxy-header", "--proxy-key", "--proxy-key-type",
	"--proxy-pass", "--proxy-pinnedpubkey", "--proxy-service-name", "--proxy-tls13-ciphers", "--proxy-tlsauthtype",
	"--proxy-tlspassword", "--proxy-tlsuser", "--proxy-user", "--proxy1", "--pubkey", "--quote", "--random-file", "--range", "--rate",
	"--referer", "--request", "--request-target", "--resolve", "--retry", "--retry-delay", "--retry-max-time", "--sasl-authzid",
	"--service-name", "--socks4", "--socks4a", "--socks5", "--socks5-gssapi-service", "--socks5-hostname", "--speed-limit",
	"--speed-time", "--stderr", "--telnet-option", "--tftp-blksize", "--time-cond", "--tls-max", "--tls13-ciphers", "--tlsauthtype",
	"--tlspassword", "--tlsuser", "--trace", "--trace-ascii", "--unix-socket", "--upload-file", "--url", "--url-query", "--user",
	"--user-agent", "--write-out"}

// curlReroute are curl's options that change where it connects, or read
// further options (and URLs) from a file.
var curlReroute = []string{"--config", "--connect-to", "--resolve", "--proxy", "--preproxy", "--proxy1", "--socks4", "--socks4a",
	"--socks5", "--socks5-hostname", "--unix-socket", "--abstract-unix-socket", "--dns-servers", "--doh-url", "--alt-svc"}

func (a *analyzer) curlHosts(c *verdictAcc, v *argv) {
	reroute := ""
	var urls []int
	var inline []string // --url=URL
	ops := optScan(v, 1, "EKCbcdDFPHhUQreXYytzTuAwmox", curlValLong, true, func(name, val string, at int) {
		switch {
		case name == "-K" || name == "-x" || strings.HasPrefix(name, "--") && optIs(name, true, curlReroute...):
			if reroute == "" {
				reroute = name
			}
		case strings.HasPrefix(name, "--") && optIs(name, true, "--url") && at > 0:
			urls = append(urls, at)
		case strings.HasPrefix(name, "--") && optIs(name, true, "--url"):
			inline = append(inline, val)
		}
	})
	if reroute != "" {
		a.unknownHost(c, "the hosts curl connects to with "+reroute+", which are not read here")
		return
	}
	for _, u := range inline {
		a.literalURLHost(c, u, true)
	}
	for _, i := range append(urls, ops...) {
		a.urlHost(c, v, i, true)
	}
}

// wgetValLong are wget's options that take a value (wget --help).
var wgetValLong = []string{"--accept", "--accept-regex", "--append-output", "--backups", "--base", "--bind-address", "--body-data",
	"--body-file", "--ca-certificate", "--ca-directory", "--certificate", "--certificate-type", "--ciphers", "--compression", "--config",
	"--connect-timeout", "--crl-file", "--cut-dirs", "--default-page", "--directory-prefix", "--dns-timeout", "--domains",
	"--exclude-directories", "--exclude-domains", "--execute", "--follow-tags", "--ftp-password", "--ftp-user", "--header",
	"--http-password", "--http-user", "--ignore-tags", "--include-directories", "--input-file", "--level", "--limit-rate",
	"--load-cookies", "--local-encoding", "--method", "--output-document", "--output-file", "--password", "--pinnedpubkey",
	"--post-data", "--post-file", "--prefer-family", "--private-key", "--private-key-type", "--progress", "--proxy-password",
	"--proxy-user", "--quota", "--read-timeout", "--referer", "--regex-type", "--reject", "--reject-regex", "--rejected-log",
	"--remote-encoding", "--report-speed", "--restrict-file-names", "--retry-on-http-error", "--save-cookies", "--secure-protocol",
	"--start-pos", "--timeout", "--tries", "--use-askpass", "--user", "--user-agent", "--wait", "--waitretry", "--warc-dedup",
	"--warc-file", "--warc-header", "--warc-max-size", "--warc-tempdir"}

func (a *analyzer) wgetHosts(c *verdictAcc, v *argv) {
	reroute := ""
	ops := optScan(v, 1, "eoaiBtOTwQPUlARDIX", wgetValLong, true, func(name, val string, at int) {
		if name == "-e" || name == "-i" || name == "-H" || optIs(name, true, "--execute", "--input-file", "--config", "--span-hosts") {
			if reroute == "" {
				reroute = name
			}
		}
	})
	if reroute != "" {
		a.unknownHost(c, "the hosts wget connects to with "+reroute+", which are not read here")
		return
	}
	for _, i := range ops {
		a.urlHost(c, v, i, true)
	}
}

// sshHosts judges ssh's, scp's and sftp's destinations: the first operand
// ([user@]host, ssh://...), or for scp every operand of the host:path
// form, and the jump hosts of -J.
func (a *analyzer) sshHosts(c *verdictAcc, v *argv, valShort string, scp bool) {
	reroute := ""
	var jumps []string
	ops := optScan(v, 1, valShort, nil, false, func(name, val string, at int) {
		switch name {
		case "-F":
			reroute = "-F"
		case "-J":
			jumps = append(jumps, strings.Split(val, ",")...)
		case "-W", "-L", "-R", "-D":
			// ssh's forwardings carry the connection on to hosts the
			// server or this machine reaches (-W host:port, -L and -R
			// port:host:port, -D any host a SOCKS client names).
			if strings.IndexByte(valShort, 'W') >= 0 && reroute == "" {
				reroute = name + " " + val
			}
		case "-o":
			switch sshOptKey(val) {
			case "hostname", "proxyjump", "proxycommand", "canonicalizehostname", "canonicaldomains", "include", "match":
				reroute = "-o " + val
			}
		}
	})
	if reroute != "" {
		a.unknownHost(c, "the hosts it connects to with "+reroute+", which are not read here")
		return
	}
	for _, j := range jumps {
		if h, ok := sshDest(j); ok {
			a.judgeHost(c, h)
		} else {
			a.unknownHost(c, "the jump host "+j+", which is not read here")
		}
	}
	for n, i := range ops {
		if !v.literal(i) {
			a.unknownHost(c, "a host only known at run time ("+v.vals[i]+")")
			if !scp {
				return
			}
			continue
		}
		w := v.vals[i]
		if scp {
			if strings.Contains(w, "://") {
				a.urlHost(c, v, i, false)
			} else if h, ok := scpHost(w); ok {
				a.judgeHost(c, h)
			}
			continue
		}
		if n > 0 {
			return // ssh's command, sftp has no more
		}
		if h, ok := sshDest(w); ok {
			a.judgeHost(c, h)
		} else {
			a.unknownHost(c, "the host of "+w+", which is not read here")
		}
	}
}

// sshDest returns the host of [user@]host[:port|:path] or ssh://...
func sshDest(w string) (string, bool) {
	if strings.Contains(w, "://") {
		h, local, ok := parseURLHost(w, false)
		return h, ok && !local
	}
	if h, ok := scpHost(w); ok {
		return h, true
	}
	return authorityHost(strings.Trim(w, "[]"))
}

func (a *analyzer) rsyncHosts(c *verdictAcc, v *argv) {
	ops := optScan(v, 1, "e", []string{"--rsh", "--rsync-path"}, false, func(string, string, int) {})
	for _, i := range ops {
		w := v.vals[i]
		if !v.literal(i) {
			continue // asked as a word only known at run time
		}
		switch {
		case strings.HasPrefix(w, "rsync://"):
			a.urlHost(c, v, i, false)
		case strings.Contains(w, "::"):
			head, _, _ := strings.Cut(w, "::")
			if h, ok := authorityHost(head); ok {
				a.judgeHost(c, h)
			} else {
				a.unknownHost(c, "the host of "+w+", which is not read here")
			}
		default:
			if h, ok := scpHost(w); ok {
				a.judgeHost(c, h)
			}
		}
	}
}

func (a *analyzer) ncHosts(c *verdictAcc, v *argv) {
	reroute, listen := "", false
	ops := optScan(v, 1, "IiMmOPpqsTVwXxecdgGo", []string{"--exec", "--sh-exec", "--lua-exec", "--source-port", "--source",
		"--wait", "--idle-timeout", "--delay", "--output", "--hex-dump", "--proxy", "--proxy-type", "--proxy-auth", "--proxy-dns",
		"--max-conns", "--allow", "--allowfile", "--deny", "--denyfile", "--ssl-cert", "--ssl-key", "--ssl-trustfile",
		"--ssl-ciphers", "--ssl-servername", "--ssl-alpn"}, true, func(name, val string, at int) {
		switch {
		case name == "-l" || optIs(name, true, "--listen"):
			listen = true
		case name == "-x" || name == "-X" || optIs(name, true, "--proxy"):
			reroute = name
		}
	})
	switch {
	case reroute != "":
		a.unknownHost(c, "the hosts it connects to through the proxy of "+reroute+", which are not read here")
	case listen || len(ops) == 0:
	case !v.literal(ops[0]):
		a.unknownHost(c, "a host only known at run time ("+v.vals[ops[0]]+")")
	default:
		if h, ok := authorityHost(strings.Trim(v.vals[ops[0]], "[]")); ok {
			a.judgeHost(c, h)
		} else {
			a.unknownHost(c, "the host "+v.vals[ops[0]]+", which is not read here")
		}
	}
}

// firstOperandHost judges a command whose first operand is the host
// (telnet, ftp).
func (a *analyzer) firstOperandHost(c *verdictAcc, v *argv, valShort string) {
	ops := optScan(v, 1, valShort, nil, false, func(string, string, int) {})
	if len(ops) == 0 {
		return
	}
	i := ops[0]
	if strings.Contains(v.vals[i], "://") {
		a.urlHost(c, v, i, false)
		return
	}
	if !v.literal(i) {
		a.unknownHost(c, "a host only known at run time ("+v.vals[i]+")")
		return
	}
	if h, ok := authorityHost(strings.Trim(v.vals[i], "[]")); ok {
		a.judgeHost(c, h)
	} else {
		a.unknownHost(c, "the host "+v.vals[i]+", which is not read here")
	}
}

// devTCPHost judges the host of a /dev/tcp/HOST/PORT or /dev/udp path.
func (a *analyzer) devTCPHost(c *verdictAcc, p string, fl wordFlags) {
	if a.hj == nil {
		return
	}
	rest := strings.TrimPrefix(strings.TrimPrefix(p, "/dev/tcp/"), "/dev/udp/")
	host, _, _ := strings.Cut(rest, "/")
	if fl&wDynamic != 0 || !validHost(host, true) {
		a.unknownHost(c, "the host of "+p+", which is not read here")
		return
	}
	a.judgeHost(c, host)
}

package bashguard

import (
	"strings"
	"sync"

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

// hosts judges the hosts the command v reaches with the call's
// HostJudge. It does nothing without one, or for a command that reaches
// no other machine.
func (m *cmdCall) hosts(c *verdictAcc, name string, v *argv) {
	// The tables are built only for a name they hold (cmdindex.go).
	if m.hj == nil || v.len() < 2 && !m.cmdIn(name, inNetTools) {
		return
	}
	if m.cmdIn(name, inNetSpecs) {
		m.specHosts(c, netSpecs()[name], v)
		return
	}
	if r := hostReaders()[name]; r != nil {
		r(m, c, v)
		return
	}
	if m.cmdIn(name, inNetTools) {
		m.tableHosts(c, name, netTools()[name], v)
	} else if isPip(name) {
		m.pipHosts(c, *v)
	} else if runsModules(name) {
		if at, mod := interpModule(name, v); at > 0 && isPip(mod) {
			m.pipHosts(c, v.from(at))
		}
	}
}

// hostReaders read the hosts of the commands whose command lines are not
// a network client's spec (netSpecs) nor a row of the netTools table:
// git's remotes, rsync's and go's.
var hostReaders = sync.OnceValue(func() map[string]lineReader {
	return map[string]lineReader{
		"git": (*cmdCall).gitHosts, "rsync": (*cmdCall).rsyncHosts, "go": (*cmdCall).goHosts,
		"socat": func(m *cmdCall, c *verdictAcc, _ *argv) {
			m.unknownHost(c, "the addresses socat connects to, which are not read here")
		},
	}
})

// reachesHosts reports whether hosts reads hosts from the command name.
func reachesHosts(name string) bool {
	return cmdIn(name, inNetSpecs|inNetTools) || hostReaders()[name] != nil || isPip(name)
}

// appendedHosts judges a command that xargs runs with further arguments
// read from its input: for a command that reaches hosts, they may name
// one, only known at run time.
func (m *cmdCall) appendedHosts(c *verdictAcc, v *argv) {
	if m.hj == nil || v.len() == 0 || !v.literal(0) {
		return
	}
	name := v.vals[0][strings.LastIndexByte(v.vals[0], '/')+1:]
	if reachesHosts(name) || runsModules(name) {
		m.unknownHost(c, "the hosts the arguments xargs reads from its input may name")
	}
}

// judgeHost judges one host the command names.
func (m *cmdCall) judgeHost(c *verdictAcc, host string) {
	r := m.hj.JudgeHost(host)
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
func (m *cmdCall) unknownHost(c *verdictAcc, what string) {
	r := m.hj.JudgeHost("")
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
func (m *cmdCall) urlHost(c *verdictAcc, v *argv, i int, bare bool) {
	if !v.literal(i) {
		m.unknownHost(c, "a host only known at run time ("+v.vals[i]+")")
		return
	}
	m.literalURLHost(c, v.vals[i], bare)
}

// literalURLHost is urlHost for a literal word.
func (m *cmdCall) literalURLHost(c *verdictAcc, w string, bare bool) {
	host, local, ok := parseURLHost(w, bare)
	switch {
	case local:
	case !ok:
		m.unknownHost(c, "the host of "+w+", which is not read here")
	default:
		m.judgeHost(c, host)
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

// devTCPHost judges the host of a /dev/tcp/HOST/PORT or /dev/udp path.
func (m *cmdCall) devTCPHost(c *verdictAcc, p string, fl wordFlags) {
	if m.hj == nil {
		return
	}
	rest := strings.TrimPrefix(strings.TrimPrefix(p, "/dev/tcp/"), "/dev/udp/")
	host, _, _ := strings.Cut(rest, "/")
	if fl&wDynamic != 0 || !validHost(host, true) {
		m.unknownHost(c, "the host of "+p+", which is not read here")
		return
	}
	m.judgeHost(c, host)
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

// rsyncHosts judges the hosts rsync's operands name, its command line
// read by its spec (specs_writers.go).
func (m *cmdCall) rsyncHosts(c *verdictAcc, v *argv) {
	var ops []int
	scanSpec(writerSpecs()["rsync"], v, 1, false, func(e *scanned) {
		if e.opt == nil && e.problem == "" {
			ops = append(ops, e.at)
		}
	})
	for _, i := range ops {
		w := v.vals[i]
		if !v.literal(i) {
			continue // asked as a word only known at run time
		}
		switch {
		case strings.HasPrefix(w, "rsync://"):
			m.urlHost(c, v, i, false)
		case strings.Contains(w, "::"):
			head, _, _ := strings.Cut(w, "::")
			if h, ok := authorityHost(head); ok {
				m.judgeHost(c, h)
			} else {
				m.unknownHost(c, "the host of "+w+", which is not read here")
			}
		default:
			if h, ok := scpHost(w); ok {
				m.judgeHost(c, h)
			}
		}
	}
}

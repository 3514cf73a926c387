package bashguard

import (
	"net/netip"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// Network commands that reach only this machine's loopback.
//
// The policy's network denial is for the outside world: curl, wget or
// nc whose every host is 127.0.0.1 (any of 127/8), ::1 or localhost
// reaches a server on this machine, a dev server or a test's, which is
// daily work. Such a command is asked, not denied, with that reason: the
// loopback of the host still holds services a command must not reach
// unseen (a database, a container runtime's API, a local admin page), so
// a person confirms; an allow rule for the command lifts the Ask.
//
// In the loopback network mode (Policy.Loopback with Policy.Confined)
// the command runs in a network namespace of its own whose only
// interface is its loopback: what it reaches there is what the same
// command started, nothing of the host's and nothing outside. There the
// command is allowed when its options are those its spec's loopback
// lists (specs_net.go), which
// write no file and read no file (curl's @file values and -o to a file,
// wget's downloads to a file, nc's exec options are not among them):
// the guard judges those effects nowhere else for a network command, so
// any other option keeps the Ask. The hosts are read as they are for
// domain rules (model_hosts.go), with a judge that only collects them: a host
// only known at run time, a proxy or a config file (-x, -K, wget -e)
// counts as a host outside.

// hostCollector is a HostJudge that records the hosts it is asked about
// and allows them all, so that model_hosts.go reads a command's hosts into it.
type hostCollector struct {
	n       int
	outside bool // a host that is not loopback, or one only known at run time
}

func (h *hostCollector) JudgeHost(host string) permission.Result {
	h.n++
	if !isLoopbackHost(host) {
		h.outside = true
	}
	return permission.Result{Decision: permission.Allow}
}

// isLoopbackHost reports 127.0.0.0/8, ::1 and localhost.
func isLoopbackHost(h string) bool {
	h = strings.TrimSuffix(strings.ToLower(strings.Trim(h, "[]")), ".")
	if h == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(h)
	return err == nil && ip.Zone() == "" && ip.Unmap().IsLoopback()
}

// loopbackOnly reports whether the network command name, as v runs it,
// reaches hosts and every one is this machine's loopback: a client whose
// spec says what it may do on the loopback.
func (m *cmdCall) loopbackOnly(name string, v *argv) bool {
	if s := netSpecs()[name]; s == nil || s.net.loopback == nil {
		return false
	}
	col := &hostCollector{}
	saved := m.hj
	m.hj = col
	var scratch verdictAcc
	m.hosts(&scratch, name, v)
	m.hj = saved
	return col.n > 0 && !col.outside
}

// loopback judges a network command whose every host is the loopback.
func (m *cmdCall) loopback(c *verdictAcc, name string, v *argv) {
	pol := m.pol
	if pol.Confined && pol.Loopback {
		if why := loopbackOptions(netSpecs()[name], v); why == "" {
			c.allow(NetworkRule(name), "connects only to the loopback of its own network namespace (the loopback network mode)")
			return
		} else if !pol.AllowNetwork {
			c.add(permission.Ask, NetworkRule(name), "connects only to this machine's loopback, but "+why, true)
			m.loopbackWrites(c, name, v)
			return
		}
	}
	c.add(permission.Ask, NetworkRule(name), "connects only to this machine's loopback (127.0.0.1, ::1, localhost), whose services a person confirms; the policy's network denial is for the outside world", true)
	m.loopbackWrites(c, name, v)
}

// loopbackWrites judges the files a loopback client writes (the options
// of kind kWrite of its spec): with the network off a network command was
// denied whole, so these were never judged; asked now, a write outside the
// roots is denied as any command's is.
func (m *cmdCall) loopbackWrites(c *verdictAcc, name string, v *argv) {
	l := scanNet(netSpecs()[name], v)
	for i := range l.opts {
		if e := &l.opts[i]; e.opt.kind == kWrite && e.val != "" && e.val != "-" {
			m.writePath(c, e.val, v.flags[e.at], name)
		}
	}
}

// loopbackOptions says why the options of v are not all those the
// loopback of the spec s lists, or "".
func loopbackOptions(s *spec, v *argv) string {
	for i := 1; i < v.len(); i++ {
		switch {
		case !v.literal(i):
			return "argument " + v.vals[i] + " is only known at run time"
		case v.vals[i] == "--":
			return "-- is not read here"
		}
	}
	l := scanNet(s, v)
	if len(l.problems) > 0 {
		return "the option " + optWritten(&l.problems[0]) + " is not one it is allowed with"
	}
	n := s.net
	needed := n.needs == nil
	for i := range l.opts {
		e := &l.opts[i]
		listed, ok := loopbackEntry(n.loopback, e)
		switch {
		case !listed || abbreviated(e):
			return "the option " + optWritten(e) + " is not one it is allowed with"
		case !ok && (strings.HasPrefix(e.val, "@") || e.opt.kind == kWrite || e.opt.kind == kWriteOut):
			return writtenName(e) + " " + e.val + " reads or writes a file"
		case !ok:
			return writtenName(e) + " " + e.val + " is not a value it is allowed with"
		}
		if _, ok := loopbackEntry(n.needs, e); ok {
			needed = true
		}
	}
	if !needed {
		return n.needsWhy
	}
	return ""
}

// abbreviated reports whether the long option e is written as an
// abbreviation ("--sil" for --silent): curl 8 refuses what curl 7 takes,
// and the loopback mode allows only what both read alike.
func abbreviated(e *scanned) bool {
	name, _, _ := strings.Cut(e.word, "=")
	return strings.HasPrefix(e.word, "--") && name != e.spell
}

// loopbackEntry reports whether the option e is in list (a netClient's
// loopback or needs), and whether its value is one the list allows: any
// value but curl's @file for an entry "-x", only V for "-x=V", any for
// "-x=*"; a write-out format (curl -w) that writes or reads no file.
func loopbackEntry(list []string, e *scanned) (listed, ok bool) {
	for _, x := range list {
		name, val, has := strings.Cut(x, "=")
		if name != e.opt.name {
			continue
		}
		listed = true
		switch {
		case !has:
			ok = ok || !strings.HasPrefix(e.val, "@")
		case val == "*":
			ok = true
		default:
			ok = ok || e.hasVal && e.val == val
		}
	}
	if ok && e.opt.kind == kWriteOut {
		ok = !strings.Contains(e.val, "%output{") && !strings.Contains(e.val, "%header{")
	}
	return listed, ok
}

package bashguard

import (
	"net"
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
// command is allowed when its options are those of loopbackSpecs, which
// write no file and read no file (curl's @file values and -o to a file,
// wget's downloads to a file, nc's exec options are not among them):
// the guard judges those effects nowhere else for a network command, so
// any other option keeps the Ask. The hosts are read as they are for
// domain rules (hosts.go), with a judge that only collects them: a host
// only known at run time, a proxy or a config file (-x, -K, wget -e)
// counts as a host outside.

// loopbackSpec says which options of a network command leave it
// harmless when it reaches only its own loopback: flags that take no
// value, options that take one (and which values are refused), and,
// for wget, the options one of which must send the download to standard
// output.
type loopbackSpec struct {
	flags, valued []string
	badValue      func(opt, val string) bool
	needs         func(opt, val string) bool // one option must satisfy it; nil: none needed
}

// loopbackSpecs are the network commands allowed to their own loopback,
// with the options each may take (curl --help all, wget --help, nc -h of
// OpenBSD netcat).
var loopbackSpecs = map[string]*loopbackSpec{
	"curl": {
		flags: []string{"-s", "--silent", "-S", "--show-error", "-f", "--fail", "--fail-with-body", "-i", "--include", "-I", "--head",
			"-v", "--verbose", "-L", "--location", "-k", "--insecure", "--compressed", "--no-progress-meter", "--http1.1", "--http2",
			"-4", "--ipv4", "-6", "--ipv6", "-N", "--no-buffer", "-g", "--globoff"},
		valued: []string{"-m", "--max-time", "--connect-timeout", "-H", "--header", "-X", "--request", "-d", "--data", "--data-raw",
			"--json", "-A", "--user-agent", "--retry", "--retry-delay", "-w", "--write-out", "-o", "--output"},
		badValue: func(opt, val string) bool {
			switch opt {
			case "-o", "--output":
				return val != "-" && val != "/dev/null" // a file: a write this check does not judge
			case "--data-raw":
				return false // no @file
			case "-w", "--write-out":
				return strings.HasPrefix(val, "@") || strings.Contains(val, "%output{") || strings.Contains(val, "%header{")
			}
			return strings.HasPrefix(val, "@") // curl reads the value from a file
		},
	},
	"wget": {
		flags:  []string{"-q", "--quiet", "-S", "--server-response", "--spider", "-nv", "--no-verbose"},
		valued: []string{"-O", "--output-document", "-T", "--timeout", "-t", "--tries", "--header"},
		badValue: func(opt, val string) bool {
			return (opt == "-O" || opt == "--output-document") && val != "-"
		},
		needs: func(opt, val string) bool {
			return opt == "--spider" || (opt == "-O" || opt == "--output-document") && val == "-"
		},
	},
	"nc": {flags: []string{"-z", "-v", "-n", "-N", "-4", "-6"}, valued: []string{"-w", "-q"}},
}

// hostCollector is a HostJudge that records the hosts it is asked about
// and allows them all, so that hosts.go reads a command's hosts into it.
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
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// loopbackOnly reports whether the network command name, as v runs it,
// reaches hosts and every one is this machine's loopback.
func (a *analyzer) loopbackOnly(name string, v *argv) bool {
	if name == "ncat" || name == "netcat" {
		name = "nc"
	}
	switch name {
	case "curl", "wget", "nc":
	default:
		return false
	}
	col := &hostCollector{}
	saved := a.hj
	a.hj = col
	var scratch verdictAcc
	a.hosts(&scratch, name, v)
	a.hj = saved
	return col.n > 0 && !col.outside
}

// loopback judges a network command whose every host is the loopback.
func (a *analyzer) loopback(c *verdictAcc, name string, v *argv) {
	pol := a.g.pol
	if pol.Confined && pol.Loopback {
		if why := loopbackOptions(name, v); why == "" {
			c.allow(NetworkRule(name), "connects only to the loopback of its own network namespace (the loopback network mode)")
			return
		} else if !pol.AllowNetwork {
			c.add(permission.Ask, NetworkRule(name), "connects only to this machine's loopback, but "+why, true)
			a.loopbackWrites(c, name, v)
			return
		}
	}
	c.add(permission.Ask, NetworkRule(name), "connects only to this machine's loopback (127.0.0.1, ::1, localhost), whose services a person confirms; the policy's network denial is for the outside world", true)
	a.loopbackWrites(c, name, v)
}

// loopbackWrites are the options of curl and wget that name a file the
// command writes (curl --help all, wget --help): with the network off a
// network command was denied whole, so these were never judged; asked
// now, a write outside the roots is denied as any command's is.
var loopbackWrites = map[string][]string{
	"curl": {"-o", "--output", "-D", "--dump-header", "-c", "--cookie-jar", "--trace", "--trace-ascii", "--stderr", "--libcurl",
		"--etag-save", "--hsts", "--alt-svc"},
	"wget": {"-O", "--output-document", "-o", "--output-file", "-a", "--append-output", "--save-cookies", "--rejected-log",
		"--warc-file"},
}

// loopbackWrites judges the files a loopback curl or wget writes.
func (a *analyzer) loopbackWrites(c *verdictAcc, name string, v *argv) {
	writes := loopbackWrites[name]
	if writes == nil {
		return
	}
	valShort, valLong := "EKCbcdDFPHhUQreXYytzTuAwmox", curlValLong
	if name == "wget" {
		valShort, valLong = "eoaiBtOTwQPUlARDIX", wgetValLong
	}
	optScan(v, 1, valShort, valLong, true, func(opt, val string, at int) {
		if val == "" || val == "-" || !optIs(opt, true, writes...) {
			return
		}
		if at >= 0 {
			a.writePath(c, val, v.flags[at], name)
		} else {
			a.writePath(c, val, 0, name)
		}
	})
}

// loopbackOptions says why the options of v are not all those of its
// loopbackSpec, or "".
func loopbackOptions(name string, v *argv) string {
	if name == "ncat" || name == "netcat" {
		name = "nc"
	}
	s := loopbackSpecs[name]
	if s == nil {
		return "its options are not read here"
	}
	has := func(list []string, o string) bool {
		for _, x := range list {
			if x == o {
				return true
			}
		}
		return false
	}
	needed := s.needs == nil
	check := func(opt, val string) string {
		if s.badValue != nil && s.badValue(opt, val) {
			return opt + " " + val + " reads or writes a file"
		}
		if s.needs != nil && s.needs(opt, val) {
			needed = true
		}
		return ""
	}
	for i := 1; i < v.len(); i++ {
		w := v.vals[i]
		if !v.literal(i) {
			return "argument " + w + " is only known at run time"
		}
		switch {
		case w == "--":
			return "-- is not read here"
		case strings.HasPrefix(w, "--"):
			opt, val, eq := strings.Cut(w, "=")
			switch {
			case has(s.flags, opt) && !eq:
				if why := check(opt, ""); why != "" {
					return why
				}
			case has(s.valued, opt):
				if !eq {
					if i+1 >= v.len() || !v.literal(i+1) {
						return opt + " has no literal value"
					}
					i++
					val = v.vals[i]
				}
				if why := check(opt, val); why != "" {
					return why
				}
			default:
				return "the option " + opt + " is not one it is allowed with"
			}
		case strings.HasPrefix(w, "-") && len(w) > 1:
			if has(s.flags, w) {
				if why := check(w, ""); why != "" {
					return why
				}
				continue
			}
			for k := 1; k < len(w); k++ {
				opt := "-" + w[k:k+1]
				if has(s.flags, opt) {
					if why := check(opt, ""); why != "" {
						return why
					}
					continue
				}
				if !has(s.valued, opt) {
					return "the option " + opt + " is not one it is allowed with"
				}
				val := w[k+1:]
				if val == "" {
					if i+1 >= v.len() || !v.literal(i+1) {
						return opt + " has no literal value"
					}
					i++
					val = v.vals[i]
				}
				if why := check(opt, val); why != "" {
					return why
				}
				break
			}
		}
	}
	if !needed {
		return "it writes what it downloads to a file (-O - sends it to standard output)"
	}
	return ""
}

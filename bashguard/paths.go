package bashguard

import (
	"path"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// harmlessDevice reports paths that read or write nothing of value.
func harmlessDevice(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/fd/0", "/dev/fd/1", "/dev/fd/2", "/dev/tty",
		"/dev/zero", "/dev/random", "/dev/urandom":
		return true
	}
	// /dev/fd/N is the descriptor N, as in >&N: it opens nothing new.
	return strings.HasPrefix(p, "/dev/fd/") && isFdWord(p[len("/dev/fd/"):]) && !strings.HasSuffix(p, "-")
}

// harmlessRead reports the devices a read may name: nothing, standard
// input, and the descriptors already open.
func harmlessRead(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdin", "/dev/fd/0":
		return true
	}
	return strings.HasPrefix(p, "/dev/fd/") && isFdWord(p[len("/dev/fd/"):]) && !strings.HasSuffix(p, "-")
}

func isNetDevice(p string) bool {
	return strings.HasPrefix(p, "/dev/tcp/") || strings.HasPrefix(p, "/dev/udp/")
}

func (m *cmdCall) network(c *verdictAcc, rule permission.RuleID, what string) {
	if m.pol.AllowNetwork {
		c.addf(permission.Ask, rule, what, " (network access is allowed by the policy)", "", true)
		return
	}
	c.addf(permission.Deny, rule, what, "; network access is denied by the policy", "", false)
}

// readPath judges a path that a command reads. who names the command for
// the reason. It reports whether the read is allowed.
func (m *cmdCall) readPath(c *verdictAcc, p string, fl wordFlags, who string) bool {
	return m.reach(c, p, fl, who, Read)
}

// probePath judges a path whose metadata alone a command reads.
func (m *cmdCall) probePath(c *verdictAcc, p string, fl wordFlags, who string) bool {
	return m.reach(c, p, fl, who, Probe)
}

// reach is readPath and probePath.
func (m *cmdCall) reach(c *verdictAcc, p string, fl wordFlags, who string, access Access) bool {
	if m.holes != nil && fl == 0 {
		if _, ok := m.holes[p]; ok {
			// A name find lists, taken as a file: the names are judged
			// where they are walked (see judgeOnFound).
			m.holes[p] = true
			return true
		}
	}
	if fl&wDynamic != 0 {
		c.addf(permission.Ask, RuleDynamicArg, "reads ", p, ", which is only known at run time", false)
		return false
	}
	if p == "" || p == "-" || harmlessRead(p) || fl&wProcIn != 0 {
		return false // nothing, or a pipe (<(list), whose commands are judged)
	}
	if isNetDevice(p) {
		m.network(c, RuleNetworkDevTCP, "connects to "+p)
		m.devTCPHost(c, p, fl)
		return false
	}
	if len(p) > 0 && p[0] == '/' && strings.HasPrefix(path.Clean(p), "/dev/") {
		// /dev/zero and /dev/urandom never end, /dev/tty waits for a
		// person, a disk holds every file: a device is not a plain read.
		c.addf(permission.Ask, RulePathDevice, "reads the device file ", p, ", which is not a plain file (it may never end, wait for a person or hold every file of a disk)", false)
		return false
	}
	if isEnvironPath(p) {
		environ(c, "reads "+p+", the environment of a process")
		return false
	}
	if m.paths == nil {
		if path.IsAbs(p) || hasDotDot(p) {
			c.addf(permission.Ask, RulePathRead, "reads ", p, " and no path checker is configured", false)
			return false
		}
		return true
	}
	if fl&wGlob != 0 && !m.globPaths(c, p, access, who) {
		return false
	}
	r := m.judgePath(p, access)
	switch r.Decision {
	case permission.Allow:
		if r.Layer == permission.LayerRules && r.Rule != "" {
			// An allow rule answered for the path (a read outside the
			// roots): it names itself as the command's reason.
			c.allowBy(r.Layer, r.Rule, "reads "+p+": "+r.Reason)
		} else if r.Layer == permission.LayerShell && r.Reason != "" {
			// Outside the roots, lifted by liftRead: the reason of the
			// place it lies in (sysread.Places) says where it reads.
			c.allow(RuleSafe, "reads "+p+": "+r.Reason)
		}
		return true
	case permission.Ask:
		c.addc(permission.Ask, r.Layer, ruleOr(r.Rule, RulePathRead), r.Cause, "reads ", p, sep(r.Reason), false)
	default:
		c.addc(permission.Deny, r.Layer, ruleOr(r.Rule, RulePathRead), r.Cause, "reads ", p, sep(r.Reason), false)
	}
	return false
}

// writePath judges a path that a command creates, changes or removes. A
// write is never auto-allowed.
func (m *cmdCall) writePath(c *verdictAcc, p string, fl wordFlags, who string) {
	rule := WriteRule(who)
	if fl&wDynamic != 0 {
		c.addf(permission.Ask, RuleDynamicArg, "writes ", p, ", which is only known at run time", false)
		return
	}
	if p == "-" && who != "redirect" || harmlessDevice(p) {
		return
	}
	if fl&wProcIn != 0 {
		c.addf(permission.Ask, RuleDynamicArg, "writes ", p, ", a pipe whose file descriptor is only known at run time", false)
		return
	}
	if isNetDevice(p) {
		m.network(c, RuleNetworkDevTCP, "connects to "+p)
		m.devTCPHost(c, p, fl)
		return
	}
	// Only an absolute path cleans to one under /dev.
	if len(p) > 0 && p[0] == '/' && strings.HasPrefix(path.Clean(p), "/dev/") {
		c.addf(permission.Deny, RuleDangerousDevice, "writes the device ", p, "", false)
		return
	}
	if m.paths == nil {
		c.addf(permission.Ask, rule, "writes ", p, " and no path checker is configured", false)
		return
	}
	if fl&wGlob != 0 && !m.globPaths(c, p, Write, who) {
		return
	}
	r := m.judgePath(p, Write)
	switch r.Decision {
	case permission.Allow:
		// Claude Code 2.1.332 asks for an output redirection to a file
		// even where a rule allows the command ("Output redirection to
		// X needs approval"): an allow rule lifts the command's own
		// writes inside the roots, never its redirections'.
		c.addf(permission.Ask, rule, "writes ", p, " (inside the allowed roots)", who != "redirect")
		c.plainLast(fl&(wDynamic|wGlob|wKnown) == 0 && plainPath(p))
	case permission.Ask:
		c.addc(permission.Ask, r.Layer, ruleOr(r.Rule, RuleWriteProtected), r.Cause, "writes ", p, sep(r.Reason), false)
	default:
		c.addc(permission.Deny, r.Layer, ruleOr(r.Rule, RuleWriteOutside), r.Cause, "writes ", p, sep(r.Reason), false)
	}
}

// plainPath reports whether p names its file without a tilde and without
// ".." after a directory (which a link can lead elsewhere).
func plainPath(p string) bool {
	if strings.HasPrefix(p, "~") {
		return false
	}
	seen := false
	for part := range strings.SplitSeq(p, "/") {
		switch part {
		case "", ".":
		case "..":
			if seen {
				return false
			}
		default:
			seen = true
		}
	}
	return true
}

// judgePath asks the path judge about p, joined to the working directory
// when it is relative, and turns a panic or an invalid answer into a Deny.
func (m *cmdCall) judgePath(p string, access Access) (r permission.Result) {
	defer func() {
		if e := recover(); e != nil {
			r = permission.Result{Decision: permission.Deny, Layer: permission.LayerShell, Rule: RuleInternal,
				Reason: "the path judge failed: " + panicText(e)}
		}
	}()
	if m.dir != "" && !path.IsAbs(p) && !strings.HasPrefix(p, "~") {
		// Joined, not cleaned: ".." after a link leads where the file
		// system takes it, which the judge resolves.
		p = strings.TrimSuffix(m.dir, "/") + "/" + p
	}
	r = m.paths.JudgePath(p, access)
	if !r.Decision.Valid() {
		r = permission.Result{Decision: permission.Deny, Layer: permission.LayerShell, Rule: RuleInternal,
			Reason: "the path judge gave an invalid decision"}
	}
	return m.liftRead(p, access, r)
}

// sep puts the judge's reason after the path: "reads x: reason", or
// "reads /etc/x outside the allowed roots: ..." for a reason that starts
// with "outside".
func sep(reason string) string {
	if strings.HasPrefix(reason, "outside ") {
		return " " + reason
	}
	return ": " + reason
}

func ruleOr(rule, def permission.RuleID) permission.RuleID {
	if rule == "" {
		return def
	}
	return rule
}

func hasDotDot(p string) bool {
	for p != "" {
		e, rest, _ := strings.Cut(p, "/")
		if e == ".." {
			return true
		}
		p = rest
	}
	return false
}

// critical reports whether removing p recursively would destroy the system,
// the home directory, the working directory or one of its parents.
func (m *cmdCall) critical(p string) bool {
	switch p {
	case "*", ".*", "./*", "./.*", ".", "./", "..", "../", "~", "~/", "~/*", "/*":
		return true
	}
	q := p
	for _, suf := range []string{"/*", "/.*", "/."} {
		q = strings.TrimSuffix(q, suf)
	}
	if q == "" {
		q = "/"
	}
	if strings.HasPrefix(q, "~") && m.pol.Home != "" && (q == "~" || strings.HasPrefix(q, "~/")) {
		q = m.pol.Home + q[1:]
	}
	rel := !path.IsAbs(q)
	if rel && m.dir != "" {
		q = path.Join(m.dir, q)
		rel = false
	}
	q = path.Clean(q)
	if rel {
		// Without a working directory: ".", "..", "../.." are critical.
		for _, e := range strings.Split(q, "/") {
			if e != ".." && e != "." {
				return false
			}
		}
		return true
	}
	if q == "/" || strings.Count(q, "/") == 1 {
		return true // "/" or a top-level directory such as /usr or /home
	}
	for _, base := range []string{m.pol.Home, m.dir} {
		if base == "" {
			continue
		}
		base = path.Clean(base)
		if q == base || strings.HasPrefix(base, q+"/") {
			return true
		}
	}
	return false
}

package bashguard

import (
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// The engine over the network clients' specs (specs_net.go): the one
// scanner reads the command line, and the kinds of the options it finds
// say which hosts the client reaches (specHosts), which programs it runs
// here (specPrograms), and whether it stays on the loopback
// (model_net_loopback.go).

// netLine is a network client's command line as its spec reads it.
type netLine struct {
	opts     []scanned // the options, in order
	problems []scanned // the options the spec cannot resolve: unknown, ambiguous, lacking a value
	ops      []int     // the indexes of the operands
}

// scanNet reads v by the network client's spec s.
func scanNet(s *spec, v *argv) netLine {
	var l netLine
	fn := func(e *scanned) {
		switch {
		case e.opt == &dashDashOpt:
		case e.problem != "":
			l.problems = append(l.problems, *e)
		case e.opt == nil:
			l.ops = append(l.ops, e.at)
		default:
			l.opts = append(l.opts, *e)
		}
	}
	if s.net == nil || !s.net.reparse {
		scanSpec(s, v, 1, false, fn)
		return l
	}
	// ssh: options, the destination, options again, the command. After
	// "--" ssh reads no more options; reading them anyway only judges
	// more.
	i := scanSpec(s, v, 1, true, fn)
	if i >= v.len() {
		return l
	}
	l.ops = append(l.ops, i)
	scanSpec(s, v, i+1, false, fn)
	if len(l.ops) > 1 {
		// The words of the command are read for ssh's options too, as
		// if ssh took options anywhere: a misread judges an option
		// that is not there (the remote command's own), never skips
		// one. The remote command's options are no problem of ssh's.
		anywhere := *s
		anywhere.grammar.permute = true
		scanSpec(&anywhere, v, l.ops[1], false, func(e *scanned) {
			if e.opt != nil && e.opt != &dashDashOpt {
				l.opts = append(l.opts, *e)
			}
		})
	}
	return l
}

// writtenName is the option e as the reasons of the network clients
// name it: a long option as written, before any "=value" ("--pro" for
// an abbreviation), a short one by its letter.
func writtenName(e *scanned) string {
	if strings.HasPrefix(e.word, "--") {
		name, _, _ := strings.Cut(e.word, "=")
		return name
	}
	if e.spell == "" {
		return e.word
	}
	return e.spell
}

// reroute says how the options of l move the client where its hosts are
// not read here ("with -x"), or "". An option the spec cannot resolve
// may be one that does.
func (l *netLine) reroute() string {
	for i := range l.opts {
		e := &l.opts[i]
		switch e.opt.kind {
		case kReroute:
			return orText(e.opt.why, "with") + " " + writtenName(e)
		case kConfig:
			return "with " + writtenName(e)
		case kForward:
			return "with " + e.spell + " " + e.val
		case kSSHOption:
			if sshMoves()[sshOptKey(e.val)] {
				return "with -o " + e.val
			}
		}
	}
	if len(l.problems) > 0 {
		return "with " + writtenName(&l.problems[0])
	}
	return ""
}

// specHosts judges the hosts the network client of spec s reaches as v
// runs it.
func (m *cmdCall) specHosts(c *verdictAcc, s *spec, v *argv) {
	l := scanNet(s, v)
	if how := l.reroute(); how != "" {
		m.unknownHost(c, "the hosts "+orText(s.net.subject, s.name)+" connects to "+how+", which are not read here")
		return
	}
	listen := false
	for i := range l.opts {
		e := &l.opts[i]
		switch e.opt.kind {
		case kURL:
			m.valueHost(c, v, e, func(w string) { m.literalURLHost(c, w, true) })
		case kJump:
			m.valueHost(c, v, e, func(w string) { m.jumpHosts(c, w) })
		case kListen:
			listen = true
		}
	}
	if listen {
		return
	}
	m.operandHosts(c, s.net.dest, v, l.ops)
}

// valueHost gives judge the value of the option e, or judges a host only
// known at run time.
func (m *cmdCall) valueHost(c *verdictAcc, v *argv, e *scanned, judge func(string)) {
	if !v.literal(e.at) {
		m.unknownHost(c, "a host only known at run time ("+e.val+")")
		return
	}
	judge(e.val)
}

// jumpHosts judges ssh's jump hosts, -J host1,host2.
func (m *cmdCall) jumpHosts(c *verdictAcc, list string) {
	for _, j := range strings.Split(list, ",") {
		if h, ok := sshDest(j); ok {
			m.judgeHost(c, h)
		} else {
			m.unknownHost(c, "the jump host "+j+", which is not read here")
		}
	}
}

// operandHosts judges the hosts the operands ops of v name, read as
// dest says.
func (m *cmdCall) operandHosts(c *verdictAcc, dest netDest, v *argv, ops []int) {
	if dest == destURLs || dest == destRemote {
		for _, i := range ops {
			m.remoteOperand(c, dest, v, i)
		}
		return
	}
	if len(ops) == 0 {
		return
	}
	i := ops[0]
	w := v.vals[i]
	switch {
	case dest == destFirst && strings.Contains(w, "://"):
		m.urlHost(c, v, i, false)
	case !v.literal(i):
		m.unknownHost(c, "a host only known at run time ("+w+")")
	case dest == destSSH:
		if h, ok := sshDest(w); ok {
			m.judgeHost(c, h)
		} else {
			m.unknownHost(c, "the host of "+w+", which is not read here")
		}
	default:
		if h, ok := authorityHost(strings.Trim(w, "[]")); ok {
			m.judgeHost(c, h)
		} else {
			m.unknownHost(c, "the host "+w+", which is not read here")
		}
	}
}

// remoteOperand judges one operand of a client whose every operand may
// name a host: a URL (curl, wget; "host/path" too) or scp's
// [user@]host:path.
func (m *cmdCall) remoteOperand(c *verdictAcc, dest netDest, v *argv, i int) {
	w := v.vals[i]
	switch {
	case dest == destURLs:
		m.urlHost(c, v, i, true)
	case !v.literal(i):
		m.unknownHost(c, "a host only known at run time ("+w+")")
	case strings.Contains(w, "://"):
		m.urlHost(c, v, i, false)
	default:
		if h, ok := scpHost(w); ok {
			m.judgeHost(c, h)
		}
	}
}

// specPrograms asks, past any allow rule, for the options of the network
// client of spec s that run a program on this machine, for the options
// only known at run time, and for those the spec does not classify,
// naming each.
func (m *cmdCall) specPrograms(c *verdictAcc, name string, s *spec, v *argv) {
	ask := func(what string) {
		c.add(permission.Ask, RuleCodeInline, what+", which is not analysed", false)
	}
	l := scanNet(s, v)
	for i := range l.opts {
		e := &l.opts[i]
		switch e.opt.kind {
		case kProgram, kConfig:
			ask(writtenName(e) + " " + e.val + " " + orText(e.opt.why, "runs a program"))
		case kSSHOption:
			if sshExecKeys()[sshOptKey(e.val)] {
				ask("-o " + e.val + " runs a program or reads configuration")
			}
		}
	}
	for i := 1; i < v.len(); i++ {
		if !v.literal(i) && strings.HasPrefix(v.vals[i], "-") {
			ask("an option only known at run time")
		}
	}
	for i := range l.problems {
		m.specOption(c, name, s, v, &l.problems[i], nil)
	}
}

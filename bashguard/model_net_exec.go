package bashguard

import (
	"strings"
	"sync"

	"github.com/toolgate/toolgate/permission"
)

// Network commands whose options run a program on this machine, each an
// option of kind kProgram or kConfig of its spec (specs_net.go), or an
// ssh -o key of sshExecKeys: ssh's ProxyCommand, LocalCommand and
// KnownHostsCommand (and a config file, -F or Include, that may set
// them, or a Match exec), the libraries of PKCS11Provider and
// SecurityKeyProvider (-I); scp's and sftp's -S program and -D server,
// sftp's -b batch file (whose ! lines run commands); nc's -e and -c and
// ncat's --exec, --sh-exec and --lua-exec; wget's --use-askpass (which
// -e, --execute and --config can set too); socat's EXEC: and SYSTEM:
// addresses. Such a command runs what the guard never sees, so the Ask
// it gets is one no allow rule for the command lifts: Bash(ssh:*)
// allows ssh, not the program an option names, as rsync -e is judged.
// An option the spec does not classify asks the same way, naming it.

// sshOptKey returns the keyword of an ssh -o value, lower case: ssh reads
// "Key=value", "Key value" and "Key\tvalue" alike.
func sshOptKey(val string) string {
	val = strings.TrimLeft(val, " \t")
	if k := strings.IndexAny(val, " \t="); k >= 0 {
		val = val[:k]
	}
	return strings.ToLower(val)
}

// netPrograms asks, past any allow rule, for the options of the network
// command name that run a program on this machine.
func (m *cmdCall) netPrograms(c *verdictAcc, name string, v *argv) {
	if s := netSpecs()[name]; s != nil {
		m.specPrograms(c, name, s, v)
	} else if f := netProgramReaders()[name]; f != nil {
		f(m, c, v)
	}
}

// netToolPrograms asks for the options of the command name's spec in
// the host reader's table (netTools) that run a program on this machine
// or read configuration that can (kProgram, kConfig), past any allow
// rule that does not name the option: Bash(npm install:*) allows npm
// install, not the program --script-shell names, nor an apt-get -o that
// sets APT::Update::Pre-Invoke. It holds with or without domain rules,
// which only the host reader reads. Where that spec is the whole of the
// command's options and its only spec (netTool.whole), every option is
// judged as its kind says (a file read or written goes to the path
// judge, one that changes state asks), and one it cannot resolve
// (unknown, ambiguous, lacking its value) asks, naming it. A tool whose own spec reads its programs
// (netTool.programsJudged) is left to it.
func (m *cmdCall) netToolPrograms(c *verdictAcc, name string, v *argv) {
	t := netTools()[name]
	if t == nil || t.options == nil || t.programsJudged {
		return
	}
	s := t.options()
	scanNetLine(s, v, 1, func(e *scanned) {
		switch {
		case e.problem != "":
			if t.whole {
				m.specOption(c, name, s, v, e, nil)
			}
		case e.opt == nil || e.opt == &dashDashOpt:
		case e.opt.kind == kConfig:
			c.addNamed(e.spell, permission.Ask, ArgsRule(name), "uses the "+s.name+" option ", optWritten(e),
				", which "+orText(e.opt.why, "reads configuration that can run programs"))
			if t.whole {
				m.readPath(c, e.val, v.flags[e.at], name)
			}
		case e.opt.kind == kProgram || t.whole:
			m.specOption(c, name, s, v, e, nil)
		}
	})
}

// netProgramReaders read the programs of the network commands whose
// operands, not options, run them.
var netProgramReaders = sync.OnceValue(func() map[string]lineReader {
	return map[string]lineReader{"socat": socatPrograms}
})

// socatPrograms asks for socat's EXEC: and SYSTEM: addresses, and for an
// address only known at run time.
func socatPrograms(_ *cmdCall, c *verdictAcc, v *argv) {
	for i := 1; i < v.len(); i++ {
		w := strings.ToLower(v.vals[i])
		if strings.Contains(w, "exec:") || strings.Contains(w, "system:") || !v.literal(i) {
			c.add(permission.Ask, RuleCodeInline, "the address "+v.vals[i]+" may run a program, which is not analysed", false)
			return
		}
	}
}

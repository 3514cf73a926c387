package bashguard

import (
	"context"
	"maps"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/permission"

	"github.com/stretchr/testify/assert"
)

// netLiftValues are the values the property below gives an option of a
// network tool's spec, by its kind, each one that must be refused past an
// allow rule for the tool: a secret read, a path written outside the
// roots, a script that runs a program here, a bind of /etc; the other
// kinds (a program run, configuration read, an Ask) whatever the value
// (one that names no subcommand: npm x would be npm exec).
var netLiftValues = map[kind]string{
	kRead: ".env", kList: ".env", kList0: ".env", kStore: ".env", kWrite: "/etc/x", kTypedWrite: "/etc/x",
	kWriteOrPipe: "|id", kClientScript: `\! id`, kScriptFile: "v1", kProgram: "v1", kAsk: "v1", kConfig: "v1", kRepo: "/tmp",
	kBind: "/etc:/e", kBuildSecret: "id=k,src=.env", kBuildSSH: "k=.env", kBuildOutput: "/etc/x", kVolumeOpt: "device=/etc",
	kFieldFile: "k=@.env", kURLOrFile: "file://.env", kKeyFiles: "k=.env",
}

// For every option of a network tool's spec (netTools) that reads a file,
// writes one, runs a program or reads configuration, every spelling the
// tool accepts (spellingLines: exact, attached, the next word, after a
// cluster, abbreviated where its grammar takes prefixes) is refused past
// an allow rule for the tool: denied, or asked where no rule for the tool
// alone lifts the Ask; and the reason names the option or the path.
func TestNetToolSpellingsNotLifted(t *testing.T) {
	dir, paths := specRepo(t)
	g := New(DefaultPolicy())
	tried := 0
	for _, name := range slices.Sorted(maps.Keys(netTools())) {
		tool := netTools()[name]
		if tool.options == nil && len(tool.kinds) == 0 {
			continue
		}
		var walk func(words []string, s *spec)
		walk = func(words []string, s *spec) {
			for _, sub := range slices.Sorted(maps.Keys(s.subs)) {
				walk(append(slices.Clone(words), sub), s.subs[sub])
			}
			flag := harmlessShortFlag(s)
			for _, sp := range spellingsOf(s) {
				val, ok := netLiftValues[sp.opt.kind]
				if !ok || sp.arg != argRequired && sp.opt.kind != kProgram && sp.opt.kind != kAsk && sp.opt.kind != kConfig {
					continue // a value it does not take (gem -g alone reads the default Gemfile)
				}
				if sp.opt.name == "--mount" {
					val = "type=bind,src=/etc,dst=/e" // docker's list of fields
				}
				for _, line := range spellingLines(s, sp, val, flag) {
					if s.grammar.oneDash && line[0] != sp.text && !strings.HasPrefix(line[0], sp.text+"=") {
						continue // one dash, one word: no value attached (openssl -CAfileX is no option)
					}
					if bare, _, _ := strings.Cut(strings.TrimLeft(line[0], "-"), "="); s.grammar.nopt && bare != strings.TrimLeft(sp.text, "-") && allShorthands(s, bare) {
						continue // nopt reads a word of single shorthands as them: npm --cal is -c -a -l, not --call
					}
					cmdline := strings.Join(append(slices.Clone(words), line...), " ")
					tried++
					v := g.Judge(context.Background(), dir, paths, cmdline)
					assertNotLifted(t, name, sp, val, cmdline, v)
				}
			}
		}
		walk([]string{name}, netToolSpecs()[name]())
	}
	t.Logf("%d spellings of network tools' options refused past their allow rules", tried)
	assert.Greater(t, tried, 1000)
}

// assertNotLifted checks the verdict v of cmdline, a spelling of sp with
// the value val: denied, or asked past an allow rule for the tool, with a
// reason that names the option, the file or the path.
func assertNotLifted(t *testing.T, name string, sp *spelling, val, cmdline string, v Verdict) {
	t.Helper()
	if !assert.NotEqual(t, permission.Allow, v.Decision, "%s: %q is allowed (%s)", name, cmdline, v.Reason) {
		return
	}
	if v.Decision == permission.Ask {
		// Some command stays refused under Bash(name:*): one of name's
		// own whose Ask no rule for it alone lifts, or another command
		// (what an option runs), which that rule does not match.
		held := slices.ContainsFunc(v.Commands, func(c Command) bool {
			own := len(c.Args) > 0 && path.Base(c.Args[0]) == name
			return c.Decision != permission.Allow && (!own || !c.Overridable || len(c.LiftedBy) > 0)
		})
		assert.True(t, held, "%s: %q: an allow rule for %s lifts it (%s)", name, cmdline, name, v.Reason)
	}
	reasons := v.Reason // and each command's: what an option runs is a command of its own
	for _, c := range v.Commands {
		reasons += "\n" + c.Reason
	}
	switch {
	case strings.Contains(val, ".env"):
		assert.Contains(t, reasons, ".env", "%s: %q: the reason names the file", name, cmdline)
	case strings.Contains(val, "/etc"):
		assert.Contains(t, reasons, "/etc", "%s: %q: the reason names the path", name, cmdline)
	case !strings.Contains(reasons, sp.opt.name):
		assert.Contains(t, reasons, sp.text, "%s: %q: the reason names the option", name, cmdline)
	}
}

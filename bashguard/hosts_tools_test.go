package bashguard

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestNetToolFlags holds netToolFlags to the table: each is a tool's, and
// no flag spells an option the row reads as taking a value, which the
// spec would keep (its first row wins) while the flag says otherwise.
func TestNetToolFlags(t *testing.T) {
	for name, flags := range netToolFlags() {
		tool := netTools()[name]
		if !assert.NotNil(t, tool, "netToolFlags names %s, which is not in netTools", name) {
			continue
		}
		for _, f := range strings.Fields(flags) {
			long := strings.HasPrefix(f, "--") || tool.singleDash && len(f) > 2
			assert.False(t, long && slices.Contains(tool.valLong, f) || !long && len(f) == 2 && hasByte(tool.valShort, f[1]),
				"%s: the flag %s is an option that takes a value", name, f)
			assert.True(t, long || len(f) == 2, "%s: %s is no spelling of a short option", name, f)
		}
	}
}

// TestNetToolsTable holds the table of hosts_tools.go to its own rules:
// an option that names a registry or host takes a value in both
// spellings (--opt=URL and --opt URL), every subcommand says what it
// reaches, and one whose hosts come from elsewhere says from where.
func TestNetToolsTable(t *testing.T) {
	for name, tool := range netTools() {
		for opt, e := range tool.opts {
			switch e {
			case effReplace, effAdd, effHost, effRepo, effConn:
			default:
				continue
			}
			if strings.HasSuffix(opt, "*") {
				continue
			}
			s := netToolSpecs()[name]()
			sp := s.longExact(opt)
			if len(opt) == 2 {
				sp = s.tables().short[opt[1]]
			}
			assert.True(t, sp != nil && sp.arg == argRequired, "%s: %s names a registry or host but is not among the options that take a value", name, opt)
		}
		assert.NotEmpty(t, tool.subs, "%s has no subcommands", name)
		for sub, s := range tool.subs {
			assert.NotZero(t, s.kind, "%s %s: no kind", name, sub)
			if s.kind == subRuntime && len(tool.registry) == 0 {
				assert.NotEmpty(t, s.why, "%s %s: reaches hosts only known at run time without saying where they come from", name, sub)
			}
		}
	}
}

// netToolHelp says where the installed tools list their options: the
// command lines that print their help.
var netToolHelp = map[string][][]string{
	"cargo": {{"install", "--help"}, {"build", "--help"}, {"add", "--help"}, {"publish", "--help"}, {"doc", "--help"},
		{"--help"}},
	"docker": {{"--help"}, {"run", "--help"}, {"pull", "--help"}, {"build", "--help"}, {"buildx", "build", "--help"},
		{"push", "--help"}, {"ps", "--help"}},
	"psql":    {{"--help"}},
	"pg_dump": {{"--help"}},
	"kubectl": {{"options"}, {"get", "--help"}, {"apply", "--help"}, {"logs", "--help"}, {"exec", "--help"}, {"label", "--help"},
		{"config", "view", "--help"}, {"create", "token", "--help"}, {"describe", "--help"}, {"run", "--help"},
		{"wait", "--help"}, {"delete", "--help"}, {"port-forward", "--help"}, {"patch", "--help"}, {"expose", "--help"}, {"scale", "--help"}, {"explain", "--help"}},
	"openssl": {{"s_client", "-help"}, {"s_time", "-help"}, {"ocsp", "-help"}},
	"mvn":     {{"--help"}},
}

// TestNetToolFlagsAgreeWithHelp holds the flags of netToolFlags, and
// every spelling of a tool's own spec (kubectl's), to the help of the
// tools installed where it runs: each is an option the tool lists.
func TestNetToolFlagsAgreeWithHelp(t *testing.T) {
	checked := 0
	for name, helps := range netToolHelp {
		if _, err := exec.LookPath(name); err != nil {
			t.Logf("SKIP %s: it is not installed, so its flags cannot be checked against its help: %v", name, err)
			continue
		}
		var text strings.Builder
		for _, h := range helps {
			cmd := exec.Command(name, h...)
			cmd.Env = append(os.Environ(), "LANG=C")
			b, _ := cmd.CombinedOutput()
			text.Write(b)
		}
		for _, f := range netToolOptions(name) {
			listed := regexp.MustCompile(`(^|[\s,\[|(])` + regexp.QuoteMeta(f) + `($|[\s,=\]|)<.])`)
			assert.True(t, listed.MatchString(text.String()), "%s: the flag %s is not an option its help lists", name, f)
			checked++
		}
	}
	t.Logf("checked %d flags against the tools' help", checked)
}

// netToolOptions are the spellings TestNetToolFlagsAgreeWithHelp checks
// for the tool name: its spec's, where it has its own, else its flags.
func netToolOptions(name string) []string {
	t := netTools()[name]
	if t == nil || t.options == nil {
		return strings.Fields(netToolFlags()[name])
	}
	var out []string
	for r := range t.options().eachRow {
		for w := range strings.FieldsSeq(r.spell) {
			out = append(out, strings.TrimSuffix(strings.TrimSuffix(w, "[=]"), "="))
		}
	}
	return out
}

// A tool that has its own spec states its options there alone: no
// valShort, valLong or flags beside it, and every option that moves it
// is one of the spec's.
func TestNetToolOwnSpecs(t *testing.T) {
	own := 0
	for name, tool := range netTools() {
		if tool.options == nil {
			continue
		}
		own++
		assert.Empty(t, tool.valShort, name)
		assert.Empty(t, tool.valLong, name)
		assert.Empty(t, netToolFlags()[name], name)
		s := tool.options()
		for opt := range tool.opts {
			assert.NotNil(t, specSpelling(s, opt), "%s: %s moves it, and is not in its spec", name, opt)
		}
	}
	assert.GreaterOrEqual(t, own, 2, "kubectl and oc have their own specs")
}

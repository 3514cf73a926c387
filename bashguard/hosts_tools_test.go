package bashguard

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestNetToolsTable holds the table of hosts_tools.go to its own rules:
// an option that names a registry or host takes a value in both
// spellings (--opt=URL and --opt URL), every subcommand says what it
// reaches, and one whose hosts come from elsewhere says from where.
func TestNetToolsTable(t *testing.T) {
	for name, tool := range netTools {
		for opt, e := range tool.opts {
			switch e {
			case effReplace, effAdd, effHost, effRepo:
			default:
				continue
			}
			if strings.HasSuffix(opt, "*") {
				continue
			}
			if strings.HasPrefix(opt, "--") || tool.singleDash {
				assert.True(t, takesValue(opt, tool.valLong, false), "%s: %s names a registry or host but is not among the options that take a value", name, opt)
			} else {
				assert.True(t, len(opt) == 2 && hasByte(tool.valShort, opt[1]), "%s: %s names a registry or host but is not among the short options that take a value", name, opt)
			}
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

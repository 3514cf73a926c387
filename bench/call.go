package bench

import (
	"math/rand/v2"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// Call is one tool call, independent of any engine's input form.
type Call struct {
	Tool string
	// Group is the name whose rules also apply ("Read" for Grep, "Edit"
	// for Write), or empty.
	Group string
	Kind  permission.Kind
	// Argv is the command of a shell call. Its words hold no spaces, so
	// that engines that match a command as one string see the same words.
	Argv   []string
	Path   string
	Domain string
}

// Name returns the command's first word, or "".
func (c *Call) Name() string {
	if len(c.Argv) == 0 {
		return ""
	}
	return c.Argv[0]
}

// Base returns the last component of the command's first word: "rm" for
// "/bin/rm". Deny and ask rules for "rm" also cover "/bin/rm"; allow rules
// do not.
func (c *Call) Base() string {
	s := c.Name()
	if i := strings.LastIndexByte(s, '/'); i >= 0 && i < len(s)-1 {
		return s[i+1:]
	}
	return s
}

// Args returns the command's words after the first.
func (c *Call) Args() []string {
	if len(c.Argv) == 0 {
		return nil
	}
	return c.Argv[1:]
}

// Request returns the call as toolgate's checker reads it.
func (c *Call) Request() permission.Request {
	return permission.Request{Tool: c.Tool, Group: c.Group, Kind: c.Kind, Command: c.Argv, Path: c.Path, Domain: c.Domain}
}

func kindOf(tool string) permission.Kind {
	switch tool {
	case "Bash":
		return permission.KindExec
	case "Read", "Grep":
		return permission.KindRead
	case "Edit", "Write":
		return permission.KindEdit
	case "WebFetch":
		return permission.KindNetwork
	}
	return permission.KindOther
}

func toolCall(tool string) Call {
	c := Call{Tool: tool, Kind: kindOf(tool)}
	switch tool {
	case "Grep":
		c.Group = "Read"
	case "Write":
		c.Group = "Edit"
	}
	return c
}

// Calls returns n calls over the policy, the same for the same arguments:
// seven in ten a rule matches, two in ten near misses of a rule, one in ten
// calls no rule is about.
func Calls(rules []Rule, n int, seed uint64) []Call {
	rng := rand.New(rand.NewPCG(seed, 0x746f6f6c67617465))
	calls := make([]Call, 0, n)
	for len(calls) < n {
		r := rules[rng.IntN(len(rules))]
		switch p := rng.IntN(10); {
		case p < 7:
			calls = append(calls, hit(rng, r))
		case p < 9:
			calls = append(calls, miss(rng, r))
		default:
			calls = append(calls, other(rng))
		}
	}
	return calls
}

var extraWords = []string{"-v", "origin", "main", "./...", "x", "--dry-run", "prod", "build"}

func pick[T any](rng *rand.Rand, s []T) T { return s[rng.IntN(len(s))] }

// named returns a call of the rule's tool, or of another tool of its group.
func named(rng *rand.Rand, r Rule) Call {
	if g, ok := groups[r.Tool]; ok {
		return toolCall(pick(rng, g))
	}
	return toolCall(r.Tool)
}

// hit returns a call the rule matches.
func hit(rng *rand.Rand, r Rule) Call {
	c := named(rng, r)
	switch r.Form {
	case FormToolGlob:
		c = toolCall(r.Tool + pick(rng, []string{"create_issue", "list", "x", "repo_delete"}))
	case FormPrefix:
		c.Argv = append([]string(nil), r.Words...)
		for range rng.IntN(3) {
			c.Argv = append(c.Argv, pick(rng, extraWords))
		}
	case FormExact:
		c.Argv = append([]string(nil), r.Words...)
	case FormMiddle:
		c.Argv = []string{r.Words[0]}
		for range 1 + rng.IntN(2) {
			c.Argv = append(c.Argv, pick(rng, extraWords))
		}
		c.Argv = append(c.Argv, r.Words[1])
	case FormDir:
		c.Path = r.Dir + pick(rng, []string{"", "/a.txt", "/sub/b.go", "/sub/deep/c.md"})
	case FormExt:
		c.Path = r.Dir + pick(rng, []string{"/x", "/pkg/x", "/a/b/c"}) + r.Ext
	case FormDomain:
		c.Domain = r.Host
	case FormSubdomain:
		c.Domain = pick(rng, []string{"api.", "a.b.", "pkg."}) + r.Host
	}
	if len(c.Argv) > 0 && r.Decision != permission.Allow && rng.IntN(5) == 0 {
		// A deny or ask rule for "rm" also covers "/usr/bin/rm".
		c.Argv[0] = "/usr/bin/" + c.Argv[0]
	}
	return c
}

// miss returns a call close to one the rule matches, which it does not.
func miss(rng *rand.Rand, r Rule) Call {
	c := named(rng, r)
	switch r.Form {
	case FormTool:
		c = toolCall(r.Tool + "X")
	case FormToolGlob:
		c = toolCall(strings.TrimSuffix(r.Tool, "_") + "x")
	case FormPrefix:
		c.Argv = []string{r.Words[0] + "x", "run"}
	case FormExact:
		c.Argv = append(append([]string(nil), r.Words...), "--extra")
	case FormMiddle:
		c.Argv = []string{r.Words[0], r.Words[1], "x"}
	case FormDir:
		c.Path = r.Dir + "x/a.txt"
	case FormExt:
		c.Path = r.Dir + "/x" + r.Ext + "x"
	case FormDomain:
		c.Domain = "not" + r.Host
	case FormSubdomain:
		c.Domain = r.Host
	}
	if len(c.Argv) > 0 && r.Decision == permission.Allow && rng.IntN(4) == 0 {
		// An allow rule for "git" does not cover "/tmp/x/git".
		c.Argv = append([]string{"/tmp/x/" + c.Argv[0]}, c.Argv[1:]...)
	}
	return c
}

// other returns a call of a tool or command no rule is about.
func other(rng *rand.Rand) Call {
	switch rng.IntN(5) {
	case 0:
		return toolCall(pick(rng, []string{"WebSearch", "NotebookRead", "AskUser"}))
	case 1:
		c := toolCall("Bash")
		c.Argv = pick(rng, [][]string{{"make", "test"}, {"echo", "hi"}, {"python3", "x.py"}})
		return c
	case 2:
		c := toolCall(pick(rng, []string{"Read", "Grep"}))
		c.Path = pick(rng, []string{"/tmp/x", WorkDir + "/README.md", "/var/log/syslog"})
		return c
	case 3:
		c := toolCall("WebFetch")
		c.Domain = pick(rng, []string{"example.com", "docs.example.org"})
		return c
	}
	c := toolCall(pick(rng, []string{"Edit", "Write"}))
	c.Path = pick(rng, []string{WorkDir + "/README.md", "/tmp/out.txt"})
	return c
}

package bench

import (
	"fmt"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// The directories relative and "~" path rules resolve against.
const (
	WorkDir = "/home/u/proj"
	Home    = "/home/u"
)

// Form is the shape of a rule: what it matches in a call.
type Form uint8

// The forms of rule every engine expresses.
const (
	// FormTool matches every call of the tool (or of its group).
	FormTool Form = iota
	// FormToolGlob matches every tool whose name starts with Tool (the
	// pattern without its trailing '*').
	FormToolGlob
	// FormPrefix matches a command whose words start with Words.
	FormPrefix
	// FormExact matches a command whose words are Words.
	FormExact
	// FormMiddle matches a command whose first word is Words[0], whose
	// last word is Words[1], with at least one word between.
	FormMiddle
	// FormDir matches the path Dir and every path below it.
	FormDir
	// FormExt matches a path below Dir whose last component ends in Ext
	// (and every path below such a one).
	FormExt
	// FormDomain matches the host Host.
	FormDomain
	// FormSubdomain matches every subdomain of Host (not Host itself).
	FormSubdomain
)

// Rule is one rule of the policy, independent of any engine's language.
type Rule struct {
	Decision permission.Decision
	Form     Form
	// Tool is the tool (or group) name; for FormToolGlob, the name's
	// literal prefix.
	Tool  string
	Words []string
	Dir   string
	Ext   string
	Host  string
}

// groups are the tool names whose rules also apply to other tools.
var groups = map[string][]string{
	"Read": {"Read", "Grep"},
	"Edit": {"Edit", "Write"},
}

// isGroup reports whether rules for tool also apply to other tools.
func isGroup(tool string) bool { _, ok := groups[tool]; return ok }

// Text is the rule in Claude Code syntax, as toolgate reads it.
func (r Rule) Text() string {
	switch r.Form {
	case FormTool:
		return r.Tool
	case FormToolGlob:
		return r.Tool + "*"
	case FormPrefix:
		return r.Tool + "(" + strings.Join(r.Words, " ") + ":*)"
	case FormExact:
		return r.Tool + "(" + strings.Join(r.Words, " ") + ")"
	case FormMiddle:
		return r.Tool + "(" + r.Words[0] + " * " + r.Words[1] + ")"
	case FormDir:
		return r.Tool + "(" + pathSpec(r.Dir) + "/**)"
	case FormExt:
		return r.Tool + "(" + pathSpec(r.Dir) + "/**/*" + r.Ext + ")"
	case FormDomain:
		return r.Tool + "(domain:" + r.Host + ")"
	case FormSubdomain:
		return r.Tool + "(domain:*." + r.Host + ")"
	}
	panic(fmt.Sprintf("bench: unknown form %d", r.Form))
}

// pathSpec writes an absolute directory the way a person would in a rule:
// relative to the working directory, to the home directory, or absolute.
func pathSpec(dir string) string {
	switch {
	case strings.HasPrefix(dir, WorkDir+"/"):
		return "./" + dir[len(WorkDir)+1:]
	case strings.HasPrefix(dir, Home+"/"):
		return "~/" + dir[len(Home)+1:]
	}
	return "/" + dir
}

// coreRules are the hand-written rules every policy starts with: the
// policy of a project, with overlaps that only precedence settles (git
// allowed, git push asked, git push --force denied). Decisions alternate so
// that the first ten hold all three.
var coreRules = []Rule{
	{Decision: permission.Deny, Form: FormPrefix, Tool: "Bash", Words: []string{"rm"}},
	{Decision: permission.Ask, Form: FormPrefix, Tool: "Bash", Words: []string{"git", "push"}},
	{Decision: permission.Allow, Form: FormPrefix, Tool: "Bash", Words: []string{"git"}},
	{Decision: permission.Deny, Form: FormPrefix, Tool: "Bash", Words: []string{"git", "push", "--force"}},
	{Decision: permission.Ask, Form: FormMiddle, Tool: "Bash", Words: []string{"docker", "prod"}},
	{Decision: permission.Allow, Form: FormDir, Tool: "Read", Dir: WorkDir + "/src"},
	{Decision: permission.Deny, Form: FormDir, Tool: "Read", Dir: Home + "/.ssh"},
	{Decision: permission.Ask, Form: FormDir, Tool: "Edit", Dir: WorkDir + "/.github"},
	{Decision: permission.Allow, Form: FormExt, Tool: "Edit", Dir: WorkDir + "/src", Ext: ".go"},
	{Decision: permission.Deny, Form: FormDomain, Tool: "WebFetch", Host: "evil.example"},
	{Decision: permission.Allow, Form: FormSubdomain, Tool: "WebFetch", Host: "golang.org"},
	{Decision: permission.Ask, Form: FormToolGlob, Tool: "mcp__github__delete_"},
	{Decision: permission.Allow, Form: FormToolGlob, Tool: "mcp__github__"},
	{Decision: permission.Deny, Form: FormToolGlob, Tool: "mcp__danger__"},
	{Decision: permission.Allow, Form: FormPrefix, Tool: "Bash", Words: []string{"npm", "run", "test"}},
	{Decision: permission.Ask, Form: FormPrefix, Tool: "Bash", Words: []string{"npm", "publish"}},
	{Decision: permission.Deny, Form: FormPrefix, Tool: "Bash", Words: []string{"curl"}},
	{Decision: permission.Allow, Form: FormPrefix, Tool: "Bash", Words: []string{"go", "test"}},
	{Decision: permission.Ask, Form: FormExt, Tool: "Edit", Dir: WorkDir + "/migrations", Ext: ".sql"},
	{Decision: permission.Deny, Form: FormDir, Tool: "Edit", Dir: "/etc"},
	{Decision: permission.Allow, Form: FormExact, Tool: "Bash", Words: []string{"make", "build"}},
	{Decision: permission.Ask, Form: FormSubdomain, Tool: "WebFetch", Host: "internal.example"},
	{Decision: permission.Deny, Form: FormDir, Tool: "Read", Dir: WorkDir + "/.env"},
	{Decision: permission.Allow, Form: FormDomain, Tool: "WebFetch", Host: "go.dev"},
	{Decision: permission.Ask, Form: FormTool, Tool: "Task"},
	{Decision: permission.Allow, Form: FormTool, Tool: "TodoWrite"},
	{Decision: permission.Deny, Form: FormExact, Tool: "Bash", Words: []string{"git", "reset", "--hard"}},
	{Decision: permission.Allow, Form: FormExact, Tool: "Bash", Words: []string{"ls"}},
	{Decision: permission.Allow, Form: FormDir, Tool: "Read", Dir: "/usr/share/doc"},
	{Decision: permission.Ask, Form: FormMiddle, Tool: "Bash", Words: []string{"kubectl", "apply"}},
}

// Policy returns a policy of n rules: the core rules, then generated rules
// of every form, a third of each decision, over tool names, commands,
// directories and hosts of their own.
func Policy(n int) []Rule {
	rules := make([]Rule, 0, n)
	rules = append(rules, coreRules[:min(n, len(coreRules))]...)
	for k := 0; len(rules) < n; k++ {
		r := Rule{Decision: permission.Decision((k + k/9) % 3)}
		switch k % 9 {
		case 0:
			r.Form, r.Tool, r.Words = FormPrefix, "Bash", []string{fmt.Sprintf("tool%d", k), "run"}
		case 1:
			r.Form, r.Tool, r.Words = FormExact, "Bash", []string{fmt.Sprintf("tool%d", k), "status"}
		case 2:
			r.Form, r.Tool, r.Words = FormMiddle, "Bash", []string{fmt.Sprintf("tool%d", k), "main"}
		case 3:
			r.Form, r.Tool, r.Dir = FormDir, "Read", fmt.Sprintf("%s/dir%d", WorkDir, k)
		case 4:
			r.Form, r.Tool, r.Dir, r.Ext = FormExt, "Edit", fmt.Sprintf("/srv/app%d", k), ".go"
		case 5:
			r.Form, r.Tool, r.Host = FormDomain, "WebFetch", fmt.Sprintf("host%d.example", k)
		case 6:
			r.Form, r.Tool, r.Host = FormSubdomain, "WebFetch", fmt.Sprintf("site%d.example", k)
		case 7:
			r.Form, r.Tool = FormToolGlob, fmt.Sprintf("mcp__server%d__", k)
		case 8:
			r.Form, r.Tool = FormTool, fmt.Sprintf("tool_%d", k)
		}
		rules = append(rules, r)
	}
	return rules
}

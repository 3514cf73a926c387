package permission

import (
	"path"
	"slices"
	"strings"
)

// RuleSpec is a rule together with its decision and where it came from.
type RuleSpec struct {
	// Rule is the rule text in Claude Code syntax.
	Rule string
	// Decision is the list the rule is in: Allow, Ask or Deny.
	Decision Decision
	// Origin names where the rule came from ("project settings
	// /p/.claude/settings.json", "AGENT_PERMISSIONS_DENY", "session"); it
	// appears in reasons.
	Origin string
	// Dir is the folder that "/path" specifiers are relative to: the
	// settings file's project folder. Empty for rules without one.
	Dir string
}

type specKind uint8

const (
	specNone specKind = iota
	specShell
	specPath
	specDomain
	specContent
	// specInert is a rule Claude Code does not consult: it matches nothing.
	specInert
)

// compiledRule is a rule ready to match: its patterns are compiled once and
// its reason is written once, so matching allocates nothing.
type compiledRule struct {
	text     string
	decision Decision
	source   Source
	index    int
	tool     string
	toolGlob bool
	kind     specKind
	shell    shellPattern
	path     pathPattern
	domain   domainPattern
	content  string
	// contentPrefix: content is a prefix, followed by nothing, a space or
	// a ':' (the ":*" form).
	contentPrefix bool
	reason        string
}

// toolRules holds the rules of one tool name, with shell rules indexed by
// their literal leading words.
type toolRules struct {
	general []*compiledRule
	// byFirst holds shell rules by their literal command name, and below
	// it by their further literal words (see wordNode).
	byFirst map[string]*wordNode
	// byDir holds path rules by the literal directory their pattern
	// starts with: only rules filed under an ancestor of a path can match it.
	byDir map[string][]*compiledRule
	// dirLens has bit n set when byDir holds a key of n bytes (keys of
	// 255 bytes or more set bit 255), so that most ancestors of a path
	// skip the map lookup and the hashing of their text. Kept for
	// BenchmarkCheck: a plain map lookup per ancestor costs 13-40% more.
	dirLens [4]uint64
	// byHost holds domain rules by their host ("example.com") or, for
	// wildcards, their suffix (".example.com").
	byHost map[string][]*compiledRule
}

func (t *toolRules) add(r *compiledRule) {
	switch {
	case r.kind == specShell && r.shell.first != "":
		if t.byFirst == nil {
			t.byFirst = make(map[string]*wordNode)
		}
		n := t.byFirst[r.shell.first]
		if n == nil {
			n = &wordNode{}
			t.byFirst[r.shell.first] = n
		}
		n.add(r, r.shell.words[1:])
	case r.kind == specPath:
		if t.byDir == nil {
			t.byDir = make(map[string][]*compiledRule)
		}
		d := r.path.dir
		t.byDir[d] = append(t.byDir[d], r)
		n := min(len(d), 255)
		t.dirLens[n/64] |= 1 << (n % 64)
	case r.kind == specDomain && !r.domain.any:
		if t.byHost == nil {
			t.byHost = make(map[string][]*compiledRule)
		}
		k := r.domain.host + r.domain.suffix
		t.byHost[k] = append(t.byHost[k], r)
	default:
		t.general = append(t.general, r)
	}
}

// wordNode files shell rules by their literal leading words, a word per
// level: a rule sits at the node of its last literal word before the
// first word with a star (or its end), so a command meets only the rules
// whose literal words it carries, however many rules share a first word
// (10,000 "Bash(git ...)" rules cost about what 50 do).
type wordNode struct {
	rules []*compiledRule
	next  map[string]*wordNode
}

// add files r under the literal words of words (those after the node's).
func (n *wordNode) add(r *compiledRule, words []string) {
	for _, w := range words {
		if hasStar(w) {
			break
		}
		c := n.next[w]
		if c == nil {
			if n.next == nil {
				n.next = make(map[string]*wordNode)
			}
			c = &wordNode{}
			n.next[w] = c
		}
		n = c
	}
	n.rules = append(n.rules, r)
}

// ruleSet is an immutable, indexed set of compiled rules.
type ruleSet struct {
	rules []*compiledRule
	exact map[string]*toolRules
	// globs holds rules whose tool is a name pattern, by the pattern's
	// literal prefix cut after its last "__" ("mcp__github__" for
	// "mcp__github__*", "" for "*").
	globs map[string]*toolRules
	// anyTool is globs[""], the rules of a pattern with no literal "__"
	// prefix ("*", "Web*"): tried for every call, without the lookup.
	anyTool *toolRules
}

// compileOptions are what rule compilation needs besides the rule.
type compileOptions struct {
	home, workDir string
	shellTools    []string
	pathTools     []string
}

// defaultShellTools are the tools whose specifiers are shell commands.
var defaultShellTools = []string{"Bash", "Monitor", "run_bash"}

// defaultPathTools are the tools whose specifiers are paths.
var defaultPathTools = []string{
	"Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "NotebookRead", "Glob", "Grep", "LS", "LSP",
	"read_file", "file_write", "file_edit", "glob_files", "grep_files",
}

func (o *compileOptions) specKindFor(tool, spec string) specKind {
	switch {
	case spec == "":
		return specNone
	case strings.HasPrefix(spec, "domain:"):
		return specDomain
	case slices.Contains(o.shellTools, tool):
		return specShell
	case slices.Contains(o.pathTools, tool):
		return specPath
	}
	return specContent
}

// compileRule parses and compiles one rule. The error, if any, is an *Error
// naming the origin, the rule's index in its list and the offset.
func compileRule(spec RuleSpec, index int, src Source, o *compileOptions) (*compiledRule, error) {
	r, err := ParseRule(spec.Rule)
	if err != nil {
		e := err.(*Error)
		e.Source, e.Index = spec.Origin, index
		return nil, e
	}
	fail := func(off int, reason string) (*compiledRule, error) {
		if off < 0 {
			off = 0
		}
		lead := len(spec.Rule) - len(strings.TrimLeft(spec.Rule, " \t\r\n"))
		return nil, &Error{Source: spec.Origin, Index: index, Offset: lead + len(r.Tool) + 1 + off, Input: spec.Rule, Reason: reason}
	}
	if !spec.Decision.Valid() {
		return fail(-1, "invalid decision")
	}
	c := &compiledRule{
		text:     r.String(),
		decision: spec.Decision,
		source:   src,
		index:    index,
		tool:     r.Tool,
		toolGlob: hasStar(r.Tool),
		kind:     o.specKindFor(r.Tool, r.Specifier),
	}
	switch c.kind {
	case specShell:
		p, off, why := compileShellPattern(r.Specifier)
		if why != "" {
			return fail(off, why)
		}
		c.shell = p
	case specPath:
		dir := spec.Dir
		if dir != "" && path.Base(dir) == ".claude" {
			// Claude Code's project settings live in <project>/.claude;
			// their "/path" rules mean <project>/path.
			dir = path.Dir(dir)
		}
		p, why := compilePathPattern(r.Specifier, pathBases{home: o.home, workDir: o.workDir, ruleDir: dir})
		if why != "" {
			return fail(0, why)
		}
		c.path = p
	case specDomain:
		p, why := compileDomainPattern(strings.TrimPrefix(r.Specifier, "domain:"))
		if why != "" {
			return fail(len("domain:"), why)
		}
		c.domain = p
	case specContent:
		c.content = r.Specifier
		if p, ok := strings.CutSuffix(r.Specifier, ":*"); ok && p != "" && !strings.Contains(p, "*") {
			// Claude Code's prefix form: "Skill(pdf:*)" is the skill pdf
			// with any arguments, "SlashCommand(/deploy:*)" /deploy with
			// any arguments or sub-command.
			c.content, c.contentPrefix = p, true
		}
	}
	if c.kind == specPath && c.decision == Allow && c.tool == "Write" {
		// Claude Code 2.1.332 reads no Write(path) rule: its edit tools
		// answer to Edit(path) alone, so "Write(./out/**)" in allow lets
		// nothing through there and must not here. (Such a deny or ask
		// rule stays: it only narrows.)
		c.kind = specInert
	}
	c.reason = ruleReason(c.decision, c.text, spec.Origin)
	return c, nil
}

func ruleReason(d Decision, text, origin string) string {
	var verb string
	switch d {
	case Deny:
		verb = "denied by deny rule "
	case Ask:
		verb = "needs confirmation by ask rule "
	default:
		verb = "allowed by allow rule "
	}
	s := verb + text
	if origin != "" {
		s += " (" + origin + ")"
	}
	return s
}

func newRuleSet(rules []*compiledRule) *ruleSet {
	s := &ruleSet{rules: rules, exact: make(map[string]*toolRules), globs: make(map[string]*toolRules)}
	for _, r := range rules {
		m, key := s.exact, r.tool
		if r.toolGlob {
			m, key = s.globs, globKey(r.tool)
		}
		t := m[key]
		if t == nil {
			t = &toolRules{}
			m[key] = t
		}
		t.add(r)
	}
	s.anyTool = s.globs[""]
	return s
}

// globKey cuts a tool-name pattern's literal prefix after its last "__".
func globKey(pattern string) string {
	lit := pattern[:strings.IndexByte(pattern, '*')]
	if i := strings.LastIndex(lit, "__"); i >= 0 {
		return lit[:i+2]
	}
	return ""
}

package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/sandbox"
)

// content runs layers 2, 4 and 5 on a call's final input: it reads the
// fields the tool declares, resolves paths through the sandbox, judges
// shell commands with the guard, and checks the rules for each path,
// domain and simple command. It collects one answer per source for
// permission.Combine.
type content struct {
	a      *agent
	tool   string
	traits Traits
	input  json.RawMessage

	// The answers: the first ones held inline (a slice into the struct
	// would move it to the heap), the rest in more.
	ans         [2]permission.Result
	nAns        int
	more        []permission.Result
	commands    []CommandVerdict
	insideRoots bool
	// paths are the real paths the call touches, for "allow always".
	// The first is held inline: most calls touch one path.
	path0   string
	paths   []string
	nPaths  int
	domains []string
	// workdir is the real working directory a shell command runs in, when
	// the call names one; workdirRefused that it named one the sandbox
	// refused.
	workdir        string
	workdirRefused bool
	// rules is the strictest rules' answer over the call's objects.
	rules    permission.Result
	hasRules bool
}

func (c *content) add(r permission.Result) {
	if c.nAns < len(c.ans) {
		c.ans[c.nAns] = r
		c.nAns++
		return
	}
	c.more = append(c.more, r)
}

// answers returns the answers collected, with extra ones first.
func (c *content) answers(extra ...permission.Result) []permission.Result {
	if len(extra) == 0 && c.more == nil {
		return c.ans[:c.nAns]
	}
	out := make([]permission.Result, 0, len(extra)+c.nAns+len(c.more))
	out = append(out, extra...)
	out = append(out, c.ans[:c.nAns]...)
	return append(out, c.more...)
}

// addRules merges the rules' answer for one object of the call (a path, a
// domain) into one answer for the call: the strictest wins, since the call
// is allowed only if every object it touches is. (Given to Combine one by
// one, an Allow rule for one path would outrank a default Deny for
// another.)
func (c *content) addRules(r permission.Result) {
	if !c.hasRules {
		c.rules, c.hasRules = r, true
		return
	}
	lose := r
	if r.Decision < c.rules.Decision {
		lose, c.rules = c.rules, r
	}
	c.rules.Conflicts.Add(permission.Conflict{Decision: lose.Decision, Layer: lose.Layer, Source: lose.Source, Rule: lose.Rule, Reason: lose.Reason})
}

func (c *content) guardDeny(layer permission.Layer, rule, reason string) {
	c.add(permission.Result{Decision: permission.Deny, Layer: layer, Source: permission.SourceToolDeny, Rule: rule, Reason: reason})
}

func (c *content) guardAsk(layer permission.Layer, rule, reason string, firm bool) {
	c.add(permission.Result{Decision: permission.Ask, Layer: layer, Source: permission.SourceToolAsk, Rule: rule, Reason: reason, Firm: firm})
}

// group is the Claude Code rule family a tool's paths also answer to, or
// for Task and Agent (one tool, renamed) the other name, so that a rule
// for either holds for both.
func (c *content) group() string {
	switch c.tool {
	case "Task":
		return "Agent"
	case "Agent":
		return "Task"
	}
	switch c.traits.Kind {
	case permission.KindRead:
		return "Read"
	case permission.KindEdit:
		return "Edit"
	}
	return ""
}

// inspect checks the input, whose top-level members are fields, against
// the rules and the guards of layers 4 and 5.
func (c *content) inspect(ctx context.Context, fields []member) {
	t := &c.traits
	// The tool's own rules (P1 Deny, P6 Ask).
	for _, r := range t.Rules {
		rule := r.Rule
		if rule == "" {
			rule = "tool:" + c.tool
		}
		if r.Decision == permission.Ask {
			c.guardAsk(permission.LayerTraits, rule, r.Reason, false)
		} else {
			c.guardDeny(permission.LayerTraits, rule, r.Reason)
		}
	}
	c.insideRoots = true
	c.checkFieldCase(fields)
	c.checkRequired(fields)
	write := t.WritesPaths()
	base := ""
	for _, f := range t.PathFields {
		s, ok := c.stringField(fields, f)
		if !ok || s == "" || !c.pathText(f, s) {
			continue
		}
		if real := c.checkPath(f, s, write); real != "" && base == "" {
			base = real
		}
	}
	c.checkFilters(fields, base)
	for _, f := range t.GlobFields {
		s, ok := c.stringField(fields, f)
		if !ok || s == "" || !c.pathText(f, s) {
			continue
		}
		pattern := s
		if base != "" && !filepath.IsAbs(s) {
			// Joined, not cleaned: ".." after a link in the pattern leads
			// where the file system takes it, which the sandbox resolves.
			pattern = strings.TrimSuffix(base, "/") + "/" + s
		}
		c.checkGlob(f, pattern)
	}
	if f := t.WorkdirField; f != "" {
		if s, ok := c.stringField(fields, f); ok && s != "" {
			if c.pathText(f, s) {
				c.workdir = c.checkPathRules(f, s, false, false)
			}
			if c.workdir == "" {
				c.workdirRefused = true
			}
		}
	}
	for _, f := range t.URLFields {
		if s, ok := c.stringField(fields, f); ok && s != "" {
			c.checkURL(f, s)
		}
	}
	for _, f := range t.DomainFields {
		c.checkDomains(fields, f)
	}
	shell := len(t.CommandFields) > 0
	for _, f := range t.CommandFields {
		if s, ok := c.stringField(fields, f); ok {
			c.checkShell(ctx, f, s)
		} else if v, present := field(fields, f); !present || string(v) == "null" {
			c.guardDeny(permission.LayerTraits, "input:missing-field", fmt.Sprintf("input field %q (a shell command) is missing", f))
		}
	}
	if !shell && !c.hasRules {
		// A call with nothing to look at: the rules for the tool itself.
		c.checkContent(fields)
	}
	if c.hasRules {
		c.add(c.rules)
	}
}

// checkRequired denies a call without one of the fields its tool
// requires: missing, null or an empty string.
func (c *content) checkRequired(fields []member) {
	for _, f := range c.traits.RequiredFields {
		v, present := field(fields, f)
		switch {
		case !present || string(v) == "null":
			c.guardDeny(permission.LayerTraits, "input:missing-field", fmt.Sprintf("input field %q is missing: %s needs it", f, c.tool))
		case string(v) == `""`:
			c.guardDeny(permission.LayerTraits, "input:missing-field", fmt.Sprintf("input field %q is empty: %s needs it", f, c.tool))
		}
	}
}

// contentKeys are the members checkContent reads, the subagent type first.
var contentKeys = [...]string{"subagent_type", "agent", "name"}

// checkFieldCase denies a member whose name differs from a field the checks
// read only in letter case ("FILE_PATH", "ſubagent_type"): encoding/json
// matches struct fields without regard to case, so a tool written in Go
// would read the member as that field while the checks would not see it.
func (c *content) checkFieldCase(fields []member) {
	t := &c.traits
	declared := [...][]string{t.PathFields, t.GlobFields, t.FilterFields, t.FileTypeFields, t.URLFields, t.DomainFields, t.CommandFields, {t.WorkdirField}}
	// The members checkContent reads matter to a subagent tool without
	// declared fields (its type is what Task(type) rules match, and the
	// subagent runner decodes it with encoding/json). Other tools' inputs
	// (MCP tools, say) may well have a "Name" beside nothing else: not
	// refused.
	matchContent := t.Kind == permission.KindSubagent &&
		len(t.PathFields)+len(t.GlobFields)+len(t.URLFields)+len(t.DomainFields)+len(t.CommandFields) == 0
	for _, m := range fields {
		for _, list := range declared {
			for _, f := range list {
				if f != "" && string(m.key) != f && strings.EqualFold(string(m.key), f) {
					c.fieldCaseDeny(string(m.key), "the declared field", f)
					return
				}
			}
		}
		if !matchContent {
			continue
		}
		for _, f := range contentKeys {
			if string(m.key) != f && strings.EqualFold(string(m.key), f) {
				c.fieldCaseDeny(string(m.key), "the field", f)
				return
			}
		}
	}
}

func (c *content) fieldCaseDeny(key, what, f string) {
	c.guardDeny(permission.LayerTraits, "input:field-case", fmt.Sprintf(
		"input field %q differs from %s %q only in letter case; a tool decoding the input with encoding/json would read it as %q", key, what, f, f))
}

// checkContent checks the rules for the call itself, with what
// "Tool(specifier)" rules of a tool without declared fields match.
//
// A subagent tool runs the type its "subagent_type" names, so that member
// alone decides when it is there: null or "" is the tool's default agent
// (no specifier), any other value that is not a string is a Deny. Without
// it, the tool runs its default agent (Claude Code's general-purpose one),
// so the rules for the tool itself apply, and so do those for what "agent"
// or "name" says, in case the tool reads that instead: the strictest
// answer wins. (In Claude Code's Agent tool "name" names the spawned
// agent, not its type: an allow rule for a type must not be lifted by it.)
// For other tools, each of those members that is a string is matched,
// strictest first.
func (c *content) checkContent(fields []member) {
	req := permission.Request{Tool: c.tool, Group: c.group(), Kind: c.traits.Kind}
	if f := c.traits.SpecifierField; f != "" {
		// The member the tool really reads, and no other: Skill's skill,
		// not a "name" beside it. Absent or null: the rules for the tool
		// itself; not a string: denied by stringField.
		s, ok := c.stringField(fields, f)
		if !ok {
			if v, present := field(fields, f); present && string(v) != "null" {
				return
			}
		}
		req.Content = s
		c.addRules(c.a.rulesFor(&req))
		// The legacy members may still narrow (a deny or ask rule for
		// what "name" says), never widen: only a rule's Deny or Ask is
		// taken from them.
		for _, k := range contentKeys {
			if k == f {
				continue
			}
			if v, ok := field(fields, k); ok && len(v) > 0 && v[0] == '"' {
				if s := decodeStr(v); s != "" {
					req.Content = s
					if r := c.a.rulesFor(&req); r.Decision != permission.Allow && r.Source != permission.SourceDefault {
						c.addRules(r)
					}
				}
			}
		}
		return
	}
	if len(c.traits.URLFields)+len(c.traits.DomainFields)+len(c.traits.PathFields)+len(c.traits.GlobFields) > 0 {
		// A tool with declared fields matched none of them to a rule
		// (WebSearch without allowed_domains): the rules for the tool
		// itself, never a member it does not read.
		c.addRules(c.a.rulesFor(&req))
		return
	}
	subagent := c.traits.Kind == permission.KindSubagent
	if subagent {
		if m := memberOf(fields, contentKeys[0]); m != nil {
			s, ok := c.stringField(fields, contentKeys[0])
			if !ok && string(m.val) != "null" {
				return // not a string: denied
			}
			req.Content = s
			c.addRules(c.a.rulesFor(&req))
			return
		}
		c.addRules(c.a.rulesFor(&req))
	}
	matched := false
	for _, k := range contentKeys {
		// A canonical value is valid JSON: a string when it is quoted.
		if v, ok := field(fields, k); ok && len(v) > 0 && v[0] == '"' {
			if s := decodeStr(v); s != "" {
				req.Content = s
				c.addRules(c.a.rulesFor(&req))
				matched = true
			}
		}
	}
	if !matched && !subagent {
		req.Content = ""
		c.addRules(c.a.rulesFor(&req))
	}
}

// stringField reads a declared field. A declared field that is present but
// not a string is a Deny: the guards cannot see inside it.
func (c *content) stringField(fields []member, f string) (string, bool) {
	m := memberOf(fields, f)
	if m == nil || string(m.val) == "null" {
		return "", false
	}
	if m.decoded {
		return m.str, true // decoded once, by the canonical scan
	}
	raw := m.val
	if n := len(raw); n >= 2 && raw[0] == '"' && raw[n-1] == '"' {
		if bytes.IndexByte(raw, '\\') < 0 {
			// A canonical string without escapes is its own text.
			return string(raw[1 : n-1]), true
		}
		if s, ok := unquoteASCII(raw); ok {
			return s, true
		}
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		c.guardDeny(permission.LayerTraits, "input:field-type", fmt.Sprintf("input field %q must be a string", f))
		return "", false
	}
	return s, true
}

// pathText denies a path or pattern that a tool may read as another one
// and reports whether it may be checked. The checks resolve it as written,
// while a tool may first trim white space from its ends, as Claude Code's
// tools (JavaScript's trim) and Python's strip do, and bring it to Unicode
// normalisation form C, as Claude Code's tools do: " /etc/passwd" would be
// a name in the working directory to the checks and /etc/passwd to the
// tool, and "\u212Aeys" (with the Kelvin sign) is "Keys" in NFC.
func (c *content) pathText(field, p string) bool {
	first, _ := utf8.DecodeRuneInString(p)
	last, _ := utf8.DecodeLastRuneInString(p)
	rule, why := "", ""
	switch {
	case trimmedSpace(first) || trimmedSpace(last):
		rule, why = "input:path-space", "has white space at its start or end, which a tool may trim: write the path without it"
	case !isASCII(p) && !norm.NFC.IsNormalString(p):
		rule, why = "input:path-nfc", "is not in Unicode normalisation form C, to which a tool may bring it: write the path in NFC"
	default:
		return true
	}
	c.insideRoots = false
	// Written with escapes for what is not ASCII, so that a reader sees
	// the characters that differ.
	c.guardDeny(permission.LayerTraits, rule, fmt.Sprintf("%s %+q %s", field, p, why))
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// trimmedSpace reports whether r is white space that a common trim
// removes: Unicode white space (Go's unicode.IsSpace), the byte order mark
// (JavaScript's trim) and the separators U+001C to U+001F (Python's strip).
func trimmedSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return r == ' ' || '\t' <= r && r <= '\r' || 0x1c <= r && r <= 0x1f
	}
	return unicode.IsSpace(r) || r == '\ufeff'
}

// checkPath resolves one path through the sandbox and checks the rules
// against it. It returns the real path, or "" when refused.
func (c *content) checkPath(field, p string, write bool) string {
	return c.checkPathRules(field, p, write, true)
}

// checkPathRules is checkPath; rules says whether path rules apply (not to
// a shell command's working directory: its commands are checked instead).
func (c *content) checkPathRules(field, p string, write, rules bool) string {
	sb := c.a.p.cfg.Sandbox
	if sb == nil {
		c.insideRoots = false
		c.guardDeny(permission.LayerSandbox, "sandbox:none", fmt.Sprintf("%s %q: no sandbox is configured, so no path is allowed", field, p))
		return ""
	}
	req := permission.Request{Tool: c.tool, Group: c.group(), Kind: c.traits.Kind}
	v := c.a.judgePath(sb, req, p, write, false)
	switch v.sandbox.Decision {
	case permission.Deny:
		c.insideRoots = false
		c.add(v.sandbox)
		return ""
	case permission.Ask:
		c.add(v.sandbox)
	}
	if !rules {
		return v.real
	}
	if c.nPaths == 0 {
		c.path0 = v.real
	} else {
		c.paths = append(c.paths, v.real)
	}
	c.nPaths++
	c.addRules(v.rules)
	return v.real
}

// lexicalPath returns p made absolute against wd and cleaned. When that is
// real, clean and absolute, as for most paths, it is found without
// building it.
func lexicalPath(wd, p, real string) string {
	if filepath.IsAbs(p) {
		if p == real {
			return real
		}
	} else if wd != "" && len(real) == len(wd)+1+len(p) && real[len(wd)] == '/' &&
		strings.HasPrefix(real, wd) && strings.HasSuffix(real, p) {
		return real
	} else {
		p = filepath.Join(wd, p)
	}
	return filepath.Clean(p)
}

func sandboxRule(err error) string {
	for _, k := range []struct {
		err  error
		name string
	}{
		{sandbox.ErrOutsideRoots, "outside-roots"}, {sandbox.ErrInvalidPath, "invalid-path"},
		{sandbox.ErrSymlinkLoop, "symlink-loop"}, {sandbox.ErrHomeRef, "home-ref"}, {sandbox.ErrUnresolvable, "unresolvable"},
		{sandbox.ErrForeignProcess, "foreign-process"},
	} {
		if errors.Is(err, k.err) {
			return k.name
		}
	}
	return "refused"
}

func (c *content) checkGlob(field, pattern string) {
	sb := c.a.p.cfg.Sandbox
	if sb == nil {
		c.insideRoots = false
		c.guardDeny(permission.LayerSandbox, "sandbox:none", fmt.Sprintf("%s %q: no sandbox is configured", field, pattern))
		return
	}
	base, _, err := sb.GlobBase(pattern)
	if err != nil {
		c.insideRoots = false
		c.guardDeny(permission.LayerSandbox, "sandbox:"+sandboxRule(err), err.Error())
		return
	}
	c.checkPath(field, base, false)
}

func (c *content) checkURL(field, raw string) {
	u, err := url.Parse(raw)
	if err != nil {
		c.guardDeny(permission.LayerTraits, "input:url", fmt.Sprintf("%s %q is not a URL", field, raw))
		return
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		c.guardDeny(permission.LayerTraits, "input:url-scheme", fmt.Sprintf("%s %q: only http and https URLs are allowed", field, raw))
		return
	}
	if u.Hostname() == "" {
		c.guardDeny(permission.LayerTraits, "input:url", fmt.Sprintf("%s %q has no host", field, raw))
		return
	}
	host, err := canonicalHost(u.Hostname())
	if err != nil {
		c.guardDeny(permission.LayerTraits, "input:url-host", fmt.Sprintf("%s %q: %v", field, raw, err))
		return
	}
	c.checkDomain(host)
	if why := internalHost(host); why != "" && !c.namesHost(host) {
		// The floor: a fetch inside the machine or its network asks,
		// firmly (no mode lifts it), unless a rule names the host.
		c.guardAsk(permission.LayerTraits, "network:internal", fmt.Sprintf("%s %q reaches %s, %s; allow it with a rule naming the host (%s(domain:%s))", field, raw, host, why, c.tool, host), true)
	}
}

func (c *content) checkDomains(fields []member, f string) {
	raw, ok := field(fields, f)
	if !ok || string(raw) == "null" {
		return
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		if one != "" {
			c.checkDomainEntry(f, one)
		}
		return
	}
	var many []string
	if err := json.Unmarshal(raw, &many); err != nil {
		c.guardDeny(permission.LayerTraits, "input:field-type", fmt.Sprintf("input field %q must be a host name or a list of them", f))
		return
	}
	for _, d := range many {
		c.checkDomainEntry(f, d)
	}
}

// checkDomainEntry brings one domain entry to the form domain rules are
// held against, as a URL's host is (see domainEntry), and checks it.
func (c *content) checkDomainEntry(f, entry string) {
	host, err := domainEntry(entry)
	if err != nil {
		c.guardDeny(permission.LayerTraits, "input:domain", fmt.Sprintf("%s entry %+q: %v", f, entry, err))
		return
	}
	if host != "" {
		c.checkDomain(host)
	}
}

func (c *content) checkDomain(host string) {
	c.domains = append(c.domains, host)
	c.addRules(c.a.rulesFor(&permission.Request{Tool: c.tool, Kind: c.traits.Kind, Domain: host}))
}

// namesHost reports whether an allow rule naming the host (domain:host,
// or a wildcard over it), not only a rule for the whole tool, allows it.
func (c *content) namesHost(host string) bool {
	r := c.a.rulesFor(&permission.Request{Tool: c.tool, Kind: c.traits.Kind, Domain: host, Specific: true})
	return r.Decision == permission.Allow && r.Source == permission.SourceAllow
}

// rulesFor checks the rules with the session's rules.
func (a *agent) rulesFor(req *permission.Request) permission.Result {
	return a.p.cfg.Checker.Check(req, a.rules)
}

// alwaysRules are the session rules an "allow always" answer records: for
// a shell call one exact rule per simple command (never a broad prefix),
// for a file tool one rule per real path, for a network tool one per
// domain.
func (c *content) alwaysRules() []string {
	if len(c.commands) > 0 {
		args := make([][]string, 0, len(c.commands))
		for _, cmd := range c.commands {
			if cmd.Decision != permission.Allow {
				args = append(args, cmd.Args)
			}
		}
		rules, err := permission.AllowAlwaysRules(c.tool, args)
		if err != nil {
			return nil
		}
		return rules
	}
	var rules []string
	all := c.paths
	if c.nPaths > 0 {
		all = append([]string{c.path0}, c.paths...)
	}
	for _, p := range all {
		if strings.ContainsAny(p, "*?[]{}\\()") {
			return nil // a rule for this path would be a pattern: offer none
		}
		rules = append(rules, c.tool+"(/"+p+")")
	}
	for _, d := range c.domains {
		rules = append(rules, c.tool+"(domain:"+d+")")
	}
	if len(rules) == 0 && !strings.ContainsAny(c.tool, "*()") {
		rules = append(rules, c.tool)
	}
	return rules
}

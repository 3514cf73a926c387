package content

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/internal/jsonin"
	"github.com/toolgate/toolgate/permission"
)

// inspect checks the input, whose top-level members are fields, against
// the rules and the guards of layers 4 and 5.
func (c *stage) inspect(ctx context.Context, fields []jsonin.Member) {
	t := &c.call
	// The tool's own rules (P1 Deny, P6 Ask).
	for _, r := range t.Rules {
		rule := r.Rule
		if rule == "" {
			rule = ToolRule(c.call.Tool)
		}
		if r.Decision == permission.Ask {
			c.guardAsk(permission.LayerTraits, rule, r.Reason, false)
		} else {
			c.guardDeny(permission.LayerTraits, rule, r.Reason)
		}
	}
	c.InsideRoots = true
	c.checkFieldCase(fields)
	c.checkRequired(fields)
	write := t.Kind != permission.KindRead
	base := ""
	for _, f := range t.PathFields {
		s, ok := c.stringField(fields, f)
		if !ok || s == "" {
			// The tool touches a path of its own choosing, which nobody
			// judged: not inside the roots, as far as a mode knows.
			c.InsideRoots = false
			continue
		}
		if !c.pathText(f, s) {
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
		} else if v, present := jsonin.Field(fields, f); !present || string(v) == "null" {
			c.guardDeny(permission.LayerTraits, RuleMissingField, fmt.Sprintf("input field %q (a shell command) is missing", f))
		}
	}
	if len(c.paths) == 0 {
		// No path was judged (a tool that declares none): nothing says
		// the call stays inside the roots.
		c.InsideRoots = false
	}
	if !shell && !c.hasRules {
		// A call with nothing to look at: the rules for the tool itself.
		c.checkContent(fields)
	}
	if f := t.ServerField; f != "" {
		c.checkServer(fields, f)
	}
	if c.hasRules {
		c.add(c.rules)
	}
}

// checkServer holds the rules for the MCP server that the member f names
// to the call (a resource read of that server): a deny or ask rule for
// the server joins the call's rules, the strictest winning; any rule for
// it answers where the rules for the tool itself said nothing.
// Without the member (or with an empty one) the call reaches every
// server (a listing of all their resources): where a rule denies or asks
// for some server, the call asks, naming the rule and the server, since
// the answer would show what that server holds. Claude Code runs such a
// listing unasked; toolgate may be stricter, never wider.
func (c *stage) checkServer(fields []jsonin.Member, f string) {
	s, ok := c.stringField(fields, f)
	if !ok || s == "" {
		if v, present := jsonin.Field(fields, f); present && string(v) != "null" && !ok {
			return // not a string: stringField denied it
		}
		c.checkEveryServer()
		return
	}
	req := permission.Request{Tool: "mcp__" + mcpServerName(s), Kind: c.call.Kind}
	r := c.j.rulesFor(&req)
	c.joinServerRules(r)
}

// checkEveryServer asks for a call that reaches every MCP server when a
// rule denies or asks for one of them.
func (c *stage) checkEveryServer() {
	r, server, ok := c.j.Checker.ServerRule(c.j.Session)
	if !ok {
		return
	}
	what := "server " + strconv.Quote(server)
	if server == "*" {
		what = "every server"
	}
	verb := "denies"
	if r.Decision == permission.Ask {
		verb = "asks for"
	}
	c.joinServerRules(permission.Result{Decision: permission.Ask, Layer: r.Layer, Source: permission.SourceRuleAsk, Rule: r.Rule,
		Reason: fmt.Sprintf("needs confirmation: the call names no MCP server, so it reaches every one, and rule %s %s %s", r.Rule, verb, what)})
}

// joinServerRules joins the rules' answer for the server the call reaches
// to the call's own.
func (c *stage) joinServerRules(r permission.Result) {
	switch {
	case r.Source == permission.SourceDefault:
	case !c.hasRules:
		c.rules, c.hasRules = r, true
	case c.rules.Source == permission.SourceDefault:
		// A rule for the server answers where no rule for the tool did.
		lose := c.rules
		c.rules = r
		c.rules.Conflicts.Add(permission.Conflict{Decision: lose.Decision, Layer: lose.Layer, Source: lose.Source, Rule: lose.Rule, Reason: lose.Reason})
	case r.Decision != permission.Allow:
		c.addRules(r)
	}
}

// mcpServerName is the server's name as Claude Code writes it in the
// names of the server's tools (mcp__server__tool): every character but
// ASCII letters, digits, '_' and '-' becomes '_'.
func mcpServerName(s string) string {
	b := []byte(s)
	for i, ch := range b {
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '_' || ch == '-') {
			b[i] = '_'
		}
	}
	return string(b)
}

// checkRequired denies a call without one of the fields its tool
// requires: missing, null or an empty string.
func (c *stage) checkRequired(fields []jsonin.Member) {
	for _, f := range c.call.RequiredFields {
		v, present := jsonin.Field(fields, f)
		switch {
		case !present || string(v) == "null":
			c.guardDeny(permission.LayerTraits, RuleMissingField, fmt.Sprintf("input field %q is missing: %s needs it", f, c.call.Tool))
		case string(v) == `""`:
			c.guardDeny(permission.LayerTraits, RuleMissingField, fmt.Sprintf("input field %q is empty: %s needs it", f, c.call.Tool))
		}
	}
}

// contentKeys are the members checkContent reads, the subagent type first.
var contentKeys = [...]string{"subagent_type", "agent", "name"}

// checkFieldCase denies a member whose name differs from a field the checks
// read only in letter case ("FILE_PATH", "ſubagent_type"): encoding/json
// matches struct fields without regard to case, so a tool written in Go
// would read the member as that field while the checks would not see it.
func (c *stage) checkFieldCase(fields []jsonin.Member) {
	t := &c.call
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
				if f != "" && string(m.Key) != f && strings.EqualFold(string(m.Key), f) {
					c.fieldCaseDeny(string(m.Key), "the declared field", f)
					return
				}
			}
		}
		// The member "Tool(specifier)" rules match (Skill's skill): a
		// variant of it would run what no rule was asked about.
		if f := t.SpecifierField; f != "" && string(m.Key) != f && strings.EqualFold(string(m.Key), f) {
			c.fieldCaseDeny(string(m.Key), "the field", f)
			return
		}
		if !matchContent {
			continue
		}
		for _, f := range contentKeys {
			if string(m.Key) != f && strings.EqualFold(string(m.Key), f) {
				c.fieldCaseDeny(string(m.Key), "the field", f)
				return
			}
		}
	}
}

func (c *stage) fieldCaseDeny(key, what, f string) {
	c.guardDeny(permission.LayerTraits, RuleFieldCase, fmt.Sprintf(
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
func (c *stage) checkContent(fields []jsonin.Member) {
	req := permission.Request{Tool: c.call.Tool, Group: c.group(), Kind: c.call.Kind}
	if f := c.call.SpecifierField; f != "" {
		// The member the tool really reads, and no other: Skill's skill,
		// not a "name" beside it. Absent or null: the rules for the tool
		// itself; not a string: denied by stringField.
		s, ok := c.stringField(fields, f)
		if !ok {
			if v, present := jsonin.Field(fields, f); present && string(v) != "null" {
				return
			}
		}
		req.Content = s
		c.addRules(c.j.rulesFor(&req))
		// The legacy members may still narrow (a deny or ask rule for
		// what "name" says), never widen: only a rule's Deny or Ask is
		// taken from them.
		for _, k := range contentKeys {
			if k == f {
				continue
			}
			if v, ok := jsonin.Field(fields, k); ok && len(v) > 0 && v[0] == '"' {
				if s := jsonin.DecodeString(v); s != "" {
					req.Content = s
					if r := c.j.rulesFor(&req); r.Decision != permission.Allow && r.Source != permission.SourceDefault {
						c.addRules(r)
					}
				}
			}
		}
		return
	}
	if len(c.call.URLFields)+len(c.call.DomainFields)+len(c.call.PathFields)+len(c.call.GlobFields) > 0 {
		// A tool with declared fields matched none of them to a rule
		// (WebSearch without allowed_domains): the rules for the tool
		// itself, never a member it does not read.
		c.addRules(c.j.rulesFor(&req))
		return
	}
	subagent := c.call.Kind == permission.KindSubagent
	if subagent {
		if m := jsonin.MemberOf(fields, contentKeys[0]); m != nil {
			s, ok := c.stringField(fields, contentKeys[0])
			if !ok && string(m.Val) != "null" {
				return // not a string: denied
			}
			req.Content = s
			c.addRules(c.j.rulesFor(&req))
			return
		}
		c.addRules(c.j.rulesFor(&req))
	}
	matched := false
	for _, k := range contentKeys {
		// A canonical value is valid JSON: a string when it is quoted.
		if v, ok := jsonin.Field(fields, k); ok && len(v) > 0 && v[0] == '"' {
			if s := jsonin.DecodeString(v); s != "" {
				req.Content = s
				c.addRules(c.j.rulesFor(&req))
				matched = true
			}
		}
	}
	if !matched && !subagent {
		req.Content = ""
		c.addRules(c.j.rulesFor(&req))
	}
}

// stringField reads a declared field. A declared field that is present but
// not a string is a Deny: the guards cannot see inside it.
func (c *stage) stringField(fields []jsonin.Member, f string) (string, bool) {
	m := jsonin.MemberOf(fields, f)
	if m == nil || string(m.Val) == "null" {
		return "", false
	}
	if m.Decoded {
		return m.Str, true // decoded once, by the canonical scan
	}
	raw := m.Val
	if n := len(raw); n >= 2 && raw[0] == '"' && raw[n-1] == '"' {
		if bytes.IndexByte(raw, '\\') < 0 {
			// A canonical string without escapes is its own text.
			return string(raw[1 : n-1]), true
		}
		if s, ok := jsonin.UnquoteASCII(raw); ok {
			return s, true
		}
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		c.guardDeny(permission.LayerTraits, RuleFieldType, fmt.Sprintf("input field %q must be a string", f))
		return "", false
	}
	return s, true
}

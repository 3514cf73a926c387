package permission

import "strings"

// ServerRule returns the first rule, in precedence order (configuration
// deny, session deny, configuration ask, session ask), that denies or
// asks for a whole MCP server: "mcp__docs" (and the server-wide patterns
// "mcp__docs__*" and "mcp__*"), from the configuration or the session's
// rules (s may be nil). A call that reaches every server at once — a
// listing of all their resources — reaches that one too. The Result
// carries the rule's own decision, source and text; server is the
// server's name as the rule writes it ("*" for every server). ok is
// false when no such rule exists.
//
// Its cost is linear in the number of rules; it is for the rare call that
// names no server, not for the hot path.
func (c *Checker) ServerRule(s *SessionRules) (r Result, server string, ok bool) {
	if c == nil || c.rules == nil {
		return Result{}, "", false
	}
	var conf, sess firstMatches
	serverRules(c.rules, &conf)
	for ; s != nil; s = s.parent {
		serverRules(s.load(), &sess)
	}
	for _, cr := range [...]*compiledRule{conf[Deny], sess[Deny], conf[Ask], sess[Ask]} {
		if cr != nil {
			name, _ := serverOf(cr)
			return Result{Decision: cr.decision, Layer: LayerRules, Source: cr.source, Rule: RuleID(cr.text), Reason: cr.reason}, name, true
		}
	}
	return Result{}, "", false
}

// serverRules notes, per decision, the first deny or ask rule of s that
// names a whole MCP server.
func serverRules(s *ruleSet, f *firstMatches) {
	if s == nil {
		return
	}
	for _, r := range s.rules {
		if r.decision == Allow || r.kind != specNone {
			continue
		}
		if _, ok := serverOf(r); ok {
			f.consider(r)
		}
	}
}

// serverOf is the MCP server a rule names as a whole: "docs" for
// "mcp__docs" and "mcp__docs__*", "*" for "mcp__*". A rule for one tool
// of a server ("mcp__docs__search") names none.
func serverOf(r *compiledRule) (string, bool) {
	rest, ok := strings.CutPrefix(r.tool, "mcp__")
	if !ok || rest == "" {
		return "", false
	}
	if !r.toolGlob {
		return rest, !strings.Contains(rest, "__")
	}
	if rest == "*" {
		return "*", true
	}
	name, ok := strings.CutSuffix(rest, "__*")
	return name, ok && name != "" && !strings.ContainsAny(name, "*") && !strings.Contains(name, "__")
}

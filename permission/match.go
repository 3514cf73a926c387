package permission

import "strings"

// matches reports whether the compiled rule applies to req. It does not
// allocate. name is the command name to match shell rules with (argv[0] or,
// for deny and ask rules, its base name).
func (r *compiledRule) matches(req *Request, name string) bool {
	if r.toolGlob && !matchStar(r.tool, req.Tool) && (req.Group == "" || !matchStar(r.tool, req.Group)) {
		return false
	}
	switch r.kind {
	case specNone:
		return !req.Specific
	case specShell:
		if len(req.Command) == 0 {
			return false
		}
		return r.shell.matchArgv(name, req.Command[1:])
	case specPath:
		return req.Path != "" && r.path.match(req.Path)
	case specDomain:
		// "domain:*" names no host: it is a rule for the whole tool,
		// which a floor asking for a rule naming the host leaves out.
		return req.Domain != "" && r.domain.match(req.Domain) && !(r.domain.any && req.Specific)
	case specContent:
		return req.Content != "" && r.matchContent(req.Content)
	}
	return false
}

// firstMatches holds, per decision, the first rule (in rule order) that
// matched.
type firstMatches [3]*compiledRule

func (f *firstMatches) consider(r *compiledRule) {
	if cur := f[r.decision]; cur == nil || r.index < cur.index {
		f[r.decision] = r
	}
}

// scan finds the first matching rule of each decision in s.
func (s *ruleSet) scan(req *Request, f *firstMatches) {
	if s == nil || len(s.rules) == 0 {
		return
	}
	if t := s.exact[req.Tool]; t != nil {
		t.scan(req, f)
	}
	if req.Group != "" && req.Group != req.Tool {
		if t := s.exact[req.Group]; t != nil {
			t.scan(req, f)
		}
	}
	if len(s.globs) > 0 {
		s.scanGlobs(req.Tool, req, f)
		if req.Group != "" && req.Group != req.Tool {
			s.scanGlobs(req.Group, req, f)
		}
	}
	if strings.HasPrefix(req.Tool, "mcp__") {
		s.scanServer(req, f)
	}
}

// scanServer applies rules that name a whole MCP server ("mcp__github")
// to each of its tools ("mcp__github__create_issue"), as Claude Code does.
// A server whose name Claude Code wrote with '_' for characters a name
// may not hold can end or start in '_', so "mcp__a___b" may be server
// "a" or "a_": deny and ask rules of either apply, while an allow rule
// applies only where the split is certain (no '_' beside the "__"), so
// that one server's allow never lifts another's tools.
func (s *ruleSet) scanServer(req *Request, f *firstMatches) {
	name := req.Tool
	for i := len("mcp__") + 1; i+2 < len(name); i++ {
		if name[i] != '_' || name[i+1] != '_' {
			continue
		}
		t := s.exact[name[:i]]
		if t == nil {
			continue
		}
		certain := name[i-1] != '_' && name[i+2] != '_'
		for _, r := range t.general {
			if r.kind == specNone && (certain || r.decision != Allow) && !f.done(r) {
				f.consider(r)
			}
		}
	}
}

// scanGlobs scans the name-pattern rules that can match name: those filed
// under "" and under each prefix of name that ends in "__". In a run of
// three or more underscores ("mcp__foo___bar", where Claude Code replaced
// a character of the server's name) every prefix ending in two of them is
// one ("mcp__foo__" and "mcp__foo___"), since a pattern's key may end at
// either.
func (s *ruleSet) scanGlobs(name string, req *Request, f *firstMatches) {
	if t := s.anyTool; t != nil {
		t.scan(req, f)
	}
	for i := 0; i+2 <= len(name); i++ {
		if name[i] == '_' && name[i+1] == '_' {
			if t := s.globs[name[:i+2]]; t != nil {
				t.scan(req, f)
			}
		}
	}
}

func (t *toolRules) scan(req *Request, f *firstMatches) {
	var name string
	if len(req.Command) > 0 {
		name = req.Command[0]
	}
	for _, r := range t.general {
		if !f.done(r) && (r.matches(req, name) || r.matchesBase(req)) {
			f.consider(r)
		}
	}
	if req.Path != "" && t.byDir != nil {
		// Look up the path and each of its ancestors: substrings of
		// req.Path, so nothing is allocated.
		p := req.Path
		for {
			if n := min(len(p), 255); t.dirLens[n/64]&(1<<(n%64)) != 0 {
				scanList(t.byDir[p], req, name, f)
			}
			if p == "/" || p == "" {
				break
			}
			i := strings.LastIndexByte(p, '/')
			if i <= 0 {
				p = "/"
			} else {
				p = p[:i]
			}
		}
	}
	if req.Domain != "" && t.byHost != nil {
		t.scanHost(req, name, f)
	}
	if len(req.Command) == 0 || t.byFirst == nil {
		return
	}
	scanWords(t.byFirst[name], req, name, false, f)
	if base := baseName(name); base != name {
		// A deny or ask rule for "rm" also covers "/bin/rm". An allow rule
		// for "rm" does not cover "/tmp/x/rm": only deny and ask widen.
		scanWords(t.byFirst[base], req, base, true, f)
	}
}

// scanWords tries the rules filed under the command's literal words,
// from its name down, skipping allow rules when widen is set.
func scanWords(n *wordNode, req *Request, name string, widen bool, f *firstMatches) {
	args := req.Command[1:]
	for n != nil {
		for _, r := range n.rules {
			if (!widen || r.decision != Allow) && !f.done(r) && r.matches(req, name) {
				f.consider(r)
			}
		}
		if len(args) == 0 {
			return
		}
		n, args = n.next[args[0]], args[1:]
	}
}

func scanList(list []*compiledRule, req *Request, name string, f *firstMatches) {
	for _, r := range list {
		if !f.done(r) && r.matches(req, name) {
			f.consider(r)
		}
	}
}

// done reports that a rule earlier than r already matched for r's decision.
func (f *firstMatches) done(r *compiledRule) bool {
	cur := f[r.decision]
	return cur != nil && cur.index < r.index
}

// matchesBase tries a deny or ask shell rule against the base name of a
// command given by path.
func (r *compiledRule) matchesBase(req *Request) bool {
	if r.kind != specShell || r.decision == Allow || len(req.Command) == 0 {
		return false
	}
	base := baseName(req.Command[0])
	return base != req.Command[0] && r.matches(req, base)
}

func baseName(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 && i < len(s)-1 {
		return s[i+1:]
	}
	return s
}

// scanHost scans the domain rules filed under the host and under each of
// its dot suffixes. A host with upper-case letters cannot be looked up by
// key, so every domain rule is scanned: a lookup miss must never skip a
// Deny.
func (t *toolRules) scanHost(req *Request, name string, f *firstMatches) {
	h := strings.TrimRight(req.Domain, ".")
	for i := 0; i < len(h); i++ {
		if c := h[i]; c >= 'A' && c <= 'Z' {
			for _, list := range t.byHost {
				scanList(list, req, name, f)
			}
			return
		}
	}
	scanList(t.byHost[h], req, name, f)
	for i := 0; i < len(h); i++ {
		if h[i] == '.' {
			scanList(t.byHost[h[i:]], req, name, f)
		}
	}
}

// matchContent matches a content specifier (a subagent type, a skill, a
// slash command). "x:*" matches x alone or followed by a space or ':'
// and anything. A deny or ask rule also holds for the same content
// followed by arguments ("/nuke" for "/nuke now"): it only narrows.
func (r *compiledRule) matchContent(c string) bool {
	if r.contentPrefix {
		return c == r.content || strings.HasPrefix(c, r.content) && (c[len(r.content)] == ' ' || c[len(r.content)] == ':')
	}
	if matchStar(r.content, c) {
		return true
	}
	if r.decision != Allow {
		if i := strings.IndexByte(c, ' '); i > 0 {
			return matchStar(r.content, c[:i])
		}
	}
	return false
}

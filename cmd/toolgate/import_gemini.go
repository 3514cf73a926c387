package main

import (
	"bytes"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/toolgate/toolgate/permission"
)

// Gemini CLI's policy files (TOML, packages/core/src/policy/toml-loader.ts):
// [[rule]] tables naming a tool (toolName, a string or a list; mcpName
// for an MCP server), optionally narrowed by commandPrefix, commandRegex
// or argsPattern, with a decision (allow, deny, ask_user) and a
// priority: the matching rule of highest priority decides. A rule
// becomes one toolgate rule per tool and prefix, the tool named as
// toolgate judges Gemini's (the geminiTools table of host_gemini.go).
// What toolgate cannot say is a warning: argsPattern, a commandRegex that
// is not a plain prefix, modes and interactive, safety checkers, a deny
// message, and a priority order that toolgate's deny-beats-ask-beats-
// allow would reverse.
//
// The TOML is read by github.com/BurntSushi/toml: a full TOML 1.0 reader
// without dependencies of its own, whose metadata names every key the
// importer did not read, so that an unknown key is a warning instead of
// being dropped in silence.

// geminiDecisions maps Gemini's decisions to toolgate's.
var geminiDecisions = map[string]permission.Decision{
	"allow":    permission.Allow,
	"ask_user": permission.Ask,
	"deny":     permission.Deny,
}

// geminiPolicyFile is the part of a policy file the importer reads.
type geminiPolicyFile struct {
	Rule          []geminiPolicyRule `toml:"rule"`
	SafetyChecker []map[string]any   `toml:"safety_checker"`
}

// geminiPolicyRule is one [[rule]] table.
type geminiPolicyRule struct {
	Name             string         `toml:"name"`
	ToolName         any            `toml:"toolName"`
	MCPName          string         `toml:"mcpName"`
	Subagent         string         `toml:"subagent"`
	ArgsPattern      *string        `toml:"argsPattern"`
	CommandPrefix    any            `toml:"commandPrefix"`
	CommandRegex     *string        `toml:"commandRegex"`
	Decision         string         `toml:"decision"`
	Priority         int64          `toml:"priority"`
	Modes            []string       `toml:"modes"`
	Interactive      *bool          `toml:"interactive"`
	ToolAnnotations  map[string]any `toml:"toolAnnotations"`
	AllowRedirection *bool          `toml:"allowRedirection"`
	AllowRedirect2   *bool          `toml:"allow_redirection"`
	DenyMessage      string         `toml:"denyMessage"`
	DenyMessage2     string         `toml:"deny_message"`
	SafetyChecker    map[string]any `toml:"safety_checker"`
}

// geminiImported is a translated rule with its priority, for the check
// of priority order across every file of one import.
type geminiImported struct {
	importedRule
	priority int64
}

// importGemini translates one policy file.
func importGemini(file string, data []byte, r *importResult) error {
	var pf geminiPolicyFile
	md, err := toml.Decode(string(data), &pf)
	if err != nil {
		return err
	}
	ruleLines := tableLines(data, "[[rule]]")
	checkerLines := tableLines(data, "[[safety_checker]]")
	seen := map[string]bool{}
	for _, k := range md.Undecoded() {
		switch {
		case k[0] != "rule" && k[0] != "safety_checker":
			if !seen[k[0]] {
				seen[k[0]] = true
				r.source(file, keyLine(data, k[0]))
				r.warn(file, keyLine(data, k[0]), "%q is not a policy rule Gemini CLI's loader reads, and is not translated", k[0])
			}
		case k[0] == "rule" && len(k) == 2 && !seen[k.String()]:
			seen[k.String()] = true
			r.warn(file, keyLine(data, k[1]), "rule key %q is not one Gemini CLI's loader reads, and is not translated", k[1])
		}
	}
	for i, rule := range pf.Rule {
		line := 0
		if i < len(ruleLines) {
			line = ruleLines[i]
		}
		r.source(file, line)
		geminiRule(file, line, rule, r)
	}
	for i := range pf.SafetyChecker {
		line := 0
		if i < len(checkerLines) {
			line = checkerLines[i]
		}
		r.source(file, line)
		r.warn(file, line, "safety_checker is not translated: toolgate runs no Gemini CLI checker (its own path judge and shell guard hold for every tool)")
	}
	return nil
}

// geminiRule translates one [[rule]].
func geminiRule(file string, line int, rule geminiPolicyRule, r *importResult) {
	skip := func(format string, args ...any) {
		r.warn(file, line, "rule not translated: "+format, args...)
	}
	d, ok := geminiDecisions[rule.Decision]
	if !ok {
		skip("decision %q is not allow, deny or ask_user", rule.Decision)
		return
	}
	tools, ok := stringOrList(rule.ToolName)
	if !ok || len(tools) == 0 {
		skip("toolName must be a string or a list of strings")
		return
	}
	switch {
	case rule.ArgsPattern != nil:
		skip("argsPattern %q is a regular expression over the call's JSON arguments, which toolgate's rules do not match", *rule.ArgsPattern)
		return
	case rule.Subagent != "":
		skip("subagent %q: toolgate's rules do not name the subagent that calls", rule.Subagent)
		return
	case rule.ToolAnnotations != nil:
		skip("toolAnnotations: toolgate's rules do not match an MCP tool's annotations")
		return
	case len(rule.Modes) > 0 && !slices.Contains(rule.Modes, "default"):
		skip("it holds only in Gemini CLI's modes %s, and toolgate's rules hold in every mode", strings.Join(rule.Modes, ", "))
		return
	case rule.Interactive != nil && !*rule.Interactive:
		skip("interactive = false: it holds only in headless runs, and toolgate's rules hold in both")
		return
	}
	var specs []string
	if rule.CommandPrefix != nil || rule.CommandRegex != nil {
		if len(tools) != 1 || tools[0] != "run_shell_command" {
			skip("commandPrefix and commandRegex need toolName = \"run_shell_command\"")
			return
		}
		prefixes, ok := stringOrList(rule.CommandPrefix)
		if rule.CommandPrefix != nil && !ok {
			skip("commandPrefix must be a string or a list of strings")
			return
		}
		if rule.CommandRegex != nil {
			p, ok := literalPrefix(*rule.CommandRegex)
			if !ok {
				skip("commandRegex %q is not a plain prefix, and toolgate's rules match words, not regular expressions", *rule.CommandRegex)
				return
			}
			s, why := regexRule(p)
			if s == "" {
				skip("commandRegex %q: %s", *rule.CommandRegex, why)
				return
			}
			specs = append(specs, s)
		}
		for _, p := range prefixes {
			s, why := shellRule(strings.Fields(p))
			if s == "" {
				skip("commandPrefix %q: %s", p, why)
				return
			}
			specs = append(specs, s)
		}
	}
	var names []string
	for _, t := range tools {
		name, why := geminiRuleTool(t, rule.MCPName)
		switch {
		case name == "" && len(tools) == 1:
			skip("%s", why)
		case name == "":
			r.warn(file, line, "part of the rule not translated: %s", why)
		case !slices.Contains(names, name):
			names = append(names, name)
		}
	}
	also := geminiAlsoCovered(tools)
	for _, name := range names {
		if len(also[name]) > 0 {
			r.warn(file, line, "the rule for %s holds %s too: toolgate judges them all as %s", strings.Join(geminiNamesOf(tools, name), ", "), strings.Join(also[name], ", "), name)
		}
	}
	if len(names) == 0 {
		return
	}
	if len(rule.Modes) > 0 {
		r.warn(file, line, "modes %s dropped: the translated rule holds in every mode", strings.Join(rule.Modes, ", "))
	}
	if rule.Interactive != nil {
		r.warn(file, line, "interactive = true dropped: the translated rule holds in headless runs too")
	}
	if rule.AllowRedirection != nil || rule.AllowRedirect2 != nil {
		r.warn(file, line, "allowRedirection dropped: toolgate judges every redirection's file through its path rules")
	}
	if msg := rule.DenyMessage + rule.DenyMessage2; msg != "" {
		r.warn(file, line, "denyMessage %q is not carried: toolgate's reason names the rule, not this text", msg)
	}
	if rule.SafetyChecker != nil {
		r.warn(file, line, "safety_checker dropped: toolgate runs no Gemini CLI checker")
	}
	for _, name := range names {
		if specs == nil {
			r.add(d, name, file, line)
			r.priorities = append(r.priorities, rule.Priority)
			continue
		}
		for _, s := range specs {
			r.add(d, s, file, line)
			r.priorities = append(r.priorities, rule.Priority)
		}
	}
}

// geminiRuleTool is the toolgate tool name of Gemini's tool name t (with
// the rule's mcpName), or "" and why it has none; a second result with a
// name is a warning that the name covers more than t.
func geminiRuleTool(t, mcpName string) (string, string) {
	if mcpName != "" {
		server := mcpName
		if t == "*" || t == "" {
			if server == "*" {
				return "mcp__*", ""
			}
			return "mcp__" + server, ""
		}
		return "mcp__" + server + "__" + t, ""
	}
	if t == "*" {
		return "*", ""
	}
	if server, tool, ok := strings.Cut(t, "__"); ok && server != "" && tool != "" {
		return "mcp__" + server + "__" + tool, ""
	}
	if rest, ok := strings.CutPrefix(t, "mcp_"); ok {
		server, tool, ok := strings.Cut(rest, "_")
		if !ok || strings.Contains(tool, "_") || strings.Contains(server, "*") {
			return "", fmt.Sprintf("tool %q: where Gemini's mcp_<server>_<tool> splits is ambiguous; write mcpName", t)
		}
		return "mcp__" + server + "__" + tool, ""
	}
	row, ok := geminiToolByName(t)
	if !ok {
		return "", fmt.Sprintf("tool %q is not one toolgate judges for Gemini CLI (toolgate check denies it whatever the rules say)", t)
	}
	return row.Claude, ""
}

// geminiAlsoCovered lists the Gemini tools, not among tools, that are
// judged as the same toolgate tool as one of tools: a rule for one holds
// them too.
func geminiAlsoCovered(tools []string) map[string][]string {
	out := map[string][]string{}
	for _, t := range tools {
		row, ok := geminiToolByName(t)
		if !ok {
			continue
		}
		for _, o := range geminiTools {
			if o.Claude == row.Claude && !slices.Contains(tools, o.Gemini) && !slices.Contains(out[row.Claude], o.Gemini) {
				out[row.Claude] = append(out[row.Claude], o.Gemini)
			}
		}
	}
	return out
}

// geminiPriorityWarnings names every translated rule whose order
// against another Gemini CLI decides by priority the other way round
// from toolgate: a rule of higher priority with a weaker decision (allow
// over ask or deny, ask over deny) that covers calls the other covers
// too. One warning per rule names the first such other rule.
func geminiPriorityWarnings(r *importResult) {
	if len(r.priorities) != len(r.Rules) {
		return // not Gemini's rules: they carry no priority
	}
	strength := map[permission.Decision]int{permission.Allow: 0, permission.Ask: 1, permission.Deny: 2}
	parsed := make([]permission.Rule, len(r.Rules))
	for i, ir := range r.Rules {
		parsed[i], _ = permission.ParseRule(ir.Rule)
	}
	for i, hi := range r.Rules {
		first, more := -1, 0
		for j, lo := range r.Rules {
			if r.priorities[i] <= r.priorities[j] || strength[hi.Decision] >= strength[lo.Decision] || !rulesOverlap(parsed[i], parsed[j]) {
				continue
			}
			if first < 0 {
				first = j
			} else {
				more++
			}
		}
		if first < 0 {
			continue
		}
		lo := r.Rules[first]
		also := ""
		if more > 0 {
			also = fmt.Sprintf(" and %d more", more)
		}
		r.warn(hi.File, hi.Line, "priority %d %s %s is overridden in toolgate by the %s %s (%s:%d, priority %d)%s: Gemini CLI lets the higher priority decide, toolgate's deny beats ask beats allow",
			r.priorities[i], hi.Decision, hi.Rule, lo.Decision, lo.Rule, lo.File, lo.Line, r.priorities[first], also)
	}
}

// rulesOverlap reports whether some call could match both rules: their
// tools overlap, and a specifier of one is empty or its words begin the
// other's (up to a word with a wildcard, where they may).
func rulesOverlap(a, b permission.Rule) bool {
	if !a.CoversTool(b.Tool) && !b.CoversTool(a.Tool) {
		return false
	}
	if a.Specifier == "" || b.Specifier == "" {
		return true
	}
	wa := strings.Fields(strings.TrimSuffix(a.Specifier, ":*"))
	wb := strings.Fields(strings.TrimSuffix(b.Specifier, ":*"))
	for k := range min(len(wa), len(wb)) {
		if strings.Contains(wa[k], "*") || strings.Contains(wb[k], "*") {
			return true // a wildcard may match the rest: say they overlap
		}
		if wa[k] != wb[k] {
			return false
		}
	}
	return true
}

// literalPrefix reports whether re, matched as Gemini matches a
// commandRegex (at the start of the command), is a plain prefix: a
// literal, optionally followed by .* .
func literalPrefix(re string) (string, bool) {
	re = strings.TrimPrefix(re, "^")
	re = strings.TrimSuffix(re, ".*")
	p, err := syntax.Parse(re, syntax.Perl)
	if err != nil {
		return "", false
	}
	p = p.Simplify()
	if p.Op != syntax.OpLiteral || p.Flags&syntax.FoldCase != 0 {
		return "", false
	}
	s := string(p.Rune)
	if _, err := regexp.Compile(regexp.QuoteMeta(s)); err != nil || strings.TrimSpace(s) == "" {
		return "", false
	}
	return s, true
}

// regexRule is the Bash rule for a command that begins with the
// characters p, as a commandRegex that is a literal matches: the prefix
// need not end at a word boundary, so the last word ends in '*'
// (Bash(npm test*) matches "npm tests" and "npm test -v").
func regexRule(p string) (string, string) {
	words := strings.Fields(p)
	for _, w := range words {
		if !plainWord(w) {
			return "", fmt.Sprintf("the word %q is not a plain word", w)
		}
	}
	if strings.TrimRight(p, " \t") != p {
		return shellRule(words)
	}
	rule := "Bash(" + strings.Join(words, " ") + "*)"
	if _, err := permission.ParseRule(rule); err != nil {
		return "", err.Error()
	}
	return rule, ""
}

// stringOrList reads a TOML value that is a string or a list of strings.
func stringOrList(v any) ([]string, bool) {
	switch v := v.(type) {
	case nil:
		return nil, true
	case string:
		return []string{v}, true
	case []any:
		var out []string
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	return nil, false
}

// tableLines is the line of each header of an array of tables (such as
// "[[rule]]") in data, in order.
func tableLines(data []byte, header string) []int {
	var lines []int
	for i, l := range bytes.Split(data, []byte("\n")) {
		if strings.ReplaceAll(string(bytes.TrimSpace(l)), " ", "") == header {
			lines = append(lines, i+1)
		}
	}
	return lines
}

// keyLine is the line where the top-level key or table k begins, or 0.
func keyLine(data []byte, k string) int {
	for i, l := range bytes.Split(data, []byte("\n")) {
		t := strings.ReplaceAll(string(bytes.TrimSpace(l)), " ", "")
		if strings.HasPrefix(t, "[["+k+"]]") || strings.HasPrefix(t, "["+k+"]") || strings.HasPrefix(t, "["+k+".") || strings.HasPrefix(t, k+"=") {
			return i + 1
		}
	}
	return 0
}

// geminiNamesOf lists those of tools that toolgate judges as claude.
func geminiNamesOf(tools []string, claude string) []string {
	var out []string
	for _, t := range tools {
		if row, ok := geminiToolByName(t); ok && row.Claude == claude {
			out = append(out, t)
		}
	}
	return out
}

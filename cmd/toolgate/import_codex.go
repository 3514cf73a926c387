package main

import (
	"fmt"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// Codex CLI's execpolicy rules (.rules files, codex-rs/execpolicy):
// Starlark that calls prefix_rule, network_rule and host_executable.
// A prefix_rule's pattern is a list of words, each a string or a list of
// alternatives; it matches a command whose words begin with one choice
// of each. Every matching rule counts and the strictest decision wins
// (forbidden, then prompt, then allow), as toolgate's deny beats ask
// beats allow, so a prefix_rule is one Bash(w1 w2:*) rule per choice of
// words, in the list its decision names.
//
// The files are read by a small reader of the part of Starlark the rules
// are written in: calls at the top level whose arguments are strings,
// lists, None, True and False. A file that uses more of the language
// (variables, loops, functions, f-strings) is refused with the line,
// never guessed at: toolgate takes no Starlark interpreter into its
// module for a format that, as Codex documents it, is calls of literals.

// codexDecisions maps execpolicy's decisions to toolgate's.
var codexDecisions = map[string]permission.Decision{
	"allow":     permission.Allow,
	"prompt":    permission.Ask,
	"forbidden": permission.Deny,
}

// codexMaxChoices bounds the rules one prefix_rule may become.
const codexMaxChoices = 256

// codexParams are the parameters of each function a .rules file calls,
// in positional order.
var codexParams = map[string][]string{
	"prefix_rule":     {"pattern", "decision", "match", "not_match", "justification"},
	"network_rule":    {"host", "protocol", "decision", "justification"},
	"host_executable": {"name", "paths"},
}

// importCodex translates one .rules file.
func importCodex(file string, data []byte, r *importResult) error {
	calls, err := parseStarlarkCalls(string(data))
	if err != nil {
		return err
	}
	for _, c := range calls {
		args, err := c.bind(codexParams[c.name])
		if err != nil {
			return err
		}
		r.source(file, c.line)
		switch c.name {
		case "prefix_rule":
			if err := codexPrefixRule(file, c.line, args, r); err != nil {
				return err
			}
		case "network_rule":
			host, _ := args["host"].text()
			r.warn(file, c.line, "network_rule for %q is not translated: it is Codex's sandbox network proxy; toolgate's WebFetch(domain:%s) rules judge only the WebFetch tool", host, host)
		case "host_executable":
			name, _ := args["name"].text()
			r.warn(file, c.line, "host_executable %q is not translated: toolgate's deny and ask rules for %s hold whatever path runs it, its allow rules only the bare name", name, name)
		}
	}
	return nil
}

func codexPrefixRule(file string, line int, args map[string]starValue, r *importResult) error {
	pat, ok := args["pattern"]
	if !ok || pat.list == nil || len(pat.list) == 0 {
		return fmt.Errorf("line %d: prefix_rule needs a non-empty pattern list", line)
	}
	decision := permission.Allow
	if v, ok := args["decision"]; ok && !v.isNone() {
		s, ok := v.text()
		d, known := codexDecisions[s]
		if !ok || !known {
			return fmt.Errorf("line %d: decision must be allow, prompt or forbidden", line)
		}
		decision = d
	}
	var alts [][]string
	total := 1
	for _, el := range pat.list {
		var choice []string
		if s, ok := el.text(); ok {
			choice = []string{s}
		} else if el.list != nil {
			for _, a := range el.list {
				s, ok := a.text()
				if !ok {
					return fmt.Errorf("line %d: a pattern alternative must be a string", a.line)
				}
				choice = append(choice, s)
			}
		}
		if len(choice) == 0 {
			return fmt.Errorf("line %d: a pattern element must be a string or a non-empty list of strings", el.line)
		}
		alts = append(alts, choice)
		total *= len(choice)
		if total > codexMaxChoices {
			r.warn(file, line, "prefix_rule not translated: its pattern has more than %d choices of words", codexMaxChoices)
			return nil
		}
	}
	var rules []string
	for _, words := range product(alts) {
		rule, why := shellRule(words)
		if rule == "" {
			r.warn(file, line, "prefix_rule %q not translated: %s", strings.Join(words, " "), why)
			return nil
		}
		rules = append(rules, rule)
	}
	for _, rule := range rules {
		r.add(decision, rule, file, line)
	}
	if v, ok := args["justification"]; ok && !v.isNone() {
		r.warn(file, line, "justification of %s is not carried: toolgate's reason names the rule, not this text", rules[0])
	}
	for _, ex := range []struct {
		param string
		want  bool
	}{{"match", true}, {"not_match", false}} {
		v, ok := args[ex.param]
		if !ok || v.isNone() {
			continue
		}
		if v.list == nil {
			return fmt.Errorf("line %d: %s must be a list of examples", line, ex.param)
		}
		for _, e := range v.list {
			argv, err := codexExample(e)
			if err != nil {
				return err
			}
			if rulesMatchCommand(rules, argv) != ex.want {
				verb := "does not match"
				if !ex.want {
					verb = "matches"
				}
				r.warn(file, e.line, "%s example %q %s the translated rule %s", ex.param, strings.Join(argv, " "), verb, strings.Join(rules, ", "))
			}
		}
	}
	return nil
}

// codexExample reads one match or not_match example: a list of words, or
// a string split as a POSIX shell would (execpolicy uses shlex).
func codexExample(v starValue) ([]string, error) {
	if s, ok := v.text(); ok {
		words, err := shlexSplit(s)
		if err != nil || len(words) == 0 {
			return nil, fmt.Errorf("line %d: example %q is not a command", v.line, s)
		}
		return words, nil
	}
	var words []string
	for _, w := range v.list {
		s, ok := w.text()
		if !ok {
			return nil, fmt.Errorf("line %d: an example's words must be strings", w.line)
		}
		words = append(words, s)
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("line %d: an example cannot be empty", v.line)
	}
	return words, nil
}

// product is every choice of one word from each list, in order.
func product(alts [][]string) [][]string {
	out := [][]string{nil}
	for _, choice := range alts {
		var next [][]string
		for _, prefix := range out {
			for _, w := range choice {
				next = append(next, append(append([]string(nil), prefix...), w))
			}
		}
		out = next
	}
	return out
}

// shlexSplit splits s into words as a POSIX shell would, without
// expansion: single quotes keep everything, double quotes keep all but
// \\ \" \$ \` and a backslash-newline, a backslash outside quotes keeps
// the next character, and '#' at the start of a word begins a comment.
func shlexSplit(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '#' && !inWord:
			return words, nil
		case c == '\\':
			inWord = true
			if i+1 >= len(s) {
				return nil, fmt.Errorf("trailing backslash")
			}
			i++
			if s[i] != '\n' {
				cur.WriteByte(s[i])
			}
		case c == '\'':
			inWord = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unclosed quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			inWord = true
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\\\"$`\n", s[i+1]) >= 0 {
					i++
					if s[i] == '\n' {
						continue
					}
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unclosed quote")
			}
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

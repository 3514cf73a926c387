package permission

import "strings"

// shellPattern matches one simple command (its argv) against a shell
// specifier such as "npm run test:*", "git * main" or "ls *".
//
// Semantics, word by word after the specifier is split as bash splits
// the command ([splitSpecifier]: the guard's grammar, quotes removed, no
// expansion):
//   - a legacy suffix ":*" ("npm run test:*") makes the words a prefix that
//     must end at a word boundary: any further words may follow;
//   - a word that is just "*" matches any words: one or more in the
//     middle, zero or more at the end ("ls *" matches "ls" and "ls -la" but
//     not "lsof");
//   - '*' inside a word matches any characters of that word; at the end of
//     the last word it also lets any further words follow ("ls*" matches
//     "lsof" and "ls -la");
//   - every other word must equal the argument exactly.
type shellPattern struct {
	words []string
	// rest reports that any words may follow the last pattern word.
	rest bool
	// first is the literal first word, or "" when it has a wildcard.
	first string
}

// compileShellPattern splits a specifier into words. It refuses shell
// operators (a rule matches one simple command, never a pipeline or
// list) and whatever else is not literal words ([splitSpecifier]).
func compileShellPattern(spec string) (shellPattern, int, string) {
	var p shellPattern
	s := spec
	if strings.HasSuffix(s, ":*") {
		s = strings.TrimSuffix(s, ":*")
		p.rest = true
		if strings.TrimSpace(s) == "" {
			return p, 0, "nothing before ':*'"
		}
	}
	words, off, why := splitSpecifier(s)
	if why != "" {
		return p, off, why
	}
	if !p.rest {
		switch last := words[len(words)-1]; {
		case last == "*" && len(words) > 1:
			words = words[:len(words)-1] // "ls *": any words may follow
			p.rest = true
		case last != "*" && strings.HasSuffix(last, "*"):
			p.rest = true // "ls*": the star may run past the word
		}
	}
	p.words = words
	p.first = literalFirst(words)
	return p, -1, ""
}

func literalFirst(words []string) string {
	if hasStar(words[0]) {
		return ""
	}
	return words[0]
}

// matchArgv reports whether the command name and its arguments match the
// pattern. It does not allocate.
func (p *shellPattern) matchArgv(name string, args []string) bool {
	w := p.words[0]
	if w == "*" {
		// A leading bare star: the name is one of the words it may cover.
		if len(p.words) == 1 {
			return true
		}
		if matchWords(p.words[1:], args, p.rest) {
			return true
		}
		for i := 1; i <= len(args); i++ {
			if matchWords(p.words[1:], args[i:], p.rest) {
				return true
			}
		}
		return false
	}
	if len(p.words) == 1 && p.rest && w[len(w)-1] == '*' {
		return matchStar(w, name)
	}
	if !matchStar(w, name) {
		return false
	}
	return matchWords(p.words[1:], args, p.rest)
}

func matchWords(pat, argv []string, rest bool) bool {
	for len(pat) > 0 {
		w := pat[0]
		if w == "*" {
			// A bare star: one or more words in the middle, any at the end.
			if len(pat) == 1 {
				return true
			}
			for i := 1; i <= len(argv); i++ {
				if matchWords(pat[1:], argv[i:], rest) {
					return true
				}
			}
			return false
		}
		if len(argv) == 0 {
			return false
		}
		if len(pat) == 1 && rest && hasStar(w) && w[len(w)-1] == '*' {
			// "ls*": the trailing star may run past the word.
			return matchStar(w, argv[0])
		}
		if !matchStar(w, argv[0]) {
			return false
		}
		pat, argv = pat[1:], argv[1:]
	}
	return len(argv) == 0 || rest
}

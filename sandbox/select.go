package sandbox

import (
	"strconv"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Selecting files by name.
//
// A search tool reads the files a filter selects (Grep's glob, ripgrep's
// --glob), and an explicit filter overrides .gitignore and the skipping of
// hidden files: "glob": ".env" prints the .env file. So a filter is judged
// by what it could select. The secret patterns stand for sets of names, and
// a filter selects a secret when it matches one of a set of names standing
// for each pattern (its witnesses): the pattern with each "*" filled by a
// word from fillWords ("", "x", "local", "production", ...), each "?" by a
// letter, each class by a character it admits, and a directory pattern
// followed by a file name. Matching names rather than intersecting the
// two languages keeps "*.go" from counting as a secret because ".env.*"
// would also match ".env.go". A filter is matched against a witness's
// trailing components, so "src/.env", "**/.env*" and "{.env,*.go}" all
// select ".env". A name a secret pattern matches only by its content
// (service-account JSON) is not selected by a filter: such a file is
// judged when a tool names it.

// fillWords are the words a pattern's "*" is filled with to make its
// witnesses: what the common secret names put there.
var fillWords = [...]string{"", "x", "local", "production", "prod", "development", "dev", "staging", "test", "backup", "server", "bash", "id"}

// childNames are the names of the files a directory pattern's witnesses
// hold.
var childNames = [...]string{"x", "config", "credentials"}

// maxFilters bounds the alternatives of one filter that are judged.
const maxFilters = maxAlternatives

// witnesses returns the sandbox's witness names, made on first use.
func (s *Sandbox) witnesses() []witness {
	if s.base != nil {
		return s.base.witnesses()
	}
	s.witnessOnce.Do(func() {
		seen := map[string]bool{}
		for i := range s.secret.pats {
			p := &s.secret.pats[i]
			for _, w := range expandWitness(p) {
				if !seen[w] && s.secret.match(strings.Split(w, "/")) >= 0 {
					seen[w] = true
					s.witnessList = append(s.witnessList, witness{name: w, comps: strings.Count(w, "/") + 1, pat: p.src})
				}
			}
		}
	})
	return s.witnessList
}

// witness is one name standing for a secret pattern.
type witness struct {
	name  string // lower-cased, relative
	comps int    // its components
	pat   string
}

// expandWitness returns the witnesses of one pattern.
func expandWitness(p *pattern) []string {
	outs := []string{""}
	for k, e := range p.elems {
		var alts []string
		switch e.kind {
		case elemAny:
			alts = []string{"x"}
		case elemLiteral:
			alts = []string{e.text}
		default:
			// Each alternative of a "{a,b}" group is filled in turn.
			var parts []string
			if expandAlternatives(e.text, &parts) != "" {
				parts = []string{e.text}
			}
			for _, part := range parts {
				alts = append(alts, fillElem(part)...)
			}
		}
		next := make([]string, 0, len(outs)*len(alts))
		for _, o := range outs {
			for _, a := range alts {
				if a == "" {
					continue
				}
				if k > 0 {
					a = o + "/" + a
				}
				next = append(next, a)
			}
		}
		outs = next
	}
	if p.dir {
		var with []string
		for _, o := range outs {
			for _, c := range childNames {
				with = append(with, o+"/"+c)
			}
		}
		outs = with
	}
	return outs
}

// fillElem fills the wildcards of one component with fillWords (at most
// two stars are filled from the whole list; the rest with "x").
func fillElem(e string) []string {
	outs := []string{""}
	stars := 0
	for i := 0; i < len(e); i++ {
		var alts []string
		switch c := e[i]; c {
		case '*':
			stars++
			if stars <= 2 {
				alts = fillWords[:]
			} else {
				alts = []string{"x"}
			}
		case '?':
			alts = []string{"x"}
		case '\\':
			if i+1 < len(e) {
				i++
			}
			alts = []string{e[i : i+1]}
		case '[':
			j := strings.IndexByte(e[i+1:], ']')
			if j < 0 {
				return nil
			}
			class := e[i : i+1+j+1]
			i += j + 1
			alts = []string{classChar(class)}
		default:
			alts = []string{string(c)}
		}
		next := make([]string, 0, len(outs)*len(alts))
		for _, o := range outs {
			for _, a := range alts {
				next = append(next, o+a)
			}
		}
		outs = next
	}
	return outs
}

// classChar returns a character a "[...]" class admits, or "x".
func classChar(class string) string {
	for _, c := range "abcdefghijklmnopqrstuvwxyz0123456789._-" {
		if ok, _ := doublestar.Match(class, string(c)); ok {
			return string(c)
		}
	}
	return "x"
}

// SelectsSecret reports whether a filter that selects files by name (a
// glob such as Grep's "glob" field or ripgrep's --glob, doublestar syntax
// with braces) could select a secret file in a search of the directory
// base, and names the secret pattern. base is a resolved absolute path, or
// "" to judge the filter alone. Several filters may be given in one
// string, separated by white space or commas, as search tools split them;
// a filter beginning with "!" only excludes and selects nothing. A
// malformed filter, or one with too many alternatives to judge, is
// reported as selecting a secret.
//
// The judgement is by name (see the package documentation's "Selecting
// files by name"), case-insensitive. A search skips hidden directories
// unless the filter names them, so "**" in a filter does not stand for a
// hidden directory, and neither does a directory the filter leaves out
// unless the filter's last component matches it (as "*" matches ".ssh").
// The cost is linear in the filter's length times the number of secret
// patterns.
func (s *Sandbox) SelectsSecret(base, filter string) (pattern string, ok bool) {
	if s == nil {
		return "", false // no secret patterns; a nil Sandbox denies every path
	}
	var alts []string
	for _, f := range strings.FieldsFunc(filter, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }) {
		if why := expandAlternatives(f, &alts); why != "" {
			return "a filter that cannot be judged: " + why, true
		}
		if len(alts) > maxFilters {
			return "a filter with more than " + strconv.Itoa(maxFilters) + " alternatives", true
		}
	}
	// A comma outside braces separates filters too, for the tools that
	// split on it; an alternative holding one is judged both ways.
	for _, a := range alts {
		if strings.Contains(a, ",") {
			alts = append(alts, strings.Split(a, ",")...)
		}
	}
	var baseComps []string
	if b := strings.Trim(strings.ToLower(base), "/"); b != "" {
		for _, c := range strings.Split(b, "/") {
			baseComps = append(baseComps, escapeGlob(c))
		}
	}
	ws := s.witnesses()
	for _, a := range alts {
		if a == "" || a[0] == '!' {
			continue
		}
		a = strings.ToLower(strings.TrimPrefix(strings.TrimLeft(a, "/"), "./"))
		if a == "" {
			continue
		}
		if !doublestar.ValidatePattern(a) {
			return "a malformed filter " + strconv.Quote(a), true
		}
		comps := append(append([]string(nil), baseComps...), strings.Split(a, "/")...)
		for _, w := range ws {
			if selects(comps, strings.Split(w.name, "/")) {
				return w.pat, true
			}
		}
		// A filter without wildcards is a name: judged as a path.
		if !strings.ContainsAny(a, "*?[{\\") {
			if p, ok := s.secret.first("/" + strings.Join(append(baseComps, a), "/")); ok {
				return p, true
			}
		}
	}
	return "", false
}

// selects reports whether the filter's components (a search base's, then
// the filter's own) select the witness's: aligned from the end, "**"
// standing for any number of components but hidden ones, and the witness's
// leading components the filter does not reach admitted when they are not
// hidden or the filter's last component matches them.
func selects(f, w []string) bool {
	last := f[len(f)-1]
	var try func(i, j int) bool
	try = func(i, j int) bool {
		for {
			if j == 0 {
				return true
			}
			if i == 0 {
				for _, c := range w[:j] {
					if strings.HasPrefix(c, ".") && !matchComp(last, c) {
						return false
					}
				}
				return true
			}
			if f[i-1] == "**" {
				// Zero components, or one more that is not hidden.
				if try(i-1, j) {
					return true
				}
				if strings.HasPrefix(w[j-1], ".") {
					return false
				}
				j--
				continue
			}
			if !matchComp(f[i-1], w[j-1]) {
				return false
			}
			i, j = i-1, j-1
		}
	}
	return try(len(f), len(w))
}

func matchComp(pat, name string) bool {
	ok, _ := doublestar.Match(pat, name)
	return ok
}

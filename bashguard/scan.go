package bashguard

import "strings"

// The one option scanner: it reads a command line as the program's
// grammar does, by the program's spec, and reports every option (with
// the option it resolved to and its value) and every operand. It never
// judges: specjudge.go does.

// scanned is one thing the scanner found on a command line.
type scanned struct {
	opt    *option // the option; nil for an operand, or for a problem
	word   string  // the option as written ("-iO", "--unset-a"), or the operand
	spell  string  // the spelling it resolved to ("-O", "--unset-all")
	val    string  // its value, when it has one
	hasVal bool
	next   bool // the value is the word after the option's (at-1 holds the option)
	at     int  // the index of the word holding the value (or the operand)
	// problem, for an option that cannot be resolved: why ("is not
	// known to be harmless", "is an abbreviation of more than one
	// option"). opt is nil then.
	problem string
	negated bool // written --no-X for the option X
	plus    bool // in a cluster that begins with "+" (a shell grammar)
	bsd     bsdRead
}

// bsdRead says how a bsd grammar read an option.
type bsdRead uint8

const (
	notBSD   bsdRead = iota
	bsdWord          // in a word without a dash ("ps aux")
	bsdAgain         // in a dashed cluster read again as BSD options ("ps -axe")
)

// scanSpec reads v from the word at from on by the spec s, calling fn for
// each option and operand in order. With stopAtOperand, it stops at the
// first operand (which fn does not see) and returns its index; otherwise
// it returns v.len(). Words that are not literal are operands: the
// dispatcher asks for them.
func scanSpec(s *spec, v *argv, from int, stopAtOperand bool, fn func(e *scanned)) int {
	g := s.grammar
	end := false
	if s.endOpts != "" {
		// An option of endOpts ends the options once it is read.
		inner := fn
		fn = func(e *scanned) {
			end = end || e.opt != nil && e.opt.ends
			inner(e)
		}
	}
	var e scanned
	for i := from; i < v.len(); i++ {
		w := v.vals[i]
		if !end {
			switch s.familyWord(v, i) {
			case familyCluster:
				i = scanCluster(s, s.tables().bsd, bsdWord, v, i, 0, fn)
				continue
			case familyPlus:
				i = scanCluster(s, s.tables().short, notBSD, v, i, 1, fn)
				continue
			case familyEnd:
				if stopAtOperand {
					return i
				}
				end = true
			}
		}
		if end || w == "-" || len(w) < 2 || w[0] != '-' || !v.literal(i) {
			if stopAtOperand {
				return i
			}
			e = scanned{word: w, at: i}
			fn(&e)
			if !g.permute {
				end = true
			}
			continue
		}
		if w == "--" {
			if stopAtOperand {
				return i + 1
			}
			end = true
			e = scanned{word: w, spell: w, opt: &dashDashOpt, at: i}
			fn(&e)
			continue
		}
		i = scanOption(s, v, i, fn)
	}
	return v.len()
}

// scanOption reads the option word at v.vals[i], long, -NUM or a cluster
// of short ones, and returns the index of the last word it took.
func scanOption(s *spec, v *argv, i int, fn func(e *scanned)) int {
	g, w := s.grammar, v.vals[i]
	switch {
	case g.nopt:
		return scanNopt(s, v, i, fn)
	case strings.HasPrefix(w, "--") || g.oneDash && (len(w) > 2 || g.twoDashes):
		return scanLong(s, v, i, fn)
	case g.wordShorts && len(w) > 2 && w[1] != '-':
		if j, ok := scanWordShort(s, v, i, fn); ok {
			return j
		}
	case g.longOnly && (len(w) > 2 || s.tables().short[w[1]] == nil):
		if j, ok := scanLongOnly(s, v, i, fn); ok {
			return j
		}
	case g.digits && isDigits(w[1:]):
		e := scanned{word: w, spell: "-NUM", opt: &digitsOpt, val: w[1:], hasVal: true, at: i}
		fn(&e)
		return i
	case g.bsd && !s.readsShort(w):
		return scanCluster(s, s.tables().bsd, bsdAgain, v, i, 1, fn)
	}
	return scanCluster(s, s.tables().short, notBSD, v, i, 1, fn)
}

// scanWordShort reads a one-dash word of more than one letter as Apache
// commons-cli does, before a cluster of letters: the exact name of a
// rows' word (-ntp, -pl VALUE), then the long option its name (up to an
// "=") names or abbreviates ("-settings F", "-se=F", "-fail-at" are
// --settings F, --settings=F, --fail-at-end; an ambiguous prefix is
// refused), then a long option that takes a value whose name begins the
// word, the rest its value ("-settingsF"). It reports false for a word
// that is none of these: a cluster (-DskipTests, -fpom.xml, -qB).
func scanWordShort(s *spec, v *argv, i int, fn func(e *scanned)) (int, bool) {
	w := v.vals[i]
	if sp := s.tables().words[w]; sp != nil {
		e := scanned{word: w, spell: sp.text, opt: sp.opt, at: i}
		if sp.arg == argRequired {
			i = nextValue(v, i, &e)
		}
		fn(&e)
		return i, true
	}
	name, val, has := strings.Cut(w[1:], "=")
	if has && len(name) == 1 {
		return i, false // -s=F: the letter's value (shortEq)
	}
	if sp, _, problem := resolveLong(s, "--"+name); sp != nil || problem != problemUnknown {
		e := scanned{word: w, at: i}
		switch {
		case sp == nil:
			e.problem = problem
		case has:
			e.opt, e.spell, e.val, e.hasVal = sp.opt, sp.text, val, true
		default:
			e.opt, e.spell = sp.opt, sp.text
			if sp.arg == argRequired {
				i = nextValue(v, i, &e)
			}
		}
		fn(&e)
		return i, true
	}
	if has {
		return i, false
	}
	for k := range s.tables().long {
		sp := &s.tables().long[k]
		if sp.arg != argNone && strings.HasPrefix(name, sp.text[2:]) {
			e := scanned{word: w, spell: sp.text, opt: sp.opt, val: name[len(sp.text)-2:], hasVal: true, at: i}
			fn(&e)
			return i, true
		}
	}
	return i, false
}

// scanLongOnly reads the one-dash word at v.vals[i] as a long option,
// as getopt_long_only does: the option its name (up to an "=") names or
// abbreviates, an ambiguous prefix refused. It reports false for a word
// that names none, which getopt_long_only reads as short options.
func scanLongOnly(s *spec, v *argv, i int, fn func(e *scanned)) (int, bool) {
	w := v.vals[i]
	name, _, _ := strings.Cut(w[1:], "=")
	if sp, _, problem := resolveLong(s, "--"+name); sp == nil && problem == problemUnknown {
		return i, false
	}
	return scanLongAs(s, v, i, "-"+w, fn), true
}

// familyRead is how a grammar family reads a word before the common
// rules do.
type familyRead uint8

const (
	familyNone    familyRead = iota // as every grammar does
	familyCluster                   // a cluster of BSD options without a dash (bsd)
	familyPlus                      // a cluster that begins with "+" (shell)
	familyEnd                       // a word that ends the options (whole)
)

// familyWord says how the grammar of s reads the word at i of v, where
// its family reads it otherwise than the common rules.
func (s *spec) familyWord(v *argv, i int) familyRead {
	g, w := s.grammar, v.vals[i]
	switch {
	case g.bsd && w != "" && w[0] != '-' && v.literal(i):
		return familyCluster
	case g.shell && len(w) > 1 && w[0] == '+' && v.literal(i):
		return familyPlus
	case g.whole && !s.wholeOption(w) && w != "--":
		return familyEnd
	}
	return familyNone
}

// problemUnknown is the problem of an option the spec does not list.
const problemUnknown = "is not known to be harmless"

// passedOnOpt is an option the command passes on to the program it runs
// (spec.passOn).
var passedOnOpt = option{name: "(passed on)", kind: kWord}

// digitsOpt is -NUM, a count.
var digitsOpt = option{name: "-NUM", kind: kWord}

// scanLong reads the long option at v.vals[i] and returns the index of the
// last word it took.
func scanLong(s *spec, v *argv, i int, fn func(e *scanned)) int {
	return scanLongAs(s, v, i, v.vals[i], fn)
}

// scanLongAs reads the option word at v.vals[i] as the long option w
// ("--oN" for nmap's "-oN") and returns the index of the last word it
// took.
func scanLongAs(s *spec, v *argv, i int, w string, fn func(e *scanned)) int {
	name, val, has := strings.Cut(w, "=")
	e := scanned{word: v.vals[i], at: i}
	sp, negated, problem := resolveLong(s, name)
	if sp == nil && problem == problemUnknown && s.passOn != "" && !strings.HasPrefix(strings.TrimLeft(name, "-"), s.passOn) {
		// Not the command's own: a word of the program it passes it to.
		e.opt, e.spell = &passedOnOpt, name
		fn(&e)
		return i
	}
	if sp == nil {
		e.problem = problem
		fn(&e)
		return i
	}
	e.opt, e.spell, e.negated = sp.opt, sp.text, negated
	if sp.prefix {
		e.spell = name // --config.script-shell, which the row's --config.* names
	}
	if negated {
		e.opt = &option{name: "--no-" + strings.TrimLeft(sp.text, "-"), kind: kFlag}
		e.spell = e.opt.name
		if has {
			e.opt, e.problem = nil, "gives a value to a negated option"
		}
		fn(&e)
		return i
	}
	switch {
	case has:
		// Attached with "=" (to an option of no value, the program
		// refuses it: nothing runs).
		e.val, e.hasVal = val, true
	case sp.arg == argRequired:
		i = nextValue(v, i, &e)
	}
	fn(&e)
	return i
}

// nextValue gives e, an option that requires a value and has none
// attached, the word after i, whatever it looks like ("-e -x" searches for
// "-x"), and returns that word's index; without one, e lacks its value.
func nextValue(v *argv, i int, e *scanned) int {
	if i+1 >= v.len() {
		e.opt, e.problem = nil, "lacks its value"
		return i
	}
	i++
	e.val, e.hasVal, e.next, e.at = v.vals[i], true, true, i
	return i
}

// resolveLong finds the long option name (as written, "--x" or "-x" for a
// one-dash grammar) in s: an exact spelling first, else a unique prefix
// where the grammar takes abbreviations (of X or, negating, of --no-X).
func resolveLong(s *spec, name string) (sp *spelling, negated bool, problem string) {
	g := s.grammar
	if g.foldCase {
		name = strings.ToLower(name)
	}
	if g.twoDashes && strings.HasPrefix(name, "--") {
		name = name[1:]
	}
	if g.twoDashes && len(name) == 2 {
		if x := s.tables().short[name[1]]; x != nil {
			return x, false, ""
		}
	}
	if x := s.longExact(name); x != nil {
		return x, false, ""
	}
	for k, p := range s.tables().prefixes {
		if strings.HasPrefix(name, p.text) {
			return &s.tables().prefixes[k], false, ""
		}
	}
	negName := ""
	if g.negate && strings.HasPrefix(name, "--no-") {
		negName = "--" + name[len("--no-"):]
		if x := s.longExact(negName); x != nil && x.arg != argRequired {
			return x, true, ""
		}
	}
	if !g.abbrev {
		return nil, false, problemUnknown
	}
	return resolveAbbrev(s, name, negName)
}

// resolveAbbrev finds the long option of s that name abbreviates, or,
// negating, the flag negName (--X for --no-X) abbreviates: the one the
// grammar takes only where it is unique.
func resolveAbbrev(s *spec, name, negName string) (sp *spelling, negated bool, problem string) {
	var found *spelling
	ambiguous := false
	consider := func(x *spelling, neg bool) {
		if found == nil {
			found, negated = x, neg
			return
		}
		if found.opt != x.opt || negated != neg {
			ambiguous = true
		}
	}
	long := s.tables().long
	for k := range long {
		if strings.HasPrefix(long[k].text, name) {
			consider(&long[k], false)
		}
	}
	if negName != "" && len(negName) > 2 {
		for k := range long {
			if strings.HasPrefix(long[k].text, negName) && long[k].arg != argRequired {
				consider(&long[k], true)
			}
		}
	}
	switch {
	case ambiguous:
		return nil, false, "is an abbreviation of more than one option"
	case found == nil:
		return nil, false, problemUnknown
	}
	return found, negated, ""
}

// longExact returns the spelling name exactly, or nil.
func (s *spec) longExact(name string) *spelling {
	lo, hi := 0, len(s.tables().long)
	for lo < hi {
		m := (lo + hi) / 2
		switch t := s.tables().long[m].text; {
		case t == name:
			return &s.tables().long[m]
		case t < name:
			lo = m + 1
		default:
			hi = m
		}
	}
	return nil
}

// scanCluster reads the cluster of short options at v.vals[i] from its
// byte at ("-sb", "-iOless", "-n5"; "aux" for BSD options) by the table
// of letters, and returns the index of the last word it took.
func scanCluster(s *spec, table map[byte]*spelling, bsd bsdRead, v *argv, i, at int, fn func(e *scanned)) int {
	w := v.vals[i]
	dash := w[0]
	if bsd != notBSD {
		dash = 0
	}
	for j := at; j < len(w); j++ {
		ch := w[j]
		e := scanned{word: w, at: i, bsd: bsd, plus: dash == '+'}
		sp := table[ch]
		if sp == nil {
			e.spell = letterName(dash, ch)
			e.problem = problemUnknown
			fn(&e)
			return i // the program refuses the rest of the cluster
		}
		e.opt, e.spell = sp.opt, sp.text
		switch {
		case sp.arg == argNone:
			fn(&e)
			continue
		case sp.arg == argDigits:
			k := j + 1
			for k < len(w) && w[k] >= '0' && w[k] <= '9' {
				k++
			}
			e.val, e.hasVal = w[j+1:k], k > j+1
			fn(&e)
			j = k - 1
			continue
		case sp.arg == argRequired && s.grammar.nextValues:
			i = nextValue(v, i, &e)
			fn(&e)
			continue
		case j+1 < len(w) && s.grammar.shortEq && w[j+1] == '=':
			e.val, e.hasVal = w[j+2:], true
		case j+1 < len(w):
			e.val, e.hasVal = w[j+1:], true
		case sp.arg == argRequired:
			i = nextValue(v, i, &e)
		}
		fn(&e)
		return i
	}
	return i
}

// letterName is the option ch as written: "-x", or "x" without a dash.
func letterName(dash, ch byte) string {
	if dash == 0 {
		return string(ch)
	}
	return shortName(dash, ch)
}

// wholeOption reports whether w is an option of a whole grammar: a
// letter of s alone, or with the value it takes only attached ("-O3";
// find reads "-Dtree" as an expression, and "-D tree" as an option).
func (s *spec) wholeOption(w string) bool {
	if len(w) < 2 || w[0] != '-' {
		return false
	}
	sp := s.tables().short[w[1]]
	return sp != nil && (len(w) == 2 || sp.arg == argOptional)
}

// readsShort reports whether procps reads the dashed cluster w as short
// (UNIX) options: every letter one, and at most the last taking a value,
// from the next word. Any other (an unknown letter, an attached value
// that may not parse) it may read again as BSD options.
func (s *spec) readsShort(w string) bool {
	for j := 1; j < len(w); j++ {
		sp := s.tables().short[w[j]]
		if sp == nil {
			return false
		}
		if sp.arg != argNone {
			return j == len(w)-1
		}
	}
	return true
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// scanNopt reads the option word at v.vals[i] as npm's nopt does, and
// returns the index of the last word it took. The dashes are dropped
// (-prefix, --prefix and ---prefix are one option); a name that is no
// option's is then a shorthand (C is --prefix), a word of single-letter
// shorthands (-gS), or, with "no-" dropped, a unique prefix of an
// option's name. A name that is none is a configuration key npm does not
// know, which it keeps and nothing reads: an option of no effect. A
// shorthand's further words are its value (s is --loglevel silent).
func scanNopt(s *spec, v *argv, i int, fn func(e *scanned)) int {
	w := v.vals[i]
	word, val, hasEq := strings.Cut(w, "=")
	bare := strings.TrimLeft(word, "-")
	emit := func(sp *spelling, val string, hasVal bool) {
		e := scanned{word: w, at: i, opt: sp.opt, spell: sp.text, val: val, hasVal: hasVal}
		if !hasVal && sp.arg == argRequired {
			i = noptValue(v, i, &e)
		}
		fn(&e)
	}
	if sp := s.longExact("--" + bare); sp != nil {
		emit(sp, val, hasEq)
		return i
	}
	if exp, ok := s.shorthands[bare]; ok {
		return scanShorthand(s, v, i, exp, val, hasEq, false, fn)
	}
	if len(bare) > 1 && allShorthands(s, bare) {
		for k := range len(bare) - 1 {
			scanShorthand(s, v, i, s.shorthands[bare[k:k+1]], "", false, true, fn)
		}
		return scanShorthand(s, v, i, s.shorthands[bare[len(bare)-1:]], val, hasEq, false, fn)
	}
	name := bare
	for strings.HasPrefix(name, "no-") {
		name = name[len("no-"):]
	}
	if name != bare {
		if sp := s.longExact("--" + name); sp != nil {
			e := scanned{word: w, at: i, opt: &option{name: "--no-" + name, kind: kFlag}, spell: "--no-" + name, negated: true}
			fn(&e)
			return i
		}
	}
	if sp, _, problem := resolveLong(s, "--"+name); sp != nil {
		if name != bare {
			sp = &spelling{text: "--no-" + name, opt: &option{name: "--no-" + name, kind: kFlag}}
		}
		emit(sp, val, hasEq)
		return i
	} else if problem != problemUnknown {
		e := scanned{word: w, at: i, problem: problem}
		fn(&e)
		return i
	}
	e := scanned{word: w, at: i, opt: &noptUnknownOpt, spell: word}
	fn(&e)
	return i
}

// scanShorthand reads the shorthand at v.vals[i] that stands for the
// words exp, given the value val when hasEq, and returns the index of
// the last word it took. inner says the shorthand is a letter of a word
// of shorthands before its last, where no value can follow it.
func scanShorthand(s *spec, v *argv, i int, exp []string, val string, hasEq, inner bool, fn func(e *scanned)) int {
	sp := s.longExact(exp[0])
	if sp == nil {
		e := scanned{word: v.vals[i], at: i, problem: "is a shorthand of " + exp[0] + ", which the spec does not list"}
		fn(&e)
		return i
	}
	e := scanned{word: v.vals[i], at: i, opt: sp.opt, spell: sp.text}
	switch {
	case len(exp) > 1:
		e.val, e.hasVal = exp[1], true
	case hasEq:
		e.val, e.hasVal = val, true
	case sp.arg == argRequired && inner:
		// nopt gives it the next word of the line, which the rest of
		// the word's letters come before: asked, not read.
		e.opt, e.problem = nil, "takes a value, inside a word of shorthands"
	case sp.arg == argRequired:
		i = noptValue(v, i, &e)
	}
	fn(&e)
	return i
}

// noptValue gives e, a key that takes a value and has none attached, the
// word after i, as nopt does. A word that is an option ("-x", "--key")
// is the value of a key of type String's only as nopt reads one: not
// taken, the key's value empty; a key of any other type (a path, a URL,
// a number) takes it (npm config get prefix --prefix --global prints
// ./--global, whose .npmrc npm then reads). The spec does not say which
// type a key has, so where its value is a file, a directory, a program
// or configuration, such a word asks; a word value (kWord) keeps the
// String reading, which judges the word as the option it may be. It
// returns the index of the last word taken.
func noptValue(v *argv, i int, e *scanned) int {
	if i+1 < v.len() {
		if n := strings.TrimLeft(v.vals[i+1], "-"); n != "" && len(v.vals[i+1])-len(n) <= 2 && n != v.vals[i+1] {
			if e.opt != nil && e.opt.kind != kWord {
				e.opt, e.problem = nil, "may take "+v.vals[i+1]+" as its value, as npm reads a key of some types"
				return i
			}
			e.val, e.hasVal = "", true
			return i
		}
	}
	return nextValue(v, i, e)
}

// allShorthands reports whether every letter of bare is a shorthand of
// one letter.
func allShorthands(s *spec, bare string) bool {
	for k := range len(bare) {
		if _, ok := s.shorthands[bare[k:k+1]]; !ok {
			return false
		}
	}
	return true
}

// noptUnknownOpt is a name nopt does not know: a configuration key that
// npm keeps, and nothing reads.
var noptUnknownOpt = option{name: "(an unknown configuration key)", kind: kWord}

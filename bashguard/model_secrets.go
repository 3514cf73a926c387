package bashguard

import (
	"slices"
	"strings"
	"sync"

	"github.com/toolgate/toolgate/permission"
)

// secretPrinted judges the line v of the program name by the rows of
// secretPrints (specs_secrets.go), on what the one scanner read of it by
// the program's spec (secretSpec): the first row the line meets records
// an Ask no allow rule lifts unless it names the words that met the row.
// Words only known at run time are asked for by the dispatcher already;
// here only literal words are read.
func (m *cmdCall) secretPrinted(c *verdictAcc, name string, v *argv) {
	rows := secretPrints()[name]
	if !mayMeetSecretRows(rows, v) {
		return
	}
	s, whole := secretSpec(name)
	l := readSecrets(s, v, whole)
	for i := range rows {
		r := &rows[i]
		mt, ok := l.meets(r)
		if !ok {
			continue
		}
		shown := strings.Join(mt.named, " ")
		if r.path != "" && (r.flags != "" || r.res != "") {
			shown = r.path + " " + shown
		}
		verb, how := " prints ", ""
		switch {
		case mt.unread != nil:
			verb, how = " may print ", ": its option "+optWritten(mt.unread)+" "+mt.unread.problem+", and may stand for one that does"
		case mt.by != nil:
			how = ", by its option " + optWritten(mt.by)
		}
		c.addNamed(mt.named[0], permission.Ask, RuleSecretCredential, name+" "+shown+verb, r.why,
			how+"; only an allow rule that names "+strings.Join(mt.named, " ")+" lifts the Ask")
		c.named = append(c.named, mt.named[1:]...)
		return
	}
}

// appendedSecrets judges a program xargs runs with further arguments read
// from its input: for a program with rows, they may complete one.
func (m *cmdCall) appendedSecrets(c *verdictAcc, v *argv) {
	if v.len() == 0 || !v.literal(0) {
		return
	}
	name := v.vals[0][strings.LastIndexByte(v.vals[0], '/')+1:]
	if len(secretPrints()[name]) > 0 {
		c.addf(permission.Ask, RuleSecretCredential, name+" may print a credential", " with the arguments xargs reads from its input", "", false)
	}
}

// mayMeetSecretRows reports whether the line v may meet one of rows: a
// row of the program itself, or one each of whose path's words is a word
// of the line (its operands are among them). A line of git that names no
// row's subcommand (git status) is not scanned for them
// (BenchmarkToolgateCommands: 3 to 5 allocations fewer per git command).
func mayMeetSecretRows(rows []secretPrint, v *argv) bool {
	for i := range rows {
		all := true
		for w := range strings.FieldsSeq(rows[i].path) {
			if !slices.Contains(v.vals[1:], w) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// secretSpec is the spec the line of the program name is read by: the
// tool's own where netTools has one (kubectl, oc, helm) that lists all
// its options (whole; not a partial one, aws's), else the spec of the
// options its rows name (rowFlagsSpec).
func secretSpec(name string) (s *spec, whole bool) {
	if t := netTools()[name]; t != nil && t.options != nil && !t.partial {
		return t.options(), true
	}
	return secretFlagSpecs()[name](), false
}

// secretFlagSpecs are, by the program's name, the specs made of the
// options its rows of secretPrints name, each built on first use.
var secretFlagSpecs = sync.OnceValue(func() map[string]func() *spec {
	m := make(map[string]func() *spec, len(secretPrints()))
	for name, rows := range secretPrints() {
		m[name] = sync.OnceValue(func() *spec { return rowFlagsSpec(name, rows) })
	}
	return m
})

// rowFlagsSpec is the spec of a program the guard knows only by the
// options its rows name, each a flag: a long one abbreviated as
// getopt_long takes it, or, where the rows spell a name with one dash
// (terraform's -json), each read with one dash or two and never
// abbreviated, as Go's flag package reads them. Every other option is
// unknown to it: its value, if it takes one, is read as an operand, so
// a misread errs towards meeting a row.
func rowFlagsSpec(name string, rows []secretPrint) *spec {
	s := &spec{name: name, grammar: grammar{permute: true, abbrev: true}}
	for _, r := range rows {
		for w := range strings.FieldsSeq(r.flags) {
			if len(w) > 2 && w[1] != '-' {
				s.grammar = grammar{permute: true, oneDash: true, twoDashes: true}
			}
			s.rows = append(s.rows, optRow{w, kFlag, ""})
		}
	}
	return s.compile()
}

// secretRead is what the scanner read of a line, for the rows: its
// literal operands (those that do not begin with "-"), its options, and
// the first option it could not read that may hide a row's (hides).
type secretRead struct {
	s      *spec
	v      *argv
	ops    []int
	opts   []scanned
	unread *scanned
}

// readSecrets scans v by the spec s, the program's whole table where
// whole is set.
func readSecrets(s *spec, v *argv, whole bool) *secretRead {
	l := &secretRead{s: s, v: v}
	scanNetLine(s, v, 1, func(e *scanned) {
		switch {
		case e.opt == &dashDashOpt:
		case e.problem != "":
			if l.unread == nil && hides(e, whole) {
				cp := *e
				l.unread = &cp
			}
		case e.opt == nil:
			if v.literal(e.at) && !strings.HasPrefix(e.word, "-") {
				l.ops = append(l.ops, e.at)
			}
		default:
			l.opts = append(l.opts, *e)
		}
	})
	return l
}

// hides reports whether e, an option the spec does not know, may hide a
// row's option: any such option where the spec is the program's whole
// table (whole), else a letter of a cluster followed by more of its
// word, which the scanner did not read. An "=" after a letter hides
// nothing: pflag reads it as the letter's value (-A=true), any other
// parser refuses the word.
func hides(e *scanned, whole bool) bool {
	if e.problem != problemUnknown || e.spell == "-=" {
		return false
	}
	if whole {
		return true
	}
	if len(e.spell) != 2 || len(e.word) < 3 || e.word[1] == '-' {
		return false
	}
	j := strings.IndexByte(e.word[1:], e.spell[1])
	return j >= 0 && j+2 < len(e.word)
}

// secretMeet is how a line met a row: the words a rule must name, the
// option whose value picked what is printed (-o yaml), and the option
// that could not be read, when the row is met only for it.
type secretMeet struct {
	named      []string
	by, unread *scanned
}

// meets reports whether the line meets the row r, and how.
func (l *secretRead) meets(r *secretPrint) (secretMeet, bool) {
	var mt secretMeet
	if !l.meetsPath(r, &mt) {
		return mt, false
	}
	res := ""
	if r.res != "" {
		w, ok := namedResource(l.v, l.ops, r.res)
		if !ok {
			return mt, false
		}
		res = w
	}
	if r.flags != "" {
		e := l.given(r.flags)
		if e == nil {
			return l.unreadMeet(mt, res)
		}
		mt.named = append(mt.named, wordOf(e))
	}
	if res != "" {
		mt.named = append(mt.named, res)
	}
	if r.format != "" {
		if mt.by = l.printsFormat(r.format, r.plain); mt.by == nil {
			return l.unreadMeet(mt, "")
		}
	}
	return mt, true
}

// unreadMeet is the meet of a row whose options the line lacks: met
// only where a cluster was not read to its end, naming it.
func (l *secretRead) unreadMeet(mt secretMeet, res string) (secretMeet, bool) {
	if l.unread == nil {
		return mt, false
	}
	mt.unread = l.unread
	mt.named = append(mt.named, wordOf(l.unread))
	if res != "" {
		mt.named = append(mt.named, res)
	}
	return mt, true
}

// meetsPath reports whether the line's operands meet the row's path (or,
// for a row without one, its first operand is not one of except), and
// records the words a rule names for it where the row has no other
// condition.
func (l *secretRead) meetsPath(r *secretPrint, mt *secretMeet) bool {
	words, v := l.ops, l.v
	if r.path == "" {
		if r.except == "" || len(words) == 0 || hasField(r.except, v.vals[words[0]]) {
			return false
		}
		mt.named = append(mt.named, v.vals[words[0]])
		return true
	}
	// Each word of the path in turn, at the first operand past the one
	// that met the word before (a line is judged by every row of its
	// program).
	j := 0
	for p := range strings.FieldsSeq(r.path) {
		for j < len(words) && v.vals[words[j]] != p {
			j++
		}
		if j == len(words) {
			return false
		}
		j++
	}
	if r.flags == "" && r.res == "" {
		mt.named = append(mt.named, strings.Fields(r.path)...)
	}
	return true
}

// hasField reports whether w is one of the space-separated fields of
// list.
func hasField(list, w string) bool {
	for f := range strings.FieldsSeq(list) {
		if f == w {
			return true
		}
	}
	return false
}

// wordOf is the word that gave the option e, as written, its value cut
// off after an "=" ("--raw" of "--raw=true", "-Ao" of "-Ao=yaml").
func wordOf(e *scanned) string {
	w, _, _ := strings.Cut(e.word, "=")
	return w
}

// given returns the first option of the line that is one of those spelt
// in spells (any spelling of it), or nil.
func (l *secretRead) given(spells string) *scanned {
	for i := range l.opts {
		// By the option, or by the spelling it resolved to, which a
		// subcommand's own spec resolves (gh auth status -t).
		if l.spelt(spells, l.opts[i].opt) || hasField(spells, l.opts[i].spell) {
			return &l.opts[i]
		}
	}
	return nil
}

// spelt reports whether o is the option of one of the spellings spells.
func (l *secretRead) spelt(spells string, o *option) bool {
	for w := range strings.FieldsSeq(spells) {
		sp := l.s.longExact(w)
		if len(w) == 2 {
			sp = l.s.tables().short[w[1]]
		}
		if sp != nil && sp.opt == o {
			return true
		}
	}
	return false
}

// namedResource returns the first operand of v (words) that names one
// of the resources res.
func namedResource(v *argv, words []int, res string) (string, bool) {
	for _, i := range words {
		parts := strings.FieldsFunc(strings.ToLower(v.vals[i]), func(r rune) bool {
			return r == ',' || r == '/' || r == '.' || r == ':'
		})
		for _, p := range parts {
			if hasField(res, p) {
				return v.vals[i], true
			}
		}
	}
	return "", false
}

// printsFormat returns the first option of the line spelt in spells that
// is given a value whose name (up to an "=") is not in plain, or one only
// known at run time; nil if none is.
func (l *secretRead) printsFormat(spells, plain string) *scanned {
	for i := range l.opts {
		e := &l.opts[i]
		if !e.hasVal || !l.spelt(spells, e.opt) {
			continue
		}
		f, _, _ := strings.Cut(strings.ToLower(e.val), "=")
		if !l.v.literal(e.at) || !hasField(plain, f) {
			return e
		}
	}
	return nil
}

package bashguard

import (
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// secretPrinted judges the line v of the program name by the rows of
// secretPrints (specs_secrets.go): the first row the line meets records
// an Ask no allow rule lifts unless it names the words that met the row.
// Words only known at run time are asked for by the dispatcher already;
// here only literal words are read.
func (m *cmdCall) secretPrinted(c *verdictAcc, name string, v *argv) {
	rows := secretPrints()[name]
	if len(rows) == 0 {
		return
	}
	words := plainWords(v)
	for i := range rows {
		r := &rows[i]
		if named, ok := meetsSecretRow(r, name, v, words); ok {
			shown := strings.Join(named, " ")
			if r.path != "" && (r.flags != "" || r.res != "") {
				shown = r.path + " " + shown
			}
			c.addNamed(named[0], permission.Ask, RuleSecretCredential, name+" "+shown+" prints ", r.why,
				"; only an allow rule that names "+strings.Join(named, " ")+" lifts the Ask")
			c.named = append(c.named, named[1:]...)
			return
		}
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

// plainWords are the indexes of v's literal words after the name that
// do not begin with "-".
func plainWords(v *argv) []int {
	var out []int
	for i := 1; i < v.len(); i++ {
		if v.literal(i) && !strings.HasPrefix(v.vals[i], "-") {
			out = append(out, i)
		}
	}
	return out
}

// meetsSecretRow reports whether the line v of the program name meets
// the row r, whose plain words are words, and the words of the line that
// met it, as a rule must name them to lift the Ask.
func meetsSecretRow(r *secretPrint, name string, v *argv, words []int) ([]string, bool) {
	var named []string
	if r.path == "" {
		if r.except == "" || len(words) == 0 || hasField(r.except, v.vals[words[0]]) {
			return nil, false
		}
		named = append(named, v.vals[words[0]])
	} else {
		// Each word of the path in turn, at the first plain word past
		// the one that met the word before (the table's words are read
		// in place: a line is judged by every row of its program).
		j := 0
		for p := range strings.FieldsSeq(r.path) {
			for j < len(words) && v.vals[words[j]] != p {
				j++
			}
			if j == len(words) {
				return nil, false
			}
			j++
		}
		if r.flags == "" && r.res == "" {
			named = append(named, strings.Fields(r.path)...)
		}
	}
	if r.flags != "" {
		w, ok := givenFlag(v, r.flags, name)
		if !ok {
			return nil, false
		}
		named = append(named, w)
	}
	if r.res != "" {
		w, ok := namedResource(v, words, r.res)
		if !ok {
			return nil, false
		}
		named = append(named, w)
	}
	if r.format != "" && !printsFormat(v, r.format, r.plain, name) {
		return nil, false
	}
	return named, true
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

// givenFlag returns the first word of v that gives one of the options
// spelt in spells, as written (its value cut off).
func givenFlag(v *argv, spells, name string) (string, bool) {
	for i := 1; i < v.len(); i++ {
		w := v.vals[i]
		if !v.literal(i) || w == "--" {
			continue
		}
		for s := range strings.FieldsSeq(spells) {
			if optGiven(w, s, name) {
				return strings.SplitN(w, "=", 2)[0], true
			}
		}
	}
	return "", false
}

// optGiven reports whether the word w gives the option spelt s: whole,
// with "=value", a long one abbreviated to at least two letters, a one
// dash name with two dashes too (Go's flag), or a letter in a cluster of
// letters before one that takes a value (by the program's netTools row).
func optGiven(w, s, name string) bool {
	key, _, _ := strings.Cut(w, "=")
	switch {
	case strings.HasPrefix(s, "--"):
		return key == s || len(key) >= 4 && strings.HasPrefix(s, key)
	case len(s) > 2: // one dash, a name: -json
		return key == s || key == "-"+s
	default:
		_, ok := shortValue(w, s[1], name)
		return ok
	}
}

// shortValue reads the word w as a cluster of letters: whether it gives
// the letter l, and the value attached to it (after an "=" if one
// follows). A letter the program's netTools row says takes a value ends
// the cluster, its value the rest.
func shortValue(w string, l byte, name string) (string, bool) {
	if len(w) < 2 || w[0] != '-' || w[1] == '-' {
		return "", false
	}
	valued := ""
	if t := netTools()[name]; t != nil {
		valued = t.valShort
	}
	for j := 1; j < len(w); j++ {
		switch {
		case w[j] == l:
			return strings.TrimPrefix(w[j+1:], "="), true
		case w[j] == '=' || strings.IndexByte(valued, w[j]) >= 0:
			return "", false
		}
	}
	return "", false
}

// namedResource returns the first plain word of v (words) that names one
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

// printsFormat reports whether the line v gives one of the options
// spelt in spells a value whose name is not in plain, or one only known
// at run time.
func printsFormat(v *argv, spells, plain, name string) bool {
	for i := 1; i < v.len(); i++ {
		w := v.vals[i]
		if w == "--" {
			break
		}
		for s := range strings.FieldsSeq(spells) {
			val, at, ok := optValue(v, i, s, name)
			if !ok {
				continue
			}
			if at >= v.len() {
				return false // the program refuses an option without its value
			}
			if !v.literal(at) {
				return true
			}
			fmt, _, _ := strings.Cut(strings.ToLower(val), "=")
			if !hasField(plain, fmt) {
				return true
			}
		}
	}
	return false
}

// optValue reads the word at i of v as the option spelt s with its
// value: attached ("-oyaml", "-o=yaml", "--output=yaml") or the next
// word, whose index it returns (i for an attached value).
func optValue(v *argv, i int, s, name string) (string, int, bool) {
	w := v.vals[i]
	if strings.HasPrefix(s, "--") {
		if key, val, eq := strings.Cut(w, "="); key == s {
			if eq {
				return val, i, true
			}
			if i+1 < v.len() {
				return v.vals[i+1], i + 1, true
			}
			return "", v.len(), true
		}
		return "", 0, false
	}
	val, ok := shortValue(w, s[1], name)
	switch {
	case !ok:
		return "", 0, false
	case val != "":
		return val, i, true
	case i+1 < v.len():
		return v.vals[i+1], i + 1, true
	}
	return "", v.len(), true
}

package bashguard

import (
	"slices"
	"strings"
)

// opt is one option of a command line, as GNU getopt would see it.
type opt struct {
	name   string // "-x" or "--long"
	val    string
	vf     wordFlags
	hasVal bool
	valAt  int // index of the word holding the value when it is the next word, else 0
}

// scanOpts splits v.vals[1:] into options, reported to fn, and operands,
// whose indexes it appends to operands (usually nil) and returns. Short
// options listed in valShort and long options listed in valLong take a
// value (attached or as the next word):
// they must name only options whose value is required, since GNU getopt
// never gives an optional value ("--color[=WHEN]") the next word.
// Options may follow operands, as with GNU tools, until "--".
func scanOpts(v *argv, valShort string, valLong []string, operands []int, fn func(o opt)) []int {
	return scanOptsOpt(v, valShort, "", valLong, operands, fn)
}

// scanOptsOpt is scanOpts where the short options in optShort take an
// optional value: the rest of their word, never the next word ("date
// -Iseconds", "date -I 0101").
func scanOptsOpt(v *argv, valShort, optShort string, valLong []string, operands []int, fn func(o opt)) []int {
	end := false
	for i := 1; i < v.len(); i++ {
		arg := v.vals[i]
		if end || arg == "-" || !strings.HasPrefix(arg, "-") || !v.literal(i) {
			operands = append(operands, i)
			continue
		}
		if arg == "--" {
			end = true
			continue
		}
		if strings.HasPrefix(arg, "--") {
			name, val, has := strings.Cut(arg, "=")
			o := opt{name: name, val: val, hasVal: has, vf: v.flags[i]}
			if !has && slices.Contains(valLong, name) && i+1 < v.len() {
				i++
				o.val, o.vf, o.hasVal, o.valAt = v.vals[i], v.flags[i], true, i
			}
			fn(o)
			continue
		}
		for j := 1; j < len(arg); j++ {
			ch := arg[j]
			o := opt{name: shortName(arg[0], ch)}
			if hasByte(optShort, ch) {
				if j+1 < len(arg) {
					o.val, o.vf, o.hasVal = arg[j+1:], v.flags[i], true
				}
				fn(o)
				break
			}
			if hasByte(valShort, ch) {
				o.hasVal = true
				if j+1 < len(arg) {
					o.val, o.vf = arg[j+1:], v.flags[i]
				} else if i+1 < v.len() {
					i++
					o.val, o.vf, o.valAt = v.vals[i], v.flags[i], i
				} else {
					o.hasVal = false
				}
				fn(o)
				break
			}
			fn(o)
		}
	}
	return operands
}

// longIs reports whether name is one of the long options full, or an
// abbreviation of one as GNU getopt takes it (at least one character
// after "--").
func longIs(name string, full ...string) bool {
	for _, f := range full {
		// name is a prefix of f; the third byte, the first after "--",
		// settles most candidates before the strings are compared.
		if len(name) <= len(f) && (len(name) < 3 || name[2] == f[2]) &&
			(name == f || len(name) >= 3 && f[:len(name)] == name) {
			return true
		}
	}
	return false
}

// shortOpts holds "-!" to "-~" so that short option names need no
// allocation.
const shortOpts = "-!-\"-#-$-%-&-'-(-)-*-+-,---.-/-0-1-2-3-4-5-6-7-8-9-:-;-<-=->-?-@-A-B-C-D-E-F-G-H-I-J-K-L-M-N-O-P-Q-R-S-T-U-V-W-X-Y-Z-[-\\-]-^-_-`-a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q-r-s-t-u-v-w-x-y-z-{-|-}-~"

func shortName(dash, ch byte) string {
	if dash != '-' || ch < 33 || ch > 126 {
		return string([]byte{dash, ch})
	}
	i := int(ch-33) * 2
	return shortOpts[i : i+2]
}

// hasByte reports whether the short set s holds c: the option letters of
// one command, which a loop checks faster than a call to IndexByte.
func hasByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

package bashguard

import (
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// sed allows scripts that only print: no in-place editing, no script
// files, and no w, W, e, r or R commands or s///w and s///e flags.
func (a *analyzer) sed(c *verdictAcc, v *argv) {
	var scripts, ops []int
	inPlace, fromFile := false, false
	end := false
	for i := 1; i < v.len(); i++ {
		arg := v.vals[i]
		if end || arg == "-" || !strings.HasPrefix(arg, "-") || !v.literal(i) {
			ops = append(ops, i)
			continue
		}
		if arg == "--" {
			end = true
			continue
		}
		if strings.HasPrefix(arg, "--") {
			name, val, has := strings.Cut(arg, "=")
			switch {
			case longIs(name, "--in-place"):
				inPlace = true
			case longIs(name, "--expression"):
				if has {
					// the script is attached: judge it as text
					if why := sedUnsafe(val); why != "" {
						c.add(permission.Ask, ArgsRule("sed"), "sed script "+why, false)
					}
				} else if i+1 < v.len() {
					i++
					scripts = append(scripts, i)
				}
				scripts = append(scripts, -1)
			case longIs(name, "--file"):
				fromFile = true
				if !has {
					i++
				}
			case longIs(name, "--line-length"):
				if !has {
					i++
				}
			}
			continue
		}
	cluster:
		for j := 1; j < len(arg); j++ {
			switch arg[j] {
			case 'i':
				inPlace = true
				break cluster // the rest is a backup suffix
			case 'e':
				if j+1 < len(arg) {
					if why := sedUnsafe(arg[j+1:]); why != "" {
						c.add(permission.Ask, ArgsRule("sed"), "sed script "+why, false)
					}
					scripts = append(scripts, -1)
				} else if i+1 < v.len() {
					i++
					scripts = append(scripts, i)
				}
				break cluster
			case 'f':
				fromFile = true
				if j+1 == len(arg) {
					i++
				}
				break cluster
			case 'l':
				if j+1 == len(arg) {
					i++
				}
				break cluster
			}
		}
	}
	if len(scripts) == 0 && !fromFile {
		if len(ops) == 0 {
			c.add(permission.Ask, ArgsRule("sed"), "no sed script given", false)
			return
		}
		scripts = append(scripts, ops[0])
		ops = ops[1:]
	}
	if fromFile {
		c.add(permission.Ask, RuleCodeSed, "runs a sed script from a file, which is not analysed", false)
	}
	for _, i := range scripts {
		if i < 0 {
			continue
		}
		if !v.literal(i) {
			c.add(permission.Ask, ArgsRule("sed"), "sed script is only known at run time", false)
			continue
		}
		if why := sedUnsafe(v.vals[i]); why != "" {
			c.add(permission.Ask, ArgsRule("sed"), "sed script "+why, false)
		}
	}
	for _, i := range ops {
		if inPlace {
			a.writePath(c, v.vals[i], v.flags[i], "sed")
		} else {
			a.readPath(c, v.vals[i], v.flags[i], "sed")
		}
	}
	if inPlace {
		c.add(permission.Ask, WriteRule("sed"), "edits files in place (-i)", true)
	}
	c.allow(RuleSafe, "sed script only prints")
}

// sedUnsafe explains why a sed script may write, read or run something, or
// returns "". Anything it cannot parse is unsafe.
func sedUnsafe(s string) string {
	i, n := 0, len(s)
	skip := func() {
		for i < n && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
	}
	for i < n {
		for i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == ';') {
			i++
		}
		if i >= n {
			break
		}
		if i = sedAddr(s, i); i < 0 {
			return "has an address that cannot be parsed"
		}
		skip()
		if i < n && s[i] == ',' {
			i++
			skip()
			if i = sedAddr(s, i); i < 0 {
				return "has an address that cannot be parsed"
			}
		}
		skip()
		for i < n && s[i] == '!' {
			i++
			skip()
		}
		if i >= n {
			return "ends without a command"
		}
		cmd := s[i]
		i++
		switch cmd {
		case '{', '}', '=', 'p', 'P', 'd', 'D', 'n', 'N', 'g', 'G', 'h', 'H', 'x', 'z', 'F':
		case 'l', 'q', 'Q', 'L':
			skip()
			for i < n && s[i] >= '0' && s[i] <= '9' {
				i++
			}
		case '#':
			for i < n && s[i] != '\n' {
				i++
			}
		case ':', 'b', 't', 'T':
			// GNU sed ends a label at blanks too, and reads what follows
			// as the next command.
			skip()
			for i < n && s[i] != '\n' && s[i] != ';' && s[i] != ' ' && s[i] != '\t' && (cmd == ':' || s[i] != '}') {
				i++
			}
		case 'a', 'i', 'c':
			for i < n && s[i] != '\n' {
				if s[i] == '\\' {
					i++
				}
				i++
			}
		case 'y':
			if i >= n {
				return "has an incomplete y command"
			}
			d := s[i]
			if i = sedDelim(s, i+1, d, false); i < 0 {
				return "has an incomplete y command"
			}
			if i = sedDelim(s, i, d, false); i < 0 {
				return "has an incomplete y command"
			}
		case 's':
			if i >= n || s[i] == '\n' || s[i] == '\\' {
				return "has an incomplete s command"
			}
			d := s[i]
			if i = sedDelim(s, i+1, d, true); i < 0 {
				return "has an incomplete s command"
			}
			if i = sedDelim(s, i, d, false); i < 0 {
				return "has an incomplete s command"
			}
			// GNU sed skips blanks between the flags: "s/a/b/ i e" has
			// the flags i and e.
			for i < n && strings.IndexByte("gpiImM0123456789 \t", s[i]) >= 0 {
				i++
			}
			if i < n && s[i] == 'e' {
				return "runs commands (s///e)"
			}
			if i < n && s[i] == 'w' {
				return "writes a file (s///w)"
			}
		case 'e':
			return "runs commands (e)"
		case 'w', 'W':
			return "writes a file (" + string(cmd) + ")"
		case 'r', 'R':
			return "reads a file (" + string(cmd) + ")"
		default:
			return "uses the command " + string(cmd) + ", which is not known to be read-only"
		}
	}
	return ""
}

// sedAddr skips one address at s[i:], returning the index after it, or
// -1 when it cannot be parsed.
func sedAddr(s string, i int) int {
	n := len(s)
	if i >= n {
		return i
	}
	switch {
	case s[i] >= '0' && s[i] <= '9':
		for i < n && (s[i] >= '0' && s[i] <= '9' || s[i] == '~') {
			i++
		}
		return i
	case s[i] == '$':
		return i + 1
	case s[i] == '+' || s[i] == '~':
		i++
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i
	case s[i] == '/':
		i = sedDelim(s, i+1, '/', true)
	case s[i] == '\\':
		if i+1 >= n {
			return -1
		}
		i = sedDelim(s, i+2, s[i+1], true)
	default:
		return i
	}
	for i >= 0 && i < n && (s[i] == 'I' || s[i] == 'M') {
		i++
	}
	return i
}

// sedDelim returns the index after the delimiter d that ends the part
// starting at s[i:], or -1. In a regular expression a bracket expression
// may hold the delimiter.
func sedDelim(s string, i int, d byte, regex bool) int {
	n := len(s)
	for i < n {
		ch := s[i]
		switch {
		case ch == '\\':
			i += 2
			continue
		case regex && ch == '[':
			j := i + 1
			if j < n && s[j] == '^' {
				j++
			}
			if j < n && s[j] == ']' {
				j++
			}
			for j < n && s[j] != ']' {
				if s[j] == '[' && j+1 < n && (s[j+1] == ':' || s[j+1] == '.' || s[j+1] == '=') {
					k := strings.Index(s[j+2:], string(s[j+1])+"]")
					if k < 0 {
						return -1
					}
					j += k + 4
					continue
				}
				j++
			}
			if j >= n {
				return -1
			}
			i = j + 1
			continue
		case ch == d:
			return i + 1
		}
		i++
	}
	return -1
}

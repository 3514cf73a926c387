package bashguard

import (
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// code parses literal shell text (from "bash -c" or "eval") and judges it
// command by command; the result is merged into c. The command running it
// is at best Ask.
func (a *analyzer) code(c *verdictAcc, text, rule, what string) {
	if a.depth >= a.g.pol.MaxDepth {
		c.add(permission.Deny, "limit:depth", "cannot be analysed: shell code nested more than "+
			strconv.Itoa(a.g.pol.MaxDepth)+" levels deep", false)
		return
	}
	if len(text) > a.g.pol.MaxScriptBytes {
		c.add(permission.Deny, "limit:size", "cannot be analysed: shell code over the size limit", false)
		return
	}
	f, err := a.sc.parse(text)
	if err != nil {
		c.add(permission.Deny, "parse", "cannot be analysed: "+err.Error(), false)
		return
	}
	start := len(a.out)
	src, outer, fn := a.src, a.outer, a.curFunc
	if a.outer == nil {
		p := a.pos(a.curPos)
		a.outer = &p
	}
	a.src, a.curFunc = text, ""
	a.depth++
	a.stmts(f.Stmts, false, false)
	a.depth--
	a.src, a.outer, a.curFunc = src, outer, fn
	inner := a.out[start:]
	if len(inner) > 0 {
		v := combine(inner)
		if v.Decision != permission.Allow {
			over := true
			for _, ic := range inner {
				if ic.Decision != permission.Allow && !ic.Overridable {
					over = false
				}
			}
			c.add(v.Decision, v.Rule, what+" runs "+v.Reason, over)
		}
	}
	c.add(permission.Ask, rule, what+" runs shell code (each command is judged on its own)", true)
}

// shell judges bash, sh and the other shells.
func (a *analyzer) shell(c *verdictAcc, v argv, x execCtx) {
	cmdFlag, stdin := false, false
	operand := -1
	for i := 1; i < v.len(); i++ {
		arg := v.vals[i]
		if !v.literal(i) {
			operand = i
			break
		}
		if arg == "--" || arg == "-" {
			if i+1 < v.len() {
				operand = i + 1
			}
			break
		}
		if strings.HasPrefix(arg, "--") {
			if arg == "--rcfile" || arg == "--init-file" {
				i++
			}
			continue
		}
		if strings.HasPrefix(arg, "-") || strings.HasPrefix(arg, "+") {
			if strings.ContainsRune(arg[1:], 'c') && arg[0] == '-' {
				cmdFlag = true
			}
			if strings.ContainsRune(arg[1:], 's') {
				stdin = true
			}
			if strings.ContainsAny(arg[1:], "oO") {
				i++
			}
			continue
		}
		operand = i
		break
	}
	switch {
	case cmdFlag && operand < 0:
		c.add(permission.Ask, "code:shell", "-c without shell code", false)
	case cmdFlag && !v.literal(operand):
		c.add(permission.Ask, "code:shell", "runs shell code that is only known at run time", false)
	case cmdFlag:
		a.code(c, v.vals[operand], "code:shell", "-c")
	case operand >= 0 && !stdin:
		c.add(permission.Ask, "code:script", "runs the script "+v.vals[operand]+", whose content is not analysed", true)
	case x.piped || stdin:
		c.add(permission.Ask, "code:pipe-to-shell", "runs shell code read from its input, which is not analysed", false)
	default:
		c.add(permission.Ask, "code:shell", "starts an interactive shell", false)
	}
}

func (a *analyzer) eval(c *verdictAcc, v argv) {
	if v.len() < 2 {
		c.add(permission.Ask, "code:eval", "eval without text", true)
		return
	}
	for i := 1; i < v.len(); i++ {
		if !v.literal(i) {
			c.add(permission.Ask, "code:eval", "evaluates text that is only known at run time", false)
			return
		}
	}
	a.code(c, strings.Join(v.vals[1:], " "), "code:eval", "eval")
}

// interpreter judges python, perl, node and the like: inline programs are
// never auto-allowed, bare interactive ones are denied.
func (a *analyzer) interpreter(c *verdictAcc, name string, v argv, x execCtx) {
	if v.len() == 1 {
		switch {
		case x.piped:
			c.add(permission.Ask, "code:pipe-to-shell", "runs a program read from its input, which is not analysed", false)
		case bareInteractive[name] || strings.HasPrefix(name, "python"):
			c.add(permission.Deny, "dangerous:interactive", "starts an interactive interpreter that would hang waiting for a person", false)
		default:
			c.add(permission.Ask, "unlisted", "not on the safe list", true)
		}
		return
	}
	flags := inlineFor(name)
	for i := 1; i < v.len(); i++ {
		arg := v.vals[i]
		if arg == "-" {
			c.add(permission.Ask, "code:pipe-to-shell", "runs a program read from its input, which is not analysed", false)
			return
		}
		if !strings.HasPrefix(arg, "-") || !v.literal(i) {
			c.add(permission.Ask, "unlisted", "runs the program "+arg+"; not on the safe list", true)
			return
		}
		if strings.HasPrefix(arg, "--") {
			if arg == "--eval" || arg == "--print" || strings.HasPrefix(arg, "--eval=") || strings.HasPrefix(arg, "--command") {
				c.add(permission.Ask, "code:inline", "runs inline program text, which is not analysed", false)
				return
			}
			continue
		}
		if strings.ContainsAny(arg[1:], flags) && flags != "" {
			c.add(permission.Ask, "code:inline", "runs inline program text, which is not analysed", false)
			return
		}
		if name != "perl" && name != "ruby" && arg == "-i" {
			c.add(permission.Deny, "dangerous:interactive", "starts an interactive interpreter that would hang waiting for a person", false)
			return
		}
	}
	c.add(permission.Ask, "unlisted", "not on the safe list", true)
}

// awk allows programs that only read their input and print.
func (a *analyzer) awk(c *verdictAcc, v argv) {
	progFile := false
	var opsBuf [8]int
	ops := scanOpts(v, "Fvf", []string{"--field-separator", "--assign", "--file", "--include", "--load", "--exec", "--source"}, opsBuf[:0], func(o opt) {
		switch {
		case o.name == "-f" || longIs(o.name, "--file", "--exec"):
			progFile = true
		case o.name == "-v" || o.name == "-F" || longIs(o.name, "--field-separator", "--assign"):
		case longIs(o.name, "--include", "--load", "--source") || o.name == "-i" || o.name == "-l" || o.name == "-E" || o.name == "-e":
			progFile = true
		}
	})
	if progFile {
		c.add(permission.Ask, "code:awk", "runs an awk program from a file or extension, which is not analysed", false)
	} else if len(ops) == 0 {
		c.add(permission.Ask, "code:awk", "no awk program given", false)
		return
	} else {
		p := ops[0]
		ops = ops[1:]
		if !v.literal(p) {
			c.add(permission.Ask, "code:awk", "awk program is only known at run time", false)
		} else if why := awkUnsafe(v.vals[p]); why != "" {
			c.add(permission.Ask, "code:awk", "awk program "+why, false)
		}
	}
	for _, i := range ops {
		if isAssignWord(v.vals[i]) {
			continue
		}
		a.readPath(c, v.vals[i], v.flags[i], "awk")
	}
	c.allow("safe", "awk program without system(), pipes or redirection")
}

func isAssignWord(s string) bool {
	eq := strings.IndexByte(s, '=')
	if eq <= 0 {
		return false
	}
	for i := 0; i < eq; i++ {
		ch := s[i]
		if !(ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || i > 0 && ch >= '0' && ch <= '9') {
			return false
		}
	}
	return true
}

// awkUnsafe explains why an awk program may run commands or write files,
// or returns "". It is conservative: "|" and ">" inside an action are
// taken as pipes and redirections.
func awkUnsafe(p string) string {
	brace, paren := 0, 0
	getline := strings.Contains(p, "getline")
	for i := 0; i < len(p); i++ {
		ch := p[i]
		switch ch {
		case '"':
			for i++; i < len(p) && p[i] != '"'; i++ {
				if p[i] == '\\' {
					i++
				}
			}
		case '#':
			for i < len(p) && p[i] != '\n' {
				i++
			}
		case '{':
			brace++
		case '}':
			brace--
		case '(':
			paren++
		case ')':
			paren--
		case '|':
			if i+1 < len(p) && p[i+1] == '|' {
				i++
				continue
			}
			return "uses a pipe to or from a command"
		case '>':
			if i+1 < len(p) && p[i+1] == '=' {
				i++
				continue
			}
			if brace > 0 && paren <= 0 {
				return "redirects output to a file or command"
			}
		case '<':
			if getline && brace > 0 {
				return "reads a file with getline"
			}
		case '@':
			return "loads an extension or include file"
		case 's':
			if strings.HasPrefix(p[i:], "system") && (i == 0 || !isWordByte(p[i-1])) {
				rest := strings.TrimLeft(p[i+len("system"):], " \t")
				if strings.HasPrefix(rest, "(") {
					return "calls system()"
				}
			}
		}
	}
	return ""
}

func isWordByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

package bashguard

import (
	"slices"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// code parses literal shell text (from "bash -c" or "eval") and judges it
// command by command; the result is merged into c. The command running it
// is at best Ask.
func (a *analyzer) code(c *verdictAcc, text string, rule permission.RuleID, what string) {
	a.codeJudged(c, text, rule, what, false)
}

// codeJudged is code; with judged set, shell code whose every command is
// allowed by the same judgement is allowed as they are (a literal bash -c
// script), instead of asked.
func (a *analyzer) codeJudged(c *verdictAcc, text string, rule permission.RuleID, what string, judged bool) {
	if a.depth >= a.g.pol.MaxDepth {
		c.add(permission.Deny, RuleLimitDepth, "cannot be analysed: shell code nested more than "+
			strconv.Itoa(a.g.pol.MaxDepth)+" levels deep", false)
		return
	}
	if len(text) > a.g.pol.MaxScriptBytes {
		c.add(permission.Deny, RuleLimitSize, "cannot be analysed: shell code over the size limit", false)
		return
	}
	f, err := a.sc.parse(text)
	if err != nil {
		c.addc(permission.Deny, 0, RuleParse, parseError(err), "cannot be analysed: "+err.Error(), "", "", false)
		return
	}
	start := len(a.out)
	src, outer, fn := a.src, a.outer, a.curFunc
	if a.outer == nil {
		p := a.pos(a.curPos)
		a.outer = &p
	}
	// The code runs in another shell (bash -c), or is parsed again
	// (eval): loop variables bound outside are not followed into it.
	vars := a.vars
	a.vars = nil
	// Its values are followed on their own, within the limits of the
	// script that runs it.
	outerOff := a.scanned().off
	file, vscan, vscanOff, ifs := a.file, a.vscan, a.vscanOff, a.ifs
	a.vscanOff = outerOff
	a.file, a.vscan, a.ifs = f, varScan{}, ifs || strings.Contains(text, "IFS")
	a.src, a.curFunc = text, ""
	a.depth++
	a.ambiguous(text, f)
	a.stmts(f.Stmts, false, false)
	a.depth--
	a.src, a.outer, a.curFunc = src, outer, fn
	a.vars = vars
	a.file, a.vscan, a.vscanOff, a.ifs = file, vscan, vscanOff, ifs
	inner := a.out[start:]
	if len(inner) > 0 {
		v := combine(inner)
		if v.Decision == permission.Allow && judged {
			c.allow(RuleSafe, what+" runs only commands that are allowed on their own")
			return
		}
		if v.Decision != permission.Allow {
			over := true
			for _, ic := range inner {
				if ic.Decision != permission.Allow && !ic.Overridable {
					over = false
				}
			}
			c.addc(v.Decision, 0, v.Rule, v.Cause, what+" runs "+v.Reason, "", "", over)
		}
	}
	c.add(permission.Ask, rule, what+" runs shell code (each command is judged on its own)", true)
}

// shell judges bash, sh and the other shells.
func (a *analyzer) shell(c *verdictAcc, v *argv, x execCtx) {
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
		c.add(permission.Ask, RuleCodeShell, "-c without shell code", false)
	case cmdFlag && !v.literal(operand):
		c.add(permission.Ask, RuleCodeShell, "runs shell code that is only known at run time", false)
	case cmdFlag:
		// bash and sh read a literal -c script as the guard does, with the
		// same checks; other shells (zsh's glob qualifiers, fish's
		// syntax) do not.
		name := v.vals[0][strings.LastIndexByte(v.vals[0], '/')+1:]
		// Only bash itself: sh is dash on Debian, which reads $'...',
		// braces and [[ ]] otherwise than the guard's parser.
		plain := name == "bash" || name == "zsh"
		for i := 1; i < operand && plain; i++ {
			// Only options that leave the parse as it is: -O extglob,
			// -o posix and the like change how bash reads the script.
			arg := v.vals[i]
			plain = arg == "--login" || arg == "--norc" || arg == "--noprofile" ||
				len(arg) > 1 && arg[0] == '-' && strings.Trim(arg[1:], "clexu") == ""
		}
		if name == "sh" && operand == 2 && v.vals[1] == "-c" {
			// sh is dash on Debian: only code that every POSIX shell
			// reads as bash does.
			if f, err := a.sc.parse(v.vals[operand]); err == nil {
				plain = posixPlain(f)
			}
		}
		if name == "zsh" && plain {
			// zsh only with code it reads as bash does.
			f, err := a.sc.parse(v.vals[operand])
			plain = err == nil && zshPlain(f)
		}
		a.codeJudged(c, v.vals[operand], RuleCodeShell, "-c", plain && !x.piped)
	case operand >= 0 && !stdin:
		c.add(permission.Ask, RuleCodeScript, "runs the script "+v.vals[operand]+", whose content is not analysed", true)
	case x.piped || stdin:
		c.add(permission.Ask, RuleCodePipeToShell, "runs shell code read from its input, which is not analysed", false)
	default:
		c.add(permission.Ask, RuleCodeShell, "starts an interactive shell", false)
	}
}

func (a *analyzer) eval(c *verdictAcc, v *argv) {
	if v.len() < 2 {
		c.add(permission.Ask, RuleCodeEval, "eval without text", true)
		return
	}
	for i := 1; i < v.len(); i++ {
		if !v.literal(i) {
			c.add(permission.Ask, RuleCodeEval, "evaluates text that is only known at run time", false)
			return
		}
	}
	// eval runs in this shell: a cd in its text is not followed.
	a.cdOff++
	a.code(c, strings.Join(v.vals[1:], " "), RuleCodeEval, "eval")
	a.cdOff--
}

// interpreter judges python, perl, node and the like: inline programs are
// never auto-allowed, bare interactive ones are denied.
func (a *analyzer) interpreter(c *verdictAcc, name string, v *argv, x execCtx) {
	if v.len() == 1 {
		switch {
		case x.piped:
			c.add(permission.Ask, RuleCodePipeToShell, "runs a program read from its input, which is not analysed", false)
		case x.stdinRdr:
			// python3 <<'EOF' runs the here-document's text, as
			// python3 script.py runs the file's: it does not wait for a
			// person.
			c.add(permission.Ask, RuleCodeInline, "runs the program its input is redirected from (a here-document, a here-string or a file), which is not analysed", true)
		case bareInteractive[name] || strings.HasPrefix(name, "python"):
			c.add(permission.Deny, RuleDangerousInteractive, "starts an interactive interpreter that would hang waiting for a person", false)
		default:
			c.add(permission.Ask, RuleUnlisted, "not on the safe list", true)
		}
		return
	}
	flags := inlineFor(name)
	for i := 1; i < v.len(); i++ {
		arg := v.vals[i]
		if arg == "-" {
			c.add(permission.Ask, RuleCodePipeToShell, "runs a program read from its input, which is not analysed", false)
			return
		}
		if !strings.HasPrefix(arg, "-") || !v.literal(i) {
			c.add(permission.Ask, RuleUnlisted, "runs the program "+arg+"; not on the safe list", true)
			return
		}
		if strings.HasPrefix(arg, "--") {
			if arg == "--eval" || arg == "--print" || strings.HasPrefix(arg, "--eval=") || strings.HasPrefix(arg, "--command") {
				c.add(permission.Ask, RuleCodeInline, "runs inline program text, which is not analysed", true)
				return
			}
			continue
		}
		if strings.ContainsAny(arg[1:], flags) && flags != "" {
			c.add(permission.Ask, RuleCodeInline, "runs inline program text, which is not analysed", true)
			return
		}
		if name != "perl" && name != "ruby" && arg == "-i" {
			c.add(permission.Deny, RuleDangerousInteractive, "starts an interactive interpreter that would hang waiting for a person", false)
			return
		}
	}
	c.add(permission.Ask, RuleUnlisted, "not on the safe list", true)
}

// awkSafeOpts are the awk options that neither run, load nor write
// anything. Long options must be spelled out: an abbreviation may name
// another option (--p is --posix, --profile or --pretty-print).
var awkSafeOpts = []string{"-F", "-v", "-b", "-c", "-P", "-r", "-S", "-N", "-V",
	"--field-separator", "--assign", "--characters-as-bytes", "--traditional", "--posix", "--re-interval",
	"--sandbox", "--use-lc-numeric", "--version", "--help"}

// awk allows programs that only read their input and print.
func (a *analyzer) awk(c *verdictAcc, v *argv) {
	progFile := false
	var vals []int // words taken as the values of -v and -F
	ops := scanOpts(v, "FvfW", []string{"--field-separator", "--assign", "--file", "--include", "--load", "--exec", "--source"}, nil, func(o opt) {
		name, _, _ := strings.Cut(o.name, "=")
		if o.valAt > 0 {
			vals = append(vals, o.valAt)
		}
		switch {
		case o.name == "-f" || longIs(o.name, "--file", "--exec"):
			progFile = true
		case longIs(o.name, "--include", "--load", "--source") || o.name == "-i" || o.name == "-l" || o.name == "-E" || o.name == "-e":
			progFile = true
		case o.name == "-W":
			// mawk's -W exec file runs a program file; gawk's -W is any
			// long option.
			c.add(permission.Ask, RuleCodeAwk, "uses -W "+o.val+", which can run a program from a file or write files", false)
		case !slices.Contains(awkSafeOpts, name):
			c.add(permission.Ask, ArgsRule("awk"), "uses the awk option "+o.name+", which can write files (--dump-variables, --profile, --pretty-print) or wait for a person (--debug)", false)
		}
	})
	if progFile {
		c.add(permission.Ask, RuleCodeAwk, "runs an awk program from a file or extension, which is not analysed", false)
	} else if len(ops) == 0 {
		c.add(permission.Ask, RuleCodeAwk, "no awk program given", false)
		return
	} else {
		p := ops[0]
		ops = ops[1:]
		if !v.literal(p) {
			c.add(permission.Ask, RuleCodeAwk, "awk program is only known at run time", false)
		} else if why := awkUnsafe(v.vals[p]); why != "" {
			c.add(permission.Ask, RuleCodeAwk, "awk program "+why, false)
		} else if awkReadsEnv(v.vals[p]) {
			environ(c, "awk program reads ENVIRON, the environment")
		}
		// awk takes no options after its program: "awk prog -v f" reads
		// the files "-v" and f. The word scanned as the value of such an
		// option is a file to check as well.
		for _, i := range vals {
			if i > p && !isAssignWord(v.vals[i]) {
				a.readPath(c, v.vals[i], v.flags[i], "awk")
			}
		}
	}
	for _, i := range ops {
		if isAssignWord(v.vals[i]) {
			continue
		}
		a.readPath(c, v.vals[i], v.flags[i], "awk")
	}
	c.allow(RuleSafe, "awk program without system(), pipes or redirection")
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

// awkUnsafe explains why an awk program may run commands, read other
// files or write files, or returns "". It is conservative: "|" and ">"
// inside an action are taken as pipes and redirections, and "<" as
// getline from a file when the program uses getline.
func awkUnsafe(p string) string {
	// Checks on the raw text: a string that holds these words is rare,
	// and nothing can hide them.
	for i := 0; i < len(p); i++ {
		if i > 0 && isWordByte(p[i-1]) {
			continue
		}
		switch {
		case strings.HasPrefix(p[i:], "system"):
			rest := strings.TrimLeft(p[i+len("system"):], " \t\\\n")
			if strings.HasPrefix(rest, "(") {
				return "calls system()"
			}
		case strings.HasPrefix(p[i:], "ARGV") || strings.HasPrefix(p[i:], "ARGC"):
			if i+4 == len(p) || !isWordByte(p[i+4]) {
				return "uses ARGV or ARGC, which can make it read other files"
			}
		}
	}
	budget := awkBranches
	return awkScan(p, 0, awkState{}, strings.Contains(p, "getline"), &budget)
}

// awkBranches bounds how many readings of an ambiguous "/" (division or
// the start of a regular expression) awkScan tries.
const awkBranches = 64

type awkState struct {
	brace, paren int
	operand      bool // the last token ends an operand: "/" is division
	ambiguous    bool // the last token may or may not end an operand
}

// awkScan tokenises p from i in state st and explains the first pipe,
// redirection, getline from a file or extension it finds. Where "/" may be
// division or start a regular expression, both readings are scanned, and
// a regular expression is read both with and without bracket expressions
// protecting "/", so that text inside a regular expression (a quote, a #)
// cannot hide code from the scan.
func awkScan(p string, i int, st awkState, getline bool, budget *int) string {
	n := len(p)
	for i < n {
		ch := p[i]
		switch {
		case ch == ' ' || ch == '\t':
			i++
			continue
		case ch == '\\' && i+1 < n && (p[i+1] == '\n' || p[i+1] == '\r'):
			i += 2
			continue
		case ch == '"':
			for i++; i < n && p[i] != '"'; i++ {
				if p[i] == '\\' {
					i++
				}
			}
			if i >= n {
				return "has an unterminated string"
			}
			i++
			st.operand, st.ambiguous = true, false
			continue
		case ch == '#':
			for i < n && p[i] != '\n' {
				i++
			}
			continue
		case ch == '/':
			regex := !st.operand || st.ambiguous
			division := st.operand || st.ambiguous
			if regex {
				ends := awkRegexEnds(p, i+1)
				if len(ends) == 0 {
					if !division {
						return "has a regular expression that cannot be parsed"
					}
				}
				for k, e := range ends {
					if division || k > 0 {
						*budget--
						if *budget < 0 {
							return "is too complex to analyse"
						}
					}
					if division || k < len(ends)-1 {
						ns := st
						ns.operand, ns.ambiguous = true, false
						if why := awkScan(p, e, ns, getline, budget); why != "" {
							return why
						}
						continue
					}
					i = e
					st.operand, st.ambiguous = true, false
				}
				if !division {
					continue
				}
			}
			i++
			st.operand, st.ambiguous = false, false
			continue
		case isWordByte(ch) || ch == '.' && i+1 < n && p[i+1] >= '0' && p[i+1] <= '9':
			j := i
			for j < n && (isWordByte(p[j]) || p[j] == '.') {
				j++
			}
			word := p[i:j]
			i = j
			st.operand, st.ambiguous = true, false
			if word[0] < '0' || word[0] > '9' {
				if awkKeywords[word] {
					st.operand, st.ambiguous = false, true
				}
			}
			continue
		case ch == '+' || ch == '-':
			if i+1 < n && p[i+1] == ch { // ++ and --: postfix or prefix
				i += 2
				st.operand, st.ambiguous = false, true
				continue
			}
		case ch == ')' || ch == ']':
			if ch == ')' {
				st.paren--
			}
			i++
			st.operand, st.ambiguous = true, false
			continue
		case ch == '(':
			st.paren++
		case ch == '{':
			st.brace++
		case ch == '}':
			st.brace--
		case ch == '|':
			if i+1 < n && p[i+1] == '|' {
				i += 2
				st.operand, st.ambiguous = false, false
				continue
			}
			return "uses a pipe to or from a command"
		case ch == '>':
			if i+1 < n && p[i+1] == '=' {
				i += 2
				st.operand, st.ambiguous = false, false
				continue
			}
			if st.brace > 0 && st.paren <= 0 {
				return "redirects output to a file or command"
			}
		case ch == '<':
			if getline {
				return "reads a file with getline"
			}
		case ch == '@':
			return "loads an extension or include file"
		case ch == '$':
			st.operand, st.ambiguous = false, true
			i++
			continue
		}
		i++
		st.operand, st.ambiguous = false, false
	}
	return ""
}

// awkKeywords are the words after which "/" may start a regular
// expression although they look like operands: keywords, and built-in
// functions that may be called without parentheses.
var awkKeywords = map[string]bool{
	"print": true, "printf": true, "return": true, "in": true, "getline": true, "if": true,
	"while": true, "for": true, "do": true, "else": true, "delete": true, "exit": true,
	"case": true, "length": true, "next": true, "nextfile": true, "BEGIN": true, "END": true,
	"BEGINFILE": true, "ENDFILE": true, "func": true, "function": true, "switch": true, "default": true,
}

// awkRegexEnds returns the indexes just after the "/" that ends a regular
// expression starting at p[i:], read with and without bracket expressions
// protecting "/" (awk implementations differ). A regular expression ends
// at the line's end at the latest; none is returned if it is unterminated.
func awkRegexEnds(p string, i int) []int {
	var ends []int
	for _, brackets := range []bool{true, false} {
		if e := awkRegexEnd(p, i, brackets); e >= 0 && !slices.Contains(ends, e) {
			ends = append(ends, e)
		}
	}
	return ends
}

func awkRegexEnd(p string, i int, brackets bool) int {
	n := len(p)
	for i < n {
		switch ch := p[i]; {
		case ch == '\n':
			return -1
		case ch == '\\':
			i += 2
			continue
		case ch == '/':
			return i + 1
		case ch == '[' && brackets:
			j := i + 1
			if j < n && p[j] == '^' {
				j++
			}
			if j < n && p[j] == ']' {
				j++
			}
			for j < n && p[j] != ']' && p[j] != '\n' {
				if p[j] == '[' && j+1 < n && (p[j+1] == ':' || p[j+1] == '.' || p[j+1] == '=') {
					k := strings.Index(p[j+2:], string(p[j+1])+"]")
					if k < 0 {
						return -1
					}
					j += k + 4
					continue
				}
				j++
			}
			if j >= n || p[j] == '\n' {
				return -1
			}
			i = j + 1
			continue
		}
		i++
	}
	return -1
}

func isWordByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

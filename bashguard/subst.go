package bashguard

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Substitutions and variables whose value the guard knows or need not
// know.
//
// A word's value is known before run time when its expansions are
// $PWD, $HOME, $(pwd) (the directory the guard follows the script in),
// a variable of environNames whose value the host gave (Policy.Environ),
// or a loop variable bound to one of its words (see loops.go): the word
// then stands for that value and is judged as if written so, "ls
// $(pwd)/src" as a listing of the working directory's src. Unquoted, a
// value that word splitting or pathname expansion would change (blanks,
// glob characters, empty) stays unknown.
//
// Otherwise the output of a command substitution is data the guard cannot
// see: its commands are judged where they stand, and the word holding it
// is accepted only where any value is harmless (see dataArg): printed by
// echo or printf, tested as a string, fed to a command's input by a
// here-string or here-document. Anywhere else (a command name, an
// option, a path) it is Ask, as is every other variable: the environment
// holds secrets, except for the few of harmlessParams. A word that is
// only "<(list)" is a pipe from list, read like /dev/fd/N.

// evalWord evaluates a word whose parts are plain text and the expansions
// above, after walkParts walked the commands inside it. ok is false for
// any other word, which stays unknown.
func (a *analyzer) evalWord(w *syntax.Word) (val string, fl wordFlags, ok bool) {
	e := wordEval{a: a}
	if !e.parts(w.Parts, false) {
		return "", 0, false
	}
	if e.data {
		fl = wDynamic | wData
		if e.unquotedData {
			fl |= wUnquoted
		}
		if a.objectIDWord(w) {
			fl |= wObjectIDs
		}
		return a.source(w), fl, true
	}
	v := e.b.String()
	if e.glob {
		if e.valueGlob {
			return "", 0, false // a value's glob characters would be read as a pattern
		}
		fl |= wGlob
	}
	if strings.HasPrefix(v, "~") && !e.leadingLit {
		return "", 0, false // a tilde from a value is not expanded; the judge would read it so
	}
	return v, fl | wKnown, true
}

// wordEval is the state of one evalWord.
type wordEval struct {
	a            *analyzer
	b            strings.Builder
	data         bool // a part is the output of a command substitution
	unquotedData bool // such a part is unquoted: split and globbed
	glob         bool // unquoted literal glob characters
	valueGlob    bool // a substituted value holds glob characters
	leadingLit   bool // the word starts with literal text
	n            int  // parts seen
}

func (e *wordEval) parts(parts []syntax.WordPart, inDQ bool) bool {
	for _, p := range parts {
		first := e.n == 0
		e.n++
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			if !inDQ && (first && strings.HasPrefix(v, "~") || strings.Contains(v, "=~") || strings.Contains(v, ":~")) {
				return false
			}
			if first {
				e.leadingLit = true
			}
			if !inDQ && strings.ContainsAny(v, "*?[") {
				e.glob = true
			}
			unescape(&e.b, v, inDQ)
		case *syntax.SglQuoted:
			if p.Dollar {
				return false
			}
			e.b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar || !e.parts(p.Parts, true) {
				return false
			}
		case *syntax.CmdSubst:
			if v, ok := e.a.pwdValue(p); ok {
				if !e.value(v, inDQ) {
					return false
				}
				continue
			}
			e.data = true
			e.unquotedData = e.unquotedData || !inDQ
		case *syntax.ArithmExp:
			if !constArith(p.X) {
				return false
			}
			// Arithmetic of numbers alone: a number, which assigns
			// nothing and is never split or globbed (unless IFS is
			// changed, which may hold digits).
			e.data = true
			e.unquotedData = e.unquotedData || !inDQ && e.a.ifs
		case *syntax.ParamExp:
			if b, ok := e.a.paramValue(p); ok {
				if b.data {
					// A variable holding the output of judged commands
					// (vars.go): data, as that output is.
					e.data = true
					e.unquotedData = e.unquotedData || !inDQ
					continue
				}
				if !e.value(b.val, inDQ) {
					return false
				}
				continue
			}
			if !plainParam(p) || !harmlessParams()[p.Param.Value] {
				return false
			}
			// A value of the host's or the shell's own, not a secret:
			// data. Unquoted, an empty value vanishes and one with
			// blanks splits, so only the numbers stay one word ($! is
			// empty before the first background job).
			e.data = true
			switch p.Param.Value {
			case "?", "#", "$":
			default:
				e.unquotedData = e.unquotedData || !inDQ
			}
		default:
			return false
		}
	}
	return true
}

// value appends a substituted value; unquoted, one that splitting or
// globbing would change is refused, and so is every one in a script that
// names IFS, which may split it elsewhere.
func (e *wordEval) value(v string, inDQ bool) bool {
	if !inDQ && (v == "" || e.a.ifs || strings.ContainsAny(v, " \t\n\\*?[")) {
		return false
	}
	if strings.ContainsAny(v, "*?[\\") {
		e.valueGlob = true
	}
	e.b.WriteString(v)
	return true
}

// pwdValue gives the output of $(pwd) or `pwd`, the working directory,
// of $(git rev-parse --show-toplevel), the top of the repository git
// finds from it, and of $(go env GOMODCACHE) and its kin (model_go_modcache.go).
func (a *analyzer) pwdValue(cs *syntax.CmdSubst) (string, bool) {
	if len(cs.Stmts) != 1 {
		return "", false
	}
	s := cs.Stmts[0]
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || s.Negated || s.Background || s.Coprocess || len(s.Redirs) > 0 || len(ce.Assigns) > 0 || len(ce.Args) == 0 {
		return "", false
	}
	name := ce.Args[0].Lit()
	if _, shadowed := a.funcs[name]; shadowed {
		return "", false
	}
	if v, ok := a.goEnvSubst(ce); ok {
		return v, true
	}
	if v, ok := echoValue(ce); ok {
		return v, true
	}
	if a.dir == "" {
		return "", false
	}
	words := make([]string, len(ce.Args))
	for i, w := range ce.Args {
		if words[i] = w.Lit(); words[i] == "" {
			return "", false
		}
	}
	if known := valueCommands()[strings.Join(words, " ")]; known != nil {
		return known(&a.cmdCall)
	}
	return "", false
}

// echoSubst reports a word with a part whose value echoValue gives: as a
// command name it stays unknown (a name is judged as written).
func echoSubst(w *syntax.Word) bool {
	found := false
	syntax.Walk(w, func(n syntax.Node) bool {
		if cs, ok := n.(*syntax.CmdSubst); ok && len(cs.Stmts) == 1 {
			if ce, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(ce.Args) > 0 {
				if _, ok := echoValue(ce); ok {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// echoValue gives the output of "echo WORDS" whose words are literal
// text, quoted or plain, that expands to itself: the words joined by
// spaces ("$(echo '*.py')" is "*.py"). A first word that starts with "-"
// may be an option, a backslash an escape (xpg_echo), an unquoted
// pattern, brace or tilde expands: those are not known here, nor is a
// value that holds "$" or "`", which a later evaluation may expand.
func echoValue(ce *syntax.CallExpr) (string, bool) {
	if ce.Args[0].Lit() != "echo" || len(ce.Args) < 2 {
		return "", false
	}
	var b strings.Builder
	for i, w := range ce.Args[1:] {
		if i > 0 {
			b.WriteByte(' ')
		}
		start := b.Len()
		for _, p := range w.Parts {
			v, ok := echoPart(p)
			if !ok {
				return "", false
			}
			b.WriteString(v)
		}
		if v := b.String()[start:]; i == 0 && strings.HasPrefix(v, "-") || strings.ContainsAny(v, "\\$`") {
			return "", false
		}
	}
	return b.String(), true
}

// echoPart gives the text of a part of an echo word that is literal and
// expands to itself: plain text without pattern, brace, tilde, escape or
// quote characters, a '...' string, or a "..." string of plain text
// without "\", "$" or "`".
func echoPart(p syntax.WordPart) (string, bool) {
	switch p := p.(type) {
	case *syntax.Lit:
		return p.Value, !strings.ContainsAny(p.Value, "*?[]{}~\\$`'\"")
	case *syntax.SglQuoted:
		return p.Value, !p.Dollar
	case *syntax.DblQuoted:
		var s strings.Builder
		for _, q := range p.Parts {
			l, ok := q.(*syntax.Lit)
			if !ok || p.Dollar || strings.ContainsAny(l.Value, "\\$`") {
				return "", false
			}
			s.WriteString(l.Value)
		}
		return s.String(), true
	}
	return "", false
}

// constArith reports an arithmetic expression of numbers and operators
// that assign nothing ("1<<2", "(3+4)*2"): its value is a number, known
// without running anything.
func constArith(x syntax.ArithmExpr) bool {
	switch x := x.(type) {
	case *syntax.Word:
		return isArithNumber(x)
	case *syntax.BinaryArithm:
		return !isAssignOp(x.Op) && constArith(x.X) && constArith(x.Y)
	case *syntax.UnaryArithm:
		return x.Op != syntax.Inc && x.Op != syntax.Dec && constArith(x.X)
	case *syntax.ParenArithm:
		return constArith(x.X)
	}
	return false
}

// plainParam reports a plain $NAME or ${NAME}, without operators.
func plainParam(p *syntax.ParamExp) bool {
	return !(p.Excl || p.Length || p.Width || p.IsSet || p.Index != nil || p.Slice != nil || p.Repl != nil ||
		p.Names != 0 || p.Exp != nil || p.NestedParam != nil || p.Param == nil || p.Flags != nil || len(p.Modifiers) > 0)
}

// paramValue gives what a plain $NAME or ${NAME} holds when the guard
// knows: PWD, HOME, bound loop variables and the variables the script
// assigned (vars.go).
func (a *analyzer) paramValue(p *syntax.ParamExp) (binding, bool) {
	if !plainParam(p) {
		return binding{}, false
	}
	name := p.Param.Value
	if b, ok := a.vars[name]; ok {
		return b, true
	}
	switch name {
	case "PWD":
		return binding{val: a.dir}, a.dir != ""
	case "HOME":
		return binding{val: a.g.pol.Home}, a.g.pol.Home != ""
	}
	if v := a.g.pol.Environ[name]; v != "" && environNames()[name] {
		return binding{val: v}, true
	}
	return binding{}, false
}

// procIn reports a word that is only "<(list)": bash passes a pipe from
// list, /dev/fd/N, which a command reads like standard input.
func procIn(w *syntax.Word) (*syntax.ProcSubst, bool) {
	if len(w.Parts) != 1 {
		return nil, false
	}
	ps, ok := w.Parts[0].(*syntax.ProcSubst)
	return ps, ok && ps.Op == syntax.CmdIn
}

// dataArg reports whether word i of v, the output of a command
// substitution, is harmless whatever its value: in a position where the
// command takes it as data, and quoted (not split or globbed) or, when
// the run is confined (Policy.Confined), unquoted where any number of
// any words is data.
func dataArg(name string, v *argv, i int, confined bool) bool {
	switch v.flags[i] & (wData | wUnquoted | wEffect) {
	case wData:
	case wData | wUnquoted:
		if !confined {
			return false
		}
		// Split, a value gives any number of words, each of which may
		// start with "-"; globbed, each may become the names of the
		// entries of a directory the kernel lets the run read. Only
		// commands to which every word is data take that.
		if dataArgs()[name].counted {
			return false // the number of operands decides what test does
		}
	default:
		return false
	}
	d := dataArgs()[name]
	return d.data != nil && d.data(v, i)
}

// dataRow says which words of a command are data whatever their value,
// and whether the number of its words decides what it does (test).
type dataRow struct {
	data    func(v *argv, i int) bool
	counted bool
}

func anyData(*argv, int) bool { return true }

// printfData accepts printf's words after a literal format: arguments,
// never options.
func printfData(v *argv, i int) bool {
	fmtAt := 1
	if v.len() > 1 && v.vals[1] == "--" && v.literal(1) {
		fmtAt = 2
	}
	return i > fmtAt && v.literal(fmtAt) && !strings.HasPrefix(v.vals[fmtAt], "-")
}

// testDataArg accepts the operands of test and [ whose meaning does not
// depend on their value: the operand of -n and -z, and those of the
// string comparisons, in the forms POSIX fixes by the number of
// arguments.
func testDataArg(v *argv, i int) bool {
	end := v.len()
	if v.vals[0] == "[" {
		if end < 2 || v.vals[end-1] != "]" || i == end-1 {
			return false
		}
		end--
	}
	args := v.vals[1:end]
	k := i - 1
	lit := func(j int) bool { return v.literal(j + 1) }
	switch len(args) {
	case 2:
		return k == 1 && lit(0) && (args[0] == "-n" || args[0] == "-z")
	case 3:
		if k == 2 && lit(0) && lit(1) && args[0] == "!" && (args[1] == "-n" || args[1] == "-z") {
			return true
		}
		return k != 1 && lit(1) && stringTestOp(args[1])
	}
	return false
}

// stringTestOp reports the binary operators of test that compare strings,
// and those that compare integers: test and [ parse their operands as
// integers ("integer expression expected"), unlike [[ ]], which evaluates
// them as arithmetic.
func stringTestOp(op string) bool {
	switch op {
	case "=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge":
		return true
	}
	return false
}

// numericParam reports $?, $#, $$ or $!, quoted or not: their values are
// numbers, which arithmetic evaluates as themselves.
func numericParam(w *syntax.Word) bool {
	parts := w.Parts
	if len(parts) == 1 {
		if dq, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = dq.Parts
		}
	}
	if len(parts) != 1 {
		return false
	}
	p, ok := parts[0].(*syntax.ParamExp)
	if !ok || !plainParam(p) {
		return false
	}
	switch p.Param.Value {
	case "?", "#", "$", "!":
		return true
	}
	return false
}

// heredocData reports a here-document body whose expansions are all known
// values or output of command substitutions: the text a command reads on
// its input, harmless whatever it holds.
func (a *analyzer) heredocData(h *syntax.Word) bool {
	e := wordEval{a: a}
	return e.parts(h.Parts, true)
}

// objectIDWord reports a word that is an unquoted substitution of
// objectIDs, alone or followed by the literal rest of a revision range
// ("$(git merge-base HEAD main)..HEAD"): ".." or "..." and a revision
// name, without blanks, glob characters or ":" (which would make the
// word a path in a tree). Split, it gives object names and ranges, or,
// with no output, the range from nothing ("..HEAD"); none starts with
// "-".
func (a *analyzer) objectIDWord(w *syntax.Word) bool {
	if len(w.Parts) == 0 || len(w.Parts) > 2 {
		return false
	}
	cs, ok := w.Parts[0].(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 || !a.objectIDs(cs.Stmts[0]) {
		return false
	}
	if len(w.Parts) == 1 {
		return true
	}
	lit, ok := w.Parts[1].(*syntax.Lit)
	if !ok || !strings.HasPrefix(lit.Value, "..") {
		return false
	}
	for _, r := range lit.Value {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._/-~^", r)) {
			return false
		}
	}
	return true
}

// objectIDs reports a statement that prints git object names alone: "git
// SUB ARGS" of objectIDPrinters, each word literal, its options the row's,
// its operands revisions (no "-" first), no redirection, assignment or
// function named git. Its output splits into hexadecimal words, which
// neither start with "-" nor hold glob characters: a git history command
// takes them as revisions (gitOperands).
func (a *analyzer) objectIDs(s *syntax.Stmt) bool {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || s.Negated || s.Background || s.Coprocess || len(s.Redirs) > 0 || len(ce.Assigns) > 0 || len(ce.Args) < 3 {
		return false
	}
	if _, shadowed := a.funcs["git"]; shadowed || ce.Args[0].Lit() != "git" {
		return false
	}
	row, ok := objectIDPrinters()[ce.Args[1].Lit()]
	if !ok {
		return false
	}
	need := row.need == ""
	for _, w := range ce.Args[2:] {
		v := w.Lit()
		switch {
		case v == "" || strings.ContainsAny(v, "$`\\'\"*?[{~"):
			return false // not plain literal text
		case strings.HasPrefix(v, "-"):
			if !slices.Contains(row.opts, v) {
				return false
			}
			need = need || v == row.need
		}
	}
	return need
}

// goEnvSubst gives the value of $(go env NAME) when the guard knows it.
func (a *analyzer) goEnvSubst(ce *syntax.CallExpr) (string, bool) {
	if len(ce.Args) != 3 || ce.Args[0].Lit() != "go" || ce.Args[1].Lit() != "env" {
		return "", false
	}
	v := a.goEnvValue(ce.Args[2].Lit())
	return v, v != ""
}

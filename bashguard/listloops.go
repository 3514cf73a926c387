package bashguard

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/toolgate/toolgate/permission"
)

// Loops over what a listing command prints (find, or one of model_list.go)
// bind their variable to each path it may print, as a loop over a glob
// does (loops.go), and the body is judged once for each:
//
//	for f in $(git ls-files); do wc -l "$f"; done
//	git ls-files | while read -r f; do head -1 "$f"; done
//	while read -r f; do wc -l "$f"; done < <(find . -name '*.go')
//
// The paths are those the walk of model_find.go reaches (every entry the
// command may list, within the bound of recursive reads); the body's own
// judgement then reads each, so a secret file or a link out of the roots
// is found as it would be written literally. The listing must reach the
// loop directly: the only word of the for list, unquoted ("$(...)" is one
// word with newlines), or the only standard input of the while loop,
// from a pipe or a "< <(...)" process substitution, with nothing else
// writing there (|&, 2>&1).
//
// A path reaches the loop as itself only if the shell does not change
// it: in "for f in $(...)" the output is split at blanks (IFS is never
// changed without an Ask) and each word globbed, so a name with blanks,
// a newline, a backslash or "*", "?", "[" is asked; NUL bytes are dropped,
// so -print0 and -z are not taken. "read -r f" splits at newlines and
// strips leading and trailing blanks (kept with IFS=); without -r it
// removes backslashes, so names with them are asked; "IFS= read -r -d ''
// f" takes -print0 and -z output, any name. Names git prints C-quoted are
// asked. More than maxLoopValues paths, a body that assigns the variable,
// or a read with other options or several variables leave the variable
// unknown, as for any loop whose values are only known at run time.

// listLoopValues gives the paths fi lists as the values a loop variable
// takes; bad says why one would not reach the loop as itself, or "". It
// records an Ask in c and reports false when a value cannot be told, and
// reports false without one when there are too many.
func (a *analyzer) listLoopValues(c *verdictAcc, fi *findInfo, kw string, bad func(string) string) ([]string, bool) {
	if fi.unknown {
		c.add(permission.Ask, RuleDynamicArg, "loops over the files below a starting point only known at run time", false)
		return nil, false
	}
	var values []string
	add := func(v string) bool {
		if why := bad(v); why != "" {
			c.addf(permission.Ask, RuleDynamicArg, "loops over the names "+fi.lister()+" prints, where ", v, why, false)
			return false
		}
		if fi.quoted && !fi.print0 && gitQuotes(v) {
			c.addf(permission.Ask, RuleDynamicArg, "loops over the names "+fi.lister()+" prints, where ", v, " holds characters it prints quoted, as another name", false)
			return false
		}
		values = append(values, v)
		return true
	}
	many := false
	if fi.bare && !isDir(a.dir) {
		return nil, false // a working directory that cannot be listed: unknown
	}
	for _, s := range fi.starts {
		if !fi.bare && !add(s) {
			return nil, false // find and grep print a starting point that matches
		}
		ok := a.eachFound(c, s, fi, func(_, rel, _ string) bool {
			if len(values) >= maxLoopValues {
				many = true
				return false
			}
			return add(fi.printed(s, rel))
		})
		if many {
			c.add(permission.Ask, RuleDynamicArg, tooManyWhy(fi.lister()), false)
			return nil, false
		}
		if !ok {
			return nil, false
		}
	}
	return values, true
}

// forListing gives the paths a for list word prints when it is
// "$(LISTING)", after judging the word; ok is false when the word is no
// such listing, or its paths cannot be told (c then says why when it
// can).
func (a *analyzer) forListing(c *verdictAcc, w *syntax.Word, kw string, want bool) (r wordRes, values []string, isList, ok bool) {
	cs, single := wordSubst(w)
	if !single || !want {
		return a.word(w, false), nil, false, false
	}
	if !a.isListing(cs.Stmts[0]) {
		return a.word(w, false), nil, false, false
	}
	a.lastFind, a.pipeOut = nil, nil
	r = a.word(w, false)
	fi := a.substLister(cs.Stmts[0])
	if fi == nil || fi.print0 || !fi.paths {
		return r, nil, false, false
	}
	values, ok = a.listLoopValues(c, fi, kw, func(v string) string {
		if strings.ContainsAny(v, " \t\n") {
			return ", which holds blanks the shell splits into other words"
		}
		if strings.ContainsAny(v, "*?[\\") {
			return ", which the shell expands as a pattern"
		}
		return ""
	})
	return r, values, true, ok
}

// listedArg gives the paths the word w, an operand of the reader who,
// prints when it is an unquoted "$(LISTING)", each reaching who as a word
// of its own: one the shell would split or glob, or that starts with "-"
// and so would be read as an option, is refused, as in the loops over
// listings. ok is false when w is no such listing or its paths cannot be
// told; r is then the word as judged, or nil when it was not judged.
func (a *analyzer) listedArg(c *verdictAcc, w *syntax.Word, who string) (r *wordRes, paths []string, ok bool) {
	cs, single := wordSubst(w)
	if !single || !a.isListing(cs.Stmts[0]) {
		return nil, nil, false
	}
	res, values, isList, listOK := a.forListing(c, w, who, true)
	if !isList || !listOK || slices.ContainsFunc(values, func(v string) bool { return strings.HasPrefix(v, "-") }) {
		return &res, nil, false
	}
	if res.flags&wEffect != 0 {
		return &res, nil, false
	}
	return nil, values, true
}

// splice gives v with the words of spliced put in place of the listings
// they stand for, each a literal word.
func splice(v argv, spliced map[int][]string) argv {
	var out argv
	for i := range v.vals {
		if paths, ok := spliced[i]; ok {
			for _, p := range paths {
				out.vals, out.flags = append(out.vals, p), append(out.flags, 0)
			}
			continue
		}
		out.vals, out.flags = append(out.vals, v.vals[i]), append(out.flags, v.flags[i])
	}
	return out
}

// wordSubst reports a word that is only an unquoted $(...) or `...` of
// one statement.
func wordSubst(w *syntax.Word) (*syntax.CmdSubst, bool) {
	if len(w.Parts) != 1 {
		return nil, false
	}
	cs, ok := w.Parts[0].(*syntax.CmdSubst)
	return cs, ok && len(cs.Stmts) == 1
}

// isListing reports a statement substLister models: find, a listing
// command of model_list.go, or one of them piped through line filters
// ("git ls-files | grep '\.go$'").
func (a *analyzer) isListing(s *syntax.Stmt) bool {
	if p, ok := filteredListing(s); ok {
		return a.isListing(p)
	}
	if args, ok := a.listerArgs(s); ok && cmdNamed()[args[0]] == clsFind {
		return true
	}
	return a.lister(s) != nil
}

// filteredListing returns the left side of "X | FILTER", when s is such a
// pipeline and FILTER prints some of the lines it reads (lineFilter).
func filteredListing(s *syntax.Stmt) (*syntax.Stmt, bool) {
	b, ok := s.Cmd.(*syntax.BinaryCmd)
	if !ok || b.Op != syntax.Pipe || s.Negated || s.Background || s.Coprocess || len(s.Redirs) > 0 ||
		len(b.X.Redirs) > 0 || b.X.Negated || !lineFilter(b.Y) {
		return nil, false
	}
	return b.X, true
}

// substLister is what the statement s, just judged, lists: find's record
// when s is a find, a listing command's model, or for a listing piped
// through line filters what the pipeline walked last passes on.
func (a *analyzer) substLister(s *syntax.Stmt) *findInfo {
	if _, ok := filteredListing(s); ok {
		return a.pipeOut
	}
	if args, ok := a.listerArgs(s); ok && cmdNamed()[args[0]] == clsFind {
		return a.lastFind
	}
	return a.lister(s)
}

// readLoop describes "read [-r] [-d ”] NAME", with IFS= before it or not.
type readLoop struct {
	name     string
	raw      bool // -r
	nul      bool // -d '': names end at NUL
	keepIFS  bool // IFS=: no blanks stripped
	position syntax.Pos
}

// parseRead recognises the condition of a while loop that reads one name
// a line.
func (a *analyzer) parseRead(cond []*syntax.Stmt) (readLoop, bool) {
	var r readLoop
	if len(cond) != 1 {
		return r, false
	}
	s := cond[0]
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || s.Negated || s.Background || s.Coprocess || len(s.Redirs) > 0 || len(ce.Args) < 2 {
		return r, false
	}
	for _, as := range ce.Assigns {
		if as.Name == nil || as.Name.Value != "IFS" || as.Append || as.Naked || as.Index != nil || as.Array != nil {
			return r, false
		}
		if as.Value != nil {
			if v, ok := literalText(as.Value); !ok || v != "" {
				return r, false
			}
		}
		r.keepIFS = true
	}
	var args []string
	for _, w := range ce.Args {
		t, ok := literalText(w)
		if !ok {
			return r, false
		}
		args = append(args, t)
	}
	if args[0] != "read" {
		return r, false
	}
	if _, shadowed := a.funcs["read"]; shadowed {
		return r, false
	}
	rest := args[1:]
	for len(rest) > 1 {
		switch {
		case rest[0] == "-r":
			r.raw, rest = true, rest[1:]
		case rest[0] == "-d" && rest[1] == "":
			r.nul, rest = true, rest[2:]
		case rest[0] == "-rd" && rest[1] == "":
			r.raw, r.nul, rest = true, true, rest[2:]
		default:
			return r, false
		}
	}
	if len(rest) != 1 || !isIdent(rest[0]) {
		return r, false
	}
	r.name, r.position = rest[0], ce.Pos()
	return r, true
}

// whileLoop judges a while or until loop. It reports whether it judged
// the statement's redirections too.
func (a *analyzer) whileLoop(cmd *syntax.WhileClause, s *syntax.Stmt, x execCtx) bool {
	// Each pass starts with what the loop may assign unknown, and so does
	// what follows.
	a.killAssigned(cmd.Cond)
	a.killAssigned(cmd.Do)
	pre := a.saveVars()
	defer func() { a.vars = pre }()
	rd, ok := a.parseRead(cmd.Cond)
	if cmd.Until || !ok {
		a.stmts(cmd.Cond, x.fork, x.piped)
		a.stmts(cmd.Do, x.fork, x.piped)
		return false
	}
	fi, redirs := x.found, false
	if len(s.Redirs) > 0 {
		fi = nil
		if ps := listingRedirect(s.Redirs); ps != nil && a.isListing(ps.Stmts[0]) {
			// The listing is judged first, which records what it lists.
			a.lastFind, a.pipeOut = nil, nil
			a.bareRedirects(s, x)
			redirs = true
			fi = a.substLister(ps.Stmts[0])
		}
	}
	if fi == nil || !fi.paths || fi.print0 != rd.nul {
		a.stmts(cmd.Cond, x.fork, x.piped)
		a.stmts(cmd.Do, x.fork, x.piped)
		return redirs
	}
	if !a.count() {
		return redirs
	}
	c := newAcc()
	if why := riskyVar(rd.name, false); why != "" {
		c.add(permission.Ask, RuleEnvAssign, "read assigns "+rd.name+", which "+why, false)
	}
	values, known := a.listLoopValues(&c, fi, "while", func(v string) string {
		switch {
		case !rd.nul && strings.Contains(v, "\n"):
			return ", which holds a newline, where read ends a name"
		case !rd.raw && strings.Contains(v, "\\"):
			return ", which holds backslashes read removes (use read -r)"
		case !rd.keepIFS && v != strings.Trim(v, " \t\n"):
			return ", which starts or ends with blanks read strips (use IFS=)"
		}
		return ""
	})
	c.allow(RuleSafe, "reads the names "+fi.lister()+" prints")
	a.emit([]string{"read", rd.name}, rd.position, &c, true, false)
	a.eachValue(rd.name, values, known, cmd.Do, x)
	return redirs
}

// listingRedirect returns the process substitution of "< <(...)" when it
// is the only redirection, of standard input, with one statement.
func listingRedirect(redirs []*syntax.Redirect) *syntax.ProcSubst {
	if len(redirs) != 1 {
		return nil
	}
	r := redirs[0]
	if r.Op != syntax.RdrIn || r.N != nil && r.N.Value != "0" || r.Word == nil {
		return nil
	}
	ps, ok := procIn(r.Word)
	if !ok || len(ps.Stmts) != 1 {
		return nil
	}
	return ps
}

// eachValue judges a loop body once for each value of the variable name,
// within the bounds of loops.go, or once with it unknown.
func (a *analyzer) eachValue(name string, values []string, known bool, body []*syntax.Stmt, x execCtx) {
	if known {
		known = a.loopWalks+len(values) <= maxLoopWalks &&
			a.ncmds+len(values)*bodyCommands(body) <= a.g.pol.MaxCommands/2 && !a.assignsVar(body, name)
	}
	// Each pass starts with what the body may assign unknown: a pass may
	// follow another, or break and continue may skip part of one. After
	// the loop the variable and what the body may assign are unknown.
	a.killVar(name)
	a.killAssigned(body)
	pre := a.saveVars()
	if !known {
		a.stmts(body, x.fork, x.piped)
		a.vars = pre
		return
	}
	a.loopWalks += len(values)
	for _, v := range values {
		if a.abort != "" {
			break
		}
		a.vars = maps.Clone(pre)
		a.setVar(name, binding{val: v})
		a.stmts(body, x.fork, x.piped)
	}
	a.vars = pre
}

// tooManyWhy is the reason a listing loop over more values than the
// guard judges one by one is asked.
func tooManyWhy(who string) string {
	return "loops over more than " + strconv.Itoa(maxLoopValues) + " names " + who + " prints, too many to judge one by one"
}

// lister returns what the simple command of s prints, when it is one of
// the listing commands of model_list.go with words known before run time,
// and nil otherwise.
func (a *analyzer) lister(s *syntax.Stmt) *findInfo {
	args, ok := a.listerArgs(s)
	if !ok {
		return nil
	}
	return a.listerOf(args)
}

// listerArgs gives the words of the simple command of s when each is
// known before run time, free of globs, braces and tildes bash expands, and
// the command is not a shell function.
func (a *analyzer) listerArgs(s *syntax.Stmt) ([]string, bool) {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || s.Negated || s.Background || s.Coprocess || len(s.Redirs) > 0 || len(ce.Assigns) > 0 || len(ce.Args) == 0 {
		return nil, false
	}
	args := make([]string, 0, len(ce.Args))
	for _, w := range ce.Args {
		for k, p := range w.Parts {
			if l, ok := p.(*syntax.Lit); ok && (strings.ContainsAny(l.Value, "*?[{") ||
				k == 0 && strings.HasPrefix(l.Value, "~") || strings.Contains(l.Value, "=~") || strings.Contains(l.Value, ":~")) {
				return nil, false
			}
		}
		t, ok := literalText(w)
		if !ok {
			return nil, false
		}
		args = append(args, t)
	}
	if _, shadowed := a.funcs[args[0]]; shadowed {
		return nil, false
	}
	return args, true
}

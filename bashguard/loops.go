package bashguard

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/toolgate/toolgate/internal/shword"
	"github.com/toolgate/toolgate/permission"
)

// A for loop over literal words and globs binds its variable to each of
// the values it takes, and its body is judged once for each: in "for f in
// *.go; do wc -l "$f"; done" every wc is judged with the file it reads. A
// glob is expanded as bash expands it, against the directory it lists
// (which is a read of that directory, as for any glob), and a glob that
// matches nothing is its own value. The body is judged once with the
// variable unknown instead when a word's value is not known before run
// time ($(ls), "$@", a brace expansion), when there are more values than
// maxLoopValues or the body would be judged too many times in all, and
// when the body may assign the variable itself.

const (
	// maxLoopValues bounds the values a loop variable is bound to.
	maxLoopValues = 32
	// maxLoopWalks bounds the bodies judged for bound values in one
	// script, nested loops included.
	maxLoopWalks = 128
)

// forLoop judges a for or select loop.
func (a *analyzer) forLoop(cmd *syntax.ForClause, x execCtx) {
	l, ok := cmd.Loop.(*syntax.WordIter)
	if !ok {
		if cs, ok := cmd.Loop.(*syntax.CStyleLoop); ok {
			a.arithCommand(cmd.Pos(), "for ((", cs.Init, cs.Cond, cs.Post)
		}
		a.killAssigned(cmd.Do)
		pre := a.saveVars()
		a.stmts(cmd.Do, x.fork, x.piped)
		a.vars = pre
		return
	}
	kw := "for"
	if cmd.Select {
		kw = "select"
	}
	name := l.Name.Value
	c := newAcc()
	if why := riskyVar(name, false); why != "" {
		c.add(permission.Ask, RuleEnvAssign, "assigns the loop variable "+name+", which "+why, false)
	}
	values, known := []string(nil), !cmd.Select && len(l.Items) > 0
	for _, w := range l.Items {
		r, listed, isList, listOK := a.forListing(&c, w, kw, known)
		if r.flags&wEffect != 0 {
			c.add(permission.Ask, RuleDynamicExpansion, r.effect, false)
		}
		if !known {
			continue
		}
		switch {
		case isList:
			// The paths a listing command prints (listloops.go).
			known = listOK
			values = append(values, listed...)
		case r.flags&wDynamic != 0:
			known = false
		case r.flags&wGlob != 0:
			// bash lists the directory to expand the glob: the names
			// it finds are what the body sees.
			a.readPath(&c, globDir(r.val), 0, kw)
			if a.dir == "" && !strings.HasPrefix(r.val, "/") {
				known = false
				continue
			}
			m, err := a.ws.glob(a.dir, r.val)
			if err != nil {
				known = false
				continue
			}
			if len(m) == 0 {
				m = []string{r.val}
			}
			values = append(values, m...)
		default:
			values = append(values, r.val)
		}
		if len(values) > maxLoopValues {
			known = false
		}
	}
	if c.decided && a.count() {
		a.emit([]string{kw}, l.Pos(), &c, false, false)
	}
	a.eachValue(name, values, known, cmd.Do, x)
	// After the loop the variable holds its last value, or what it held
	// before when the list was empty: it is left unknown (see eachValue).
}

// bodyCommands counts the simple commands in a loop body, at least one.
func bodyCommands(stmts []*syntax.Stmt) int {
	n := 1
	for _, s := range stmts {
		syntax.Walk(s, func(node syntax.Node) bool {
			if _, ok := node.(*syntax.CallExpr); ok {
				n++
			}
			return true
		})
	}
	return n
}

// assignsVar reports whether the statements may assign name: an
// assignment to it, a loop over it, a redirection {name}>, arithmetic
// (which a subscript or a parameter's offset evaluates too), ${name:=...},
// a builtin that assigns (read, printf -v, unset, getopts, mapfile, ...)
// with a word that holds the name, code run in this shell (eval, source),
// the call of a function the script defines, or a command whose name is
// only known at run time. It errs towards yes.
func (a *analyzer) assignsVar(stmts []*syntax.Stmt, name string) bool {
	found := false
	for _, s := range stmts {
		syntax.Walk(s, func(node syntax.Node) bool {
			switch n := node.(type) {
			case *syntax.Assign:
				found = found || n.Name != nil && n.Name.Value == name || n.Index != nil
			case *syntax.ArrayElem:
				found = found || n.Index != nil
			case *syntax.ParamExp:
				if n.Index != nil || n.Slice != nil || n.Excl {
					found = true
				}
				if e := n.Exp; e != nil && (e.Op == syntax.AssignUnset || e.Op == syntax.AssignUnsetOrNull ||
					e.Op == syntax.OtherParamOps) && (n.Param == nil || n.Param.Value == name || e.Op == syntax.OtherParamOps) {
					found = true
				}
			case *syntax.BinaryTest:
				switch n.Op {
				case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
					found = true // evaluated as arithmetic
				}
			case *syntax.FuncDecl:
				return false // its body runs where it is called
			case *syntax.WordIter:
				found = found || n.Name.Value == name
			case *syntax.CoprocClause:
				found = found || n.Name != nil && n.Name.Lit() == name
			case *syntax.Redirect:
				found = found || n.N != nil && strings.Contains(n.N.Value, name)
			case *syntax.ArithmCmd, *syntax.LetClause, *syntax.ArithmExp, *syntax.CStyleLoop, *syntax.BinaryArithm,
				*syntax.UnaryArithm:
				found = true
			case *syntax.CallExpr:
				if len(n.Args) == 0 {
					break
				}
				cmd, ok := literalText(n.Args[0])
				if !ok {
					found = true
					break
				}
				if _, ok := a.funcs[cmd]; ok || a.scanned().funcs[cmd] {
					found = true
					break
				}
				switch varBuiltins()[cmd] {
				case varRunsCode:
					found = true
				case varNamesWord:
					for _, w := range n.Args[1:] {
						t, ok := literalText(w)
						found = found || !ok || strings.Contains(t, name) ||
							builtinRunners()[cmd] && (untrackedCmds()[t] || varBuiltins()[t] == varRunsCode)
					}
				}
			}
			return !found
		})
	}
	return found
}

// literalText is the text bash gives a word without expansions
// ([shword.Literal], which rule specifiers are split with too).
func literalText(w *syntax.Word) (string, bool) { return shword.Literal(w) }

// isLiteralWord reports a word without expansions.
func isLiteralWord(w *syntax.Word) bool {
	_, ok := literalText(w)
	return ok
}

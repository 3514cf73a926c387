package bashguard

import (
	"maps"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Variables a script assigns itself.
//
// The guard follows, in the order the script runs, what each variable it
// assigns holds, as it follows the working directory (see cdtrack.go):
//
//   - a literal word, or one whose value is known ($PWD, $HOME, $(pwd),
//     another known variable): the variable holds that value, and "$x"
//     or $x later stands for it as a loop variable does (loops.go);
//   - the output of command substitutions whose commands are judged where
//     they stand, or a variable holding such output: the variable holds
//     data, accepted only where a quoted "$(...)" is (see dataArg), and
//     unquoted only where an unquoted substitution is;
//   - anything else: the variable is unknown, as is every variable the
//     script has not assigned (the environment may hold anything).
//
// Only plain lower-case names that neither bash nor the programs it runs
// read are followed (riskyVar, and not "_", which bash sets itself):
// IFS, PATH, HOME, PWD and the other names bash reads are never local
// values; assigning them stays asked.
//
// Where the order is not known the guard takes the values every path
// agrees on: after an if, a case, && or ||, or a statement judged in
// several working directories, a variable keeps its value only when every
// branch leaves it the same (two different values, or data, are data);
// a loop leaves every variable its body or condition may assign unknown,
// inside the body too. Assignments in a subshell, a pipeline element, a
// command or process substitution, a background job or a function body do
// not reach the commands after them (the last element of a pipeline may,
// with lastpipe: its values are joined with those before). Every
// builtin that may assign (read, mapfile, printf -v, getopts, unset, wait
// -p, ${x:=...}, arithmetic, command and builtin), the call of a function
// the script defines, eval, source and a command whose name is only known
// at run time make the variables they may assign unknown.
//
// A script in which values cannot be followed at all is left as before:
// one that declares attributes that change what an assignment stores or
// where it goes (declare -n, -i, -l, -u, -a, readonly), installs traps or
// aliases, loads builtins, changes shell options with shopt, or runs
// code the guard does not see (eval, source, a command whose name is only
// known at run time). There a value assigned from a substitution is asked
// as before.

// binding is what the guard knows a variable holds.
type binding struct {
	val  string // the value, when not data
	data bool   // output of judged commands: any value
}

// maxVars bounds the variables followed at once; more are unknown.
const maxVars = 64

// varScan is what the guard found once in a parsed script before it
// follows its variables.
type varScan struct {
	done  bool
	off   bool            // values cannot be followed in this script
	funcs map[string]bool // the functions it defines anywhere
}

// scanned returns the scan of the script being walked, made on first use.
func (a *analyzer) scanned() *varScan {
	if !a.vscan.done {
		a.vscan = scanVars(a.file)
		// Code the outer script runs: its limits hold here too.
		a.vscan.off = a.vscan.off || a.vscanOff
	}
	return &a.vscan
}

// scanVars looks through f once.
func scanVars(f *syntax.File) varScan {
	s := varScan{done: true}
	if f == nil {
		s.off = true
		return s
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.FuncDecl:
			if n.Name != nil {
				if s.funcs == nil {
					s.funcs = map[string]bool{}
				}
				s.funcs[n.Name.Value] = true
			}
		case *syntax.DeclClause:
			if !plainDecl(n) {
				s.off = true
			}
		case *syntax.CallExpr:
			if len(n.Args) == 0 {
				break
			}
			name, ok := literalText(n.Args[0])
			if !ok || untrackedCmds()[name] {
				s.off = true
				break
			}
			if builtinRunners()[name] {
				for _, w := range n.Args[1:] {
					if t, ok := literalText(w); !ok || untrackedCmds()[t] {
						s.off = true
					}
				}
			}
		}
		return true
	})
	return s
}

// plainDecl reports a declaration that only assigns values and exports
// them: export (with -n, -f, -p), or declare, typeset and local with no
// option but -x, -g, -p, -f, -F, and no word only known at run time.
func plainDecl(d *syntax.DeclClause) bool {
	allowed, ok := declOptions()[d.Variant.Value]
	if !ok {
		return false
	}
	for _, as := range d.Args {
		if !as.Naked || as.Name != nil {
			continue
		}
		t, ok := literalText(as.Value)
		if !ok {
			return false
		}
		if strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+") {
			if t == "--" {
				continue
			}
			if strings.Trim(t[1:], allowed) != "" {
				return false
			}
			continue
		}
		if !isIdent(t) {
			return false // 'x=1' quoted, a subscript: parsed at run time
		}
	}
	return true
}

// tracked reports whether the guard follows the values of name in this
// script.
func (a *analyzer) tracked(name string) bool {
	if name == "_" || !isIdent(name) || strings.ToLower(name) != name || riskyVar(name, false) != "" {
		return false
	}
	return !a.scanned().off
}

// setVar records that name holds b.
func (a *analyzer) setVar(name string, b binding) {
	if _, ok := a.vars[name]; !ok && len(a.vars) >= maxVars {
		return
	}
	if a.vars == nil {
		a.vars = map[string]binding{}
	}
	a.vars[name] = b
}

// killVar forgets what name holds.
func (a *analyzer) killVar(name string) { delete(a.vars, name) }

// killAll forgets every value.
func (a *analyzer) killAll() { a.vars = nil }

// saveVars returns a copy of the values, for restoreVars.
func (a *analyzer) saveVars() map[string]binding { return maps.Clone(a.vars) }

// joinVars returns the values two paths of a script agree on.
func joinVars(x, y map[string]binding) map[string]binding {
	var out map[string]binding
	for k, bx := range x {
		by, ok := y[k]
		if !ok {
			continue
		}
		if bx != by {
			// Either value: harmless where any value is, and nowhere
			// else known.
			bx = binding{data: true}
		}
		if out == nil {
			out = map[string]binding{}
		}
		out[k] = bx
	}
	return out
}

// joiner joins the values of several ways through a script; none leaves
// nothing known.
type joiner struct {
	m       map[string]binding
	started bool
}

func (j *joiner) add(m map[string]binding) {
	if !j.started {
		j.m, j.started = m, true
		return
	}
	j.m = joinVars(j.m, m)
}

// killAssigned forgets the values the statements may assign.
func (a *analyzer) killAssigned(stmts []*syntax.Stmt) {
	for name := range a.vars {
		if a.assignsVar(stmts, name) {
			delete(a.vars, name)
		}
	}
}

// assignValue gives what an assignment's value r stores: a known value, or
// data. ok is false for anything else.
func assignValue(r wordRes) (binding, bool) {
	switch {
	case r.flags&wEffect != 0 || r.flags&wProcIn != 0:
		return binding{}, false
	case r.flags&wDynamic == 0:
		// A literal or a known value; an assignment neither splits nor
		// globs it.
		return binding{val: r.val}, true
	case r.flags&wData != 0:
		return binding{data: true}, true
	}
	return binding{}, false
}

// bindAssign records what the assignment as, whose value the guard read
// as b (ok false: unknown), leaves in its variable.
func (a *analyzer) bindAssign(as *syntax.Assign, b binding, ok bool) {
	if as.Name == nil {
		return
	}
	name := as.Name.Value
	if as.Naked {
		return // "export x" keeps the value
	}
	if !ok || as.Index != nil || as.Array != nil || !a.tracked(name) {
		a.killVar(name)
		return
	}
	if as.Append {
		old, had := a.vars[name]
		switch {
		case !had:
			a.killVar(name) // appended to a value from the environment
			return
		case old.data || b.data:
			b = binding{data: true}
		default:
			b.val = old.val + b.val
		}
	}
	a.setVar(name, b)
}

// afterCall forgets what the simple command v may assign, once it ran.
func (a *analyzer) afterCall(v *argv) {
	if len(a.vars) == 0 || v.len() == 0 {
		return
	}
	if !v.literal(0) {
		a.killAll() // it may be anything, a function or a builtin
		return
	}
	name := v.vals[0]
	if _, ok := a.funcs[name]; ok || a.scanned().funcs[name] {
		a.killAll() // a function may assign any variable
		return
	}
	row, assigns := assigners()[name]
	switch {
	case assignsAny()[name]:
		a.killAll()
	case assigns && (!row.prints || printfAssigns(v)):
		a.killNamed(v)
	}
}

// killNamed forgets every variable an argument of v may name.
func (a *analyzer) killNamed(v *argv) {
	for i := 1; i < v.len(); i++ {
		if !v.literal(i) {
			a.killAll()
			return
		}
		for name := range a.vars {
			if strings.Contains(v.vals[i], name) {
				delete(a.vars, name)
			}
		}
	}
}

// ifClause walks an if: the conditions in turn, each branch from what its
// condition left, and keeps what every way through agrees on.
func (a *analyzer) ifClause(cmd *syntax.IfClause, x execCtx) {
	var ends joiner
	hasElse := false
	for c := cmd; c != nil; c = c.Else {
		if !c.ThenPos.IsValid() {
			a.stmts(c.Then, x.fork, x.piped) // else
			ends.add(a.vars)
			hasElse = true
			break
		}
		a.stmts(c.Cond, x.fork, x.piped)
		failed := a.saveVars()
		a.stmts(c.Then, x.fork, x.piped)
		ends.add(a.vars)
		a.vars = failed
	}
	if !hasElse {
		ends.add(a.vars)
	}
	a.vars = ends.m
}

// caseItems walks the items of a case, each from the values before it,
// and keeps what every way through agrees on (no pattern may match). With
// ;& or ;;& one item may run after another: what any item may assign is
// unknown in all of them and after.
func (a *analyzer) caseItems(cmd *syntax.CaseClause, x execCtx) {
	falls := false
	for _, it := range cmd.Items {
		falls = falls || it.Op != syntax.Break
	}
	if falls {
		for _, it := range cmd.Items {
			a.killAssigned(it.Stmts)
		}
	}
	pre := a.saveVars()
	var ends joiner
	ends.add(pre)
	for _, it := range cmd.Items {
		a.vars = maps.Clone(pre)
		a.stmts(it.Stmts, x.fork, x.piped)
		ends.add(a.vars)
	}
	if falls {
		a.vars = pre
		return
	}
	a.vars = ends.m
}

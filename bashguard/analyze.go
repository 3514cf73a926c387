package bashguard

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/toolgate/toolgate/permission"
)

// analyzer holds the state of one Judge call. It is not shared.
//
// It is the walker: it owns the bash semantics (the syntax tree, the
// values variables hold, cd tracking, functions, loops, background jobs,
// nested code). What a command model sees of the call is the embedded
// cmdCall (model.go), and no model reaches the rest.
type analyzer struct {
	cmdCall

	g  *Guard   // the guard walking: its policy's limits, its pool
	sc *scratch // borrowed from the Guard for this call

	src    string // text of the script being walked (changes for nested code)
	depth  int    // nesting of literal shell code
	outer  *Pos   // position of the command that holds nested code
	ncmds  int
	curPos syntax.Pos // position of the simple command being judged
	calls  int        // simple commands being judged, one inside another: the slots of sc.calls in use

	abort     string
	abortRule permission.RuleID

	out    []Command
	direct []bool // out[i] is called directly by its literal name out[i].Args[0], for function lookup

	funcs   map[string]syntax.Pos // declared shell functions
	curFunc string                // function whose body is being walked
	edges   []funcEdge

	// Following cd (see cdtrack.go).
	cdOff  int    // > 0 where a cd's effect is not followed
	cdWant bool   // the command being walked may be a followed cd
	cdTo   string // where the followed cd just judged leads
	cdDone bool   // cdTo is set

	vars      map[string]binding // what variables hold: loop variables (loops.go), assigned ones (vars.go)
	file      *syntax.File       // the script being walked (changes for nested code)
	vscan     varScan            // what scanVars found in file
	vscanOff  bool               // the code that runs file cannot follow values
	ifs       bool               // the script names IFS: unquoted values may split elsewhere
	loopWalks int                // loop bodies judged for bound values
	pipeOut   *findInfo          // the pipeline walked last prints lines this find printed
	lastFind  *findInfo          // what the find judged last lists (verdictAcc.lists)

	// endless is why a command judged since the background job being
	// walked began may not end on its own (see background.go), or "".
	endless string
}

// funcEdge records that function from calls name; fork is set when the
// call runs in the background or in a pipeline.
type funcEdge struct {
	from, to string
	fork     bool
}

// verdictAcc accumulates the factors that decide one command.
//
// The reason of the deciding factor is kept in up to three parts that are
// joined only when the command is emitted, so that factors that lose to a
// stricter one cost no string building.
//
// The one-byte fields come first, together: an accumulator of the
// command being judged is allocated for every command, and padding
// between them would put it in a larger size class.
type verdictAcc struct {
	dec        permission.Decision
	layer      permission.Layer // of the deciding factor; zero for the guard's own checks
	allowLayer permission.Layer // of allowRule; zero for the guard's own
	nonOver    bool             // some factor forbids an allow rule from lifting the Ask
	unnamed    bool             // some such factor no allow rule lifts, whatever it names
	decided    bool             // a non-Allow factor was recorded
	viaActs    bool             // a wrapper's own options do something (see [Command.ViaActs])
	rule       permission.RuleID
	cause      error     // the error behind the deciding factor, if any
	why        [3]string // the reason, in parts
	named      []string  // options whose factors an allow rule that names them lifts (see addNamed)
	allowRule  permission.RuleID
	allowWhy   string
	// runs and via are the command a process wrapper runs and the
	// wrappers around it, outermost first (see [Command.Runs]).
	runs, via []string
	more      [][]string // further commands it runs (see [Command.RunsMore])
	asks      []Finding  // every Ask factor (see [Command.Asks])
	// endless is why the command may not end on its own, or "": a
	// background job that runs it stays asked (background.go).
	endless string
	// lists is what the command lists when it is a find (model_find.go),
	// for the pipeline or loop that reads its output; or nil.
	lists *findInfo
}

func newAcc() verdictAcc { return verdictAcc{dec: permission.Allow} }

// add records one factor. The first factor of the strictest decision wins
// the reason and rule.
func (c *verdictAcc) add(d permission.Decision, rule permission.RuleID, reason string, overridable bool) {
	c.addf(d, rule, reason, "", "", overridable)
}

// addf is add with a reason given in parts: r0+r1+r2.
func (c *verdictAcc) addf(d permission.Decision, rule permission.RuleID, r0, r1, r2 string, overridable bool) {
	c.addl(d, 0, rule, r0, r1, r2, overridable)
}

// addl is addf for a factor that another layer decided (a path rule, the
// sandbox), or the guard itself when layer is zero.
func (c *verdictAcc) addl(d permission.Decision, layer permission.Layer, rule permission.RuleID, r0, r1, r2 string, overridable bool) {
	c.addc(d, layer, rule, nil, r0, r1, r2, overridable)
}

// addc is addl with the error behind the factor (the path judge's Cause,
// a parse error), which the command keeps if the factor decides.
func (c *verdictAcc) addc(d permission.Decision, layer permission.Layer, rule permission.RuleID, cause error, r0, r1, r2 string, overridable bool) {
	if d == permission.Allow {
		return
	}
	if d == permission.Ask {
		c.asks = append(c.asks, Finding{Rule: rule, ByRule: overridable})
	}
	// The first factor of the strictest decision gives the reason, except
	// that a factor no allow rule can lift outranks one that it can.
	if !c.decided || d < c.dec || d == c.dec && !overridable && !c.nonOver {
		c.dec, c.layer, c.rule, c.cause, c.why, c.decided = d, layer, rule, cause, [3]string{r0, r1, r2}, true
	}
	if !overridable {
		c.nonOver, c.unnamed = true, true
	}
}

// plainLast sets [Finding.Plain] of the Ask factor recorded last.
func (c *verdictAcc) plainLast(plain bool) {
	if n := len(c.asks); n > 0 {
		c.asks[n-1].Plain = plain
	}
}

// addNamed is addc for a factor of the option opt that runs a program:
// no allow rule lifts it unless the rule names the option
// (Bash(git fetch --upload-pack:*)), as [Command.LiftedBy] says.
func (c *verdictAcc) addNamed(opt string, d permission.Decision, rule permission.RuleID, r0, r1, r2 string) {
	unnamed := c.unnamed
	c.addc(d, 0, rule, nil, r0, r1, r2, false)
	c.unnamed = unnamed
	c.named = append(c.named, opt)
}

// allow names the rule that allows the command when no other factor objects.
func (c *verdictAcc) allow(rule permission.RuleID, why string) {
	if c.allowRule == "" {
		c.allowRule, c.allowWhy = rule, why
	}
}

// allowBy is allow for a rule of another layer (an allow rule the path
// judge named).
func (c *verdictAcc) allowBy(layer permission.Layer, rule permission.RuleID, why string) {
	if c.allowRule == "" {
		c.allowRule, c.allowWhy, c.allowLayer = rule, why, layer
	}
}

// execCtx says how a command is started.
type execCtx struct {
	fork      bool      // in the background or a pipeline: runs in its own process
	piped     bool      // stdin comes from a pipe
	afterPipe bool      // not the first command of its pipeline
	found     *findInfo // stdin is what this find prints (see model_find.go), or nil
	stdinRdr  bool      // stdin is redirected: a here-document, a here-string or a file
}

func (a *analyzer) pos(p syntax.Pos) Pos {
	if a.outer != nil {
		return *a.outer
	}
	return Pos{Offset: int(p.Offset()), Line: int(p.Line()), Col: int(p.Col())}
}

func (a *analyzer) count() bool {
	a.ncmds++
	if a.ncmds > a.g.pol.MaxCommands {
		if a.abort == "" {
			a.abort = "more than " + strconv.Itoa(a.g.pol.MaxCommands) + " simple commands"
			a.abortRule = RuleLimitCommands
		}
		return false
	}
	return true
}

func (a *analyzer) stmts(list []*syntax.Stmt, fork, piped bool) {
	a.list(list, execCtx{fork: fork, piped: piped})
}

// nested walks commands inside a substitution: they run in their own
// process with their own stdin, and a cd there changes nothing outside.
func (a *analyzer) nested(list []*syntax.Stmt) {
	saved, vars := a.cdOff, a.saveVars()
	a.cdOff = 0
	a.stmts(list, true, false)
	a.cdOff, a.vars = saved, vars
}

func (a *analyzer) stmt(s *syntax.Stmt, x execCtx) {
	if s == nil {
		return
	}
	if s.Background || s.Coprocess || s.Disown {
		x.fork = true
	}
	if s.Background {
		a.background(s, x)
		return
	}
	a.stmtCmd(s, x)
}

// stmtCmd walks the command of s and its redirections, in the context x.
func (a *analyzer) stmtCmd(s *syntax.Stmt, x execCtx) {
	switch cmd := s.Cmd.(type) {
	case *syntax.CallExpr:
		a.call(cmd, s.Redirs, x)
		return
	case nil:
		if len(s.Redirs) > 0 {
			a.bareRedirects(s, x)
		}
		return
	case *syntax.BinaryCmd:
		if cmd.Op == syntax.Pipe || cmd.Op == syntax.PipeAll {
			a.pipe(cmd, x, a.stmt)
		} else {
			a.stmt(cmd.X, x)
			skipped := a.saveVars() // Y may not run
			a.stmt(cmd.Y, x)
			a.vars = joinVars(skipped, a.vars)
		}
	case *syntax.Subshell:
		vars := a.saveVars()
		a.stmts(cmd.Stmts, x.fork, x.piped)
		a.vars = vars
	case *syntax.Block:
		a.stmts(cmd.Stmts, x.fork, x.piped)
	case *syntax.IfClause:
		a.ifClause(cmd, x)
	case *syntax.WhileClause:
		if a.whileLoop(cmd, s, x) {
			return // its redirections are judged
		}
	case *syntax.ForClause:
		a.forLoop(cmd, x)
	case *syntax.CaseClause:
		words := []*syntax.Word{cmd.Word}
		for _, it := range cmd.Items {
			words = append(words, it.Patterns...)
		}
		a.compoundWords(cmd.Pos(), "case", words, "")
		a.caseItems(cmd, x)
	case *syntax.FuncDecl:
		if b := bashFuncDecl(s); b != s {
			a.stmtCmd(b, x)
			return
		}
		a.funcDecl(cmd)
	case *syntax.ArithmCmd:
		a.arithCommand(cmd.Pos(), "((", cmd.X)
	case *syntax.LetClause:
		a.arithCommand(cmd.Pos(), "let", cmd.Exprs...)
	case *syntax.TestClause:
		a.testClause(cmd)
	case *syntax.DeclClause:
		a.declClause(cmd, s.Redirs, x)
		return
	case *syntax.TimeClause:
		if x.afterPipe {
			// bash takes "time" as its keyword only at the start of a
			// pipeline: after "|" it runs the time program, which takes
			// options of its own (-o FILE writes).
			a.refuse(a.src, int(cmd.Pos().Offset()), "time after a pipe: bash runs the time program there, the parser reads its keyword")
		}
		a.stmt(cmd.Stmt, x)
	case *syntax.CoprocClause:
		if a.count() {
			c := newAcc()
			c.add(permission.Ask, RuleUnlisted, "starts a background coprocess", true)
			if cmd.Name != nil {
				// coproc NAME assigns the array NAME and NAME_PID.
				name := cmd.Name.Lit()
				if why := riskyVar(name, false); why != "" {
					c.add(permission.Ask, RuleEnvAssign, "coproc assigns "+name+", which "+why, false)
				}
			}
			a.emit([]string{"coproc"}, cmd.Pos(), &c, true, false)
		}
		// It runs in a subshell; NAME and NAME_PID are set here.
		vars := a.saveVars()
		a.stmt(cmd.Stmt, execCtx{fork: true})
		a.vars = vars
		if cmd.Name != nil {
			a.killVar(cmd.Name.Lit())
		}
	case *syntax.TestDecl:
		a.stmt(cmd.Body, x)
	default:
		if a.count() {
			c := newAcc()
			c.add(permission.Ask, "unknown-syntax", "unrecognised shell construct", false)
			a.emit([]string{a.source(cmd)}, cmd.Pos(), &c, false, false)
		}
	}
	if len(s.Redirs) > 0 {
		a.bareRedirects(s, x)
	}
}

// emit appends the judgement of one command.
//
// direct says that args[0] is the literal name the command is called by,
// which finish looks up among the shell functions.
func (a *analyzer) emit(args []string, p syntax.Pos, c *verdictAcc, literal, direct bool) {
	// The command is written in place: a Command built in a variable and
	// appended is copied through memory in a way the processor cannot
	// forward. Slots past len(a.out) are zero: a.out only grows.
	n := len(a.out)
	if n < cap(a.out) {
		a.out = a.out[:n+1]
	} else {
		a.out = append(a.out, Command{})
	}
	cmd := &a.out[n]
	cmd.Args, cmd.Pos = args, a.pos(p)
	cmd.Runs, cmd.Via, cmd.ViaActs, cmd.RunsMore = c.runs, c.via, c.viaActs, c.more
	if c.decided {
		label := "assignment"
		switch {
		case len(args) > 0:
			label = args[0]
		case c.rule == RuleSyntaxAmbiguous:
			label = "script"
		case c.rule == RuleBackground:
			label = "&"
		case c.rule == RuleWriteRedirect || c.allowWhy == "redirection only":
			label = "redirect"
		}
		cmd.Decision, cmd.Rule, cmd.Reason, cmd.Cause = c.dec, c.rule, label+": "+c.why[0]+c.why[1]+c.why[2], c.cause
		cmd.Overridable = c.dec == permission.Ask && literal && !c.nonOver
		cmd.Asks = nil
		if c.dec == permission.Ask {
			cmd.Asks = c.asks
		}
		cmd.LiftedBy = nil
		if c.dec == permission.Ask && literal && c.nonOver && !c.unnamed {
			cmd.LiftedBy = c.named
		}
		cmd.Layer = c.layer
		if cmd.Layer == 0 {
			cmd.Layer = permission.LayerShell
		}
	} else {
		cmd.Decision, cmd.Rule, cmd.Reason = permission.Allow, c.allowRule, c.allowWhy
		cmd.Layer = c.allowLayer
		if cmd.Layer == 0 {
			cmd.Layer = permission.LayerShell
		}
		if cmd.Rule == "" {
			cmd.Rule = RuleSafe
		}
		if cmd.Reason == "" {
			cmd.Reason = "read-only use of a safe command"
		}
	}
	a.direct = append(a.direct, direct)
	if c.endless != "" {
		a.endless = c.endless
	}
	if c.lists != nil {
		a.lastFind = c.lists
	}
}

// compoundWords judges the words of a for or select list or a case
// clause, and the variable the loop assigns (name, or ""). They run no
// command themselves; only side effects need a person.
func (a *analyzer) compoundWords(p syntax.Pos, kw string, words []*syntax.Word, name string) {
	c := newAcc()
	if name != "" {
		if why := riskyVar(name, false); why != "" {
			c.add(permission.Ask, RuleEnvAssign, "assigns the loop variable "+name+", which "+why, false)
		}
	}
	for _, w := range words {
		r := a.word(w, false)
		if r.flags&wEffect != 0 {
			c.add(permission.Ask, RuleDynamicExpansion, r.effect, false)
		}
	}
	if c.decided && a.count() {
		a.emit([]string{kw}, p, &c, false, false)
	}
}

func (a *analyzer) arithCommand(p syntax.Pos, kw string, xs ...syntax.ArithmExpr) {
	var r wordRes
	for _, x := range xs {
		a.arith(x, &r)
	}
	if !a.count() {
		return
	}
	c := newAcc()
	why := r.effect
	if why == "" {
		why = "arithmetic evaluation can run commands through variable values"
	}
	c.add(permission.Ask, RuleDynamicArithmetic, why, false)
	a.emit([]string{kw}, p, &c, false, false)
}

func (a *analyzer) testClause(t *syntax.TestClause) {
	var words []string
	lit := true
	c := newAcc()
	var walk func(x syntax.TestExpr)
	walk = func(x syntax.TestExpr) {
		switch x := x.(type) {
		case *syntax.Word:
			r := a.word(x, false)
			if r.flags&wKnown != 0 {
				lit = false
			}
			// Output of a substitution is a string here (no splitting
			// or globbing inside [[ ]]); file tests and arithmetic judge
			// their operands below.
			if r.flags&wDynamic != 0 && r.flags&(wData|wEffect) != wData {
				lit = false
				why := r.effect
				if why == "" {
					why = "operand " + r.val + " is only known at run time (and may be evaluated as arithmetic)"
				}
				c.add(permission.Ask, RuleDynamicArg, why, false)
			}
			words = append(words, r.val)
		case *syntax.BinaryTest:
			walk(x.X)
			words = append(words, x.Op.String())
			walk(x.Y)
			if x.Op == syntax.TsNewer || x.Op == syntax.TsOlder || x.Op == syntax.TsDevIno {
				a.testPath(&c, x.X)
				a.testPath(&c, x.Y)
			}
			switch x.Op {
			case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
				// Operands are arithmetic: a name is replaced by its value,
				// which is evaluated again, and a subscript runs commands.
				for _, o := range []syntax.TestExpr{x.X, x.Y} {
					if w, ok := o.(*syntax.Word); ok && !isDecimal(w.Lit()) && !numericParam(w) {
						c.add(permission.Ask, RuleDynamicArithmetic, "operand "+a.source(w)+" of "+x.Op.String()+
							" is evaluated as arithmetic, which can run commands through variable values", false)
						a.killAll() // and can assign any variable
					}
				}
			}
		case *syntax.UnaryTest:
			words = append(words, x.Op.String())
			walk(x.X)
			if x.Op >= syntax.TsExists && x.Op <= syntax.TsNoEmpty {
				// A file test is a probe of that path: it tells whether
				// a secret or a file outside the roots exists.
				a.testPath(&c, x.X)
			}
			if w, ok := x.X.(*syntax.Word); ok && (x.Op == syntax.TsVarSet || x.Op == syntax.TsRefVar) && !isLiteralWord(w) {
				// -v and -R take a name: one that comes from a
				// substitution may hold a subscript.
				c.add(permission.Ask, RuleDynamicArithmetic, x.Op.String()+" "+a.source(w)+" names a variable only known at run time, whose subscript can run commands", false)
			}
			if w, ok := x.X.(*syntax.Word); ok && x.Op == syntax.TsVarSet && strings.ContainsRune(a.source(w), '[') {
				c.add(permission.Ask, RuleDynamicArithmetic, "-v "+a.source(w)+" evaluates an array subscript, which can run commands", false)
			}
		case *syntax.ParenTest:
			walk(x.X)
		}
	}
	walk(t.X)
	if !a.count() {
		return
	}
	c.allow(RuleSafe, "test expression on literal operands")
	a.emit(append(append([]string{"[["}, words...), "]]"), t.Pos(), &c, lit, false)
}

// testPath judges the operand of a file test of [[ ]] as a read.
func (a *analyzer) testPath(c *verdictAcc, x syntax.TestExpr) {
	if w, ok := x.(*syntax.Word); ok {
		r := a.word(w, false)
		a.probePath(c, r.val, r.flags, "[[")
	}
}

// bashFuncDecl returns the statement s as bash reads it where s is a
// function definition that the parser read with the list after it for
// its body: to the parser, "f() { x=1; } && cat $x" defines f as
// "{ x=1; } && cat $x"; to bash it defines f as "{ x=1; }", and then runs
// "cat $x", with the values of that moment. Any other s is returned as it
// is.
func bashFuncDecl(s *syntax.Stmt) *syntax.Stmt {
	fd, ok := s.Cmd.(*syntax.FuncDecl)
	if !ok || fd.Body == nil {
		return s
	}
	b, ok := fd.Body.Cmd.(*syntax.BinaryCmd)
	if !ok {
		return s
	}
	decl := *fd
	decl.Body = b.X
	list := *b
	list.X = bashFuncDecl(&syntax.Stmt{Position: s.Position, Cmd: &decl})
	out := *s
	out.Cmd = &list
	return &out
}

func (a *analyzer) funcDecl(f *syntax.FuncDecl) {
	if a.funcs == nil {
		a.funcs = make(map[string]syntax.Pos)
	}
	name := ""
	if f.Name != nil {
		name = f.Name.Value
		a.funcs[name] = f.Pos()
	}
	// The body runs where the function is called, with the values of
	// that moment: none is known in it, and what it assigns is not
	// followed after the definition.
	saved, vars := a.curFunc, a.vars
	a.curFunc, a.vars = name, nil
	a.stmt(f.Body, execCtx{})
	a.curFunc, a.vars = saved, vars
}

// assignment judges NAME=value: a risky name or a dynamic value needs a
// person, except the output of judged commands stored in a variable the
// guard follows (vars.go), which is data as that output is. It returns
// the text, whether it is literal, and what the variable then holds when
// the guard knows (ok).
func (a *analyzer) assignment(as *syntax.Assign, c *verdictAcc, prefix bool) (text string, lit bool, b binding, ok bool) {
	lit = true
	if as.Name != nil {
		text = as.Name.Value
	}
	if as.Index != nil {
		var r wordRes
		a.arith(as.Index, &r)
		c.add(permission.Ask, RuleDynamicExpansion, "array subscript in an assignment is evaluated as arithmetic", false)
		lit = false
	}
	if as.Value != nil {
		r := a.word(as.Value, true)
		b, ok = assignValue(r)
		if r.flags&wDynamic != 0 && ok && b.data && !prefix && as.Name != nil && as.Index == nil && as.Array == nil &&
			a.tracked(as.Name.Value) {
			lit = false
		} else if r.flags&wDynamic != 0 {
			lit = false
			why := r.effect
			rule := RuleDynamicExpansion
			if why == "" {
				why = "value of " + text + " is only known at run time"
				rule = RuleDynamicArg
			}
			c.add(permission.Ask, rule, why, false)
		}
		if as.Name != nil {
			text += "=" + r.val
		} else {
			text = r.val
		}
	} else if !as.Naked {
		text += "="
		b, ok = binding{}, true // empty
	}
	if as.Array != nil {
		lit = false
		for _, e := range as.Array.Elems {
			var r wordRes
			if e.Index != nil {
				a.arith(e.Index, &r)
			}
			if e.Value != nil {
				r2 := a.word(e.Value, false)
				r.flags |= r2.flags
			}
		}
		c.add(permission.Ask, RuleDynamicArg, "array assignment to "+text+" is not analysed", false)
		ok = false
	}
	if as.Name != nil {
		// A bare name counts too: "export NAME" hands a value set
		// earlier to every later command, and "local NAME" empties it.
		if why := riskyVar(as.Name.Value, prefix); why != "" {
			c.add(permission.Ask, RuleEnvAssign, "assignment to "+as.Name.Value+" "+why, false)
		}
	}
	return text, lit, b, ok
}

func (a *analyzer) declClause(d *syntax.DeclClause, redirs []*syntax.Redirect, x execCtx) {
	c := newAcc()
	args := []string{d.Variant.Value}
	lit := true
	names, printsFuncs := 0, false
	type bound struct {
		as *syntax.Assign
		b  binding
		ok bool
	}
	var binds []bound
	for _, as := range d.Args {
		t, l, b, ok := a.assignment(as, &c, false)
		binds = append(binds, bound{as, b, ok})
		lit = lit && l
		args = append(args, t)
		if as.Naked && as.Name == nil && l {
			declWord(&c, d.Variant.Value, t)
		}
		if as.Naked && as.Name == nil && l && (strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+")) {
			printsFuncs = printsFuncs || strings.ContainsAny(t, "fF")
		} else {
			names++
		}
	}
	if names == 0 && !printsFuncs {
		// "export", "declare -p", "typeset -x" and the like print the
		// shell's variables, or the exported ones.
		environ(&c, "prints the shell's variables")
	}
	a.redirects(&c, redirs, d.Variant.Value)
	// Every word is expanded before the builtin assigns; local assigns
	// nothing outside a function (it fails there).
	for _, bd := range binds {
		if bd.as.Naked && bd.as.Name != nil && d.Variant.Value != "export" {
			a.killVar(bd.as.Name.Value) // in a function, a new local without a value
			continue
		}
		a.bindAssign(bd.as, bd.b, bd.ok && plainDecl(d) && (d.Variant.Value != "local" || a.curFunc != ""))
	}
	if !a.count() {
		return
	}
	c.allow("assign", "sets shell variables")
	a.emit(args, d.Pos(), &c, lit, false)
}

// bareRedirects judges the redirections of a statement that is not a
// simple command, such as "{ ls; } > out" or "> file".
func (a *analyzer) bareRedirects(s *syntax.Stmt, x execCtx) {
	if !a.count() {
		return
	}
	c := newAcc()
	a.redirects(&c, s.Redirs, "redirect")
	c.allow(RuleSafe, "redirection only")
	a.emit([]string{}, s.Pos(), &c, true, false)
}

// finish applies what is only known after the whole script was walked:
// calls of shell functions and fork bombs.
func (a *analyzer) finish() {
	if len(a.funcs) == 0 {
		return
	}
	bombs := a.forkBombs()
	for i, direct := range a.direct {
		if !direct {
			continue
		}
		n := a.out[i].Args[0]
		if _, ok := a.funcs[n]; !ok {
			continue
		}
		c := &a.out[i]
		if bombs[n] {
			c.Decision, c.Layer, c.Rule, c.Overridable = permission.Deny, permission.LayerShell, RuleDangerousForkBomb,
				false
			c.Reason = n + ": fork bomb: function " + strconv.Quote(n) + " runs itself in the background or through a pipe"
			continue
		}
		if c.Decision == permission.Allow || c.Decision == permission.Ask && c.Rule != RuleDangerousForkBomb {
			c.Decision, c.Layer, c.Rule, c.Overridable = permission.Ask, permission.LayerShell, "function", false
			c.Reason = n + ": calls shell function " + strconv.Quote(n) + " (its body is judged where it is defined)"
		}
	}
}

// forkBombs returns the functions that can reach themselves through a call
// made in the background or in a pipeline.
func (a *analyzer) forkBombs() map[string]bool {
	bombs := map[string]bool{}
	for f := range a.funcs {
		type state struct {
			n    string
			fork bool
		}
		seen := map[state]bool{}
		stack := []state{{f, false}}
		for len(stack) > 0 && !bombs[f] {
			s := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, e := range a.edges {
				if e.from != s.n {
					continue
				}
				if _, ok := a.funcs[e.to]; !ok {
					continue
				}
				ns := state{e.to, s.fork || e.fork}
				if ns.n == f && ns.fork {
					bombs[f] = true
					break
				}
				if !seen[ns] {
					seen[ns] = true
					stack = append(stack, ns)
				}
			}
		}
	}
	return bombs
}

// declWord judges a word of declare, export, local, readonly or typeset
// that the parser did not take as an assignment: an option, or quoted
// text such as 'PATH=/x' or 'a[$(cmd)]=1', which bash parses as an
// assignment only at run time.
func declWord(c *verdictAcc, variant, w string) {
	if strings.HasPrefix(w, "-") || strings.HasPrefix(w, "+") {
		if variant == "export" || variant == "readonly" {
			return // their options (-f -n -p, -a -A -f -p) change no later evaluation
		}
		switch {
		case strings.ContainsRune(w[1:], 'n'):
			c.add(permission.Ask, RuleDynamicExpansion, "declares a name reference (-n), through which later assignments reach another variable", false)
		case strings.ContainsRune(w[1:], 'i'):
			c.add(permission.Ask, RuleDynamicExpansion, "declares an integer variable (-i), whose values are evaluated as arithmetic, which can run commands", false)
		}
		return
	}
	name, val, has := strings.Cut(w, "=")
	name = strings.TrimSuffix(name, "+")
	if !isIdent(name) {
		c.add(permission.Ask, RuleDynamicExpansion, "declares "+w+", which bash parses at run time (a subscript is evaluated as arithmetic, which can run commands)", false)
		return
	}
	if !has {
		return
	}
	if strings.HasPrefix(val, "(") {
		c.add(permission.Ask, RuleDynamicExpansion, "declares "+w+", an array assignment that bash parses at run time", false)
		return
	}
	if why := riskyVar(name, false); why != "" {
		c.add(permission.Ask, RuleEnvAssign, "assignment to "+name+" "+why, false)
	}
}

// isIdent reports whether s is a shell variable name.
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if !(ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || i > 0 && ch >= '0' && ch <= '9') {
			return false
		}
	}
	return true
}

// isDecimal reports a plain decimal integer, optionally signed: the only
// arithmetic operand whose evaluation cannot run anything.
func isDecimal(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

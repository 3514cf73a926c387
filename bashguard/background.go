package bashguard

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/toolgate/toolgate/permission"
)

// A job put in the background (&) runs in a subshell of its own, beside
// the commands after it, and may go on after the script has ended. It is
// judged as the same job in the foreground, and the background adds an
// Ask no allow rule lifts (RuleBackground) unless the job does nothing but
// read and ends on its own:
//
//   - every command in it is allowed as read-only (RuleSafe, or a read a
//     path rule allows): nothing it does writes a file, makes, links or
//     moves one, runs a program the guard does not read, reaches the
//     network or assigns a variable, so the commands after it see the
//     same files and the same shell whether it has run, is running or has
//     not started;
//   - none changes the state of the shell (a cd, a function, a builtin of
//     stateBuiltins): the job's own shell would see it and the commands
//     after it would not, so a person reads what each runs where;
//   - none is one that does not end on its own: a spec's endless (sleep,
//     wait, read, watch) or an option of kind kEndless (tail -f).
//
// The job's assignments and cd stay in it: the walk restores the
// variables and does not follow a cd inside it (cdtrack.go).

// background walks the background job s and, unless it is harmless as
// said above, records the Ask of the background before its commands.
func (a *analyzer) background(s *syntax.Stmt, x execCtx) {
	n0 := len(a.out)
	vars, endless := a.saveVars(), a.endless
	a.endless = ""
	a.cdOff++
	a.stmtCmd(s, x)
	a.cdOff--
	why := a.jobWhy(s, n0)
	a.vars, a.endless = vars, endless
	if why == "" || !a.count() {
		return
	}
	c := newAcc()
	c.add(permission.Ask, RuleBackground, "runs a job in the background (&) "+why, false)
	a.emit([]string{}, s.Pos(), &c, false, false)
	a.moveLast(n0)
}

// jobWhy says why the background job s, whose commands are a.out[n0:],
// needs a person, or "" when it only reads and ends on its own.
func (a *analyzer) jobWhy(s *syntax.Stmt, n0 int) string {
	if a.endless != "" {
		return "that does not end on its own (" + a.endless + "), so it can outlive the call"
	}
	for i := n0; i < len(a.out); i++ {
		c := &a.out[i]
		if _, ok := a.funcs[jobLabel(c)]; ok && a.direct[i] {
			// Judged as the command it is named after until the end of
			// the script (finish).
			return "that calls the shell function " + jobLabel(c) + ", and it can outlive the call and run beside the commands after it"
		}
		if name := jobStateName(c); name != "" {
			return "that changes the state of its own shell (" + name + "), which the commands after it do not share"
		}
		switch {
		case c.Decision != permission.Allow:
			return "whose command " + jobLabel(c) + " is not allowed on its own, and it can outlive the call and run beside the commands after it"
		case c.Rule != RuleSafe && c.Layer == permission.LayerShell:
			return "that does more than read (" + jobLabel(c) + ", " + string(c.Rule) + "), and it can outlive the call and run beside the commands after it"
		}
	}
	var decl *syntax.FuncDecl
	syntax.Walk(s, func(n syntax.Node) bool {
		if f, ok := n.(*syntax.FuncDecl); ok && decl == nil {
			decl = f
		}
		return decl == nil
	})
	if decl != nil {
		return "that defines a function (" + decl.Name.Value + "), which the commands after it do not share"
	}
	return ""
}

// jobLabel names the command c of a background job as its reason does.
func jobLabel(c *Command) string {
	if len(c.Args) > 0 {
		return c.Args[0]
	}
	if c.Decision != permission.Allow {
		if label, _, ok := strings.Cut(c.Reason, ": "); ok {
			return label
		}
	}
	return "an assignment"
}

// jobStateName returns the name of the builtin of stateBuiltins that c
// runs, itself or through a wrapper (command cd), or "an assignment",
// or "".
func jobStateName(c *Command) string {
	if c.Rule == "assign" {
		return "an assignment"
	}
	for _, argv := range [][]string{c.Args, c.Runs} {
		if len(argv) > 0 && stateBuiltins()[argv[0]] != "" {
			return argv[0]
		}
	}
	return ""
}

// moveLast moves the command emitted last to the index at, before the
// ones emitted since: the Ask of a background job comes before the
// commands of the job, in the order bash starts them.
func (a *analyzer) moveLast(at int) {
	last := len(a.out) - 1
	if at >= last {
		return
	}
	cmd, direct := a.out[last], a.direct[last]
	copy(a.out[at+1:], a.out[at:last])
	copy(a.direct[at+1:], a.direct[at:last])
	a.out[at], a.direct[at] = cmd, direct
}

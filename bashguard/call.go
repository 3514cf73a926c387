package bashguard

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/toolgate/toolgate/permission"
)

// argv is a command line after quote removal, with what each word holds.
type argv struct {
	vals  []string
	flags []wordFlags
}

func (v *argv) from(i int) argv { return argv{v.vals[i:], v.flags[i:]} }
func (v *argv) len() int        { return len(v.vals) }

// literal reports whether word i is known before run time.
func (v *argv) literal(i int) bool { return v.flags[i]&wDynamic == 0 }

// call judges one simple command.
func (a *analyzer) call(ce *syntax.CallExpr, redirs []*syntax.Redirect, x execCtx) {
	followCd := a.cdWant
	a.cdWant = false
	if stdinRedirect(redirs) {
		x.found = nil // its input is not the pipe
		x.stdinRdr = true
	}
	// The accumulator and the words live in a slot of the scratch: the
	// models they are handed to make both escape, and a slot reused saves
	// two allocations a command (BenchmarkToolgateCommands in bench).
	slot := a.enterCall()
	defer a.leaveCall(slot)
	c, v := &slot.c, &slot.v
	lit := true
	var assigns []string
	env := a.cmdEnv
	bare := len(ce.Args) == 0
	for _, as := range ce.Assigns {
		t, l, b, ok := a.assignment(as, c, !bare)
		lit = lit && l
		assigns = append(assigns, t)
		if as.Name != nil && !as.Naked && as.Index == nil && as.Array == nil {
			name, val, _ := strings.Cut(t, "=")
			env = append(env[:len(env):len(env)], envVar{name: name, val: val, lit: l})
		}
		if bare {
			// Alone, assignments are made left to right, each seen by
			// the values after it.
			a.bindAssign(as, b, ok)
		}
	}
	a.newArgv(v, len(ce.Args))
	var spliced map[int][]string // words that are listings, by index: the paths they print (listloops.go)
	for i, w := range ce.Args {
		if i > 0 && listedArgReaders()[ce.Args[0].Lit()] {
			if r, paths, ok := a.listedArg(c, w, ce.Args[0].Lit()); ok {
				if spliced == nil {
					spliced = map[int][]string{}
				}
				spliced[i], lit = paths, false
				continue
			} else if r != nil {
				v.vals[i], v.flags[i] = r.val, r.flags
				if r.flags&wEffect != 0 {
					c.add(permission.Ask, RuleDynamicExpansion, r.effect, false)
				}
				lit = false
				continue
			}
		}
		if len(w.Parts) == 1 {
			if val, fl, ok := a.plainWord(w, false); ok {
				v.vals[i], v.flags[i] = val, fl
				continue
			}
		}
		r := a.word(w, false)
		if i == 0 && r.flags&wDynamic == 0 && echoSubst(w) {
			r.val, r.flags = a.source(w), r.flags|wDynamic // a command name is judged as written, never as $(echo NAME) gives it
		}
		v.vals[i], v.flags[i] = r.val, r.flags
		if r.flags&wEffect != 0 {
			c.add(permission.Ask, RuleDynamicExpansion, r.effect, false)
		}
		if r.flags&(wDynamic|wKnown|wProcIn) != 0 {
			lit = false
		}
	}
	if spliced != nil {
		*v = splice(*v, spliced)
	}
	label := "assignment"
	if len(v.vals) > 0 {
		label = v.vals[0]
	}
	if bare && len(redirs) > 0 && len(ce.Assigns) > 0 {
		// bash assigns before it opens the files, dash after: the
		// redirections see neither value.
		type kept struct {
			name string
			b    binding
		}
		var keep []kept
		for _, as := range ce.Assigns {
			if as.Name == nil {
				continue
			}
			if b, ok := a.vars[as.Name.Value]; ok {
				keep = append(keep, kept{as.Name.Value, b})
			}
			a.killVar(as.Name.Value)
		}
		a.redirects(c, redirs, label)
	next:
		for _, k := range keep {
			for _, r := range redirs {
				if r.N != nil && r.N.Value == "{"+k.name+"}" {
					continue next // {x}> assigns it too, in an order that differs
				}
			}
			a.setVar(k.name, k.b)
		}
	} else {
		a.redirects(c, redirs, label)
	}
	if !a.count() {
		return
	}
	if len(v.vals) == 0 {
		c.allow("assign", "sets shell variables ("+strings.Join(assigns, " ")+")")
		a.emit([]string{}, ce.Pos(), c, lit, false)
		return
	}
	direct := v.literal(0)
	if direct && a.curFunc != "" {
		a.edges = append(a.edges, funcEdge{from: a.curFunc, to: v.vals[0], fork: x.fork})
	}
	p := callPos(ce)
	a.curPos = p
	if followCd && len(ce.Assigns) == 0 && direct && v.vals[0] == "cd" {
		a.cd(c, v)
	} else {
		outerEnv := a.cmdEnv
		a.cmdEnv = env
		a.judge(c, v, x)
		a.cmdEnv = outerEnv
	}
	a.emit(v.vals, p, c, lit, direct)
	// NAME=value cmd: the command's own environment, which a special
	// builtin in POSIX mode keeps.
	for _, as := range ce.Assigns {
		if as.Name != nil {
			a.killVar(as.Name.Value)
		}
	}
	a.afterCall(v)
}

// callSlot is the room the judgement of one simple command works in:
// its accumulator and its words.
type callSlot struct {
	c verdictAcc
	v argv
}

// maxCallSlots bounds the slots a scratch keeps between calls.
const maxCallSlots = 64

// enterCall returns the slot of the simple command about to be judged,
// one per level of commands judged inside others (substitutions, nested
// code), kept in the scratch from one Judge to the next.
func (a *analyzer) enterCall() *callSlot {
	sc := a.sc
	if a.calls == len(sc.calls) {
		sc.calls = append(sc.calls, new(callSlot))
	}
	s := sc.calls[a.calls]
	a.calls++
	s.c = newAcc()
	return s
}

// leaveCall gives the slot back, holding nothing of the command.
func (a *analyzer) leaveCall(s *callSlot) {
	*s = callSlot{}
	a.calls--
}

// callPos is ce.Pos(), answered without an interface call for the usual
// command line that starts with a literal word.
func callPos(ce *syntax.CallExpr) syntax.Pos {
	if len(ce.Assigns) == 0 && len(ce.Args) > 0 && len(ce.Args[0].Parts) > 0 {
		if l, ok := ce.Args[0].Parts[0].(*syntax.Lit); ok {
			return l.ValuePos
		}
	}
	return ce.Pos()
}

// redirects judges the redirections of one statement.
func (a *analyzer) redirects(c *verdictAcc, redirs []*syntax.Redirect, label string) {
	for _, r := range redirs {
		if r.N != nil && strings.HasPrefix(r.N.Value, "{") {
			// {NAME}>file assigns the number of the new descriptor.
			name := strings.TrimSuffix(strings.TrimPrefix(r.N.Value, "{"), "}")
			if why := riskyVar(name, false); why != "" {
				c.add(permission.Ask, RuleEnvAssign, "redirection {"+name+"} assigns "+name+", which "+why, false)
			}
			a.killVar(name)
		}
		if r.Hdoc != nil {
			var hr wordRes
			a.walkParts(r.Hdoc.Parts, &hr, true)
			if hr.flags&wEffect != 0 {
				c.add(permission.Ask, RuleDynamicExpansion, hr.effect, false)
			} else if hr.flags&wDynamic != 0 && !a.heredocData(r.Hdoc) {
				c.add(permission.Ask, RuleDynamicArg, "here-document body is only known at run time", false)
			}
		}
		if r.Word == nil {
			continue
		}
		w := a.word(r.Word, false)
		if w.flags&wEffect != 0 {
			c.add(permission.Ask, RuleDynamicExpansion, w.effect, false)
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			if r.Op != syntax.WordHdoc {
				if why := a.heredocAmbiguous(r); why != "" {
					c.add(permission.Ask, RuleSyntaxAmbiguous, why, false)
				}
			}
			if w.flags&wDynamic != 0 && w.flags&wData == 0 && r.Op == syntax.WordHdoc {
				c.add(permission.Ask, RuleDynamicArg, "here-string "+w.val+" is only known at run time", false)
			}
			continue
		case syntax.DplIn, syntax.DplOut:
			if w.flags&wDynamic == 0 && isFdWord(w.val) {
				continue
			}
			if r.Op == syntax.DplIn {
				a.readPath(c, w.val, w.flags, "redirect")
				continue
			}
			a.writePath(c, w.val, w.flags, "redirect")
		case syntax.RdrIn:
			a.readPath(c, w.val, w.flags, "redirect")
		default: // > >> >| &> &>> <> and the zsh forms
			a.writePath(c, w.val, w.flags, "redirect")
		}
	}
}

// isFdWord reports whether s names a file descriptor for >& and <&: a
// number, "-", or a number followed by "-".
func isFdWord(s string) bool {
	if s == "-" {
		return true
	}
	s = strings.TrimSuffix(s, "-")
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

// stdinRedirect reports a redirection of standard input.
func stdinRedirect(redirs []*syntax.Redirect) bool {
	for _, r := range redirs {
		switch r.Op {
		case syntax.RdrIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc, syntax.DplIn, syntax.RdrInOut:
			if r.N == nil || r.N.Value == "0" {
				return true
			}
		}
	}
	return false
}

package bashguard

import (
	"context"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/toolgate/toolgate/permission"
)

// Guard judges shell scripts against a [Policy]. It is safe for concurrent
// use by many goroutines; build one with [New] and share it.
//
// The zero Guard is not usable: its Judge denies everything.
type Guard struct {
	pol     Policy
	extra   map[string]bool
	parsers *sync.Pool
}

// New returns a Guard for a copy of p. Zero limits in p take their defaults.
func New(p Policy) *Guard {
	p.fill()
	g := &Guard{pol: p, parsers: &sync.Pool{New: func() any {
		return syntax.NewParser(syntax.Variant(syntax.LangBash))
	}}}
	if len(p.ExtraSafe) > 0 {
		g.extra = make(map[string]bool, len(p.ExtraSafe))
		for _, n := range p.ExtraSafe {
			g.extra[n] = true
		}
	}
	p.ExtraSafe = append([]string(nil), p.ExtraSafe...)
	return g
}

// Policy returns a copy of the policy the Guard was built from, with
// defaults filled in.
func (g *Guard) Policy() Policy {
	p := g.pol
	p.ExtraSafe = append([]string(nil), p.ExtraSafe...)
	return p
}

// Judge parses script as bash and judges every simple command in it.
//
// It never panics and never returns an error: a script that cannot be
// parsed, is larger than the policy's bound or holds too many commands is
// denied with the reason "cannot be analysed: ...". A cancelled ctx gives
// a Deny. Judge does not run anything; it only calls the policy's
// [PathChecker].
func (g *Guard) Judge(ctx context.Context, script string) (v Verdict) {
	defer func() {
		if r := recover(); r != nil {
			v = Verdict{Decision: permission.Deny, Rule: "internal",
				Reason: "cannot be analysed: internal error: " + panicText(r)}
		}
	}()
	if g == nil || g.parsers == nil {
		return Verdict{Decision: permission.Deny, Rule: "internal", Reason: "no guard configured"}
	}
	if ctx != nil {
		if err := ctx.Err(); err != nil {
			return Verdict{Decision: permission.Deny, Rule: "cancelled", Reason: "judgement cancelled: " + err.Error()}
		}
	}
	if len(script) > g.pol.MaxScriptBytes {
		return Verdict{Decision: permission.Deny, Rule: "limit:size",
			Reason: "cannot be analysed: script is " + strconv.Itoa(len(script)) +
				" bytes, over the limit of " + strconv.Itoa(g.pol.MaxScriptBytes)}
	}
	f, err := g.parse(script)
	if err != nil {
		return Verdict{Decision: permission.Deny, Rule: "parse", Reason: "cannot be analysed: " + err.Error()}
	}
	a := analyzer{g: g, src: script}
	// Size the buffers from a guess at the number of commands and words;
	// they grow if the guess is short.
	n, words := 1, 1
	for i := 0; i < len(script); i++ {
		switch script[i] {
		case '\n', ';', '|', '&':
			n++
			words++
		case ' ', '\t':
			words++
		}
	}
	words = min(words, 1024)
	a.out, a.names = make([]Command, 0, n), make([]string, 0, n)
	a.strs, a.flags = make([]string, 0, words), make([]wordFlags, 0, words)
	a.stmts(f.Stmts, false, false)
	if a.abort != "" {
		return Verdict{Decision: permission.Deny, Rule: a.abortRule, Reason: "cannot be analysed: " + a.abort,
			Commands: a.out}
	}
	a.finish()
	return combine(a.out)
}

func (g *Guard) parse(script string) (*syntax.File, error) {
	p := g.parsers.Get().(*syntax.Parser)
	f, err := p.Parse(strings.NewReader(script), "")
	g.parsers.Put(p)
	return f, err
}

func combine(cmds []Command) Verdict {
	if len(cmds) == 0 {
		return Verdict{Decision: permission.Deny, Rule: "empty", Reason: "empty command: nothing to judge"}
	}
	v := Verdict{Decision: permission.Allow, Commands: cmds}
	first := -1
	for i := range cmds {
		d := cmds[i].Decision
		if !d.Valid() {
			d = permission.Deny
		}
		if d < v.Decision || first < 0 && d != permission.Allow {
			v.Decision = d
			first = i
		}
	}
	if first < 0 {
		v.Rule = "safe"
		v.Reason = "every command is read-only and on the safe list"
		return v
	}
	v.Rule = cmds[first].Rule
	v.Reason = cmds[first].Reason
	return v
}

func panicText(r any) string {
	switch x := r.(type) {
	case error:
		return x.Error()
	case string:
		return x
	}
	return "panic"
}

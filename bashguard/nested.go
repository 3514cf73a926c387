package bashguard

import (
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/permission"
	"mvdan.cc/sh/v3/syntax"
)

// nestedCode parses literal shell text (from "bash -c", "eval" or a wrapper)
// and judges it command by command as a script nested in this one; the
// result is merged into c, and the command running it is at best Ask.
// With judged set, shell code whose every command is allowed by the same
// judgement is allowed as they are (a literal bash -c script), instead of
// asked. here says the code runs in this shell (eval), where a cd in it
// is not followed.
func (a *analyzer) nestedCode(c *verdictAcc, text string, rule permission.RuleID, what string, judged, here bool) {
	if here {
		a.cdOff++
		defer func() { a.cdOff-- }()
	}
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

// judgeLine judges a command line a command runs, through the dispatcher.
func (a *analyzer) judgeLine(c *verdictAcc, v *argv, x execCtx) {
	a.judgeArgv(c, v, x)
}

// parse parses shell code with the call's parser.
func (a *analyzer) parse(text string) (*syntax.File, error) {
	return a.sc.parse(text)
}

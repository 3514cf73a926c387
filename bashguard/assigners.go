package bashguard

import (
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// The builtins below assign the variables their arguments name: read,
// mapfile and readarray (the lines they read), printf -v, getopts, wait -p,
// and unset. Each name goes through the allowlist of assignable names
// (riskyVar): "read PATH" or "printf -v GIT_DIR x" changes what later
// commands run, and a name with a subscript ('a[$(cmd)]') runs commands.

// assignerRow is what the guard knows of an assigning builtin: val, its
// short options that take a value, and names, those whose value is a
// variable name; which of its operands name variables; funcs, the option
// that makes its operands functions (unset -f); callback, the option whose
// value is a command it runs (mapfile -C); prints, that without an option
// of names it only prints (printf without -v).
type assignerRow struct {
	val, names string
	operands   assignOps
	funcs      byte
	callback   byte
	prints     bool
}

// assignOps says which operands of an assigning builtin name variables.
type assignOps uint8

const (
	opsNone   assignOps = iota // none (printf's are data, wait's are jobs)
	opsAll                     // every one (read NAME..., unset NAME...)
	opsFirst                   // the first (mapfile NAME)
	opsSecond                  // the second (getopts OPTSTRING NAME)
)

// assignerValShort are the assigning builtins, by name.
var assignerValShort = map[string]assignerRow{
	"read":      {val: "adinNptu", names: "a", operands: opsAll},
	"mapfile":   {val: "dnOsuCc", operands: opsFirst, callback: 'C'},
	"readarray": {val: "dnOsuCc", operands: opsFirst, callback: 'C'},
	"printf":    {val: "v", names: "v", prints: true},
	"wait":      {val: "p", names: "p"},
	"getopts":   {operands: opsSecond},
	"unset":     {operands: opsAll, funcs: 'f'},
}

// assigner judges the names an assigning builtin sets. The command itself
// stays unlisted (Ask); what it assigns may forbid an allow rule to lift
// that.
func (a *analyzer) assigner(c *verdictAcc, name string, v *argv) {
	spec := assignerValShort[name]
	i := 1
	funcs := false
	for ; i < v.len(); i++ {
		s := v.vals[i]
		if s == "--" {
			i++
			break
		}
		if len(s) < 2 || s[0] != '-' || !v.literal(i) {
			break
		}
		for j := 1; j < len(s); j++ {
			ch := s[j]
			if spec.funcs != 0 && ch == spec.funcs {
				funcs = true
			}
			if spec.callback != 0 && ch == spec.callback {
				c.add(permission.Ask, RuleCodeCallback, name+" -"+string(ch)+" runs a callback command for the lines it reads", false)
			}
			if !hasByte(spec.val, ch) {
				continue
			}
			val, at := s[j+1:], i
			if val == "" && i+1 < v.len() {
				i++
				val, at = v.vals[i], i
			}
			if hasByte(spec.names, ch) {
				assignName(c, name, val, v.literal(at))
			}
			break
		}
	}
	if !funcs {
		assignOperands(c, name, spec.operands, v, i)
	}
}

// assignOperands records the variables the operands of the assigning
// builtin name, from the word at ops on, assign.
func assignOperands(c *verdictAcc, name string, which assignOps, v *argv, ops int) {
	switch which {
	case opsSecond:
		ops++
		fallthrough
	case opsFirst:
		if ops < v.len() {
			assignName(c, name, v.vals[ops], v.literal(ops))
		}
	case opsAll:
		for k := ops; k < v.len(); k++ {
			assignName(c, name, v.vals[k], v.literal(k))
		}
	}
}

// assignName records that a builtin assigns the variable n.
func assignName(c *verdictAcc, who, n string, literal bool) {
	if !literal {
		c.add(permission.Ask, RuleEnvAssign, who+" assigns a variable whose name is only known at run time", false)
		return
	}
	if why := riskyVar(strings.TrimSuffix(n, "+"), false); why != "" {
		c.add(permission.Ask, RuleEnvAssign, who+" assigns "+n+", which "+why, false)
	}
}

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

// assignerRow is what the guard knows of an assigning builtin: its spec
// (its options, specs_assigners.go); which of its operands name
// variables; prints, that without an option that assigns it only prints
// (printf without -v).
type assignerRow struct {
	spec     *spec
	operands assignOps
	prints   bool
}

// assignOps says which operands of an assigning builtin name variables.
type assignOps uint8

const (
	opsNone   assignOps = iota // none (printf's are data, wait's are jobs)
	opsAll                     // every one (read NAME..., unset NAME...)
	opsFirst                   // the first (mapfile NAME)
	opsSecond                  // the second (getopts OPTSTRING NAME)
)

// assigner judges the names an assigning builtin sets: its options by
// its spec (the names they assign, a callback they run), then the
// operands that name variables, unless an option makes them functions
// (unset -f). The command itself stays unlisted (Ask); what it assigns
// may forbid an allow rule to lift that.
func (m *cmdCall) assigner(c *verdictAcc, name string, v *argv) {
	row := assigners()[name]
	f := m.judgeSpec(c, name, row.spec, v, 1)
	if !f.hasKind(kFuncs) {
		assignOperands(c, name, row.operands, v, f.ops)
	}
}

// printfAssigns reports a printf that assigns its output to a variable
// (-v NAME, alone or among its options), or whose options cannot be read:
// one its spec does not know, or a word only known at run time where an
// option may stand.
func printfAssigns(v *argv) bool {
	assigns := false
	i := scanSpec(assigners()["printf"].spec, v, 1, true, func(e *scanned) {
		assigns = assigns || e.opt == nil || e.opt.kind == kAssign
	})
	return assigns || i < v.len() && !v.literal(i) && v.vals[i-1] != "--"
}

// assignOperands records the variables the operands ops of the
// assigning builtin name assign.
func assignOperands(c *verdictAcc, name string, which assignOps, v *argv, ops []int) {
	switch which {
	case opsSecond:
		if len(ops) > 1 {
			assignName(c, name, v.vals[ops[1]], v.literal(ops[1]))
		}
	case opsFirst:
		if len(ops) > 0 {
			assignName(c, name, v.vals[ops[0]], v.literal(ops[0]))
		}
	case opsAll:
		for _, k := range ops {
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

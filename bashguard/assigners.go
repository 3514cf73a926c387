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

// assignerValShort gives each builtin's options that take a value; names
// holds the options whose value is a variable name.
var assignerValShort = map[string]struct{ val, names string }{
	"read":      {val: "adinNptu", names: "a"},
	"mapfile":   {val: "dnOsuCc"},
	"readarray": {val: "dnOsuCc"},
	"printf":    {val: "v", names: "v"},
	"wait":      {val: "p", names: "p"},
	"getopts":   {},
	"unset":     {},
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
			if name == "unset" && ch == 'f' {
				funcs = true
			}
			if (name == "mapfile" || name == "readarray") && ch == 'C' {
				c.add(permission.Ask, RuleCodeCallback, name+" -C runs a callback command for the lines it reads", false)
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
	ops := i
	switch name {
	case "getopts":
		// getopts OPTSTRING NAME [ARG...]
		if ops+1 < v.len() {
			assignName(c, name, v.vals[ops+1], v.literal(ops+1))
		}
	case "mapfile", "readarray":
		if ops < v.len() {
			assignName(c, name, v.vals[ops], v.literal(ops))
		}
	case "read":
		for k := ops; k < v.len(); k++ {
			assignName(c, name, v.vals[k], v.literal(k))
		}
	case "unset":
		if funcs {
			return
		}
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

package bench

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/casbin/casbin/v2"
	"github.com/casbin/casbin/v2/model"
	stringadapter "github.com/casbin/casbin/v2/persist/string-adapter"
	"github.com/toolgate/toolgate/permission"
)

// CasbinModel is the casbin model: a request is a tool, its group and its
// argument (the command as one string, the path or the domain); a policy
// row is a tool pattern (keyMatch), an argument pattern (regexMatch), an
// effect and the decision. The effect is deny-override.
const CasbinModel = `[request_definition]
r = tool, group, arg

[policy_definition]
p = tool, arg, eft, decision

[policy_effect]
e = some(where (p.eft == allow)) && !some(where (p.eft == deny))

[matchers]
m = (keyMatch(r.tool, p.tool) || keyMatch(r.group, p.tool)) && regexMatch(r.arg, p.arg)
`

// CasbinPolicy renders the policy as casbin policy CSV: the deny rows, then
// the ask rows (deny effect, decision "ask"), then the allow rows.
func CasbinPolicy(rules []Rule) string {
	var b strings.Builder
	for _, d := range []permission.Decision{permission.Deny, permission.Ask, permission.Allow} {
		for _, r := range rules {
			if r.Decision != d {
				continue
			}
			eft := "deny"
			if d == permission.Allow {
				eft = "allow"
			}
			tool := r.Tool
			if r.Form == FormToolGlob {
				tool += "*"
			}
			fmt.Fprintf(&b, "p, %s, %s, %s, %s\n", tool, casbinArg(r), eft, d)
		}
	}
	return b.String()
}

// casbinArg is the regular expression a rule's argument must match.
func casbinArg(r Rule) string {
	q := regexp.QuoteMeta
	// Deny and ask rules for "rm" also cover "/bin/rm".
	base := ""
	if r.Decision != permission.Allow {
		base = "([^ ]*/)?"
	}
	switch r.Form {
	case FormPrefix:
		return "^" + base + q(strings.Join(r.Words, " ")) + "( .*)?$"
	case FormExact:
		return "^" + base + q(strings.Join(r.Words, " ")) + "$"
	case FormMiddle:
		return "^" + base + q(r.Words[0]) + "( [^ ]+)+ " + q(r.Words[1]) + "$"
	case FormDir:
		return "^" + q(r.Dir) + "(/.*)?$"
	case FormExt:
		return "^" + q(r.Dir) + "/(.*/)?[^/]*" + q(r.Ext) + "(/.*)?$"
	case FormDomain:
		return "^" + q(r.Host) + "$"
	case FormSubdomain:
		return "^.+" + q("."+r.Host) + "$"
	}
	return ".*"
}

// Casbin decides calls with a casbin enforcer.
type Casbin struct {
	e    *casbin.Enforcer
	reqs [][3]any
}

// NewCasbin loads the model and the policy CSV into an enforcer.
func NewCasbin(rules []Rule, calls []Call) (*Casbin, error) {
	m, err := model.NewModelFromString(CasbinModel)
	if err != nil {
		return nil, err
	}
	e, err := casbin.NewEnforcer(m, stringadapter.NewAdapter(CasbinPolicy(rules)))
	if err != nil {
		return nil, err
	}
	c := &Casbin{e: e, reqs: make([][3]any, len(calls))}
	for i := range calls {
		call := &calls[i]
		arg := call.Path + call.Domain
		if len(call.Argv) > 0 {
			arg = strings.Join(call.Argv, " ")
		}
		c.reqs[i] = [3]any{call.Tool, call.Group, arg}
	}
	return c, nil
}

// Decide returns the decision for call i: Allow when the enforcer allows;
// otherwise the decision column of the row that decided, or Ask (the
// default) when no row matched.
func (c *Casbin) Decide(i int) (permission.Decision, error) {
	r := &c.reqs[i]
	ok, explain, err := c.e.EnforceEx(r[0], r[1], r[2])
	switch {
	case err != nil:
		return permission.Deny, err
	case ok:
		return permission.Allow, nil
	case len(explain) == 0:
		return permission.Ask, nil
	}
	return permission.ParseDecision(explain[len(explain)-1])
}

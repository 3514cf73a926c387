package bench

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/toolgate/toolgate/permission"
)

// RegoModule renders the policy as a Rego package whose decision is
// "allow", "ask" or "deny". Each rule is one body of deny, ask or allow
// (two bodies where Rego has no "or" within one: a rule for a group name,
// a directory and what lies below it). The input holds the tool, its group,
// the command's first word (name), its base name (base), the other words
// (args, an array), the path and the domain.
func RegoModule(rules []Rule) string {
	var b strings.Builder
	b.WriteString(`package toolgate.bench

default decision := "ask"

decision := "deny" if deny

decision := "ask" if {
	not deny
	ask
}

decision := "allow" if {
	not deny
	not ask
	allow
}
`)
	for _, r := range rules {
		head := r.Decision.String()
		tools := []string{"input.tool == " + strconv.Quote(r.Tool)}
		switch {
		case r.Form == FormToolGlob:
			tools = []string{"startswith(input.tool, " + strconv.Quote(r.Tool) + ")"}
		case isGroup(r.Tool):
			tools = append(tools, "input.group == "+strconv.Quote(r.Tool))
		}
		for _, tool := range tools {
			for _, cond := range regoConditions(r) {
				fmt.Fprintf(&b, "\n%s if {\n\t%s\n", head, tool)
				for _, c := range cond {
					fmt.Fprintf(&b, "\t%s\n", c)
				}
				b.WriteString("}\n")
			}
		}
	}
	return b.String()
}

// regoConditions returns the bodies (each a list of expressions, besides
// the tool's) that match what the rule matches.
func regoConditions(r Rule) [][]string {
	q := strconv.Quote
	name := "input.name == "
	if r.Decision != permission.Allow {
		name = "input.base == " // deny and ask rules for "rm" also cover "/bin/rm"
	}
	switch r.Form {
	case FormPrefix:
		c := []string{name + q(r.Words[0])}
		for i, w := range r.Words[1:] {
			c = append(c, fmt.Sprintf("input.args[%d] == %s", i, q(w)))
		}
		return [][]string{c}
	case FormExact:
		args := make([]string, 0, len(r.Words)-1)
		for _, w := range r.Words[1:] {
			args = append(args, q(w))
		}
		return [][]string{{name + q(r.Words[0]), "input.args == [" + strings.Join(args, ", ") + "]"}}
	case FormMiddle:
		return [][]string{{name + q(r.Words[0]), "n := count(input.args)", "n >= 2", "input.args[n-1] == " + q(r.Words[1])}}
	case FormDir:
		return [][]string{{"input.path == " + q(r.Dir)}, {"startswith(input.path, " + q(r.Dir+"/") + ")"}}
	case FormExt:
		return [][]string{
			{"startswith(input.path, " + q(r.Dir+"/") + ")", "endswith(input.path, " + q(r.Ext) + ")"},
			{"startswith(input.path, " + q(r.Dir+"/") + ")", "contains(trim_prefix(input.path, " + q(r.Dir+"/") + "), " + q(r.Ext+"/") + ")"},
		}
	case FormDomain:
		return [][]string{{"input.domain == " + q(r.Host)}}
	case FormSubdomain:
		return [][]string{{"endswith(input.domain, " + q("."+r.Host) + ")", "input.domain != " + q("."+r.Host)}}
	}
	return [][]string{nil}
}

// Rego decides calls with a prepared OPA query.
type Rego struct {
	query rego.PreparedEvalQuery
	input []ast.Value
}

// NewRego compiles the module and prepares the query for its decision. Each
// call's input is converted to an ast.Value once, here.
func NewRego(rules []Rule, calls []Call) (*Rego, error) {
	q, err := rego.New(
		rego.Query("data.toolgate.bench.decision"),
		rego.Module("policy.rego", RegoModule(rules)),
	).PrepareForEval(context.Background())
	if err != nil {
		return nil, err
	}
	r := &Rego{query: q, input: make([]ast.Value, len(calls))}
	for i := range calls {
		call := &calls[i]
		args := make([]any, 0, len(call.Args()))
		for _, a := range call.Args() {
			args = append(args, a)
		}
		v, err := ast.InterfaceToValue(map[string]any{
			"tool": call.Tool, "group": call.Group, "name": call.Name(), "base": call.Base(),
			"args": args, "path": call.Path, "domain": call.Domain,
		})
		if err != nil {
			return nil, err
		}
		r.input[i] = v
	}
	return r, nil
}

// Decide evaluates the prepared query for call i.
func (r *Rego) Decide(i int) (permission.Decision, error) {
	rs, err := r.query.Eval(context.Background(), rego.EvalParsedInput(r.input[i]))
	if err != nil {
		return permission.Deny, err
	}
	if len(rs) != 1 || len(rs[0].Expressions) != 1 {
		return permission.Deny, fmt.Errorf("rego: %d results", len(rs))
	}
	s, ok := rs[0].Expressions[0].Value.(string)
	if !ok {
		return permission.Deny, fmt.Errorf("rego: decision %v is not a string", rs[0].Expressions[0].Value)
	}
	return permission.ParseDecision(s)
}

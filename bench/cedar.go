package bench

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cedar-policy/cedar-go"
	"github.com/toolgate/toolgate/permission"
)

// CedarPolicies renders the policy in Cedar. A call is a request with
// principal Agent::"agent", action Action::"call" and resource
// Tool::"<name>"; Grep is a member of Tool::"Read" and Write of
// Tool::"Edit", so "resource in Tool::\"Read\"" covers both. The context
// holds the tool's name, the command's first word (name), its base name
// (base), the other words joined by spaces (args), the path and the domain.
//
// Allow is a permit, Deny a forbid, and Ask a forbid annotated
// @decision("ask").
func CedarPolicies(rules []Rule) string {
	var b strings.Builder
	for _, r := range rules {
		effect := "permit"
		if r.Decision != permission.Allow {
			effect = "forbid"
		}
		if r.Decision == permission.Ask {
			b.WriteString("@decision(\"ask\")\n")
		}
		fmt.Fprintf(&b, "%s (principal, action == Action::\"call\", %s)", effect, cedarScope(r))
		if cond := cedarCondition(r); cond != "" {
			fmt.Fprintf(&b, "\nwhen { %s }", cond)
		}
		b.WriteString(";\n\n")
	}
	return b.String()
}

func cedarScope(r Rule) string {
	switch {
	case r.Form == FormToolGlob:
		return "resource"
	case isGroup(r.Tool):
		return "resource in Tool::" + strconv.Quote(r.Tool)
	}
	return "resource == Tool::" + strconv.Quote(r.Tool)
}

func cedarCondition(r Rule) string {
	q := strconv.Quote
	name := "context.name"
	if r.Decision != permission.Allow {
		name = "context.base" // deny and ask rules for "rm" also cover "/bin/rm"
	}
	switch r.Form {
	case FormToolGlob:
		return "context.tool like " + q(r.Tool+"*")
	case FormPrefix:
		s := name + " == " + q(r.Words[0])
		if len(r.Words) > 1 {
			rest := strings.Join(r.Words[1:], " ")
			s += " && (context.args == " + q(rest) + " || context.args like " + q(rest+" *") + ")"
		}
		return s
	case FormExact:
		return name + " == " + q(r.Words[0]) + " && context.args == " + q(strings.Join(r.Words[1:], " "))
	case FormMiddle:
		return name + " == " + q(r.Words[0]) + " && context.args like " + q("* "+r.Words[1])
	case FormDir:
		return "context.path == " + q(r.Dir) + " || context.path like " + q(r.Dir+"/*")
	case FormExt:
		return "context.path like " + q(r.Dir+"/*"+r.Ext) + " || context.path like " + q(r.Dir+"/*"+r.Ext+"/*")
	case FormDomain:
		return "context.domain == " + q(r.Host)
	case FormSubdomain:
		return "context.domain like " + q("*."+r.Host)
	}
	return ""
}

// Cedar decides calls with a cedar-go policy set.
type Cedar struct {
	policies *cedar.PolicySet
	entities cedar.EntityMap
	ask      map[cedar.PolicyID]bool
	reqs     []cedar.Request
}

// NewCedar parses the policies and builds each call's request.
func NewCedar(rules []Rule, calls []Call) (*Cedar, error) {
	ps, err := cedar.NewPolicySetFromBytes("policy.cedar", []byte(CedarPolicies(rules)))
	if err != nil {
		return nil, err
	}
	c := &Cedar{policies: ps, entities: cedar.EntityMap{}, ask: map[cedar.PolicyID]bool{}, reqs: make([]cedar.Request, len(calls))}
	for id, p := range ps.All() {
		if p.Annotations()["decision"] == "ask" {
			c.ask[id] = true
		}
	}
	for group, members := range groups {
		for _, m := range members {
			if m == group {
				continue
			}
			uid := cedar.NewEntityUID("Tool", cedar.String(m))
			c.entities[uid] = cedar.Entity{UID: uid, Parents: cedar.NewEntityUIDSet(cedar.NewEntityUID("Tool", cedar.String(group)))}
		}
	}
	for i := range calls {
		call := &calls[i]
		c.reqs[i] = cedar.Request{
			Principal: cedar.NewEntityUID("Agent", "agent"),
			Action:    cedar.NewEntityUID("Action", "call"),
			Resource:  cedar.NewEntityUID("Tool", cedar.String(call.Tool)),
			Context: cedar.NewRecord(cedar.RecordMap{
				"tool":   cedar.String(call.Tool),
				"name":   cedar.String(call.Name()),
				"base":   cedar.String(call.Base()),
				"args":   cedar.String(strings.Join(call.Args(), " ")),
				"path":   cedar.String(call.Path),
				"domain": cedar.String(call.Domain),
			}),
		}
	}
	return c, nil
}

// Decide returns the decision for call i: Allow when a permit and no forbid
// holds; Deny when a forbid without @decision("ask") holds; Ask when only
// ask forbids hold, or when no policy holds (the default).
func (c *Cedar) Decide(i int) (permission.Decision, error) {
	d, diag := c.policies.IsAuthorized(c.entities, c.reqs[i])
	if len(diag.Errors) > 0 {
		return permission.Deny, fmt.Errorf("cedar: %s: %s", diag.Errors[0].PolicyID, diag.Errors[0].Message)
	}
	if d == cedar.Allow {
		return permission.Allow, nil
	}
	for _, r := range diag.Reasons {
		if !c.ask[r.PolicyID] {
			return permission.Deny, nil
		}
	}
	return permission.Ask, nil
}

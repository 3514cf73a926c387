package tool

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/toolgate/toolgate/permission"
)

// Descriptor is a [Tool] described by data: a name, the traits every call
// shares, and optional functions for traits or rules that depend on the
// input. Its zero value (after setting ToolName) is the most conservative
// tool. A Descriptor must not be changed once it is in a [Registry].
type Descriptor struct {
	// ToolName is the tool's name.
	ToolName string
	// Base holds the traits of every call. Its Rules apply to every call.
	Base Traits
	// TraitsFunc, if set, computes the traits for an input instead of Base.
	TraitsFunc func(input json.RawMessage) Traits
	// RulesFunc, if set, returns the tool's own permission rules for an
	// input (the original design's check_permissions); they are appended to
	// the traits' Rules.
	RulesFunc func(input json.RawMessage) []Rule
}

// Name returns d.ToolName.
func (d *Descriptor) Name() string { return d.ToolName }

// Traits returns the traits for input. A panic in TraitsFunc or RulesFunc
// is recovered: the call then gets the zero (most conservative) traits and
// a Deny rule naming the panic. A rule whose decision is neither Deny nor
// Ask is turned into a Deny that says so, since a tool may only restrict.
// The returned slices are shared and must not be modified.
func (d *Descriptor) Traits(input json.RawMessage) (t Traits) {
	defer func() {
		if p := recover(); p != nil {
			t = Traits{Rules: []Rule{{
				Decision: permission.Deny,
				Rule:     permission.RuleID(d.ToolName) + ":traits-panic",
				Reason:   fmt.Sprintf("tool %s failed to describe its input: panic: %v", d.ToolName, p),
			}}}
		}
	}()
	t = d.Base
	if d.TraitsFunc != nil {
		t = d.TraitsFunc(input)
	}
	if d.RulesFunc != nil {
		if extra := d.RulesFunc(input); len(extra) > 0 {
			t.Rules = append(slices.Clip(t.Rules), extra...)
		}
	}
	for i, r := range t.Rules {
		if r.Decision != permission.Deny && r.Decision != permission.Ask {
			rules := slices.Clone(t.Rules)
			rules[i] = Rule{
				Decision: permission.Deny,
				Rule:     r.Rule,
				Reason: fmt.Sprintf("tool %s returned a %s rule, but a tool may only deny or ask (%s)",
					d.ToolName, r.Decision, r.Reason),
			}
			t.Rules = rules
		}
	}
	return t
}

package tool

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Registry holds the tools a session may call, by name. A Registry is
// immutable once built, so it is safe for concurrent use; [Registry.Restrict]
// and [Registry.With] return new registries. A nil *Registry holds no tools.
type Registry struct {
	tools  []Tool // in registration order
	byName map[string]Tool
}

// NewRegistry returns a registry of tools. It is an error for a tool to be
// nil, to have an invalid name (1 to 128 letters, digits, '_', '-', '.' or
// ':'), or to share its name with another.
func NewRegistry(tools ...Tool) (*Registry, error) {
	r := &Registry{tools: make([]Tool, 0, len(tools)), byName: make(map[string]Tool, len(tools))}
	var errs []error
	for i, t := range tools {
		if t == nil {
			errs = append(errs, fmt.Errorf("tool: tool %d is nil", i))
			continue
		}
		name := t.Name()
		if !validToolName(name) {
			errs = append(errs, fmt.Errorf("tool: tool %d: invalid tool name %q", i, name))
			continue
		}
		if _, dup := r.byName[name]; dup {
			errs = append(errs, fmt.Errorf("tool: tool %d: duplicate tool name %q", i, name))
			continue
		}
		r.tools = append(r.tools, t)
		r.byName[name] = t
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return r, nil
}

func mustRegistry(tools ...Tool) *Registry {
	r, err := NewRegistry(tools...)
	if err != nil {
		panic(err) // only for the built-in descriptor tables, which tests cover
	}
	return r
}

// Lookup returns the tool called name.
func (r *Registry) Lookup(name string) (Tool, bool) {
	if r == nil {
		return nil, false
	}
	t, ok := r.byName[name]
	return t, ok
}

// List returns the tools in registration order. The slice is a copy.
func (r *Registry) List() []Tool {
	if r == nil {
		return nil
	}
	return slices.Clone(r.tools)
}

// Names returns the tool names in registration order.
func (r *Registry) Names() []string {
	if r == nil {
		return nil
	}
	names := make([]string, len(r.tools))
	for i, t := range r.tools {
		names[i] = t.Name()
	}
	return names
}

// Len returns the number of tools.
func (r *Registry) Len() int {
	if r == nil {
		return 0
	}
	return len(r.tools)
}

// Restrict returns a new registry holding only the named tools, in r's
// order: least privilege for a subagent. Naming a tool r does not hold is an
// error listing every unknown name, so a typo never silently drops a tool;
// naming one twice is allowed.
func (r *Registry) Restrict(names ...string) (*Registry, error) {
	keep := make(map[string]bool, len(names))
	var unknown []string
	for _, n := range names {
		if _, ok := r.Lookup(n); !ok {
			unknown = append(unknown, fmt.Sprintf("%q", n))
			continue
		}
		keep[n] = true
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("tool: restrict: unknown tool(s) %s", strings.Join(unknown, ", "))
	}
	out := &Registry{byName: make(map[string]Tool, len(keep))}
	for _, t := range r.List() {
		if keep[t.Name()] {
			out.tools = append(out.tools, t)
			out.byName[t.Name()] = t
		}
	}
	return out, nil
}

// With returns a new registry holding r's tools followed by tools, with the
// same checks as [NewRegistry].
func (r *Registry) With(tools ...Tool) (*Registry, error) {
	return NewRegistry(append(r.List(), tools...)...)
}

package runtime

import (
	"fmt"

	"github.com/toolgate/toolgate/runtime/tool"
)

// AddTools registers tools on a live pipeline, for hosts whose tools
// appear at run time (an MCP server's, listed after it started). The rules
// apply to them by name, as to every tool, and each tool's [tool.Traits] say
// which of its arguments are paths, commands or addresses, so the sandbox,
// the shell guard and the domain rules judge them. Sessions see the new
// tools from their next Check; a child session started with a restricted
// tool set keeps its set.
//
// The checks are those of [tool.NewRegistry]; a name already registered is an
// error too (a tool's traits are never changed under a live session), and
// on any error nothing is added. AddTools is safe for concurrent use with
// itself and with every other method.
func (p *Pipeline) AddTools(tools ...tool.Tool) error {
	for {
		cur := p.tools.Load()
		for i, t := range tools {
			if t == nil {
				continue // NewRegistry reports it
			}
			if _, dup := cur.Lookup(t.Name()); dup {
				return fmt.Errorf("runtime: add tools: tool %d: %q is already registered", i, t.Name())
			}
		}
		next, err := cur.With(tools...)
		if err != nil {
			return fmt.Errorf("runtime: add tools: %w", err)
		}
		if p.tools.CompareAndSwap(cur, next) {
			return nil
		}
	}
}

// toolset returns the tools the session may call: its own restricted set,
// or the pipeline's live one.
func (a *agent) toolset() *tool.Registry {
	if a.tools != nil {
		return a.tools
	}
	return a.p.tools.Load()
}

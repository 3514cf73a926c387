package permission

// Layer names the layer of the defence that decided a call, numbered as in
// the design: 1 tool traits, 2 rules, 3 hooks, 4 sandbox, 5 shell guard,
// 6 subagent, 7 runtime limits. The zero value, LayerNone, means no layer
// decided, which only an unset (and so denying) verdict carries.
type Layer uint8

const (
	// LayerNone is the layer of a verdict nobody set.
	LayerNone Layer = iota
	// LayerTraits is layer 1: what a tool declares, and input validation.
	LayerTraits
	// LayerRules is layer 2: allow/ask/deny rules and modes.
	LayerRules
	// LayerHooks is layer 3: lifecycle hooks.
	LayerHooks
	// LayerSandbox is layer 4: path containment.
	LayerSandbox
	// LayerShell is layer 5: shell command analysis.
	LayerShell
	// LayerSubagent is layer 6: subagent isolation.
	LayerSubagent
	// LayerRuntime is layer 7: runtime limits.
	LayerRuntime
)

var layerNames = [...]string{"none", "L1 traits", "L2 rules", "L3 hooks", "L4 sandbox", "L5 shell", "L6 subagent", "L7 runtime"}

// String returns a short name such as "L2 rules".
func (l Layer) String() string {
	if int(l) < len(layerNames) {
		return layerNames[l]
	}
	return "none"
}

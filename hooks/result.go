package hooks

import (
	"encoding/json"

	"github.com/toolgate/toolgate/permission"
)

// PreAction is what a PreToolUse callback asks for.
type PreAction uint8

const (
	// PreContinue lets the call go on to the rules unchanged.
	PreContinue PreAction = iota
	// PreBlock denies the call; the chain stops.
	PreBlock
	// PreMutateInput replaces the call's input and/or adds context.
	PreMutateInput
	// PrePermissionRequired raises the call's decision to Ask.
	PrePermissionRequired
)

var preActionNames = [...]string{"continue", "block", "mutate-input", "permission-required"}

// String returns the action's name, such as "block".
func (a PreAction) String() string {
	if int(a) < len(preActionNames) {
		return preActionNames[a]
	}
	return "invalid"
}

// PreToolUseResult is a PreToolUse callback's answer. The zero value is
// Continue. Build the others with [Block], [MutateInput] and
// [PermissionRequired]. An Action outside the defined values blocks the
// call.
type PreToolUseResult struct {
	Action PreAction
	// Reason is the Block reason or the PermissionRequired message.
	Reason string
	// Input is the new input for MutateInput; nil keeps the input.
	Input json.RawMessage
	// Context is text added to the model's context for MutateInput.
	Context string
}

// Block denies the call with the given reason. The chain stops here.
func Block(reason string) PreToolUseResult {
	return PreToolUseResult{Action: PreBlock, Reason: reason}
}

// MutateInput replaces the call's input with input (nil keeps it) and adds
// context, which is joined with other hooks' contexts in registration
// order. Hooks later in the chain, and the rules, see the new input.
func MutateInput(input json.RawMessage, context string) PreToolUseResult {
	return PreToolUseResult{Action: PreMutateInput, Input: input, Context: context}
}

// PermissionRequired asks that a person confirm the call: the decision is
// raised to Ask (it never lowers a Deny). The message says why.
func PermissionRequired(message string) PreToolUseResult {
	return PreToolUseResult{Action: PrePermissionRequired, Reason: message}
}

// PostAction is what a PostToolUse callback asks for.
type PostAction uint8

const (
	// PostContinue keeps the output.
	PostContinue PostAction = iota
	// PostMutateOutput replaces the output.
	PostMutateOutput
)

// String returns "continue" or "mutate-output".
func (a PostAction) String() string {
	switch a {
	case PostContinue:
		return "continue"
	case PostMutateOutput:
		return "mutate-output"
	}
	return "invalid"
}

// PostToolUseResult is a PostToolUse callback's answer. The zero value is
// Continue; build MutateOutput with [MutateOutput].
type PostToolUseResult struct {
	Action PostAction
	// Output is the new output for MutateOutput.
	Output string
	// Context is text a hook wants added to the model's context after
	// the call (Claude Code's additionalContext). It is joined in order.
	Context string
}

// MutateOutput replaces the tool's output; hooks later in the chain see the
// new output.
func MutateOutput(output string) PostToolUseResult {
	return PostToolUseResult{Action: PostMutateOutput, Output: output}
}

// Rule is the rule ID of an answer the hook named name gave (a Block, a
// PermissionRequired, a failure): "hook:" and the name.
func Rule(name string) permission.RuleID { return "hook:" + permission.RuleID(name) }

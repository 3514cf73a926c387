// Package tool is layer 1's description of the tools an agent may call:
// for each call, its [Traits] — how it may be scheduled and interrupted,
// what kind of effect it has, which input fields are paths, globs,
// commands, URLs or host names for the content checks, and the tool's own
// Deny and Ask rules.
//
// A [Tool] gives its name and, for one input, its traits; a [Descriptor]
// is a Tool described by data. A [Registry] holds the tools a session may
// call, by name: immutable, so safe for concurrent use, and narrowed for a
// subagent with [Registry.Restrict]. [ClaudeCodeTools] describes every
// tool the Claude Code CLI knows and [GenericTools] a common neutral set.
//
// Package runtime's Pipeline takes a Registry in its Config (Tools) and
// judges each call by the traits its tool declares; the zero Traits are the
// most conservative.
package tool

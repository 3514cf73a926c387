// Package claudecode holds a Claude Code settings snippet, settings.json,
// that installs toolgate-check (toolgate check, answered by a warm
// process) as the PreToolUse, PostToolUse and PostToolUseFailure hook for
// every tool, with a few permission rules and toolgate's own options beside
// it. Put it (or merge it) into ~/.claude/settings.json for every project,
// or into a project's .claude/settings.json, after
//
//	go install github.com/toolgate/toolgate/cmd/...@latest
//
// Claude Code then asks toolgate before every tool call: toolgate answers
// allow, ask or deny with its reason, reading the same settings files as
// Claude Code. The test beside it installs the binaries the same way, runs
// the hook command from the snippet as Claude Code runs it (/bin/sh -c,
// event on stdin, from another directory) and checks its answers.
package claudecode

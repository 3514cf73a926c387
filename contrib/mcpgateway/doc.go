// Package mcpgateway fronts MCP servers with a toolgate pipeline: the
// servers of a configuration in the shape of Claude Code's .mcp.json are
// served to any MCP client, their tools listed as they are (minus those a
// Deny rule covers entirely) and every call judged as mcp__SERVER__TOOL by
// [runtime.Pipeline.Check] before it reaches the server, and its result
// shaped by [runtime.Pipeline.After] on its way back.
//
// An Ask goes to the person through MCP elicitation when the client
// supports it; otherwise it is a Deny with the reason. A refused call is a
// tool error whose text is the reason, so the model sees why. A client of
// the multi round-trip protocol (2026-07-28) gets the question as the
// call's input requests and answers with the call again: the answer is
// good once, for that session, tool and input only, and the call is not
// judged a second time. An older client is sent an elicitation request.
// Either way [Options.AskTimeout] bounds the wait, and no answer in time is
// a Deny (recorded when the time is up). The step limit does not apply to
// the gateway's sessions, which see no model turns; see [Options].
//
// The command's rules are those of the person's settings
// ($HOME/.claude/settings.json), of --settings files and of the
// workspace's .claude/settings.json and settings.local.json; the
// workspace's own files only narrow (their allow rules and added
// directories are set aside, as for a workspace Claude Code has not been
// told to trust). Its hooks are the configuration file's "hooks" member
// ([Config.HookCommands]).
//
// It is a module of its own, so that the official MCP Go SDK never enters
// the library's go.mod; the toolgate-mcp command in cmd/toolgate-mcp is
// what "toolgate mcp" runs.
package mcpgateway

// Command toolgate puts toolgate's Pipeline in front of an agent you
// already run, and explains and checks its policies.
//
// # toolgate check
//
// A drop-in Claude Code hook. Install it for PreToolUse and PostToolUse with
// the matcher "*" (see examples/claudecode). It reads one hook event from
// stdin and writes Claude Code's JSON answer on stdout, with exit status 0,
// always. A PreToolUse answer is always explicit:
//
//	{"hookSpecificOutput": {"hookEventName": "PreToolUse",
//	  "permissionDecision": "allow" | "ask" | "deny",
//	  "permissionDecisionReason": "toolgate: <reason> [<layer>: <rule or check>]",
//	  "updatedInput": {...}}}          // when the input to run differs: a hook rewrote it, or the command runs confined
//
// A PostToolUse event runs the post hooks; their rewritten output comes back
// as hookSpecificOutput.updatedToolOutput in the tool's own output shape (a
// string for MCP tools, also sent as updatedMCPToolOutput; for Bash an object
// with stdout, stderr, interrupted and isImage; for other built-in tools the
// tool's object with the text in its text field and the rest emptied), their
// added context as additionalContext, and their failures as systemMessage.
// A PostToolUseFailure event (a call that failed) runs the post hooks too,
// with the failure as the run's error, and is answered with that event's
// name. Claude Code's other events (SessionStart, UserPromptSubmit, Stop,
// ...) get the empty answer {}, which changes nothing; an event of a name
// no supported agent uses is refused with exit status 2, the reason on
// stderr and a deny in Claude Code's and Gemini CLI's shapes on stdout.
//
// Anything wrong — stdin that is not JSON, a missing field (session_id, cwd,
// tool_name, tool_input), a settings file that cannot be read or parsed, a
// panic — is a deny with the reason (for a post event, a systemMessage).
//
// With --host codex, or for an event that carries turn_id, toolgate check
// speaks Codex CLI's protocol instead (see examples/codex/hooks.json): exit
// status 2 with the reason on stderr blocks a PreToolUse call, denies a
// PermissionRequest and, for PostToolUse, replaces the output the model
// sees; exit status 0 with nothing on stdout lets the call go on. Codex's
// permission_mode is ignored, an Ask is a block that names the rules
// allowing the call, an unknown tool or event is blocked, and commands are
// judged, never confined.
//
// With --host gemini, or for a BeforeTool or AfterTool event (see
// examples/gemini), each of Gemini CLI's calls is judged as the Claude
// Code tool that does the same (run_shell_command as Bash, read_file as
// Read, ...) and answered with Gemini's top-level decision and reason: an
// Ask is a Deny whose reason says how to allow the call, an allowed
// command is confined through hookSpecificOutput.tool_input, and a
// rewritten AfterTool result is sent as a deny whose reason Gemini puts
// in the result's place.
//
// The project is CLAUDE_PROJECT_DIR, which Claude Code gives its hooks, or
// else the event's cwd, never the process's working directory: its
// settings apply, and the sandbox's roots are the project and the
// settings' additionalDirectories (directories that do not exist, and /,
// the home directory as a whole, system locations and credential folders,
// are left out). Relative paths and commands resolve against the event's
// cwd, which after "cd src" is a folder of the project. Claude Code's tools come from
// tool.ClaudeCodeTools, with a few more of Claude Code's tools (LS,
// NotebookRead, BashOutput, KillShell, ExitPlanMode, AskUserQuestion,
// SlashCommand, Skill) at the defaults of their kind; a tool named
// mcp__server__tool is checked as a generic tool of kind other. Any other
// tool is denied.
//
// # Policy
//
// The settings files are Claude Code's, in its precedence: managed
// (/etc/claude-code/managed-settings.json, or --managed FILE), files named
// with --settings (command line), <cwd>/.claude/settings.local.json,
// <project>/.claude/settings.json and $HOME/.claude/settings.json; the
// AGENT_PERMISSIONS_* variables count as command line. A deny anywhere wins.
// The event's permission_mode sets the mode; without one, the settings'
// defaultMode does. Settings files are read only when they are regular
// files (links are followed to one) of at most 1 MiB; a FIFO, a device, a
// repeated key or malformed JSON is a deny naming the file and the offset,
// never its content.
//
// # Trust
//
// What the workspace ships only narrows until the person trusts it, as
// Claude Code records that (projects[path].hasTrustDialogAccepted in
// ~/.claude.json, for the project or a parent up to the repository's
// root). Until then project and local settings give deny and ask rules,
// a stricter defaultMode and "network": false; their allow rules,
// additionalDirectories, laxer modes, safeCommands, "network": true and
// hooks are set aside, and the reason says so. Trusted, they may also
// allow, add roots (never /, the home directory, system or credential
// locations), choose acceptEdits, and run hooks; never auto or
// bypassPermissions. SECURITY.md has the table.
//
// Hooks are read once per session, as Claude Code snapshots its own: the
// first event of a session_id records them under the state directory
// ($XDG_STATE_HOME/toolgate or ~/.local/state/toolgate, or --state-dir),
// later events of that session use the record. "disableAllHooks" in
// managed settings turns off every hook, in user or command-line settings
// every hook but the managed ones, in the workspace its own hooks only;
// "allowManagedHooksOnly" (managed settings only) keeps the managed hooks.
//
// With no settings at all the defaults are never more permissive than
// Claude Code's own:
//
//	read tools      allow inside the roots (secret files such as .env ask; outside the roots deny)
//	edit tools      ask (allow in acceptEdits mode, inside the roots)
//	Bash            the shell guard's read-only safe list allows; unknown commands ask;
//	                the hard-deny list, writes outside the roots and network commands deny
//	WebFetch        ask, unless a domain rule allows it
//	WebSearch       ask
//	Task, Agent     allow (each call a subagent makes comes through the hook again)
//	Monitor         as Bash: its command goes through the shell guard and the Bash rules
//	session tools   allow: TodoWrite, the Task* and Cron* tools, ToolSearch, ExitWorktree and
//	                the others that touch only Claude Code's own session state (built-in
//	                allow rules; a deny rule still wins), except what reaches past it: a
//	                durable CronCreate, an ExitWorktree that discards work, a SendMessage
//	                that approves a teammate's plan ask
//	EnterWorktree   as an edit: it makes a worktree (asks), or moves into the one its path names
//	ReadMcpResourceTool  as an MCP call: ask, unless a rule allows it (ReadMcpResourceTool(server),
//	                or mcp__server for the server its server member names); the server's
//	                deny and ask rules hold for it, and for a ListMcpResourcesTool naming it;
//	                a ListMcpResourcesTool naming no server asks where any rule denies or
//	                asks for a server (mcp__server, mcp__server__*), naming the rule
//	MCP and others  ask
//
// toolgate's own options live under the "toolgate" key of the same files:
//
//	"toolgate": {
//	  "network": false,               // true: network commands in the shell ask instead of deny
//	  "safeCommands": ["make"],       // further commands allowed with literal arguments
//	  "hookTimeout": 30,              // seconds, for command hooks without their own timeout
//	  "hooks": {                      // command hooks, in Claude Code's hook settings shape
//	    "PreToolUse":  [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./fix.sh", "timeout": 5}]}],
//	    "PostToolUse": [{"matcher": "*",    "hooks": [{"type": "command", "command": "./redact.sh"}]}]
//	  }
//	}
//
// The highest-precedence file that sets "network" decides it; safe commands
// and hooks of every file add up (managed first). Unknown keys are errors.
// Claude Code's own "hooks" key is left to Claude Code.
//
// # Limits
//
// Plan mode is Claude Code's: reads, web fetches and searches, talking to
// the person, subagents (which inherit plan mode) and the session tools
// run, each with its own answer — ExitPlanMode asks, since it puts the
// plan to the person; AskUserQuestion asks; Task and Agent are allowed —
// while edits, shell commands and MCP tools are denied. (Claude Code also
// runs read-only shell commands in plan mode; toolgate denies them, which
// is stricter.)
//
// Auto mode allows what acceptEdits allows (edits inside the roots),
// leaves every other Ask to Claude Code's classifier, and sets aside the
// broad allow rules Claude Code drops on entering auto mode (Bash,
// Bash(*), interpreters and package-manager run commands with any
// arguments, Task and Agent allows). A permission mode toolgate does not
// know, from a later Claude Code, is judged as the default mode, and the
// reason says so.
//
// A WebFetch of loopback, link-local, cloud metadata, private, shared or
// unspecified addresses (in every IPv4 and IPv6 spelling) or of localhost
// and the metadata host names asks, in every mode, unless an allow rule
// names the host (WebFetch(domain:10.0.0.5)); a bare WebFetch allow does
// not reach them.
//
// # toolgate mcp
//
//	toolgate mcp --config FILE [--listen ADDR] [--dir DIR] [--audit FILE] [--settings FILE]...
//	             [--ask-timeout 2m] [--idle-timeout 30m] [--allow-remote] [-v] [--log-level LEVEL]
//
// runs the MCP gateway, the command toolgate-mcp of the module
// github.com/toolgate/toolgate/contrib/mcpgateway (a module of its own, so
// that the MCP SDK never enters the library's go.mod), with the same
// arguments, standard streams and environment; its exit status is the
// gateway's (on unix toolgate hands its process over to it). As git finds
// its subcommands, toolgate runs the toolgate-mcp next to its own
// executable, or else the one on PATH; one that PATH finds only through a
// relative entry such as "." is not run. When there is none, the exit
// status is 127 and the message gives the line that installs it, at
// toolgate's own version when that is a release (@latest otherwise):
//
//	go install github.com/toolgate/toolgate/contrib/mcpgateway/cmd/toolgate-mcp@v0.3.0
//
// The gateway fronts the MCP servers of FILE (Claude Code's .mcp.json
// shape) and serves them over stdio, or streamable HTTP on ADDR; every
// tools/call is judged as mcp__SERVER__TOOL under the user's settings,
// the --settings files and those of DIR (default: the working directory),
// which only narrow; an Ask goes to the person through MCP elicitation
// (no answer within --ask-timeout is a Deny), the PostToolUse hooks of
// FILE's "hooks" member shape the results, and --audit records every
// decision in a SQLite file. The step limit does not apply (an MCP server
// sees no model turns); the repeat and cycle limits do, per call. A
// non-loopback ADDR needs --allow-remote: the endpoint has no
// authentication of its own. The package documentation of
// contrib/mcpgateway has the rest.
//
// # Logging: -v and --log-level
//
// toolgate serve and toolgate mcp log with log/slog, as text lines on
// standard error, never on standard output (MCP's stdio transport is
// toolgate mcp's standard output). --log-level=debug|info|warn|error
// chooses what is shown (default info: start, stop, warnings); -v is
// --log-level=debug, which adds each request of the approval page (its
// path, never the query that may hold the token), the settings files the
// gateway read and every call's decision (tool, decision, layer, rule,
// reason; never the input). An unknown level is a usage error, exit
// status 2. The lines for the person (serve's page address, the
// gateway's "toolgate mcp: serving http://ADDR/") are printed at every
// level.
//
// # toolgate serve
//
//	toolgate serve --store sqlite:PATH|postgres:DSN [--addr 127.0.0.1:7077] [--name NAME] [--allow-remote] [-v] [--log-level LEVEL]
//
// serves the approval page over the store where pipelines park their
// questions, until SIGINT or SIGTERM, and prints the address to open with
// its token (TOOLGATE_TOKEN, or a random one). A non-loopback address needs
// --allow-remote (put TLS in front); --name is recorded with each answer.
// It runs the program toolgate-serve (the command cmd/toolgate-serve) as
// toolgate mcp runs its gateway: the one next to the toolgate executable,
// or else the one on PATH, never one found through a relative PATH entry;
// not there, exit status 127 and the line that installs it. One line
// installs both:
//
//	go install github.com/toolgate/toolgate/cmd/...@v0.3.0
//
// It is a program of its own so that the hook, which Claude Code starts
// for every tool call, links neither the SQL stores nor the HTTP server.
//
// # toolgate explain
//
//	toolgate explain [--settings F]... [--cwd D] [--mode M] [--json] [--exit-code] TOOL 'JSON input'
//
// prints how a call would be decided (with --exit-code, its exit status is
// the decision: 0 allow, 1 ask, 2 deny, so that a script can gate on it): the decision, the layer and the rule
// or check; the policy that was loaded; each layer in the order it runs,
// what it saw and every answer it gave (the deciding one and those it
// overrode); for shell commands each simple command with its argv and
// verdict; and every rule naming the tool, with what it matched and what
// it did not.
//
// # toolgate exec
//
// The launcher of a confined command: an allowed Bash command that
// toolgate check runs confined comes back rewritten to "toolgate exec
// --policy P --script S", which runs the script under the layers of
// package bashguard/runner (Landlock, a seccomp filter, namespaces where
// the user may have them) and reports the layers that applied. It exits
// with the command's status, 126 when the command did not run, and 125
// when the runner killed it for writing more than its output cap (64 MiB
// of standard output and standard error together), each with the reason
// on standard error; toolgate-shell-prefix exits the same way.
//
// # toolgate shell-prefix
//
// The confinement at Claude Code's shell instead: the binary run through a
// link named toolgate-shell-prefix, set as CLAUDE_CODE_SHELL_PREFIX, gets
// each script Claude Code runs as its one argument. toolgate check, seeing
// that prefix in its environment, leaves an allowed Bash command as it is
// and records the confinement it decided for it (see prefix.go); the
// prefix runs the script under that record, or, without one, confined to
// its directory with the network off. Hook commands of the user's and the
// managed settings run as they are.
//
// # toolgate warm
//
// The warm process of toolgate-check (cmd/toolgate-check), the small hook
// command of examples/claudecode: "toolgate warm DIR KEY" answers
// "toolgate check" calls on the socket KEY.sock in DIR, one at a time,
// only for a peer of its uid in its namespaces whose binary, working
// directory and whole environment are its own, and leaves after ten idle
// minutes. Between calls it keeps the sandbox of each configuration, the
// settings files and the record of trust it read, each revalidated
// before use (the files by their stat, the sandbox's search of the
// workspace as a fresh process revalidates its facts, the mount table by
// POLLPRI), so that its answer is the one a fresh toolgate check would
// print. toolgate-check starts it; it is not for people. SECURITY.md's
// "The warm hook process" has the design.
//
// # toolgate version, and -h
//
// toolgate version prints the module's version and the VCS state the
// binary was built from. Every subcommand prints its usage for -h or
// --help and exits 0; toolgate check typed at a terminal says on stderr
// that it reads a hook event from its input.
//
// # toolgate lint
//
//	toolgate lint [--settings F]... [--cwd D]
//
// checks the settings files a check in the project would read. Errors (exit
// status 1): files that cannot be read or parsed (a FIFO, a device, a
// repeated key), malformed rules (with line and column), rules naming tools
// that do not exist, rules that can never match (a tool name in the wrong
// case, a URL where domain: belongs, a specifier on a tool that takes none;
// the check refuses to run with such a deny or ask rule). Warnings: what
// the check sets aside until the workspace is trusted, allow rules that
// never take effect because a deny or ask rule covers them (the same rule,
// the bare tool, a wider command prefix or folder), allow rules too broad
// to be safe (Bash, Bash(*), Bash(python:*), Bash(sh -c:*), Bash(env:*),
// Bash(sudo:*), Bash(xargs:*), Read(//**), WebFetch, ...), and unknown
// keys.
package main

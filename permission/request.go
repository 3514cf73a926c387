package permission

// Request is what the checker needs to know of one call, or of one simple
// command of a shell call. Fill only the fields that apply: a rule whose
// specifier needs a field that is empty does not match.
type Request struct {
	// Tool is the tool's name, such as "Bash", "Read" or "mcp__github__create_issue".
	Tool string
	// Group is a second name whose rules also apply, as Claude Code's Read
	// rules apply to every tool that reads files and its Edit rules to
	// every tool that edits them: "Read", "Edit" or empty.
	Group string
	// Kind is what the tool does; modes and per-kind defaults use it.
	Kind Kind
	// Command is the argv of one simple command, for shell tools. The
	// caller splits compound commands (package bashguard does).
	Command []string
	// Path is the cleaned absolute path the call touches, for file tools.
	Path string
	// Domain is the host name the call reaches, for network tools.
	Domain string
	// Content is matched by specifiers of other tools (a subagent's type,
	// for instance), with '*' as a wildcard.
	Content string
	// Specific limits the answer to rules with a specifier (domain:host,
	// a path, a command): rules for the whole tool, or for every tool,
	// are left out. A floor that only a rule naming the object may lift
	// asks this way (WebFetch of an internal address).
	Specific bool
}

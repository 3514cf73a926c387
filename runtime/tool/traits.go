package tool

import "github.com/toolgate/toolgate/permission"

// Interrupt says what a tool does when its session is cancelled while it
// runs. The zero value, InterruptCancel, stops the tool at once.
type Interrupt uint8

const (
	// InterruptCancel stops the tool as soon as its session is cancelled:
	// the context it runs under is cancelled and its result is dropped.
	// It suits tools without side effects, such as reads and searches.
	InterruptCancel Interrupt = iota
	// InterruptBlock lets the tool run to completion under a context that
	// cancellation does not reach, and keeps its result. It suits tools
	// whose side effects must not be left half done: shell commands,
	// memory writes, questions to the person, subagents.
	InterruptBlock
)

// String returns "cancel" or "block".
func (i Interrupt) String() string {
	if i == InterruptBlock {
		return "block"
	}
	return "cancel"
}

// Traits is what a tool declares about one call: how it may be scheduled
// and interrupted, what kind of effect it has, which input fields the
// content guards must inspect, and its own permission rules.
//
// The zero value is the most conservative: not concurrency-safe, cancelled
// on interrupt, kind [permission.KindOther], no fields declared (so a host
// that forgets to declare a path field gets no sandbox check for it: declare
// every field that names a file, command or address).
type Traits struct {
	// ConcurrencySafe allows the call to run in parallel with neighbouring
	// concurrency-safe calls of the same batch.
	ConcurrencySafe bool
	// Interrupt is the call's behaviour when its session is cancelled.
	Interrupt Interrupt
	// AbortsSiblings makes a failure of this call cancel the other calls of
	// its batch that are still running or not yet started.
	AbortsSiblings bool
	// Kind says what the tool does.
	Kind permission.Kind
	// PathFields name top-level input fields holding a file system path.
	// They are read paths when Kind is [permission.KindRead] and write paths
	// otherwise (see [Traits.WritesPaths]).
	PathFields []string
	// GlobFields name top-level input fields holding a glob pattern whose
	// literal leading directories are a path (Glob's pattern). The pattern
	// is resolved against the first path field when that is set.
	GlobFields []string
	// FilterFields name top-level input fields holding a filter that
	// selects by name which files beneath the call's path the tool reads
	// (Grep's glob, ripgrep's --glob). A filter that could select a
	// secret file is asked for, as reading the file would be: an explicit
	// filter overrides .gitignore and the skipping of hidden files.
	FilterFields []string
	// FileTypeFields name top-level input fields holding a ripgrep file
	// type (Grep's type, rg --type), judged as the filters the type
	// stands for; a type ripgrep does not define by default is asked for.
	FileTypeFields []string
	// CommandFields name top-level input fields holding a shell script.
	CommandFields []string
	// URLFields name top-level input fields holding a URL.
	URLFields []string
	// DomainFields name top-level input fields holding a host name, or an
	// array of host names.
	DomainFields []string
	// WorkdirField names the top-level input field holding the working
	// directory of a command, or is empty.
	WorkdirField string
	// RequiredFields name top-level input fields a call must carry, with a
	// value that is neither null nor an empty string (Read's file_path): a
	// call without one is denied, since what the tool would reach is not
	// known.
	RequiredFields []string
	// SessionOnly marks a tool that changes or reads only the agent's own
	// session state (Claude Code's task list, schedule, loaded tools):
	// plan mode lets it run.
	SessionOnly bool
	// SpecifierField names the top-level member "Tool(specifier)" rules
	// match for a tool without path, URL, domain or command fields:
	// subagent_type for Task and Agent, skill for Skill, command for
	// SlashCommand. Empty means the members subagent_type, agent and name
	// (see the content check).
	SpecifierField string
	// ServerField names the top-level member that names the MCP server
	// the call reaches without being one of its tools (Claude Code's
	// ReadMcpResourceTool and ListMcpResourcesTool: server): the rules
	// for that server (mcp__server, its name written as Claude Code
	// writes it in tool names) hold for the call. A deny or ask rule for
	// the server denies or asks; an allow rule for it answers where no
	// rule for the tool itself does.
	ServerField string
	// Rules are the tool's own answers for this input (the tool-level
	// permission rules): each is a Deny or an Ask with its reason.
	Rules []Rule
}

// WritesPaths reports whether the call's path fields are written. Only a
// tool of kind [permission.KindRead] is taken to read them; every other kind,
// including an undeclared one, is treated as a writer.
func (t Traits) WritesPaths() bool { return t.Kind != permission.KindRead }

// Rule is one answer a tool gives about its own input, as the original
// design's check_permissions: Deny or Ask, never Allow, with a reason.
type Rule struct {
	// Decision is permission.Deny or permission.Ask. Any other value is
	// taken as Deny by [Descriptor.Traits].
	Decision permission.Decision
	// Reason is the human-readable explanation.
	Reason string
	// Rule names the check, such as "read_file:binary".
	Rule permission.RuleID
}

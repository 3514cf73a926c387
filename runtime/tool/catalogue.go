package tool

import (
	"encoding/json"

	"github.com/toolgate/toolgate/permission"
)

// Ready-made descriptors for common tools. Each function returns a fresh
// registry, so a caller may restrict or extend it without affecting others.

func readTool(name string, paths, globs []string) *Descriptor {
	return &Descriptor{ToolName: name, Base: Traits{
		ConcurrencySafe: true,
		Kind:            permission.KindRead,
		PathFields:      paths,
		GlobFields:      globs,
	}}
}

// fileTool is a tool that works on the one file or directory its path
// field names: the field is required.
func fileTool(d *Descriptor) *Descriptor {
	d.Base.RequiredFields = d.Base.PathFields
	return d
}

// grepTool is Claude Code's Grep: a path, and a filter and a ripgrep type
// that select the files read beneath it.
func grepTool() *Descriptor {
	d := readTool("Grep", []string{"path"}, nil)
	d.Base.FilterFields = []string{"glob"}
	d.Base.FileTypeFields = []string{"type"}
	return d
}

// required marks further fields of d as ones a call must carry.
func required(d *Descriptor, fields ...string) *Descriptor {
	d.Base.RequiredFields = append(d.Base.RequiredFields, fields...)
	return d
}

func editTool(name string, paths ...string) *Descriptor {
	return fileTool(&Descriptor{ToolName: name, Base: Traits{Kind: permission.KindEdit, PathFields: paths}})
}

// GenericTools returns a new registry with the original design's generic
// tools and their traits:
//
//	tool         kind         parallel  interrupt  fields
//	read_file    read         yes       cancel     file_path (path, required)
//	glob_files   read         yes       cancel     pattern (glob), path (path)
//	grep_files   read         yes       cancel     path (path)
//	file_write   edit         no        cancel     file_path (path, required)
//	file_edit    edit         no        cancel     file_path (path, required)
//	run_bash     exec         no        block      command (shell), working_dir (workdir)
//	ask_user     interaction  no        block
//	todo_write   other        no        cancel
//	save_memory  edit         no        block
//	subagent     subagent     no        block
func GenericTools() *Registry {
	return mustRegistry(
		fileTool(readTool("read_file", []string{"file_path"}, nil)),
		readTool("glob_files", []string{"path"}, []string{"pattern"}),
		readTool("grep_files", []string{"path"}, nil),
		editTool("file_write", "file_path"),
		editTool("file_edit", "file_path"),
		&Descriptor{ToolName: "run_bash", Base: Traits{
			Kind: permission.KindExec, Interrupt: InterruptBlock,
			CommandFields: []string{"command"}, WorkdirField: "working_dir",
		}},
		&Descriptor{ToolName: "ask_user", Base: Traits{Kind: permission.KindInteraction, Interrupt: InterruptBlock}},
		&Descriptor{ToolName: "todo_write", Base: Traits{Kind: permission.KindOther}},
		&Descriptor{ToolName: "save_memory", Base: Traits{Kind: permission.KindEdit, Interrupt: InterruptBlock}},
		&Descriptor{ToolName: "subagent", Base: Traits{Kind: permission.KindSubagent, Interrupt: InterruptBlock}},
	)
}

// ClaudeCodeTools returns a new registry with every built-in tool of the
// Claude Code CLI and their input fields:
//
//	tool             kind         parallel  interrupt  fields
//	Read             read         yes       cancel     file_path (path, required)
//	NotebookRead     read         yes       cancel     notebook_path (path, required)
//	LS               read         yes       cancel     path (path, required)
//	Glob             read         yes       cancel     pattern (glob), path (path)
//	Grep             read         yes       cancel     path (path), glob (filter), type (ripgrep type)
//	LSP              read         yes       cancel     file_path (path)
//	WebSearch        network      yes       cancel     allowed_domains (domains; blocked_domains only narrow)
//	WebFetch         network      yes       cancel     url (URL)
//	Write            edit         no        cancel     file_path (path, required)
//	Edit             edit         no        cancel     file_path (path, required)
//	MultiEdit        edit         no        cancel     file_path (path, required; edits[] are not paths)
//	NotebookEdit     edit         no        cancel     notebook_path (path, required)
//	Bash             exec         no        block      command (shell); a failure aborts siblings
//	Monitor          exec         no        block      command (shell)
//	Task, Agent      subagent     no        block      subagent_type (what Task(x) and Agent(x) match; each answers to both)
//	AskUserQuestion  interaction  no        block
//	ExitPlanMode     interaction  no        block
//	session state    other        no        cancel     TodoWrite, TaskCreate, TaskGet, TaskList, TaskUpdate, TaskStop,
//	                                                   BashOutput, KillShell, CronCreate, CronDelete, CronList,
//	                                                   ScheduleWakeup, SendMessage, ListAgents, ReportFindings,
//	                                                   EnterPlanMode, ExitWorktree, ToolSearch, ListMcpResourcesTool
//	EnterWorktree    edit         no        cancel     path (path)
//	ReadMcpResourceTool other     no        cancel     server (what ReadMcpResourceTool(x) matches;
//	                                                   the server whose mcp__server rules hold)
//	ListMcpResourcesTool (session)                     server (the server whose mcp__server rules hold;
//	                                                   none: every server, so any server's deny or ask asks)
//	other            other        no        cancel     Skill (skill), SlashCommand (command), Workflow
//
// The session-state tools change only the CLI's own state (its task list,
// its schedule, the tools it has loaded, the worktree it is in) or read
// it; Claude Code runs them without asking, and a host that wants the same
// allows them by name (toolgate check does). ToolSearch must be allowed
// for the model to load deferred tools such as WebFetch. An input that
// reaches past the session asks, as a rule of the tool (sessionAsks): a
// durable CronCreate (saved for the sessions that follow), an ExitWorktree
// that discards the work in the worktree, a SendMessage that approves a
// teammate's plan. EnterWorktree is an edit (it makes a git worktree in
// the repository, or moves the session into the one its path names), and
// ReadMcpResourceTool an MCP call (what the server reads for it is
// nothing the sandbox sees).
func ClaudeCodeTools() *Registry {
	tools := []Tool{
		fileTool(readTool("Read", []string{"file_path"}, nil)),
		fileTool(readTool("NotebookRead", []string{"notebook_path"}, nil)),
		fileTool(readTool("LS", []string{"path"}, nil)),
		required(readTool("Glob", []string{"path"}, []string{"pattern"}), "pattern"),
		grepTool(),
		readTool("LSP", []string{"file_path"}, nil),
		// blocked_domains only narrow a search: they are never what a
		// domain rule is held against (an allow for a blocked domain
		// must not allow the search of everything else).
		&Descriptor{ToolName: "WebSearch", Base: Traits{
			ConcurrencySafe: true, Kind: permission.KindNetwork,
			DomainFields: []string{"allowed_domains"},
		}},
		&Descriptor{ToolName: "WebFetch", Base: Traits{
			ConcurrencySafe: true, Kind: permission.KindNetwork, URLFields: []string{"url"}, RequiredFields: []string{"url"},
		}},
		editTool("Write", "file_path"),
		editTool("Edit", "file_path"),
		editTool("MultiEdit", "file_path"),
		editTool("NotebookEdit", "notebook_path"),
		&Descriptor{ToolName: "Bash", Base: Traits{
			Kind: permission.KindExec, Interrupt: InterruptBlock, AbortsSiblings: true,
			CommandFields: []string{"command"},
		}},
		&Descriptor{ToolName: "Monitor", Base: Traits{
			Kind: permission.KindExec, Interrupt: InterruptBlock, CommandFields: []string{"command"},
		}},
		&Descriptor{ToolName: "Task", Base: Traits{Kind: permission.KindSubagent, Interrupt: InterruptBlock, SpecifierField: "subagent_type"}},
		&Descriptor{ToolName: "Agent", Base: Traits{Kind: permission.KindSubagent, Interrupt: InterruptBlock, SpecifierField: "subagent_type"}},
		&Descriptor{ToolName: "AskUserQuestion", Base: Traits{Kind: permission.KindInteraction, Interrupt: InterruptBlock}},
		&Descriptor{ToolName: "ExitPlanMode", Base: Traits{Kind: permission.KindInteraction, Interrupt: InterruptBlock}},
	}
	for _, name := range ClaudeCodeSessionTools() {
		d := &Descriptor{ToolName: name, Base: Traits{Kind: permission.KindOther, SessionOnly: true}}
		if asks := sessionToolAsks(name); len(asks) > 0 {
			d.RulesFunc = func(input json.RawMessage) []Rule { return askWhen(name, asks, input) }
		}
		tools = append(tools, d)
	}
	tools = append(tools,
		// EnterWorktree runs git worktree add (a branch, a checkout, the
		// repository's post-checkout hook, the WorktreeCreate hooks) and
		// moves the session into it; with path it moves into a worktree
		// that exists, the place the session's edits then go. An edit:
		// judged by the path when there is one, asked when it makes one.
		&Descriptor{ToolName: "EnterWorktree", Base: Traits{Kind: permission.KindEdit, PathFields: []string{"path"}}},
		// ReadMcpResourceTool reads a resource of an MCP server: what the
		// server reads or fetches for it (a file:// resource of a
		// filesystem server, a page) is nothing the sandbox sees. An MCP
		// call, asked unless a rule allows it by server.
		&Descriptor{ToolName: "ReadMcpResourceTool", Base: Traits{Kind: permission.KindOther, SpecifierField: "server"}},
		&Descriptor{ToolName: "Skill", Base: Traits{Kind: permission.KindOther, SpecifierField: "skill"}},
		&Descriptor{ToolName: "SlashCommand", Base: Traits{Kind: permission.KindOther, SpecifierField: "command"}},
		&Descriptor{ToolName: "Workflow", Base: Traits{Kind: permission.KindOther}},
	)
	for _, t := range tools {
		if d, ok := t.(*Descriptor); ok && serverFields[d.ToolName] != "" {
			d.Base.ServerField = serverFields[d.ToolName]
		}
	}
	return mustRegistry(tools...)
}

// serverFields are Claude Code's tools that reach an MCP server without
// being one of its tools, and the member that names the server: the
// rules for that server (mcp__server) hold for them (Traits.ServerField).
var serverFields = map[string]string{
	"ReadMcpResourceTool":  "server",
	"ListMcpResourcesTool": "server",
}

// ClaudeCodeSessionTools returns the names of Claude Code's tools that
// change or read only the CLI's own session state (see [ClaudeCodeTools]),
// which the CLI runs without asking. Each call returns a new slice.
func ClaudeCodeSessionTools() []string {
	return []string{
		"TodoWrite", "TaskCreate", "TaskGet", "TaskList", "TaskUpdate", "TaskStop",
		"BashOutput", "KillShell", "CronCreate", "CronDelete", "CronList",
		"ScheduleWakeup", "SendMessage", "ListAgents", "ReportFindings",
		"EnterPlanMode", "ExitWorktree", "ToolSearch", "ListMcpResourcesTool",
	}
}

// sessionAsk is an input that makes a session tool do more than change
// the CLI's own state: the call asks when the member at Member (a path of
// object members) is present and neither false nor null.
type sessionAsk struct {
	Tool   string
	Member []string
	Reason string
}

// sessionAsks are the inputs of Claude Code's session tools that reach
// past the session (Claude Code 2.1.332's own schemas and permission
// cards).
var sessionAsks = []sessionAsk{
	{"CronCreate", []string{"durable"}, "a durable schedule is saved in .claude/scheduled_tasks.json, and its prompt runs in the sessions that follow"},
	{"ExitWorktree", []string{"discard_changes"}, "removing the worktree discards the work in it that is not committed"},
	{"SendMessage", []string{"message", "approve"}, "approving a teammate's plan lets it leave plan mode and change what it planned"},
}

func sessionToolAsks(name string) []sessionAsk {
	var out []sessionAsk
	for _, a := range sessionAsks {
		if a.Tool == name {
			out = append(out, a)
		}
	}
	return out
}

// askWhen returns an Ask for each of asks whose member input sets, and
// one when input is not a JSON object, since what it sets is not known.
func askWhen(name string, asks []sessionAsk, input json.RawMessage) []Rule {
	var v any
	if err := json.Unmarshal(input, &v); err != nil {
		return []Rule{{Decision: permission.Ask, Rule: permission.RuleID(name) + ":input", Reason: name + ": the input is not JSON, so what it asks for is not known"}}
	}
	var out []Rule
	for _, a := range asks {
		m := v
		for _, k := range a.Member {
			obj, ok := m.(map[string]any)
			if !ok {
				m = nil
				break
			}
			m = obj[k]
		}
		if m != nil && m != false {
			out = append(out, Rule{Decision: permission.Ask, Rule: permission.RuleID(name) + ":" + permission.RuleID(a.Member[len(a.Member)-1]), Reason: name + ": " + a.Reason})
		}
	}
	return out
}

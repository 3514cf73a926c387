package tool

import "github.com/toolgate/toolgate/permission"

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
//	                                                   EnterPlanMode, EnterWorktree, ExitWorktree, ToolSearch,
//	                                                   ListMcpResourcesTool, ReadMcpResourceTool
//	other            other        no        cancel     Skill (skill), SlashCommand (command), Workflow
//
// The session-state tools change only the CLI's own state (its task list,
// its schedule, its worktree, the tools it has loaded) or read it; Claude
// Code runs them without asking, and a host that wants the same allows
// them by name (toolgate check does). ToolSearch must be allowed for the
// model to load deferred tools such as WebFetch.
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
		tools = append(tools, &Descriptor{ToolName: name, Base: Traits{Kind: permission.KindOther, SessionOnly: true}})
	}
	tools = append(tools,
		&Descriptor{ToolName: "Skill", Base: Traits{Kind: permission.KindOther, SpecifierField: "skill"}},
		&Descriptor{ToolName: "SlashCommand", Base: Traits{Kind: permission.KindOther, SpecifierField: "command"}},
		&Descriptor{ToolName: "Workflow", Base: Traits{Kind: permission.KindOther}},
	)
	return mustRegistry(tools...)
}

// ClaudeCodeSessionTools returns the names of Claude Code's tools that
// change or read only the CLI's own session state (see [ClaudeCodeTools]),
// which the CLI runs without asking. Each call returns a new slice.
func ClaudeCodeSessionTools() []string {
	return []string{
		"TodoWrite", "TaskCreate", "TaskGet", "TaskList", "TaskUpdate", "TaskStop",
		"BashOutput", "KillShell", "CronCreate", "CronDelete", "CronList",
		"ScheduleWakeup", "SendMessage", "ListAgents", "ReportFindings",
		"EnterPlanMode", "EnterWorktree", "ExitWorktree", "ToolSearch",
		"ListMcpResourcesTool", "ReadMcpResourceTool",
	}
}

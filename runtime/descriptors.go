package runtime

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

func editTool(name string, paths ...string) *Descriptor {
	return &Descriptor{ToolName: name, Base: Traits{Kind: permission.KindEdit, PathFields: paths}}
}

// GenericTools returns a new registry with the original design's generic
// tools and their traits:
//
//	tool         kind         parallel  interrupt  fields
//	read_file    read         yes       cancel     file_path (path)
//	glob_files   read         yes       cancel     pattern (glob), path (path)
//	grep_files   read         yes       cancel     path (path)
//	file_write   edit         no        cancel     file_path (path)
//	file_edit    edit         no        cancel     file_path (path)
//	run_bash     exec         no        block      command (shell), working_dir (workdir)
//	ask_user     interaction  no        block
//	todo_write   other        no        cancel
//	save_memory  edit         no        block
//	subagent     subagent     no        block
func GenericTools() *Registry {
	return mustRegistry(
		readTool("read_file", []string{"file_path"}, nil),
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

// ClaudeCodeTools returns a new registry with Claude Code's built-in tools
// and their input fields:
//
//	tool          kind         parallel  interrupt  fields
//	Read          read         yes       cancel     file_path (path)
//	Glob          read         yes       cancel     pattern (glob), path (path)
//	Grep          read         yes       cancel     path (path)
//	WebSearch     network      yes       cancel     allowed_domains, blocked_domains (domains)
//	WebFetch      network      yes       cancel     url (URL)
//	Write         edit         no        cancel     file_path (path)
//	Edit          edit         no        cancel     file_path (path)
//	MultiEdit     edit         no        cancel     file_path (path; edits[] are not paths)
//	NotebookEdit  edit         no        cancel     notebook_path (path)
//	Bash          exec         no        block      command (shell); a failure aborts siblings
//	Task, Agent   subagent     no        block
//	TodoWrite     other        no        cancel
func ClaudeCodeTools() *Registry {
	return mustRegistry(
		readTool("Read", []string{"file_path"}, nil),
		readTool("Glob", []string{"path"}, []string{"pattern"}),
		readTool("Grep", []string{"path"}, nil),
		&Descriptor{ToolName: "WebSearch", Base: Traits{
			ConcurrencySafe: true, Kind: permission.KindNetwork,
			DomainFields: []string{"allowed_domains", "blocked_domains"},
		}},
		&Descriptor{ToolName: "WebFetch", Base: Traits{
			ConcurrencySafe: true, Kind: permission.KindNetwork, URLFields: []string{"url"},
		}},
		editTool("Write", "file_path"),
		editTool("Edit", "file_path"),
		editTool("MultiEdit", "file_path"),
		editTool("NotebookEdit", "notebook_path"),
		&Descriptor{ToolName: "Bash", Base: Traits{
			Kind: permission.KindExec, Interrupt: InterruptBlock, AbortsSiblings: true,
			CommandFields: []string{"command"},
		}},
		&Descriptor{ToolName: "Task", Base: Traits{Kind: permission.KindSubagent, Interrupt: InterruptBlock}},
		&Descriptor{ToolName: "Agent", Base: Traits{Kind: permission.KindSubagent, Interrupt: InterruptBlock}},
		&Descriptor{ToolName: "TodoWrite", Base: Traits{Kind: permission.KindOther}},
	)
}

package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/toolgate/toolgate/bashguard/runner"
)

func main() {
	// The toolgate binary doubles as the Runner's confinement launcher
	// (runner.Confinement.Launcher): started as one, it confines itself
	// and executes the command here, and never returns.
	runner.ConfineMain()
	args := os.Args[1:]
	if filepath.Base(os.Args[0]) == shellPrefixName {
		// Claude Code runs CLAUDE_CODE_SHELL_PREFIX as one word: the
		// link's name is the subcommand.
		args = append([]string{"shell-prefix"}, args...)
	}
	os.Exit(run(args, env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv, execve: execve}))
}

const usage = `usage:
  toolgate check [--host codex] [--settings FILE]... [--managed FILE] < event.json
  toolgate explain [--settings FILE]... [--managed FILE] [--cwd DIR] [--mode MODE] [--json] [--exit-code] TOOL 'JSON input'
  toolgate lint [--settings FILE]... [--managed FILE] [--cwd DIR]
  toolgate import codex|gemini FILE...  (Codex .rules or Gemini CLI policy TOML as toolgate rules:
                                         a settings fragment on stdout, a warning on stderr for
                                         whatever does not translate exactly)
  toolgate serve --store sqlite:PATH|postgres:DSN [--addr 127.0.0.1:7077] [--name NAME] [--allow-remote] [-v] [--log-level LEVEL]
                        (runs toolgate-serve, installed beside toolgate by
                         go install github.com/toolgate/toolgate/cmd/...@latest)
  toolgate mcp --config FILE [--listen ADDR] [--dir DIR] [--audit FILE] [-v] [--log-level LEVEL]
                        (runs the gateway toolgate-mcp; install it with
                         go install github.com/toolgate/toolgate/contrib/mcpgateway/cmd/toolgate-mcp@latest)
  toolgate exec --policy P --script S   (the confining launcher toolgate check's answers run)
  toolgate shell-prefix SCRIPT          (as CLAUDE_CODE_SHELL_PREFIX, through a link named
                                         toolgate-shell-prefix: runs Claude Code's scripts
                                         confined as toolgate check decided)
  toolgate version

Every subcommand takes -h for its usage. serve and mcp log to standard error
with log/slog: -v shows debug messages, --log-level=debug|info|warn|error
chooses (default info).
`

// run dispatches a command line and returns the exit status.
func run(args []string, e env) int {
	if len(args) == 0 {
		fmt.Fprint(e.stderr, usage)
		return 2
	}
	switch args[0] {
	case "check":
		return runCheck(args[1:], e)
	case "explain":
		return runExplain(args[1:], e)
	case "lint":
		return runLint(args[1:], e)
	case "import":
		return runImport(args[1:], e)
	case "exec":
		return runExec(args[1:], e)
	case "shell-prefix":
		return runShellPrefix(args[1:], e)
	case "serve":
		return serveSibling.run(args[1:], e)
	case "mcp":
		return mcpSibling.run(args[1:], e)
	case "warm":
		return runWarm(args[1:], e)
	case "version", "--version":
		return runVersion(args[1:], e)
	case "help", "-h", "--help":
		fmt.Fprint(e.stdout, usage)
		return 0
	}
	fmt.Fprintf(e.stderr, "toolgate: unknown command %q\n%s", args[0], usage)
	return 2
}

package permission

import (
	"slices"
	"strings"
)

// interpreters are commands that run whatever program their arguments
// name: an allow rule for one of them with any arguments grants arbitrary
// code execution.
var interpreters = []string{
	"python", "python2", "python3", "node", "nodejs", "deno", "bun", "ruby", "perl", "php", "lua", "Rscript",
	"bash", "sh", "zsh", "dash", "ksh", "fish", "pwsh", "powershell", "osascript",
	"npx", "bunx", "pnpx", "uvx", "eval", "exec", "env", "sudo", "xargs", "nohup", "timeout", "nice",
}

// runners are package managers whose "run"/"exec" subcommands run scripts
// the repository defines.
var runners = []string{"npm", "pnpm", "yarn", "bun", "uv", "poetry", "pipenv", "cargo", "make", "just", "task"}

// AutoModeConfig returns cfg without the allow rules Claude Code sets
// aside on entering auto mode, and the rules it set aside: a whole shell
// tool (Bash, Bash(*)) or every tool (*), a script interpreter or a
// package manager's run command with any arguments (Bash(python:*),
// Bash(npm run:*)), and any allow rule for a subagent tool (Task, Agent).
// Their calls then ask, and the host's classifier answers. Rules that
// cannot be parsed are kept, for [New] to report.
func AutoModeConfig(cfg Config) (Config, []string) {
	shell := cfg.ShellTools
	if shell == nil {
		shell = defaultShellTools
	}
	var dropped []string
	broad := func(text string) bool {
		r, err := ParseRule(text)
		if err != nil {
			return false
		}
		if r.Tool == "*" || r.Tool == "Task" || r.Tool == "Agent" {
			return true
		}
		if !slices.Contains(shell, r.Tool) {
			return false
		}
		if r.Specifier == "" {
			return true
		}
		return broadCommand(r.Specifier)
	}
	out := cfg
	out.Allow = nil
	for _, a := range cfg.Allow {
		if broad(a) {
			dropped = append(dropped, a)
			continue
		}
		out.Allow = append(out.Allow, a)
	}
	out.Rules = nil
	for _, s := range cfg.Rules {
		if s.Decision == Allow && broad(s.Rule) {
			dropped = append(dropped, s.Rule+" ("+s.Origin+")")
			continue
		}
		out.Rules = append(out.Rules, s)
	}
	return out, dropped
}

// broadCommand reports whether a shell specifier lets an interpreter or a
// runner run anything: "python:*", "python *", "python*", "npm run:*".
func broadCommand(spec string) bool {
	words := strings.Fields(strings.ReplaceAll(spec, ":*", " *"))
	if len(words) == 0 {
		return false
	}
	first := words[0]
	if strings.ContainsAny(first, "*?[") {
		return true // a pattern for the command itself
	}
	first = baseName(first)
	wild := func(rest []string) bool {
		for _, w := range rest {
			if strings.Contains(w, "*") {
				return true
			}
		}
		return false
	}
	if slices.Contains(interpreters, first) {
		return wild(words[1:]) || len(words) == 1
	}
	if slices.Contains(runners, first) && len(words) >= 2 && (words[1] == "run" || words[1] == "exec" || words[1] == "x" || strings.Contains(words[1], "*")) {
		return wild(words[1:])
	}
	return false
}

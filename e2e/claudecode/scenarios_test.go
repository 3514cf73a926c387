package claudecode

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/runtime/tool"
)

// call is a scripted tool_use of tool with input.
func call(tool string, input map[string]any) step {
	b, err := json.Marshal(input)
	if err != nil {
		panic(err)
	}
	return step{Tool: tool, Input: b}
}

func bash(command string) step {
	return call("Bash", map[string]any{"command": command, "description": "e2e step"})
}

// files every scenario's workspace starts with.
var baseFiles = map[string]string{
	"README.md":         "# e2e project\nREADME-CONTENT-41\n",
	"src/main.go":       "package main\n\nfunc main() {}\n",
	".env":              "TOKEN=ENV-SECRET-93\n",
	"notes/todo.txt":    "todo\n",
	"$HOME/.ssh/id_rsa": "-----BEGIN OPENSSH PRIVATE KEY-----\nSSH-SECRET-55\n",
	"$HOME/outside.txt": "OUTSIDE-CONTENT-17\n",
}

func withBase(extra map[string]string) map[string]string {
	m := map[string]string{}
	for k, v := range baseFiles {
		m[k] = v
	}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

func perms(kv ...any) map[string]any {
	p := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		p[kv[i].(string)] = kv[i+1]
	}
	return map[string]any{"permissions": p}
}

func list(s ...string) []string { return s }

// probePy does one thing, named by its first argument, and prints the
// error the kernel gave, or "no error". "read-rev" reads the path spelled
// backwards, its variables expanded: the guard denies a secret
// path named on any command line, and the confinement scenarios are about
// what the kernel does with a read the guard cannot see.
const probePy = `import os, socket, sys, urllib.parse
what, arg = sys.argv[1], sys.argv[2]
try:
    if what == "write":
        open(arg, "w").write("x")
    elif what == "read":
        print(open(arg).read())
    elif what == "read-rev":
        print(open(os.path.expandvars(arg[::-1])).read())
    elif what == "connect-api":
        u = urllib.parse.urlparse(os.environ.get("ANTHROPIC_BASE_URL", "http://127.0.0.1:9"))
        socket.create_connection((u.hostname, u.port or 80), timeout=5)
    print("no error")
except OSError as e:
    print(type(e).__name__, e.errno)
`

// TestClaudeCode runs every scenario against the real Claude Code, each in
// its own sandbox, and checks what really happened.
func TestClaudeCode(t *testing.T) {
	s := setUp(t)
	redactHooks := func(matcher string) map[string]any {
		return map[string]any{"toolgate": map[string]any{"hooks": map[string]any{"PostToolUse": []any{
			map[string]any{"matcher": matcher, "hooks": []any{map[string]any{"type": "command", "command": s.roleCommand(roleRedact)}}}}}}}
	}
	recordHooks := func(event, matcher string) map[string]any {
		return map[string]any{"toolgate": map[string]any{"hooks": map[string]any{event: []any{
			map[string]any{"matcher": matcher, "hooks": []any{map[string]any{"type": "command", "command": s.roleCommand(roleRecord, recordEnv+"=$WS/post-hook.jsonl")}}}}}}}
	}
	merge := func(ms ...map[string]any) map[string]any {
		out := map[string]any{}
		for _, m := range ms {
			for k, v := range m {
				out[k] = v
			}
		}
		return out
	}
	example, err := os.ReadFile(filepath.Join("..", "..", "examples", "claudecode", "settings.json"))
	require.NoError(t, err)

	shellPrefix := "CLAUDE_CODE_SHELL_PREFIX=" + filepath.Join(s.toolgate, "toolgate-shell-prefix")
	scenarios := []scenario{
		// --- default mode: allow runs, ask is refused in -p, deny never runs
		{name: "bash_safe_read_runs", prompt: "E2E bash_safe_read_runs",
			steps: []step{bash("cat README.md"), bash("ls")},
			check: func(t *testing.T, r *result) {
				r.ran(t, "Bash", 0, "README-CONTENT-41")
				r.ran(t, "Bash", 1, "README.md")
				r.oneWarmProcess(t)
			}},
		{name: "bash_safe_list_runs", prompt: "E2E bash_safe_list_runs",
			steps: []step{bash("ls src notes")},
			check: func(t *testing.T, r *result) { r.ran(t, "Bash", 0, "main.go") }},
		{name: "bash_write_asks_refused_in_print_mode", prompt: "E2E bash_write_asks",
			steps: []step{bash("echo hi > canary.txt")},
			check: func(t *testing.T, r *result) {
				r.refused(t, "Bash", 0, "toolgate:", "canary.txt")
				r.exists(t, "canary.txt", false)
			}},
		{name: "bash_allow_rule_runs", prompt: "E2E bash_allow_rule_runs", project: perms("allow", list("Bash(touch canary.txt)")),
			steps: []step{bash("touch canary.txt")},
			check: func(t *testing.T, r *result) {
				r.call(t, "Bash", 0)
				r.exists(t, "canary.txt", true)
			}},
		{name: "bash_deny_rule_not_run", prompt: "E2E bash_deny_rule", project: perms("deny", list("Bash(touch:*)")),
			steps: []step{bash("touch canary.txt")},
			check: func(t *testing.T, r *result) {
				r.refused(t, "Bash", 0, "toolgate:", "Bash(touch:*)")
				r.exists(t, "canary.txt", false)
			}},
		{name: "bash_deny_rule_in_compound", prompt: "E2E bash_deny_compound", project: perms("allow", list("Bash(touch:*)"), "deny", list("Bash(git push:*)")),
			steps: []step{bash("touch canary.txt && git push origin main")},
			check: func(t *testing.T, r *result) {
				r.refused(t, "Bash", 0, "git push")
				r.exists(t, "canary.txt", false)
			}},
		{name: "bash_deny_overrides_user_allow", prompt: "E2E bash_deny_overrides", user: perms("allow", list("Bash(touch:*)")), project: perms("deny", list("Bash(touch:*)")),
			steps: []step{bash("touch canary.txt")},
			check: func(t *testing.T, r *result) {
				r.refused(t, "Bash", 0, "Bash(touch:*)")
				r.exists(t, "canary.txt", false)
			}},
		{name: "bash_local_settings_deny", prompt: "E2E bash_local_deny", local: perms("deny", list("Bash(touch:*)")), user: perms("allow", list("Bash(touch:*)")),
			steps: []step{bash("touch canary.txt")},
			check: func(t *testing.T, r *result) {
				r.refused(t, "Bash", 0, "toolgate:")
				r.exists(t, "canary.txt", false)
			}},
		{name: "bash_write_outside_denied", prompt: "E2E bash_write_outside", user: perms("allow", list("Bash(touch:*)")),
			steps: []step{bash("touch $HOME/outside-canary.txt")},
			check: func(t *testing.T, r *result) {
				r.refused(t, "Bash", 0, "toolgate:")
				r.exists(t, "$HOME/outside-canary.txt", false)
			}},
		{name: "bash_network_denied", prompt: "E2E bash_network", project: map[string]any{"toolgate": map[string]any{"network": false}},
			steps: []step{bash("curl -s -o canary.html https://example.com/")},
			check: func(t *testing.T, r *result) {
				r.refused(t, "Bash", 0, "toolgate:")
				r.exists(t, "canary.html", false)
			}},
		{name: "bash_ssh_key_read_denied", prompt: "E2E bash_ssh_key",
			steps: []step{bash("cat ~/.ssh/id_rsa")},
			check: func(t *testing.T, r *result) {
				tr := r.refused(t, "Bash", 0, "toolgate:")
				assert.NotContains(t, tr.Text, "SSH-SECRET-55")
			}},
		{name: "bash_env_read_under_read_deny", prompt: "E2E bash_env_read", project: perms("deny", list("Read(./.env)")),
			steps: []step{bash("cat .env")},
			check: func(t *testing.T, r *result) {
				tr := r.refused(t, "Bash", 0, "toolgate:")
				assert.NotContains(t, tr.Text, "ENV-SECRET-93")
			}},
		{name: "bash_destructive_denied", prompt: "E2E bash_destructive", user: perms("allow", list("Bash(rm:*)")),
			steps: []step{bash("rm -rf ~")},
			check: func(t *testing.T, r *result) {
				r.refused(t, "Bash", 0, "toolgate:")
				r.exists(t, "$HOME/outside.txt", true)
			}},
		// --- the kernel behind an allowed command (toolgate.confine, on by
		// default): an allow rule lets python3 run, and what it tries
		// outside the roots fails in the kernel, the canaries intact.
		{name: "confined_write_outside_fails", prompt: "E2E confined_write_outside", user: perms("allow", list("Bash(python3:*)")),
			files: withBase(map[string]string{"probe.py": probePy}),
			steps: []step{bash("python3 probe.py write $HOME/escaped.txt")},
			check: func(t *testing.T, r *result) {
				r.ran(t, "Bash", 0, "PermissionError 13")
				r.exists(t, "$HOME/escaped.txt", false)
			}},
		{name: "confined_ssh_key_read_fails", prompt: "E2E confined_ssh_key", user: perms("allow", list("Bash(python3:*)")),
			files: withBase(map[string]string{"probe.py": probePy}),
			steps: []step{bash("python3 probe.py read-rev 'asr_di/hss./EMOH$'")},
			check: func(t *testing.T, r *result) {
				tr := r.ran(t, "Bash", 0, "PermissionError 13")
				assert.NotContains(t, tr.Text, "SSH-SECRET-55")
			}},
		{name: "secret_operand_of_allowed_command_denied", prompt: "E2E secret_operand", user: perms("allow", list("Bash(python3:*)")),
			files: withBase(map[string]string{"probe.py": probePy}),
			steps: []step{bash("python3 probe.py read .env")},
			check: func(t *testing.T, r *result) {
				tr := r.refused(t, "Bash", 0, "python3: reaches .env")
				assert.Contains(t, tr.Text, "secret path")
				assert.NotContains(t, tr.Text, "ENV-SECRET-93")
			}},
		{name: "confined_env_read_fails", prompt: "E2E confined_env", user: perms("allow", list("Bash(python3:*)")),
			files: withBase(map[string]string{"probe.py": probePy}),
			steps: []step{bash("python3 probe.py read-rev vne.")},
			check: func(t *testing.T, r *result) {
				tr := r.ran(t, "Bash", 0, "PermissionError 13")
				assert.NotContains(t, tr.Text, "ENV-SECRET-93")
			}},
		{name: "confined_loopback_connect_fails", prompt: "E2E confined_loopback", user: perms("allow", list("Bash(python3:*)")),
			files: withBase(map[string]string{"probe.py": probePy}),
			steps: []step{bash("python3 probe.py connect-api -")},
			check: func(t *testing.T, r *result) { r.ran(t, "Bash", 0, "PermissionError 13") }},
		{name: "confined_go_test_works", prompt: "E2E confined_go_test", user: perms("allow", list("Bash(go test:*)")), warmGo: true,
			files: withBase(map[string]string{"go.mod": "module e2e\n\ngo 1.22\n",
				"src/main_test.go": "package main\n\nimport \"testing\"\n\nfunc TestOK(t *testing.T) {}\n"}),
			steps: []step{bash("go test ./...")},
			check: func(t *testing.T, r *result) { r.ran(t, "Bash", 0, "ok  \te2e/src") }},
		{name: "confined_inside_works", prompt: "E2E confined_inside", user: perms("allow", list("Bash(python3:*)")),
			files: withBase(map[string]string{"probe.py": probePy}),
			steps: []step{bash("python3 probe.py write inside.txt && cat README.md")},
			check: func(t *testing.T, r *result) {
				r.ran(t, "Bash", 0, "no error\n# e2e project\nREADME-CONTENT-41")
				r.exists(t, "inside.txt", true)
			}},
		// A confined command cannot plant code for the next unconfined run:
		// the agent's settings and git's hooks are bound read-only.
		{name: "confined_protected_write_fails", prompt: "E2E confined_protected", user: perms("allow", list("Bash(python3:*)")),
			files: withBase(map[string]string{"probe.py": probePy, ".claude/settings.local.json": "{}\n", ".git/hooks/pre-commit.sample": "#!/bin/sh\n"}),
			steps: []step{bash("python3 probe.py write .claude/settings.local.json"), bash("python3 probe.py write .git/hooks/pre-commit")},
			check: func(t *testing.T, r *result) {
				r.ran(t, "Bash", 0, "OSError 30") // EROFS: the read-only bind
				r.ran(t, "Bash", 1, "OSError 30")
				assert.Equal(t, "{}\n", r.read(t, ".claude/settings.local.json"))
				r.exists(t, ".git/hooks/pre-commit", false)
			}},
		// What a wrapper at the shell would get from Claude Code 2.1.332,
		// recorded for the choice between rewriting the command (what
		// toolgate check does) and CLAUDE_CODE_SHELL_PREFIX: the prefix
		// is run as one program with one argument, the whole script
		// Claude Code builds (its shell snapshot, eval of the user's
		// command, then pwd -P into a file of /tmp, which is how cd
		// carries over), and hooks run through it too; Claude Code's own
		// rules then see the user's command, so --disallowedTools still
		// stops ls. With the rewrite it does not: see README.
		{name: "shell_prefix_contract", prompt: "E2E shell_prefix", args: list("--disallowedTools", "Bash(ls:*)"), noHooks: true,
			user:  perms("allow", list("Bash(cd:*)", "Bash(pwd)")),
			env:   list("CLAUDE_CODE_SHELL_PREFIX=$ROOT/prefix.sh"),
			files: map[string]string{"$ROOT/prefix.sh": "#!/bin/sh\nprintf '%s\\n' \"$#\" >> \"$0.log\"\nexec /bin/bash -c \"$1\"\n"},
			steps: []step{bash("cd src"), bash("pwd"), bash("ls")},
			check: func(t *testing.T, r *result) {
				r.call(t, "Bash", 0)
				r.ran(t, "Bash", 1, filepath.Join(r.ws, "src"))
				r.refused(t, "Bash", 2, "Permission to use Bash with command ls has been denied")
				b, err := os.ReadFile(filepath.Join(filepath.Dir(r.ws), "prefix.sh.log"))
				require.NoError(t, err)
				for _, n := range strings.Fields(string(b)) {
					assert.Equal(t, "1", n, "the prefix gets the script as one argument")
				}
			}},
		// --- toolgate's hook with toolgate-shell-prefix as
		// CLAUDE_CODE_SHELL_PREFIX: the command stays the user's, so cd
		// carries over and Claude Code's own rules see it; the prefix
		// confines it as the hook decided.
		{name: "shell_prefix_cd_carries_over", prompt: "E2E shell_prefix_cd", env: list(shellPrefix),
			steps: []step{bash("cd src"), bash("ls"), bash("ls missing-dir"), bash("pwd")},
			check: func(t *testing.T, r *result) {
				r.call(t, "Bash", 0)
				tr := r.ran(t, "Bash", 1, "main.go")
				assert.NotContains(t, tr.Text, "README.md", "ls ran in src")
				r.refused(t, "Bash", 2, "missing-dir")
				// A failed command leaves the directory where it was.
				r.ran(t, "Bash", 3, filepath.Join(r.ws, "src"))
				for _, out := range prefixNotRewritten(t, r, 4) {
					assert.Contains(t, out, `"permissionDecision":"allow"`)
				}
			}},
		{name: "shell_prefix_disallowed_tools_still_stop_ls", prompt: "E2E shell_prefix_disallowed", env: list(shellPrefix),
			args:  list("--disallowedTools", "Bash(ls:*)"),
			steps: []step{bash("ls"), bash("cat README.md")},
			check: func(t *testing.T, r *result) {
				r.refused(t, "Bash", 0, "Permission to use Bash with command ls has been denied")
				r.ran(t, "Bash", 1, "README-CONTENT-41")
			}},
		{name: "shell_prefix_confined_protected_write_fails", prompt: "E2E shell_prefix_protected", env: list(shellPrefix),
			user:  perms("allow", list("Bash(python3:*)")),
			files: withBase(map[string]string{"probe.py": probePy, ".claude/settings.local.json": "{}\n", ".git/hooks/pre-commit.sample": "#!/bin/sh\n"}),
			steps: []step{bash("python3 probe.py write .claude/settings.local.json"), bash("python3 probe.py write .git/hooks/pre-commit"),
				bash("python3 probe.py read-rev vne."), bash("python3 probe.py write $HOME/escaped.txt"), bash("python3 probe.py write inside.txt")},
			check: func(t *testing.T, r *result) {
				r.ran(t, "Bash", 0, "OSError 30") // EROFS: the read-only bind
				r.ran(t, "Bash", 1, "OSError 30")
				tr := r.ran(t, "Bash", 2, "PermissionError 13")
				assert.NotContains(t, tr.Text, "ENV-SECRET-93")
				r.ran(t, "Bash", 3, "PermissionError 13")
				r.ran(t, "Bash", 4, "no error")
				assert.Equal(t, "{}\n", r.read(t, ".claude/settings.local.json"))
				r.exists(t, ".git/hooks/pre-commit", false)
				r.exists(t, "$HOME/escaped.txt", false)
				r.exists(t, "inside.txt", true)
				for _, out := range prefixNotRewritten(t, r, 5) {
					assert.Contains(t, out, `"permissionDecision":"allow"`)
					assert.Contains(t, out, "Bash(python3:*)", "the reason names the rule that allowed it")
				}
			}},
		// A subagent's Bash call finds the hook's decision too (its
		// session is the one the prefix sees).
		{name: "shell_prefix_subagent_confined", prompt: "E2E shell_prefix_subagent", env: list(shellPrefix),
			user:  perms("allow", list("Bash(python3:*)")),
			files: withBase(map[string]string{"probe.py": probePy}),
			steps: []step{call("Task", map[string]any{"description": "sub", "prompt": "SUBAGENT-PREFIX do it", "subagent_type": "general-purpose"})},
			sub:   []conversation{{Marker: "SUBAGENT-PREFIX", Steps: []step{bash("python3 probe.py write $HOME/escaped.txt"), bash("cat README.md")}}},
			check: func(t *testing.T, r *result) {
				r.ran(t, "Bash", 0, "PermissionError 13")
				r.ran(t, "Bash", 1, "README-CONTENT-41")
				r.exists(t, "$HOME/escaped.txt", false)
				assert.NotContains(t, r.stdout, "no decision of toolgate check is recorded", "the subagent's calls found the hook's decisions")
			}},
		// --- file tools
		{name: "read_in_workspace_runs", prompt: "E2E read_in_workspace",
			steps: []step{call("Read", map[string]any{"file_path": "$WS/README.md"})},
			check: func(t *testing.T, r *result) { r.ran(t, "Read", 0, "README-CONTENT-41") }},
		{name: "read_deny_rule", prompt: "E2E read_deny_rule", project: perms("deny", list("Read(./.env)")),
			steps: []step{call("Read", map[string]any{"file_path": "$WS/.env"})},
			check: func(t *testing.T, r *result) {
				// Claude Code applies its own Read deny before the hooks.
				tr := r.refused(t, "Read", 0, "denied by your permission settings")
				assert.NotContains(t, tr.Text, "ENV-SECRET-93")
			}},
		{name: "read_outside_denied", prompt: "E2E read_outside",
			steps: []step{call("Read", map[string]any{"file_path": "$HOME/outside.txt"})},
			check: func(t *testing.T, r *result) {
				tr := r.refused(t, "Read", 0, "toolgate:")
				assert.NotContains(t, tr.Text, "OUTSIDE-CONTENT-17")
			}},
		// 2.1.332 has no Glob and Grep tools: the model searches with Bash.
		{name: "bash_grep_and_find_run", prompt: "E2E grep_find",
			steps: []step{bash("grep -n README-CONTENT README.md src/main.go"), bash("find . -name '*.go'")},
			check: func(t *testing.T, r *result) {
				r.ran(t, "Bash", 0, "README-CONTENT-41")
				r.ran(t, "Bash", 1, "main.go")
			}},
		{name: "bash_recursive_grep_over_secret_refused", prompt: "E2E grep_secret",
			steps: []step{bash("grep -rn TOKEN .")},
			check: func(t *testing.T, r *result) {
				tr := r.refused(t, "Bash", 0, "toolgate:", ".env")
				assert.NotContains(t, tr.Text, "ENV-SECRET-93")
			}},
		{name: "write_asks_refused_in_print_mode", prompt: "E2E write_asks",
			steps: []step{call("Write", map[string]any{"file_path": "$WS/new.txt", "content": "new\n"})},
			check: func(t *testing.T, r *result) {
				r.refused(t, "Write", 0, "toolgate:")
				r.exists(t, "new.txt", false)
			}},
		{name: "edit_allow_rule_runs", prompt: "E2E edit_allow", project: perms("allow", list("Edit(./notes/**)")),
			steps: []step{call("Read", map[string]any{"file_path": "$WS/notes/todo.txt"}), call("Edit", map[string]any{"file_path": "$WS/notes/todo.txt", "old_string": "todo", "new_string": "EDITED"})},
			check: func(t *testing.T, r *result) {
				r.call(t, "Edit", 0)
				assert.Equal(t, "EDITED\n", r.read(t, "notes/todo.txt"))
			}},
		// --- the user's configuration linked into the workspace, and the
		// project after cd
		{name: "stow_user_settings_not_edited_through_the_workspace", prompt: "E2E stow_settings", mode: "acceptEdits",
			stow:  map[string]string{"$HOME/.claude/settings.json": "dotfiles/claude/settings.json"},
			steps: []step{call("Edit", map[string]any{"file_path": "$WS/dotfiles/claude/settings.json", "old_string": `"hooks"`, "new_string": `"hooks-off"`})},
			check: func(t *testing.T, r *result) {
				r.refused(t, "Edit", 0)
				assert.Contains(t, r.read(t, "dotfiles/claude/settings.json"), `"hooks"`, "the user's settings were edited through their workspace file")
			}},
		// (Unconfined: a confined command's cd does not reach Claude
		// Code's shell, so the next call's cwd would stay the project.)
		{name: "project_read_deny_holds_after_cd", prompt: "E2E deny_after_cd", project: perms("deny", list("Read(./README.md)")),
			user:  merge(perms("allow", list("Bash(cat:*)")), map[string]any{"toolgate": map[string]any{"confine": false}}),
			steps: []step{bash("cd src"), bash("cat ../README.md")},
			check: func(t *testing.T, r *result) {
				tr := r.refused(t, "Bash", 1, "toolgate:", "Read(./README.md)")
				assert.NotContains(t, tr.Text, "README-CONTENT-41")
			}},
		{name: "project_read_deny_holds_after_cd_without_project_dir", prompt: "E2E deny_after_cd_noenv", project: perms("deny", list("Read(./README.md)")),
			user:       merge(perms("allow", list("Bash(cat:*)")), map[string]any{"toolgate": map[string]any{"confine": false}}),
			hookPrefix: "env -u CLAUDE_PROJECT_DIR",
			steps:      []step{bash("cd src"), bash("cat ../README.md")},
			check: func(t *testing.T, r *result) {
				tr := r.refused(t, "Bash", 1, "toolgate:", "Read(./README.md)")
				assert.NotContains(t, tr.Text, "README-CONTENT-41")
			}},
		// --- modes
		{name: "mode_acceptedits_write_runs", prompt: "E2E acceptedits_write", mode: "acceptEdits",
			steps: []step{call("Write", map[string]any{"file_path": "$WS/new.txt", "content": "ACCEPTED\n"})},
			check: func(t *testing.T, r *result) {
				r.call(t, "Write", 0)
				assert.Equal(t, "ACCEPTED\n", r.read(t, "new.txt"))
			}},
		{name: "mode_acceptedits_write_outside_denied", prompt: "E2E acceptedits_outside", mode: "acceptEdits",
			steps: []step{call("Write", map[string]any{"file_path": "$HOME/new.txt", "content": "x\n"})},
			check: func(t *testing.T, r *result) {
				r.refused(t, "Write", 0, "toolgate:")
				r.exists(t, "$HOME/new.txt", false)
			}},
		{name: "mode_acceptedits_bash_write_still_asks", prompt: "E2E acceptedits_bash", mode: "acceptEdits",
			steps: []step{bash("curl -s https://example.com/ > canary.txt")},
			check: func(t *testing.T, r *result) {
				r.refused(t, "Bash", 0, "toolgate:")
				r.exists(t, "canary.txt", false)
			}},
		{name: "mode_plan_read_runs", prompt: "E2E plan_read", mode: "plan",
			steps: []step{call("Read", map[string]any{"file_path": "$WS/README.md"})},
			check: func(t *testing.T, r *result) { r.ran(t, "Read", 0, "README-CONTENT-41") }},
		{name: "mode_plan_write_denied", prompt: "E2E plan_write", mode: "plan",
			steps: []step{call("Write", map[string]any{"file_path": "$WS/new.txt", "content": "x\n"})},
			check: func(t *testing.T, r *result) {
				r.refused(t, "Write", 0)
				r.exists(t, "new.txt", false)
			}},
		{name: "mode_plan_bash_write_denied", prompt: "E2E plan_bash", mode: "plan", user: perms("allow", list("Bash(touch:*)")),
			steps: []step{bash("touch canary.txt")},
			check: func(t *testing.T, r *result) {
				r.refused(t, "Bash", 0)
				r.exists(t, "canary.txt", false)
			}},
		{name: "mode_dontask_refuses_what_would_ask", prompt: "E2E dontask_refuses", mode: "dontAsk",
			steps: []step{bash("touch canary.txt")},
			check: func(t *testing.T, r *result) {
				r.refused(t, "Bash", 0, "toolgate:")
				r.exists(t, "canary.txt", false)
			}},
		{name: "mode_dontask_allow_rule_runs", prompt: "E2E dontask_allow", mode: "dontAsk", project: perms("allow", list("Bash(touch:*)")),
			steps: []step{bash("touch canary.txt")},
			check: func(t *testing.T, r *result) {
				r.call(t, "Bash", 0)
				r.exists(t, "canary.txt", true)
			}},
		{name: "mode_bypass_runs", prompt: "E2E bypass_runs", mode: "bypassPermissions", args: list("--allow-dangerously-skip-permissions"),
			steps: []step{bash("touch canary.txt")},
			check: func(t *testing.T, r *result) {
				r.call(t, "Bash", 0)
				r.exists(t, "canary.txt", true)
			}},
		{name: "mode_bypass_deny_rule_holds", prompt: "E2E bypass_deny", mode: "bypassPermissions", args: list("--allow-dangerously-skip-permissions"),
			project: perms("deny", list("Bash(touch:*)")),
			steps:   []step{bash("touch canary.txt")},
			check: func(t *testing.T, r *result) {
				r.refused(t, "Bash", 0, "Bash(touch:*)")
				r.exists(t, "canary.txt", false)
			}},
		{name: "mode_bypass_outside_denied", prompt: "E2E bypass_outside", mode: "bypassPermissions", args: list("--allow-dangerously-skip-permissions"),
			steps: []step{bash("touch $HOME/outside-canary.txt")},
			check: func(t *testing.T, r *result) {
				r.refused(t, "Bash", 0, "toolgate:")
				r.exists(t, "$HOME/outside-canary.txt", false)
			}},
		{name: "mode_auto_read_runs", prompt: "E2E auto_read", mode: "auto",
			steps: []step{bash("cat README.md")},
			check: func(t *testing.T, r *result) { r.ran(t, "Bash", 0, "README-CONTENT-41") }},
		{name: "mode_auto_outside_denied", prompt: "E2E auto_outside", mode: "auto",
			steps: []step{bash("touch $HOME/outside-canary.txt")},
			check: func(t *testing.T, r *result) {
				r.refused(t, "Bash", 0, "toolgate:")
				r.exists(t, "$HOME/outside-canary.txt", false)
			}},
		// --- subagents
		{name: "subagent_call_judged", prompt: "E2E subagent_judged", project: perms("deny", list("Bash(touch:*)")),
			steps: []step{call("Task", map[string]any{"description": "sub", "prompt": "SUBAGENT-JUDGED do it", "subagent_type": "general-purpose"})},
			sub:   []conversation{{Marker: "SUBAGENT-JUDGED", Steps: []step{bash("touch canary.txt"), bash("cat README.md")}}},
			check: func(t *testing.T, r *result) {
				r.refused(t, "Bash", 0, "Bash(touch:*)")
				r.ran(t, "Bash", 1, "README-CONTENT-41")
				r.exists(t, "canary.txt", false)
			}},
		// --- MCP
		{name: "mcp_allow_rule_runs", prompt: "E2E mcp_allow", mcp: true, project: perms("allow", list("mcp__e2e__echo")),
			steps: []step{call("mcp__e2e__echo", map[string]any{"text": "hello"})},
			check: func(t *testing.T, r *result) { r.ran(t, "mcp__e2e__echo", 0, "echo: hello") }},
		{name: "mcp_no_rule_asks_refused", prompt: "E2E mcp_ask", mcp: true,
			steps: []step{call("mcp__e2e__touch", map[string]any{"path": "$WS/mcp-canary.txt"})},
			check: func(t *testing.T, r *result) {
				r.refused(t, "mcp__e2e__touch", 0, "toolgate:")
				r.exists(t, "mcp-canary.txt", false)
			}},
		{name: "mcp_deny_rule", prompt: "E2E mcp_deny", mcp: true, user: perms("allow", list("mcp__e2e__touch")), project: perms("deny", list("mcp__e2e__touch")),
			steps: []step{call("mcp__e2e__touch", map[string]any{"path": "$WS/mcp-canary.txt"})},
			check: func(t *testing.T, r *result) {
				r.refused(t, "mcp__e2e__touch", 0, "mcp__e2e__touch")
				r.exists(t, "mcp-canary.txt", false)
			}},
		{name: "mcp_allowed_touch_runs", prompt: "E2E mcp_touch", mcp: true, project: perms("allow", list("mcp__e2e__touch")),
			steps: []step{call("mcp__e2e__touch", map[string]any{"path": "$WS/mcp-canary.txt"})},
			check: func(t *testing.T, r *result) {
				r.ran(t, "mcp__e2e__touch", 0, "touched")
				r.exists(t, "mcp-canary.txt", true)
			}},
		// --- the SDK host's prompt tool
		{name: "prompt_tool_approves", prompt: "E2E prompt_approves", mcp: true, args: list("--permission-prompt-tool", "mcp__e2e__approve"),
			steps: []step{bash("touch canary.txt")},
			check: func(t *testing.T, r *result) {
				r.call(t, "Bash", 0)
				r.exists(t, "canary.txt", true)
			}},
		{name: "prompt_tool_rejects", prompt: "E2E prompt_rejects", mcp: true, args: list("--permission-prompt-tool", "mcp__e2e__reject"),
			steps: []step{bash("touch canary.txt")},
			check: func(t *testing.T, r *result) {
				r.refused(t, "Bash", 0, "rejected by the e2e prompt tool")
				r.exists(t, "canary.txt", false)
			}},
		{name: "prompt_tool_cannot_lift_deny", prompt: "E2E prompt_deny", mcp: true, args: list("--permission-prompt-tool", "mcp__e2e__approve"),
			project: perms("deny", list("Bash(touch:*)")),
			steps:   []step{bash("touch canary.txt")},
			check: func(t *testing.T, r *result) {
				r.refused(t, "Bash", 0, "Bash(touch:*)")
				r.exists(t, "canary.txt", false)
			}},
		// --- the workspace
		{name: "untrusted_project_allow_dropped", prompt: "E2E untrusted_allow", untrusted: true, project: perms("allow", list("Bash(touch:*)")),
			steps: []step{bash("touch canary.txt")},
			check: func(t *testing.T, r *result) {
				r.refused(t, "Bash", 0, "toolgate:")
				r.exists(t, "canary.txt", false)
			}},
		{name: "untrusted_project_deny_applies", prompt: "E2E untrusted_deny", untrusted: true, user: perms("allow", list("Bash(touch:*)")),
			project: perms("deny", list("Bash(touch:*)")),
			steps:   []step{bash("touch canary.txt")},
			check: func(t *testing.T, r *result) {
				r.refused(t, "Bash", 0, "toolgate:", "Bash(touch:*)")
				r.exists(t, "canary.txt", false)
			}},
		{name: "cd_keeps_project_rules", prompt: "E2E cd_rules", project: perms("deny", list("Bash(git log:*)")),
			steps: []step{bash("cd src"), bash("git log"), call("Read", map[string]any{"file_path": "$WS/README.md"})},
			check: func(t *testing.T, r *result) {
				r.call(t, "Bash", 0)
				r.refused(t, "Bash", 1, "Bash(git log:*)")
				r.ran(t, "Read", 0, "README-CONTENT-41")
			}},
		{name: "add_dir_needs_additional_directories", prompt: "E2E add_dir", dirs: list("$ROOT/extra"), files: map[string]string{"$ROOT/extra/data.txt": "EXTRA-CONTENT-22\n"},
			args: list("--add-dir", "$ROOT/extra"),
			user: map[string]any{"hooks": func() map[string]any {
				h := toolgateHooks()
				h["PreToolUse"] = append(h["PreToolUse"].([]any), map[string]any{"matcher": "*", "hooks": []any{map[string]any{"type": "command",
					"command": s.roleCommand(roleRecord, recordEnv+"=$ROOT/cc-hook.jsonl")}}})
				return h
			}()},
			steps: []step{call("Read", map[string]any{"file_path": "$ROOT/extra/data.txt"})},
			check: func(t *testing.T, r *result) {
				tr := r.refused(t, "Read", 0, "toolgate:", "permissions.additionalDirectories")
				assert.NotContains(t, tr.Text, "EXTRA-CONTENT-22")
				// What Claude Code gives a hook: the directory is in
				// neither the event nor the environment.
				seen := r.read(t, "$ROOT/cc-hook.jsonl")
				for _, line := range strings.Split(strings.TrimSpace(seen), "\n") {
					var rec struct {
						Event struct {
							ToolInput json.RawMessage `json:"tool_input"`
						} `json:"event"`
					}
					require.NoError(t, json.Unmarshal([]byte(line), &rec))
					rest := strings.Replace(line, string(rec.Event.ToolInput), "", 1)
					assert.NotContains(t, rest, "/extra", "Claude Code %s now passes --add-dir to hooks: use it", Version)
				}
			}},
		{name: "additional_directories_setting_allows", prompt: "E2E additional_dirs", files: map[string]string{"$ROOT/extra/data.txt": "EXTRA-CONTENT-22\n"},
			project: perms("additionalDirectories", list("$ROOT/extra")),
			steps:   []step{call("Read", map[string]any{"file_path": "$ROOT/extra/data.txt"})},
			check:   func(t *testing.T, r *result) { r.ran(t, "Read", 0, "EXTRA-CONTENT-22") }},
		// --- PostToolUse: redaction, and failed calls
		{name: "post_redacts_bash_output", prompt: "E2E redact_bash", project: redactHooks("Bash"),
			files: map[string]string{"secret.txt": "key=SECRET-abc123\n"},
			steps: []step{bash("cat secret.txt")},
			check: func(t *testing.T, r *result) {
				tr := r.ran(t, "Bash", 0, "[redacted]")
				assert.NotContains(t, tr.Text, "SECRET-abc123")
				r.noHookErrors(t)
			}},
		{name: "post_redacts_read_output", prompt: "E2E redact_read", project: redactHooks("Read"),
			files: map[string]string{"secret.txt": "key=SECRET-abc123\n"},
			steps: []step{call("Read", map[string]any{"file_path": "$WS/secret.txt"})},
			check: func(t *testing.T, r *result) {
				tr := r.ran(t, "Read", 0, "[redacted]")
				assert.NotContains(t, tr.Text, "SECRET-abc123")
				r.noHookErrors(t)
			}},
		{name: "post_redacts_mcp_output", prompt: "E2E redact_mcp", mcp: true, project: merge(perms("allow", list("mcp__e2e__echo")), redactHooks("mcp__e2e__.*")),
			steps: []step{call("mcp__e2e__echo", map[string]any{"text": "hello"})},
			check: func(t *testing.T, r *result) {
				tr := r.ran(t, "mcp__e2e__echo", 0, "[redacted]")
				assert.NotContains(t, tr.Text, "MCP-SECRET-7f3a")
				r.noHookErrors(t)
			}},
		{name: "post_tool_use_failure_reaches_post_hooks", prompt: "E2E failure", project: merge(perms("allow", list("Bash(ls:*)")), recordHooks("PostToolUse", "Bash")),
			steps: []step{bash("ls does-not-exist")},
			check: func(t *testing.T, r *result) {
				r.refused(t, "Bash", 0, "does-not-exist")
				assert.Contains(t, r.read(t, "post-hook.jsonl"), "does-not-exist", "the post hook saw the failed call")
				assert.Contains(t, strings.Join(r.hookOutputs("PostToolUseFailure"), "\n"), `"hookEventName":"PostToolUseFailure"`)
				r.noHookErrors(t)
			}},
		// --- Claude Code's own tools
		{name: "session_tools_run", prompt: "E2E session_tools",
			steps: []step{call("TaskCreate", map[string]any{"subject": "e2e task", "description": "a task"}), call("TaskList", map[string]any{})},
			check: func(t *testing.T, r *result) {
				r.call(t, "TaskCreate", 0)
				r.ran(t, "TaskList", 0, "e2e task")
			}},
		{name: "toolsearch_runs", prompt: "E2E toolsearch",
			steps: []step{call("ToolSearch", map[string]any{"query": "select:WebFetch", "max_results": 1})},
			check: func(t *testing.T, r *result) { r.ran(t, "ToolSearch", 0, "") }},
		{name: "init_tools_all_known", prompt: "E2E init_tools",
			check: func(t *testing.T, r *result) {
				tools := r.initTools()
				require.NotEmpty(t, tools, "the system/init event lists the tools")
				known := tool.ClaudeCodeTools()
				for _, name := range tools {
					_, ok := known.Lookup(name)
					assert.True(t, ok, "Claude Code %s has tool %s, which toolgate does not know", Version, name)
				}
			}},
		// --- examples/claudecode/settings.json, verbatim
		{name: "example_settings_verbatim", prompt: "E2E example", projectRaw: example, noHooks: true,
			files: map[string]string{"go.mod": "module e2e\n\ngo 1.22\n"},
			steps: []step{bash("git push origin main"), call("Read", map[string]any{"file_path": "$WS/.env"}),
				call("WebFetch", map[string]any{"url": "https://pkg.go.dev/fmt", "prompt": "summarise"}),
				call("WebFetch", map[string]any{"url": "https://example.com/", "prompt": "summarise"}),
				bash("go build -n -o app.bin ./src")},
			check: func(t *testing.T, r *result) {
				r.refused(t, "Bash", 0, "Bash(git push:*)")
				tr := r.refused(t, "Read", 0, "denied by your permission settings")
				assert.NotContains(t, tr.Text, "ENV-SECRET-93")
				// The allowed domain is fetched (and fails: the
				// sandbox has no network); the other one is refused.
				allowed := r.call(t, "WebFetch", 0)
				assert.NotContains(t, allowed.Text, "toolgate:", "WebFetch(domain:pkg.go.dev) is allowed")
				r.refused(t, "WebFetch", 1, "toolgate:")
				pre := strings.Join(r.hookOutputs("PreToolUse"), "\n")
				assert.Contains(t, pre, "WebFetch(domain:pkg.go.dev)")
				// go build -n, allowed by Bash(go build:*), prints
				// the build's commands without running them.
				r.ran(t, "Bash", 1, "$WORK")
			}},
		// --- every other event gets an answer in its own shape
		{name: "other_events_answered_in_shape", prompt: "E2E other_events",
			user: map[string]any{"hooks": func() map[string]any {
				h := toolgateHooks()
				for _, ev := range []string{"SessionStart", "UserPromptSubmit", "Stop", "SessionEnd"} {
					h[ev] = []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": "toolgate check"}}}}
				}
				return h
			}()},
			steps: []step{bash("cat README.md")},
			check: func(t *testing.T, r *result) {
				r.ran(t, "Bash", 0, "README-CONTENT-41")
				for _, ev := range []string{"SessionStart", "UserPromptSubmit", "Stop"} {
					outs := r.hookOutputs(ev)
					if assert.NotEmpty(t, outs, "toolgate ran for %s", ev) {
						assert.JSONEq(t, "{}", strings.TrimSpace(outs[0]), ev)
					}
				}
				r.noHookErrors(t)
			}},
	}
	names := map[string]bool{}
	for _, sc := range scenarios {
		require.False(t, names[sc.name], "two scenarios named %s", sc.name)
		names[sc.name] = true
	}
	only := os.Getenv("TOOLGATE_E2E_ONLY")
	for _, sc := range scenarios {
		if only != "" && !slices.Contains(strings.Split(only, ","), sc.name) {
			continue
		}
		sc.files = withBase(sc.files)
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			r := s.run(t, sc)
			sc.check(t, r)
		})
	}
}

// prefixNotRewritten asserts that toolgate's hook answered n PreToolUse
// events for Bash without rewriting the command (the prefix confines it),
// and returns those answers.
func prefixNotRewritten(t *testing.T, r *result, n int) []string {
	t.Helper()
	outs := r.hookOutputs("PreToolUse")
	require.Len(t, outs, n, "toolgate's hook ran once per Bash call (through the prefix)")
	for _, out := range outs {
		assert.NotContains(t, out, "updatedInput", "in prefix mode the command is not rewritten")
		assert.NotContains(t, out, "toolgate exec")
	}
	assert.NotContains(t, r.stdout, "no decision of toolgate check is recorded", "every Bash call found the hook's decision")
	return outs
}

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgate/toolgate/permission"
)

// importOutput is what toolgate import prints for res: the settings
// fragment, then the errors and warnings.
func importOutput(res importResult, failed []string) string {
	var b strings.Builder
	out, _ := json.MarshalIndent(res.fragment(), "", "  ")
	fmt.Fprintf(&b, "%s\n-- stderr --\n", out)
	for _, f := range failed {
		fmt.Fprintln(&b, f)
	}
	for _, w := range res.Warnings {
		fmt.Fprintln(&b, w)
	}
	return b.String()
}

// TestImportTestdata imports each of Codex's and Gemini CLI's own policy
// files (testdata/import, with their licence) and compares the output
// with the file's golden copy (go test -update rewrites them). Every
// rule-like construct of a file either became a rule or is named in a
// warning, and toolgate lint finds no error in the fragment.
func TestImportTestdata(t *testing.T) {
	for _, lang := range []string{"codex", "gemini"} {
		dir := filepath.Join("testdata", "import", lang)
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		n := 0
		for _, e := range entries {
			name := e.Name()
			if name == "LICENSE" || strings.HasSuffix(name, ".golden") || strings.HasSuffix(name, ".md") {
				continue
			}
			n++
			t.Run(lang+"/"+name, func(t *testing.T) {
				file := filepath.Join(dir, name)
				res, failed := importFiles(lang, []string{file}, os.ReadFile)
				got := importOutput(res, failed)
				golden := file + ".golden"
				if *update {
					require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
				}
				want, err := os.ReadFile(golden)
				require.NoError(t, err)
				assert.Equal(t, string(want), got)

				if len(failed) > 0 {
					// Only a file the agent itself refuses may fail.
					require.Equal(t, "gemini/extension-example.toml", lang+"/"+name, failed)
					assert.Contains(t, failed[0], "line 16")
					assert.Empty(t, res.Rules)
					return
				}
				require.NotEmpty(t, res.Sources[file], "the file holds rules")
				for _, line := range res.Sources[file] {
					translated, warned := false, false
					for _, r := range res.Rules {
						translated = translated || r.Line == line
					}
					for _, w := range res.Warnings {
						warned = warned || w.Line == line
					}
					assert.True(t, translated || warned, "%s:%d neither translated nor warned of", file, line)
				}
				for _, w := range res.Warnings {
					if lang != "codex" {
						break
					}
					assert.NotContains(t, w.Msg, "example", "the file's own examples agree with the translation: %s", w)
				}
				lintFragment(t, res)
			})
		}
		assert.Positive(t, n, lang)
	}
}

// lintFragment runs toolgate lint on the fragment res prints and wants
// no error.
func lintFragment(t *testing.T, res importResult) {
	t.Helper()
	tmp := t.TempDir()
	out, err := json.Marshal(res.fragment())
	require.NoError(t, err)
	settings := filepath.Join(tmp, "imported.json")
	require.NoError(t, os.WriteFile(settings, out, 0o644))
	found, checked := lint(source{cwd: tmp, home: tmp, managed: filepath.Join(tmp, "none.json"), extra: []string{settings}})
	assert.Equal(t, 1, checked)
	for _, f := range found {
		assert.False(t, f.Error, "lint: %s", f)
	}
}

func TestImportCodexConstructs(t *testing.T) {
	src := `# a comment
prefix_rule(
    pattern = ["git", ["push", "fetch"], "origin"],
    decision = "forbidden",
    match = ["git push origin main", ["git", "fetch", "origin"]],
    not_match = ["git push upstream", "git pull origin"],
)
prefix_rule(["npm", "run"], "prompt", match = ["npm test"], not_match = ["npm run build"])
prefix_rule(pattern = ["echo", "a*b"])
prefix_rule(pattern = ["printf", "it's"], match = [["printf", "it's", "x"]])
network_rule(host = "example.com", protocol = "https", decision = "allow")
host_executable(name = "git", paths = ["/usr/bin/git"])
`
	var res importResult
	require.NoError(t, importCodex("p.rules", []byte(src), &res))
	assert.Equal(t, []string{"Bash(printf 'it'\\''s':*)"}, res.fragment().Permissions.Allow)
	assert.Equal(t, []string{"Bash(npm run:*)"}, res.fragment().Permissions.Ask)
	assert.Equal(t, []string{"Bash(git push origin:*)", "Bash(git fetch origin:*)"}, res.fragment().Permissions.Deny)
	var warns []string
	for _, w := range res.Warnings {
		warns = append(warns, w.String())
	}
	assert.Equal(t, []string{
		`p.rules:8: match example "npm test" does not match the translated rule Bash(npm run:*)`,
		`p.rules:8: not_match example "npm run build" matches the translated rule Bash(npm run:*)`,
		`p.rules:9: prefix_rule "echo a*b" not translated: the word "a*b" holds '*', which a toolgate rule reads as a wildcard`,
		`p.rules:11: network_rule for "example.com" is not translated: it is Codex's sandbox network proxy; toolgate's WebFetch(domain:example.com) rules judge only the WebFetch tool`,
		`p.rules:12: host_executable "git" is not translated: toolgate's deny and ask rules for git hold whatever path runs it, its allow rules only the bare name`,
	}, warns)
	assert.Equal(t, []int{2, 8, 9, 10, 11, 12}, res.Sources["p.rules"])
}

// TestImportCodexRefusesMoreStarlark: a file that uses more of Starlark
// than calls of literals is refused with its line, never half read.
func TestImportCodexRefusesMoreStarlark(t *testing.T) {
	for src, want := range map[string]string{
		"cmds = [\"ls\"]\nprefix_rule(pattern = cmds)\n":         "line 1: only calls are read at the top level",
		"prefix_rule(pattern = [\"ls\"] + [\"-l\"])\n":           "line 1: '+' is outside the Starlark toolgate reads",
		"\n\nprefix_rule(pattern = [f\"{x}\"])\n":                "line 3: f-prefixed strings are not read",
		"prefix_rule(pattern = [\"ls\"], decision = \"deny\")\n": "line 1: decision must be allow, prompt or forbidden",
		"prefix_rule(pattern = [\"ls\"], colour = \"red\")\n":    "line 1: prefix_rule has no parameter colour",
		"load(\"x.star\", \"y\")\n":                              "line 1: unknown function load",
		"prefix_rule(pattern = [\"ls\"\n":                        "line 2: want ']', found the end of the file",
	} {
		var res importResult
		err := importCodex("p.rules", []byte(src), &res)
		require.Error(t, err, src)
		assert.Contains(t, err.Error(), want, src)
		assert.Empty(t, res.Rules, src)
	}
}

func TestImportGeminiConstructs(t *testing.T) {
	src := `[[rule]]
toolName = "run_shell_command"
commandPrefix = ["git", "git push"]
decision = "allow"
priority = 200

[[rule]]
toolName = "run_shell_command"
commandPrefix = "git push --force"
decision = "deny"
priority = 100
deny_message = "no force pushes"

[[rule]]
toolName = "run_shell_command"
commandRegex = "npm test"
decision = "allow"
priority = 10

[[rule]]
toolName = "run_shell_command"
commandRegex = "rm (-rf|-fr)"
decision = "deny"
priority = 10

[[rule]]
mcpName = "github"
toolName = "create_issue"
decision = "ask_user"
priority = 5

[[rule]]
mcpName = "jira"
toolName = "*"
decision = "deny"
priority = 5
colour = "red"

[[rule]]
toolName = "mcp_my_server_tool"
decision = "deny"
priority = 5

[other]
x = 1
`
	var res importResult
	require.NoError(t, importGemini("p.toml", []byte(src), &res))
	geminiPriorityWarnings(&res)
	f := res.fragment().Permissions
	assert.Equal(t, []string{"Bash(git:*)", "Bash(git push:*)", "Bash(npm test*)"}, f.Allow)
	// A literal commandRegex matches characters, not words, as Gemini's does.
	assert.True(t, rulesMatchCommand(f.Allow[2:], []string{"npm", "tests"}))
	assert.True(t, rulesMatchCommand(f.Allow[2:], []string{"npm", "test", "-v"}))
	assert.False(t, rulesMatchCommand(f.Allow[2:], []string{"npm", "run", "test"}))
	assert.Equal(t, []string{"mcp__github__create_issue"}, f.Ask)
	assert.Equal(t, []string{"Bash(git push --force:*)", "mcp__jira"}, f.Deny)
	var warns []string
	for _, w := range res.Warnings {
		warns = append(warns, w.String())
	}
	assert.ElementsMatch(t, []string{
		`p.toml:44: "other" is not a policy rule Gemini CLI's loader reads, and is not translated`,
		`p.toml:37: rule key "colour" is not one Gemini CLI's loader reads, and is not translated`,
		`p.toml:7: denyMessage "no force pushes" is not carried: toolgate's reason names the rule, not this text`,
		`p.toml:20: rule not translated: commandRegex "rm (-rf|-fr)" is not a plain prefix, and toolgate's rules match words, not regular expressions`,
		`p.toml:39: rule not translated: tool "mcp_my_server_tool": where Gemini's mcp_<server>_<tool> splits is ambiguous; write mcpName`,
		`p.toml:1: priority 200 allow Bash(git:*) is overridden in toolgate by the deny Bash(git push --force:*) (p.toml:7, priority 100): Gemini CLI lets the higher priority decide, toolgate's deny beats ask beats allow`,
		`p.toml:1: priority 200 allow Bash(git push:*) is overridden in toolgate by the deny Bash(git push --force:*) (p.toml:7, priority 100): Gemini CLI lets the higher priority decide, toolgate's deny beats ask beats allow`,
	}, warns)
}

func TestImportCommandLine(t *testing.T) {
	tmp := t.TempDir()
	good := filepath.Join(tmp, "a.rules")
	require.NoError(t, os.WriteFile(good, []byte(`prefix_rule(pattern = ["ls"], justification = "harmless")`), 0o644))
	for _, tc := range []struct {
		args     []string
		code     int
		out, err string
	}{
		{[]string{"import", "codex", good}, 0, `"allow": [` + "\n      \"Bash(ls:*)\"", good + `:1: justification of Bash(ls:*) is not carried`},
		{[]string{"import", "codex", good, filepath.Join(tmp, "missing.rules")}, 1, `"Bash(ls:*)"`, "missing.rules: cannot read"},
		{[]string{"import", "claude", good}, 2, "", "name the policy language (codex or gemini)"},
		{[]string{"import", "gemini"}, 2, "", "usage: toolgate import codex|gemini FILE..."},
		{[]string{"import", "-h"}, 0, "usage: toolgate import", ""},
	} {
		var out, errb bytes.Buffer
		code := run(tc.args, env{stdout: &out, stderr: &errb, getenv: func(string) string { return "" }})
		assert.Equal(t, tc.code, code, "%v: %s", tc.args, errb.String())
		assert.Contains(t, out.String(), tc.out, tc.args)
		assert.Contains(t, errb.String(), tc.err, tc.args)
	}
}

// FuzzImport: no input makes an importer panic, and every rule an import
// produces is one toolgate parses.
func FuzzImport(f *testing.F) {
	for _, dir := range []string{"codex", "gemini"} {
		files, _ := filepath.Glob(filepath.Join("testdata", "import", dir, "*"))
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil && !strings.HasSuffix(file, ".golden") && !strings.HasSuffix(file, "LICENSE") {
				f.Add(data)
			}
		}
	}
	f.Add([]byte(`prefix_rule(pattern = ["a", ["b", 'c'], r"\d"], match = ["a b '\\d'"], not_match = [["a"]])`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, imp := range []func(string, []byte, *importResult) error{importCodex, importGemini} {
			var res importResult
			if imp("f", data, &res) != nil {
				continue
			}
			geminiPriorityWarnings(&res)
			for _, r := range res.Rules {
				_, err := permission.ParseRule(r.Rule)
				require.NoError(t, err, r.Rule)
			}
		}
	})
}

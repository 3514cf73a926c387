package bashguard_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/sandbox"
)

// listerSpellings feed xargs the names a lister prints, its options
// written each way its program reads them: attached values, clusters,
// abbreviations, --opt=value, and values that begin with "-". The one
// scanner reads them by the lister's spec, so each reaches the listing's
// row. xargs names the lister in its reason when it knew what was listed.
var listerSpellings = []struct {
	script, decision, rule, reason string
	xargs                          string // a part of xargs' own reason
}{
	// Attached values.
	{"cd repos/clean && rg -tgo -l package | xargs cat", "allow", "safe", "every command is read-only", "on the files rg lists inside the allowed roots"},
	{"cd repos/clean && fd -cnever | xargs cat", "allow", "safe", "every command is read-only", "on the files fd lists inside the allowed roots"},
	{"cd repos/clean && git ls-files -xfoo | xargs cat", "allow", "safe", "every command is read-only", "on the files git ls-files lists inside the allowed roots"},
	{"cd repos/clean && git diff --name-only -M50 HEAD | xargs cat", "allow", "safe", "every command is read-only", "on the files git diff lists inside the allowed roots"},
	// Clusters: -uu is rg's -u twice, which lists hidden names.
	{"cd repos/clean && grep -rlepackage . | xargs cat", "allow", "safe", "every command is read-only", "on the files grep lists inside the allowed roots"},
	{"cd repos/env && rg -uu --files | xargs cat", "deny", "path:walk", "runs a command on the files below ., which holds config/.env", "which holds config/.env"},
	{"cd repos/env && rg -u --files | xargs cat", "allow", "safe", "every command is read-only", "on the files rg lists inside the allowed roots"},
	{"cd repos/env && fd -Hd3 | xargs cat", "deny", "path:walk", "runs a command on the files below ., which holds config/.env", "which holds config/.env"},
	{"cd repos/clean && git grep -lzi package | xargs -0 cat", "allow", "safe", "every command is read-only", "on the files git grep lists inside the allowed roots"},
	{"cd hidden && ls -1A | xargs cat", "allow", "safe", "every command is read-only", "on the files ls lists inside the allowed roots"},
	// Abbreviations, where the program takes them; one of two options
	// lists nothing.
	{"cd repos/clean && grep --recur --files-with-m package . | xargs cat", "allow", "safe", "every command is read-only", "on the files grep lists inside the allowed roots"},
	{"cd repos/clean && git grep --files-with-m -e package | xargs cat", "allow", "safe", "every command is read-only", "on the files git grep lists inside the allowed roots"},
	{"cd repos/clean && git ls-files --exclude-st --oth | xargs cat", "allow", "safe", "every command is read-only", "on the files git ls-files lists inside the allowed roots"},
	{"cd repos/clean && ls --almost | xargs cat", "allow", "safe", "every command is read-only", "on the files ls lists inside the allowed roots"},
	{"cd repos/clean && grep --recur --files-with package . | xargs cat", "ask", "args:grep", "uses the grep option --files-with, which is an abbreviation of more than one option", "runs cat with arguments read from its input, which cannot be checked"},
	{"cd repos/clean && git diff --name-on HEAD | xargs cat", "ask", "args:git", "uses the git diff option --name-on, which is not known to be harmless", "runs cat with arguments read from its input, which cannot be checked"},
	// --opt=value and --opt value; a value the listing does not allow
	// leaves the output unknown.
	{"cd repos/clean && rg --type=go -l package | xargs cat", "allow", "safe", "every command is read-only", "on the files rg lists inside the allowed roots"},
	{"cd repos/clean && grep -rl --regexp=package . | xargs cat", "allow", "safe", "every command is read-only", "on the files grep lists inside the allowed roots"},
	{"cd repos/env && fd --search-path=config | xargs cat", "allow", "safe", "every command is read-only", "on the files fd lists inside the allowed roots"},
	{"cd repos/env && fd -H --search-path=config | xargs cat", "deny", "path:walk", "runs a command on the files below config, which holds .env", "which holds .env"},
	{"cd repos/env && fd -H --search-path config | xargs cat", "deny", "path:walk", "runs a command on the files below config, which holds .env", "which holds .env"},
	{"cd hidden && ls --sort time | xargs cat", "allow", "safe", "every command is read-only", "on the files ls lists inside the allowed roots"},
	{"cd hidden && ls --color=always | xargs cat", "ask", "wrapper:xargs", "runs cat with arguments read from its input, which cannot be checked", "which cannot be checked"},
	{"cd repos/clean && fd --color=always | xargs cat", "ask", "wrapper:xargs", "runs cat with arguments read from its input, which cannot be checked", "which cannot be checked"},
	{"cd repos/clean && grep -rl --color never . | xargs cat", "ask", "wrapper:xargs", "runs cat with arguments read from its input, which cannot be checked", "which cannot be checked"},
	// A value that begins with "-" is the option's value: -e -Z searches
	// for "-Z" and does not end names with NUL, and -e --files makes rg
	// -l search for "--files".
	{"cd repos/clean && grep -rl -e -Z . | xargs cat", "allow", "safe", "every command is read-only", "on the files grep lists inside the allowed roots"},
	{"cd repos/clean && grep -rl -e -Z . | xargs -0 cat", "ask", "wrapper:xargs", "runs cat with arguments read from its input, which cannot be checked", "which cannot be checked"},
	{"cd repos/clean && rg -l -e --files | xargs cat", "allow", "safe", "every command is read-only", "on the files rg lists inside the allowed roots"},
	{"cd repos/clean && git grep -l -e -z | xargs -0 cat", "ask", "wrapper:xargs", "runs cat with arguments read from its input, which cannot be checked", "which cannot be checked"},
	{"cd repos/env && rg --files -g -x | xargs cat", "allow", "safe", "every command is read-only", "on the files rg lists inside the allowed roots"},
	// git's own options before the subcommand, by git's spec.
	{"cd repos/clean && git -P ls-files | xargs cat", "allow", "safe", "every command is read-only", "on the files git ls-files lists inside the allowed roots"},
	{"cd repos/clean && git -p ls-files | xargs cat", "ask", "args:git", "uses the git option -p, which runs a pager", "runs cat with arguments read from its input, which cannot be checked"},
}

// TestListerSpellings judges listerSpellings in the workspace of
// testdata/paths.jsonl: the decision, the rule and the reason of the
// script, and what xargs said of the list it reads.
func TestListerSpellings(t *testing.T) {
	ws, out := pathsWorkspace(t)
	sb, err := sandbox.New(sandbox.Config{Roots: []string{ws}, WorkDir: ws})
	require.NoError(t, err)
	judge := rulesJudge{ws: ws, out: out, sb: bashguard.CheckerJudge(sb)}
	pol := bashguard.DefaultPolicy()
	pol.Home = filepath.Join(filepath.Dir(ws), "home")
	g := bashguard.New(pol)
	_, noGit := exec.LookPath("git")
	for _, c := range listerSpellings {
		if strings.Contains(c.script, "repos/") && noGit != nil {
			t.Logf("SKIP %q: the repositories need git: %v", c.script, noGit)
			continue
		}
		v := g.Judge(context.Background(), ws, judge, c.script)
		assert.Equal(t, c.decision, v.Decision.String(), "decision for %q (%s)", c.script, v.Reason)
		assert.Equal(t, c.rule, string(v.Rule), "rule for %q (%s)", c.script, v.Reason)
		assert.Contains(t, v.Reason, c.reason, "reason for %q", c.script)
		xargs := ""
		for _, cmd := range v.Commands {
			if len(cmd.Args) > 0 && cmd.Args[0] == "xargs" {
				xargs = cmd.Reason
			}
		}
		assert.Contains(t, xargs, c.xargs, "xargs' reason for %q", c.script)
	}
}

package bashguard

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
)

// The config reader agrees with git on the keys a config sets: for every
// text git reads, the keys it lists (git config -f FILE --list
// --name-only) are the reader's, or the reader refuses the file (and the
// command asks). A hostile repository's spellings of a key that runs a
// program are among them.
func TestGitConfigKeysAgreeWithGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP: git is not installed, so the config reader cannot be compared with it: " + err.Error())
	}
	dir := t.TempDir()
	for _, text := range []string{
		"[core]\n\tfsmonitor = /tmp/x\n",
		"[Core]\n\tFSMonitor = /tmp/x\n",
		"[core]fsmonitor=/tmp/x\n",
		"[core] ; c\n\tfsmonitor = \"sh\" # x\n",
		"[core]\n\tfsmonitor = \"sh \\\n -c id\"\n",
		"[core]\n\tfsmonitor\n",
		"[core.x]\n\tfsmonitor = sh\n",
		"[core \"x\"]\n\tfsmonitor = sh\n",
		"[include]\n\tpath = /tmp/evil\n",
		"[includeIf \"gitdir:/\"]\n\tpath = /tmp/evil\n",
		"[filter \"lfs\"]\n\tprocess = sh\n\tclean = sh %f\n",
		"[diff \"Foo\"]\n\ttextconv = sh\n",
		"[pager]\n\tstatus = sh\n",
		"# only a comment\n[user]\n\tname = \"a;b#c\"\n",
		"[remote \"origin\"]\n\turl = https://example.com/x.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n",
	} {
		p := filepath.Join(dir, "config")
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		out, err := exec.Command("git", "config", "-f", p, "--list", "--name-only").Output()
		require.NoError(t, err, "git reads %q", text)
		want := strings.Fields(string(out))
		keys, why := parseGitConfigKeys(text)
		if why != "" {
			t.Logf("%q: the reader refuses it (%s); the command asks", text, why)
			continue
		}
		var got []string
		for _, k := range keys {
			got = append(got, k.name)
		}
		sort.Strings(want)
		sort.Strings(got)
		assert.Equal(t, want, got, "keys of %q", text)
	}
}

// A repository whose own config sets a key that runs a program, in any
// spelling git reads, has its read-only git commands asked; a key git
// does not read so (core.x.fsmonitor) changes nothing.
func TestGitConfigProgramsInAnySpelling(t *testing.T) {
	dir, paths := specRepo(t)
	cfg := filepath.Join(dir, ".git", "config")
	base, err := os.ReadFile(cfg)
	require.NoError(t, err)
	for _, tc := range []struct {
		text, want, key string
	}{
		{"[Core]\n\tFSMonitor = /tmp/x\n", "ask", "core.fsmonitor"},
		{"[core]fsmonitor=/tmp/x\n", "ask", "core.fsmonitor"},
		{"[includeIf \"gitdir:/\"]\n\tpath = /tmp/evil\n", "ask", "includeif.gitdir:/.path"},
		{"[diff \"Foo\"]\n\ttextconv = sh\n", "ask", "diff.Foo.textconv"},
		{"[filter \"lfs\"]\n\tprocess = sh\n", "ask", "filter.lfs.process"},
		{"[core.x]\n\tfsmonitor = sh\n", "allow", ""},
		{"[core]\n\tfsmonitor = true\n", "allow", ""},
	} {
		require.NoError(t, os.WriteFile(cfg, append(append([]byte(nil), base...), tc.text...), 0o644))
		v := New(DefaultPolicy()).Judge(context.Background(), dir, paths, "git status")
		assert.Equal(t, tc.want, v.Decision.String(), "%q: %s", tc.text, v.Reason)
		if tc.key != "" {
			assert.Equal(t, RuleGitConfig, v.Rule, tc.text)
			assert.Contains(t, v.Reason, "the repository's config sets "+tc.key, tc.text)
		} else {
			assert.Equal(t, permission.Allow, v.Decision, tc.text)
		}
	}
}

// go build, install and run stamp the binary by running git status in the
// repository, whose config can run a program: that Ask is one no allow
// rule for go lifts. go test and go vet run no git, and keep only their
// own Ask, which a rule lifts.
func TestGoBuildReadsTheRepositoryConfig(t *testing.T) {
	dir, paths := specRepo(t)
	cfg := filepath.Join(dir, ".git", "config")
	base, err := os.ReadFile(cfg)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(cfg, append(append([]byte(nil), base...), "[core]\n\tfsmonitor = /tmp/x\n"...), 0o644))
	g := New(DefaultPolicy())
	for _, tc := range []struct {
		line, reason string
		lifts        bool
	}{
		{"go build .", "the repository's config sets core.fsmonitor, which makes go build run a program", false},
		{"go install ./...", "the repository's config sets core.fsmonitor, which makes go install run a program", false},
		{"go run .", "the repository's config sets core.fsmonitor, which makes go run run a program", false},
		{"go test ./...", "go test builds the packages' tests and runs them", true},
		{"go vet ./...", "go vet compiles the packages", true},
	} {
		v := g.Judge(context.Background(), dir, paths, tc.line)
		assert.Equal(t, permission.Ask, v.Decision, "%s: %s", tc.line, v.Reason)
		assert.Contains(t, v.Reason, tc.reason, tc.line)
		if assert.NotEmpty(t, v.Commands, tc.line) {
			assert.Equal(t, tc.lifts, v.Commands[0].Overridable, "%s: a rule for go lifts it", tc.line)
		}
	}
}

// One config, kept on the Guard, answers each subcommand by its own
// spec, the first time and every time after: an ssh command set in it
// asks for git ls-remote, which connects, and not for git status,
// however often and in whichever order they come.
func TestGitConfigProgramsPerSubcommand(t *testing.T) {
	dir, paths := specRepo(t)
	cfg := filepath.Join(dir, ".git", "config")
	base, err := os.ReadFile(cfg)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(cfg, append(base, "[core]\n\tsshCommand = /tmp/x\n"...), 0o644))
	g := New(DefaultPolicy())
	for range 3 {
		v := g.Judge(context.Background(), dir, paths, "git ls-remote origin")
		assert.Equal(t, permission.Ask, v.Decision, v.Reason)
		assert.Equal(t, RuleGitConfig, v.Rule, v.Reason)
		assert.Contains(t, v.Reason, "the repository's config sets core.sshcommand, which makes git ls-remote run a program")
		v = g.Judge(context.Background(), dir, paths, "git status")
		assert.Equal(t, permission.Allow, v.Decision, v.Reason)
		assert.Equal(t, RuleSafe, v.Rule, v.Reason)
	}
}

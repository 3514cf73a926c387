package bashguard

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/sandbox"
)

// git grep, git ls-files and git grep -l read and print only what the
// index tracks: an untracked secret beside the tracked files holds them
// back no longer; a tracked one, a tracked path that is a link out of the
// roots today, the untracked files (-o, --untracked), an index the
// guard cannot read (split), and a secret the index holds for git grep
// --cached still do.
func TestTrackedFilesOnly(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP: no git for the repositories: " + err.Error())
	}
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "id_rsa"), []byte("KEY\n"), 0o600))
	repo := func(t *testing.T, setup func(dir string)) string {
		dir := todoRepo(t)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "src", ".env"), []byte("TODO=secret\n"), 0o600))
		if setup != nil {
			setup(dir)
		}
		return dir
	}
	judge := func(t *testing.T, dir, script string) Verdict {
		pol := DefaultPolicy()
		pol.Home = t.TempDir()
		sb, err := sandbox.New(sandbox.Config{Roots: []string{dir}, WorkDir: dir})
		require.NoError(t, err)
		return New(pol).Judge(context.Background(), dir, CheckerJudge(sb), script)
	}
	for _, tc := range []struct {
		name, script string
		setup        func(dir string)
		decision     string
		reason       string
	}{
		{"git grep, untracked secret", "git grep -n TODO", nil, "allow", "read-only"},
		{"git grep below a directory", "git grep TODO -- src", nil, "allow", "read-only"},
		{"git ls-files | xargs", "git ls-files | xargs cat", nil, "allow", "read-only"},
		{"git ls-files -z | xargs -0", "git ls-files -z | xargs -0 wc -l", nil, "allow", "read-only"},
		{"git grep -l | xargs", "git grep -l TODO | xargs head -1", nil, "allow", "read-only"},
		{"git grep with a pattern pathspec", "git grep -n TODO -- '*.go'", nil, "allow", "read-only"},
		{"git grep with a pattern naming the untracked secret", "git grep TODO -- '*.env' '.e*'", nil, "allow", "read-only"},
		{"a pattern pathspec and a tracked secret", "git grep TODO -- '*.go'", func(dir string) { gitIn(t, dir, "add", "-f", ".env") }, "ask", "holds .env"},
		{"a pattern from the top", "git grep TODO -- ':(top)*.go'", nil, "ask", "pattern git matches itself"},
		{"a pattern above the working directory", "cd src && git grep TODO -- '../*.go'", nil, "ask", "pattern git matches itself"},
		{"a pattern with an unreadable index", "git grep TODO -- '*.go'", func(dir string) { gitIn(t, dir, "update-index", "--split-index") }, "ask", "pattern git matches itself"},
		{"git grep of a revision, whose tree may hold the secret", "git grep TODO HEAD", func(dir string) {
			gitIn(t, dir, "add", "-f", ".env")
			gitIn(t, dir, "commit", "-qm", "secret")
			gitIn(t, dir, "rm", "-q", "--cached", ".env")
		}, "deny", "git grep searches the files of a revision in history, among them .env"},
		{"git grep -e of a revision", "git grep -e TODO main~0", nil, "ask", "holds .env"},
		{"git grep of a revision after --", "git grep TODO HEAD -- src", nil, "ask", "holds .env"},
		{"a planted index naming a path git never writes", "git ls-files | xargs cat", func(dir string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, ".git", "index"), indexV2("README.md", "src/../.env"), 0o644))
		}, "deny", "holds .env"},
		{"git ls-files -o lists untracked files", "git ls-files -o | xargs cat", nil, "deny", "holds .env"},
		{"git ls-files --others", "git ls-files --others --exclude-standard | xargs cat", nil, "deny", "holds .env"},
		{"git grep --untracked", "git grep --untracked TODO", nil, "ask", "holds .env"},
		{"git grep -l --untracked | xargs", "git grep -l --untracked TODO | xargs cat", nil, "deny", "holds .env"},
		{"a tracked secret", "git grep TODO", func(dir string) { gitIn(t, dir, "add", "-f", ".env") }, "ask", "holds .env"},
		{"a tracked secret | xargs", "git ls-files | xargs cat", func(dir string) { gitIn(t, dir, "add", "-f", ".env") }, "deny", "holds .env"},
		{"a tracked file that is a link out today", "git ls-files | xargs cat", func(dir string) {
			p := filepath.Join(dir, "src", "b.go")
			require.NoError(t, os.Remove(p))
			require.NoError(t, os.Symlink(filepath.Join(outside, "id_rsa"), p))
		}, "ask", "outside"},
		{"a tracked directory that is a link out today", "git grep TODO", func(dir string) {
			require.NoError(t, os.RemoveAll(filepath.Join(dir, "src")))
			require.NoError(t, os.WriteFile(filepath.Join(outside, "a.go"), []byte("TODO\n"), 0o644))
			require.NoError(t, os.Symlink(outside, filepath.Join(dir, "src")))
		}, "ask", "outside"},
		{"a split index is not read", "git grep TODO", func(dir string) { gitIn(t, dir, "update-index", "--split-index") }, "ask", "holds .env"},
		// git diff prints every tracked file's changes: the sandbox's
		// answers are kept (KeptJudge), so past the bound of what the
		// guard judges for one command the tracked files are judged all
		// the same, once (model_git_kept_test.go: a judge whose answers
		// are not kept still asks, saying so).
		{"git diff in a repository of more tracked files than the guard judges for one command", "git diff", func(dir string) {
			trackMany(t, dir, maxWalkEntries+1)
		}, "allow", "every command is read-only and on the safe list"},
		{"git diff in such a repository, a secret tracked among them", "git diff", func(dir string) {
			trackMany(t, dir, maxWalkEntries+1)
			gitIn(t, dir, "add", "-f", "src/.env")
		}, "deny", "git diff prints the content of the tracked files, among them src/.env: "},
		{"git diff in a repository of as many tracked files as the guard judges", "git diff", func(dir string) {
			trackMany(t, dir, maxWalkEntries-3) // with README.md, src/a.go and src/b.go
		}, "allow", "read-only"},
		{"git diff with a split index", "git diff", func(dir string) { gitIn(t, dir, "update-index", "--split-index") },
			"ask", "git diff prints the content of the tracked files, and the repository's index, which says which files those are, cannot be read here"},
		// --cached searches what the index holds: a secret staged and
		// gone from the working tree since is printed (git grep --cached
		// TODO printed .env:TODO=secret).
		{"git grep --cached, a staged secret the working tree no longer holds", "git grep --cached TODO", func(dir string) {
			gitIn(t, dir, "add", "-f", ".env")
			require.NoError(t, os.Remove(filepath.Join(dir, ".env")))
		}, "deny", "git grep searches the files the index holds, among them .env"},
		{"git grep --cached below a directory without the staged secret", "git grep --cached TODO -- src", func(dir string) {
			gitIn(t, dir, "add", "-f", ".env")
			require.NoError(t, os.Remove(filepath.Join(dir, ".env")))
		}, "allow", "read-only"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := repo(t, tc.setup)
			v := judge(t, dir, tc.script)
			assert.Equal(t, tc.decision, v.Decision.String(), "%q: %s", tc.script, v.Reason)
			assert.Contains(t, v.Reason, tc.reason, "%q", tc.script)
		})
	}
}

// trackMany adds n entries to the index of the repository at dir, each
// the blob of its README.md under a name of its own (many/fN.txt), with
// no file in the work tree: git diff shows each as deleted.
func trackMany(t *testing.T, dir string, n int) {
	t.Helper()
	out, err := exec.Command("git", "-C", dir, "hash-object", "-w", "README.md").Output()
	require.NoError(t, err)
	blob := strings.TrimSpace(string(out))
	var list strings.Builder
	for i := range n {
		fmt.Fprintf(&list, "100644 %s\tmany/f%d.txt\n", blob, i)
	}
	cmd := exec.Command("git", "-C", dir, "update-index", "--index-info")
	cmd.Stdin = strings.NewReader(list.String())
	b, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", b)
}

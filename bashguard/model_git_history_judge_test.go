package bashguard

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/sandbox"
)

// A secret committed once and taken out of the index since (git rm
// --cached .env, or deleted) is still printed by every command whose
// output carries the files of history: each is refused with the path
// named, as a tracked secret is. The commands that print no content, the
// files a <rev>:<path> names, and pathspecs that leave the secret out stay
// allowed; so does all of it in a repository whose history never held a
// secret.
func TestHistorySecrets(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP: no git for the repositories: " + err.Error())
	}
	repo := func(t *testing.T, secret string, after func(dir string)) string {
		dir := committedRepo(t, "hello\n", "README.md", "a.txt", "src/b.go")
		if secret != "" {
			require.NoError(t, os.WriteFile(filepath.Join(dir, secret), []byte("TOKEN=secret\n"), 0o600))
			gitIn(t, dir, "add", "-f", secret)
			gitIn(t, dir, "commit", "-qm", "oops")
			gitIn(t, dir, "rm", "-q", "--cached", secret)
			gitIn(t, dir, "commit", "-qm", "untrack the secret")
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("hello\nagain\n"), 0o644))
		gitIn(t, dir, "commit", "-qam", "more")
		if after != nil {
			after(dir)
		}
		return dir
	}
	deleted := func(dir string) { require.NoError(t, os.Remove(filepath.Join(dir, ".env"))) }
	packed := func(dir string) { gitIn(t, dir, "gc", "-q") }
	const (
		inHistory = "prints the content of files in history, among them .env: read "
		secretEnv = `secret path (matches ".env")`
	)
	for _, tc := range []struct {
		name, secret, script string
		after                func(dir string)
		decision, reason     string
	}{
		// The bypasses: each printed TOKEN=secret.
		{"git log -p", ".env", "git log -p", nil, "deny", "git log " + inHistory},
		{"git log -p, the secret deleted", ".env", "git log -p", deleted, "deny", "git log " + inHistory},
		{"git log -p, packed", ".env", "git log -p", packed, "deny", "git log " + inHistory},
		{"git log --patch --all", ".env", "git log --patch --all", nil, "deny", "git log " + inHistory},
		{"git log --cc", ".env", "git log --cc", nil, "deny", "git log " + inHistory},
		{"git show HEAD~1", ".env", "git show HEAD~2", nil, "deny", "git show " + inHistory},
		{"git show HEAD~1, deleted and packed", ".env", "git show HEAD~2", func(dir string) { deleted(dir); packed(dir) }, "deny", "git show " + inHistory},
		{"git diff HEAD~1", ".env", "git diff HEAD~3", nil, "deny", "git diff " + inHistory},
		{"git diff of two revisions", ".env", "git diff HEAD~3 HEAD~2", nil, "deny", "git diff " + inHistory},
		{"git whatchanged -p", ".env", "git whatchanged -p", nil, "deny", "git whatchanged " + inHistory},
		{"git archive", ".env", "git archive HEAD~2", nil, "deny", "git archive " + inHistory},
		{"git diff-tree -p", ".env", "git diff-tree -p HEAD~1", nil, "deny", "git diff-tree " + inHistory},
		{"git reflog -p", ".env", "git reflog -p", nil, "deny", "git reflog show " + inHistory},
		{"git grep of a revision", ".env", "git grep TOKEN HEAD~2", deleted, "deny", "git grep searches the files of a revision in history, among them .env"},
		{"the reason names the judge's", ".env", "git log -p", nil, "deny", secretEnv},
		{"a pathspec that holds the secret", "src/.env", "git log -p -- src", nil, "deny", "git log prints the content of files in history, among them src/.env"},
		{"a commit amended away, in the reflog", "", "git show HEAD@{1}", func(dir string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte("TOKEN=secret\n"), 0o600))
			gitIn(t, dir, "add", "-f", ".env")
			gitIn(t, dir, "commit", "-qm", "oops")
			gitIn(t, dir, "rm", "-q", "--cached", ".env")
			gitIn(t, dir, "commit", "-q", "--allow-empty", "--amend", "-m", "no secret")
		}, "deny", "git show " + inHistory},
		// What prints no file of history, or none of the secret's.
		{"git log --oneline", ".env", "git log --oneline", nil, "allow", "read-only git log"},
		{"git log --stat", ".env", "git log --stat", nil, "allow", "read-only git log"},
		{"git log --name-only", ".env", "git log --name-only -p", nil, "deny", "git log " + inHistory},
		{"git show REV:path", ".env", "git show HEAD:README.md", nil, "allow", "read-only git show"},
		{"git show an old REV:path", ".env", "git show HEAD~2:a.txt", nil, "allow", "read-only git show"},
		{"a pathspec without the secret", ".env", "git log -p -- src/", nil, "allow", "read-only git log"},
		{"a file as a pathspec", ".env", "git show HEAD~2 -- a.txt", nil, "allow", "read-only git show"},
		{"git diff of the work tree", ".env", "git diff", nil, "allow", "read-only git diff"},
		{"git diff --stat of revisions", ".env", "git diff --stat HEAD~3", nil, "allow", "read-only git diff"},
		{"git log -p, no secret ever", "", "git log -p", nil, "allow", "read-only git log"},
		{"git show HEAD~1, no secret ever", "", "git show HEAD~1", nil, "allow", "read-only git show"},
		{"git diff HEAD~1, no secret ever", "", "git diff HEAD~1", nil, "allow", "read-only git diff"},
		{"git archive, no secret ever, packed", "", "git archive HEAD", packed, "allow", "read-only git archive"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := repo(t, tc.secret, tc.after)
			v := judgeIn(t, New(historyPolicy(t)), dir, tc.script)
			assert.Equal(t, tc.decision, v.Decision.String(), "%q: %s", tc.script, v.Reason)
			assert.Contains(t, v.Reason, tc.reason, "%q", tc.script)
		})
	}

	// A commit that nothing reaches (a stash dropped with its untracked
	// .env) holds files the history does not: named by its id, it asks.
	t.Run("an unreachable commit", func(t *testing.T) {
		dir := repo(t, "", nil)
		require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte("TOKEN=secret\n"), 0o600))
		gitIn(t, dir, "stash", "-q", "-u")
		id := regexp.MustCompile(`\(([0-9a-f]{40})\)`).FindStringSubmatch(gitIn(t, dir, "stash", "drop"))[1]
		for _, script := range []string{"git show " + id, "git show " + id[:10] + "^3", "git log -p HEAD.." + id} {
			v := judgeIn(t, New(historyPolicy(t)), dir, script)
			assert.Equal(t, "ask", v.Decision.String(), "%q: %s", script, v.Reason)
			assert.Contains(t, v.Reason, "which no ref, reflog or stash reaches: the guard did not read its files", script)
			assert.Equal(t, RuleGitContent, v.Rule, script)
		}
	})

	// The fact is kept while the refs do not change, and read again when
	// they do.
	t.Run("kept and revalidated", func(t *testing.T) {
		dir := repo(t, "", nil)
		g := New(historyPolicy(t))
		g.ws.noTTL = true
		v := judgeIn(t, g, dir, "git log -p")
		require.Equal(t, "allow", v.Decision.String(), v.Reason)
		h := g.ws.history(dir)
		assert.Same(t, h, g.ws.history(dir), "the history is read once")
		require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte("TOKEN=secret\n"), 0o600))
		gitIn(t, dir, "add", "-f", ".env")
		gitIn(t, dir, "commit", "-qm", "oops")
		gitIn(t, dir, "rm", "-q", "--cached", ".env")
		v = judgeIn(t, g, dir, "git log -p")
		assert.Equal(t, "deny", v.Decision.String(), v.Reason)
		assert.Contains(t, v.Reason, "git log "+inHistory)
	})
}

// A history larger than the guard reads for one command is unknown: the
// commands that print it ask, saying so; those that do not stay allowed.
func TestHistoryBudget(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP: no git for the repositories: " + err.Error())
	}
	dir := t.TempDir()
	gitIn(t, dir, "init", "-q")
	for i := range 30 {
		require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.txt", i)), []byte("x\n"), 0o644))
		gitIn(t, dir, "add", ".")
		gitIn(t, dir, "commit", "-qm", fmt.Sprint(i))
	}
	g := New(historyPolicy(t))
	g.ws.histBudget = &histBudget{objects: 20, bytes: 1 << 20, paths: 1000}
	for _, tc := range []struct{ script, decision, reason string }{
		{"git log -p", "ask", "git log prints the content of files in history, and the history is larger than the guard reads for one command"},
		{"git show HEAD~3", "ask", "git show prints the content of files in history, and the history is larger than the guard reads for one command"},
		{"git log --oneline", "allow", "read-only git log"},
		{"git show HEAD:f1.txt", "allow", "read-only git show"},
	} {
		v := judgeIn(t, g, dir, tc.script)
		assert.Equal(t, tc.decision, v.Decision.String(), "%q: %s", tc.script, v.Reason)
		assert.Contains(t, v.Reason, tc.reason, tc.script)
		if tc.decision == "ask" {
			assert.Equal(t, RuleGitContent, v.Rule, tc.script)
		}
	}
	g.ws.histBudget = nil
	v := judgeIn(t, New(historyPolicy(t)), dir, "git log -p")
	assert.Equal(t, "allow", v.Decision.String(), "within the default budget: %s", v.Reason)
}

// historyPolicy is the default policy with a home of its own.
func historyPolicy(t *testing.T) Policy {
	pol := DefaultPolicy()
	pol.Home = t.TempDir()
	return pol
}

// judgeIn judges the one command script in the repository dir with g,
// the path judge a sandbox rooted at dir; the verdict's reason is the
// command's own.
func judgeIn(t *testing.T, g *Guard, dir, script string) Verdict {
	sb, err := sandbox.New(sandbox.Config{Roots: []string{dir}, WorkDir: dir})
	require.NoError(t, err)
	v := g.Judge(context.Background(), dir, CheckerJudge(sb), script)
	require.Len(t, v.Commands, 1, script)
	require.Equal(t, v.Decision, v.Commands[0].Decision, script)
	v.Reason = v.Commands[0].Reason
	return v
}

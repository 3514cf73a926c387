package bashguard

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/toolgate/toolgate/sandbox"
)

// benchGitScript is a script that asks git for much of what the guard
// reads of a repository: which one git finds, its config keys (every git
// command), its index (git grep, git ls-files) and its remotes (git
// fetch, git push).
const benchGitScript = `git status --short && git log -3 --oneline
git diff --stat HEAD
git grep -n TODO -- src | head
git ls-files | xargs wc -l
git remote -v && git fetch --dry-run origin
git branch -a && git show --stat HEAD`

// benchGitFacts is git commands whose judgement reads the repository's
// facts but walks no tree.
const benchGitFacts = `git status && git log -1 --oneline && git diff --stat && git remote -v && git branch -a && git -C . show --stat HEAD`

// BenchmarkJudgeGit judges benchGitScript in a real repository with one
// Guard, as a session does: every call after the first finds the
// repository's facts on the Guard.
func BenchmarkJudgeGit(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("SKIP: no git for the repository: " + err.Error())
	}
	dir, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range []string{"README.md", "src/a.go", "src/b.go"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("// TODO\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-qm", "first"},
		{"remote", "add", "origin", "https://github.com/example/project.git"}} {
		cmd := exec.Command("git", append([]string{"-c", "user.name=dev", "-c", "user.email=dev@example.com"}, args...)...)
		cmd.Dir = dir
		cmd.Env = []string{"HOME=" + dir, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1"}
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	// Stamps younger than the timestamp granularity are not trusted: let
	// the files age as a session's workspace has.
	time.Sleep(2100 * time.Millisecond)
	sb, err := sandbox.New(sandbox.Config{Roots: []string{dir}, WorkDir: dir})
	if err != nil {
		b.Fatal(err)
	}
	pol := DefaultPolicy()
	pol.Home = filepath.Join(dir, "home")
	g := New(pol)
	ctx := context.Background()
	for _, in := range []struct{ name, script string }{{"facts", benchGitFacts}, {"script", benchGitScript}} {
		b.Run(in.name, func(b *testing.B) {
			want := g.Judge(ctx, dir, CheckerJudge(sb), in.script)
			b.Logf("decision %s: %s", want.Decision, want.Reason)
			b.ReportAllocs()
			for b.Loop() {
				if v := g.Judge(ctx, dir, CheckerJudge(sb), in.script); v.Decision != want.Decision || v.Reason != want.Reason {
					b.Fatalf("decision changed: %s %q, was %s %q", v.Decision, v.Reason, want.Decision, want.Reason)
				}
			}
		})
	}
}

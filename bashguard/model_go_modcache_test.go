package bashguard

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGoModCacheBounds: a read in the Go module cache is allowed (the
// benign table holds those), and nothing else is: a write there, a read
// of the build cache, a path that leaves the cache by ".." or by a link,
// a secret path the judge denies, a cache the host does not know, and a
// substitution the guard cannot compute.
func TestGoModCacheBounds(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP: the bounds use the benign table's repository, which needs git: " + err.Error())
	}
	dir := benignRepo(t)
	home := t.TempDir()
	env := benignGoEnv(t, home)
	require.NoError(t, os.WriteFile(filepath.Join(home, "notes.txt"), []byte("private\n"), 0o600))
	// A link in the cache (go never makes one) that leads out of it.
	links := filepath.Join(env.ModCache, "example.com", "evil@v1.0.0")
	require.NoError(t, os.MkdirAll(links, 0o755))
	require.NoError(t, os.Symlink(filepath.Join(home, "notes.txt"), filepath.Join(links, "notes.txt")))
	pol := DefaultPolicy()
	pol.Home = home
	pol.GoEnv = env
	paths := CheckerJudge(rootChecker{dir: dir, roots: []string{dir}})
	mod := "~/go/pkg/mod/github.com/go-git/go-git/v6@v6.0.0"
	for _, c := range []struct {
		script, decision, reason string
		noEnv                    bool
	}{
		{script: "cat " + mod + "/repository.go", decision: "allow", reason: "every command is read-only and on the safe list"},
		{script: "cat " + mod + "/repository.go", noEnv: true, decision: "ask", reason: "repository.go outside the allowed roots"},
		{script: "ls $(go env GOMODCACHE)", noEnv: true, decision: "ask", reason: "only known at run time"},
		{script: "echo x > " + mod + "/repository.go", decision: "deny", reason: "writes " + home + "/go/pkg/mod/github.com/go-git/go-git/v6@v6.0.0/repository.go outside the allowed roots"},
		{script: "rm -rf $(go env GOMODCACHE)/github.com", decision: "deny", reason: "outside the allowed roots"},
		{script: "sed -i s/a/b/ " + mod + "/go.mod", decision: "deny", reason: "outside the allowed roots"},
		{script: "cat ~/.cache/go-build/00/x-d", decision: "ask", reason: "x-d outside the allowed roots"},
		{script: "grep -r test $(go env GOCACHE)", decision: "ask", reason: "go-build outside the allowed roots"},
		{script: "cat ~/go/pkg/mod/../../notes.txt", decision: "ask", reason: "notes.txt outside the allowed roots"},
		{script: "cat " + mod + "/../../../../../../notes.txt", decision: "ask", reason: "notes.txt outside the allowed roots"},
		{script: "cat ~/go/pkg/mod/example.com/evil@v1.0.0/notes.txt", decision: "ask", reason: "notes.txt outside the allowed roots"},
		{script: "cat ~/go/pkg/mod/*/../../notes.txt", decision: "ask", reason: "outside the allowed roots"},
		{script: "ls $(go env GOROOT)", decision: "ask", reason: "only known at run time"},
		{script: "ls $(go env -json GOMODCACHE)", decision: "ask", reason: "only known at run time"},
		{script: "ls $(GOMODCACHE=/etc go env GOMODCACHE)", decision: "ask", reason: "assignment to GOMODCACHE"},
		{script: "go() { echo /etc; }; ls $(go env GOMODCACHE)", decision: "ask", reason: "calls shell function \"go\""},
		{script: "ls $(go env GOPATH)/bin", decision: "ask", reason: "bin outside the allowed roots"},
	} {
		p := pol
		if c.noEnv {
			p.GoEnv = GoEnv{}
		}
		v := New(p).Judge(context.Background(), dir, paths, c.script)
		assert.Equal(t, c.decision, v.Decision.String(), "decision for %q (%s)", c.script, v.Reason)
		assert.Contains(t, v.Reason, c.reason, "reason for %q", c.script)
	}
}

package bashguard_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/sandbox"
)

// globWorkspace is a real workspace for glob tests: secret and protected
// files, sources, a link to a directory outside the roots, and that
// directory.
func globWorkspace(t *testing.T) (ws, outside string, judge func(script string) bashguard.Verdict) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	ws, outside = filepath.Join(base, "ws"), filepath.Join(base, "outside")
	for _, d := range []string{ws, outside, filepath.Join(ws, "src"), filepath.Join(ws, "sub"), filepath.Join(ws, "many")} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	for _, f := range []string{".env", "sub/.env", "key.pem", "id_rsa", ".bashrc", "src/a.go", "src/b.go", "README.md"} {
		require.NoError(t, os.WriteFile(filepath.Join(ws, f), []byte("x\n"), 0o644))
	}
	for i := range 1001 {
		require.NoError(t, os.WriteFile(filepath.Join(ws, "many", fmt.Sprintf("f%04d", i)), nil, 0o644))
	}
	require.NoError(t, os.WriteFile(filepath.Join(outside, "passwd"), []byte("root\n"), 0o644))
	require.NoError(t, os.Symlink(outside, filepath.Join(ws, "link")))
	sb, err := sandbox.New(sandbox.Config{Roots: []string{ws}, WorkDir: ws})
	require.NoError(t, err)
	pol := bashguard.DefaultPolicy()
	pol.Home = filepath.Join(base, "home")
	g := bashguard.New(pol)
	return ws, outside, func(script string) bashguard.Verdict {
		return g.Judge(context.Background(), ws, bashguard.CheckerJudge(sb), script)
	}
}

// TestGlobNamesAreChecked: a path word with unquoted glob characters is
// expanded as bash expands it, and every file it names goes through the
// path checker: a glob cannot reach a secret file, a protected file or a
// link out of the roots that its text does not name.
func TestGlobNamesAreChecked(t *testing.T) {
	ws, outside, judge := globWorkspace(t)
	tests := []struct {
		script   string
		decision permission.Decision
		rule     string
		reason   string
	}{
		{"cat .e*", permission.Deny, "path:secret",
			`cat: reads .env: read ` + ws + `/.env: secret path (matches ".env")`},
		{"cat */.env", permission.Deny, "path:secret",
			`cat: reads sub/.env: read ` + ws + `/sub/.env: secret path (matches ".env")`},
		{"cat */passwd", permission.Ask, "path:read",
			`cat: reads link/passwd outside the allowed roots: read "` + ws + `/link/passwd" refused: resolves to ` + outside + `/passwd, outside every root (` + ws + `)`},
		{"cat s*/.env", permission.Deny, "path:secret",
			`cat: reads sub/.env: read ` + ws + `/sub/.env: secret path (matches ".env")`},
		{"cat *.p?m", permission.Deny, "path:secret",
			`cat: reads key.pem: read ` + ws + `/key.pem: secret path (matches "*.pem")`},
		{"head -n 1 id_*", permission.Deny, "path:secret",
			`head: reads id_rsa: read ` + ws + `/id_rsa: secret path (matches "id_rsa*")`},
		{"cat lin*/passwd", permission.Ask, "path:read",
			`cat: reads link/passwd outside the allowed roots: read "` + ws + `/link/passwd" refused: resolves to ` + outside + `/passwd, outside every root (` + ws + `)`},
		{"echo x > .bashr?", permission.Ask, "write:protected",
			`echo: writes .bashrc: write ` + ws + `/.bashrc: protected path (matches ".bashrc")`},
		{"cat many/f*", permission.Ask, "path:glob",
			"cat: reads many/f*: the files it names cannot be checked: it matches more files than can be checked"},
		{"cat [[:alpha:]]env", permission.Ask, "path:glob",
			"cat: reads [[:alpha:]]env: the files it names cannot be checked: it uses a character class that is not checked"},
		// bash reads "[]a]" as the class of "]" and "a": id_rs[]a] names
		// id_rsa, and a pattern read otherwise than bash reads it is asked.
		{"cat id_rs[]a]", permission.Ask, "path:glob",
			"cat: reads id_rs[]a]: the files it names cannot be checked: it uses a character class that is not checked"},
		{"cat id_rs[!]b]", permission.Ask, "path:glob",
			"cat: reads id_rs[!]b]: the files it names cannot be checked: it uses a character class that is not checked"},
		{"cat id_rs[a", permission.Ask, "path:glob",
			"cat: reads id_rs[a: the files it names cannot be checked: it uses a character class that is not checked"},
		// bash's "?" and "*" do not match a leading dot: these name nothing
		// secret.
		{"cat ?env", permission.Allow, "safe", "every command is read-only and on the safe list"},
		{"wc -l src/*.go", permission.Allow, "safe", "every command is read-only and on the safe list"},
		{"grep -n x src/[ab].go README.*", permission.Allow, "safe", "every command is read-only and on the safe list"},
		{"ls src/*", permission.Allow, "safe", "every command is read-only and on the safe list"},
		{"cat nothing-matches-*", permission.Allow, "safe", "every command is read-only and on the safe list"},
		{"cat '.e*'", permission.Allow, "safe", "every command is read-only and on the safe list"},
	}
	for _, tt := range tests {
		t.Run(tt.script, func(t *testing.T) {
			v := judge(tt.script)
			assert.Equal(t, tt.decision, v.Decision, v.Reason)
			assert.Equal(t, tt.rule, string(v.Rule))
			assert.Equal(t, tt.reason, v.Reason)
		})
	}
}

// TestGlobNeedsWorkDir: without a working directory the files a relative
// glob names cannot be found, so it is not auto-allowed.
func TestGlobNeedsWorkDir(t *testing.T) {
	ws, _, _ := globWorkspace(t)
	sb, err := sandbox.New(sandbox.Config{Roots: []string{ws}, WorkDir: ws})
	require.NoError(t, err)
	v := bashguard.New(bashguard.DefaultPolicy()).Judge(context.Background(), "", bashguard.CheckerJudge(sb), "cat *.md")
	assert.Equal(t, permission.Ask, v.Decision)
	assert.Equal(t, "path:glob", string(v.Rule))
	assert.Equal(t, "cat: reads *.md: no working directory is configured, so the files it names cannot be checked", v.Reason)
}

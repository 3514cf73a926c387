//go:build linux

package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/sandbox"
)

// confineTestTool makes a tool home outside the roots, as ~/.cargo is:
// a program directory, a normal file and a credentials file beside them,
// and a .env one level down.
func confineTestTool(t *testing.T) string {
	t.Helper()
	tool := runTestDir(t)
	require.NoError(t, os.MkdirAll(filepath.Join(tool, "bin"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(tool, "conf"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(tool, "config.toml"), []byte("normal\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(tool, "credentials.toml"), []byte("token = \"s3cret\"\n"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(tool, "conf", ".env"), []byte("KEY=s3cret\n"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(tool, "conf", "app.ini"), []byte("app\n"), 0o644))
	return tool
}

// A secret inside a read-only grant is left out of it by the kernel: a
// confined cat of it fails with EACCES, while a normal file of the same
// grant, in the same directory, reads. The walk is kept: a secret that
// appears later is found at the next run, from the changed directory.
func TestConfinedReadOnlyGrantHidesSecrets(t *testing.T) {
	confineTestABI(t)
	r, _ := runTestRunner(t)
	tool := confineTestTool(t)
	r.Confinement.ReadOnly = append(DefaultConfineReadOnly(), tool)
	script := `cat ` + tool + `/config.toml ` + tool + `/conf/app.ini
cat ` + tool + `/credentials.toml 2>&1 || echo "credentials refused"
cat ` + tool + `/conf/.env 2>&1 || echo ".env refused"
ls ` + tool + `
{ echo x > ` + tool + `/new; } 2>/dev/null || echo "write refused"`
	want := "normal\napp\n" +
		"cat: " + tool + "/credentials.toml: Permission denied\ncredentials refused\n" +
		"cat: " + tool + "/conf/.env: Permission denied\n.env refused\n" +
		"bin\nconf\nconfig.toml\ncredentials.toml\n" +
		"write refused\n"
	for run := range 3 { // the first walks per run, the later ones keep the walk
		res, err := r.Run(context.Background(), script)
		require.NoError(t, err)
		confineTestEnforced(t, res, false)
		assert.Equal(t, want, res.Output, "run %d", run)
		assert.Equal(t, 2, res.Confined.Secrets, "run %d: the two secrets of the grant", run)
		assert.Empty(t, res.Confined.Dropped, "run %d", run)
	}
	kept := r.confineFacts().grants.by[tool]
	require.NotNil(t, kept, "the grant's walk is kept")
	_, err := r.Run(context.Background(), "true")
	require.NoError(t, err)
	assert.Same(t, kept, r.confineFacts().grants.by[tool], "an unchanged grant is not walked again")
	// A secret that appears in the grant after the walk.
	require.NoError(t, os.WriteFile(filepath.Join(tool, "bin", "id_ed25519"), []byte("KEY\n"), 0o600))
	res, err := r.Run(context.Background(), `cat `+tool+`/bin/id_ed25519 2>&1 || echo "new secret refused"`)
	require.NoError(t, err)
	assert.Equal(t, "cat: "+tool+"/bin/id_ed25519: Permission denied\nnew secret refused\n", res.Output)
	assert.Equal(t, 3, res.Confined.Secrets)
	assert.NotSame(t, kept, r.confineFacts().grants.by[tool], "the changed grant was walked again")
}

// runTestNoSecrets is a checker that cannot name secret paths outside the
// roots.
type runTestNoSecrets struct{ root runTestRoot }

func (c runTestNoSecrets) CheckPath(path string, write bool) (permission.Decision, string) {
	return c.root.CheckPath(path, write)
}

// Fail closed: a read-only grant whose secrets cannot all be found (more
// entries than the bound, directories nested deeper than the bound, or a
// checker that cannot name them) is not granted at all, and the result
// says which and why, as does a line at the end of the output (of its
// standard error, streamed), once per run.
func TestConfinedReadOnlyGrantDroppedPastItsBound(t *testing.T) {
	confineTestABI(t)
	tool := confineTestTool(t)
	deep := confineTestTool(t)
	nested := filepath.Join(deep, strings.Repeat("d/", ConfineMaxGrantDepth))
	require.NoError(t, os.MkdirAll(nested, 0o755))
	// At the bound, granted; one level deeper, not.
	r, _ := runTestRunner(t)
	r.Confinement.ReadOnly = append(DefaultConfineReadOnly(), deep)
	res, err := r.Run(context.Background(), `cat `+deep+`/config.toml; ls `+nested)
	require.NoError(t, err)
	confineTestEnforced(t, res, false)
	assert.Equal(t, "normal\n", res.Output)
	assert.Empty(t, res.Confined.Dropped)
	require.NoError(t, os.Mkdir(filepath.Join(nested, "d"), 0o755))
	for _, tc := range []struct {
		name, dir string
		set       func(r *Shell)
		reason    string
	}{
		{"more entries than MaxWalk", tool, func(r *Shell) { r.Confinement.MaxWalk = 4 },
			tool + ": not granted: it holds more than 4 entries, too many to find its secret paths (see Confinement.MaxWalk)"},
		{"directories nested deeper than ConfineMaxGrantDepth", deep, func(r *Shell) {},
			deep + ": not granted: it holds directories nested more than 64 deep, too deep to find its secret paths (see ConfineMaxGrantDepth)"},
		{"a checker without Secret", tool, func(r *Shell) { r.Checker = runTestNoSecrets{r.Checker.(runTestRoot)} },
			tool + ": not granted: the checker cannot name secret paths outside the roots (it has no Secret method)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := runTestRunner(t)
			tc.set(r)
			r.Confinement.ReadOnly = append(DefaultConfineReadOnly(), tc.dir)
			const told = "toolgate: a read-only location was not granted to the command: "
			res, err := r.Run(context.Background(), `cat `+tc.dir+`/config.toml 2>&1 || echo "grant dropped"; printf ok`)
			require.NoError(t, err)
			confineTestEnforced(t, res, false)
			assert.Equal(t, "cat: "+tc.dir+"/config.toml: Permission denied\ngrant dropped\nok\n"+told+tc.reason+"\n", res.Output)
			assert.Equal(t, []string{tc.reason}, res.Confined.Dropped)
			// Streamed: on standard error, once.
			var stdout, stderr strings.Builder
			r.Stream = &Stream{Stdout: &stdout, Stderr: &stderr}
			res, err = r.Run(context.Background(), `cat `+tc.dir+`/config.toml || echo "grant dropped"`)
			require.NoError(t, err)
			assert.Equal(t, "grant dropped\n", stdout.String())
			assert.Equal(t, "cat: "+tc.dir+"/config.toml: Permission denied\n"+told+tc.reason+"\n", stderr.String())
			assert.Equal(t, []string{tc.reason}, res.Confined.Dropped)
		})
	}
}

func TestConfineSystemLocation(t *testing.T) {
	for path, want := range map[string]bool{
		"/usr": true, "/usr/local/go": true, "/etc/": true, "/usrx": false, "/home/u/.cargo/bin": false, "/opt/x": true, "/": false,
	} {
		assert.Equal(t, want, confineSystemLocation(path), path)
	}
	assert.False(t, strings.HasPrefix("/usrx", "/usr/"))
}

// With the real sandbox as the checker: ~/.cargo granted read-only whole
// (as a PATH entry once granted it) keeps ~/.cargo/credentials.toml out,
// and a .env of another granted directory; the files beside them read.
func TestConfinedReadOnlyGrantWithSandbox(t *testing.T) {
	confineTestABI(t)
	tmp := runTestDir(t)
	home, proj := filepath.Join(tmp, "home"), filepath.Join(tmp, "home", "proj")
	cargo, tools := filepath.Join(home, ".cargo"), filepath.Join(home, "tools")
	for _, d := range []string{proj, filepath.Join(cargo, "bin"), tools} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	files := map[string]string{
		filepath.Join(cargo, "credentials.toml"): "[registry]\ntoken = \"s3cret\"\n",
		filepath.Join(cargo, "config.toml"):      "[build]\n",
		filepath.Join(tools, ".env"):             "KEY=s3cret\n",
		filepath.Join(tools, "run.sh"):           "echo run\n",
	}
	for p, body := range files {
		require.NoError(t, os.WriteFile(p, []byte(body), 0o600))
	}
	sb, err := sandbox.New(sandbox.Config{Roots: []string{proj}, WorkDir: proj, Home: home})
	require.NoError(t, err)
	r := &Shell{Dir: proj, Checker: sb, Home: home}
	r.Confinement.ReadOnly = append(DefaultConfineReadOnly(), cargo, tools)
	res, err := r.Run(context.Background(), `cd `+home+`
cat .cargo/config.toml tools/run.sh
cat .cargo/credentials.toml 2>&1 || echo "credentials refused"
cat tools/.env 2>&1 || echo ".env refused"`)
	require.NoError(t, err)
	confineTestEnforced(t, res, false)
	assert.Equal(t, "[build]\necho run\n"+
		"cat: .cargo/credentials.toml: Permission denied\ncredentials refused\n"+
		"cat: tools/.env: Permission denied\n.env refused\n", res.Output)
	assert.Equal(t, 2, res.Confined.Secrets)
	assert.Empty(t, res.Confined.Dropped)
}

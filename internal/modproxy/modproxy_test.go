package modproxy

import (
	"archive/zip"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(data), 0o644))
	}
}

func zipNames(t *testing.T, file string) []string {
	t.Helper()
	zr, err := zip.OpenReader(file)
	require.NoError(t, err)
	defer zr.Close()
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	slices.Sort(names)
	return names
}

// A tree outside git: the module's files, without the nested module's,
// a version-control directory's or a vendor directory's, and a link.
func TestAddLaysOutAVersion(t *testing.T) {
	src, proxy := t.TempDir(), t.TempDir()
	write(t, src, map[string]string{
		"go.mod":             "module example.com/My/mod\n\ngo 1.26.0\n",
		"a.go":               "package mod\n",
		"sub/b.go":           "package sub\n",
		"nested/go.mod":      "module example.com/My/mod/nested\n",
		"nested/c.go":        "package nested\n",
		".git/config":        "[core]\n",
		"vendor/x/y.go":      "package y\n",
		"testdata/file.txt":  "data\n",
		"sub/.hidden/ok.txt": "kept: only VCS directories are left out\n",
	})
	require.NoError(t, os.Symlink("a.go", filepath.Join(src, "link.go")))

	mod, err := Add(proxy, src, "v0.3.0", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	require.NoError(t, err)
	assert.Equal(t, "example.com/My/mod", mod)

	vdir := filepath.Join(proxy, "example.com", "!my", "mod", "@v")
	list, err := os.ReadFile(filepath.Join(vdir, "list"))
	require.NoError(t, err)
	assert.Equal(t, "v0.3.0\n", string(list))
	info, err := os.ReadFile(filepath.Join(vdir, "v0.3.0.info"))
	require.NoError(t, err)
	assert.JSONEq(t, `{"Version":"v0.3.0","Time":"2026-01-01T00:00:00Z"}`, string(info))
	gomod, err := os.ReadFile(filepath.Join(vdir, "v0.3.0.mod"))
	require.NoError(t, err)
	assert.Equal(t, "module example.com/My/mod\n\ngo 1.26.0\n", string(gomod))
	p := "example.com/My/mod@v0.3.0/"
	assert.Equal(t, []string{p + "a.go", p + "go.mod", p + "sub/.hidden/ok.txt", p + "sub/b.go", p + "testdata/file.txt"},
		zipNames(t, filepath.Join(vdir, "v0.3.0.zip")))

	// A second version is listed after the first.
	_, err = Add(proxy, src, "v0.3.1", time.Now())
	require.NoError(t, err)
	list, err = os.ReadFile(filepath.Join(vdir, "list"))
	require.NoError(t, err)
	assert.Equal(t, "v0.3.0\nv0.3.1\n", string(list))
}

// What the go command would refuse is an error, with the cause named.
func TestAddRefuses(t *testing.T) {
	for name, c := range map[string]struct {
		files   map[string]string
		version string
		want    string
	}{
		"not canonical":        {map[string]string{"go.mod": "module example.com/m\n"}, "v0.3", "not a canonical semantic version"},
		"query":                {map[string]string{"go.mod": "module example.com/m\n"}, "latest", "not a canonical semantic version"},
		"major version suffix": {map[string]string{"go.mod": "module example.com/m/v2\n"}, "v0.3.0", "does not match the major version"},
		"no module directive":  {map[string]string{"go.mod": "go 1.26.0\n"}, "v0.3.0", "no module directive"},
		"file name":            {map[string]string{"go.mod": "module example.com/m\n", "a:b.txt": "x"}, "v0.3.0", `character ':' is not allowed`},
		"reserved name":        {map[string]string{"go.mod": "module example.com/m\n", "aux.go": "x"}, "v0.3.0", "a name Windows reserves"},
		"case":                 {map[string]string{"go.mod": "module example.com/m\n", "A.go": "x", "a.go": "y"}, "v0.3.0", "differ only in case"},
	} {
		t.Run(name, func(t *testing.T) {
			src := t.TempDir()
			write(t, src, c.files)
			_, err := Add(t.TempDir(), src, c.version, time.Now())
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

// In a git work tree the files are those git would commit: tracked, or
// untracked and not ignored; a build output git ignores stays out.
func TestAddTakesWhatGitWouldCommit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIPPED LOUDLY: no git on PATH; the work-tree listing is not tested here")
	}
	src, proxy := t.TempDir(), t.TempDir()
	write(t, src, map[string]string{
		"go.mod":     "module example.com/m\n",
		".gitignore": "/m\n*.test\n",
		"m.go":       "package main\n",
		"new.go":     "package main\n",
		"m":          "a build output",
		"x.test":     "a test binary",
	})
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Dir = src
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
	}
	git("init", "-q")
	git("add", "go.mod", ".gitignore", "m.go")
	git("commit", "-q", "-m", "init")
	_, err := Add(proxy, src, "v1.0.0", time.Now())
	require.NoError(t, err)
	p := "example.com/m@v1.0.0/"
	assert.Equal(t, []string{p + ".gitignore", p + "go.mod", p + "m.go", p + "new.go"},
		zipNames(t, filepath.Join(proxy, "example.com", "m", "@v", "v1.0.0.zip")))
}
